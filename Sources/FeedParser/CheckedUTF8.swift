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
      // 0 for an invalid sequence, -1 for one the bytes end inside: both refused.
      let length = UTF8Sequence.length(bytes, at: i)
      guard length > 0 else { return .invalid }
      i += length
    }
    return ascii ? .ascii : .valid
  }
}
