internal import CLibXML2
import Glibc

/// libxml2, opened with dlopen the first time a document is parsed.
///
/// Linked, it would be loaded by every command, with the ICU, zlib and lzma libraries it
/// needs: about 1.5 ms of a `podcasts list` that parses nothing. Opened here, only parsing
/// pays for it, once. The functions are libxml2's own, reached through these pointers.
struct LibXML2: @unchecked Sendable {
  typealias Context = UnsafeMutablePointer<xmlParserCtxt>
  typealias Document = UnsafeMutablePointer<xmlDoc>
  typealias Reader = OpaquePointer
  typealias Entity = UnsafeMutablePointer<xmlEntity>
  typealias EntityLoader =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafePointer<CChar>?, Context?
    ) -> UnsafeMutablePointer<xmlParserInput>?
  typealias ReaderErrorHandler =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutablePointer<xmlError>?
    ) -> Void

  // The push parser.
  let saxVersion: @convention(c) (UnsafeMutablePointer<xmlSAXHandler>?, Int32) -> Int32
  let createPushParserContext:
    @convention(c) (
      UnsafeMutablePointer<xmlSAXHandler>?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
      Int32, UnsafePointer<CChar>?
    ) -> Context?
  let useOptions: @convention(c) (Context?, Int32) -> Int32
  let parseChunk: @convention(c) (Context?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
  let stopParser: @convention(c) (Context?) -> Void
  let freeParserContext: @convention(c) (Context?) -> Void
  let freeDocument: @convention(c) (Document?) -> Void
  let getEntity: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?) -> Entity?
  let setExternalEntityLoader: @convention(c) (EntityLoader?) -> Void
  let htmlEntityLookup: @convention(c) (UnsafePointer<UInt8>?) -> UnsafePointer<htmlEntityDesc>?

  // The reader of OPML files, and the tree it walks when a file must be recovered.
  let readerForMemory:
    @convention(c) (
      UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32
    ) -> Reader?
  let setReaderErrorHandler:
    @convention(c) (Reader?, ReaderErrorHandler?, UnsafeMutableRawPointer?) -> Void
  let newParserContext: @convention(c) () -> Context?
  let readMemory:
    @convention(c) (
      Context?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
      Int32
    ) -> Document?
  let readerWalker: @convention(c) (Document?) -> Reader?
  let freeReader: @convention(c) (Reader?) -> Void
  let read: @convention(c) (Reader?) -> Int32
  let nodeType: @convention(c) (Reader?) -> Int32
  let localName: @convention(c) (Reader?) -> UnsafePointer<UInt8>?
  let isEmptyElement: @convention(c) (Reader?) -> Int32
  let moveToNextAttribute: @convention(c) (Reader?) -> Int32
  let value: @convention(c) (Reader?) -> UnsafePointer<UInt8>?
  let moveToElement: @convention(c) (Reader?) -> Int32

  /// The library, or why it could not be opened; opened once per process. Then, under the
  /// lazy static's lock and before any document: libxml2's global state is set up (not
  /// reentrant, and `refresh` parses several feeds at once), and external entities are
  /// refused for good (the loader is process-wide).
  static let shared: Result<LibXML2, LoadError> = open().map { opened in
    opened.initParser()
    opened.library.setExternalEntityLoader { _, _, _ in nil }
    return opened.library
  }

  /// Why libxml2 could not be opened: the loader's words.
  struct LoadError: Error {
    let detail: String
  }

  private static func open() -> Result<
    (library: LibXML2, initParser: @convention(c) () -> Void), LoadError
  > {
    guard let handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL) else {
      return .failure(LoadError(detail: dlerror().map { String(cString: $0) } ?? "libxml2.so.2"))
    }
    func symbol<Function>(_ name: String) throws(LoadError) -> Function {
      guard let address = dlsym(handle, name) else {
        throw LoadError(detail: "libxml2.so.2 has no \(name)")
      }
      return unsafeBitCast(address, to: Function.self)
    }
    do throws(LoadError) {
      let library = LibXML2(
        saxVersion: try symbol("xmlSAXVersion"),
        createPushParserContext: try symbol("xmlCreatePushParserCtxt"),
        useOptions: try symbol("xmlCtxtUseOptions"),
        parseChunk: try symbol("xmlParseChunk"),
        stopParser: try symbol("xmlStopParser"),
        freeParserContext: try symbol("xmlFreeParserCtxt"),
        freeDocument: try symbol("xmlFreeDoc"),
        getEntity: try symbol("xmlSAX2GetEntity"),
        setExternalEntityLoader: try symbol("xmlSetExternalEntityLoader"),
        htmlEntityLookup: try symbol("htmlEntityLookup"),
        readerForMemory: try symbol("xmlReaderForMemory"),
        setReaderErrorHandler: try symbol("xmlTextReaderSetStructuredErrorHandler"),
        newParserContext: try symbol("xmlNewParserCtxt"),
        readMemory: try symbol("xmlCtxtReadMemory"),
        readerWalker: try symbol("xmlReaderWalker"),
        freeReader: try symbol("xmlFreeTextReader"),
        read: try symbol("xmlTextReaderRead"),
        nodeType: try symbol("xmlTextReaderNodeType"),
        localName: try symbol("xmlTextReaderConstLocalName"),
        isEmptyElement: try symbol("xmlTextReaderIsEmptyElement"),
        moveToNextAttribute: try symbol("xmlTextReaderMoveToNextAttribute"),
        value: try symbol("xmlTextReaderConstValue"),
        moveToElement: try symbol("xmlTextReaderMoveToElement"))
      return .success((library, try symbol("xmlInitParser")))
    } catch {
      return .failure(error)
    }
  }
}
