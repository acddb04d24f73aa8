/// The name in an RSS person field, which RSS fills with an e-mail address and, in
/// parentheses, the name (`me@example.com (Jane Doe)`), and feeds often with the reverse.
enum PersonName {
  /// `me@example.com (Jane Doe)`, `Jane Doe (me@example.com)` and `Jane Doe <me@example.com>`
  /// give `Jane Doe`; anything else is returned as it is.
  static func of(_ text: String) -> String {
    if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
      let outside = text[..<open].trimmingWhitespace()
      let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
        .trimmingWhitespace()
      if isAddress(outside), !inside.isEmpty { return inside }
      if isAddress(inside), !outside.isEmpty { return outside }
    }
    if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
      let outside = text[..<open].trimmingWhitespace()
      let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
      if isAddress(String(inside)), !outside.isEmpty { return outside }
    }
    return text
  }

  private static func isAddress(_ text: String) -> Bool {
    text.contains("@") && !text.contains(where: \.isWhitespace)
  }
}
