import Foundation
import PodcastModel

/// Turns the SAX events of one feed document into a ``Podcast`` and its episodes: this is
/// where each element of RSS, Atom and their namespaces lands in the model.
struct FeedBuilder {
  /// How captured character data becomes a model field.
  private enum Mode: Equatable {
    /// Text used as it is (URLs, ids, dates, numbers); child elements ignored.
    case plain
    /// HTML (RSS text, Atom type="html"): kept as markup; child elements written back as tags.
    case html
    /// Plain text that the model must hold as HTML: `&`, `<`, `>` escaped.
    case text
    /// Atom type="xhtml": child elements written back as tags, their text escaped.
    case xhtml
    /// Atom 0.3 mode="base64": decoded when the element ends, then HTML or text.
    case base64(html: Bool)
  }

  private enum Field {
    case title(rank: Int)
    case link(rank: Int)
    case description(rank: Int)
    case language
    case author(rank: Int)
    case podcastGuid, newFeedURL, category, explicit
    case imageURL(rank: Int)
    case guid
    case date(rank: Int)
    case duration
    case season(rank: Int)
    case episodeNumber(rank: Int)
    case episodeType
  }

  private struct Frame {
    let element: Element
    /// Whether an xml:base on this element pushed a base URL.
    let pushedBase: Bool
  }

  private struct EnclosureCandidate {
    let enclosure: Enclosure
    /// 0: enclosure typed audio/video; 1: untyped or octet-stream; 2: audio/video media:content.
    let preference: Int
  }

  /// Episode fields gathered while its item is open.
  private struct EpisodeDraft {
    var episode = Episode()
    var title = Ranked<String>()
    /// The best description so far, as bytes: descriptions are most of a feed, and only
    /// the one that wins becomes a String.
    var description: [UInt8] = []
    var descriptionRange = 0..<0
    var descriptionRank = Int.max
    var link = Ranked<String>()
    var published = Ranked<Date>()
    var season = Ranked<Int>()
    var number = Ranked<Int>()
    var enclosures: [EnclosureCandidate] = []
    /// The input ended inside the item: what it lacks (its guid, its enclosure) cannot be
    /// told, and keeping it would make a second episode once the whole item is read.
    var cutOff = false

    mutating func takeDescription(_ bytes: inout [UInt8], range: Range<Int>, rank: Int) {
      swap(&bytes, &description)
      descriptionRange = range
      descriptionRank = rank
    }
  }

  let feedURL: String?
  let fallbackBase: String?
  private let onEpisode: ((Episode) throws -> Void)?
  /// What `onEpisode` threw: the parse stops and ``FeedParser`` rethrows it.
  private(set) var consumerError: (any Error)?

  private(set) var format: FeedFormat?
  private(set) var sawElement = false
  private(set) var failure: FeedParseError?
  var warnings = Warnings()

  private var podcastGuid: String?
  private var selfLink: String?
  private var title = Ranked<String>()
  private var link = Ranked<String>()
  private var description = Ranked<String>()
  private var author = Ranked<String>()
  private var imageURL = Ranked<String>()
  private var language: String?
  /// `xml:lang` on the root: the language when the feed names none otherwise.
  private var rootLanguage: String?
  private var explicit: Bool?
  private var newFeedURL: String?
  private var nextPageURL: String?
  private var itunesCategories: [String] = []
  private var plainCategories: [String] = []
  /// Texts of the itunes:category elements open now, and whether each has a child category.
  private var categoryPath: [(text: String, hasChild: Bool)] = []
  private var episodes: [Episode] = []
  private var episodeCount = 0
  private var identities: Set<SeenIdentity> = []
  private var draft: EpisodeDraft?
  /// The depth of the element stack with the open item on top.
  private var draftDepth = 0

  private var stack: [Frame] = []
  private var bases: [String] = []
  private static let elementSlotCount = 512
  private var elementSlots = [ElementSlot](repeating: ElementSlot(), count: elementSlotCount)
  private var namespaceCache: [UnsafePointer<UInt8>: Namespace] = [:]
  private var undeclaredPrefixes: Set<String> = []

  private var capture: [UInt8] = []
  private var captureField: Field?
  private var captureMode = Mode.plain
  private var captureDepth = 0
  private var captureTruncated = false
  /// The most text one field keeps; a longer one is cut and a warning says so.
  static let maxFieldBytes = 8 << 20

  init(feedURL: String?, fallbackBase: String?, onEpisode: ((Episode) throws -> Void)?) {
    self.feedURL = feedURL
    self.fallbackBase = fallbackBase
    self.onEpisode = onEpisode
    capture.reserveCapacity(64 << 10)
  }

  // MARK: SAX events

  mutating func startElement(
    localName: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?, uri: UnsafePointer<UInt8>?,
    attributes: Attributes, declaresRSS090: @autoclosure () -> Bool = false
  ) {
    let element =
      uri == nil && prefix != nil
      ? undeclaredPrefixLookup(localName: localName, prefix: prefix.unsafelyUnwrapped)
      : lookup(localName: localName, uri: uri)
    let parent = stack.last?.element
    var pushedBase = false
    if let base = attributes.xmlBase {
      let resolved =
        URLResolver.resolve(base, against: currentBase, defaultScheme: defaultScheme) ?? ""
      bases.append(resolved)
      pushedBase = true
    }
    if captureField != nil {
      if captureMode == .html || captureMode == .xhtml {
        writeStartTag(localName: localName, attributes: attributes)
      }
      stack.append(Frame(element: element, pushedBase: pushedBase))
      return
    }
    stack.append(Frame(element: element, pushedBase: pushedBase))
    if format == nil {
      sawElement = true
      root(
        element, localName: localName, uri: uri, attributes: attributes,
        declaresRSS090: declaresRSS090())
      return
    }
    if element == .channel && format == .rss1, let uri, namespace(of: uri) == .rss090 {
      format = .rss09x
    }
    if draft != nil {
      itemElement(element, parent: parent, attributes: attributes)
    } else {
      feedElement(element, parent: parent, attributes: attributes)
    }
  }

  mutating func endElement(localName: UnsafePointer<UInt8>) {
    guard let frame = stack.popLast() else { return }
    defer { if frame.pushedBase { bases.removeLast() } }
    if let field = captureField {
      if stack.count >= captureDepth {
        if captureMode == .html || captureMode == .xhtml {
          capture.append(contentsOf: [0x3C, 0x2F])
          appendCString(localName)
          capture.append(0x3E)
        }
        return
      }
      captureField = nil
      finishCapture(field)
      return
    }
    switch frame.element {
    case .item, .entry:
      if draft != nil && stack.count + 1 == draftDepth { finishEpisode() }
    case .itunesCategory:
      if let last = categoryPath.popLast(), !last.hasChild {
        itunesCategories.append((categoryPath.map(\.text) + [last.text]).joined(separator: "/"))
      }
    default: break
    }
  }

  mutating func characters(_ bytes: UnsafePointer<UInt8>, count: Int) {
    guard captureField != nil else { return }
    guard capture.count + count <= Self.maxFieldBytes else {
      captureTruncated = true
      return
    }
    if captureMode == .text || captureMode == .xhtml {
      appendEscaped(bytes, count: count)
    } else {
      capture.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }
  }

  /// The input ended here, before the document did (``MarkupRepair`` closes what was open).
  mutating func inputEndedEarly() {
    if draft != nil {
      draft?.cutOff = true
      warnings.add(
        "the document is cut short inside episode \(episodeCount + 1), which was left out")
    } else {
      warnings.add("the document is cut short; what came before the cut is kept")
    }
  }

  /// Whether the parse must stop: the document is no feed, or the consumer gave up.
  var mustStop: Bool { failure != nil || consumerError != nil }

  mutating func fail(_ error: FeedParseError) {
    if failure == nil { failure = error }
  }

  // MARK: Elements

  private mutating func root(
    _ element: Element, localName: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?,
    attributes: Attributes, declaresRSS090: Bool
  ) {
    var element = element
    var namespace = uri.map { Namespace(uri: $0) } ?? .none
    if namespace == .other, let uri {
      // A feed root in a namespace of its own (RSS 2.0 drafts gave it one; some generators
      // invent one): its elements are read as the root's format defines them.
      switch String(cString: localName) {
      case "rss": adopt(uri, as: .none)
      case "feed": adopt(uri, as: .atom10)
      default: break
      }
      namespace = self.namespace(of: uri)
      element = lookup(localName: localName, uri: uri)
      stack[stack.count - 1] = Frame(
        element: element, pushedBase: stack[stack.count - 1].pushedBase)
    }
    if let lang = attributes.xmlLang.flatMap(nonBlank) { rootLanguage = lang }
    switch element {
    case .rss:
      let version = attributes["version"] ?? ""
      format = version.hasPrefix("0.9") ? .rss09x : .rss2
    case .rdf:
      format = declaresRSS090 ? .rss09x : .rss1
    case .feed where namespace == .atom03:
      format = .atom03
    case .feed where namespace == .atom10 || namespace == .none:
      let version = attributes["version"] ?? ""
      format = version == "0.3" ? .atom03 : .atom10
    case .channel where namespace == .none:
      format = .rss09x
    default:
      let name = String(cString: localName)
      let what =
        name.lowercased() == "html"
        ? "the document is an HTML page"
        : name.lowercased() == "opml"
          ? "the document is an OPML subscription list" : "the root element is <\(name)>"
      fail(.notAFeed(what))
    }
  }

  private mutating func feedElement(_ element: Element, parent: Element?, attributes: Attributes) {
    let isFeedLevel = parent == .channel || parent == .feed
    switch element {
    case .item where parent == .channel || parent == .rdf || parent == .rss,
      .entry where parent == .feed:
      draft = EpisodeDraft()
      draftDepth = stack.count
      // An RSS 1.0 item is named by its rdf:about, the closest it has to a guid.
      if format == .rss1 || format == .rss09x, let about = attributes.anyPrefix("about") {
        let guid = nonBlank(about)
        draft?.episode.guid = guid
      }
      return
    default: break
    }
    if element == .itunesCategory && (isFeedLevel || parent == .itunesCategory) {
      if !categoryPath.isEmpty { categoryPath[categoryPath.count - 1].hasChild = true }
      let text = attributes["text"]
      categoryPath.append(
        (text?.trimmingWhitespace() ?? "", false))
      return
    }
    if parent == .image, element == .url,
      stack.count >= 3, [.channel, .rdf].contains(stack[stack.count - 3].element)
    {
      begin(.imageURL(rank: 1), .plain)
      return
    }
    if parent == .itunesOwner, element == .itunesName, stack.count >= 3,
      stack[stack.count - 3].element == .channel
    {
      begin(.author(rank: 2), .html)
      return
    }
    if parent == .author, element == .name, stack.count >= 3,
      stack[stack.count - 3].element == .feed
    {
      begin(.author(rank: 1), .text)
      return
    }
    guard isFeedLevel else { return }
    let atom = parent == .feed
    switch element {
    case .title: begin(.title(rank: 0), atom ? atomMode(attributes) : .html)
    case .link where attributes["href"] != nil: feedLink(attributes)
    case .link: begin(.link(rank: 0), .plain)
    case .atomLink: feedLink(attributes)
    case .description: begin(.description(rank: 0), .html)
    case .itunesSummary: begin(.description(rank: 1), .html)
    case .subtitle, .tagline: begin(.description(rank: 2), atomMode(attributes))
    case .itunesSubtitle: begin(.description(rank: 3), .html)
    case .language, .dcLanguage: begin(.language, .plain)
    case .itunesAuthor: begin(.author(rank: 0), .html)
    case .managingEditor, .dcCreator: begin(.author(rank: 1), .html)
    case .author where !atom: begin(.author(rank: 1), .html)
    case .dcTitle: begin(.title(rank: 1), .html)
    case .dcDescription: begin(.description(rank: 4), .html)
    case .itunesImage:
      if let href = attributes["href"] ?? attributes["url"] {
        imageURL.offer(url(href), rank: 0)
      }
    case .logo: begin(.imageURL(rank: 2), .plain)
    case .icon: begin(.imageURL(rank: 3), .plain)
    case .category:
      if atom || !(attributes.count == 0), let term = attributes["term"] {
        addPlainCategory(term)
      } else {
        begin(.category, .plain)
      }
    case .itunesExplicit: begin(.explicit, .plain)
    case .itunesNewFeedURL, .podcastNewFeedURL: begin(.newFeedURL, .plain)
    case .podcastGuid: begin(.podcastGuid, .plain)
    default: break
    }
  }

  private mutating func feedLink(_ attributes: Attributes) {
    guard let href = attributes["href"] else {
      return
    }
    let rel = attributes["rel"]?.lowercased() ?? "alternate"
    let type = attributes["type"]?.lowercased()
    switch rel {
    case "self":
      if selfLink == nil {
        selfLink = URLResolver.resolve(href, against: currentBase, defaultScheme: defaultScheme)
      }
    case "next":
      if nextPageURL == nil { nextPageURL = url(href) }
    case "alternate":
      let html = type == nil || type == "text/html" || type == "application/xhtml+xml"
      link.offer(url(href), rank: html ? 1 : 2)
    default: break
    }
  }

  private mutating func itemElement(_ element: Element, parent: Element?, attributes: Attributes) {
    let isItemLevel = parent == .item || parent == .entry
    if element == .mediaContent && (isItemLevel || parent == .mediaGroup) {
      mediaContent(attributes)
      return
    }
    let inMediaGroup =
      parent == .mediaGroup && (element == .mediaTitle || element == .mediaDescription)
    guard isItemLevel || inMediaGroup else { return }
    let atom = parent == .entry
    switch element {
    case .title: begin(.title(rank: 0), atom ? atomMode(attributes) : .html)
    case .itunesTitle: begin(.title(rank: 1), .html)
    case .dcTitle: begin(.title(rank: 2), .html)
    case .dcDescription: begin(.description(rank: 3), .html)
    case .xhtmlBody: begin(.description(rank: 1), .xhtml)
    case .fullitem: begin(.description(rank: 1), .html)
    case .mediaTitle: begin(.title(rank: 3), .text)
    case .mediaDescription: begin(.description(rank: 4), .text)
    case .dcIssued: begin(.date(rank: 1), .plain)
    case .dcModified: begin(.date(rank: 2), .plain)
    case .link where attributes["href"] != nil: itemLink(attributes, atom: atom)
    case .link: begin(.link(rank: 0), .plain)
    case .atomLink: itemLink(attributes, atom: atom)
    case .guid, .id: begin(.guid, .plain)
    case .contentEncoded: begin(.description(rank: 0), .html)
    case .content:
      if attributes["src"] == nil {
        begin(.description(rank: 0), atomMode(attributes))
      }
    case .description: begin(.description(rank: 1), .html)
    case .summary: begin(.description(rank: 1), atomMode(attributes))
    case .itunesSummary: begin(.description(rank: 2), .html)
    case .pubDate, .published, .issued: begin(.date(rank: 0), .plain)
    case .dcDate: begin(.date(rank: 1), .plain)
    case .updated, .modified: begin(.date(rank: 2), .plain)
    case .created: begin(.date(rank: 3), .plain)
    case .itunesDuration: begin(.duration, .plain)
    case .enclosure: enclosure(attributes)
    case .modEnclosure:
      addEnclosure(
        url: attributes.anyPrefix("resource"), type: attributes.anyPrefix("type"),
        length: attributes.anyPrefix("length"))
    case .itunesSeason: begin(.season(rank: 0), .plain)
    case .podcastSeason: begin(.season(rank: 1), .plain)
    case .itunesEpisode: begin(.episodeNumber(rank: 0), .plain)
    case .podcastEpisode: begin(.episodeNumber(rank: 1), .plain)
    case .itunesEpisodeType: begin(.episodeType, .plain)
    case .itunesExplicit: begin(.explicit, .plain)
    case .itunesImage:
      if draft?.episode.imageUrl == nil,
        let href = attributes["href"] ?? attributes["url"]
      {
        let image = url(href)
        draft?.episode.imageUrl = image
      }
    case .podcastTranscript:
      if let address = url(attributes["url"]) {
        let transcript = Transcript(
          url: address, type: attributes["type"].flatMap(nonBlank),
          language: attributes["language"].flatMap(nonBlank))
        draft?.episode.transcripts.append(transcript)
      }
    case .podcastChapters:
      if draft?.episode.chapters == nil, let address = url(attributes["url"]) {
        let chapters = Chapters(url: address, type: attributes["type"].flatMap(nonBlank))
        draft?.episode.chapters = chapters
      }
    default: break
    }
  }

  private mutating func itemLink(_ attributes: Attributes, atom: Bool) {
    guard let href = attributes["href"] else { return }
    let rel = attributes["rel"]?.lowercased() ?? "alternate"
    if rel == "enclosure" {
      enclosure(attributes, urlAttribute: "href")
    } else if rel == "alternate" {
      let type = attributes["type"]?.lowercased()
      let html = type == nil || type == "text/html" || type == "application/xhtml+xml"
      let link = url(href)
      draft?.link.offer(link, rank: (atom ? 0 : 1) + (html ? 0 : 2))
    }
  }

  private mutating func enclosure(_ attributes: Attributes, urlAttribute: String = "url") {
    addEnclosure(
      url: attributes[urlAttribute], type: attributes["type"], length: attributes["length"])
  }

  private mutating func addEnclosure(
    url rawURL: String?, type rawType: String?, length lengthText: String?
  ) {
    guard let address = url(rawURL) else { return }
    let type = rawType.flatMap(nonBlank)
    let length = lengthText.flatMap { FeedNumber.length($0) }
    if let lengthText, length == nil, !lengthText.allSatisfy(\.isWhitespace) {
      warnings.add(
        kind: "unreadable enclosure lengths",
        "episode \(episodeCount + 1): unreadable enclosure length \"\(lengthText)\"")
    }
    let kind = type?.lowercased() ?? ""
    let preference: Int
    if kind.hasPrefix("audio/") || kind.hasPrefix("video/") {
      preference = 0
    } else if kind.isEmpty || kind == "application/octet-stream" {
      preference = 1
    } else {
      return
    }
    draft?.enclosures.append(
      EnclosureCandidate(
        enclosure: Enclosure(url: address, type: type, length: length), preference: preference))
  }

  private mutating func mediaContent(_ attributes: Attributes) {
    guard let address = url(attributes["url"]) else { return }
    let type = attributes["type"].flatMap(nonBlank)
    let medium = attributes["medium"]?.lowercased()
    let kind = type?.lowercased() ?? ""
    guard
      kind.hasPrefix("audio/") || kind.hasPrefix("video/")
        || (kind.isEmpty && (medium == "audio" || medium == "video"))
    else { return }
    let length = attributes["fileSize"].flatMap { FeedNumber.length($0) }
    draft?.enclosures.append(
      EnclosureCandidate(
        enclosure: Enclosure(url: address, type: type, length: length), preference: 2))
  }

  // MARK: Capturing text

  private mutating func begin(_ field: Field, _ mode: Mode) {
    if case .description(let rank) = field, let item = draft, rank >= item.descriptionRank {
      return
    }
    captureField = field
    captureMode = mode
    captureDepth = stack.count
    captureTruncated = false
    capture.removeAll(keepingCapacity: true)
  }

  private func atomMode(_ attributes: Attributes) -> Mode {
    let type = attributes["type"]?.lowercased()
    let mode = attributes["mode"]?.lowercased()
    if mode == "base64" {
      return .base64(html: type == nil || type!.contains("html"))
    }
    if let mode, type == nil {
      return mode == "xml" ? .xhtml : .html  // Atom 0.3 content: "escaped" or "xml"
    }
    switch type {
    case nil, "text", "text/plain": return .text
    case "xhtml", "application/xhtml+xml": return .xhtml
    case "html", "text/html": return .html
    case let type? where type.hasPrefix("text/") || type.hasSuffix("xml"): return .text
    // Atom says any other media type is base64 (RFC 4287, 4.1.3.3).
    default: return .base64(html: false)
    }
  }

  /// Replaces base64 in the capture by what it encodes, escaped unless it is HTML.
  private mutating func decodeBase64Capture(html: Bool) {
    guard let decoded = Data(base64Encoded: Data(capture), options: .ignoreUnknownCharacters)
    else {
      warnings.add(kind: "unreadable base64", "base64 content that does not decode was dropped")
      capture.removeAll(keepingCapacity: true)
      return
    }
    capture.removeAll(keepingCapacity: true)
    if html {
      capture.append(contentsOf: decoded)
    } else {
      decoded.withUnsafeBytes { bytes in
        if let base = bytes.bindMemory(to: UInt8.self).baseAddress {
          appendEscaped(base, count: bytes.count)
        }
      }
    }
  }

  /// The captured bytes trimmed of surrounding whitespace; nil when nothing is left.
  private func capturedText() -> String? {
    let range = trimmedCaptureRange()
    return range.isEmpty ? nil : String(checkedUTF8: capture[range])
  }

  private func trimmedCaptureRange() -> Range<Int> {
    var start = capture.startIndex
    var end = capture.endIndex
    while start < end && isSpace(capture[start]) { start += 1 }
    while end > start && isSpace(capture[end - 1]) { end -= 1 }
    return start..<end
  }

  private mutating func finishCapture(_ field: Field) {
    if case .base64(let html) = captureMode { decodeBase64Capture(html: html) }
    if captureTruncated {
      warnings.add(
        kind: "overlong fields",
        "a field longer than \(Self.maxFieldBytes >> 20) MB was cut to that length")
    }
    if draft != nil {
      switch field {
      case .description(let rank):
        finishDescription(rank: rank)
        return
      case .date(let rank):
        finishDate(rank: rank)
        return
      case .duration:
        finishDuration()
        return
      default: break
      }
    }
    let text = capturedText()
    if draft != nil {
      finishItemField(field, text)
    } else {
      finishFeedField(field, text)
    }
  }

  private mutating func finishFeedField(_ field: Field, _ text: String?) {
    switch field {
    case .title(let rank): title.offer(text, rank: rank)
    case .link(let rank): link.offer(url(text), rank: rank)
    case .description(let rank): description.offer(text, rank: rank)
    case .author(let rank): author.offer(rank == 0 ? text : text.map(PersonName.of), rank: rank)
    case .imageURL(let rank): imageURL.offer(url(text), rank: rank)
    case .language: if language == nil { language = text }
    case .category: if let text { addPlainCategory(text) }
    case .explicit: if explicit == nil { explicit = text.flatMap(FeedNumber.boolean) }
    case .newFeedURL: if newFeedURL == nil { newFeedURL = url(text) }
    case .podcastGuid: if podcastGuid == nil { podcastGuid = text }
    default: break
    }
  }

  private mutating func finishItemField(_ field: Field, _ text: String?) {
    // Changed through optional chaining, in place: taking the draft out and putting it back
    // copies all of it.
    switch field {
    case .title(let rank): draft?.title.offer(text, rank: rank)
    case .link(let rank):
      let link = url(text)
      draft?.link.offer(link, rank: rank)
    case .guid: if draft?.episode.guid == nil { draft?.episode.guid = text }
    case .season(let rank): draft?.season.offer(text.flatMap(FeedNumber.integer), rank: rank)
    case .episodeNumber(let rank):
      draft?.number.offer(text.flatMap(FeedNumber.integer), rank: rank)
    case .episodeType:
      if draft?.episode.episodeType == nil { draft?.episode.episodeType = text?.lowercased() }
    case .explicit:
      if draft?.episode.explicit == nil {
        draft?.episode.explicit = text.flatMap(FeedNumber.boolean)
      }
    default: break
    }
  }

  /// Keeps the captured bytes as the episode's description when they rank better than the
  /// one it has: swapped in, not copied, and made a String only when the episode ends.
  private mutating func finishDescription(rank: Int) {
    let range = trimmedCaptureRange()
    guard !range.isEmpty else { return }
    draft?.takeDescription(&capture, range: range, rank: rank)
  }

  /// Dates and durations are read from the captured bytes: no String unless unreadable.
  private mutating func finishDate(rank: Int) {
    let range = trimmedCaptureRange()
    guard !range.isEmpty, draft?.published.wants(rank: rank) == true else { return }
    let seconds = capture.withUnsafeBufferPointer {
      FeedDate.unixSeconds(in: UnsafeBufferPointer(rebasing: $0[range]))
    }
    if let seconds {
      draft?.published.offer(Date(timeIntervalSince1970: TimeInterval(seconds)), rank: rank)
    } else {
      let text = String(decoding: capture[range], as: UTF8.self)
      warnings.add(
        kind: "unreadable dates", "episode \(episodeCount + 1): unreadable date \"\(text)\"")
    }
  }

  private mutating func finishDuration() {
    let range = trimmedCaptureRange()
    guard !range.isEmpty, draft?.episode.duration == nil else { return }
    let seconds = capture.withUnsafeBufferPointer {
      FeedDuration.parse(in: UnsafeBufferPointer(rebasing: $0[range]))
    }
    if let seconds {
      draft?.episode.duration = seconds
    } else {
      let text = String(decoding: capture[range], as: UTF8.self)
      warnings.add(
        kind: "unreadable durations",
        "episode \(episodeCount + 1): unreadable duration \"\(text)\"")
    }
  }

  private mutating func finishEpisode() {
    guard let item = draft.take(), !item.cutOff else { return }
    var episode = item.episode
    episode.title = item.title.value
    if !item.descriptionRange.isEmpty {
      episode.description = String(checkedUTF8: item.description[item.descriptionRange])
    }
    episode.link = item.link.value
    episode.published = item.published.value
    episode.season = item.season.value
    episode.episode = item.number.value
    episode.enclosure = item.enclosures.min { $0.preference < $1.preference }?.enclosure
    episodeCount += 1
    if let identity = episode.identity, !identities.insert(SeenIdentity(identity)).inserted {
      warnings.add(
        kind: "episodes sharing an identity",
        "episode \(episodeCount) has the same identity as an earlier one (\(identity))")
    }
    if let onEpisode {
      guard consumerError == nil else { return }
      do {
        try onEpisode(episode)
      } catch {
        consumerError = error
      }
    } else {
      episodes.append(episode)
    }
  }

  // MARK: Result

  /// The podcast as far as the document went; episodes are absent when they were handed
  /// to `onEpisode` instead.
  mutating func podcast() -> Podcast {
    if draft != nil { finishEpisode() }
    let feedUrl = feedURL ?? selfLink
    var categories = itunesCategories
    var seen = Set(categories)
    for category in plainCategories where seen.insert(category).inserted {
      categories.append(category)
    }
    return Podcast(
      id: podcastGuid ?? feedUrl.map(PodcastID.forFeedURL), feedUrl: feedUrl,
      format: format ?? .rss2, title: title.value, author: author.value,
      description: description.value, link: link.value, language: language ?? rootLanguage,
      imageUrl: imageURL.value, categories: categories, explicit: explicit,
      newFeedUrl: newFeedURL, nextPageUrl: nextPageURL, episodes: episodes,
      warnings: warnings.all)
  }

  var episodesSeen: Int { episodeCount }

  // MARK: Helpers

  /// A slot of the element cache: libxml2 interns names and namespace URIs, so a pair of
  /// pointers names an element for the whole document.
  private struct ElementSlot {
    var name: UnsafePointer<UInt8>?
    var uri: UnsafePointer<UInt8>?
    var element = Element.unknown
  }

  private mutating func lookup(localName: UnsafePointer<UInt8>, uri: UnsafePointer<UInt8>?)
    -> Element
  {
    let hash = (Int(bitPattern: localName) >> 3) ^ (Int(bitPattern: uri) >> 5)
    let index = hash & (Self.elementSlotCount - 1)
    let slot = elementSlots[index]
    if slot.name == localName && slot.uri == uri { return slot.element }
    let element = Element(
      namespace: uri.map { namespace(of: $0) } ?? .none, localName: String(cString: localName))
    elementSlots[index] = ElementSlot(name: localName, uri: uri, element: element)
    return element
  }

  /// An element whose prefix was never declared (`<itunes:author>` in a feed that forgot
  /// xmlns:itunes): read by the prefix's usual meaning, as feed readers do.
  private mutating func undeclaredPrefixLookup(
    localName: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>
  ) -> Element {
    let name = String(cString: prefix)
    let namespace = Namespace(conventionalPrefix: name)
    if undeclaredPrefixes.insert(name).inserted {
      warnings.add("namespace prefix \"\(name):\" used without a declaration: read as usual")
    }
    return Element(namespace: namespace, localName: String(cString: localName))
  }

  /// Reads the elements of namespace `uri` as those of `namespace`.
  private mutating func adopt(_ uri: UnsafePointer<UInt8>, as namespace: Namespace) {
    namespaceCache[uri] = namespace
    elementSlots = [ElementSlot](repeating: ElementSlot(), count: Self.elementSlotCount)
  }

  private mutating func namespace(of uri: UnsafePointer<UInt8>) -> Namespace {
    if let known = namespaceCache[uri] { return known }
    let namespace = Namespace(uri: uri)
    namespaceCache[uri] = namespace
    return namespace
  }

  private var currentBase: String? { bases.last ?? feedURL ?? selfLink ?? fallbackBase }

  /// The scheme a protocol-relative URL gets: the feed's, https for a local file.
  private var defaultScheme: String {
    feedURL.flatMap(URLResolver.scheme(of:)).flatMap { $0 == "file" ? nil : $0 } ?? "https"
  }

  /// Takes an optional so that callers need no `flatMap(url)`, whose partial application
  /// of a method copies the whole builder.
  private func url(_ raw: String?) -> String? {
    guard let raw else { return nil }
    return URLResolver.resolve(raw, against: currentBase, defaultScheme: defaultScheme)
  }

  private mutating func addPlainCategory(_ raw: String) {
    let text = raw.trimmingWhitespace()
    if !text.isEmpty && !plainCategories.contains(text) { plainCategories.append(text) }
  }

  private mutating func appendCString(_ s: UnsafePointer<UInt8>) {
    var p = s
    while p.pointee != 0 {
      capture.append(p.pointee)
      p += 1
    }
  }

  private mutating func writeStartTag(localName: UnsafePointer<UInt8>, attributes: Attributes) {
    capture.append(0x3C)
    appendCString(localName)
    for index in 0..<attributes.count {
      let (name, value) = attributes.raw(index)
      capture.append(0x20)
      appendCString(name)
      capture.append(contentsOf: [0x3D, 0x22])
      if let start = value.baseAddress { appendEscaped(start, count: value.count, quotes: true) }
      capture.append(0x22)
    }
    capture.append(0x3E)
  }

  private mutating func appendEscaped(
    _ bytes: UnsafePointer<UInt8>, count: Int, quotes: Bool = false
  ) {
    for i in 0..<count {
      switch bytes[i] {
      case 0x26: capture.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])
      case 0x3C: capture.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])
      case 0x3E: capture.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])
      case 0x22 where quotes: capture.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])
      case let b: capture.append(b)
      }
    }
  }
}

@inline(__always) private func isSpace(_ b: UInt8) -> Bool {
  b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
}

private func nonBlank(_ s: String) -> String? {
  let trimmed = s.trimmingWhitespace()
  return trimmed.isEmpty ? nil : trimmed
}

/// An episode identity kept to tell whether a later episode repeats it. The identities of one
/// feed often share a long prefix (a guid scheme, a host), so a set of them would compare many
/// bytes on every probe: the hash, computed once, is compared first.
private struct SeenIdentity: Hashable {
  let text: String
  let hash: Int

  init(_ text: String) {
    self.text = text
    hash = text.hashValue
  }

  static func == (lhs: SeenIdentity, rhs: SeenIdentity) -> Bool {
    lhs.hash == rhs.hash && lhs.text == rhs.text
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }
}
