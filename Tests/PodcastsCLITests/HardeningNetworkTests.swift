import Foundation
import Testing

/// `podcasts add` against servers that stall, trickle, never end or hang up mid-body. The
/// fetcher's own tests cover these transfers one by one; here the whole command must end
/// within its timeout or size cap, say why in one line, exit 1, and save nothing of the
/// feed, though the XML it received so far held whole episodes.
@Suite("podcasts add against hostile servers")
struct HardeningNetworkTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let path: String
    var arguments: [String] = []
    let message: String
    /// How long the command may take: its timeout or the time to fill its cap, and a margin.
    let seconds: Double
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "headers, then silence", path: "/stall", arguments: ["--timeout", "1"],
      message: "timed out: nothing received for 1 s", seconds: 10),
    Case(
      name: "a byte every quarter second", path: "/trickle", arguments: ["--timeout", "2"],
      message: "took longer than 20 s", seconds: 30),
    Case(
      name: "a body without end, at the default cap", path: "/endless",
      message: "body larger than the limit of 50 MB", seconds: 30),
    Case(
      name: "a body without end, at --max-size", path: "/endless",
      arguments: ["--max-size", "1M"], message: "body larger than the limit of 1 MB", seconds: 10),
    Case(
      name: "closed before its Content-Length", path: "/cut-length",
      message: "body truncated: received 20000 of 200000 bytes", seconds: 10),
    Case(
      name: "closed before the last chunk", path: "/cut-chunked", message: "truncated",
      seconds: 10),
  ]

  @Test(arguments: cases)
  func addEndsCleanlyAndSavesNothing(_ hostile: Case) async throws {
    let server = try HostileServer.start()
    defer { server.stop() }
    let folder = try HardeningFolder()
    let catalog = folder.path("catalog.sqlite3")
    let url = server.url(hostile.path)

    let run = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", url] + hostile.arguments, output: folder.url,
      timeout: .seconds(90), niceness: 0)
    #expect(run.duration < .seconds(hostile.seconds), "took \(run.duration)")
    #expect(run.status == 1)
    #expect(run.stderrLines.count == 1, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("podcasts: \(url): "), "\(run.stderr)")
    #expect(run.stderr.contains(hostile.message), "\(run.stderr)")
    #expect(run.stdout.isEmpty)

    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    #expect(inspection.podcasts.isEmpty && inspection.episodes == 0, "\(inspection)")
  }

  /// A body that ends with the connection (no length, no chunks) is whole as far as HTTP can
  /// tell: the feed is read as far as it goes. What it ended in the middle of must not become
  /// an episode, and a warning must say that the feed was cut short.
  @Test func aFeedCutByTheConnectionIsReadAsFarAsItGoes() async throws {
    let server = try HostileServer.start()
    defer { server.stop() }
    let folder = try HardeningFolder()
    let catalog = folder.path("catalog.sqlite3")
    let url = server.url("/cut-close")
    let run = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", url, "--json"], output: folder.url)
    #expect(run.status == 0, "\(run.stderr)")
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    let podcast = try #require(inspection.podcasts.first)
    #expect(podcast.episodes > 3 && podcast.episodes < 1000, "\(podcast)")
    let episodes = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "episodes", podcast.id, "--json", "--limit", "1000"], output: folder.url)
    let guids = try JQ.lines(".[].guid", episodes.stdoutBytes)
    #expect(!guids.contains("null"), "an episode without its guid: the one cut short")
    #expect(run.stderr.contains("the document is cut short inside episode"), "\(run.stderr)")
  }
}
