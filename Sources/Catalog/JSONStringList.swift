/// Reads a JSON array of strings, the form of list columns such as `podcasts.categories`.
///
/// `list` reads this column for every podcast; Foundation's JSONDecoder costs a fifth of a
/// 1,000-podcast `list --json` (its set-up per call and its first use), this a few
/// microseconds. Whitespace and every JSON string escape are read; anything else is not
/// a list of strings and gives nil.
enum JSONStringList {
  static func decode(_ text: String) -> [String]? {
    var text = text
    return text.withUTF8 { bytes in
      var reader = Reader(bytes: bytes)
      return reader.list()
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func list() -> [String]? {
      skipWhitespace()
      guard take(UInt8(ascii: "[")) else { return nil }
      var strings: [String] = []
      skipWhitespace()
      if !take(UInt8(ascii: "]")) {
        repeat {
          skipWhitespace()
          guard let string = string() else { return nil }
          strings.append(string)
          skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
      }
      skipWhitespace()
      return position == bytes.count ? strings : nil
    }

    private mutating func string() -> String? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      var utf8: [UInt8] = []
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(validating: utf8, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard escape(into: &utf8) else { return nil }
        case 0..<0x20:
          return nil
        default:
          utf8.append(byte)
        }
      }
      return nil
    }

    private mutating func escape(into utf8: inout [UInt8]) -> Bool {
      guard position < bytes.count else { return false }
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "u"):
        guard let scalar = unicodeEscape() else { return false }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
      default: return false
      }
      return true
    }

    /// `\uXXXX` after the `u`, with a surrogate pair read as one scalar.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
      guard let unit = hex4() else { return nil }
      switch unit {
      case 0xD800...0xDBFF:
        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
          (0xDC00...0xDFFF).contains(low)
        else { return nil }
        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      case 0xDC00...0xDFFF:
        return nil
      default:
        return Unicode.Scalar(unit)
      }
    }

    private mutating func hex4() -> UInt32? {
      guard position + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[position]
        position += 1
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    private mutating func skipWhitespace() {
      while position < bytes.count {
        switch bytes[position] {
        case 0x20, 0x09, 0x0A, 0x0D: position += 1
        default: return
        }
      }
    }
  }
}
