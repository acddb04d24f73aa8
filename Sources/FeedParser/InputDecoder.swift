import Glibc

/// Turns the raw bytes of a feed, in whatever encoding they came, into UTF-8 for the
/// parser, which is then told to ignore the document's own encoding label.
///
/// The encoding is taken from a byte-order mark, else from the XML declaration, else
/// UTF-8. Bytes that are not valid in the claimed encoding are read as Windows-1252
/// (what a feed claiming UTF-8 but written on Windows holds), never dropped.
struct InputDecoder {
  enum Repair: Equatable {
    /// Invalid UTF-8 was read as Windows-1252.
    case invalidUTF8
    /// The declared encoding is unknown; the bytes were read as UTF-8.
    case unknownEncoding(String)
    /// Bytes not valid in the declared encoding were read as Windows-1252.
    case invalidInDeclaredEncoding(String)
  }

  private(set) var repairs: [Repair] = []
  private(set) var encoding: String?
  private var sniffed = false
  private var head: [UInt8] = []
  private var converter: Converter?
  /// The tail of an incomplete UTF-8 sequence at the end of the previous chunk.
  private var pending: [UInt8] = []
  private var out: [UInt8] = []

  /// How many bytes are enough to find the encoding declaration.
  private static let sniffLength = 1024

  /// Decodes the next bytes and hands the UTF-8 to `emit` (in one or no call). Valid UTF-8
  /// is handed over as it came, without a copy.
  mutating func decode(
    _ input: UnsafeRawBufferPointer, final: Bool, emit: (UnsafeRawBufferPointer) -> Void
  ) {
    if !sniffed {
      head.append(contentsOf: input)
      guard head.count >= Self.sniffLength || final else { return }
      sniffed = true
      let start = chooseEncoding()
      let bytes = head
      head = []
      bytes.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[start...]), final, emit) }
      return
    }
    feed(input, final, emit)
  }

  private mutating func feed(
    _ input: UnsafeRawBufferPointer, _ final: Bool, _ emit: (UnsafeRawBufferPointer) -> Void
  ) {
    var buffer: [UInt8] = []
    swap(&buffer, &out)
    defer {
      buffer.removeAll(keepingCapacity: true)
      swap(&buffer, &out)
    }
    if converter != nil {
      convert(input, final: final, into: &buffer)
    } else if repairUTF8(input, final: final, into: &buffer) {
      if !input.isEmpty { emit(input) }
      return
    }
    if !buffer.isEmpty { buffer.withUnsafeBytes(emit) }
  }

  /// Decides the encoding from the first bytes; returns how many leading bytes (a BOM) to skip.
  private mutating func chooseEncoding() -> Int {
    // Only the first bytes, however many arrived: the choice may not depend on the chunking.
    let b = Array(head.prefix(Self.sniffLength))
    func has(_ prefix: [UInt8]) -> Bool {
      b.count >= prefix.count && Array(b[0..<prefix.count]) == prefix
    }
    let (name, skip): (String, Int)
    if has([0xEF, 0xBB, 0xBF]) {
      (name, skip) = ("UTF-8", 3)
    } else if has([0xFF, 0xFE, 0, 0]) {
      (name, skip) = ("UTF-32LE", 4)
    } else if has([0, 0, 0xFE, 0xFF]) {
      (name, skip) = ("UTF-32BE", 4)
    } else if has([0xFF, 0xFE]) {
      (name, skip) = ("UTF-16LE", 2)
    } else if has([0xFE, 0xFF]) {
      (name, skip) = ("UTF-16BE", 2)
    } else if has([0, 0, 0, 0x3C]) {
      (name, skip) = ("UTF-32BE", 0)
    } else if has([0x3C, 0, 0, 0]) {
      (name, skip) = ("UTF-32LE", 0)
    } else if has([0x3C, 0, 0x3F, 0]) {
      (name, skip) = ("UTF-16LE", 0)
    } else if has([0, 0x3C, 0, 0x3F]) {
      (name, skip) = ("UTF-16BE", 0)
    } else {
      // The declaration was read as ASCII, so a UTF-16 or UTF-32 label in it is wrong.
      let declared = Self.declaredEncoding(in: b) ?? "UTF-8"
      let wide = ["UTF-16", "UTF16", "UTF-32", "UTF32", "UCS"].contains {
        declared.uppercased().hasPrefix($0)
      }
      (name, skip) = (wide ? "UTF-8" : declared, 0)
    }
    encoding = name
    let canonical = name.uppercased().filter { $0.isLetter || $0.isNumber }
    if ["UTF8", "USASCII", "ASCII"].contains(canonical) { return skip }
    // ISO-8859-1 labels are Windows-1252 in practice: the range 0x80-0x9F holds curly quotes
    // and dashes, not C1 controls.
    let iconvName =
      ["ISO88591", "LATIN1", "L1", "ISOLATIN1"].contains(canonical)
      ? "WINDOWS-1252" : name
    if let converter = Converter(from: iconvName) {
      self.converter = converter
    } else {
      repairs.append(.unknownEncoding(name))
    }
    return skip
  }

  /// The `encoding` pseudo-attribute of an XML declaration in ASCII-compatible bytes.
  static func declaredEncoding(in bytes: [UInt8]) -> String? {
    guard let start = firstIndex(of: Array("<?xml".utf8), in: bytes, from: 0),
      let end = firstIndex(of: Array("?>".utf8), in: bytes, from: start),
      let key = firstIndex(of: Array("encoding".utf8), in: bytes[..<end], from: start)
    else { return nil }
    var i = key + 8
    while i < end
      && (bytes[i] == 0x20 || bytes[i] == 0x3D || bytes[i] == 0x09 || bytes[i] == 0x0A
        || bytes[i] == 0x0D)
    { i += 1 }
    guard i < end, bytes[i] == 0x22 || bytes[i] == 0x27 else { return nil }
    let quote = bytes[i]
    guard let close = bytes[(i + 1)..<end].firstIndex(of: quote), close > i + 1 else { return nil }
    return String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
  }

  private static func firstIndex<C: Collection<UInt8>>(of needle: [UInt8], in hay: C, from: C.Index)
    -> Int?
  where C.Index == Int {
    var i = from
    while i + needle.count <= hay.endIndex {
      if hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  /// Copies valid UTF-8 through; each byte of an invalid sequence is read as Windows-1252.
  /// Returns true, having written nothing, when `input` is valid and complete as it is.
  private mutating func repairUTF8(
    _ input: UnsafeRawBufferPointer, final: Bool, into out: inout [UInt8]
  ) -> Bool {
    if !pending.isEmpty {
      var joined = pending
      joined.append(contentsOf: input)
      pending = []
      joined.withUnsafeBytes { bytes in
        if repairUTF8(bytes, final: final, into: &out) { out.append(contentsOf: bytes) }
      }
      return false
    }
    var changed = false
    let p = input.bindMemory(to: UInt8.self)
    let n = p.count
    var i = 0
    var runStart = 0
    while i < n {
      // Thirty-two, then eight ASCII bytes at a time: most of a feed is markup and English
      // text.
      while i + 32 <= n {
        let words = UnsafeRawPointer(p.baseAddress! + i)
        let highBits =
          words.loadUnaligned(as: UInt64.self)
          | words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
          | words.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
          | words.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        if highBits & 0x8080_8080_8080_8080 != 0 { break }
        i += 32
      }
      while i + 8 <= n
        && (UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt64.self)
          & 0x8080_8080_8080_8080) == 0
      {
        i += 8
      }
      if i == n { break }
      let b = p[i]
      if b < 0x80 {
        i += 1
        continue
      }
      let length = UTF8Sequence.length(p, at: i)
      if length > 0 {
        i += length
        continue
      }
      if length == -1 && !final {
        // A sequence cut by the chunk boundary: finish it with the next chunk.
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[runStart..<i]))
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: p[i...]))
        return false
      }
      changed = true
      out.append(contentsOf: UnsafeBufferPointer(rebasing: p[runStart..<i]))
      Windows1252.appendUTF8(of: b, to: &out)
      if !repairs.contains(.invalidUTF8) { repairs.append(.invalidUTF8) }
      i += 1
      runStart = i
    }
    if !changed { return true }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[runStart..<n]))
    return false
  }

  private mutating func convert(
    _ input: UnsafeRawBufferPointer, final: Bool, into out: inout [UInt8]
  ) {
    guard let converter else { return }
    let invalid = converter.convert(input, final: final, into: &out)
    if invalid, let name = encoding, !repairs.contains(.invalidInDeclaredEncoding(name)) {
      repairs.append(.invalidInDeclaredEncoding(name))
    }
  }
}

/// A streaming iconv conversion to UTF-8.
private final class Converter {
  private let handle: iconv_t
  private var pending: [UInt8] = []

  init?(from encoding: String) {
    let handle = iconv_open("UTF-8", encoding)
    guard let handle, Int(bitPattern: handle) != -1 else { return nil }
    self.handle = handle
  }

  deinit { iconv_close(handle) }

  /// Converts `input` (after what the previous call left unfinished); returns whether a byte
  /// invalid in the source encoding had to be read as Windows-1252.
  func convert(_ input: UnsafeRawBufferPointer, final: Bool, into out: inout [UInt8]) -> Bool {
    var source = pending
    source.append(contentsOf: input)
    pending = []
    var invalid = false
    var output = [UInt8](repeating: 0, count: max(64, source.count * 4))
    source.withUnsafeMutableBytes { src in
      output.withUnsafeMutableBytes { dst in
        var inPtr = src.baseAddress?.assumingMemoryBound(to: CChar.self)
        var inLeft = src.count
        var outPtr = dst.baseAddress?.assumingMemoryBound(to: CChar.self)
        var outLeft = dst.count
        while inLeft > 0 {
          if iconv(handle, &inPtr, &inLeft, &outPtr, &outLeft) != -1 { break }
          let error = errno
          if error == EINVAL && !final {
            pending = Array(UnsafeRawBufferPointer(start: inPtr, count: inLeft))
            break
          }
          guard let bad = inPtr, error == EILSEQ || error == EINVAL, outLeft >= 3 else { break }
          var fallback: [UInt8] = []
          Windows1252.appendUTF8(of: UInt8(bitPattern: bad.pointee), to: &fallback)
          for byte in fallback {
            outPtr?.pointee = CChar(bitPattern: byte)
            outPtr = outPtr?.advanced(by: 1)
            outLeft -= 1
          }
          inPtr = bad.advanced(by: 1)
          inLeft -= 1
          invalid = true
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: dst[0..<(dst.count - outLeft)]))
      }
    }
    return invalid
  }
}
