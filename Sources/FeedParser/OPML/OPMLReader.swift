import Foundation

/// Reads OPML 1.0 and 2.0 subscription lists, as podcast apps and feed readers export them.
///
///     let document = try OPMLReader.read(data)
///     for entry in document.entries { subscribe(entry.url) }
///
/// The bytes go through the feed parser's repair stages first, ``InputDecoder`` (any
/// encoding to UTF-8) and ``MarkupRepair`` (a bare `&` in a URL, HTML entities, stray tags:
/// real exports carry all three), into one buffer, which libxml2's pull parser then reads
/// (see ``LibXMLTextReader``). An OPML file is small, so it is held whole.
public enum OPMLReader {
  /// The largest input read: a list of ten thousand feeds takes a few megabytes.
  public static let maxInputSize = 10_000_000

  /// - Throws: ``OPMLError`` when the data is not an OPML file at all; entries that cannot
  ///   be used are left out with a warning on the document.
  public static func read(_ data: Data) throws -> OPMLDocument {
    guard data.count <= maxInputSize else {
      throw OPMLError.tooLarge(bytes: data.count, limit: maxInputSize)
    }
    var warnings = Warnings()
    var firstByte: UInt8?
    let document = data.withUnsafeBytes { repaired($0, firstByte: &firstByte, warnings: &warnings) }
    guard let firstByte else { throw OPMLError.empty }
    if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
      throw OPMLError.notXML("the file is JSON, not XML")
    }
    let xml: LibXML2
    switch LibXML2.shared {
    case .success(let opened): xml = opened
    case .failure(let error): throw OPMLError.parserUnavailable(error.detail)
    }
    return try document.withUnsafeBufferPointer { bytes in
      let streaming = LibXMLTextReader(document: bytes, mode: .streaming, xml: xml)
      if let read = try read(streaming, warnings: warnings) { return read }
      let recovering = LibXMLTextReader(document: bytes, mode: .recovering, xml: xml)
      guard let read = try read(recovering, warnings: warnings) else {
        throw OPMLError.notXML(
          recovering.firstError.map { "unreadable XML (\($0))" } ?? "no XML element in it")
      }
      return read
    }
  }

  /// What `reader` yields; nil when it stopped at an error before the end of the document
  /// or found no element, without a word of why.
  private static func read(_ reader: LibXMLTextReader, warnings: Warnings) throws
    -> OPMLDocument?
  {
    var builder = OPMLBuilder(warnings: warnings)
    while !builder.isFinished, let node = reader.next() {
      switch node {
      case .start(let name, let attributes, let isEmpty):
        try builder.start(name: name, attributes: attributes)
        if isEmpty { builder.end() }
      case .end:
        builder.end()
      case .text(let text):
        builder.text(text)
      }
    }
    if reader.entityExpansion { throw OPMLError.entityExpansion }
    guard !reader.failed, builder.rootElement != nil else { return nil }
    if reader.errorCount > 0, let firstError = reader.firstError {
      builder.warnings.add(
        "XML errors recovered from (\(reader.errorCount)), first at \(firstError)")
    }
    return try builder.document()
  }

  /// The input as well-formed UTF-8, what was changed added to `warnings`.
  /// - Parameter firstByte: set to the first byte that is not whitespace, if any.
  private static func repaired(
    _ input: UnsafeRawBufferPointer, firstByte: inout UInt8?, warnings: inout Warnings
  ) -> [UInt8] {
    var decoder = InputDecoder()
    var markup = MarkupRepair()
    var output: [UInt8] = []
    output.reserveCapacity(input.count + input.count / 16)
    decoder.decode(input, final: true) { decoded in
      firstByte = decoded.first { !Self.isSpace($0) }
      markup.process(decoded, final: false) { output.append(contentsOf: $0) }
    }
    markup.process(UnsafeRawBufferPointer(start: nil, count: 0), final: true) {
      output.append(contentsOf: $0)
    }
    report(decoder.repairs, markup.repairs, to: &warnings)
    return output
  }

  private static func report(
    _ decoding: [InputDecoder.Repair], _ r: MarkupRepair.Repairs, to warnings: inout Warnings
  ) {
    for repair in decoding {
      switch repair {
      case .invalidUTF8:
        warnings.add("the file is not valid UTF-8: stray bytes read as Windows-1252")
      case .unknownEncoding(let name):
        warnings.add("unknown encoding \"\(name)\": read as UTF-8")
      case .invalidInDeclaredEncoding(let name):
        warnings.add("bytes invalid in the declared \(name) read as Windows-1252")
      }
    }
    if r.blankBeforeDeclaration { warnings.add("blank lines before the XML declaration ignored") }
    if r.junkBeforeRoot { warnings.add("text before the first element ignored") }
    if r.bareAmpersands > 0 { warnings.add("\(r.bareAmpersands) unescaped \"&\" kept as text") }
    if !r.htmlEntities.isEmpty {
      warnings.add("HTML entities undeclared in XML decoded: " + list(r.htmlEntities, "&", ";"))
    }
    if !r.unknownEntities.isEmpty {
      warnings.add("unknown entities kept as text: " + list(r.unknownEntities, "&", ";"))
    }
    if r.invalidCharacterReferences > 0 {
      warnings.add(
        "\(r.invalidCharacterReferences) character references to invalid characters replaced")
    }
    if r.unescapedLessThans > 0 {
      warnings.add("\(r.unescapedLessThans) unescaped \"<\" kept as text")
    }
    if !r.strayEndTags.isEmpty {
      warnings.add("stray end tags kept as text: " + list(r.strayEndTags, "</", ">"))
    }
    if !r.unclosedElements.isEmpty {
      warnings.add("unclosed elements closed: " + list(r.unclosedElements, "<", ">"))
    }
    if r.controlCharacters > 0 {
      warnings.add("\(r.controlCharacters) control characters not allowed in XML removed")
    }
    if r.contentAfterRoot { warnings.add("content after the root element ignored") }
  }

  private static func list(_ names: Set<String>, _ open: String, _ close: String) -> String {
    let sorted = names.sorted()
    let shown = sorted.prefix(8).map { open + $0 + close }.joined(separator: " ")
    return sorted.count > 8 ? shown + " and \(sorted.count - 8) more" : shown
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
