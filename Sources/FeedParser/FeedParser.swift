import Foundation
import PodcastModel

/// Parses one RSS or Atom document, fed in chunks as it arrives, into a ``Podcast``.
///
///     let parser = FeedParser(feedURL: url)
///     for chunk in body { try parser.feed(chunk) }
///     let podcast = try parser.finish()
///
/// Bytes go through three stages: ``InputDecoder`` (any encoding to UTF-8),
/// ``MarkupRepair`` (malformed XML to well-formed) and libxml2's push parser, whose SAX
/// events ``FeedBuilder`` turns into the model. Memory grows with the episodes kept, not
/// with the document; with `onEpisode` set, episodes are handed over as each one ends and
/// not kept at all.
public final class FeedParser {
  /// The size of the pieces handed to libxml2.
  static let chunkSize = 256 << 10

  private var decoder = InputDecoder()
  private var repair: MarkupRepair
  private let xml: LibXMLPushParser
  /// The first byte that is not whitespace, once seen: it tells JSON from XML.
  private var firstByte: UInt8?
  private var sawContent: Bool { firstByte != nil }
  private var finished = false

  /// - Parameters:
  ///   - feedURL: the URL the document was fetched from (after permanent redirects); it is
  ///     the podcast's feed URL, the base of relative URLs and, without a `podcast:guid`,
  ///     the source of the podcast id.
  ///   - baseURL: the base of relative URLs when there is no feed URL and the document
  ///     gives none (a local file's URL).
  ///   - onEpisode: when set, each episode is handed over as soon as it is complete and
  ///     the result's `episodes` stays empty. What it throws stops the parse and is
  ///     rethrown by `feed` or `finish()`.
  public convenience init(
    feedURL: String? = nil, baseURL: String? = nil, onEpisode: ((Episode) throws -> Void)? = nil
  ) {
    self.init(feedURL: feedURL, baseURL: baseURL, liftingText: true, onEpisode: onEpisode)
  }

  /// - Parameter liftingText: whether long text and CDATA sections go to the builder beside
  ///   libxml2 (``LiftedText``); off only to show that it changes nothing.
  init(
    feedURL: String?, baseURL: String?, liftingText: Bool, onEpisode: ((Episode) throws -> Void)?
  ) {
    let lifted = LiftedText.Queue()
    repair = MarkupRepair(
      liftingText: liftingText, attributeMark: lifted.attributeMark,
      instructionToken: lifted.instructionToken)
    xml = LibXMLPushParser(
      builder: FeedBuilder(feedURL: feedURL, fallbackBase: baseURL, onEpisode: onEpisode),
      lifted: lifted)
  }

  /// Parses the next bytes of the document.
  /// - Throws: ``FeedParseError`` as soon as the document is known not to be a feed, so
  ///   that a download can be abandoned early.
  public func feed(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + Self.chunkSize)
      try step(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), final: false)
      offset = end
    }
  }

  public func feed(_ data: Data) throws {
    try data.withUnsafeBytes { try feed($0) }
  }

  /// Ends the document and returns what it held.
  /// - Throws: ``FeedParseError`` when no feed was found in it.
  public func finish() throws -> Podcast {
    if !finished {
      finished = true
      try step(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
    }
    try throwIfStopped()
    guard xml.builder.format != nil else {
      if !sawContent { throw FeedParseError.empty }
      if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
        throw FeedParseError.notAFeed("the document is JSON, not XML")
      }
      if !xml.builder.sawElement {
        throw FeedParseError.notAFeed("no XML element in it")
      }
      if let error = xml.firstError { throw FeedParseError.malformed(error) }
      throw FeedParseError.notAFeed("no XML element in it")
    }
    reportRepairs()
    return xml.builder.podcast()
  }

  /// Parses a whole document held in memory.
  public static func parse(
    _ data: Data, feedURL: String? = nil, baseURL: String? = nil
  ) throws -> Podcast {
    let parser = FeedParser(feedURL: feedURL, baseURL: baseURL)
    try parser.feed(data)
    return try parser.finish()
  }

  private func throwIfStopped() throws {
    if let error = xml.builder.consumerError { throw error }
    if let failure = xml.builder.failure { throw failure }
  }

  private func step(_ bytes: UnsafeRawBufferPointer, final: Bool) throws {
    try throwIfStopped()
    decoder.decode(bytes, final: final) { decoded in
      if firstByte == nil {
        firstByte = decoded.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
      }
      repairAndParse(decoded, final: false)
    }
    if final { repairAndParse(UnsafeRawBufferPointer(start: nil, count: 0), final: true) }
    try throwIfStopped()
  }

  private func repairAndParse(_ decoded: UnsafeRawBufferPointer, final: Bool) {
    repair.process(decoded, final: final) { repaired, lifted in
      if sawContent { xml.parse(repaired, lifted: lifted, final: false) }
    }
    if final { xml.parse(UnsafeRawBufferPointer(start: nil, count: 0), final: true) }
  }

  /// Turns what the decoder and the repair stage changed into warnings.
  private func reportRepairs() {
    for repair in decoder.repairs {
      switch repair {
      case .invalidUTF8:
        xml.builder.warnings.add("the feed is not valid UTF-8: stray bytes read as Windows-1252")
      case .unknownEncoding(let name):
        xml.builder.warnings.add("unknown encoding \"\(name)\": read as UTF-8")
      case .invalidInDeclaredEncoding(let name):
        xml.builder.warnings.add("bytes invalid in the declared \(name) read as Windows-1252")
      }
    }
    let r = repair.repairs
    if r.blankBeforeDeclaration {
      xml.builder.warnings.add("blank lines before the XML declaration ignored")
    }
    if r.junkBeforeRoot { xml.builder.warnings.add("text before the feed's first element ignored") }
    if r.bareAmpersands > 0 {
      xml.builder.warnings.add("\(r.bareAmpersands) unescaped \"&\" kept as text")
    }
    if !r.htmlEntities.isEmpty {
      xml.builder.warnings.add(
        "HTML entities undeclared in XML decoded: " + Self.list(r.htmlEntities, "&", ";"))
    }
    if !r.unknownEntities.isEmpty {
      xml.builder.warnings.add(
        "unknown entities kept as text: " + Self.list(r.unknownEntities, "&", ";"))
    }
    if r.invalidCharacterReferences > 0 {
      xml.builder.warnings.add(
        "\(r.invalidCharacterReferences) character references to invalid characters replaced")
    }
    if r.unescapedLessThans > 0 {
      xml.builder.warnings.add("\(r.unescapedLessThans) unescaped \"<\" kept as text")
    }
    if !r.strayEndTags.isEmpty {
      xml.builder.warnings.add(
        "stray end tags kept as text: " + Self.list(r.strayEndTags, "</", ">"))
    }
    if !r.unclosedElements.isEmpty {
      xml.builder.warnings.add(
        "unclosed elements closed: " + Self.list(r.unclosedElements, "<", ">"))
    }
    if r.controlCharacters > 0 {
      xml.builder.warnings.add(
        "\(r.controlCharacters) control characters not allowed in XML removed")
    }
    if r.doubleHyphensInComments > 0 {
      xml.builder.warnings.add("\(r.doubleHyphensInComments) \"--\" inside comments made \"- -\"")
    }
    if r.contentAfterRoot { xml.builder.warnings.add("content after the feed's end ignored") }
    if xml.errorCount > 0, let first = xml.firstError {
      xml.builder.warnings.add("XML errors recovered from (\(xml.errorCount)), first at \(first)")
    }
  }

  private static func list(_ names: Set<String>, _ open: String, _ close: String) -> String {
    let sorted = names.sorted()
    let shown = sorted.prefix(8).map { open + $0 + close }.joined(separator: " ")
    return sorted.count > 8 ? shown + " and \(sorted.count - 8) more" : shown
  }
}
