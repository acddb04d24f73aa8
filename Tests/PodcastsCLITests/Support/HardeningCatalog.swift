import Foundation
import Testing

/// A catalog file as the sqlite3 shell sees it, read after a process died on it or failed
/// writing it: SQLite's own checks, and every podcast with what its rows say.
struct CatalogInspection: Sendable {
  struct Podcast: Decodable, Equatable, Sendable {
    let id: String
    let title: String?
    /// `podcasts.episode_count`, which each save updates.
    let storedCount: Int
    /// The episode rows.
    let episodes: Int
    /// Episode rows whose title ends in "revised" (the second version of a test feed).
    let revised: Int
    let subscribed: Int
  }

  /// `PRAGMA integrity_check`: `["ok"]` for a sound file.
  let integrity: [String]
  /// `PRAGMA foreign_key_check`: empty for a sound file.
  let foreignKeyProblems: [String]
  let podcasts: [Podcast]
  let episodes: Int
  /// Rows of the episodes' full-text index, one per episode.
  let searchEntries: Int

  /// Whether the file is sound and its rows agree with each other.
  var isConsistent: Bool {
    integrity == ["ok"] && foreignKeyProblems.isEmpty && searchEntries == episodes
      && podcasts.allSatisfy { $0.storedCount == $0.episodes }
      && podcasts.reduce(0) { $0 + $1.episodes } == episodes
  }

  func podcast(_ id: String) -> Podcast? { podcasts.first { $0.id == id } }

  /// Reads the catalog at `path` with the sqlite3 shell (which CI installs).
  /// A file without the catalog's tables (a process killed before it made them) holds no
  /// podcast; one killed between the two schema versions has no search index yet.
  static func inspect(_ path: String) throws -> CatalogInspection {
    let integrity = try lines(path, "PRAGMA integrity_check;")
    let foreignKeys = try lines(path, "PRAGMA foreign_key_check;")
    let tables = Set(try lines(path, "SELECT name FROM sqlite_schema WHERE type = 'table';"))
    guard tables.contains("podcasts") else {
      return CatalogInspection(
        integrity: integrity, foreignKeyProblems: foreignKeys, podcasts: [], episodes: 0,
        searchEntries: 0)
    }
    let searchCount =
      tables.contains("episode_search")
      ? "SELECT count(*) FROM episode_search;" : "SELECT count(*) FROM episodes;"
    let podcastsJSON = try sqlite3(
      path, ["-json"],
      """
      SELECT p.id, p.title, p.episode_count AS storedCount,
        (SELECT count(*) FROM episodes e WHERE e.podcast_id = p.id) AS episodes,
        (SELECT count(*) FROM episodes e WHERE e.podcast_id = p.id AND e.title LIKE '%revised')
          AS revised,
        (SELECT count(*) FROM subscriptions s WHERE s.podcast_id = p.id) AS subscribed
      FROM podcasts p ORDER BY p.id;
      """)
    let podcasts =
      podcastsJSON.allSatisfy(\.isWhitespace)
      ? [] : try JSONDecoder().decode([Podcast].self, from: Data(podcastsJSON.utf8))
    let counts = try lines(path, "SELECT count(*) FROM episodes; " + searchCount)
    guard counts.count == 2, let episodes = Int(counts[0]), let searchEntries = Int(counts[1])
    else {
      throw BuiltProducts.Failure(description: "sqlite3 gave no counts: \(counts)")
    }
    return CatalogInspection(
      integrity: integrity, foreignKeyProblems: foreignKeys, podcasts: podcasts,
      episodes: episodes, searchEntries: searchEntries)
  }

  /// `PRAGMA user_version`: the schema version the catalog says it has.
  static func schemaVersion(_ path: String) throws -> Int {
    let text = try lines(path, "PRAGMA user_version;").first ?? ""
    guard let version = Int(text) else {
      throw BuiltProducts.Failure(description: "sqlite3 gave no user_version: \(text)")
    }
    return version
  }

  /// Makes the catalog say it has schema `version`, as an earlier release left it.
  static func setSchemaVersion(_ path: String, _ version: Int) throws {
    _ = try lines(path, "PRAGMA user_version = \(version);")
  }

  private static func lines(_ path: String, _ sql: String) throws -> [String] {
    try sqlite3(path, [], sql).split(separator: "\n").map(String.init)
  }

  private static func sqlite3(_ path: String, _ options: [String], _ sql: String) throws
    -> String
  {
    let sqlite3 = try #require(BuiltProducts.installedTool("sqlite3"), "sqlite3 is needed")
    let run = try BuiltProducts.runProcess(
      sqlite3, options + ["-bail", path], stdin: Array(sql.utf8), timeout: 60)
    guard run.status == 0 else {
      throw BuiltProducts.Failure(description: "sqlite3 \(path): \(run.stderr)")
    }
    return run.stdout
  }
}
