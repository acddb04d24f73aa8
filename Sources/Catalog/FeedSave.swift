import Foundation
import PodcastModel

/// Takes the episodes of one feed during ``Catalog/saveFeed(feedURL:subscribing:validators:at:_:)``,
/// one at a time as the parser produces them, so a huge feed is never held whole.
///
/// Valid only inside the closure it was handed to. Past the first few dozen episodes, they
/// are stored on a thread of their own while the closure goes on parsing: the closure must
/// not use the catalog itself.
public final class FeedWriter {
  /// Episodes written on the caller's thread before a writing thread is worth starting.
  static let episodesBeforeThread = 64

  private let rows: EpisodeRows
  private let plainText: (String) -> String
  private var handOff: HandOff<PendingEpisode>?
  private var isOpen = true
  private var taken = 0
  private(set) var withoutIdentity = 0

  init(rows: EpisodeRows, plainText: @escaping (String) -> String) {
    self.rows = rows
    self.plainText = plainText
  }

  /// Takes an episode. One with the identity of an earlier episode of the same feed is left
  /// out (the first in document order wins), as is one with no identity at all.
  ///
  /// - Throws: what storing an earlier episode threw, when it is stored on another thread.
  public func add(_ episode: Episode) throws {
    guard isOpen else { throw CatalogError.writerClosed }
    guard let identity = episode.identity else {
      withoutIdentity += 1
      return
    }
    // The text to index is made here, on the parser's side of the hand-off.
    var pending = PendingEpisode(episode: episode, identity: identity)
    if rows.indexesAsItWrites {
      pending.plainTitle = episode.title.map(plainText)
      pending.plainDescription = episode.description.map(plainText)
    }
    taken += 1
    if let handOff {
      try handOff.put(pending)
    } else if taken <= Self.episodesBeforeThread {
      try rows.write(pending)
    } else {
      let handOff = startWritingThread()
      self.handOff = handOff
      try handOff.put(pending)
    }
  }

  private func startWritingThread() -> HandOff<PendingEpisode> {
    let handOff = HandOff<PendingEpisode>(capacity: 256)
    let rows = self.rows
    let thread = Thread {
      writing: while true {
        let batch = handOff.take()
        if batch.isEmpty { break }
        for pending in batch {
          do {
            try rows.write(pending)
          } catch {
            handOff.fail(error)
            break writing
          }
        }
      }
      handOff.consumerFinished()
    }
    thread.name = "podcasts catalog writer"
    thread.start()
    return handOff
  }

  /// Waits until every episode taken is stored.
  /// - Throws: what storing one of them threw.
  func finish() throws {
    isOpen = false
    guard let handOff else { return }
    self.handOff = nil
    handOff.close()
    if let error = handOff.waitForConsumer() { throw error }
  }

  /// Stops storing (the save is abandoned), and returns once the writing thread is done with
  /// the connection.
  func close() {
    isOpen = false
    guard let handOff else { return }
    self.handOff = nil
    handOff.cancel()
    _ = handOff.waitForConsumer()
  }

  var duplicates: Int { rows.duplicates }
  var written: Int { rows.written }
}

/// An episode on its way from the parser to its row.
struct PendingEpisode: Sendable {
  let episode: Episode
  let identity: String
  var plainTitle: String?
  var plainDescription: String?
}

/// Writes the rows of a feed's episodes. Used by one thread at a time: the writing thread
/// while it runs, the save's own thread before it starts and after it has finished.
final class EpisodeRows: @unchecked Sendable {
  /// Where episodes go. A feed that may be a podcast already stored is staged, to be merged
  /// once its id is known; a feed that can only be a new podcast is written straight into
  /// `episodes` under the id its feed URL gives, each row once, and indexed for search as it
  /// is written.
  enum Target {
    case staging
    case direct(podcastID: String, now: Date)
  }

  private let connection: Connection
  private let statement: Statement
  private let indexStatement: Statement
  private let target: Target
  private var position: Int64 = 0
  private(set) var duplicates = 0
  /// Rows written straight into `episodes` (all new).
  private(set) var written = 0

  init(connection: Connection, statement: Statement, indexStatement: Statement, target: Target) {
    self.connection = connection
    self.statement = statement
    self.indexStatement = indexStatement
    self.target = target
  }

  var indexesAsItWrites: Bool {
    if case .direct = target { return true }
    return false
  }

  func write(_ pending: PendingEpisode) throws {
    defer { statement.reset() }
    switch target {
    case .staging:
      try statement.bind(position, at: 1)
      try statement.bind(pending.identity, at: 2)
      try EpisodeColumns.bind(pending.episode, to: statement, from: 3)
    case .direct(let podcastID, let now):
      try statement.bind(podcastID, at: 1)
      try statement.bind(pending.identity, at: 2)
      try statement.bind(position, at: 3)
      try statement.bind(now, at: 4)
      try EpisodeColumns.bind(pending.episode, to: statement, from: 5)
    }
    try statement.step()
    if connection.changes == 0 {
      duplicates += 1
      return
    }
    position += 1
    if case .direct = target {
      written += 1
      try FullTextIndex.indexEpisode(
        indexStatement, id: connection.lastInsertRowID, title: pending.plainTitle,
        description: pending.plainDescription)
    }
  }
}

extension Catalog {
  /// Saves one feed: the podcast and every episode, in one transaction.
  ///
  /// `produce` hands each episode to the writer as it is parsed and returns the podcast's
  /// metadata once the whole feed is read (its id may only be known at the end). The episodes
  /// of the returned podcast are ignored: hand them to the writer. Everything is committed
  /// when `produce` returns; nothing is changed when it or the save throws. Fetch the feed
  /// before calling: other processes wait while the save holds the write lock. `produce` runs
  /// on the caller's thread while the writer may be storing episodes on another one: it must
  /// not use this catalog.
  ///
  /// The podcast is matched to a stored one by its id, else by `feedURL` (it then keeps its
  /// stored id). An episode is matched by its identity (``Episode/identity``) within the
  /// podcast: a new one is inserted, a changed one updated in place, and an episode that left
  /// the feed stays.
  ///
  /// - Parameters:
  ///   - feedURL: the URL the feed was fetched from; stored as the podcast's feed URL, and the
  ///     source of its id when the feed has no `podcast:guid`.
  ///   - subscribing: the date to record a new subscription with; nil saves without
  ///     subscribing. An existing subscription keeps its date.
  ///   - validators: the HTTP validators of this fetch, stored for the next refresh.
  ///   - now: the time of this save (first-seen dates, last checked / updated).
  ///   - storedOnly: save only into a podcast the catalog holds (a refresh); when there is
  ///     none, because another process unsubscribed it meanwhile, nothing is saved and this
  ///     throws ``CatalogError/notFound(reference:)`` with the feed URL.
  @discardableResult
  public func saveFeed(
    feedURL: String, subscribing: Date?, validators: HTTPValidators = HTTPValidators(),
    at now: Date = Date(), storedOnly: Bool = false, _ produce: (FeedWriter) throws -> Podcast
  ) throws -> SaveReport {
    let feedURL = feedURL.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !feedURL.isEmpty else { throw CatalogError.invalidFeedURL(feedURL) }
    return try connection.writeTransaction {
      try connection.executeScript(FeedSave.clearSession)
      let save = FeedSave(
        connection: connection, plainText: plainText, feedURL: feedURL, now: now)
      let provisionalID = storedOnly ? nil : try save.claimNewPodcast()
      let target: EpisodeRows.Target =
        provisionalID.map { .direct(podcastID: $0, now: now) } ?? .staging
      if provisionalID != nil {
        try connection.executeScript(FeedSave.beginDirectWrites)
      }
      let sql = provisionalID == nil ? FeedSave.stageEpisode : FeedSave.insertEpisode
      let (podcast, writer) = try connection.withStatement(sql) { statement in
        try connection.withStatement(FullTextIndex.insertEpisode) { indexStatement in
          let rows = EpisodeRows(
            connection: connection, statement: statement, indexStatement: indexStatement,
            target: target)
          let writer = FeedWriter(rows: rows, plainText: plainText)
          // Whatever happens, the writing thread is done with the connection before the
          // statements are reset and the transaction ends.
          defer { writer.close() }
          let podcast = try produce(writer)
          try writer.finish()
          return (podcast, writer)
        }
      }
      let report = try save.store(
        podcast, staged: writer, provisionalID: provisionalID, validators: validators,
        subscribing: subscribing, storedOnly: storedOnly)
      try connection.executeScript(FeedSave.clearSession)
      return report
    }
  }

  /// Saves a podcast parsed whole, with its `episodes`; see
  /// ``saveFeed(feedURL:subscribing:validators:at:_:)``.
  @discardableResult
  public func save(
    _ podcast: Podcast, feedURL: String, subscribing: Date?,
    validators: HTTPValidators = HTTPValidators(), at now: Date = Date()
  ) throws -> SaveReport {
    try saveFeed(feedURL: feedURL, subscribing: subscribing, validators: validators, at: now) {
      writer in
      for episode in podcast.episodes {
        try writer.add(episode)
      }
      return podcast
    }
  }
}

/// The merge of a staged feed into the catalog, inside the save's transaction.
///
/// Episodes of a feed that may be a stored podcast wait in a TEMP table (`staged_episodes`)
/// until the podcast's id is known, then go into `episodes` in one INSERT ... SELECT ... ON
/// CONFLICT DO UPDATE. Episodes of a feed that can only be a new podcast skip the stage: each
/// is written into `episodes` once, which is most of the work of a first `add`. TEMP triggers
/// note the rows inserted or changed (`saved_episodes`), which gives the counts of the report
/// and the rows to index for search.
struct FeedSave {
  let connection: Connection
  let plainText: (String) -> String
  let feedURL: String
  let now: Date

  /// The TEMP objects of a save, private to this connection.
  static func prepareSession(_ connection: Connection) throws {
    try connection.executeScript(
      """
      CREATE TEMP TABLE IF NOT EXISTS staged_episodes (
        position INTEGER PRIMARY KEY,
        identity TEXT NOT NULL UNIQUE,
      \(EpisodeColumns.definitions)
      );
      CREATE TEMP TABLE IF NOT EXISTS saved_episodes (
        id           INTEGER PRIMARY KEY,
        is_new       INTEGER NOT NULL,
        text_changed INTEGER NOT NULL
      );
      \(noteSavedEpisodes)
      """)
  }

  /// TEMP triggers that note in `saved_episodes` the rows a merge inserts or changes.
  private static let noteSavedEpisodes = """
    CREATE TEMP TRIGGER IF NOT EXISTS saved_episode_inserted AFTER INSERT ON main.episodes
    BEGIN
      INSERT OR REPLACE INTO saved_episodes VALUES (new.id, 1, 1);
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS saved_episode_updated AFTER UPDATE ON main.episodes
    BEGIN
      INSERT OR REPLACE INTO saved_episodes VALUES (
        new.id, 0, old.title IS NOT new.title OR old.description IS NOT new.description);
    END;
    """

  /// Before episodes are written straight into `episodes` and indexed one by one. FTS5 writes
  /// its pending index to disk at every statement savepoint, and an INSERT opens one when it
  /// fires a trigger or checks an immediate foreign key: the index would then be written in
  /// one tiny segment per episode and merged over and over (several times slower). Without
  /// the TEMP triggers (put back by ``endDirectWrites``; a rollback puts them back too) and
  /// with foreign keys checked at COMMIT (for this transaction only), it is written in large
  /// pieces.
  static let beginDirectWrites = """
    DROP TRIGGER IF EXISTS temp.saved_episode_inserted;
    DROP TRIGGER IF EXISTS temp.saved_episode_updated;
    PRAGMA defer_foreign_keys = ON;
    """

  static let endDirectWrites = noteSavedEpisodes

  static let clearSession = "DELETE FROM temp.staged_episodes; DELETE FROM temp.saved_episodes;"

  static let stageEpisode = """
    INSERT INTO temp.staged_episodes (position, identity, \(EpisodeColumns.list()))
    VALUES (\(placeholders(2 + EpisodeColumns.names.count, from: 1)))
    ON CONFLICT (identity) DO NOTHING
    """

  /// Parameters: 1 podcast id, 2 identity, 3 position, 4 first seen, then the episode columns
  /// from 5. Only for a podcast new in this save: any conflict is an earlier episode of the
  /// same feed, which wins.
  static let insertEpisode = """
    INSERT INTO episodes (podcast_id, identity, position, first_seen, \(EpisodeColumns.list()))
    VALUES (\(placeholders(4 + EpisodeColumns.names.count, from: 1)))
    ON CONFLICT (podcast_id, identity) DO NOTHING
    """

  /// Parameters: 1 id, 2 feed URL, 3 ETag, 4 Last-Modified, 5 now, 6 last updated (NULL keeps
  /// the stored one), then the metadata columns from 7.
  static let upsertPodcast = """
    INSERT INTO podcasts (
      id, feed_url, etag, last_modified, added, last_checked, last_updated,
      \(PodcastColumns.metadataNames.joined(separator: ", ")))
    VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6,
      \(placeholders(PodcastColumns.metadataNames.count, from: 7)))
    ON CONFLICT (id) DO UPDATE SET
      feed_url = excluded.feed_url,
      etag = excluded.etag,
      last_modified = excluded.last_modified,
      last_checked = excluded.last_checked,
      last_updated = coalesce(excluded.last_updated, podcasts.last_updated),
      last_error = NULL,
      last_error_at = NULL,
      \(PodcastColumns.metadataNames.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
    """

  static let mergeEpisodes = """
    INSERT INTO episodes (podcast_id, identity, position, first_seen, \(EpisodeColumns.list()))
    SELECT ?1, identity, position, ?2, \(EpisodeColumns.list())
    FROM temp.staged_episodes WHERE true ORDER BY position
    ON CONFLICT (podcast_id, identity) DO UPDATE SET
      \(EpisodeColumns.names.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")),
      position = excluded.position
    WHERE \(EpisodeColumns.names.map { "episodes.\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))
    """

  static let updateEpisodeSummary = """
    UPDATE podcasts SET
      episode_count = (SELECT count(*) FROM episodes WHERE podcast_id = ?1),
      latest_episode = (SELECT max(published) FROM episodes WHERE podcast_id = ?1),
      last_updated = ?2
    WHERE id = ?1
    """

  /// `?first, ?first+1, ...`, `count` of them.
  private static func placeholders(_ count: Int, from first: Int) -> String {
    (first..<first + count).map { "?\($0)" }.joined(separator: ", ")
  }

  /// When no stored podcast can turn out to be this feed's (none has its feed URL, none has
  /// the id its feed URL gives), inserts a row for it under that id, so that its episodes can
  /// be written straight into `episodes`, and returns the id. Nil when episodes must be
  /// staged.
  func claimNewPodcast() throws -> String? {
    let id = PodcastID.forFeedURL(feedURL)
    let taken =
      try connection.queryFirst(
        "SELECT 1 FROM podcasts WHERE feed_url = ?1 OR id = ?2", feedURL, id
      ) { _ in true } ?? false
    if taken { return nil }
    try connection.execute(
      "INSERT INTO podcasts (id, feed_url, format, added) VALUES (?, ?, '', ?)", id, feedURL, now)
    return id
  }

  /// The feed's own id (its `podcast:guid`) turned out not to be the claimed one: renames the
  /// claimed podcast to it, or, when a stored podcast has it, moves the episodes written into
  /// the stage and drops the claimed row, so that they are merged like any staged feed.
  ///
  /// - Returns: whether the episodes are staged now.
  private func adopt(claimed: String, as id: String) throws -> Bool {
    let stored =
      try connection.queryFirst(
        "SELECT 1 FROM podcasts WHERE id = ?1 AND NOT id = ?2", id, claimed
      ) { _ in true } ?? false
    if stored {
      try connection.execute(
        """
        INSERT INTO temp.staged_episodes (position, identity, \(EpisodeColumns.list()))
        SELECT position, identity, \(EpisodeColumns.list())
        FROM episodes WHERE podcast_id = ?1 ORDER BY position
        """, claimed)
      try connection.execute("DELETE FROM podcasts WHERE id = ?", claimed)
      try connection.executeScript("DELETE FROM temp.saved_episodes")
      return true
    }
    // The episodes follow (ON UPDATE CASCADE); their index entries are by row id, so they
    // stay as they are.
    try connection.execute("UPDATE podcasts SET id = ?1 WHERE id = ?2", id, claimed)
    return false
  }

  /// - Parameter provisionalID: the id ``claimNewPodcast()`` returned; the episodes were
  ///   then written already.
  func store(
    _ feed: Podcast, staged: FeedWriter, provisionalID: String?, validators: HTTPValidators,
    subscribing: Date?, storedOnly: Bool
  ) throws -> SaveReport {
    var existing: StoredPodcast?
    // Episodes written straight in, and indexed already, that are still where they were
    // written (not moved to the stage to be merged into a stored podcast).
    var written = 0
    if let provisionalID {
      let own = Self.nonBlank(feed.id) ?? provisionalID
      if own != provisionalID, try adopt(claimed: provisionalID, as: own) {
        existing = try existingPodcast(for: feed)
      } else {
        written = staged.written
      }
      try connection.executeScript(Self.endDirectWrites)
    } else {
      existing = try existingPodcast(for: feed)
    }
    if storedOnly && existing == nil { throw CatalogError.notFound(reference: feedURL) }
    let id = existing?.id ?? Self.nonBlank(feed.id) ?? PodcastID.forFeedURL(feedURL)
    var metadata = feed
    metadata.id = id
    metadata.feedUrl = feedURL
    metadata.episodes = []
    metadata.warnings = []
    let metadataChanged = existing.map { $0.podcast != metadata } ?? true

    try connection.withStatement(Self.upsertPodcast) { statement in
      try statement.bind(id, at: 1)
      try statement.bind(feedURL, at: 2)
      try statement.bind(validators.etag, at: 3)
      try statement.bind(validators.lastModified, at: 4)
      try statement.bind(now, at: 5)
      try statement.bind(metadataChanged ? now : nil, at: 6)
      try PodcastColumns.bindMetadata(metadata, to: statement, from: 7)
      try statement.step()
    }
    if existing?.podcast.title != metadata.title
      || existing?.podcast.description != metadata.description
    {
      try FullTextIndex.indexPodcast(
        connection, id: id, title: metadata.title, description: metadata.description,
        plainText: plainText, replacing: existing != nil)
    }

    try connection.execute(Self.mergeEpisodes, id, now)
    let (merged, mergedNew) =
      try connection.queryFirst(
        "SELECT count(*), coalesce(sum(is_new), 0) FROM temp.saved_episodes"
      ) { ($0.int(0) ?? 0, $0.int(1) ?? 0) } ?? (0, 0)
    let (saved, new) = (merged + written, mergedNew + written)
    try indexSavedEpisodes()
    if saved > 0 || existing == nil {
      let lastUpdated = saved > 0 || metadataChanged ? now : existing?.refresh.lastUpdated
      try connection.execute(Self.updateEpisodeSummary, id, lastUpdated)
    }

    var subscribed = existing?.subscribed
    if subscribed == nil, let subscribing {
      try connection.execute(
        "INSERT INTO subscriptions (podcast_id, subscribed) VALUES (?, ?)", id, subscribing)
      subscribed = UnixTime.seconds(subscribing).map { Date(timeIntervalSince1970: Double($0)) }
    }

    return SaveReport(
      podcastID: id, title: metadata.title, isNewPodcast: existing == nil, newEpisodes: new,
      updatedEpisodes: saved - new, duplicateEpisodes: staged.duplicates,
      episodesWithoutIdentity: staged.withoutIdentity,
      wasSubscribed: existing?.subscribed != nil, subscribed: subscribed)
  }

  /// The stored podcast this feed is: the one with its id, else the one with its feed URL.
  private func existingPodcast(for feed: Podcast) throws -> StoredPodcast? {
    let byURL = try connection.queryFirst(
      "SELECT \(PodcastColumns.selectList) FROM \(PodcastColumns.from) WHERE p.feed_url = ?",
      feedURL, row: PodcastColumns.read)
    guard let id = Self.nonBlank(feed.id) ?? (byURL == nil ? PodcastID.forFeedURL(feedURL) : nil)
    else { return byURL }
    let byID = try connection.queryFirst(
      "SELECT \(PodcastColumns.selectList) FROM \(PodcastColumns.from) WHERE p.id = ?",
      id, row: PodcastColumns.read)
    if let byID, let byURL, byID.id != byURL.id {
      throw CatalogError.podcastIDInUse(
        url: feedURL, claimedID: byID.id, claimedFeedURL: byID.feedURL, storedID: byURL.id)
    }
    return byID ?? byURL
  }

  /// Puts the text of the episodes this save inserted or retitled into the search index.
  private func indexSavedEpisodes() throws {
    try connection.withStatement(
      """
      SELECT e.id, e.title, e.description
      FROM temp.saved_episodes AS t JOIN episodes AS e ON e.id = t.id
      WHERE t.text_changed
      """
    ) { rows in
      try connection.withStatement(FullTextIndex.insertEpisode) { index in
        while try rows.step() {
          guard let id = rows.int64(0) else { continue }
          try FullTextIndex.indexEpisode(
            index, id: id, title: rows.string(1).map(plainText),
            description: rows.string(2).map(plainText))
        }
      }
    }
  }

  private static func nonBlank(_ text: String?) -> String? {
    guard let text else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
