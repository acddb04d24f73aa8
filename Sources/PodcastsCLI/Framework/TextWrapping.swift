/// Word wrapping for help text.
enum TextWrapping {
  /// `text` broken into lines of at most `width` characters (a longer word stands alone),
  /// without indentation. Empty for empty text.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(whereSeparator: \.isWhitespace) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// Paragraphs reflowed to `width`, keeping blank lines and lines that start with a space
  /// (examples) as they are.
  static func reflow(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var paragraph: [Substring] = []
    func flushParagraph() {
      if !paragraph.isEmpty {
        lines += wrap(paragraph.joined(separator: " "), width: width)
        paragraph = []
      }
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.allSatisfy(\.isWhitespace) {
        flushParagraph()
        lines.append("")
      } else if line.first == " " {
        flushParagraph()
        lines.append(String(line))
      } else {
        paragraph.append(line)
      }
    }
    flushParagraph()
    return lines
  }

  /// Two columns: `label` indented by 2, `text` wrapped in a column starting at `column`;
  /// a label too wide for its column puts the text on the next line.
  static func twoColumns(label: String, text: String, column: Int, width: Int) -> String {
    let textLines = wrap(text, width: max(width - column, 20))
    let pad = String(repeating: " ", count: column)
    var out = "  " + label
    var rest = textLines[...]
    if out.count + 2 <= column, let first = rest.first {
      out += String(repeating: " ", count: column - out.count) + first
      rest = rest.dropFirst()
    }
    out += "\n"
    for line in rest { out += pad + line + "\n" }
    return out
  }
}
