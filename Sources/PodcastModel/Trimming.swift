extension StringProtocol {
  /// The text without surrounding whitespace and newlines. Foundation's
  /// `trimmingCharacters(in:)` goes through NSString on Linux, which costs more than parsing
  /// the feed did; this looks at the ends only.
  public func trimmingWhitespace() -> String {
    guard let first = first, let last = last else { return "" }
    if !first.isWhitespace && !last.isWhitespace { return String(self) }
    var start = startIndex
    var end = endIndex
    while start < end && self[start].isWhitespace { start = index(after: start) }
    while end > start && self[index(before: end)].isWhitespace { end = index(before: end) }
    return String(self[start..<end])
  }
}
