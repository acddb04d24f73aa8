import Foundation

/// A streaming JSON writer: compact UTF-8 appended to a byte buffer, handed to a file
/// descriptor in large writes. Keys come out in the order they are written.
///
/// Commas are placed by the writer; the caller writes `key` before each value in an object.
/// Write errors do not interrupt the calls that produce JSON: the first one is kept, later
/// output is dropped, and ``finish()`` throws it.
///
///     var json = JSONWriter(fileDescriptor: STDOUT_FILENO)
///     json.beginObject()
///     json.key("title")
///     json.string(title)
///     json.endObject()
///     try json.finish()
public struct JSONWriter {
  /// Writing to the file descriptor failed.
  public struct WriteError: Error, CustomStringConvertible, Equatable {
    public let code: Int32

    public var description: String {
      "cannot write the JSON output: " + String(cString: strerror(code))
    }
  }

  private var buffer: [UInt8] = []
  private let fileDescriptor: Int32?
  /// Where flushed bytes go instead of a file descriptor (a console that tests capture).
  private let sink: ((UnsafeRawBufferPointer) -> Void)?
  private let flushThreshold: Int
  private var needsComma = false
  /// The first write error, after which output is dropped.
  public private(set) var failure: WriteError?

  /// Writes to `fileDescriptor` whenever `flushThreshold` bytes are buffered, or keeps
  /// everything in ``bytes`` when `fileDescriptor` is nil.
  public init(fileDescriptor: Int32? = nil, flushThreshold: Int = 64 * 1024) {
    self.fileDescriptor = fileDescriptor
    self.sink = nil
    self.flushThreshold = max(1, flushThreshold)
    buffer.reserveCapacity(fileDescriptor == nil ? 1024 : self.flushThreshold + 4096)
  }

  /// Hands the bytes to `sink` whenever `flushThreshold` bytes are buffered.
  public init(
    flushThreshold: Int = 64 * 1024, sink: @escaping (UnsafeRawBufferPointer) -> Void
  ) {
    self.fileDescriptor = nil
    self.sink = sink
    self.flushThreshold = max(1, flushThreshold)
    buffer.reserveCapacity(self.flushThreshold + 4096)
  }

  /// The bytes not yet flushed: the whole document when writing to memory.
  public var bytes: [UInt8] { buffer }

  // MARK: structure

  public mutating func beginObject() {
    separate()
    buffer.append(UInt8(ascii: "{"))
    needsComma = false
  }

  public mutating func endObject() {
    buffer.append(UInt8(ascii: "}"))
    needsComma = true
    flushIfFull()
  }

  public mutating func beginArray() {
    separate()
    buffer.append(UInt8(ascii: "["))
    needsComma = false
  }

  public mutating func endArray() {
    buffer.append(UInt8(ascii: "]"))
    needsComma = true
    flushIfFull()
  }

  /// An object whose members `body` writes.
  public mutating func object(_ body: (inout JSONWriter) -> Void) {
    beginObject()
    body(&self)
    endObject()
  }

  /// An array whose elements `body` writes.
  public mutating func array(_ body: (inout JSONWriter) -> Void) {
    beginArray()
    body(&self)
    endArray()
  }

  /// The name of the next member of the current object.
  public mutating func key(_ name: String) {
    separate()
    appendQuoted(name)
    buffer.append(UInt8(ascii: ":"))
    needsComma = false
  }

  // MARK: values

  /// The clean text of a markup field (``HTMLText/plainText(_:)``), converted straight into
  /// the output; null for nil and when no text is left.
  public mutating func text(_ markup: String?) {
    separate()
    if let markup {
      HTMLText.withText(markup, paragraphs: true) { text in
        if text.isEmpty { appendNull() } else { appendQuoted(utf8: text) }
      }
    } else {
      appendNull()
    }
    needsComma = true
    flushIfFull()
  }

  /// A string, or null for nil.
  public mutating func string(_ value: String?) {
    separate()
    if let value { appendQuoted(value) } else { appendNull() }
    needsComma = true
    flushIfFull()
  }

  /// An integer, or null for nil.
  public mutating func int(_ value: Int?) {
    separate()
    if let value { appendInteger(value) } else { appendNull() }
    needsComma = true
  }

  /// `true`, `false`, or null for nil.
  public mutating func bool(_ value: Bool?) {
    separate()
    switch value {
    case true?: appendASCII("true")
    case false?: appendASCII("false")
    case nil: appendNull()
    }
    needsComma = true
  }

  /// ISO 8601 in UTC to the second (`2024-03-05T14:07:00Z`), or null for nil and for a date
  /// outside the years 1 to 9999.
  public mutating func date(_ value: Date?) {
    separate()
    if let value, let time = CivilTime(value) {
      buffer.append(UInt8(ascii: "\""))
      appendDigits(time.year, count: 4)
      buffer.append(UInt8(ascii: "-"))
      appendDigits(time.month, count: 2)
      buffer.append(UInt8(ascii: "-"))
      appendDigits(time.day, count: 2)
      buffer.append(UInt8(ascii: "T"))
      appendDigits(time.hour, count: 2)
      buffer.append(UInt8(ascii: ":"))
      appendDigits(time.minute, count: 2)
      buffer.append(UInt8(ascii: ":"))
      appendDigits(time.second, count: 2)
      appendASCII("Z\"")
    } else {
      appendNull()
    }
    needsComma = true
  }

  public mutating func null() {
    separate()
    appendNull()
    needsComma = true
  }

  /// An array of strings.
  public mutating func strings(_ values: [String]) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }

  // MARK: output

  /// Hands the buffered bytes to the file descriptor (nothing when writing to memory).
  public mutating func flush() {
    guard !buffer.isEmpty else { return }
    if let sink {
      buffer.withUnsafeBytes(sink)
      buffer.removeAll(keepingCapacity: true)
      return
    }
    guard let fileDescriptor else { return }
    if failure == nil {
      failure = buffer.withUnsafeBytes { Self.writeAll($0, to: fileDescriptor) }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Ends the document with a line feed and flushes; throws the first write error.
  public mutating func finish() throws {
    buffer.append(UInt8(ascii: "\n"))
    flush()
    if let failure { throw failure }
  }

  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fileDescriptor: Int32)
    -> WriteError?
  {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = write(fileDescriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return WriteError(code: errno)
      }
      offset += written
    }
    return nil
  }

  @inline(__always) private mutating func flushIfFull() {
    if buffer.count >= flushThreshold && (fileDescriptor != nil || sink != nil) { flush() }
  }

  // MARK: encoding

  @inline(__always) private mutating func separate() {
    if needsComma { buffer.append(UInt8(ascii: ",")) }
  }

  private mutating func appendNull() {
    appendASCII("null")
  }

  private mutating func appendASCII(_ literal: StaticString) {
    buffer.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  private mutating func appendInteger(_ value: Int) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  private mutating func appendDigits(_ value: Int, count: Int) {
    var divisor = 1
    for _ in 1..<count { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  private mutating func appendQuoted(_ value: String) {
    let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendQuoted(utf8: $0) }
    if done == nil {
      let bytes = Array(value.utf8)
      bytes.withUnsafeBufferPointer { appendQuoted(utf8: $0) }
    }
  }

  /// Escapes what JSON requires (`"`, `\`, C0 controls) and, so that JSON printed on a
  /// terminal stays inert and readable everywhere, DEL, C1 controls, U+2028/U+2029 and the
  /// bidi controls: all as `\uXXXX`, which decodes back to the same text.
  private mutating func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    buffer.append(UInt8(ascii: "\""))
    let count = bytes.count
    var runStart = 0
    var i = 0
    while i < count {
      i = Self.skipPlain(bytes, from: i)
      guard i < count else { break }
      let byte = bytes[i]
      if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
        i += 1
        continue
      }
      let escaped: UInt32
      let length: Int
      switch byte {
      case 0x00...0x1F, 0x22, 0x5C, 0x7F:
        (escaped, length) = (UInt32(byte), 1)
      case 0xC2 where i + 1 < count && bytes[i + 1] <= 0x9F:
        (escaped, length) = (UInt32(bytes[i + 1]), 2)
      case 0xE2 where i + 2 < count && Self.isEscapedPunctuation(bytes[i + 1], bytes[i + 2]):
        (escaped, length) = (
          0x2000 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3
        )
      default:
        i += 1
        continue
      }
      if runStart < i {
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
      }
      appendEscape(escaped)
      i += length
      runStart = i
    }
    if runStart < count {
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// The index of the first byte from `start` that may need an escape (a C0 control, `"`,
  /// `\`, DEL, or the lead byte 0xC2 or 0xE2 of the sequences escaped), looked for sixteen
  /// bytes at a time; where fewer than sixteen bytes are left, the index from which the
  /// caller goes on byte by byte.
  @inline(__always)
  private static func skipPlain(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    let space = SIMD16<UInt8>(repeating: 0x20)
    let quote = SIMD16<UInt8>(repeating: 0x22)
    let backslash = SIMD16<UInt8>(repeating: 0x5C)
    let delete = SIMD16<UInt8>(repeating: 0x7F)
    let c2 = SIMD16<UInt8>(repeating: 0xC2)
    let e2 = SIMD16<UInt8>(repeating: 0xE2)
    var i = start
    while i + 16 <= bytes.count {
      let x = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
      let special =
        (x .< space) .| (x .== quote) .| (x .== backslash) .| (x .== delete) .| (x .== c2)
        .| (x .== e2)
      // The lanes of a mask are all ones or all zeros: the first set one is found from the
      // mask read as two words.
      let words = unsafeBitCast(special, to: SIMD2<UInt64>.self)
      if words[0] != 0 { return i + words[0].trailingZeroBitCount >> 3 }
      if words[1] != 0 { return i + 8 + words[1].trailingZeroBitCount >> 3 }
      i += 16
    }
    return i
  }

  /// U+2028, U+2029, U+202A-U+202E and U+2066-U+2069, from their last two UTF-8 bytes.
  private static func isEscapedPunctuation(_ second: UInt8, _ third: UInt8) -> Bool {
    (second == 0x80 && third >= 0xA8 && third <= 0xAE)
      || (second == 0x81 && third >= 0xA6 && third <= 0xA9)
  }

  private mutating func appendEscape(_ value: UInt32) {
    buffer.append(UInt8(ascii: "\\"))
    switch value {
    case 0x22: buffer.append(UInt8(ascii: "\""))
    case 0x5C: buffer.append(UInt8(ascii: "\\"))
    case 0x0A: buffer.append(UInt8(ascii: "n"))
    case 0x0D: buffer.append(UInt8(ascii: "r"))
    case 0x09: buffer.append(UInt8(ascii: "t"))
    case 0x08: buffer.append(UInt8(ascii: "b"))
    case 0x0C: buffer.append(UInt8(ascii: "f"))
    default:
      buffer.append(UInt8(ascii: "u"))
      for shift in stride(from: 12, through: 0, by: -4) {
        buffer.append(Self.hexDigits[Int(value >> UInt32(shift) & 0xF)])
      }
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
