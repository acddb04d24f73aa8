import Foundation

/// Quoting of generated shell code.
enum ShellQuoting {
  /// `'text'` for bash and zsh: nothing inside is special but the quote itself.
  static func single(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// `"text"` with the characters special inside double quotes escaped.
  static func double(_ text: String) -> String {
    var out = "\""
    for character in text {
      if "\"\\$`".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out + "\""
  }

  /// `'text'` for fish, where a backslash inside single quotes escapes a quote or itself.
  static func fish(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "'", with: "\\'") + "'"
  }

  /// `podcasts-x` as a function name part: `podcasts_x`.
  static func identifier(_ text: String) -> String {
    String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}
