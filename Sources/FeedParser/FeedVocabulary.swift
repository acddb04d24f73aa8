/// The namespaces a feed parser must know, matched by URI (never by prefix).
enum Namespace: Equatable {
  case none
  case rss10
  case rss090
  case rdf
  case atom10
  case atom03
  case itunes
  case podcastIndex
  case content
  case dublinCore
  case media
  /// XHTML, whose `body` some RSS items carry as their content.
  case xhtml
  /// mod_enclosure, the RSS 1.0 way to attach media.
  case modEnclosure
  case xml
  case other

  /// Classifies a namespace URI. Real feeds vary the scheme, case and trailing slash of the
  /// well-known URIs, so they are compared in a normalised form.
  init(uri: UnsafePointer<UInt8>?) {
    guard let uri else {
      self = .none
      return
    }
    var key = String(cString: uri).lowercased()
    if key.isEmpty {
      self = .none
      return
    }
    for scheme in ["https://", "http://"] where key.hasPrefix(scheme) {
      key.removeFirst(scheme.count)
    }
    while key.hasSuffix("/") || key.hasSuffix("#") { key.removeLast() }
    switch key {
    case "purl.org/rss/1.0": self = .rss10
    case "my.netscape.com/rdf/simple/0.9": self = .rss090
    case "www.w3.org/1999/02/22-rdf-syntax-ns": self = .rdf
    case "www.w3.org/2005/atom": self = .atom10
    case "purl.org/atom/ns": self = .atom03
    case "www.itunes.com/dtds/podcast-1.0.dtd", "www.itunes.com/dtds/podcast-1.0.dtd#":
      self = .itunes
    case "podcastindex.org/namespace/1.0",
      "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
      self = .podcastIndex
    case "purl.org/rss/1.0/modules/content": self = .content
    case "purl.org/dc/elements/1.1", "purl.org/dc/terms": self = .dublinCore
    case "search.yahoo.com/mrss": self = .media
    case "www.w3.org/1999/xhtml": self = .xhtml
    case "purl.oclc.org/net/rss_2.0/enc": self = .modEnclosure
    case "www.w3.org/xml/1998/namespace": self = .xml
    // RSS 2.0 was briefly given namespaces; their elements are plain RSS.
    case "backend.userland.com/rss2", "blogs.law.harvard.edu/tech/rss": self = .none
    default: self = .other
    }
  }
}

extension Namespace {
  /// The namespace a prefix conventionally stands for, for documents that use a prefix
  /// without declaring it.
  init(conventionalPrefix prefix: String) {
    switch prefix.lowercased() {
    case "itunes": self = .itunes
    case "podcast": self = .podcastIndex
    case "content": self = .content
    case "dc", "dcterms": self = .dublinCore
    case "media": self = .media
    case "atom", "atom10": self = .atom10
    case "rdf": self = .rdf
    case "enc": self = .modEnclosure
    default: self = .other
    }
  }
}

/// Every element the parser acts on, named by namespace and local name.
enum Element: Equatable {
  // Roots and containers.
  case rss, rdf, feed, channel, item, entry, image, author, mediaGroup, itunesOwner
  // Plain RSS, RSS 1.0 and Atom.
  case title, link, description, language, guid, pubDate, enclosure, category
  case managingEditor, url, id, subtitle, tagline, content, summary, published, updated
  case issued, modified, created, logo, icon, name
  // Namespaced.
  case contentEncoded, dcDate, dcCreator, dcLanguage, dcTitle, dcDescription, dcIssued
  case dcModified, xhtmlBody, fullitem, mediaTitle, mediaDescription, itunesName
  case itunesAuthor, itunesSummary, itunesSubtitle, itunesImage, itunesCategory, itunesExplicit
  case itunesNewFeedURL, itunesDuration, itunesSeason, itunesEpisode, itunesEpisodeType
  case itunesTitle, itunesType
  case podcastGuid, podcastTranscript, podcastChapters, podcastSeason, podcastEpisode
  case podcastNewFeedURL
  case atomLink
  case mediaContent
  case modEnclosure
  case unknown

  init(namespace: Namespace, localName name: String) {
    switch namespace {
    case .none, .rss10, .rss090:
      self = Self.plain[name] ?? .unknown
    case .atom10, .atom03:
      self = name == "link" ? .atomLink : Self.plain[name] ?? .unknown
    case .rdf:
      self = name == "RDF" ? .rdf : .unknown
    case .content:
      self = name == "encoded" ? .contentEncoded : .unknown
    case .dublinCore:
      switch name {
      case "date": self = .dcDate
      case "creator", "author": self = .dcCreator
      case "language": self = .dcLanguage
      case "title": self = .dcTitle
      case "description": self = .dcDescription
      case "issued", "created": self = .dcIssued
      case "modified": self = .dcModified
      default: self = .unknown
      }
    case .itunes:
      self = Self.itunes[name] ?? .unknown
    case .podcastIndex:
      self = Self.podcastIndex[name] ?? .unknown
    case .media:
      switch name {
      case "content": self = .mediaContent
      case "group": self = .mediaGroup
      case "title": self = .mediaTitle
      case "description": self = .mediaDescription
      default: self = .unknown
      }
    case .modEnclosure:
      self = name == "enclosure" ? .modEnclosure : .unknown
    case .xhtml:
      self = name == "body" ? .xhtmlBody : .unknown
    case .xml, .other:
      self = .unknown
    }
  }

  private static let plain: [String: Element] = [
    "rss": .rss, "feed": .feed, "channel": .channel, "item": .item, "entry": .entry,
    "image": .image, "author": .author, "title": .title, "link": .link,
    "description": .description, "language": .language, "guid": .guid, "pubDate": .pubDate,
    "enclosure": .enclosure, "category": .category, "managingEditor": .managingEditor,
    "url": .url, "id": .id, "subtitle": .subtitle, "tagline": .tagline, "content": .content,
    "summary": .summary, "published": .published, "updated": .updated, "issued": .issued,
    "modified": .modified, "created": .created, "logo": .logo, "icon": .icon, "name": .name,
    "pubdate": .pubDate, "fullitem": .fullitem, "body": .xhtmlBody,
  ]

  private static let itunes: [String: Element] = [
    "author": .itunesAuthor, "summary": .itunesSummary, "subtitle": .itunesSubtitle,
    "image": .itunesImage, "category": .itunesCategory, "explicit": .itunesExplicit,
    "new-feed-url": .itunesNewFeedURL, "duration": .itunesDuration, "season": .itunesSeason,
    "episode": .itunesEpisode, "episodeType": .itunesEpisodeType, "title": .itunesTitle,
    "owner": .itunesOwner, "type": .itunesType, "name": .itunesName,
  ]

  private static let podcastIndex: [String: Element] = [
    "guid": .podcastGuid, "transcript": .podcastTranscript, "chapters": .podcastChapters,
    "season": .podcastSeason, "episode": .podcastEpisode, "newFeedUrl": .podcastNewFeedURL,
  ]
}
