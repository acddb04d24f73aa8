/// The feeds an OPML subscription list holds, as ``OPMLReader`` read them.
public struct OPMLDocument: Sendable, Hashable {
  /// The `<head><title>`, whitespace collapsed; nil when absent or blank.
  public var title: String?
  /// The `version` attribute of `<opml>` (`1.0`, `1.1`, `2.0`), as given.
  public var version: String?
  /// One per feed, in document order, each feed once.
  public var entries: [OPMLEntry]
  /// What was repaired, skipped or merged while reading.
  public var warnings: [String]

  public init(
    title: String? = nil, version: String? = nil, entries: [OPMLEntry] = [],
    warnings: [String] = []
  ) {
    self.title = title
    self.version = version
    self.entries = entries
    self.warnings = warnings
  }
}

/// One feed of an OPML file: an `<outline>` with an `xmlUrl`.
public struct OPMLEntry: Sendable, Hashable {
  /// The feed URL: absolute, http or https, surrounding whitespace trimmed.
  public var url: String
  /// Plain text (the attribute's entities decoded, whitespace collapsed): the outline's
  /// `title`, else its `text`; nil when both are blank or merely repeat the URL.
  public var title: String?
  /// The site's address (`htmlUrl`) when it is an absolute http or https URL.
  public var htmlUrl: String?
  /// The names of the folder outlines the feed sits in, outermost first.
  public var folders: [String]

  public init(url: String, title: String? = nil, htmlUrl: String? = nil, folders: [String] = []) {
    self.url = url
    self.title = title
    self.htmlUrl = htmlUrl
    self.folders = folders
  }
}

/// Why a file yielded no subscription list at all. Anything less is a warning on the
/// ``OPMLDocument``.
public enum OPMLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input holds no bytes (or only whitespace).
  case empty
  /// Larger than ``OPMLReader/maxInputSize``; no subscription list is that long.
  case tooLarge(bytes: Int, limit: Int)
  /// No XML element could be read: binary data, JSON, plain text.
  case notXML(String)
  /// Readable XML whose root element is not `<opml>`.
  case notOPML(rootElement: String)
  /// An `<opml>` element with neither a `<body>` nor any outline.
  case noBody
  /// Entity declarations that would expand without bound (a "billion laughs" document).
  case entityExpansion
  /// libxml2 could not be opened: nothing can be read. The loader's words.
  case parserUnavailable(String)

  public var description: String {
    switch self {
    case .empty: "not an OPML file: the file is empty"
    case .tooLarge(let bytes, let limit):
      "too large for an OPML file: \(bytes) bytes or more (the limit is \(limit))"
    case .notXML(let why): "not an OPML file: \(why)"
    case .notOPML(let root): "not an OPML file: the root element is <\(root)>, not <opml>"
    case .noBody: "not an OPML file: <opml> has no <body>"
    case .entityExpansion: "refused: the file's entities expand without bound"
    case .parserUnavailable(let why): "cannot load libxml2: \(why)"
    }
  }
}
