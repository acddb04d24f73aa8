/// UTF-8 sequences as RFC 3629 allows them: no overlong forms, no surrogates, nothing
/// past U+10FFFF. Shared by the input decoder, which repairs what is invalid, and by
/// ``CheckedUTF8``, which refuses it.
enum UTF8Sequence {
  /// The length of the valid UTF-8 sequence at `i`; 0 when invalid, -1 when the input ends
  /// before a sequence that is valid so far is complete.
  @inline(__always)
  static func length(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let b = p[i]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default: return 0
    }
    for k in 1..<length {
      guard i + k < p.count else { return -1 }
      let c = p[i + k]
      if k == 1 {
        guard c >= low && c <= high else { return 0 }
      } else if c & 0xC0 != 0x80 {
        return 0
      }
    }
    return length
  }
}
