extension StringProtocol {
  /// The text without surrounding whitespace and newlines. Foundation's
  /// `trimmingCharacters(in:)` goes through NSString on Linux, which costs more than parsing
  /// the feed did; this looks at the ends only.
  public func trimmingWhitespace() -> String {
    // Most text has neither end blank, which the end scalars tell without breaking the text
    // into Characters: a visible ASCII scalar there belongs to a Character that is not
    // whitespace.
    if let head = unicodeScalars.first, let tail = unicodeScalars.last, isSolidASCII(head),
      isSolidASCII(tail)
    {
      return String(self)
    }
    guard let first = first, let last = last else { return "" }
    if !first.isWhitespace && !last.isWhitespace { return String(self) }
    var start = startIndex
    var end = endIndex
    while start < end && self[start].isWhitespace { start = index(after: start) }
    while end > start && self[index(before: end)].isWhitespace { end = index(before: end) }
    return String(self[start..<end])
  }
}

private func isSolidASCII(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value > 0x20 && scalar.value < 0x7F
}
