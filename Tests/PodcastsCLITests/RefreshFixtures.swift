import Catalog
import FeedViews
import Foundation
import PodcastModel
import TestProcesses

/// A catalog of its own in a temporary folder, and the built `podcasts` run against it.
final class RefreshSandbox: Sendable {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-refresh-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var database: String { directory.appendingPathComponent("catalog.sqlite3").path }

  /// `podcasts --db <catalog> <arguments>`, with an empty environment but PATH.
  func run(_ arguments: [String], timeout: TimeInterval = 20) throws -> BuiltProducts.Result {
    try BuiltProducts.run(["--db", database] + arguments, timeout: timeout)
  }

  /// `podcasts refresh --json <arguments>` and its results decoded.
  func refresh(_ arguments: [String] = []) throws -> (
    run: BuiltProducts.Result, results: [RefreshedFeed]
  ) {
    let run = try self.run(["refresh", "--json"] + arguments)
    let results = try JSONDecoder().decode([RefreshedFeed].self, from: Data(run.stdoutBytes))
    return (run, results)
  }

  /// Subscribes to `urls` with `podcasts add`; fails unless every one was added.
  func add(_ urls: [String]) throws {
    let run = try self.run(["add"] + urls)
    guard run.status == 0 else {
      throw BuiltProducts.Failure(description: "podcasts add failed: \(run.stderr)")
    }
  }

  /// The catalog, opened in this process to check what the command stored.
  func catalog() throws -> Catalog {
    try Catalog(path: database, plainText: HTMLText.plainText)
  }

  /// The stored podcast with this feed URL.
  func podcast(feedURL: String) throws -> StoredPodcast {
    guard let podcast = try catalog().podcast(feedURL: feedURL) else {
      throw BuiltProducts.Failure(description: "no podcast with feed URL \(feedURL)")
    }
    return podcast
  }
}

/// One element of `podcasts refresh --json`.
struct RefreshedFeed: Decodable, Sendable, Equatable {
  let id: String
  let title: String?
  let feedUrl: String
  let status: String
  let newEpisodes: Int
  let updatedEpisodes: Int
  let movedFrom: String?
  let movedTo: String?
  let error: String?
  let warnings: [String]
}

/// Feeds written for the tests: RSS 2.0 with the iTunes and Podcasting 2.0 namespaces, dated
/// episodes, enclosures, optionally a podcast:guid and a new-feed-url.
enum FixtureFeed {
  static func rss(
    title: String, episodes: Range<Int>, guid: String? = nil, newFeedURL: String? = nil,
    retitled: Set<Int> = []
  ) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
        xmlns:podcast="https://podcastindex.org/namespace/1.0">
      <channel>
      <title>\(title)</title>
      <link>https://example.com/\(slug(title))</link>
      <description>Episodes of \(title).</description>
      <itunes:author>Fixture Author</itunes:author>

      """
    if let guid { text += "<podcast:guid>\(guid)</podcast:guid>\n" }
    if let newFeedURL { text += "<itunes:new-feed-url>\(newFeedURL)</itunes:new-feed-url>\n" }
    // Newest first, as feeds list them.
    for number in episodes.reversed() {
      let published = Date(timeIntervalSince1970: 1_704_067_200 + Double(number) * 86_400)
      let episodeTitle =
        retitled.contains(number) ? "Episode \(number), revised" : "Episode \(number)"
      text += """
        <item>
          <title>\(episodeTitle)</title>
          <guid isPermaLink="false">\(slug(title))-\(number)</guid>
          <pubDate>\(httpDate(published))</pubDate>
          <enclosure url="https://cdn.example.com/\(slug(title))/\(number).mp3" type="audio/mpeg" length="\(1000 + number)"/>
          <itunes:duration>00:\(10 + number % 50):00</itunes:duration>
        </item>

        """
    }
    return text + "</channel>\n</rss>\n"
  }

  /// A fixed date for the n-th version of a fixture file, so ETags and Last-Modified change
  /// from one version to the next however fast the test runs.
  static func version(_ number: Int) -> Date {
    Date(timeIntervalSince1970: 1_717_200_000 + Double(number) * 3_600)
  }

  /// A date as HTTP writes it (IMF-fixdate), e.g. `Sat, 01 Jun 2024 00:00:00 GMT`.
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  private static func slug(_ title: String) -> String {
    title.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") {
      $0.append($1)
    }
  }
}

/// The FeedFetcher tests' Python server (Tests/FeedFetcherTests/test_server.py), for what
/// nginx cannot easily do: an answer that never comes, a body cut short. It also exits when
/// its standard input closes, so it cannot outlive the tests.
final class ScriptedServer: Sendable {
  let port: Int
  private let process: ChildProcess

  private init(port: Int, process: ChildProcess) {
    self.port = port
    self.process = process
  }

  static func start() throws -> ScriptedServer {
    let script = BuiltProducts.packageRoot.appendingPathComponent(
      "Tests/FeedFetcherTests/test_server.py")
    let (process, port) = try ChildProcess.server("test_server.py", "python3", [script.path])
    return ScriptedServer(port: port, process: process)
  }

  func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }

  func stop() { process.stop() }
}
