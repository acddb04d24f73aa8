/// Reads the numbers and flags feeds write as text: enclosure lengths, season and episode
/// numbers, `itunes:explicit`. Surrounding whitespace is ignored; anything else unreadable,
/// negative or too large for `Int` gives nil.
public enum FeedNumber {
  /// An enclosure `length` in bytes: `1234`, `1,234,567` (commas only between groups of
  /// three, so the European `179,5` is refused rather than misread), `179.5` rounded half up.
  public static func length(_ text: String) -> Int? {
    withBuffer(text, length(in:))
  }

  public static func length(_ bytes: some Collection<UInt8>) -> Int? {
    withBuffer(bytes, length(in:))
  }

  /// A season or episode number: digits, allowing a zero fraction (`3.0`) that generators
  /// print for floats; `3.5` is no episode number and gives nil.
  public static func integer(_ text: String) -> Int? {
    withBuffer(text, integer(in:))
  }

  public static func integer(_ bytes: some Collection<UInt8>) -> Int? {
    withBuffer(bytes, integer(in:))
  }

  /// `itunes:explicit`: `yes`, `true`, `explicit` are true; `no`, `false`, `clean` are
  /// false; case-insensitive. Anything else is nil: the feed did not say.
  public static func boolean(_ text: String) -> Bool? {
    withBuffer(text, boolean(in:))
  }

  public static func boolean(_ bytes: some Collection<UInt8>) -> Bool? {
    withBuffer(bytes, boolean(in:))
  }

  static func length(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var scanner = NumberScanner(bytes)
    guard let value = scanner.readGroupedDigits() else { return nil }
    return scanner.finish(value, roundingFraction: true)
  }

  static func integer(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var scanner = NumberScanner(bytes)
    guard let value = scanner.readDigits() else { return nil }
    return scanner.finish(value, roundingFraction: false)
  }

  static func boolean(in bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    let scanner = NumberScanner(bytes)
    let word = UnsafeBufferPointer(rebasing: bytes[scanner.index..<scanner.end])
    for (name, value) in flags where word.count == name.utf8CodeUnitCount {
      let letters = name.utf8Start
      if (0..<word.count).allSatisfy({ word[$0] | 0x20 == letters[$0] }) { return value }
    }
    return nil
  }

  private static let flags: [(StaticString, Bool)] = [
    ("yes", true), ("true", true), ("explicit", true),
    ("no", false), ("false", false), ("clean", false),
  ]

  private static func withBuffer<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R)
    -> R
  {
    var text = text
    return text.withUTF8(body)
  }

  private static func withBuffer<R>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
  }
}

/// A cursor over one trimmed value.
private struct NumberScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var end: Int

  /// Starts inside the blanks (U+00A0, a decoded `&nbsp;`, among them) around the value.
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    end = bytes.count
    while index < end {
      if isBlank(bytes[index]) {
        index += 1
      } else if bytes[index] == 0xC2, index + 1 < end, bytes[index + 1] == 0xA0 {
        index += 2
      } else {
        break
      }
    }
    while end > index {
      if isBlank(bytes[end - 1]) {
        end -= 1
      } else if bytes[end - 1] == 0xA0, end - 2 >= index, bytes[end - 2] == 0xC2 {
        end -= 2
      } else {
        break
      }
    }
  }

  /// One or more digits.
  mutating func readDigits() -> Int? {
    let start = index
    var value = 0
    while index < end, isDigit(bytes[index]) {
      guard let next = Self.append(bytes[index], to: value) else { return nil }
      value = next
      index += 1
    }
    return index > start ? value : nil
  }

  /// Digits, optionally with commas between groups of exactly three (`1,234,567`).
  mutating func readGroupedDigits() -> Int? {
    let start = index
    guard var value = readDigits() else { return nil }
    guard index < end, bytes[index] == UInt8(ascii: ",") else { return value }
    guard index - start <= 3 else { return nil }
    while index < end, bytes[index] == UInt8(ascii: ",") {
      index += 1
      guard index + 3 <= end else { return nil }
      for _ in 0..<3 {
        guard isDigit(bytes[index]), let next = Self.append(bytes[index], to: value) else {
          return nil
        }
        value = next
        index += 1
      }
      if index < end, isDigit(bytes[index]) { return nil }
    }
    return value
  }

  /// Accepts the value if only a fraction follows it: rounded half up, or required to be
  /// zero when `roundingFraction` is false.
  func finish(_ value: Int, roundingFraction: Bool) -> Int? {
    if index == end { return value }
    guard bytes[index] == UInt8(ascii: "."), index + 1 < end else { return nil }
    let fraction = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
    guard fraction.allSatisfy(isDigit) else { return nil }
    if !roundingFraction {
      return fraction.allSatisfy { $0 == UInt8(ascii: "0") } ? value : nil
    }
    guard fraction[0] >= UInt8(ascii: "5") else { return value }
    let (rounded, overflow) = value.addingReportingOverflow(1)
    return overflow ? nil : rounded
  }

  private static func append(_ digit: UInt8, to value: Int) -> Int? {
    let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
    let (sum, overflowB) = shifted.addingReportingOverflow(Int(digit &- UInt8(ascii: "0")))
    return overflowA || overflowB ? nil : sum
  }
}

private func isDigit(_ byte: UInt8) -> Bool {
  byte &- UInt8(ascii: "0") < 10
}

private func isBlank(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
    || byte == UInt8(ascii: "\r")
}
