import Foundation
import PodcastModel

/// The mapping between an ``Episode`` and the columns that hold it, in one place: the
/// `episodes` table and the staging table of a save share these columns in this order.
enum EpisodeColumns {
  static let names = [
    "guid", "title", "description", "link", "published", "duration",
    "enclosure_url", "enclosure_type", "enclosure_length", "season", "episode", "episode_type",
    "explicit", "image_url", "transcripts", "chapters_url", "chapters_type",
  ]

  /// Column definitions for CREATE TABLE.
  static let definitions = """
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
    chapters_type    TEXT
    """

  /// `guid, title, ...`, each name prefixed with `prefix` (a table alias and a dot).
  static func list(prefix: String = "") -> String {
    names.map { prefix + $0 }.joined(separator: ", ")
  }

  /// Binds the episode's fields to the parameters `first`, `first + 1`, ... in column order.
  static func bind(_ episode: Episode, to statement: Statement, from first: Int32) throws {
    let s = statement
    try s.bind(episode.guid, at: first)
    try s.bind(episode.title, at: first + 1)
    try s.bind(episode.description, at: first + 2)
    try s.bind(episode.link, at: first + 3)
    try s.bind(episode.published, at: first + 4)
    try s.bind(episode.duration, at: first + 5)
    try s.bind(episode.enclosure?.url, at: first + 6)
    try s.bind(episode.enclosure?.type, at: first + 7)
    try s.bind(episode.enclosure?.length, at: first + 8)
    try s.bind(episode.season, at: first + 9)
    try s.bind(episode.episode, at: first + 10)
    try s.bind(episode.episodeType, at: first + 11)
    try s.bind(episode.explicit, at: first + 12)
    try s.bind(episode.imageUrl, at: first + 13)
    try s.bind(
      episode.transcripts.isEmpty ? nil : JSONColumn.encode(episode.transcripts), at: first + 14)
    try s.bind(episode.chapters?.url, at: first + 15)
    try s.bind(episode.chapters?.type, at: first + 16)
  }

  /// Reads an episode from the columns `first`, `first + 1`, ... of the current row.
  static func read(_ statement: Statement, from first: Int32) throws -> Episode {
    let s = statement
    var episode = Episode(
      guid: s.string(first), title: s.string(first + 1), description: s.string(first + 2),
      link: s.string(first + 3), published: s.date(first + 4), duration: s.int(first + 5),
      season: s.int(first + 9), episode: s.int(first + 10), episodeType: s.string(first + 11),
      explicit: s.bool(first + 12), imageUrl: s.string(first + 13))
    if let url = s.string(first + 6) {
      episode.enclosure = Enclosure(url: url, type: s.string(first + 7), length: s.int(first + 8))
    }
    if let json = s.string(first + 14) {
      episode.transcripts = try JSONColumn.decode(
        [Transcript].self, from: json, table: "episodes", column: "transcripts")
    }
    if let url = s.string(first + 15) {
      episode.chapters = Chapters(url: url, type: s.string(first + 16))
    }
    return episode
  }
}

/// Lists stored as JSON text, so that the sqlite3 shell can read them (`json_each`).
enum JSONColumn {
  static func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<T: Decodable>(
    _ type: T.Type, from json: String, table: String, column: String
  ) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: Data(json.utf8))
    } catch {
      throw CatalogError.invalidStoredValue(table: table, column: column, value: json)
    }
  }
}
