import CLibXML2
import Foundation

/// The libxml2 SAX2 push parser, driven chunk by chunk, reporting to a ``FeedBuilder``.
///
/// The builder reaches the C callbacks through the context's `_private` field; user data is
/// left nil so that libxml2's own SAX2 helpers (entity declarations and look-ups) still get
/// the context they expect.
final class LibXMLPushParser {
  private let context: xmlParserCtxtPtr
  private let builder: FeedBuilder
  /// The first error libxml2 reported, for when no feed root was ever seen.
  private(set) var firstError: String?
  private(set) var errorCount = 0

  private static let options = Int32(
    XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue
      | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOWARNING.rawValue)

  init?(builder: FeedBuilder) {
    Self.refuseExternalEntities
    var handler = xmlSAXHandler()
    xmlSAXVersion(&handler, 2)
    handler.startElementNs = startElement
    handler.endElementNs = endElement
    handler.characters = characters
    handler.cdataBlock = characters
    handler.ignorableWhitespace = nil
    handler.comment = nil
    handler.processingInstruction = nil
    handler.reference = nil
    handler.startElement = nil
    handler.endElement = nil
    handler.warning = nil
    handler.error = nil
    handler.fatalError = nil
    handler.serror = structuredError
    guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else { return nil }
    self.context = context
    self.builder = builder
    xmlCtxtUseOptions(context, Self.options)
    context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    if let document = context.pointee.myDoc { xmlFreeDoc(document) }
    xmlFreeParserCtxt(context)
  }

  /// External entities (`SYSTEM "file:///etc/passwd"`) are never loaded, whatever the
  /// parser options: the loader is process-wide, so it is replaced once for all.
  private static let refuseExternalEntities: Void = {
    xmlSetExternalEntityLoader { _, _, _ in nil }
  }()

  func parse(_ bytes: UnsafeRawBufferPointer, final: Bool) {
    guard context.pointee.disableSAX == 0 || final else { return }
    let chunk = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
    var offset = 0
    // xmlParseChunk takes an Int32 length.
    repeat {
      let size = min(bytes.count - offset, 1 << 30)
      xmlParseChunk(
        context, chunk.map { $0 + offset }, Int32(size),
        final && offset + size == bytes.count ? 1 : 0)
      offset += size
    } while offset < bytes.count
  }

  /// Whether libxml2 stopped for good (a fatal error it does not recover from).
  var isStopped: Bool { context.pointee.disableSAX != 0 }

  func stop() { xmlStopParser(context) }

  fileprivate func error(_ error: xmlError) {
    errorCount += 1
    if Int32(error.code) == XML_ERR_ENTITY_LOOP.rawValue {
      builder.fail(.entityExpansion)
      xmlStopParser(context)
      return
    }
    guard firstError == nil, let message = error.message else { return }
    let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    firstError = "line \(error.line): \(text)"
  }

  fileprivate var feedBuilder: FeedBuilder { builder }
}

private func parser(_ context: UnsafeMutableRawPointer?) -> LibXMLPushParser? {
  guard let context,
    let owner = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
  else { return nil }
  return Unmanaged<LibXMLPushParser>.fromOpaque(owner).takeUnretainedValue()
}

private let startElement: startElementNsSAX2Func = {
  context, localName, _, uri, _, _, attributeCount, _, attributes in
  guard let parser = parser(context), let localName else { return }
  var list: [FeedBuilder.Attribute] = []
  if let attributes, attributeCount > 0 {
    list.reserveCapacity(Int(attributeCount))
    for i in 0..<Int(attributeCount) {
      guard let name = attributes[i * 5], let value = attributes[i * 5 + 3],
        let end = attributes[i * 5 + 4]
      else { continue }
      list.append(
        FeedBuilder.Attribute(
          localName: name, prefix: attributes[i * 5 + 1], value: value, end: end))
    }
  }
  let builder = parser.feedBuilder
  builder.startElement(localName: localName, uri: uri, attributes: list)
  if builder.failure != nil { parser.stop() }
}

private let endElement: endElementNsSAX2Func = { context, localName, _, _ in
  guard let parser = parser(context), let localName else { return }
  parser.feedBuilder.endElement(localName: localName)
}

private let characters: charactersSAXFunc = { context, bytes, count in
  guard let parser = parser(context), let bytes else { return }
  parser.feedBuilder.characters(bytes, count: Int(count))
}

private let structuredError: xmlStructuredErrorFunc = { context, error in
  guard let parser = parser(context), let error else { return }
  parser.error(error.pointee)
}
