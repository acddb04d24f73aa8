/// Word wrapping for reading text on a terminal.
public enum TextWrapping {
  /// `text` broken into lines of at most `width` columns, each starting with `indent`.
  /// Lines break at spaces; a word wider than a line is cut. Line feeds in the text are
  /// kept, so paragraphs stay apart; spaces where a line breaks are dropped.
  public static func wrap(_ text: String, width: Int, indent: String = "") -> String {
    let room = max(1, width - DisplayWidth.of(indent))
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if paragraph.isEmpty {
        lines.append("")
        continue
      }
      var line = ""
      var used = 0
      for piece in paragraph.split(separator: " ") {
        var word = piece
        var columns = DisplayWidth.of(String(word))
        if used > 0 && used + 1 + columns <= room {
          line += " " + word
          used += 1 + columns
          continue
        }
        if used > 0 {
          lines.append(indent + line)
          line = ""
          used = 0
        }
        while columns > room {
          let (head, headColumns) = prefix(of: word, columns: room)
          lines.append(indent + head)
          word = word.dropFirst(head.count)
          columns -= headColumns
        }
        line = String(word)
        used = columns
      }
      lines.append(used > 0 ? indent + line : "")
    }
    return lines.joined(separator: "\n")
  }

  /// The longest start of `word` that fits in `columns` (at least one character).
  private static func prefix(of word: Substring, columns: Int) -> (Substring, Int) {
    var used = 0
    var end = word.startIndex
    for character in word {
      let width = DisplayWidth.of(character)
      if used + width > columns && end > word.startIndex { break }
      used += width
      end = word.index(after: end)
    }
    return (word[..<end], used)
  }
}
