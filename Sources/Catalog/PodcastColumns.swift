import Foundation
import PodcastModel

/// The mapping between a podcast and the `podcasts` table, in one place.
enum PodcastColumns {
  /// The columns a save writes from the feed's metadata, in binding order.
  static let metadataNames = [
    "format", "title", "author", "description", "link", "language", "image_url", "categories",
    "explicit", "new_feed_url", "next_page_url",
  ]

  static func bindMetadata(_ podcast: Podcast, to statement: Statement, from first: Int32) throws {
    let s = statement
    try s.bind(podcast.format.rawValue, at: first)
    try s.bind(podcast.title, at: first + 1)
    try s.bind(podcast.author, at: first + 2)
    try s.bind(podcast.description, at: first + 3)
    try s.bind(podcast.link, at: first + 4)
    try s.bind(podcast.language, at: first + 5)
    try s.bind(podcast.imageUrl, at: first + 6)
    try s.bind(JSONColumn.encode(podcast.categories), at: first + 7)
    try s.bind(podcast.explicit, at: first + 8)
    try s.bind(podcast.newFeedUrl, at: first + 9)
    try s.bind(podcast.nextPageUrl, at: first + 10)
  }

  /// What ``read(_:)`` expects: `p` is the podcasts table, `s` its subscription.
  static let selectList = """
    p.id, p.feed_url, p.format, p.title, p.author, p.description, p.link, p.language,
    p.image_url, p.categories, p.explicit, p.new_feed_url, p.next_page_url,
    p.etag, p.last_modified, p.added, p.last_checked, p.last_updated, p.last_error,
    p.last_error_at, p.episode_count, p.latest_episode, s.subscribed
    """

  static let from = "podcasts AS p LEFT JOIN subscriptions AS s ON s.podcast_id = p.id"

  /// A podcast from a row selected with ``selectList``.
  static func read(_ statement: Statement) throws -> StoredPodcast {
    let s = statement
    guard let id = s.string(0) else { throw invalid("id", "NULL") }
    guard let feedURL = s.string(1) else { throw invalid("feed_url", "NULL") }
    let formatText = s.string(2) ?? "NULL"
    guard let format = FeedFormat(rawValue: formatText) else { throw invalid("format", formatText) }
    guard let added = s.date(15) else { throw invalid("added", "NULL") }
    let categories = try s.string(9).map { text in
      guard let list = JSONStringList.decode(text) else { throw invalid("categories", text) }
      return list
    }
    let podcast = Podcast(
      id: id, feedUrl: feedURL, format: format, title: s.string(3), author: s.string(4),
      description: s.string(5), link: s.string(6), language: s.string(7), imageUrl: s.string(8),
      categories: categories ?? [], explicit: s.bool(10), newFeedUrl: s.string(11),
      nextPageUrl: s.string(12))
    let refresh = RefreshState(
      validators: HTTPValidators(etag: s.string(13), lastModified: s.string(14)),
      lastChecked: s.date(16), lastUpdated: s.date(17), lastError: s.string(18),
      lastErrorAt: s.date(19))
    return StoredPodcast(
      id: id, feedURL: feedURL, podcast: podcast, subscribed: s.date(22),
      episodeCount: s.int(20) ?? 0, latestEpisode: s.date(21), added: added, refresh: refresh)
  }

  private static func invalid(_ column: String, _ value: String) -> CatalogError {
    .invalidStoredValue(table: "podcasts", column: column, value: value)
  }
}
