import Foundation

/// Plain text from the HTML that model text fields hold.
///
/// The rules are those of the JSON contract's `text` type and of the conformance normaliser
/// (Python's `html.parser` with character references converted): tags removed, character
/// references decoded, script and style content and comments dropped, `<br>` a line break,
/// block tags a paragraph break, whitespace runs collapsed to one space, a run holding two
/// line breaks or more becoming one blank line (`"\n\n"`), the ends trimmed. A `<` that
/// starts no tag stays text, and so does a construct left open at the end. A CDATA section
/// counts as text (the normaliser drops it; a feed that wraps a description in one twice
/// means it to be read). Control characters are removed, but C1 controls, which are
/// Windows-1252 text decoded as ISO-8859-1 by mistake, become the characters meant (`It\u{92}s`
/// reads `It’s`), as numeric references to them do.
///
/// Works on the UTF-8 bytes in one pass with no allocation but the result.
public enum HTMLText {
  /// Text with paragraph breaks kept as `"\n\n"`; for descriptions and JSON.
  public static func plainText(_ html: String) -> String {
    convert(html, paragraphs: true)
  }

  /// Text on one line: every whitespace run, paragraph breaks included, becomes one space;
  /// for titles and table cells.
  public static func singleLine(_ html: String) -> String {
    convert(html, paragraphs: false)
  }

  /// ``plainText(_:)`` (or ``singleLine(_:)``) of UTF-8 bytes; invalid UTF-8 becomes U+FFFD.
  public static func plainText(utf8: UnsafeBufferPointer<UInt8>, paragraphs: Bool = true)
    -> String
  {
    // Decoded first: removing a tag or a control between the stray bytes of a broken
    // sequence would otherwise join them into a character, a C1 control among others.
    convert(String(decoding: utf8, as: UTF8.self), paragraphs: paragraphs)
  }

  /// Hands the UTF-8 of the text to `body` without making a String of it: for writers that
  /// copy it on at once. The bytes are valid UTF-8 as long as `html` is a String.
  static func withText<Result>(
    _ html: String, paragraphs: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = html.utf8.withContiguousStorageIfAvailable({
      converted($0, paragraphs: paragraphs, body)
    }) {
      return result
    }
    let bytes = Array(html.utf8)
    return bytes.withUnsafeBufferPointer { converted($0, paragraphs: paragraphs, body) }
  }

  /// Like ``withText(_:paragraphs:_:)``, but clean text comes back as the same String.
  private static func convert(_ html: String, paragraphs: Bool) -> String {
    let result = html.utf8.withContiguousStorageIfAvailable { bytes -> String? in
      if isClean(bytes) { return nil }
      return converted(bytes, paragraphs: paragraphs, mayBeClean: false) {
        String(decoding: $0, as: UTF8.self)
      }
    }
    switch result {
    case .some(.some(let text)): return text
    case .some(.none): return html
    case .none:
      return withText(html, paragraphs: paragraphs) { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// `mayBeClean: false` when the caller has found the text not clean already.
  private static func converted<Result>(
    _ html: UnsafeBufferPointer<UInt8>, paragraphs: Bool, mayBeClean: Bool = true,
    _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    guard let base = html.baseAddress, !(mayBeClean && isClean(html)) else { return body(html) }
    // Decoded references grow by at most one byte over their source; twice is a safe bound.
    let capacity = html.count * 2 + 16
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      guard let out = buffer.baseAddress else {
        return body(UnsafeBufferPointer(start: nil, count: 0))
      }
      var converter = HTMLTextConverter(input: base, count: html.count, output: out)
      converter.sink.paragraphs = paragraphs
      converter.run()
      return body(UnsafeBufferPointer(start: out, count: converter.sink.count))
    }
  }

  /// Whether the text is already what the conversion would return: no markup, no
  /// references, no control characters, no whitespace but single spaces inside.
  private static func isClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else {
      return bytes.isEmpty
    }
    var previousWasSpace = false
    for byte in bytes {
      if byte == 0x20 {
        if previousWasSpace { return false }
        previousWasSpace = true
        continue
      }
      previousWasSpace = false
      if byteClasses[Int(byte)] != ByteClass.ordinary { return false }
    }
    return true
  }
}

/// What a byte means to the text state machine.
enum ByteClass {
  static let ordinary: UInt8 = 0
  static let space: UInt8 = 1
  static let lineFeed: UInt8 = 2
  static let lessThan: UInt8 = 3
  static let ampersand: UInt8 = 4
  static let control: UInt8 = 5
  /// The lead bytes of the multi-byte sequences that may be whitespace or C1 controls.
  static let specialLead: UInt8 = 6
}

private let byteClasses: [UInt8] = (0..<256).map { byte -> UInt8 in
  switch byte {
  case 0x0A: return ByteClass.lineFeed
  case 0x09, 0x0B, 0x0C, 0x0D, 0x1C...0x1F, 0x20: return ByteClass.space
  case 0x00...0x1F, 0x7F: return ByteClass.control
  case 0x3C: return ByteClass.lessThan
  case 0x26: return ByteClass.ampersand
  case 0xC2, 0xE1, 0xE2, 0xE3: return ByteClass.specialLead
  default: return ByteClass.ordinary
  }
}

/// The output side: whitespace is held back until the next visible character decides
/// whether it becomes nothing (at the start), a space or a paragraph break.
struct TextSink {
  let out: UnsafeMutablePointer<UInt8>
  var count = 0
  var paragraphs = true
  private var pendingSpace = false
  private var lineFeeds = 0

  init(out: UnsafeMutablePointer<UInt8>) {
    self.out = out
  }

  @inline(__always) mutating func space() {
    pendingSpace = true
  }

  @inline(__always) mutating func lineBreaks(_ number: Int) {
    pendingSpace = true
    lineFeeds += number
  }

  @inline(__always) mutating func separate() {
    guard pendingSpace else { return }
    if count > 0 {
      if paragraphs && lineFeeds >= 2 {
        out[count] = 0x0A
        out[count + 1] = 0x0A
        count += 2
      } else {
        out[count] = 0x20
        count += 1
      }
    }
    pendingSpace = false
    lineFeeds = 0
  }

  @inline(__always) mutating func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
    separate()
    (out + count).update(from: bytes, count: length)
    count += length
  }

  /// A decoded code point: whitespace and controls are classified as in the source text.
  mutating func append(scalar value: UInt32) {
    switch value {
    case 0x0A: lineBreaks(1)
    case 0x09, 0x0B, 0x0C, 0x0D, 0x1C...0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029,
      0x202F, 0x205F, 0x3000:
      space()
    case 0x00...0x1F, 0x7F...0x9F: return
    default:
      separate()
      if value < 0x80 {
        out[count] = UInt8(value)
        count += 1
      } else if value < 0x800 {
        out[count] = UInt8(0xC0 | value >> 6)
        out[count + 1] = UInt8(0x80 | value & 0x3F)
        count += 2
      } else if value < 0x10000 {
        out[count] = UInt8(0xE0 | value >> 12)
        out[count + 1] = UInt8(0x80 | value >> 6 & 0x3F)
        out[count + 2] = UInt8(0x80 | value & 0x3F)
        count += 3
      } else {
        out[count] = UInt8(0xF0 | value >> 18)
        out[count + 1] = UInt8(0x80 | value >> 12 & 0x3F)
        out[count + 2] = UInt8(0x80 | value >> 6 & 0x3F)
        out[count + 3] = UInt8(0x80 | value & 0x3F)
        count += 4
      }
    }
  }
}

/// The tokenizer: text, tags, comments, declarations, character references.
private struct HTMLTextConverter {
  let input: UnsafePointer<UInt8>
  let end: Int
  var sink: TextSink
  /// Where the text of a construct left open ends: up to there, `<` is text.
  var literalUntil = 0

  init(input: UnsafePointer<UInt8>, count: Int, output: UnsafeMutablePointer<UInt8>) {
    self.input = input
    self.end = count
    self.sink = TextSink(out: output)
  }

  mutating func run() {
    byteClasses.withUnsafeBufferPointer { classes in
      var i = 0
      while i < end {
        let byte = input[i]
        switch classes[Int(byte)] {
        case ByteClass.ordinary:
          // The hot path: words and the single spaces between them are copied as they are,
          // eight bytes at a time while the bytes allow it.
          sink.separate()
          let out = sink.out
          var count = sink.count
          out[count] = byte
          count += 1
          i += 1
          copying: while true {
            while i + 8 <= end {
              let raw = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
              guard isPlainText(UInt64(littleEndian: raw)) else { break }
              UnsafeMutableRawPointer(out + count).storeBytes(of: raw, as: UInt64.self)
              count += 8
              i += 8
            }
            let limit = min(end, i + 8)
            while i < limit {
              let next = input[i]
              if classes[Int(next)] != ByteClass.ordinary {
                guard next == 0x20, i + 1 < end, classes[Int(input[i + 1])] == ByteClass.ordinary
                else { break copying }
              }
              out[count] = next
              count += 1
              i += 1
            }
            if i >= end { break }
          }
          sink.count = count
        case ByteClass.space:
          sink.space()
          i += 1
        case ByteClass.lineFeed:
          sink.lineBreaks(1)
          i += 1
        case ByteClass.lessThan:
          i = markup(at: i)
        case ByteClass.ampersand:
          i = reference(at: i)
        case ByteClass.control:
          i += 1
        default:
          i = multiByte(at: i)
        }
      }
    }
  }

  /// Text copied as it is but for whitespace and controls: CDATA sections.
  mutating func rawText(from start: Int, to stop: Int) {
    var i = start
    while i < stop {
      switch byteClasses[Int(input[i])] {
      case ByteClass.space: sink.space()
      case ByteClass.lineFeed: sink.lineBreaks(1)
      case ByteClass.control: break
      case ByteClass.specialLead:
        i = multiByte(at: i)
        continue
      default: sink.append(input + i, count: 1)
      }
      i += 1
    }
  }

  /// A sequence led by C2, E1, E2 or E3: whitespace, a C1 control, or a character to keep.
  mutating func multiByte(at i: Int) -> Int {
    let lead = input[i]
    let second: UInt8 = i + 1 < end ? input[i + 1] : 0
    if lead == 0xC2 {
      switch second {
      case 0xA0: sink.space()
      case 0x80...0x9F:
        if let mapped = HTMLEntities.windows1252(UInt32(second)) { sink.append(scalar: mapped) }
      default:
        let length = isContinuation(second) ? 2 : 1
        sink.append(input + i, count: length)
        return i + length
      }
      return i + 2
    }
    let third: UInt8 = i + 2 < end ? input[i + 2] : 0
    switch (lead, second, third) {
    case (0xE1, 0x9A, 0x80), (0xE2, 0x80, 0x80...0x8A), (0xE2, 0x80, 0xA8), (0xE2, 0x80, 0xA9),
      (0xE2, 0x80, 0xAF), (0xE2, 0x81, 0x9F), (0xE3, 0x80, 0x80):
      sink.space()
      return i + 3
    default:
      // Copied whole when well formed; a broken sequence goes byte by byte, so that a `<` in
      // it still counts.
      let length = isContinuation(second) && isContinuation(third) ? 3 : 1
      sink.append(input + i, count: length)
      return i + length
    }
  }

  // MARK: markup

  /// Handles the `<` at `i` and returns where the text goes on.
  mutating func markup(at i: Int) -> Int {
    guard i + 1 < end, i >= literalUntil else { return literalLessThan(at: i) }
    let next = input[i + 1]
    if isASCIILetter(next) { return startTag(at: i) }
    switch next {
    case UInt8(ascii: "/"): return endTag(at: i)
    case UInt8(ascii: "!"):
      if hasPrefix("<!--", at: i) {
        guard let close = commentEnd(from: i + 4) else { return unclosed(at: i) }
        return close
      }
      if hasPrefix("<![CDATA[", at: i) {
        guard let close = find("]]>", from: i + 9) else { return unclosed(at: i) }
        rawText(from: i + 9, to: close)
        return close + 3
      }
      return skipPast(UInt8(ascii: ">"), from: i + 2) ?? unclosed(at: i)
    case UInt8(ascii: "?"):
      return skipPast(UInt8(ascii: ">"), from: i + 2) ?? unclosed(at: i)
    default:
      return literalLessThan(at: i)
    }
  }

  /// A `<` that opens nothing is text; what follows it is read as text again.
  mutating func literalLessThan(at i: Int) -> Int {
    sink.append(input + i, count: 1)
    return i + 1
  }

  /// A construct that is never closed is text up to the next `>` (references decoded, no
  /// tags), or, with no `>` left, just its `<`: the preceding and following text survive.
  mutating func unclosed(at i: Int) -> Int {
    if let close = indexOf(UInt8(ascii: ">"), from: i + 1) { literalUntil = close + 1 }
    return literalLessThan(at: i)
  }

  mutating func startTag(at i: Int) -> Int {
    let nameStart = i + 1
    var j = nameStart
    while j < end && !endsTagName(input[j]) { j += 1 }
    let nameEnd = j
    guard let close = startTagEnd(from: nameEnd) else { return unclosed(at: i) }
    let selfClosing = close > nameEnd && input[close - 1] == UInt8(ascii: "/")
    switch tagKind(start: nameStart, end: nameEnd) {
    case .block: sink.lineBreaks(2)
    case .lineBreak: sink.lineBreaks(1)
    case .hidden where !selfClosing:
      // Script and style hold raw text up to their end tag; unclosed, they hide the rest.
      return hiddenContentEnd(from: close + 1, name: nameStart, nameLength: nameEnd - nameStart)
    default: break
    }
    return close + 1
  }

  /// The `>` that ends a start tag whose name ends at `from`, skipping quoted attribute
  /// values; nil when the tag is not closed.
  func startTagEnd(from start: Int) -> Int? {
    // A quote opens a value only after `name=`; after `/` or another value, `=` starts a
    // new (odd) attribute name instead, as HTML tokenizes it.
    enum State {
      case beforeName
      case name
      case afterEquals
      case bareValue
    }
    var state = State.beforeName
    var j = start
    while j < end {
      let byte = input[j]
      if byte == UInt8(ascii: ">") { return j }
      switch state {
      case .beforeName:
        if !isHTMLSpace(byte) && byte != UInt8(ascii: "/") { state = .name }
      case .name:
        if byte == UInt8(ascii: "=") {
          state = .afterEquals
        } else if byte == UInt8(ascii: "/") {
          state = .beforeName
        }
      case .afterEquals:
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          guard let quote = indexOf(byte, from: j + 1) else { return nil }
          j = quote
          state = .beforeName
        } else if !isHTMLSpace(byte) && byte != UInt8(ascii: "=") {
          state = .bareValue
        }
      case .bareValue:
        if isHTMLSpace(byte) { state = .beforeName }
      }
      j += 1
    }
    return nil
  }

  mutating func endTag(at i: Int) -> Int {
    guard let close = indexOf(UInt8(ascii: ">"), from: i + 2) else {
      return unclosed(at: i)
    }
    var j = i + 2
    if j < end && isASCIILetter(input[j]) {
      let nameStart = j
      while j < end && !endsTagName(input[j]) { j += 1 }
      if tagKind(start: nameStart, end: j) == .block { sink.lineBreaks(2) }
      return close + 1
    }
    // `</ p>` still closes a p; anything else up to the `>` is a bogus comment.
    while j < close && isHTMLSpace(input[j]) { j += 1 }
    if j > i + 2 && j < close && isASCIILetter(input[j]) {
      let nameStart = j
      while j < close && isEndTagNameByte(input[j]) { j += 1 }
      let nameEnd = j
      while j < close && isHTMLSpace(input[j]) { j += 1 }
      if j == close && tagKind(start: nameStart, end: nameEnd) == .block { sink.lineBreaks(2) }
    }
    return close + 1
  }

  /// Past the `</name\s*>` (any case, spaces allowed after `</`) that ends script or style.
  func hiddenContentEnd(from start: Int, name: Int, nameLength: Int) -> Int {
    var j = start
    while let open = indexOf(UInt8(ascii: "<"), from: j) {
      j = open + 1
      guard j < end && input[j] == UInt8(ascii: "/") else { continue }
      var k = j + 1
      while k < end && isHTMLSpace(input[k]) { k += 1 }
      guard k + nameLength <= end else { return end }
      var same = true
      for n in 0..<nameLength where lowercased(input[k + n]) != lowercased(input[name + n]) {
        same = false
        break
      }
      guard same else { continue }
      k += nameLength
      while k < end && isHTMLSpace(input[k]) { k += 1 }
      if k < end && input[k] == UInt8(ascii: ">") { return k + 1 }
    }
    return end
  }

  /// Past the `--`, optional spaces and `>` that end a comment whose text starts at `from`.
  func commentEnd(from start: Int) -> Int? {
    var j = start
    while let dash = find("--", from: j) {
      var k = dash + 2
      while k < end && isHTMLSpace(input[k]) { k += 1 }
      if k < end && input[k] == UInt8(ascii: ">") { return k + 1 }
      j = dash + 1
    }
    return nil
  }

  // MARK: character references

  /// Handles the `&` at `i` and returns where the text goes on.
  mutating func reference(at i: Int) -> Int {
    let start = i + 1
    guard start < end else { return literal(at: i) }
    if input[start] == UInt8(ascii: "#") { return numericReference(at: i) }
    var j = start
    while j < end && isASCIIAlphanumeric(input[j]) { j += 1 }
    guard j > start else { return literal(at: i) }
    let semicolon = j < end && input[j] == UInt8(ascii: ";")
    let name = UnsafeBufferPointer(start: input + start, count: j - start)
    guard let found = HTMLEntities.lookUpNamed(name, semicolon: semicolon) else {
      return literal(at: i)
    }
    sink.append(scalar: found.first)
    if found.second != 0 { sink.append(scalar: found.second) }
    return start + found.consumed
  }

  mutating func numericReference(at i: Int) -> Int {
    var j = i + 2
    let hex = j < end && (input[j] | 0x20) == UInt8(ascii: "x")
    if hex { j += 1 }
    let digitsStart = j
    var value: UInt32? = 0
    while j < end, let digit = digitValue(input[j], hex: hex) {
      if let current = value {
        let (product, overflow) = current.multipliedReportingOverflow(by: hex ? 16 : 10)
        value = overflow || product > 0x10FFFF ? nil : product + digit
      }
      j += 1
    }
    guard j > digitsStart else { return literal(at: i) }
    if j < end && input[j] == UInt8(ascii: ";") { j += 1 }
    if let scalar = HTMLEntities.numericScalar(value) { sink.append(scalar: scalar) }
    return j
  }

  mutating func literal(at i: Int) -> Int {
    sink.append(input + i, count: 1)
    return i + 1
  }

  // MARK: bytes

  func indexOf(_ byte: UInt8, from start: Int) -> Int? {
    guard start < end, let found = memchr(input + start, Int32(byte), end - start) else {
      return nil
    }
    return start + (UnsafeRawPointer(found) - UnsafeRawPointer(input + start))
  }

  func skipPast(_ byte: UInt8, from start: Int) -> Int? {
    indexOf(byte, from: start).map { $0 + 1 }
  }

  func find(_ needle: StaticString, from start: Int) -> Int? {
    let first = needle.utf8Start[0]
    var j = start
    while let candidate = indexOf(first, from: j) {
      if hasPrefix(needle, at: candidate) { return candidate }
      j = candidate + 1
    }
    return nil
  }

  func hasPrefix(_ literal: StaticString, at i: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard i + length <= end else { return false }
    let bytes = literal.utf8Start
    for n in 0..<length where input[i + n] != bytes[n] { return false }
    return true
  }

  func tagKind(start: Int, end stop: Int) -> TagKind {
    TagKind(name: UnsafeBufferPointer(start: input + start, count: stop - start))
  }
}

enum TagKind {
  case block
  case lineBreak
  case hidden
  case other

  /// Sorted by length first, so that most names are rejected by their length alone.
  init(name: UnsafeBufferPointer<UInt8>) {
    switch name.count {
    case 1:
      self = lowercased(name[0]) == UInt8(ascii: "p") ? .block : .other
    case 2:
      self = Self.twoLetter(lowercased(name[0]), lowercased(name[1]))
    case 3:
      let block =
        Self.matches(name, "div") || Self.matches(name, "pre") || Self.matches(name, "nav")
      self = block ? .block : .other
    case 5:
      if Self.matches(name, "style") {
        self = .hidden
      } else {
        self = Self.matches(name, "table") || Self.matches(name, "aside") ? .block : .other
      }
    case 6:
      if Self.matches(name, "script") {
        self = .hidden
      } else {
        let block =
          Self.matches(name, "header") || Self.matches(name, "footer")
          || Self.matches(name, "figure") || Self.matches(name, "center")
        self = block ? .block : .other
      }
    case 7:
      let block =
        Self.matches(name, "section") || Self.matches(name, "article")
        || Self.matches(name, "address")
      self = block ? .block : .other
    case 10:
      let block = Self.matches(name, "blockquote") || Self.matches(name, "figcaption")
      self = block ? .block : .other
    default:
      self = .other
    }
  }

  private static func twoLetter(_ first: UInt8, _ second: UInt8) -> TagKind {
    switch (first, second) {
    case (UInt8(ascii: "b"), UInt8(ascii: "r")):
      return .lineBreak
    case (UInt8(ascii: "l"), UInt8(ascii: "i")), (UInt8(ascii: "u"), UInt8(ascii: "l")),
      (UInt8(ascii: "o"), UInt8(ascii: "l")), (UInt8(ascii: "d"), UInt8(ascii: "l")),
      (UInt8(ascii: "d"), UInt8(ascii: "t")), (UInt8(ascii: "d"), UInt8(ascii: "d")),
      (UInt8(ascii: "t"), UInt8(ascii: "r")), (UInt8(ascii: "t"), UInt8(ascii: "d")),
      (UInt8(ascii: "t"), UInt8(ascii: "h")), (UInt8(ascii: "h"), UInt8(ascii: "r")),
      (UInt8(ascii: "h"), UInt8(ascii: "1")...UInt8(ascii: "6")):
      return .block
    default:
      return .other
    }
  }

  @inline(__always)
  private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString)
    -> Bool
  {
    let bytes = literal.utf8Start
    for i in 0..<name.count where lowercased(name[i]) != bytes[i] { return false }
    return true
  }
}

/// Whether eight bytes (the first in the low bits) are printable ASCII other than `<` and
/// `&`, with no two spaces in a row and no space last: text that is copied as it is. Each
/// test works on all eight bytes at once; no byte's sum carries into the next.
@inline(__always) private func isPlainText(_ word: UInt64) -> Bool {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highBits: UInt64 = 0x8080_8080_8080_8080
  guard word & highBits == 0,  // ASCII
    (word &+ 0x60 &* ones) & highBits == highBits,  // no byte below 0x20
    (word &+ ones) & highBits == 0  // no DEL
  else { return false }
  func equal(_ byte: UInt64) -> UInt64 {
    ~((word ^ (byte &* ones)) &+ 0x7F &* ones) & highBits
  }
  let spaces = equal(0x20)
  return equal(0x3C) | equal(0x26) == 0 && spaces & (spaces << 8) == 0
    && spaces & (0x80 << 56) == 0
}

@inline(__always) private func isContinuation(_ byte: UInt8) -> Bool {
  byte & 0xC0 == 0x80
}

@inline(__always) private func isASCIILetter(_ byte: UInt8) -> Bool {
  (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}

@inline(__always) private func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
  isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
}

@inline(__always) private func lowercased(_ byte: UInt8) -> UInt8 {
  byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

/// The whitespace of HTML's tokenizer (and of `\s` for the ASCII range).
@inline(__always) private func isHTMLSpace(_ byte: UInt8) -> Bool {
  byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
}

/// A tag name runs up to whitespace, `/`, `>` or NUL.
@inline(__always) private func endsTagName(_ byte: UInt8) -> Bool {
  switch byte {
  case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "/"), UInt8(ascii: ">"): return true
  default: return false
  }
}

/// The name of an end tag written `</ name>`: letters, digits, `-.:_`.
@inline(__always) private func isEndTagNameByte(_ byte: UInt8) -> Bool {
  isASCIIAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
}

@inline(__always) private func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(byte - UInt8(ascii: "A") + 10)
  default: return nil
  }
}
