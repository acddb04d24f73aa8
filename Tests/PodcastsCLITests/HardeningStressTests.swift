import Catalog
import FeedViews
import Foundation
import PodcastModel
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Four processes at a time against one catalog, for `PODCASTS_STRESS_SECONDS` (60 unless
/// set): each worker adds, refreshes, unsubscribes and lists in a seeded random order, one
/// `podcasts` process after another, with feeds from nginx on 127.0.0.1. Each worker has
/// podcasts of its own, so it knows at every moment which ones must be listed. Every
/// process must exit 0 (SQLite's busy timeout queues the writers; "database is locked" is
/// a failure), no subscription may be lost, and nothing unsubscribed may come back.
@Suite("Four processes on one catalog")
struct HardeningStressTests {
  static let workers = 4
  static let feedsPerWorker = 5

  static let seconds: Double = {
    let text = ProcessInfo.processInfo.environment["PODCASTS_STRESS_SECONDS"] ?? ""
    return Double(text).flatMap { $0 > 0 ? $0 : nil } ?? 60
  }()

  static func id(worker: Int, feed: Int) -> String {
    "57e55000-000\(worker)-4000-8000-00000000000\(feed)"
  }

  /// What one worker did, for the failure messages and the final check.
  struct Tally: Sendable {
    var commands: [String: Int] = [:]
    var subscribed: Set<String> = []
  }

  @Test(.timeLimit(.minutes(10)))
  func fourProcessesShareOneCatalog() async throws {
    // No validators: every refresh downloads and saves every feed, the heaviest case.
    let locations = "location ~ ^/w { etag off; if_modified_since off; }"
    try await withNginx(locations: locations) { server in
      for worker in 0..<Self.workers {
        for feed in 0..<Self.feedsPerWorker {
          try server.put(
            "w\(worker)-\(feed).xml",
            FixtureFeed.rss(
              title: "Worker \(worker) Feed \(feed)", episodes: 0..<3,
              guid: Self.id(worker: worker, feed: feed)),
            modified: FixtureFeed.version(1))
        }
      }
      let folder = try HardeningFolder()
      let catalog = folder.path("catalog.sqlite3")
      let deadline = ContinuousClock.now + .seconds(Self.seconds)

      let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
        for worker in 0..<Self.workers {
          group.addTask {
            try await Self.work(
              worker, catalog: catalog, server: server, folder: folder, until: deadline)
          }
        }
        var tallies: [Tally] = []
        for try await tally in group { tallies.append(tally) }
        return tallies
      }

      let expected = tallies.reduce(into: Set<String>()) { $0.formUnion($1.subscribed) }
      let list = try await HardeningProcess.runPodcasts(
        ["--db", catalog, "list", "--json"], output: folder.url)
      #expect(list.status == 0, "\(list.stderr)")
      #expect(Set(try JQ.lines(".[].id", list.stdoutBytes)) == expected)
      let inspection = try CatalogInspection.inspect(catalog)
      #expect(inspection.isConsistent, "\(inspection)")
      #expect(Set(inspection.podcasts.map(\.id)) == expected, "unsubscribed podcasts came back")
      // Every kind of command ran, and often: the minute was spent on contention.
      let counts = tallies.reduce(into: [String: Int]()) {
        $0.merge($1.commands, uniquingKeysWith: +)
      }
      for command in ["add", "refresh", "unsubscribe", "list"] {
        #expect(counts[command, default: 0] >= Int(Self.seconds / 10), "\(counts)")
      }
    }
  }

  /// The race the stress test runs into now and then, made to happen every time: a refresh
  /// is waiting for the server when another process unsubscribes the podcast. Whatever the
  /// server then answers (the feed, an error, 304), the refresh succeeds without the
  /// podcast, and nothing of it comes back into the catalog.
  @Test(arguments: ["/hold/feed", "/hold/fail", "/hold/same"])
  func aPodcastUnsubscribedDuringItsRefreshStaysGone(path: String) async throws {
    let server = try HostileServer.start()
    defer { server.stop() }
    let folder = try HardeningFolder()
    let catalog = folder.path("catalog.sqlite3")
    let ident = UUID().uuidString
    let url = server.url("\(path)?id=\(ident)")
    let id = try Catalog(path: catalog, plainText: HTMLText.plainText).save(
      Podcast(format: .rss2, title: "Held"), feedURL: url, subscribing: Date(),
      validators: HTTPValidators(etag: "\"v1\"")
    ).podcastID

    let refresh = try HardeningProcess.podcasts(
      ["--db", catalog, "refresh", "--json", "--timeout", "600"], output: folder.url)
    let clock = ContinuousClock()
    // Nothing here may hang on this test's own timing: under a full test run its task can
    // wait tens of seconds for a thread. The server holds the answer until it is released,
    // and the refresh waits for it as long.
    let deadline = clock.now + .seconds(300)
    while try await Self.fetch(server.url("/arrived?id=\(ident)")) != "yes" {
      try #require(clock.now < deadline, "the refresh never asked for the feed")
      try await Task.sleep(for: .milliseconds(20))
    }
    let unsubscribe = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "unsubscribe", id], output: folder.url)
    #expect(unsubscribe.status == 0, "\(unsubscribe.stderr)")
    _ = try await Self.fetch(server.url("/release?id=\(ident)"))

    let ended = try await refresh.wait(timeout: .seconds(600))
    #expect(ended.status == 0, "\(ended.stderr)")
    #expect(ended.stderr.isEmpty)
    #expect(ended.stdout == "[]\n")
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    #expect(inspection.podcasts.isEmpty, "\(inspection.podcasts)")
  }

  private static func fetch(_ url: String) async throws -> String {
    let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: url)))
    return String(decoding: data, as: UTF8.self)
  }

  /// One worker's loop: a random command on its own podcasts (refresh takes them all), each
  /// checked as it ends, until the deadline.
  static func work(
    _ worker: Int, catalog: String, server: NginxServer, folder: HardeningFolder,
    until deadline: ContinuousClock.Instant
  ) async throws -> Tally {
    var random = HardeningRandom(seed: 0x57e55 &+ UInt64(worker))
    var tally = Tally()
    while ContinuousClock.now < deadline {
      let addable = (0..<feedsPerWorker).filter {
        !tally.subscribed.contains(id(worker: worker, feed: $0))
      }
      let choice = Int.random(in: 0..<4, using: &random)
      let toAdd = addable.randomElement(using: &random)
      // Sorted, so that the seed alone decides (a Set's order changes from run to run).
      let toRemove = tally.subscribed.sorted().randomElement(using: &random)
      let command: [String]
      let name: String
      switch (choice, toAdd, toRemove) {
      case (0, let feed?, _):
        name = "add"
        command = ["add", server.url("/w\(worker)-\(feed).xml")]
        tally.subscribed.insert(id(worker: worker, feed: feed))
      case (1, _, let podcast?):
        name = "unsubscribe"
        command = ["unsubscribe", podcast]
        tally.subscribed.remove(podcast)
      case (2, _, _):
        name = "refresh"
        command = ["refresh", "--quiet"]
      default:
        name = "list"
        command = ["list", "--json"]
      }
      let run = try await HardeningProcess.runPodcasts(
        ["--db", catalog] + command, output: folder.url)
      tally.commands[name, default: 0] += 1
      #expect(run.status == 0, "worker \(worker): \(command): \(run.stderr)")
      #expect(!run.stderr.contains("locked"), "worker \(worker): \(command): \(run.stderr)")
      if name == "list", run.status == 0 {
        let listed = Set(try JQ.lines(".[].id", run.stdoutBytes))
        #expect(
          tally.subscribed.isSubset(of: listed),
          "worker \(worker) lost \(tally.subscribed.subtracting(listed))")
      }
      try? FileManager.default.removeItem(at: run.stdoutURL)
      try? FileManager.default.removeItem(at: run.stderrURL)
      // A pause, so that four workers leave the machine's cores to the other tests half of
      // the time; contention stays, as the others' commands run meanwhile.
      try await Task.sleep(for: .milliseconds(Int.random(in: 100..<400, using: &random)))
    }
    return tally
  }
}
