import CSQLite
import Foundation
import PodcastModel
import Testing

@testable import Catalog

/// A folder under the system temp folder, removed when the value goes away.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("CatalogTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// Names of the files in the folder, sorted.
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}

/// A stand-in for the view layer's HTML-to-text function: drops tags and decodes `&amp;`.
func stripTags(_ html: String) -> String {
  var text = ""
  var inTag = false
  for character in html {
    switch character {
    case "<": inTag = true
    case ">":
      inTag = false
      text.append(" ")
    default: if !inTag { text.append(character) }
    }
  }
  return text.replacingOccurrences(of: "&amp;", with: "&")
}

func openCatalog(_ path: String) throws -> Catalog {
  try Catalog(path: path, plainText: stripTags)
}

let day: TimeInterval = 86_400
let epoch = Date(timeIntervalSince1970: 1_700_000_000)

func date(_ days: Double) -> Date {
  epoch.addingTimeInterval(days * day)
}

func makePodcast(
  id: String? = nil, title: String = "A Show", description: String? = "<p>About the show</p>",
  episodes: [Episode] = []
) -> Podcast {
  Podcast(
    id: id, format: .rss2, title: title, author: "Ann Author", description: description,
    link: "https://example.com/", language: "en-us", imageUrl: "https://example.com/cover.jpg",
    categories: ["Technology", "Society & Culture/History"], explicit: false,
    episodes: episodes)
}

func makeEpisode(_ n: Int, guid: String? = nil, published: Date? = nil) -> Episode {
  Episode(
    guid: guid ?? "guid-\(n)", title: "Episode \(n)", description: "<p>Notes for \(n)</p>",
    link: "https://example.com/\(n)", published: published ?? date(Double(n)),
    duration: 60 * n,
    enclosure: Enclosure(
      url: "https://cdn.example.com/\(n).mp3", type: "audio/mpeg", length: 1000 * n))
}

extension Catalog {
  /// Runs SQL on the catalog's own connection, for checks the public API does not offer.
  func rawInt(_ sql: String, _ arguments: any SQLBindable...) throws -> Int? {
    try connection.withStatement(sql) { statement in
      try statement.bind(arguments)
      return try statement.step() ? statement.int(0) : nil
    }
  }

  func rawStrings(_ sql: String, _ arguments: any SQLBindable...) throws -> [String] {
    try connection.withStatement(sql) { statement in
      try statement.bind(arguments)
      var values: [String] = []
      while try statement.step() {
        values.append(statement.string(0) ?? "NULL")
      }
      return values
    }
  }

  /// The `detail` lines of EXPLAIN QUERY PLAN, with as many of `arguments` bound as it takes.
  func queryPlan(_ sql: String, _ arguments: any SQLBindable...) throws -> [String] {
    try connection.withStatement("EXPLAIN QUERY PLAN " + sql) { statement in
      try statement.bind(
        Array(arguments.prefix(Int(sqlite3_bind_parameter_count(statement.handle)))))
      var details: [String] = []
      while try statement.step() {
        details.append(statement.string(3) ?? "")
      }
      return details
    }
  }

  func rawExecute(_ sql: String) throws {
    try connection.executeScript(sql)
  }
}

/// Every byte of every file in a folder, to prove that an operation left it as it was.
func snapshot(_ folder: TemporaryFolder) throws -> [String: Data] {
  var files: [String: Data] = [:]
  for name in try folder.contents() {
    files[name] = try Data(contentsOf: folder.url.appendingPathComponent(name))
  }
  return files
}
