import Foundation
import PodcastModel

extension Catalog {
  /// Every subscribed podcast with its date subscribed, episode count and newest episode date.
  public func subscriptions(orderedBy order: SubscriptionOrder = .title) throws -> [StoredPodcast] {
    let orderBy: String
    switch order {
    case .title: orderBy = "p.title IS NULL, p.title COLLATE NOCASE, p.id"
    case .subscribed: orderBy = "s.subscribed, p.title COLLATE NOCASE, p.id"
    case .latestEpisode:
      orderBy = "p.latest_episode IS NULL, p.latest_episode DESC, p.title COLLATE NOCASE, p.id"
    }
    return try connection.query(
      """
      SELECT \(PodcastColumns.selectList)
      FROM subscriptions AS s JOIN podcasts AS p ON p.id = s.podcast_id
      ORDER BY \(orderBy)
      """, row: PodcastColumns.read)
  }

  /// The podcast with exactly this id (ignoring ASCII case), subscribed or not.
  public func podcast(id: String) throws -> StoredPodcast? {
    try connection.queryFirst(
      "SELECT \(PodcastColumns.selectList) FROM \(PodcastColumns.from) WHERE p.id = ?", id,
      row: PodcastColumns.read)
  }

  /// The podcast stored with exactly this feed URL.
  public func podcast(feedURL: String) throws -> StoredPodcast? {
    try connection.queryFirst(
      "SELECT \(PodcastColumns.selectList) FROM \(PodcastColumns.from) WHERE p.feed_url = ?",
      feedURL, row: PodcastColumns.read)
  }

  /// The podcast a user means by `reference`: its full id, its feed URL (as stored, or any
  /// spelling with the same feed-URL id), or an unambiguous prefix of its id (hex, any case).
  ///
  /// - Throws: ``CatalogError/ambiguousReference(reference:candidates:)`` listing the podcasts
  ///   a prefix matches, ``CatalogError/notFound(reference:)`` when nothing matches.
  public func podcast(matching reference: String) throws -> StoredPodcast {
    let reference = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !reference.isEmpty else { throw CatalogError.notFound(reference: reference) }
    if let podcast = try podcast(id: reference) ?? podcast(feedURL: reference) {
      return podcast
    }
    guard PodcastID.isIDLike(reference) else {
      if let podcast = try podcast(id: PodcastID.forFeedURL(reference)) { return podcast }
      throw CatalogError.notFound(reference: reference)
    }
    // The reference holds only hex digits and dashes, so it has no LIKE wildcards.
    let candidates = try connection.query(Self.podcastsByIDPrefix, reference + "%") {
      CatalogError.Candidate(id: $0.string(0) ?? "", title: $0.string(1))
    }
    switch candidates.count {
    case 0: throw CatalogError.notFound(reference: reference)
    case 1:
      guard let podcast = try podcast(id: candidates[0].id) else {
        throw CatalogError.notFound(reference: reference)
      }
      return podcast
    default:
      throw CatalogError.ambiguousReference(reference: reference, candidates: candidates)
    }
  }

  /// The episodes of a podcast, newest first: by `published` descending (undated last), then
  /// in feed order. Empty for an unknown id.
  public func episodes(ofPodcast id: String, limit: Int? = nil, offset: Int = 0) throws
    -> [StoredEpisode]
  {
    var episodes: [StoredEpisode] = []
    try forEachEpisode(ofPodcast: id, limit: limit, offset: offset) { episodes.append($0) }
    return episodes
  }

  /// Streams the episodes of a podcast in the order of ``episodes(ofPodcast:limit:offset:)``
  /// without holding them all.
  public func forEachEpisode(
    ofPodcast id: String, limit: Int? = nil, offset: Int = 0,
    _ body: (StoredEpisode) throws -> Void
  ) throws {
    try connection.withStatement(Self.episodesNewestFirst) { rows in
      try rows.bind([id, limit.map { max($0, 0) } ?? -1, max(offset, 0)])
      while try rows.step() {
        let episode = try EpisodeColumns.read(rows, from: 2)
        try body(
          StoredEpisode(
            podcastID: rows.string(0) ?? id, episode: episode,
            firstSeen: rows.date(1) ?? Date(timeIntervalSince1970: 0)))
      }
    }
  }

  /// Walks the index `episodes_newest` in its order: no sort, whatever the podcast's size.
  static let episodesNewestFirst = """
    SELECT podcast_id, first_seen, \(EpisodeColumns.list())
    FROM episodes WHERE podcast_id = ?
    ORDER BY published DESC, position, id DESC
    LIMIT ? OFFSET ?
    """

  /// The column's NOCASE collation makes LIKE case-insensitive and lets it use the index.
  static let podcastsByIDPrefix = "SELECT id, title FROM podcasts WHERE id LIKE ? ORDER BY id"

  public func isSubscribed(_ podcastID: String) throws -> Bool {
    try findSubscription(podcastID) != nil
  }

  public func findSubscription(_ podcastID: String) throws -> Subscription? {
    try connection.queryFirst(
      "SELECT podcast_id, subscribed FROM subscriptions WHERE podcast_id = ?", podcastID
    ) { row in
      Subscription(
        podcastID: row.string(0) ?? podcastID,
        subscribed: row.date(1) ?? Date(timeIntervalSince1970: 0))
    }
  }

  /// Title, feed URL and site link of every subscription, by title.
  public func exportEntries() throws -> [ExportEntry] {
    try connection.query(
      """
      SELECT p.title, p.feed_url, p.link
      FROM subscriptions AS s JOIN podcasts AS p ON p.id = s.podcast_id
      ORDER BY p.title IS NULL, p.title COLLATE NOCASE, p.id
      """
    ) { ExportEntry(title: $0.string(0), feedURL: $0.string(1) ?? "", link: $0.string(2)) }
  }
}
