/// Keeps the FTS5 tables in step with podcasts and episodes. The index holds plain text made
/// by the caller's HTML-to-text function, so markup is never searchable. Deletions are
/// handled by triggers in the schema; insertions and changes go through here.
enum FullTextIndex {
  /// Indexes every podcast and episode already stored (when the index is first created).
  static func indexAll(_ connection: Connection, plainText: (String) -> String) throws {
    try connection.withStatement("SELECT id, title, description FROM podcasts") { rows in
      while try rows.step() {
        guard let id = rows.string(0) else { continue }
        try indexPodcast(
          connection, id: id, title: rows.string(1), description: rows.string(2),
          plainText: plainText, replacing: false)
      }
    }
    try connection.withStatement("SELECT id, title, description FROM episodes") { rows in
      try connection.withStatement(insertEpisode) { index in
        while try rows.step() {
          guard let id = rows.int64(0) else { continue }
          try indexEpisode(
            index, id: id, title: rows.string(1).map(plainText),
            description: rows.string(2).map(plainText))
        }
      }
    }
  }

  static func indexPodcast(
    _ connection: Connection, id: String, title: String?, description: String?,
    plainText: (String) -> String, replacing: Bool = true
  ) throws {
    if replacing {
      try connection.execute("DELETE FROM podcast_search WHERE podcast_id = ?", id)
    }
    try connection.execute(
      "INSERT INTO podcast_search (podcast_id, title, description) VALUES (?, ?, ?)",
      id, title.map(plainText), description.map(plainText))
  }

  /// Parameters: 1 the episode's row id, 2 title, 3 description (plain text).
  static let insertEpisode =
    "INSERT OR REPLACE INTO episode_search (rowid, title, description) VALUES (?, ?, ?)"

  /// Indexes an episode's plain title and description by its row id through `statement`
  /// (prepared from ``insertEpisode``), replacing what was indexed for it before.
  static func indexEpisode(
    _ statement: Statement, id: Int64, title: String?, description: String?
  ) throws {
    defer { statement.reset() }
    try statement.bind(id, at: 1)
    try statement.bind(title, at: 2)
    try statement.bind(description, at: 3)
    try statement.step()
  }
}
