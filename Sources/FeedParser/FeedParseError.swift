/// Why a document yielded no feed at all. Anything less than this is a warning on the
/// parsed ``PodcastModel/Podcast``.
public enum FeedParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input holds no bytes (or only whitespace).
  case empty
  /// A document whose root is not a feed: an HTML page, JSON, OPML, binary data...
  case notAFeed(String)
  /// The document stopped being readable XML before a feed root was found.
  case malformed(String)
  /// Entity declarations that would expand without bound (a "billion laughs" document).
  case entityExpansion
  /// libxml2 could not be opened: nothing can be parsed. The loader's words.
  case parserUnavailable(String)

  public var description: String {
    switch self {
    case .empty: "not a feed: the document is empty"
    case .notAFeed(let what): "not a feed: \(what)"
    case .malformed(let why): "not a feed: unreadable XML (\(why))"
    case .entityExpansion: "refused: the document's entities expand without bound"
    case .parserUnavailable(let why): "cannot load libxml2: \(why)"
    }
  }
}
