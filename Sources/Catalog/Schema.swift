/// One step of the schema, applied in its own transaction and recorded in `user_version`.
struct Migration: Sendable {
  let version: Int
  /// Runs inside the migration's transaction; gets the HTML-to-text function for indexing.
  let apply: @Sendable (Connection, (String) -> String) throws -> Void
}

/// The catalog's schema, as the numbered migrations that build it. A published migration never
/// changes (files out there were built by it); a new schema is a new migration.
enum Schema {
  /// Marks the file as a podcasts catalog (`PRAGMA application_id`): the ASCII bytes "podc".
  static let applicationID: Int32 = 0x706F_6463

  static let migrations: [Migration] = [
    Migration(version: 1) { connection, _ in try connection.executeScript(storage) },
    Migration(version: 2) { connection, plainText in
      try connection.executeScript(search)
      try FullTextIndex.indexAll(connection, plainText: plainText)
    },
    Migration(version: 3) { connection, _ in try connection.executeScript(indexInLargePieces) },
  ]

  static var latestVersion: Int { migrations.last?.version ?? 0 }

  static func userVersion(_ connection: Connection) throws -> Int {
    try connection.queryFirst("PRAGMA user_version") { $0.int(0) ?? 0 } ?? 0
  }

  /// Brings the schema up to `target`. Each step re-reads the version inside its transaction,
  /// so two processes opening a new catalog at once apply every step exactly once.
  static func migrate(
    _ connection: Connection, to target: Int = latestVersion, plainText: (String) -> String
  ) throws {
    guard try userVersion(connection) < target else { return }
    for migration in migrations where migration.version <= target {
      try connection.writeTransaction {
        guard try userVersion(connection) < migration.version else { return }
        try migration.apply(connection, plainText)
        // An integer of ours, not outside text: PRAGMA takes no bound parameters.
        try connection.executeScript("PRAGMA user_version = \(migration.version)")
      }
    }
  }

  /// Version 1: podcasts, subscriptions and episodes.
  private static let storage = """
    PRAGMA application_id = \(applicationID);

    CREATE TABLE podcasts (
      id             TEXT    NOT NULL PRIMARY KEY COLLATE NOCASE,
      feed_url       TEXT    NOT NULL UNIQUE,
      format         TEXT    NOT NULL,
      title          TEXT,
      author         TEXT,
      description    TEXT,
      link           TEXT,
      language       TEXT,
      image_url      TEXT,
      categories     TEXT    NOT NULL DEFAULT '[]',
      explicit       INTEGER,
      new_feed_url   TEXT,
      next_page_url  TEXT,
      etag           TEXT,
      last_modified  TEXT,
      added          INTEGER NOT NULL,
      last_checked   INTEGER,
      last_updated   INTEGER,
      last_error     TEXT,
      last_error_at  INTEGER,
      episode_count  INTEGER NOT NULL DEFAULT 0,
      latest_episode INTEGER
    );

    CREATE TABLE subscriptions (
      podcast_id TEXT    NOT NULL PRIMARY KEY COLLATE NOCASE
                 REFERENCES podcasts (id) ON DELETE CASCADE ON UPDATE CASCADE,
      subscribed INTEGER NOT NULL
    );

    CREATE INDEX subscriptions_by_date ON subscriptions (subscribed);

    -- Unsubscribing removes the podcast, and with it its episodes.
    CREATE TRIGGER subscriptions_delete_podcast AFTER DELETE ON subscriptions
    BEGIN
      DELETE FROM podcasts WHERE id = old.podcast_id;
    END;

    CREATE TABLE episodes (
      id         INTEGER PRIMARY KEY,
      podcast_id TEXT    NOT NULL COLLATE NOCASE
                 REFERENCES podcasts (id) ON DELETE CASCADE ON UPDATE CASCADE,
      identity   TEXT    NOT NULL,
      position   INTEGER NOT NULL,
      first_seen INTEGER NOT NULL,
      guid             TEXT,
      title            TEXT,
      description      TEXT,
      link             TEXT,
      published        INTEGER,
      duration         INTEGER,
      enclosure_url    TEXT,
      enclosure_type   TEXT,
      enclosure_length INTEGER,
      season           INTEGER,
      episode          INTEGER,
      episode_type     TEXT,
      explicit         INTEGER,
      image_url        TEXT,
      transcripts      TEXT,
      chapters_url     TEXT,
      chapters_type    TEXT,
      UNIQUE (podcast_id, identity)
    );

    CREATE INDEX episodes_newest ON episodes (podcast_id, published DESC, position, id DESC);
    """

  /// Version 2: the full-text index over titles and descriptions as plain text.
  private static let search = """
    CREATE VIRTUAL TABLE podcast_search USING fts5 (
      podcast_id UNINDEXED, title, description, tokenize = 'unicode61 remove_diacritics 2'
    );

    CREATE VIRTUAL TABLE episode_search USING fts5 (
      title, description, tokenize = 'unicode61 remove_diacritics 2'
    );

    CREATE TRIGGER podcasts_delete_search AFTER DELETE ON podcasts
    BEGIN
      DELETE FROM podcast_search WHERE podcast_id = old.id;
    END;

    CREATE TRIGGER podcasts_rename_search AFTER UPDATE OF id ON podcasts
    BEGIN
      UPDATE podcast_search SET podcast_id = new.id WHERE podcast_id = old.id;
    END;

    CREATE TRIGGER episodes_delete_search AFTER DELETE ON episodes
    BEGIN
      DELETE FROM episode_search WHERE rowid = old.id;
    END;
    """

  /// Version 3: FTS5 gathers up to 16 MiB of new index in memory before writing it as one
  /// segment (1 MiB by default). A feed of thousands of episodes then makes a few large
  /// segments instead of hundreds of small ones merged again and again: a third less work to
  /// index it, for at most 16 MiB more memory while saving. A setting kept in the table's
  /// `episode_search_config`, so every program writing the file uses it.
  private static let indexInLargePieces = """
    INSERT INTO episode_search (episode_search, rank) VALUES ('hashsize', 16777216);
    """
}
