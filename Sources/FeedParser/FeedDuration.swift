/// Reads `itunes:duration` into whole seconds.
///
/// Accepted, surrounding whitespace ignored: plain seconds (`3600`), `M:SS`, `MM:SS`,
/// `H:MM:SS`, `HH:MM:SS`, and a fraction on the last field (`3600.5`, `12:34.6`), rounded half
/// up. The leading field may be as large as the feed likes (`75:00` is 4500 s: feeds write
/// long episodes that way); the fields after it must be below 60, or the value is not a
/// duration anyone meant. Anything else (empty, a sign, a unit such as `32.17 minutes`, a
/// URL, four fields, an empty field, a number too large for `Int`) gives nil.
public enum FeedDuration {
  public static func parse(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { parse(in: $0) }
  }

  public static func parse(_ bytes: some Collection<UInt8>) -> Int? {
    if let result = bytes.withContiguousStorageIfAvailable({ parse(in: $0) }) {
      return result
    }
    return Array(bytes).withUnsafeBufferPointer { parse(in: $0) }
  }

  /// The scanner behind every entry point; the parser calls it on its own buffers.
  static func parse(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let (start, end) = trimmed(bytes)
    guard start < end else { return nil }

    var total = 0
    var fields = 0
    var index = start
    while true {
      let fieldStart = index
      var value = 0
      while index < end, bytes[index] &- UInt8(ascii: "0") < 10 {
        let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowB) = shifted.addingReportingOverflow(
          Int(bytes[index] &- UInt8(ascii: "0")))
        guard !overflowA, !overflowB else { return nil }
        value = sum
        index += 1
      }
      let digits = index - fieldStart
      guard digits > 0 else { return nil }
      fields += 1
      if fields > 1 {
        guard digits <= 2, value < 60 else { return nil }
      }
      let (shifted, overflowA) = total.multipliedReportingOverflow(by: 60)
      let (sum, overflowB) = shifted.addingReportingOverflow(value)
      guard !overflowA, !overflowB else { return nil }
      total = sum

      if index == end { return total }
      switch bytes[index] {
      case UInt8(ascii: ":"):
        guard fields < 3 else { return nil }
        index += 1
      case UInt8(ascii: "."):
        return roundFraction(bytes[(index + 1)..<end], onto: total)
      default:
        return nil
      }
    }
  }

  /// Rounds half up: only the first decimal decides, the rest must still be digits.
  private static func roundFraction(_ fraction: Slice<UnsafeBufferPointer<UInt8>>, onto total: Int)
    -> Int?
  {
    guard let first = fraction.first,
      fraction.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
    else { return nil }
    guard first >= UInt8(ascii: "5") else { return total }
    let (rounded, overflow) = total.addingReportingOverflow(1)
    return overflow ? nil : rounded
  }

  /// The bounds of `bytes` without surrounding blanks, U+00A0 (a decoded `&nbsp;`) included.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
    var start = 0
    var end = bytes.count
    while start < end {
      if isBlank(bytes[start]) {
        start += 1
      } else if bytes[start] == 0xC2, start + 1 < end, bytes[start + 1] == 0xA0 {
        start += 2
      } else {
        break
      }
    }
    while end > start {
      if isBlank(bytes[end - 1]) {
        end -= 1
      } else if bytes[end - 1] == 0xA0, end - 2 >= start, bytes[end - 2] == 0xC2 {
        end -= 2
      } else {
        break
      }
    }
    return (start, end)
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
      || byte == UInt8(ascii: "\r")
  }
}
