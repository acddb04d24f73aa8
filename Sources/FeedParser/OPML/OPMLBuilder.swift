import PodcastModel

/// Turns the elements of an OPML document, in document order, into its feeds.
///
/// An outline with an `xmlUrl` (any case of the name; `url` on a `type="rss"` outline) is a
/// feed whatever its `type`; one without is a folder, and the names of the folders around a
/// feed become its ``OPMLEntry/folders``. Outlines are read anywhere in `<opml>` but the
/// `<head>`, since some writers leave out the `<body>`.
struct OPMLBuilder {
  private enum Frame {
    case opml
    case head
    case headTitle
    case body
    case outline(Outline)
    case other
  }

  private struct Outline {
    /// The folder's name; nil for a feed and for a folder without one.
    var folder: String?
    var isFeed: Bool
    var hasChildren = false
  }

  var warnings: Warnings
  /// The name of the first element, once seen.
  private(set) var rootElement: String?
  /// Whether `</opml>` was read: nothing after it counts.
  private(set) var isFinished = false
  private var frames: [Frame] = []
  private var insideHead = false
  private var bodyDepth = 0
  private var sawBody = false
  private var version: String?
  private var title: String?
  private var titleText = ""
  private var sawTitle = false
  private var outlineCount = 0
  private var outlinesOutsideBody = 0
  private var entries: [OPMLEntry] = []
  /// The entry of each feed URL, by ``PodcastID/normalizedFeedURL(_:)``: two spellings with
  /// the same podcast id are one feed.
  private var entryIndex: [String: Int] = [:]
  /// How often a feed was listed, for entries listed more than once.
  private var listings: [Int: Int] = [:]

  init(warnings: Warnings) {
    self.warnings = warnings
  }

  mutating func start(name: String, attributes: [String: String]) throws {
    guard rootElement != nil else {
      rootElement = name
      guard name.lowercased() == "opml" else { throw OPMLError.notOPML(rootElement: name) }
      version = attributes["version"].flatMap(Self.collapsed)
      frames.append(.opml)
      return
    }
    switch (frames.last, name.lowercased()) {
    case (.opml?, "head"):
      insideHead = true
      frames.append(.head)
    case (.head?, "title") where !sawTitle:
      frames.append(.headTitle)
    case (.opml?, "body"):
      sawBody = true
      bodyDepth += 1
      frames.append(.body)
    case (_, "outline") where !insideHead:
      outline(attributes)
    default:
      frames.append(.other)
    }
  }

  mutating func end() {
    guard let frame = frames.popLast() else { return }
    switch frame {
    case .opml:
      isFinished = true
    case .head:
      insideHead = false
    case .headTitle:
      sawTitle = true
      title = Self.collapsed(titleText)
    case .body:
      bodyDepth -= 1
    case .outline(let outline):
      if !outline.isFeed && !outline.hasChildren {
        let name = outline.folder.map { "outline \"\($0)\"" } ?? "an outline without a name"
        warnings.add(
          kind: "outlines without a feed URL skipped", "\(name) has no feed URL: skipped")
      }
    case .other:
      break
    }
  }

  mutating func text(_ text: String) {
    if case .headTitle? = frames.last { titleText += text }
  }

  /// What was read, once the document has ended.
  mutating func document() throws -> OPMLDocument {
    guard sawBody || outlineCount > 0 else { throw OPMLError.noBody }
    if outlinesOutsideBody > 0 {
      warnings.add(
        outlinesOutsideBody == 1
          ? "1 outline outside <body> read" : "\(outlinesOutsideBody) outlines outside <body> read")
    }
    for (index, count) in listings.sorted(by: { $0.key < $1.key }) {
      warnings.add(
        "\"\(OPMLFeedURL.masked(entries[index].url))\" is listed \(count) times: read once")
    }
    return OPMLDocument(title: title, version: version, entries: entries, warnings: warnings.all)
  }

  private mutating func outline(_ attributes: [String: String]) {
    outlineCount += 1
    if bodyDepth == 0 { outlinesOutsideBody += 1 }
    if case .outline(var parent)? = frames.last {
      parent.hasChildren = true
      frames[frames.count - 1] = .outline(parent)
    }
    let title =
      attributes["title"].flatMap(Self.collapsed) ?? attributes["text"].flatMap(Self.collapsed)
    let isRSS = attributes["type"]?.lowercased() == "rss"
    guard
      let raw = attributes["xmlurl"].flatMap(Self.nonBlank)
        ?? (isRSS ? attributes["url"].flatMap(Self.nonBlank) : nil)
    else {
      let name = attributes["text"].flatMap(Self.collapsed) ?? title
      frames.append(.outline(Outline(folder: name, isFeed: false)))
      return
    }
    frames.append(.outline(Outline(folder: nil, isFeed: true)))
    let url: String
    switch OPMLFeedURL.check(raw) {
    case .accepted(let accepted):
      url = accepted
    case .rewritten(let rewritten):
      url = rewritten
      warnings.add(
        kind: "feed URLs with a podcast-app scheme read as http",
        "feed URL \"\(OPMLFeedURL.masked(raw))\" read as \(OPMLFeedURL.masked(rewritten))")
    case .rejected(let reason):
      let name = title.map { "outline \"\($0)\"" } ?? "an outline"
      warnings.add("\(name): feed URL \"\(OPMLFeedURL.masked(raw))\" skipped: \(reason)")
      return
    }
    let key = PodcastID.normalizedFeedURL(url)
    if let index = entryIndex[key] {
      listings[index, default: 1] += 1
      return
    }
    entryIndex[key] = entries.count
    entries.append(
      OPMLEntry(
        url: url, title: title == raw || title == url ? nil : title,
        htmlUrl: OPMLFeedURL.site(attributes["htmlurl"]), folders: folders()))
  }

  /// The names of the folders the outline being read sits in, outermost first.
  private func folders() -> [String] {
    frames.compactMap { frame in
      guard case .outline(let outline) = frame, !outline.isFeed else { return nil }
      return outline.folder
    }
  }

  private static func nonBlank(_ text: String) -> String? {
    let trimmed = text.trimmingWhitespace()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The text with each run of XML whitespace (space, tab, line feed, carriage return)
  /// made one space and the ends trimmed; nil when blank. A no-break space is text.
  static func collapsed(_ text: String) -> String? {
    var result = ""
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
        pendingSpace = !result.isEmpty
      } else {
        if pendingSpace { result.unicodeScalars.append(" ") }
        pendingSpace = false
        result.unicodeScalars.append(scalar)
      }
    }
    return result.isEmpty ? nil : result
  }
}
