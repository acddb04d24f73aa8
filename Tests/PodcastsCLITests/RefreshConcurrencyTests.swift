import Catalog
import Foundation
import PodcastModel
import Testing

/// Many feeds at once: each saved on its own, and never more than two requests at a time to
/// one host.
@Suite("podcasts refresh with many feeds")
struct RefreshConcurrencyTests {
  @Test func oneFailingFeedAmongTwenty() async throws {
    let locations = """
      location = /feed-07.xml { try_files /feed-07.xml @broken; }
      location @broken { return 500; }
      """
    try await withNginx(locations: locations) { server in
      let sandbox = try RefreshSandbox()
      let names = (0..<20).map { String(format: "feed-%02d", $0) }
      for name in names {
        try server.put(
          name + ".xml", FixtureFeed.rss(title: "Show \(name)", episodes: 0..<2),
          modified: FixtureFeed.version(1))
      }
      try sandbox.add(names.map { server.url("/\($0).xml") })
      for name in names where name != "feed-07" {
        try server.put(
          name + ".xml", FixtureFeed.rss(title: "Show \(name)", episodes: 0..<3),
          modified: FixtureFeed.version(2))
      }
      try FileManager.default.removeItem(at: server.root.appendingPathComponent("feed-07.xml"))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 1)
      // In the order of the subscriptions, by title.
      #expect(results.map(\.title) == names.map { "Show \($0)" })
      for (name, result) in zip(names, results) {
        if name == "feed-07" {
          #expect(result.status == "failed")
          #expect(result.error == "HTTP 500 Internal Server Error: the server failed")
        } else {
          #expect(result.status == "updated")
          #expect(result.newEpisodes == 1)
        }
      }
      #expect(run.stderrLines.count == 1)

      let catalog = try sandbox.catalog()
      let stored = try catalog.subscriptions(orderedBy: .title)
      #expect(stored.count == 20)
      for podcast in stored {
        let failed = podcast.feedURL == server.url("/feed-07.xml")
        #expect(podcast.episodeCount == (failed ? 2 : 3))
        #expect(
          podcast.refresh.lastError
            == (failed ? "HTTP 500 Internal Server Error: the server failed" : nil))
        #expect((podcast.refresh.lastErrorAt != nil) == failed)
      }
      // One request per feed for the add, one per feed for the refresh.
      #expect(try server.requests(atLeast: 40).count == 40)
    }
  }

  /// nginx answers 503 to a third request in progress from one address; behind it the
  /// Python server takes 0.2 s over each answer, so that requests would overlap if refresh
  /// let them.
  @Test func atMostTwoRequestsAtOnceToOneHost() async throws {
    let slow = try ScriptedServer.start()
    defer { slow.stop() }
    let locations = """
      location /slow/ {
        limit_conn perclient 2;
        limit_conn_status 503;
        rewrite ^ /sleep?seconds=0.2 break;
        proxy_pass http://127.0.0.1:\(slow.port);
      }
      """
    let http = "limit_conn_zone $binary_remote_addr zone=perclient:1m;"
    try await withNginx(locations: locations, http: http) { server in
      let sandbox = try RefreshSandbox()
      let catalog = try sandbox.catalog()
      for number in 0..<6 {
        try catalog.save(
          Podcast(format: .rss2, title: "Slow \(number)"),
          feedURL: server.url("/slow/\(number).xml"), subscribing: Date())
      }
      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(results.map(\.status) == Array(repeating: "updated", count: 6))
      let requests = try server.requests(atLeast: 6)
      #expect(requests.count == 6)
      #expect(requests.allSatisfy { $0.status == 200 })
    }
  }
}
