import Foundation
import PodcastModel
import Testing

@testable import Catalog

@Suite struct CatalogFileTests {
  @Test(arguments: [
    (["PODCASTS_DB": "/x/my.db", "XDG_DATA_HOME": "/d", "HOME": "/h"], "/x/my.db"),
    (["PODCASTS_DB": "", "XDG_DATA_HOME": "/d", "HOME": "/h"], "/d/podcasts/catalog.sqlite3"),
    (["XDG_DATA_HOME": "/d/", "HOME": "/h"], "/d/podcasts/catalog.sqlite3"),
    (["XDG_DATA_HOME": "relative", "HOME": "/h"], "/h/.local/share/podcasts/catalog.sqlite3"),
    (["HOME": "/home/ann"], "/home/ann/.local/share/podcasts/catalog.sqlite3"),
  ])
  func defaultPath(environment: [String: String], expected: String) throws {
    #expect(try CatalogLocation.defaultPath(environment: environment) == expected)
  }

  @Test func defaultPathNeedsSomewhereToLive() {
    #expect(throws: CatalogError.noDataDirectory) {
      try CatalogLocation.defaultPath(environment: ["XDG_DATA_HOME": "relative"])
    }
  }

  @Test func createsTheFolderForTheUserOnly() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("data/podcasts/catalog.sqlite3")
    _ = try openCatalog(path)
    for created in ["data", "data/podcasts"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(created))
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test func configuresTheConnection() throws {
    let folder = try TemporaryFolder()
    let catalog = try openCatalog(folder.path("c.db"))
    #expect(try catalog.rawStrings("PRAGMA journal_mode") == ["wal"])
    #expect(try catalog.rawInt("PRAGMA foreign_keys") == 1)
    #expect(try catalog.rawInt("PRAGMA synchronous") == 1)  // NORMAL
    #expect(try catalog.rawInt("PRAGMA busy_timeout") == 10_000)
    #expect(try catalog.schemaVersion == Catalog.supportedSchemaVersion)
    #expect(try catalog.integrityCheck() == ["ok"])
    #expect(try catalog.rawInt("PRAGMA page_size") == 16384)
    #expect(try catalog.rawInt(Self.hashSize) == 16 << 20)
  }

  /// Files the catalog must refuse without changing a byte.
  enum BadFile: String, CaseIterable {
    case text, truncated, newerSchema, otherProgram, emptyDatabaseOfOtherProgram

    func make(at path: String) throws {
      switch self {
      case .text:
        try Data("title,url\nA Show,https://example.com/feed\n".utf8).write(
          to: URL(fileURLWithPath: path))
      case .truncated:
        do {
          let catalog = try openCatalog(path)
          try catalog.save(
            makePodcast(episodes: (0..<3000).map { makeEpisode($0) }),
            feedURL: "https://example.com/feed", subscribing: epoch)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
      case .newerSchema:
        _ = try openCatalog(path)
        let connection = try Connection(path: path)
        try connection.executeScript("PRAGMA user_version = \(Schema.latestVersion + 1)")
      case .otherProgram:
        let connection = try Connection(path: path)
        try connection.executeScript(
          "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');")
      case .emptyDatabaseOfOtherProgram:
        let connection = try Connection(path: path)
        try connection.executeScript("PRAGMA application_id = 42; PRAGMA user_version = 3;")
      }
    }

    func matches(_ error: Error, path: String) -> Bool {
      switch (self, error as? CatalogError) {
      case (.text, .notADatabase(path)?): return true
      case (.truncated, .corruptDatabase(path, _)?): return true
      case (.newerSchema, .newerSchema(path, Schema.latestVersion + 1, Schema.latestVersion)?):
        return true
      case (.otherProgram, .foreignDatabase(path)?),
        (.emptyDatabaseOfOtherProgram, .foreignDatabase(path)?):
        return true
      default: return false
      }
    }
  }

  @Test(arguments: BadFile.allCases)
  func refusesAndLeavesUnchanged(file: BadFile) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("catalog.sqlite3")
    try file.make(at: path)
    let before = try snapshot(folder)
    #expect(before.keys.sorted() == ["catalog.sqlite3"])
    let error = #expect(throws: (any Error).self) { try openCatalog(path) }
    let description = error.map { "\($0)" } ?? ""
    #expect(error.map { file.matches($0, path: path) } == true, "\(description)")
    #expect(description.contains(path) && !description.contains("\n"))
    #expect(try snapshot(folder) == before)
  }

  @Test func aFolderIsNotACatalog() throws {
    let folder = try TemporaryFolder()
    #expect {
      try openCatalog(folder.url.path)
    } throws: { error in
      guard case .cannotOpen(let path, _)? = error as? CatalogError else { return false }
      return path == folder.url.path
    }
  }

  /// The schema of a catalog made fresh, as SQL text, to compare upgraded ones against.
  private func schemaText(_ catalog: Catalog) throws -> [String] {
    try catalog.rawStrings(
      "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
  }

  @Test func migratesAnEmptyFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("empty.db")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let fresh = try openCatalog(folder.path("fresh.db"))
    let upgraded = try openCatalog(path)
    #expect(try upgraded.schemaVersion == Schema.latestVersion)
    #expect(try schemaText(upgraded) == schemaText(fresh))
  }

  /// A catalog left at an earlier version, holding a podcast and an episode, comes up to the
  /// latest version with its data, and its schema is the one a fresh catalog gets.
  @Test(arguments: 1..<Schema.latestVersion)
  func migratesFromAnEarlierVersion(version: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("old.db")
    do {
      let connection = try Connection(path: path)
      try Schema.migrate(connection, to: version, plainText: stripTags)
      try connection.executeScript(
        """
        INSERT INTO podcasts (id, feed_url, format, title, description, added)
        VALUES ('0a1b2c3d-0000-5000-8000-000000000000', 'https://old.example/feed', 'rss2',
                'Old <b>Timers</b>', '<p>Stories from before</p>', 1600000000);
        INSERT INTO subscriptions VALUES ('0a1b2c3d-0000-5000-8000-000000000000', 1600000000);
        INSERT INTO episodes (podcast_id, identity, position, first_seen, guid, title,
                              description, published)
        VALUES ('0a1b2c3d-0000-5000-8000-000000000000', 'guid:e1', 0, 1600000000, 'e1',
                'Steam engines', '<p>Boilers &amp; pistons</p>', 1500000000);
        UPDATE podcasts SET episode_count = 1, latest_episode = 1500000000;
        """)
      if version >= 2 {
        // What a save of that version indexed.
        try connection.executeScript(
          """
          INSERT INTO podcast_search VALUES ('0a1b2c3d-0000-5000-8000-000000000000',
                                             'Old Timers', 'Stories from before');
          INSERT INTO episode_search (rowid, title, description)
          SELECT id, 'Steam engines', 'Boilers & pistons' FROM episodes;
          """)
      }
      #expect(try Schema.userVersion(connection) == version)
    }
    let catalog = try openCatalog(path)
    let fresh = try openCatalog(folder.path("fresh.db"))
    #expect(try catalog.schemaVersion == Schema.latestVersion)
    #expect(try schemaText(catalog) == schemaText(fresh))
    let podcast = try #require(try catalog.subscriptions().first)
    #expect(podcast.podcast.title == "Old <b>Timers</b>")
    #expect(podcast.subscribed == Date(timeIntervalSince1970: 1_600_000_000))
    #expect(try catalog.episodes(ofPodcast: podcast.id).map(\.episode.guid) == ["e1"])
    #expect(try catalog.search("pistons").episodes.map(\.episode.guid) == ["e1"])
    #expect(try catalog.search("timers").podcasts.map(\.podcastID) == [podcast.id])
    #expect(try catalog.search("b").podcasts.isEmpty, "markup must not be indexed")
    #expect(try catalog.rawInt(Self.hashSize) == 16 << 20)
  }

  static let hashSize = "SELECT v FROM episode_search_config WHERE k = 'hashsize'"

  @Test func aSecondOpenChangesNothing() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("c.db")
    let first = try openCatalog(path)
    try first.save(
      makePodcast(episodes: [makeEpisode(1)]), feedURL: "https://e.x/f", subscribing: epoch)
    let second = try openCatalog(path)
    #expect(try second.schemaVersion == Schema.latestVersion)
    #expect(try second.subscriptions().count == 1)
  }
}
