import Foundation
import PodcastModel
import TestProcesses
import Testing

@testable import Catalog

/// A CatalogHarness process (see Tests/CatalogHarness) with its stdin and stdout.
final class Harness {
  let process: ChildProcess

  /// The harness binary that SwiftPM builds beside the test binary.
  static var executable: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("CatalogHarness")
  }

  init(_ arguments: [String]) throws {
    // Writing to a harness that has died must fail the test, not kill the test process.
    signal(SIGPIPE, SIG_IGN)
    process = try ChildProcess.spawn(
      Self.executable.path, arguments, stdin: .pipe, stdout: .pipe)
  }

  deinit { process.kill() }

  /// The next line the harness prints; nil once it has exited without printing one.
  func readLine() -> String? {
    process.readLine(timeout: 50)
  }

  func send(_ line: String) throws {
    try process.writeInput(Array((line + "\n").utf8))
  }

  func kill() {
    process.kill()
  }

  /// Whether the harness still runs.
  var isRunning: Bool { process.exitStatus == nil }

  /// Waits for the process to end and gives what it printed after the last line read.
  func finish() -> String {
    if process.wait(timeout: 50) == nil { process.kill() }
    return process.readRest(timeout: 5)
  }
}

/// The `index`th episode that `CatalogHarness save` writes for a feed.
func harnessEpisode(_ index: Int, feedURL: String) -> Episode {
  Episode(
    guid: "\(feedURL)#\(index)", title: "Episode \(index)",
    description: "<p>Body of episode \(index) of \(feedURL)</p>", link: "\(feedURL)/\(index)",
    published: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 3600),
    duration: index, enclosure: Enclosure(url: "\(feedURL)/\(index).mp3", type: "audio/mpeg"))
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct ProcessTests {
  /// Everything the catalog holds, for comparing before and after.
  private func contents(_ path: String) throws -> [String: [StoredEpisode]] {
    let catalog = try openCatalog(path)
    var contents: [String: [StoredEpisode]] = [:]
    for podcast in try catalog.subscriptions() {
      contents[podcast.feedURL] = try catalog.episodes(ofPodcast: podcast.id)
    }
    return contents
  }

  /// Processes saving different feeds at the same moment all succeed, also when they all
  /// create the catalog file at once.
  @Test(arguments: [(false, 2, 5_000), (true, 4, 1_000)])
  func processesSaveAtOnce(onAFreshFile fresh: Bool, processes: Int, count: Int) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("catalog.sqlite3")
    if !fresh {
      _ = try openCatalog(path)
    }
    let feeds = (1...processes).map { "https://\($0).example/feed" }
    let children = try feeds.map { try Harness(["save", path, $0, String(count), "--wait"]) }
    for child in children {
      #expect(child.readLine() == "ready")
    }
    for child in children {
      try child.send("go")
    }
    for child in children {
      #expect(child.finish() == "saved \(count)\n")
      #expect(child.process.exitStatus == 0)
    }

    let catalog = try openCatalog(path)
    #expect(try catalog.integrityCheck() == ["ok"])
    #expect(Set(try catalog.subscriptions().map(\.feedURL)) == Set(feeds))
    for feed in feeds {
      let podcast = try #require(try catalog.podcast(feedURL: feed))
      #expect(podcast.episodeCount == count)
      let newest = try catalog.episodes(ofPodcast: podcast.id, limit: 1)
      #expect(newest.map(\.episode) == [harnessEpisode(count - 1, feedURL: feed)])
    }
  }

  enum KillPoint: String, CaseIterable {
    /// While the parser is still handing over episodes.
    case staging
    /// While the episodes are merged in, once uncommitted pages reach the WAL file.
    case merging
    /// While the episodes of a new podcast are written straight in and indexed.
    case writingANewPodcast
  }

  /// A save killed with SIGKILL leaves the catalog sound and exactly as it was.
  @Test(arguments: KillPoint.allCases)
  func aKilledSaveLeavesNothingBehind(at point: KillPoint) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("catalog.sqlite3")
    let feedURL = "https://big.example/feed"
    let newFeedURL = "https://new.example/feed"
    do {
      let catalog = try openCatalog(path)
      try catalog.save(
        makePodcast(episodes: (0..<10).map { harnessEpisode($0, feedURL: feedURL) }),
        feedURL: feedURL, subscribing: epoch)
      try catalog.save(
        makePodcast(title: "Bystander", episodes: (1...50).map { makeEpisode($0) }),
        feedURL: "https://bystander.example/feed", subscribing: epoch)
    }
    let before = try contents(path)
    #expect(before[feedURL]?.count == 10)

    switch point {
    case .staging:
      let child = try Harness(["save", path, feedURL, "20000", "--hang-after", "2000"])
      #expect(child.readLine() == "staged 2000")
      child.kill()
      #expect(child.finish() == "")
    case .merging:
      let child = try Harness(["save", path, feedURL, "20000", "--announce-merge"])
      #expect(child.readLine() == "merging")
      let wal = path + "-wal"
      let start = walSize(wal)
      while child.isRunning && walSize(wal) < start + 1 << 20 {
        usleep(500)
      }
      child.kill()
      #expect(child.finish() == "", "the save ended before it could be killed")
    case .writingANewPodcast:
      let child = try Harness(["save", path, newFeedURL, "20000", "--hang-after", "5000"])
      #expect(child.readLine() == "staged 5000")
      child.kill()
      #expect(child.finish() == "")
    }
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))

    let catalog = try openCatalog(path)
    #expect(try catalog.integrityCheck() == ["ok"])
    #expect(try contents(path) == before)
    #expect(try catalog.rawInt("SELECT count(*) FROM episodes") == 60)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 60)
    let report = try catalog.save(
      makePodcast(episodes: [harnessEpisode(10, feedURL: feedURL)]), feedURL: feedURL,
      subscribing: nil)
    #expect(report.newEpisodes == 1)
    let new = try catalog.save(
      makePodcast(episodes: (0..<100).map { harnessEpisode($0, feedURL: newFeedURL) }),
      feedURL: newFeedURL, subscribing: nil)
    #expect(new.isNewPodcast && new.newEpisodes == 100)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 161)
  }

  private func walSize(_ path: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }
}
