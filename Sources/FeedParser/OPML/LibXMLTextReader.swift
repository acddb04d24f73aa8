internal import CLibXML2
import Glibc

/// libxml2's pull parser (xmlTextReader) over one small document held in memory, read as a
/// sequence of nodes.
///
/// The reader streams, but gives up at the first XML error, even with XML_PARSE_RECOVER: a
/// duplicate attribute would lose the whole file. So a document it fails on is read again
/// with ``Mode/recovering``: parsed whole in recover mode, then walked with the same API.
///
/// Security is the feed parser's: the network is off, no DTD is loaded, entities are
/// substituted only behind an external-entity loader that refuses everything (so
/// `SYSTEM "file:///etc/passwd"` yields nothing), never XML_PARSE_HUGE, and entity
/// expansion without bound stops the read.
final class LibXMLTextReader {
  enum Mode {
    /// Pull parsing: nothing but the current node is kept.
    case streaming
    /// A tree built in recover mode, then walked: whatever libxml2 can make of the input.
    case recovering
  }

  enum Node {
    /// An element; attribute names are in ASCII lower case, since OPML writers vary the
    /// case (`xmlUrl`, `xmlurl`, `XMLURL`). The first of two equal names wins.
    case start(name: String, attributes: [String: String], isEmpty: Bool)
    case end(name: String)
    /// Text or CDATA content.
    case text(String)
  }

  private let xml: LibXML2
  /// Nil only when libxml2 could not allocate one.
  private var reader: xmlTextReaderPtr?
  /// The tree a recovering reader walks.
  private var tree: xmlDocPtr?
  /// The first error libxml2 reported, with its line.
  private(set) var firstError: String?
  private(set) var errorCount = 0
  /// Whether the reader stopped at an error before the end of the document.
  private(set) var failed = false
  /// Whether libxml2 refused entities that expand without bound; the read then stops.
  private(set) var entityExpansion = false

  private static let options = Int32(
    XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue
      | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOWARNING.rawValue
      | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOCDATA.rawValue)

  /// - Parameters:
  ///   - document: UTF-8 (its declared encoding is ignored). libxml2 reads it in place: it
  ///     must stay valid for the reader's life.
  ///   - xml: libxml2, opened (``LibXML2/shared``); opening it refuses external entities.
  init(document: UnsafeBufferPointer<UInt8>, mode: Mode, xml: LibXML2) {
    self.xml = xml
    guard let base = document.baseAddress else { return }
    let size = Int32(clamping: document.count)
    let owner = Unmanaged.passUnretained(self).toOpaque()
    base.withMemoryRebound(to: CChar.self, capacity: document.count) { bytes in
      switch mode {
      case .streaming:
        reader = xml.readerForMemory(bytes, size, nil, nil, Self.options)
        if let reader { xml.setReaderErrorHandler(reader, readerError, owner) }
      case .recovering:
        guard let context = xml.newParserContext() else { return }
        defer { xml.freeParserContext(context) }
        context.pointee._private = owner
        context.pointee.sax.pointee.serror = parserError
        tree = xml.readMemory(context, bytes, size, nil, nil, Self.options)
        reader = tree.flatMap { xml.readerWalker($0) }
      }
    }
  }

  deinit {
    if let reader { xml.freeReader(reader) }
    if let tree { xml.freeDocument(tree) }
  }

  /// The next element boundary or text; nil at the end of the document or once it cannot
  /// be read further.
  func next() -> Node? {
    guard let reader else { return nil }
    while !entityExpansion {
      let status = xml.read(reader)
      guard status == 1 else {
        if status < 0 { failed = true }
        return nil
      }
      switch xmlReaderTypes(UInt32(xml.nodeType(reader))) {
      case XML_READER_TYPE_ELEMENT:
        let name = Self.string(xml.localName(reader))
        let isEmpty = xml.isEmptyElement(reader) == 1
        var attributes: [String: String] = [:]
        while xml.moveToNextAttribute(reader) == 1 {
          let key = Self.string(xml.localName(reader), lowercased: true)
          if attributes[key] == nil {
            attributes[key] = Self.string(xml.value(reader))
          }
        }
        _ = xml.moveToElement(reader)
        return .start(name: name, attributes: attributes, isEmpty: isEmpty)
      case XML_READER_TYPE_END_ELEMENT:
        return .end(name: Self.string(xml.localName(reader)))
      case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA:
        return .text(Self.string(xml.value(reader)))
      default:
        continue
      }
    }
    return nil
  }

  fileprivate func error(_ error: xmlError) {
    errorCount += 1
    if Int32(error.code) == XML_ERR_ENTITY_LOOP.rawValue { entityExpansion = true }
    guard firstError == nil, let message = error.message else { return }
    firstError = "line \(error.line): " + String(cString: message).trimmingWhitespace()
  }

  private static func string(_ text: UnsafePointer<xmlChar>?, lowercased: Bool = false) -> String {
    guard let text else { return "" }
    let count = strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))
    guard lowercased else {
      return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
    return String(unsafeUninitializedCapacity: count) { buffer in
      for index in 0..<count {
        let byte = text[index]
        buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
      }
      return count
    }
  }
}

/// Errors of the streaming reader, which hands over the owner it was given.
private let readerError: xmlStructuredErrorFunc = { owner, error in
  guard let owner, let error else { return }
  Unmanaged<LibXMLTextReader>.fromOpaque(owner)._withUnsafeGuaranteedRef { $0.error(error.pointee) }
}

/// Errors of the recovering parse, which hands over its context; the owner is in `_private`.
private let parserError: xmlStructuredErrorFunc = { context, error in
  guard let context, let error,
    let owner = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private
  else { return }
  Unmanaged<LibXMLTextReader>.fromOpaque(owner)._withUnsafeGuaranteedRef { $0.error(error.pointee) }
}
