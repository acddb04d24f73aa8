import Foundation

/// The syndication format a feed was written in, as `format` in the JSON.
public enum FeedFormat: String, Sendable, Codable, Hashable {
  case rss2
  case rss1
  case rss09x
  case atom10
  case atom03
}

/// A podcast as one feed describes it.
///
/// Text fields (`title`, `author`, `description`) hold markup as the feed gave it: HTML
/// stays HTML and plain text is escaped into HTML by the parser, so the view layer has one
/// kind of input to turn into clean text.
public struct Podcast: Sendable, Codable, Hashable {
  /// The podcast guid: `podcast:guid`, else UUIDv5 of the feed URL; nil when neither is known.
  public var id: String?
  public var feedUrl: String?
  public var format: FeedFormat
  public var title: String?
  public var author: String?
  public var description: String?
  public var link: String?
  public var language: String?
  public var imageUrl: String?
  /// iTunes categories as `Parent/Child`, then plain categories, without duplicates.
  public var categories: [String]
  public var explicit: Bool?
  public var newFeedUrl: String?
  /// `atom:link rel="next"`: the next page of a paged feed.
  public var nextPageUrl: String?
  public var episodes: [Episode]
  /// What was repaired, guessed or dropped while parsing.
  public var warnings: [String]

  public init(
    id: String? = nil, feedUrl: String? = nil, format: FeedFormat, title: String? = nil,
    author: String? = nil, description: String? = nil, link: String? = nil,
    language: String? = nil, imageUrl: String? = nil, categories: [String] = [],
    explicit: Bool? = nil, newFeedUrl: String? = nil, nextPageUrl: String? = nil,
    episodes: [Episode] = [], warnings: [String] = []
  ) {
    self.id = id
    self.feedUrl = feedUrl
    self.format = format
    self.title = title
    self.author = author
    self.description = description
    self.link = link
    self.language = language
    self.imageUrl = imageUrl
    self.categories = categories
    self.explicit = explicit
    self.newFeedUrl = newFeedUrl
    self.nextPageUrl = nextPageUrl
    self.episodes = episodes
    self.warnings = warnings
  }
}
