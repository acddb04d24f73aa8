import FeedViews
import Foundation

/// Values from the catalog as they are printed for people: clean text on one line, URLs with
/// their passwords masked, nothing that a terminal would read as a control sequence.
///
/// Everything a command prints that came from a feed or from the catalog file goes through
/// here or through ``TextTable`` (which sanitizes its cells itself).
enum Shown {
  /// A title or name (markup in the catalog) on one line; nil when no text is left.
  static func line(_ markup: String?) -> String? {
    guard let markup else { return nil }
    return TerminalText.sanitizedLine(HTMLText.singleLine(markup)).nonEmpty
  }

  /// A title for a sentence or a table cell: `(untitled)` when the feed gave none.
  static func title(_ markup: String?) -> String {
    line(markup) ?? "(untitled)"
  }

  /// Most columns a title takes in a status line: the whole title is for `show` and the
  /// tables, and a feed's 8 MB title must not make an 8 MB line.
  static let statusTitleWidth = 100

  /// A title for a status line (`Added ...`, `Removed ...`), cut to `statusTitleWidth`.
  static func statusTitle(_ markup: String?) -> String? {
    line(markup).map { DisplayWidth.truncated($0, to: statusTitleWidth) }
  }

  /// A description (markup in the catalog) as paragraphs separated by blank lines.
  static func paragraphs(_ markup: String?) -> String? {
    guard let markup else { return nil }
    return TerminalText.sanitized(HTMLText.plainText(markup)).nonEmpty
  }

  /// A URL with its password masked.
  static func url(_ url: String?) -> String? {
    guard let url else { return nil }
    return TerminalText.sanitizedLine(URLMasking.maskingCredentials(url)).nonEmpty
  }

  /// A plain value from a feed that is not markup (an id, a language, a category).
  static func plain(_ value: String?) -> String? {
    guard let value else { return nil }
    return TerminalText.sanitizedLine(value).nonEmpty
  }

  /// A message that may quote URLs (a stored refresh error, a reference typed by the user).
  static func message(_ text: String) -> String {
    TerminalText.sanitizedLine(maskingCredentials(inText: text))
  }

  /// The id as lists show it: its first 8 characters, as `git` shortens hashes.
  static func shortID(_ id: String, length: Int = 8) -> String {
    TerminalText.sanitizedLine(String(id.prefix(length)))
  }

  /// How many characters of each id a table shows: 8, or more when two of `ids` share their
  /// first 8 (ignoring case, as lookups do), so that every id shown can be typed back.
  static func shortIDLength(_ ids: [String]) -> Int {
    let sorted = ids.map { Array($0.lowercased().utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    var length = 8
    for (a, b) in zip(sorted, sorted.dropFirst()) {
      let shared = zip(a, b).prefix { $0 == $1 }.count
      length = max(length, shared + 1)
    }
    return length
  }

  /// `2024-03-05` (UTC), or an empty cell.
  static func day(_ date: Date?) -> String {
    date.flatMap { Formatting.date($0) } ?? ""
  }

  /// `1 episode`, `4 episodes`.
  static func count(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }

  /// Free text with the password of every URL in it masked. A URL is found by its `://`:
  /// it starts at the scheme letters before it and ends at a space or a quote, wherever it
  /// stands in the text (quoted, in parentheses, after a colon).
  static func maskingCredentials(inText text: String) -> String {
    guard text.contains("@") && text.contains("://") else { return text }
    var result = ""
    var rest = text[...]
    while let separator = rest.range(of: "://") {
      var start = separator.lowerBound
      while start > rest.startIndex {
        let before = rest.index(before: start)
        guard isSchemeCharacter(rest[before]) else { break }
        start = before
      }
      let end =
        rest[separator.upperBound...].firstIndex { $0.isWhitespace || "\"'<>".contains($0) }
        ?? rest.endIndex
      result += rest[..<start]
      result += URLMasking.maskingCredentials(String(rest[start..<end]))
      rest = rest[end...]
    }
    return result + rest
  }

  private static func isSchemeCharacter(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue else { return false }
    return (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A)
      || (ascii >= 0x30 && ascii <= 0x39) || ascii == 0x2B || ascii == 0x2D || ascii == 0x2E
  }
}
