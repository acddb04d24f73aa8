extension String {
  /// The text of the UTF-8 `bytes`, each invalid sequence replaced by U+FFFD as
  /// `String(decoding:as:)` does.
  ///
  /// The parser's text is valid UTF-8 but for rare cases (base64 content), and the standard
  /// library checks it a byte at a time once it meets a non-ASCII character: descriptions
  /// full of curly quotes cost several instructions a byte. Here ASCII is passed sixteen
  /// bytes at a time and the String is made from the bytes so checked, without a second
  /// check.
  init(checkedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    switch CheckedUTF8.check(bytes) {
    case .invalid: self = String(decoding: bytes, as: UTF8.self)
    // Checked just above: the span is valid UTF-8. Telling ASCII keeps the String's fast
    // paths (hashing, comparing) that `String(decoding:as:)` would have enabled.
    case .ascii: self = String(copying: unsafe UTF8Span(unchecked: bytes.span, isKnownASCII: true))
    case .valid: self = String(copying: unsafe UTF8Span(unchecked: bytes.span))
    }
  }

  init(checkedUTF8 bytes: ArraySlice<UInt8>) {
    self = bytes.withUnsafeBufferPointer { String(checkedUTF8: $0) }
  }
}

enum CheckedUTF8 {
  enum Result { case invalid, ascii, valid }

  /// Whether `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
  /// nothing past U+10FFFF, no sequence cut at the end), and whether they are ASCII.
  static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    guard let base = bytes.baseAddress else { return .ascii }
    let n = bytes.count
    var ascii = true
    var i = 0
    while i < n {
      while i + 16 <= n {
        let words = UnsafeRawPointer(base + i)
        let high =
          words.loadUnaligned(as: UInt64.self)
          | words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if high & 0x8080_8080_8080_8080 != 0 { break }
        i += 16
      }
      guard i < n else { break }
      let lead = base[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      ascii = false
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, low) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, high) = (3, 0x9F)
      case 0xF0: (length, low) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, high) = (4, 0x8F)
      default: return .invalid
      }
      guard i + length <= n else { return .invalid }
      let second = base[i + 1]
      guard second >= low && second <= high else { return .invalid }
      for k in 2..<length where base[i + k] & 0xC0 != 0x80 { return .invalid }
      i += length
    }
    return ascii ? .ascii : .valid
  }
}
