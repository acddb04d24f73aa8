import Catalog
import FeedViews
import Foundation
import PodcastModel
import Testing

/// A feed that worked when it was added, then broke in one way.
struct BrokenFeedCase: Sendable, CustomTestStringConvertible {
  let name: String
  /// nginx directives that serve the broken state of `/show.xml`.
  var locations = ""
  var arguments: [String] = []
  /// Puts the server in the broken state.
  let breaking: @Sendable (NginxServer) throws -> Void
  /// The error refresh reports, with `PORT` for the server's port.
  let message: String

  var testDescription: String { name }

  /// Takes `show.xml` away, leaving whatever `locations` do instead.
  static let removeFeed: @Sendable (NginxServer) throws -> Void = { server in
    try FileManager.default.removeItem(at: server.root.appendingPathComponent("show.xml"))
  }

  static let webPage = """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><title>Welcome</title></head>
    <body><p>Our podcast has a <a href="/feed">feed</a>!</body></html>
    """
}

@Suite("podcasts refresh when a feed fails")
struct RefreshFailureTests {
  static let cases: [BrokenFeedCase] = [
    BrokenFeedCase(
      name: "404", breaking: BrokenFeedCase.removeFeed,
      message: "HTTP 404 Not Found: no feed at this address"),
    BrokenFeedCase(
      name: "410",
      locations: """
        location = /show.xml { try_files /show.xml @gone; }
        location @gone { return 410; }
        """,
      breaking: BrokenFeedCase.removeFeed, message: "HTTP 410 Gone: the feed is gone for good"),
    BrokenFeedCase(
      name: "500",
      locations: """
        location = /show.xml { try_files /show.xml @broken; }
        location @broken { return 500; }
        """,
      breaking: BrokenFeedCase.removeFeed,
      message: "HTTP 500 Internal Server Error: the server failed"),
    BrokenFeedCase(
      name: "redirect loop",
      locations: """
        location = /show.xml { try_files /show.xml @loop; }
        location @loop { return 302 /elsewhere.xml; }
        location = /elsewhere.xml { return 302 /show.xml; }
        """,
      breaking: BrokenFeedCase.removeFeed,
      message: "http://127.0.0.1:PORT/elsewhere.xml: redirect loop (redirected back to "
        + "http://127.0.0.1:PORT/show.xml)"),
    BrokenFeedCase(
      name: "web page served as a web page",
      locations: "location = /show.xml { types { } default_type text/html; }",
      breaking: { server in
        try server.put("show.xml", BrokenFeedCase.webPage, modified: FixtureFeed.version(2))
      },
      message: "not a feed: the server sent a web page (text/html)"),
    BrokenFeedCase(
      name: "web page served as a feed",
      breaking: { server in
        try server.put("show.xml", BrokenFeedCase.webPage, modified: FixtureFeed.version(2))
      },
      message: "not a feed: the document is an HTML page"),
    BrokenFeedCase(
      name: "body over --max-size", arguments: ["--max-size", "4K"],
      breaking: { server in
        try server.put(
          "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<40),
          modified: FixtureFeed.version(2))
      },
      message: "body larger than the limit of 4 KB"),
  ]

  @Test(arguments: cases)
  func brokenFeed(_ broken: BrokenFeedCase) async throws {
    try await withNginx(locations: broken.locations) { server in
      let sandbox = try RefreshSandbox()
      let original = FixtureFeed.rss(title: "Show", episodes: 0..<3)
      try server.put("show.xml", original, modified: FixtureFeed.version(1))
      let url = server.url("/show.xml")
      try sandbox.add([url])
      let id = try sandbox.podcast(feedURL: url).id
      try broken.breaking(server)
      let message = broken.message.replacingOccurrences(of: "PORT", with: String(server.port))

      let (run, results) = try sandbox.refresh(broken.arguments)
      #expect(run.status == 1)
      #expect(
        results == [
          RefreshedFeed(
            id: id, title: "Show", feedUrl: url, status: "failed", newEpisodes: 0,
            updatedEpisodes: 0, movedFrom: nil, movedTo: nil, error: message, warnings: [])
        ])
      #expect(run.stderr == "podcasts: Show (\(id.prefix(8))): \(message)\n")
      let stored = try sandbox.podcast(feedURL: url)
      #expect(stored.refresh.lastError == message)
      #expect(stored.refresh.lastErrorAt != nil)
      #expect(stored.episodeCount == 3)

      let text = try sandbox.run(["refresh"] + broken.arguments)
      #expect(text.status == 1)
      #expect(text.stdout == "Refreshed 1 podcast: no new episodes, 1 failed.\n")

      // Repaired, the feed refreshes again and the failure is forgotten.
      try? FileManager.default.removeItem(at: server.root.appendingPathComponent("show.xml"))
      try server.put("show.xml", original, modified: FixtureFeed.version(1))
      let repaired = try sandbox.refresh()
      #expect(repaired.run.status == 0)
      #expect(repaired.results.first?.error == nil)
      let after = try sandbox.podcast(feedURL: url)
      #expect(after.refresh.lastError == nil)
      #expect(after.refresh.lastErrorAt == nil)
    }
  }

  /// Failures nginx cannot easily produce: no answer within --timeout, a body cut short, no
  /// server at all. The podcast is put in the catalog directly, as if added earlier.
  @Test(arguments: [
    // The answer would come after 4 s: only --timeout makes this fail.
    ("/sleep?seconds=4", ["--timeout", "1"], "timed out: nothing received for 1 s"),
    ("/truncated", [], "body truncated: received 100 of 1000 bytes"),
    (nil, [], "could not connect to the server (connection refused)"),
  ])
  func unreachableFeed(path: String?, arguments: [String], message: String) throws {
    let server = try path.map { _ in try ScriptedServer.start() }
    defer { server?.stop() }
    let url: String
    if let path, let server {
      url = server.url(path)
    } else {
      url = "http://127.0.0.1:\(try NginxLoopback.freePort())/feed.xml"
    }
    let sandbox = try RefreshSandbox()
    let podcast = Podcast(format: .rss2, title: "Far Away")
    let id = try sandbox.catalog().save(podcast, feedURL: url, subscribing: Date()).podcastID

    let (run, results) = try sandbox.refresh(arguments)
    #expect(run.status == 1)
    #expect(results.map(\.status) == ["failed"])
    #expect(results.first?.error == message)
    #expect(run.stderr == "podcasts: Far Away (\(id.prefix(8))): \(message)\n")
    #expect(try sandbox.podcast(feedURL: url).refresh.lastError == message)
  }

  /// A feed that claims the podcast:guid of another podcast fails as it is being saved,
  /// after its episodes were staged: nothing of it may remain.
  @Test func failureWhileSavingLeavesNothingBehind() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "a.xml",
        FixtureFeed.rss(title: "A", episodes: 0..<2, guid: "aaaaaaaa-0000-4000-8000-000000000001"),
        modified: FixtureFeed.version(1))
      try server.put(
        "b.xml", FixtureFeed.rss(title: "B", episodes: 0..<2), modified: FixtureFeed.version(1))
      try sandbox.add([server.url("/a.xml"), server.url("/b.xml")])
      try server.put(
        "b.xml",
        FixtureFeed.rss(
          title: "B", episodes: 0..<3, guid: "aaaaaaaa-0000-4000-8000-000000000001"),
        modified: FixtureFeed.version(2))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 1)
      #expect(results.map(\.status) == ["notModified", "failed"])
      let b = try sandbox.podcast(feedURL: server.url("/b.xml"))
      #expect(b.episodeCount == 2)
      #expect(try sandbox.catalog().episodes(ofPodcast: b.id).count == 2)
      #expect(b.refresh.lastError == results.last?.error)
      let a = try sandbox.podcast(feedURL: server.url("/a.xml"))
      #expect(a.episodeCount == 2)
      #expect(a.refresh.lastError == nil)
    }
  }
}
