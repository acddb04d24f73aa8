/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji
/// take two, combining marks and other zero-width characters none, the rest one.
public enum DisplayWidth {
  /// The columns `text` takes on a terminal.
  public static func of(_ text: String) -> Int {
    if let ascii = asciiWidth(text) { return ascii }
    var width = 0
    for character in text { width += of(character) }
    return width
  }

  /// The columns one user-perceived character takes: its base decides, except that an
  /// emoji presentation selector (U+FE0F) makes it an emoji, two columns wide.
  public static func of(_ character: Character) -> Int {
    var scalars = character.unicodeScalars.makeIterator()
    guard let first = scalars.next() else { return 0 }
    var width = of(first)
    while let next = scalars.next() {
      if next.value == 0xFE0F {
        width = 2
      } else if width == 0 {
        width = of(next)
      }
    }
    return width
  }

  /// The columns one code point takes when it stands alone.
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    if value < 0xA0 { return 0 }
    if value < 0x300 { return 1 }
    if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
    switch value {
    case 0x1160...0x11FF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF:
      // Hangul medial vowels and final consonants join the syllable before them; the rest
      // are zero-width spaces, joiners, marks and format characters.
      return 0
    default:
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format, .control: return 0
      default: return 1
      }
    }
  }

  /// `text` cut to at most `width` columns, ending in `…` when something was cut.
  public static func truncated(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if let ascii = asciiWidth(text) {
      return ascii <= width ? text : String(text.prefix(width - 1)) + "…"
    }
    guard of(text) > width else { return text }
    var result = ""
    var used = 0
    for character in text {
      let columns = of(character)
      if used + columns > width - 1 { break }
      result.append(character)
      used += columns
    }
    return result + "…"
  }

  /// `text` filled with spaces to `width` columns, on the left when `alignRight`.
  public static func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
    let missing = width - of(text)
    guard missing > 0 else { return text }
    let padding = String(repeating: " ", count: missing)
    return alignRight ? padding + text : text + padding
  }

  /// The width of printable ASCII text (its length), or nil when it holds anything else.
  private static func asciiWidth(_ text: String) -> Int? {
    var count = 0
    for byte in text.utf8 {
      guard byte >= 0x20 && byte < 0x7F else { return nil }
      count += 1
    }
    return count
  }

  /// East Asian Wide and Fullwidth blocks: Hangul Jamo leads, CJK symbols, kana, ideographs,
  /// Yi, Hangul syllables, compatibility and fullwidth forms, Tangut and the supplementary
  /// ideographic planes.
  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF,
      0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
