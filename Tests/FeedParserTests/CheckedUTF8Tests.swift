import Testing

@testable import FeedParser

/// Strings made from the parser's bytes: the same String as `String(decoding:as:)` gives,
/// valid or not, at every length and offset the block scan can meet.
@Suite struct CheckedUTF8Tests {
  static let sequences: [(name: String, bytes: [UInt8], valid: Bool)] = [
    ("ASCII", Array("plain".utf8), true),
    ("two bytes", [0xC3, 0xA9], true),
    ("three bytes", [0xE2, 0x80, 0x99], true),
    ("four bytes", [0xF0, 0x9F, 0x8E, 0x99], true),
    ("U+FFFF", [0xEF, 0xBF, 0xBF], true),
    ("U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF], true),
    ("lone continuation", [0x80], false),
    ("overlong two bytes", [0xC0, 0xAF], false),
    ("overlong three bytes", [0xE0, 0x80, 0xAF], false),
    ("overlong four bytes", [0xF0, 0x80, 0x80, 0xAF], false),
    ("surrogate", [0xED, 0xA0, 0x80], false),
    ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80], false),
    ("F5 lead", [0xF5, 0x80, 0x80, 0x80], false),
    ("cut two bytes", [0xC3], false),
    ("cut four bytes", [0xF0, 0x9F, 0x8E], false),
    ("bad third byte", [0xE2, 0x80, 0x41], false),
  ]

  @Test(arguments: sequences.indices)
  func sameStringAsTheStandardLibrary(index: Int) {
    let sequence = Self.sequences[index]
    // Placed at every offset of a run longer than a block, and at its end.
    for before in 0..<20 {
      for after in [0, 1, 17] {
        let bytes =
          [UInt8](repeating: 0x61, count: before) + sequence.bytes
          + [UInt8](repeating: 0x62, count: after)
        bytes.withUnsafeBufferPointer { buffer in
          let checked = String(checkedUTF8: buffer)
          #expect(checked == String(decoding: buffer, as: UTF8.self), "\(sequence.name)")
          #expect(Array(checked.utf8) == Array(String(decoding: buffer, as: UTF8.self).utf8))
          let result = CheckedUTF8.check(buffer)
          #expect(
            result == (sequence.valid ? (sequence.name == "ASCII" ? .ascii : .valid) : .invalid))
        }
      }
    }
  }

  /// A String known to be ASCII hashes and compares as one made by the standard library.
  @Test func asciiStringsHashAlike() {
    let text = "guid:https://example.com/episodes/1"
    let checked = Array(text.utf8).withUnsafeBufferPointer { String(checkedUTF8: $0) }
    #expect(Set([text]).contains(checked))
    #expect(checked.hashValue == text.hashValue)
  }
}
