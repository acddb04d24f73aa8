import Foundation
import Synchronization
import Testing

/// A catalog file in a fresh temporary folder, removed with the value, and the built
/// `podcasts` run against it.
final class TemporaryCatalog: Sendable {
  let directory: URL
  let path: String
  private let isFixture: Bool

  /// An empty catalog.
  convenience init() throws {
    try self.init(
      directory: FileManager.default.temporaryDirectory.appendingPathComponent(
        "podcasts-catalog-" + UUID().uuidString), isFixture: false)
  }

  /// A copy of the catalog `fixture` makes, made once per test run: most tests start from
  /// the same few catalogs, and filling one with `podcasts add` costs far more than copying.
  convenience init(copying fixture: Fixture) throws {
    try self.init()
    let source = try fixture.path()
    // The main file and, should the last writer have left them, its WAL and shared memory.
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix)
    {
      try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix)
    }
  }

  fileprivate init(directory: URL, isFixture: Bool) throws {
    self.directory = directory
    self.isFixture = isFixture
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent("catalog.sqlite3").path
  }

  deinit {
    if !isFixture { try? FileManager.default.removeItem(at: directory) }
  }

  /// `podcasts --db <this catalog> <arguments>`, 100 columns wide unless `environment` says
  /// otherwise.
  func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> BuiltProducts.Result
  {
    try BuiltProducts.run(
      ["--db", path] + arguments,
      environment: ["COLUMNS": "100"].merging(environment) { $1 })
  }

  /// Subscribes to `feeds` (paths or URLs) and fails the test unless all were added.
  func add(_ feeds: [String]) throws {
    let run = try self.run(["add"] + feeds)
    try #require(run.status == 0, "add \(feeds): \(run.stderr)")
  }

  /// Runs SQL on the catalog file with the sqlite3 shell, as a user editing it by hand would.
  @discardableResult
  func sql(_ statements: String) throws -> String {
    let sqlite3 = try #require(BuiltProducts.installedTool("sqlite3"), "sqlite3 is needed")
    let run = try BuiltProducts.runProcess(
      sqlite3, [path], stdin: Array(("PRAGMA foreign_keys = ON;\n" + statements).utf8))
    try #require(run.status == 0, "sqlite3: \(run.stderr)")
    return run.stdout
  }
}

/// A catalog that tests start from: `build` fills it (with `add`, and `sql` where a test
/// needs what no feed gives).
struct Fixture: Sendable {
  let name: String
  let build: @Sendable (TemporaryCatalog) throws -> Void

  /// The catalog file, made on first use. Fixtures live in one folder removed when the test
  /// process exits.
  func path() throws -> String {
    try Self.made.withLock { made in
      if let result = made[name] { return try result.get() }
      let result = Result {
        let catalog = try TemporaryCatalog(
          directory: Self.root.appendingPathComponent(name), isFixture: true)
        try build(catalog)
        return catalog.path
      }
      made[name] = result
      return try result.get()
    }
  }

  private static let made = Mutex<[String: Result<String, any Error>]>([:])

  private static let root: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-fixtures-" + UUID().uuidString)
    atexit { try? FileManager.default.removeItem(at: Fixture.root) }
    return root
  }()

  /// Tidepool Radio, Switchyard and Podcasting 2.0 (``FeedFiles/withGuids``).
  static let threeFeeds = Fixture(name: "three-feeds") { try $0.add(FeedFiles.withGuids) }
}

/// Feed files of the package and of the shared corpus beside it.
enum FeedFiles {
  static let sampleFeeds = BuiltProducts.packageRoot.appendingPathComponent("SampleFeeds")
  static let corpus = BuiltProducts.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/podcasts")

  static func sample(_ name: String) -> String {
    sampleFeeds.appendingPathComponent(name).path
  }

  static func corpusFeed(_ name: String) -> String {
    corpus.appendingPathComponent(name).path
  }

  /// Three feeds whose ids come from `podcast:guid`, so they are the same wherever the
  /// files are: Tidepool Radio (4 episodes), Switchyard (1) and Podcasting 2.0 (56).
  static let tidepool = sample("full-rss2.xml")
  static let switchyard = sample("podcastindex-old-namespace.xml")
  static let podcasting20 = corpusFeed("partytime-pc20rss.xml")
  static let withGuids = [tidepool, switchyard, podcasting20]
}

enum IDs {
  static let tidepool = "1dee190e-173f-5586-ad29-300b960f9312"
  static let switchyard = "056c7019-3471-514e-9438-0ce2d1e5bc62"
  static let podcasting20 = "917393e3-1b1e-5cef-ace4-edaa54e1f810"
}

/// jq, which CI installs: the JSON is checked by the program scripts read it with.
enum JQ {
  /// `jq <arguments> <filter>` on `input`; fails the test when jq does.
  static func run(_ filter: String, _ input: [UInt8], arguments: [String] = ["-r"]) throws
    -> String
  {
    let jq = try #require(BuiltProducts.installedTool("jq"), "jq is needed (apt install jq)")
    let run = try BuiltProducts.runProcess(jq, arguments + [filter], stdin: input)
    try #require(run.status == 0, "jq '\(filter)': \(run.stderr)")
    return run.stdout
  }

  /// Whether `filter` holds for `input` (`jq -e`).
  static func holds(_ filter: String, _ input: [UInt8]) throws -> Bool {
    let jq = try #require(BuiltProducts.installedTool("jq"), "jq is needed (apt install jq)")
    let run = try BuiltProducts.runProcess(jq, ["-e", filter], stdin: input)
    try #require(run.status <= 1, "jq '\(filter)': \(run.stderr)")
    return run.status == 0
  }

  /// The lines jq prints (`-r` unless `arguments` say otherwise).
  static func lines(_ filter: String, _ input: [UInt8], arguments: [String] = ["-r"]) throws
    -> [String]
  {
    try run(filter, input, arguments: arguments)
      .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}
