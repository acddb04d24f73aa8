internal import CLibXML2
import Foundation
import PodcastModel

/// The libxml2 SAX2 push parser, driven chunk by chunk, reporting to a ``FeedBuilder``.
///
/// The builder reaches the C callbacks through the context's `_private` field; user data is
/// left nil so that libxml2's own SAX2 helpers (entity declarations and look-ups) still get
/// the context they expect.
final class LibXMLPushParser {
  /// libxml2's functions; nil when it could not be opened (the builder has failed then).
  private let xml: LibXML2?
  /// Nil when libxml2 could not be opened or could not allocate one.
  private let context: xmlParserCtxtPtr?
  /// The builder lives here, as a value, so that each SAX event is one access to it.
  /// Unchecked: the runtime's exclusivity check cost more than most events; the builder is
  /// reached only from this parser's callbacks and from its owner between chunks, never
  /// reentrantly.
  @exclusivity(unchecked) var builder: FeedBuilder
  /// The first error libxml2 reported, for when no feed root was ever seen.
  private(set) var firstError: String?
  private(set) var errorCount = 0
  /// Bytes of declared entities' text delivered so far.
  private var expandedEntityBytes = 0
  /// The text that the repair stage lifted out of the chunks given so far, until libxml2
  /// reaches the instructions standing for it.
  fileprivate let lifted: LiftedText.Queue

  /// The most text that declared entities may deliver in one document. libxml2 2.9 bounds
  /// the amplification of each reference, not their sum: one 10 KB entity used ten thousand
  /// times turns 60 KB into 100 MB. Real feeds declare no entities, or a few short ones.
  static let maxEntityExpansionBytes = 16 << 20

  private static let options = Int32(
    XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue
      | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOWARNING.rawValue)

  init(builder: consuming FeedBuilder, lifted: LiftedText.Queue = LiftedText.Queue()) {
    self.lifted = lifted
    self.builder = builder
    let library: LibXML2
    switch LibXML2.shared {
    case .success(let opened): library = opened
    case .failure(let error):
      xml = nil
      context = nil
      self.builder.fail(.parserUnavailable(error.detail))
      return
    }
    xml = library
    var handler = xmlSAXHandler()
    _ = library.saxVersion(&handler, 2)
    handler.startElementNs = startElement
    handler.endElementNs = endElement
    handler.characters = characters
    handler.cdataBlock = characters
    handler.ignorableWhitespace = nil
    handler.comment = nil
    handler.processingInstruction = processingInstruction
    handler.reference = nil
    handler.getEntity = lookUpEntity
    handler.startElement = nil
    handler.endElement = nil
    handler.warning = nil
    handler.error = nil
    handler.fatalError = nil
    handler.serror = structuredError
    context = library.createPushParserContext(&handler, nil, nil, 0, nil)
    guard let context else {
      self.builder.fail(.malformed("the XML parser could not be created"))
      return
    }
    _ = library.useOptions(context, Self.options)
    context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    guard let xml, let context else { return }
    if let document = context.pointee.myDoc { xml.freeDocument(document) }
    xml.freeParserContext(context)
  }

  /// Parses the next repaired bytes, `lifted` holding the runs taken out of them.
  func parse(_ bytes: UnsafeRawBufferPointer, lifted chunk: LiftedText.Chunk, final: Bool) {
    guard let context, context.pointee.disableSAX == 0 else {
      lifted.removeAll()
      if final { parse(bytes, final: true) }
      return
    }
    lifted.parse(chunk) { parse(bytes, final: final) }
  }

  func parse(_ bytes: UnsafeRawBufferPointer, final: Bool) {
    guard let xml, let context, context.pointee.disableSAX == 0 || final else { return }
    let chunk = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    var offset = 0
    // xmlParseChunk takes an Int32 length.
    repeat {
      let size = min(bytes.count - offset, 1 << 30)
      _ = xml.parseChunk(
        context, chunk.map { $0 + offset }, Int32(size),
        final && offset + size == bytes.count ? 1 : 0)
      offset += size
    } while offset < bytes.count
  }

  /// Whether an instruction's data starts with this document's token (and a space, or
  /// ends there); returns what follows it.
  fileprivate func ownInstruction(_ data: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
    var p = data
    for byte in lifted.instructionToken {
      guard p.pointee == byte else { return nil }
      p += 1
    }
    switch p.pointee {
    case 0: return p
    case 0x20: return p + 1
    default: return nil
    }
  }

  /// Hands the lifted run named by an instruction's data (after the token) to the builder
  /// as text.
  fileprivate func deliverLifted(_ data: UnsafePointer<UInt8>) {
    var number = 0
    var p = data
    while p.pointee >= 0x30 && p.pointee <= 0x39 && number < Int.max / 10 {
      number = number * 10 + Int(p.pointee - 0x30)
      p += 1
    }
    lifted.take(number) { run in
      if let start = run.baseAddress { builder.characters(start, count: run.count) }
    }
  }

  func stop() {
    if let xml, let context { xml.stopParser(context) }
  }

  /// Counts a use of a declared entity in the document; refuses the document once the sum
  /// of their text passes the bound.
  fileprivate func expand(_ entity: xmlEntityPtr) {
    guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY else { return }
    expandedEntityBytes += Int(entity.pointee.length)
    guard expandedEntityBytes > Self.maxEntityExpansionBytes else { return }
    builder.fail(.entityExpansion)
    stop()
  }

  fileprivate func error(_ error: xmlError) {
    errorCount += 1
    if Int32(error.code) == XML_ERR_ENTITY_LOOP.rawValue {
      builder.fail(.entityExpansion)
      stop()
      return
    }
    guard firstError == nil, let message = error.message else { return }
    let text = String(cString: message).trimmingWhitespace()
    firstError = "line \(error.line): \(text)"
  }

}

/// The parser behind a libxml2 context, reached without retaining it: the context lives
/// only as long as its parser.
@inline(__always)
private func withParser(_ context: UnsafeMutableRawPointer?, _ body: (LibXMLPushParser) -> Void) {
  guard let context,
    let owner = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
  else { return }
  Unmanaged<LibXMLPushParser>.fromOpaque(owner)._withUnsafeGuaranteedRef(body)
}

private let lookUpEntity: getEntitySAXFunc = { context, name in
  guard case .success(let xml) = LibXML2.shared else { return nil }
  let entity = xml.getEntity(context, name)
  // Uses inside the DTD (one entity's value naming another) are not expansions yet.
  if let entity, let context,
    context.assumingMemoryBound(to: xmlParserCtxt.self).pointee.inSubset == 0
  {
    withParser(context) { $0.expand(entity) }
  }
  return entity
}

private let processingInstruction: processingInstructionSAXFunc = { context, target, data in
  guard let target else { return }
  // An instruction of the same name written in the feed lacks the document's token and
  // is ignored, as every other instruction is.
  guard let data else { return }
  if isNamed(target, LiftedText.target) {
    withParser(context) { parser in
      guard let number = parser.ownInstruction(data) else { return }
      parser.deliverLifted(number)
    }
  } else if isNamed(target, MarkupRepair.endOfInputTarget) {
    withParser(context) { parser in
      guard let rest = parser.ownInstruction(data), rest.pointee == 0 else { return }
      parser.builder.inputEndedEarly()
    }
  }
}

/// Whether the NUL-terminated `name` is `expected`.
private func isNamed(_ name: UnsafePointer<UInt8>, _ expected: StaticString) -> Bool {
  let count = expected.utf8CodeUnitCount
  let bytes = expected.utf8Start
  // A shorter name differs at its NUL, before anything past it is read.
  for k in 0..<count where name[k] != bytes[k] { return false }
  return name[count] == 0
}

private let startElement: startElementNsSAX2Func = {
  context, localName, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
  guard let localName else { return }
  withParser(context) { parser in
    let list = Attributes(
      UnsafePointer(attributes), count: Int(attributeCount), lifted: parser.lifted)
    parser.builder.startElement(
      localName: localName, prefix: prefix, uri: uri, attributes: list,
      declaresRSS090: declares(
        Namespace.rss090, in: namespaces, count: Int(namespaceCount)))
    if parser.builder.mustStop { parser.stop() }
  }
}

/// Whether the namespace declarations of a start tag (prefix and URI pairs) bind `namespace`:
/// an RSS 0.90 document tells itself from RSS 1.0 only by the namespace it declares.
private func declares(
  _ namespace: Namespace, in declarations: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
  count: Int
) -> Bool {
  guard let declarations else { return false }
  return (0..<count).contains { Namespace(uri: declarations[$0 * 2 + 1]) == namespace }
}

private let endElement: endElementNsSAX2Func = { context, localName, _, _ in
  guard let localName else { return }
  withParser(context) { parser in
    parser.builder.endElement(localName: localName)
    if parser.builder.mustStop { parser.stop() }
  }
}

private let characters: charactersSAXFunc = { context, bytes, count in
  guard let bytes else { return }
  withParser(context) { $0.builder.characters(bytes, count: Int(count)) }
}

private let structuredError: xmlStructuredErrorFunc = { context, error in
  guard let error else { return }
  withParser(context) { $0.error(error.pointee) }
}
