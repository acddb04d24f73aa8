import FeedParser

/// What must hold for the readers of single values (dates, durations, numbers) on any text:
/// the String and the bytes entry points agree, surrounding whitespace and (for dates) ASCII
/// case change nothing, and every value read comes back when written in a form the reader
/// documents.
public enum ReaderInvariants {
  /// Each broken invariant of ``FeedDate``, described; empty when all hold.
  public static func dateViolations(_ input: UnsafeRawBufferPointer) -> [String] {
    let bytes = input.assumingMemoryBound(to: UInt8.self)
    let text = String(decoding: bytes, as: UTF8.self)
    let value = FeedDate.unixSeconds(text)
    var found = entryPointProblems(bytes, text, value, FeedDate.unixSeconds)
    let variants = [
      ("padded with whitespace", " \t" + text + "\r\n "),
      ("in upper case", asciiCased(text, upper: true)),
      ("in lower case", asciiCased(text, upper: false)),
    ]
    for (name, variant) in variants where FeedDate.unixSeconds(variant) != value {
      found.append(
        "\(text.debugDescription) \(name) reads \(String(describing: FeedDate.unixSeconds(variant))), not \(String(describing: value))"
      )
    }
    if let value, FeedDate.parse(text)?.timeIntervalSince1970 != Double(value) {
      found.append("\(text.debugDescription): parse and unixSeconds disagree")
    }
    if let value, let civil = CivilDate(unixSeconds: value), (1000...9999).contains(civil.year) {
      for written in [civil.iso8601, civil.rfc822] where FeedDate.unixSeconds(written) != value {
        found.append(
          "\(text.debugDescription) reads \(value), but \(written) reads \(String(describing: FeedDate.unixSeconds(written)))"
        )
      }
    }
    return found
  }

  /// Each broken invariant of ``FeedDuration``, described; empty when all hold.
  public static func durationViolations(_ input: UnsafeRawBufferPointer) -> [String] {
    let bytes = input.assumingMemoryBound(to: UInt8.self)
    let text = String(decoding: bytes, as: UTF8.self)
    let value = FeedDuration.parse(text)
    var found = entryPointProblems(bytes, text, value, FeedDuration.parse)
    if FeedDuration.parse(" \t" + text + "\r\n ") != value {
      found.append("\(text.debugDescription) padded with whitespace reads differently")
    }
    if let value {
      if value < 0 { found.append("\(text.debugDescription) reads a negative \(value)") }
      let clock = "\(value / 3600):\(twoDigits(value / 60 % 60)):\(twoDigits(value % 60))"
      for written in [String(value), clock] where FeedDuration.parse(written) != value {
        found.append("\(text.debugDescription) reads \(value), but \(written) does not")
      }
    }
    return found
  }

  /// Each broken invariant of ``FeedNumber``, described; empty when all hold.
  public static func numberViolations(_ input: UnsafeRawBufferPointer) -> [String] {
    let bytes = input.assumingMemoryBound(to: UInt8.self)
    let text = String(decoding: bytes, as: UTF8.self)
    let padded = " \t" + text + "\r\n "
    var found: [String] = []
    let readers: [(String, (String) -> Int?, (UnsafeBufferPointer<UInt8>) -> Int?)] = [
      ("length", FeedNumber.length, FeedNumber.length),
      ("integer", FeedNumber.integer, FeedNumber.integer),
    ]
    for (name, read, readBytes) in readers {
      let value = read(text)
      found += entryPointProblems(bytes, text, value, readBytes).map { "\(name): \($0)" }
      if read(padded) != value {
        found.append("\(name): \(text.debugDescription) padded with whitespace reads differently")
      }
      guard let value else { continue }
      if value < 0 { found.append("\(name): \(text.debugDescription) reads a negative \(value)") }
      if read(String(value)) != value {
        found.append("\(name): \(text.debugDescription) reads \(value), but \(value) does not")
      }
    }
    if let length = FeedNumber.length(text) {
      let grouped = length.formatted(groupingBy: ",")
      if FeedNumber.length(grouped) != length {
        found.append("length: \(text.debugDescription) reads \(length), but \(grouped) does not")
      }
    }
    let flag = FeedNumber.boolean(text)
    found += entryPointProblems(bytes, text, flag, FeedNumber.boolean)
      .map { "boolean: \($0)" }
    if FeedNumber.boolean(padded) != flag {
      found.append("boolean: \(text.debugDescription) padded with whitespace reads differently")
    }
    return found
  }

  /// The String and the bytes entry points must agree: on the input itself when it is valid
  /// UTF-8, and always on the bytes of the String made of it.
  private static func entryPointProblems<Value: Equatable>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ text: String, _ value: Value?,
    _ readBytes: (UnsafeBufferPointer<UInt8>) -> Value?
  ) -> [String] {
    var found: [String] = []
    if text.utf8.elementsEqual(bytes), readBytes(bytes) != value {
      found.append("\(text.debugDescription): the String and the bytes read differently")
    }
    let copy = Array(text.utf8)
    if copy.withUnsafeBufferPointer(readBytes) != value {
      found.append("\(text.debugDescription): the bytes of the String read differently")
    }
    return found
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : String(value)
  }

  private static func asciiCased(_ text: String, upper: Bool) -> String {
    let range =
      upper ? UInt8(ascii: "a")...UInt8(ascii: "z") : UInt8(ascii: "A")...UInt8(ascii: "Z")
    let bytes = text.utf8.map { range.contains($0) ? $0 ^ 0x20 : $0 }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension Int {
  /// `1234567` as `1,234,567`.
  fileprivate func formatted(groupingBy separator: Character) -> String {
    var digits = Array(String(self))
    var index = digits.count - 3
    while index > 0 {
      digits.insert(separator, at: index)
      index -= 3
    }
    return String(digits)
  }
}
