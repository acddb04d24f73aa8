/// Character references as HTML decodes them in text (the rules of Python's `html.unescape`,
/// which the conformance normaliser uses): the full named table of the HTML Standard,
/// numeric references with the Windows-1252 fix-ups of the standard.
enum HTMLEntities {
  /// The longest name in the table has 31 characters; a longer run matches no name whole.
  static let maximumNameLength = 31

  /// Looks a reference up in the bytes after an `&`: `name` points at the first byte after
  /// the `&` and holds the run of ASCII letters and digits there, `semicolon` tells whether
  /// a `;` follows that run. Returns the one or two code points of the value (the second is
  /// 0 when there is one) and how many bytes after the `&` it consumes, or nil when the `&`
  /// stays a literal `&`.
  static func lookUpNamed(
    _ name: UnsafeBufferPointer<UInt8>, semicolon: Bool
  ) -> (first: UInt32, second: UInt32, consumed: Int)? {
    let index = EntityIndex.shared
    if semicolon && name.count <= maximumNameLength, let entry = index.entry(name) {
      return (entry.first, entry.second, name.count + 1)
    }
    // A legacy name (`&amp`, `&nbsp`) may end without `;`: the longest one that is a prefix.
    var length = min(name.count, EntityIndex.longestLegacyName)
    while length >= 2 {
      if let entry = index.entry(UnsafeBufferPointer(rebasing: name[0..<length])), entry.legacy {
        return (entry.first, entry.second, length)
      }
      length -= 1
    }
    return nil
  }

  /// The code point a numeric reference stands for, or nil when it decodes to nothing.
  /// `value` is nil when the number overflowed.
  static func numericScalar(_ value: UInt32?) -> UInt32? {
    guard let value, value <= 0x10FFFF else { return 0xFFFD }
    if value >= 0x80 && value <= 0x9F {
      // Windows-1252 mapped by the HTML Standard; the five holes stay C1 controls.
      return windows1252(value) ?? value
    }
    switch value {
    case 0: return 0xFFFD
    case 0x0D: return 0x0D
    case 0xD800...0xDFFF: return 0xFFFD
    case 0x01...0x08, 0x0B, 0x0E...0x1F, 0x7F, 0xFDD0...0xFDEF: return nil
    default:
      // Every plane's last two code points are noncharacters.
      return value & 0xFFFE == 0xFFFE ? nil : value
    }
  }

  /// The character that Windows-1252 puts at a C1 position (0x80-0x9F), nil for its holes.
  /// Literal C1 controls in text are these characters decoded as ISO-8859-1 by mistake.
  static func windows1252(_ c1: UInt32) -> UInt32? {
    let mapped = windows1252Table[Int(c1 - 0x80)]
    return mapped == 0 ? nil : UInt32(mapped)
  }

  private static let windows1252Table: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]
}

/// An open-addressing hash table over the entity names, searched with the bytes of the input
/// in place, so a lookup allocates nothing.
private struct EntityIndex: Sendable {
  struct Entry: Sendable {
    var nameStart: Int32
    var nameLength: Int32
    var first: UInt32
    var second: UInt32
    var legacy: Bool
  }

  static let shared = EntityIndex(data: htmlEntityData)
  static let longestLegacyName = 6

  private var names: [UInt8] = []
  private var entries: [Entry] = []
  private var slots: [Int16]
  private let mask: Int

  private init(data: String) {
    slots = Array(repeating: -1, count: 4096)
    mask = slots.count - 1
    // Read as bytes: split into Substrings and parsed with `UInt32(_:radix:)`, the table
    // cost more to build than converting the HTML of a thousand episodes.
    var data = data
    data.withUTF8 { bytes in
      var i = 0
      while i < bytes.count {
        let start = i
        while i < bytes.count && bytes[i] != 0x20 && bytes[i] != 0x0A { i += 1 }
        if i > start { add(UnsafeBufferPointer(rebasing: bytes[start..<i])) }
        i += 1
      }
    }
  }

  /// Adds one `name:HEX[,HEX]` token.
  private mutating func add(_ token: UnsafeBufferPointer<UInt8>) {
    guard let colon = token.firstIndex(of: UInt8(ascii: ":")) else { return }
    let legacy = colon > 0 && token[colon - 1] == UInt8(ascii: "*")
    let name = UnsafeBufferPointer(rebasing: token[..<(legacy ? colon - 1 : colon)])
    var scalars: [UInt32] = []
    var value: UInt32 = 0
    var digits = 0
    for byte in token[(colon + 1)...] {
      if byte == UInt8(ascii: ",") {
        if digits > 0 { scalars.append(value) }
        (value, digits) = (0, 0)
      } else if let digit = hexValue(byte) {
        (value, digits) = (value << 4 | digit, digits + 1)
      }
    }
    if digits > 0 { scalars.append(value) }
    guard let first = scalars.first else { return }
    entries.append(
      Entry(
        nameStart: Int32(names.count), nameLength: Int32(name.count), first: first,
        second: scalars.count > 1 ? scalars[1] : 0, legacy: legacy))
    names.append(contentsOf: name)
    var slot = Self.hash(name) & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    slots[slot] = Int16(entries.count - 1)
  }

  private static func hash<C: Sequence<UInt8>>(_ bytes: C) -> Int {
    var h: UInt32 = 0x811C_9DC5
    for byte in bytes { h = (h ^ UInt32(byte)) &* 0x0100_0193 }
    return Int(h)
  }

  func entry(_ name: UnsafeBufferPointer<UInt8>) -> Entry? {
    var slot = Self.hash(name) & mask
    while true {
      let candidate = Int(slots[slot])
      if candidate < 0 { return nil }
      let entry = entries[candidate]
      if Int(entry.nameLength) == name.count {
        let start = Int(entry.nameStart)
        var i = 0
        while i < name.count && names[start + i] == name[i] { i += 1 }
        if i == name.count { return entry }
      }
      slot = (slot + 1) & mask
    }
  }
}

private func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
  case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
  default: nil
  }
}
