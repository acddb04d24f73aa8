internal import CLibXML2
import Glibc

/// Rewrites the malformed XML that real feeds carry into well-formed XML before libxml2
/// sees it, so that nothing is lost: libxml2's recover mode drops a bare `&` (a URL's
/// `?a=1&b=2` becomes `?a=1=2`), drops undeclared entities such as `&nbsp;`, and lets a
/// stray `</b>` end the enclosing element early.
///
/// Input is UTF-8, fed in chunks; a construct cut by a chunk boundary is carried over to
/// the next call. Well-formed input passes through without being copied: only a chunk that
/// needed a repair is rewritten. What was repaired is counted in ``repairs``.
struct MarkupRepair {
  struct Repairs {
    var bareAmpersands = 0
    var htmlEntities: Set<String> = []
    var unknownEntities: Set<String> = []
    var invalidCharacterReferences = 0
    var unescapedLessThans = 0
    var strayEndTags: Set<String> = []
    var unclosedElements: Set<String> = []
    var controlCharacters = 0
    var doubleHyphensInComments = 0
    var junkBeforeRoot = false
    /// Whitespace before the XML declaration, which XML forbids.
    var blankBeforeDeclaration = false
    var contentAfterRoot = false
  }

  private enum State {
    case prolog
    case text
    case tag(quote: UInt8)
    case comment(returnTo: Context)
    case cdata
    case processingInstruction(returnTo: Context)
    case doctype
    case afterRoot
  }

  private enum Context { case prolog, text, afterRoot }

  private(set) var repairs = Repairs()
  private var state = State.prolog
  private var carry: [UInt8] = []
  /// The rewritten chunk, used only once the chunk being processed needed a repair.
  private var out: [UInt8] = []
  private var edited = false
  /// Where the input not yet copied to `out` begins, once the chunk is being rewritten.
  private var clean = 0
  /// Names of the open elements, back to back; `openEnds[i]` is where the i-th one ends.
  private var openNames: [UInt8] = []
  private var openEnds: [Int] = []
  /// Where the name of the start tag being read begins in `openNames`.
  private var pendingNameStart = 0
  private var lastTagByte: UInt8 = 0
  /// Whether any markup has been seen: whitespace before the first is before the declaration.
  private var sawMarkup = false
  private var leadingWhitespace = false
  private var doctype: [UInt8] = []
  private var declaredEntities: Set<[UInt8]> = []
  /// Whether long text and CDATA sections are lifted out of the output (``LiftedText``).
  private let liftsText: Bool
  /// What a lifted attribute value is replaced by, before its number; empty when attribute
  /// values are not lifted.
  private let attributeMark: [UInt8]
  /// The runs lifted from the chunk being processed: ranges of its bytes, or of `decoded`.
  private var lifted: [LiftedText.Run] = []
  /// The lifted attribute values of the chunk being processed, references decoded.
  private var decoded: [UInt8] = []
  private var liftedCount = 0
  /// Where the attribute value being read began, when it began in the chunk being
  /// processed and may be lifted; whether it holds a reference so far.
  private var valueStart: Int?
  private var valueHasReference = false
  /// A document type declaration can give attributes types that libxml2 normalises, and
  /// entities that only libxml2 can expand: attribute values are left to it then.
  private var sawDoctype = false
  /// Where the CDATA section being read began, when it began in the chunk being processed
  /// and nothing in it was repaired: only such a section can be lifted whole.
  private var cdataStart: Int?
  private var cdataLineFeeds = 0

  /// The longest entity or character reference looked at; a longer one is a bare `&`.
  private static let maxReferenceLength = 40
  private static let maxEndTagLength = 256
  private static let maxDoctypeLength = 1 << 20

  /// The target of the processing instruction put where the input ended before the
  /// document did, ahead of the end tags added: it tells the builder, in the order of
  /// the events, which item the cut fell in.
  static let endOfInputTarget: StaticString = "podcasts-end-of-input"
  private let endOfInputMark: [UInt8]

  private static let ampersand: [UInt8] = Array("&amp;".utf8)
  private static let lessThan: [UInt8] = Array("&lt;".utf8)
  private let liftedMarkStart: [UInt8]

  /// - Parameter liftingText: whether long text and CDATA sections are taken out of the
  ///   output and handed over beside it (``LiftedText``) instead.
  ///   `attributeMark`: when not empty, long attribute values holding references are lifted
  ///   too, their decoded text replaced by the mark and their number.
  ///   `instructionToken`: the first word of the data of the instructions this stage adds
  ///   (``LiftedText/Queue/instructionToken``).
  init(liftingText: Bool = false, attributeMark: [UInt8] = [], instructionToken: [UInt8] = []) {
    liftsText = liftingText
    self.attributeMark = liftingText ? attributeMark : []
    let token = instructionToken.isEmpty ? [] : [0x20] + instructionToken
    endOfInputMark = Array("<?\(Self.endOfInputTarget)".utf8) + token + Array("?>".utf8)
    liftedMarkStart = Array("<?\(LiftedText.target)".utf8) + token + [0x20]
  }

  /// Repairs the next bytes of the document and hands the result to `emit`, in one or no
  /// call; `final` ends the document (elements left open are closed).
  mutating func process(
    _ input: UnsafeRawBufferPointer, final: Bool, emit: (UnsafeRawBufferPointer) -> Void
  ) {
    process(input, final: final) { bytes, _ in emit(bytes) }
  }

  /// Repairs the next bytes of the document and hands the result to `emit`, in one or no
  /// call, with the runs lifted out of it; `final` ends the document.
  mutating func process(
    _ input: UnsafeRawBufferPointer, final: Bool,
    emit: (UnsafeRawBufferPointer, LiftedText.Chunk) -> Void
  ) {
    if carry.isEmpty {
      let bytes = input.bindMemory(to: UInt8.self)
      let used = run(bytes, final: final)
      finishChunk(bytes, used: used, final: final, emit: emit)
      carry.append(contentsOf: bytes[used...])
    } else {
      var joined = carry
      joined.append(contentsOf: input)
      carry.removeAll(keepingCapacity: true)
      joined.withUnsafeBufferPointer { bytes in
        let used = run(bytes, final: final)
        finishChunk(bytes, used: used, final: final, emit: emit)
        carry.append(contentsOf: bytes[used...])
      }
    }
    if final { carry.removeAll() }
  }

  private mutating func finishChunk(
    _ p: UnsafeBufferPointer<UInt8>, used: Int, final: Bool,
    emit: (UnsafeRawBufferPointer, LiftedText.Chunk) -> Void
  ) {
    if final && !openEnds.isEmpty {
      // A section cut off by the end of the input is closed first, or libxml2 would read the
      // end tags as its text and drop what it held.
      switch state {
      case .cdata: edit(p, at: used, skipping: 0, with: Array("]]>".utf8) + endOfInputMark)
      case .comment:
        edit(p, at: used, skipping: 0, with: Array(" -->".utf8) + endOfInputMark)
      case .processingInstruction:
        edit(p, at: used, skipping: 0, with: Array(" ?>".utf8) + endOfInputMark)
      default: edit(p, at: used, skipping: 0, with: endOfInputMark)
      }
      while !openEnds.isEmpty {
        writeEndTag(of: openEnds.count - 1)
        popOpen()
      }
    }
    decoded.withUnsafeBufferPointer { decoded in
      let chunk = LiftedText.Chunk(
        source: p, decoded: decoded, runs: lifted, firstNumber: liftedCount - lifted.count)
      if edited {
        if used > clean { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[clean..<used])) }
        out.withUnsafeBytes { emit($0, chunk) }
        out.removeAll(keepingCapacity: true)
        edited = false
      } else if used > 0 {
        emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p)[0..<used]), chunk)
      }
    }
    lifted.removeAll(keepingCapacity: true)
    decoded.removeAll(keepingCapacity: true)
    clean = 0
  }

  /// Replaces `count` input bytes at `i` with `replacement`.
  private mutating func edit(
    _ p: UnsafeBufferPointer<UInt8>, at i: Int, skipping count: Int, with replacement: [UInt8]
  ) {
    copyUnedited(p, upTo: i)
    out.append(contentsOf: replacement)
    clean = i + count
  }

  /// Starts an edit at `i`: the input before it goes to the output as it is.
  private mutating func copyUnedited(_ p: UnsafeBufferPointer<UInt8>, upTo i: Int) {
    if !edited {
      edited = true
      clean = 0
    }
    if i > clean { out.append(contentsOf: UnsafeBufferPointer(rebasing: p[clean..<i])) }
  }

  /// Lifts `run` out of the output, putting in place of the `construct` that holds it (the
  /// run itself, or a whole CDATA section) a processing instruction with its number and
  /// its line feeds. The caller has checked that libxml2 would deliver the run unchanged.
  private mutating func lift(
    _ p: UnsafeBufferPointer<UInt8>, run: Range<Int>, construct: Range<Int>, lineFeeds: Int
  ) {
    copyUnedited(p, upTo: construct.lowerBound)
    out.append(contentsOf: liftedMarkStart)
    appendDecimal(liftedCount)
    for _ in 0..<lineFeeds { out.append(0x0A) }
    out.append(0x3F)
    out.append(0x3E)
    clean = construct.upperBound
    lifted.append(LiftedText.Run(range: run, decoded: false))
    liftedCount += 1
  }

  /// Lifts the attribute value `value` (between its quotes), its references decoded as
  /// libxml2 would: libxml2 reads a value holding a reference again character by
  /// character, the longest part of a feed's tags (enclosure URLs with `&amp;`). The caller
  /// has checked that nothing in it was repaired and that it holds no line ends or tabs.
  private mutating func liftAttribute(_ p: UnsafeBufferPointer<UInt8>, value: Range<Int>) {
    let start = decoded.count
    var i = value.lowerBound
    var plain = i
    while i < value.upperBound {
      guard p[i] == 0x26 else {
        i += 1
        continue
      }
      guard let semicolon = (i + 1..<value.upperBound).first(where: { p[$0] == 0x3B }),
        let scalar = Self.referencedScalar(UnsafeBufferPointer(rebasing: p[(i + 1)..<semicolon]))
      else {
        decoded.removeSubrange(start...)
        return
      }
      decoded.append(contentsOf: UnsafeBufferPointer(rebasing: p[plain..<i]))
      decoded.append(contentsOf: String(Character(scalar)).utf8)
      i = semicolon + 1
      plain = i
    }
    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: p[plain..<value.upperBound]))
    copyUnedited(p, upTo: value.lowerBound)
    out.append(contentsOf: attributeMark)
    appendDecimal(liftedCount)
    clean = value.upperBound
    lifted.append(LiftedText.Run(range: start..<decoded.count, decoded: true))
    liftedCount += 1
  }

  /// The character a predefined entity or a character reference stands for.
  private static func referencedScalar(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
    switch Array(name) {
    case Array("amp".utf8): return "&"
    case Array("lt".utf8): return "<"
    case Array("gt".utf8): return ">"
    case Array("quot".utf8): return "\""
    case Array("apos".utf8): return "'"
    default: break
    }
    guard name.count >= 2, name[0] == 0x23 else { return nil }
    let hex = name[1] == 0x78
    let digits = UnsafeBufferPointer(rebasing: name[(hex ? 2 : 1)...])
    guard let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10)
    else { return nil }
    return Unicode.Scalar(value)
  }

  /// Whether the attribute whose value opens at the quote at `i` is `xmlns`, `xml:...` or
  /// `xmlns:...`: libxml2 reads those values itself.
  private func namesXMLAttribute(_ p: UnsafeBufferPointer<UInt8>, quoteAt i: Int) -> Bool {
    var j = i - 1
    while j >= 0 && (isSpace(p[j]) || p[j] == 0x3D) { j -= 1 }
    let end = j + 1
    while j >= 0 && isNameByte(p[j]) { j -= 1 }
    let name = UnsafeBufferPointer(rebasing: p[(j + 1)..<end])
    // Unknown when the name began in an earlier chunk: taken as reserved.
    return j < 0 || (name.count >= 3 && name[0] == 0x78 && name[1] == 0x6D && name[2] == 0x6C)
  }

  private mutating func appendDecimal(_ value: Int) {
    var divisor = 1
    while divisor <= value / 10 { divisor *= 10 }
    while divisor > 0 {
      out.append(0x30 + UInt8((value / divisor) % 10))
      divisor /= 10
    }
  }

  /// Whether the byte at `i`, one of those the scans stop at, keeps its run from being
  /// lifted: libxml2 normalises a carriage return in text (in CDATA it is left alone to be
  /// safe), refuses U+FFFE and U+FFFF, and reports `]]>` in text. The input is valid UTF-8
  /// by now, so nothing else differs.
  private static func spoilsLift(_ p: UnsafeBufferPointer<UInt8>, at i: Int, text: Bool) -> Bool {
    switch p[i] {
    case 0x0D: return true
    case 0xEF:
      guard i + 2 < p.count else { return true }
      return p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)
    case 0x5D where text:
      guard i + 2 < p.count else { return true }
      return p[i + 1] == 0x5D && p[i + 2] == 0x3E
    default: return false
    }
  }

  /// Repairs as much of `p` as can be decided; returns how many bytes were consumed.
  private mutating func run(_ p: UnsafeBufferPointer<UInt8>, final: Bool) -> Int {
    let n = p.count
    var i = 0
    cdataStart = nil
    valueStart = nil
    while i < n {
      switch state {
      case .text:
        let runStart = i
        var lineFeeds = 0
        // A run at the start of the chunk may go on a text node begun in the one before.
        var liftable = liftsText && runStart > 0
        scan: while i < n {
          i = skipPlain(p, from: i, until: 0x3C, 0x26, 0x5D, 0xEF)
          guard i < n else { break }
          switch p[i] {
          case 0x3C, 0x26: break scan
          case 0x0A: lineFeeds += 1
          case 0x09, 0x20...0xFF: if Self.spoilsLift(p, at: i, text: true) { liftable = false }
          case 0x0D: liftable = false
          default: break scan
          }
          i += 1
        }
        if i == n { break }
        if liftable && i - runStart >= LiftedText.minimumLength && (p[i] == 0x3C || p[i] == 0x26) {
          lift(p, run: runStart..<i, construct: runStart..<i, lineFeeds: lineFeeds)
        }
        if p[i] == 0x26 {
          guard let used = reference(p, at: i, final: final) else { return i }
          i += used
        } else if p[i] == 0x3C {
          guard let used = markup(p, at: i, final: final) else { return i }
          i += used
        } else {
          repairs.controlCharacters += 1
          edit(p, at: i, skipping: 1, with: [])
          i += 1
        }

      case .prolog, .afterRoot:
        let start = i
        while i < n && p[i] != 0x3C {
          if !isSpace(p[i]) {
            if case .prolog = state {
              repairs.junkBeforeRoot = true
            } else {
              repairs.contentAfterRoot = true
            }
          }
          i += 1
        }
        // Nothing but markup may stand outside the root; whitespace before the XML
        // declaration would even make libxml2 refuse the document.
        if i > start {
          if !sawMarkup { leadingWhitespace = true }
          edit(p, at: start, skipping: i - start, with: [])
        }
        if i == n { break }
        guard let used = markup(p, at: i, final: final) else { return i }
        i += used

      case .tag(let quote):
        while i < n {
          // Attribute values are the long part of a tag (URLs): skipped a block at a time.
          if quote != 0 {
            i = skipPlain(p, from: i, until: quote, 0x3C, 0x26, 0xEF)
            guard i < n else { break }
          }
          let b = p[i]
          if quote == 0 {
            if b == 0x3E || b == 0x22 || b == 0x27 || b == 0x3C { break }
          } else if b == quote || b == 0x3C || b == 0x26 {
            break
          } else if valueStart != nil && (b < 0x20 || Self.spoilsLift(p, at: i, text: false)) {
            // libxml2 normalises tabs and line ends in attribute values.
            valueStart = nil
          }
          if b < 0x20 && b != 0x0A && b != 0x09 && b != 0x0D { break }
          if !isSpace(b) { lastTagByte = b }
          i += 1
        }
        if i == n { break }
        let b = p[i]
        if b < 0x20 && b != 0x0A && b != 0x09 && b != 0x0D {
          repairs.controlCharacters += 1
          edit(p, at: i, skipping: 1, with: [])
          i += 1
        } else if quote == 0 && (b == 0x22 || b == 0x27) {
          state = .tag(quote: b)
          if !attributeMark.isEmpty && !sawDoctype && !namesXMLAttribute(p, quoteAt: i) {
            valueStart = i + 1
            valueHasReference = false
          }
          i += 1
        } else if b == quote {
          if let start = valueStart, valueHasReference,
            i - start >= LiftedText.minimumLength, !edited || clean <= start
          {
            liftAttribute(p, value: start..<i)
          }
          valueStart = nil
          lastTagByte = b
          state = .tag(quote: 0)
          i += 1
        } else if b == 0x26 {
          valueHasReference = true
          guard let used = reference(p, at: i, final: final) else { return i }
          i += used
        } else if quote != 0 {  // `<` in an attribute value
          repairs.unescapedLessThans += 1
          edit(p, at: i, skipping: 1, with: Self.lessThan)
          i += 1
        } else {
          // `>` ends the tag; a `<` inside an unquoted tag means it was never closed.
          if lastTagByte == 0x2F {
            openNames.removeSubrange(pendingNameStart...)
          } else {
            openEnds.append(openNames.count)
          }
          state = .text
          if b == 0x3E {
            i += 1
          } else {
            edit(p, at: i, skipping: 0, with: [0x3E])
          }
        }

      case .comment(let context):
        // XML forbids `--` inside a comment, and libxml2 gives up on the document there;
        // HTML-minded feeds write it anyway. It becomes `- -`, the comment stays a comment.
        guard let dashes = find(p, from: i, "--") else { return final ? n : max(i, n - 1) }
        if dashes + 2 >= n && !final { return dashes }
        if dashes + 2 < n && p[dashes + 2] == 0x3E {
          i = dashes + 3
          state = resume(context)
        } else {
          repairs.doubleHyphensInComments += 1
          edit(p, at: dashes, skipping: 2, with: [0x2D, 0x20, 0x2D])
          i = dashes + 2
        }

      case .processingInstruction(let context):
        guard let end = find(p, from: i, "?>") else { return final ? n : max(i, n - 1) }
        i = end + 2
        state = resume(context)

      case .cdata:
        var closed = false
        while i < n {
          i = skipPlain(p, from: i, until: 0x5D, 0xEF, 0xEF, 0xEF)
          guard i < n else { break }
          let b = p[i]
          if b == 0x5D && i + 2 < n && p[i + 1] == 0x5D && p[i + 2] == 0x3E {
            closed = true
            break
          }
          if b == 0x5D && i + 2 >= n && !final { break }
          if b < 0x20 && b != 0x0A && b != 0x09 && b != 0x0D { break }
          if b == 0x0A {
            cdataLineFeeds += 1
          } else if cdataStart != nil && Self.spoilsLift(p, at: i, text: false) {
            cdataStart = nil
          }
          i += 1
        }
        if closed {
          if let start = cdataStart, i - (start + 9) >= LiftedText.minimumLength {
            lift(p, run: (start + 9)..<i, construct: start..<(i + 3), lineFeeds: cdataLineFeeds)
          }
          cdataStart = nil
          i += 3
          state = .text
        } else if i < n {
          if p[i] == 0x5D { return i }
          repairs.controlCharacters += 1
          cdataStart = nil
          edit(p, at: i, skipping: 1, with: [])
          i += 1
        }

      case .doctype:
        // The declaration is kept whole (it is small) so that its entity declarations can
        // be read; it is written out once its end is found.
        let before = doctype.count
        doctype.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<n]))
        guard let end = doctypeEnd() else {
          edit(p, at: i, skipping: n - i, with: [])
          if doctype.count > Self.maxDoctypeLength || final {
            edit(p, at: n, skipping: 0, with: doctype)
            doctype.removeAll()
            state = .prolog
          }
          return n
        }
        let consumed = end + 1 - before
        recordEntityDeclarations(doctype[0...end])
        edit(p, at: i, skipping: consumed, with: Array(doctype[0...end]))
        doctype.removeAll()
        i += consumed
        state = .prolog
      }
    }
    return n
  }

  private func doctypeEnd() -> Int? {
    var quote: UInt8 = 0
    var depth = 0
    for (j, b) in doctype.enumerated() {
      if quote != 0 {
        if b == quote { quote = 0 }
      } else if b == 0x22 || b == 0x27 {
        quote = b
      } else if b == 0x5B {
        depth += 1
      } else if b == 0x5D {
        depth -= 1
      } else if b == 0x3E && depth <= 0 {
        return j
      }
    }
    return nil
  }

  private func resume(_ context: Context) -> State {
    switch context {
    case .prolog: .prolog
    case .text: .text
    case .afterRoot: .afterRoot
    }
  }

  private var context: Context {
    switch state {
    case .prolog: .prolog
    case .afterRoot: .afterRoot
    default: .text
    }
  }

  /// Handles the `<` at `i`; nil when more input is needed to decide.
  private mutating func markup(_ p: UnsafeBufferPointer<UInt8>, at i: Int, final: Bool) -> Int? {
    let n = p.count
    let available = n - i
    if available < 5 && !final && !sawMarkup { return nil }
    if available < 2 && !final { return nil }
    let next: UInt8 = available >= 2 ? p[i + 1] : 0
    defer { if next != 0x3F { sawMarkup = true } }
    if next == 0x21 {  // <!
      if startsWith(p, at: i, "<!--") {
        state = .comment(returnTo: context)
        return 4
      }
      if case .text = state, startsWith(p, at: i, "<![CDATA[") {
        state = .cdata
        if liftsText {
          cdataStart = i
          cdataLineFeeds = 0
        }
        return 9
      }
      if case .prolog = state, startsWith(p, at: i, "<!DOCTYPE") {
        state = .doctype
        sawDoctype = true
        return 0
      }
      if available < 9 && !final { return nil }
    } else if next == 0x3F {  // <?
      if !sawMarkup && leadingWhitespace && startsWith(p, at: i, "<?xml") {
        repairs.blankBeforeDeclaration = true
      }
      sawMarkup = true
      state = .processingInstruction(returnTo: context)
      return 2
    } else if next == 0x2F {  // </
      return endTag(p, at: i, final: final)
    } else if isNameStart(next) {
      if case .afterRoot = state {
        repairs.contentAfterRoot = true
        edit(p, at: i, skipping: 1, with: [])
        return 1
      }
      var j = i + 1
      while j < n && isNameByte(p[j]) { j += 1 }
      if j == n && !final { return nil }
      pendingNameStart = openNames.count
      openNames.append(contentsOf: UnsafeBufferPointer(rebasing: p[i + 1..<j]))
      lastTagByte = 0
      state = .tag(quote: 0)
      return j - i
    }
    switch state {
    case .text:
      repairs.unescapedLessThans += 1
      edit(p, at: i, skipping: 1, with: Self.lessThan)
    case .prolog:
      repairs.junkBeforeRoot = true
      edit(p, at: i, skipping: 1, with: [])
    default:
      repairs.contentAfterRoot = true
      edit(p, at: i, skipping: 1, with: [])
    }
    return 1
  }

  /// Handles `</name>` at `i`: passes it when it closes an open element (closing any left
  /// open inside it first), writes it as text when nothing open has that name.
  private mutating func endTag(_ p: UnsafeBufferPointer<UInt8>, at i: Int, final: Bool) -> Int? {
    let n = p.count
    var j = i + 2
    while j < n && isNameByte(p[j]) { j += 1 }
    let nameEnd = j
    while j < n && isSpace(p[j]) { j += 1 }
    if j == n && !final && j - i < Self.maxEndTagLength { return nil }
    // Longer than the longest awaited across chunks: text, wherever the chunks are cut.
    guard case .text = state, nameEnd > i + 2, j < n, p[j] == 0x3E, j - i < Self.maxEndTagLength
    else {
      if case .text = state {
        repairs.unescapedLessThans += 1
        edit(p, at: i, skipping: 1, with: Self.lessThan)
      } else {
        if case .prolog = state {
          repairs.junkBeforeRoot = true
        } else {
          repairs.contentAfterRoot = true
        }
        edit(p, at: i, skipping: 1, with: [])
      }
      return 1
    }
    let name = UnsafeBufferPointer(rebasing: p[i + 2..<nameEnd])
    let top = openEnds.count - 1
    if top >= 0 && sameBytes(openName(top), name) {
      popOpen()
    } else if let depth = openDepth(of: name) {
      edit(p, at: i, skipping: j + 1 - i, with: [])
      while openEnds.count > depth + 1 {
        repairs.unclosedElements.insert(
          String(decoding: openName(openEnds.count - 1), as: UTF8.self))
        writeEndTag(of: openEnds.count - 1)
        popOpen()
      }
      writeEndTag(of: depth)
      popOpen()
    } else {
      repairs.strayEndTags.insert(String(decoding: name, as: UTF8.self))
      edit(p, at: i, skipping: 1, with: Self.lessThan)
      return 1
    }
    if openEnds.isEmpty { state = .afterRoot }
    return j + 1 - i
  }

  /// The index of the innermost open element named `name`, ASCII case ignored (an HTML
  /// `<P>` closed by `</p>`).
  private func openDepth(of name: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = openEnds.count - 1
    while index >= 0 {
      let open = openName(index)
      if open.count == name.count
        && zip(open, name).allSatisfy({ asciiLower($0) == asciiLower($1) })
      {
        return index
      }
      index -= 1
    }
    return nil
  }

  private func openName(_ index: Int) -> ArraySlice<UInt8> {
    openNames[(index == 0 ? 0 : openEnds[index - 1])..<openEnds[index]]
  }

  private func sameBytes(_ a: ArraySlice<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let other = b.baseAddress else { return true }
    return a.withUnsafeBufferPointer { mine in
      mine.baseAddress.map { memcmp($0, other, b.count) == 0 } ?? true
    }
  }

  private mutating func writeEndTag(of index: Int) {
    out.append(0x3C)
    out.append(0x2F)
    out.append(contentsOf: openName(index))
    out.append(0x3E)
  }

  private mutating func popOpen() {
    openEnds.removeLast()
    openNames.removeSubrange((openEnds.last ?? 0)...)
  }

  /// Handles the `&` at `i`: a well-formed reference passes (an HTML entity becomes a
  /// character reference); anything else is an ampersand meant as text.
  private mutating func reference(_ p: UnsafeBufferPointer<UInt8>, at i: Int, final: Bool) -> Int? {
    let n = p.count
    var j = i + 1
    let limit = min(n, i + Self.maxReferenceLength)
    if j < n && p[j] == 0x23 {  // &#
      j += 1
      let hex = j < n && (p[j] == 0x78 || p[j] == 0x58)
      if hex { j += 1 }
      let digitsStart = j
      var value: UInt32 = 0
      while j < limit, let digit = digitValue(p[j], hex: hex) {
        value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
        j += 1
      }
      if j == n && !final && n - i < Self.maxReferenceLength { return nil }
      if j > digitsStart && j < n && p[j] == 0x3B {
        let scalar = Self.windows1252Remap(value)
        let upperX = hex && p[digitsStart - 1] == 0x58  // `&#X41;`: not XML, but meant
        if !isXMLChar(scalar) {
          repairs.invalidCharacterReferences += 1
          edit(p, at: i, skipping: j + 1 - i, with: characterReference(0xFFFD))
        } else if scalar != value || upperX {
          edit(p, at: i, skipping: j + 1 - i, with: characterReference(scalar))
        }
        return j + 1 - i
      }
    } else if j < n && isNameStart(p[j]) && p[j] < 0x80 {
      while j < limit && isNameByte(p[j]) && p[j] < 0x80 { j += 1 }
      if j == n && !final && n - i < Self.maxReferenceLength { return nil }
      if j < n && p[j] == 0x3B {
        let name = UnsafeBufferPointer(rebasing: p[i + 1..<j])
        if isPredefined(name) || declaredEntities.contains(Array(name)) {
          return j + 1 - i
        }
        if let scalar = htmlEntity(name) {
          repairs.htmlEntities.insert(String(decoding: name, as: UTF8.self))
          edit(p, at: i, skipping: j + 1 - i, with: characterReference(scalar))
        } else {
          repairs.unknownEntities.insert(String(decoding: name, as: UTF8.self))
          edit(p, at: i, skipping: 1, with: Self.ampersand)
        }
        return j + 1 - i
      }
    } else if j == n && !final {
      return nil
    }
    repairs.bareAmpersands += 1
    edit(p, at: i, skipping: 1, with: Self.ampersand)
    return 1
  }

  private func isPredefined(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    switch name.count {
    case 2: return (name[0] == 0x6C || name[0] == 0x67) && name[1] == 0x74  // lt gt
    case 3: return name[0] == 0x61 && name[1] == 0x6D && name[2] == 0x70  // amp
    case 4:
      return (name[0] == 0x71 && name[1] == 0x75 && name[2] == 0x6F && name[3] == 0x74)
        || (name[0] == 0x61 && name[1] == 0x70 && name[2] == 0x6F && name[3] == 0x73)
    default: return false
    }
  }

  private func htmlEntity(_ name: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard case .success(let xml) = LibXML2.shared else { return nil }
    var cName = Array(name)
    cName.append(0)
    return cName.withUnsafeBufferPointer { buffer in
      xml.htmlEntityLookup(buffer.baseAddress).map { $0.pointee.value }
    }
  }

  private mutating func recordEntityDeclarations(_ declaration: ArraySlice<UInt8>) {
    let keyword = Array("<!ENTITY".utf8)
    var k = declaration.startIndex
    while k + keyword.count < declaration.endIndex {
      guard declaration[k] == 0x3C, declaration[k..<k + keyword.count].elementsEqual(keyword)
      else {
        k += 1
        continue
      }
      var j = k + keyword.count
      while j < declaration.endIndex && isSpace(declaration[j]) { j += 1 }
      let start = j
      while j < declaration.endIndex && isNameByte(declaration[j]) { j += 1 }
      if j > start && declaration[start] != 0x25 {
        declaredEntities.insert(Array(declaration[start..<j]))
      }
      k = j
    }
  }

  private func characterReference(_ scalar: UInt32) -> [UInt8] {
    Array("&#\(scalar);".utf8)
  }

  /// Character references 128-159 name C1 controls, which nobody means: feeds written on
  /// Windows mean the Windows-1252 characters there (`&#146;` is a right quote), as
  /// browsers assume.
  static func windows1252Remap(_ value: UInt32) -> UInt32 {
    guard value >= 0x80 && value <= 0x9F else { return value }
    return UInt32(Windows1252.highHalf[Int(value - 0x80)])
  }
}

/// The index of the first byte from `start` that is below 0x20 or one of `a`, `b`, `c`, `d`,
/// looked for sixteen bytes at a time; where fewer than sixteen bytes are left, the index
/// from which the caller goes on byte by byte.
@inline(__always)
private func skipPlain(
  _ p: UnsafeBufferPointer<UInt8>, from start: Int, until a: UInt8, _ b: UInt8, _ c: UInt8,
  _ d: UInt8
) -> Int {
  guard let base = p.baseAddress else { return start }
  let aBlock = SIMD16<UInt8>(repeating: a)
  let bBlock = SIMD16<UInt8>(repeating: b)
  let cBlock = SIMD16<UInt8>(repeating: c)
  let dBlock = SIMD16<UInt8>(repeating: d)
  let space = SIMD16<UInt8>(repeating: 0x20)
  var i = start
  while i + 16 <= p.count {
    let x = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
    let hits =
      (x .< space) .| (x .== aBlock) .| (x .== bBlock) .| (x .== cBlock)
      .| (x .== dBlock)
    // The lanes of a mask are all ones or all zeros: the first set one is found from the
    // mask read as two words.
    let words = unsafeBitCast(hits, to: SIMD2<UInt64>.self)
    if words[0] != 0 { return i + words[0].trailingZeroBitCount >> 3 }
    if words[1] != 0 { return i + 8 + words[1].trailingZeroBitCount >> 3 }
    i += 16
  }
  return i
}

private func isXMLChar(_ c: UInt32) -> Bool {
  c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
    || (c >= 0x10000 && c <= 0x10FFFF)
}

private func digitValue(_ b: UInt8, hex: Bool) -> UInt32? {
  switch b {
  case 0x30...0x39: UInt32(b - 0x30)
  case 0x61...0x66 where hex: UInt32(b - 0x61 + 10)
  case 0x41...0x46 where hex: UInt32(b - 0x41 + 10)
  default: nil
  }
}

@inline(__always) private func isSpace(_ b: UInt8) -> Bool {
  b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
}

@inline(__always) private func isNameStart(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x3A || b >= 0x80
}

@inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
  isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
}

@inline(__always) private func asciiLower(_ b: UInt8) -> UInt8 {
  b >= 0x41 && b <= 0x5A ? b + 0x20 : b
}

private func startsWith(_ p: UnsafeBufferPointer<UInt8>, at i: Int, _ literal: StaticString) -> Bool
{
  let count = literal.utf8CodeUnitCount
  guard p.count - i >= count else { return false }
  return literal.withUTF8Buffer { lit in
    for k in 0..<count where p[i + k] != lit[k] { return false }
    return true
  }
}

private func find(_ p: UnsafeBufferPointer<UInt8>, from i: Int, _ literal: StaticString) -> Int? {
  let count = literal.utf8CodeUnitCount
  var k = i
  while k + count <= p.count {
    if startsWith(p, at: k, literal) { return k }
    k += 1
  }
  return nil
}
