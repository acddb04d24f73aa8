/// Text made safe to print on a terminal: a feed must not be able to move the cursor, change
/// the window title, clear the screen, hide text or reorder it.
///
/// Removes escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL or ST`, the string
/// sequences DCS, SOS, PM and APC, and any other `ESC x`), their 8-bit C1 forms, all other C1
/// and C0 controls but line feed and tab, DEL, and the bidi embedding, override and isolate
/// characters (U+202A–U+202E, U+2066–U+2069).
public enum TerminalText {
  /// Safe text that keeps its line feeds and tabs.
  public static func sanitized(_ text: String) -> String {
    clean(text, singleLine: false)
  }

  /// Safe text on one line: line feeds and tabs become spaces; for table cells and titles.
  public static func sanitizedLine(_ text: String) -> String {
    clean(text, singleLine: true)
  }

  private static func clean(_ text: String, singleLine: Bool) -> String {
    if isSafe(text.utf8, singleLine: singleLine) { return text }
    var result = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let scalar = scalars[i]
      let value = scalar.value
      i += 1
      switch value {
      case 0x0A, 0x09:
        result.append(singleLine ? " " : scalar)
      case 0x1B:
        i = skipEscape(scalars, from: i)
      case 0x9B:
        i = skipControlSequence(scalars, from: i)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
        i = skipControlString(scalars, from: i)
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
        break
      default:
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// After an ESC: the rest of the sequence it starts.
  private static func skipEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    guard start < scalars.count else { return start }
    switch scalars[start].value {
    case 0x5B:  // [
      return skipControlSequence(scalars, from: start + 1)
    case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ] P X ^ _
      return skipControlString(scalars, from: start + 1)
    case 0x20...0x2F:
      // nF sequences: intermediates then one final character, as in `ESC ( B`.
      var i = start
      while i < scalars.count && (0x20...0x2F).contains(scalars[i].value) { i += 1 }
      if i < scalars.count && (0x30...0x7E).contains(scalars[i].value) { i += 1 }
      return i
    case 0x30...0x7E:
      return start + 1
    default:
      return start
    }
  }

  /// After a CSI: parameters, intermediates and the final character.
  private static func skipControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var i = start
    while i < scalars.count && (0x30...0x3F).contains(scalars[i].value) { i += 1 }
    while i < scalars.count && (0x20...0x2F).contains(scalars[i].value) { i += 1 }
    if i < scalars.count && (0x40...0x7E).contains(scalars[i].value) { i += 1 }
    return i
  }

  /// After OSC, DCS, SOS, PM or APC: everything up to BEL or ST (`ESC \` or U+009C). An
  /// unterminated string runs to the end, as a terminal would swallow it.
  private static func skipControlString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var i = start
    while i < scalars.count {
      switch scalars[i].value {
      case 0x07, 0x9C:
        return i + 1
      case 0x1B:
        return i + 1 < scalars.count && scalars[i + 1] == "\\" ? i + 2 : i + 1
      default:
        i += 1
      }
    }
    return i
  }

  /// Whether nothing needs removing: the common case, decided on the bytes.
  private static func isSafe(_ utf8: String.UTF8View, singleLine: Bool) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for byte in utf8 {
      switch byte {
      case 0x0A, 0x09:
        if singleLine { return false }
      case 0x00...0x1F, 0x7F:
        return false
      case 0x80...0x9F where previous == 0xC2:
        return false
      case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2:
        return false
      case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2:
        return false
      default:
        break
      }
      beforePrevious = previous
      previous = byte
    }
    return true
  }
}
