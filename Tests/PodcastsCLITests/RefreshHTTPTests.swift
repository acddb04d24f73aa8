import Catalog
import Foundation
import Testing

/// `podcasts refresh` against nginx: conditional requests, changed feeds, redirects, feeds
/// that announce a new address, and Basic authentication.
@Suite("podcasts refresh over HTTP")
struct RefreshHTTPTests {
  @Test func unchangedFeedCostsOneConditionalRequest() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      let url = server.url("/show.xml")
      try sandbox.add([url])
      let before = try sandbox.podcast(feedURL: url)
      let validators = before.refresh.validators
      #expect(validators.etag?.isEmpty == false)
      #expect(validators.lastModified == FixtureFeed.httpDate(FixtureFeed.version(1)))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(run.stderr.isEmpty)
      #expect(
        results == [
          RefreshedFeed(
            id: before.id, title: "Show", feedUrl: url, status: "notModified", newEpisodes: 0,
            updatedEpisodes: 0, movedFrom: nil, movedTo: nil, error: nil, warnings: [])
        ])

      let requests = try server.requests(atLeast: 2)
      #expect(requests.map(\.status) == [200, 304])
      #expect(requests[0].encoding == "gzip")
      #expect(requests[0].ifNoneMatch.isEmpty && requests[0].ifModifiedSince.isEmpty)
      #expect(requests[1].ifNoneMatch == validators.etag)
      #expect(requests[1].ifModifiedSince == validators.lastModified)

      let after = try sandbox.podcast(feedURL: url)
      #expect(after.episodeCount == 3)
      #expect(after.refresh.lastUpdated == before.refresh.lastUpdated)
      #expect(after.refresh.validators.lastModified == validators.lastModified)
      let checkedBefore = try #require(before.refresh.lastChecked)
      #expect(try #require(after.refresh.lastChecked) >= checkedBefore)
    }
  }

  @Test func feedGainingAndChangingEpisodes() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      let url = server.url("/show.xml")
      try sandbox.add([url])
      let etag = try sandbox.podcast(feedURL: url).refresh.validators.etag

      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<5, retitled: [1]),
        modified: FixtureFeed.version(2))
      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(results.map(\.status) == ["updated"])
      #expect(results.first?.newEpisodes == 2)
      #expect(results.first?.updatedEpisodes == 1)
      let requests = try server.requests(atLeast: 2)
      #expect(requests.last?.status == 200)
      #expect(requests.last?.ifNoneMatch == etag)

      let podcast = try sandbox.podcast(feedURL: url)
      #expect(podcast.episodeCount == 5)
      #expect(
        podcast.refresh.validators.lastModified == FixtureFeed.httpDate(FixtureFeed.version(2)))
      let titles = try sandbox.catalog().episodes(ofPodcast: podcast.id).compactMap(\.episode.title)
      #expect(titles == (0..<5).reversed().map { $0 == 1 ? "Episode 1, revised" : "Episode \($0)" })

      // For people: a line for the podcast that changed, then the summary.
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<6, retitled: [1]),
        modified: FixtureFeed.version(3))
      let text = try sandbox.run(["refresh"])
      #expect(text.status == 0)
      #expect(
        text.stdout
          == "Show (\(podcast.id.prefix(8))): 1 new episode\nRefreshed 1 podcast: 1 new episode.\n")
      #expect(text.stderr.isEmpty)

      let again = try sandbox.refresh()
      #expect(again.results.map(\.status) == ["notModified"])
      #expect(try server.requests(atLeast: 4).last?.status == 304)
    }
  }

  /// Redirect codes and whether they move the feed for good.
  @Test(arguments: [(301, true), (308, true), (302, false), (303, false), (307, false)])
  func redirect(code: Int, moves: Bool) async throws {
    let locations = """
      location = /old.xml { try_files /old.xml @moved; }
      location @moved { return \(code) /new.xml; }
      """
    try await withNginx(locations: locations) { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      let old = server.url("/old.xml")
      let new = server.url("/new.xml")
      try sandbox.add([old])
      let id = try sandbox.podcast(feedURL: old).id
      try FileManager.default.removeItem(at: server.root.appendingPathComponent("old.xml"))
      try server.put(
        "new.xml", FixtureFeed.rss(title: "Show", episodes: 0..<4),
        modified: FixtureFeed.version(2))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      let result = try #require(results.first)
      #expect(result.id == id)
      #expect(result.newEpisodes == 1)
      #expect(result.status == (moves ? "moved" : "updated"))
      #expect(result.movedFrom == (moves ? old : nil))
      #expect(result.movedTo == (moves ? new : nil))
      #expect(result.feedUrl == (moves ? new : old))
      let stored = try sandbox.podcast(feedURL: moves ? new : old)
      #expect(stored.id == id)
      #expect(stored.episodeCount == 4)
      #expect(try sandbox.catalog().podcast(feedURL: moves ? old : new) == nil)

      // The next refresh asks the stored address, with the validators of the new file.
      let seen = try server.requests(atLeast: 3).count
      let again = try sandbox.refresh()
      #expect(again.results.map(\.status) == ["notModified"])
      let next = try server.requests(atLeast: seen + (moves ? 1 : 2)).dropFirst(seen)
      #expect(next.map(\.uri) == (moves ? ["/new.xml"] : ["/old.xml", "/new.xml"]))
      #expect(next.map(\.status) == (moves ? [304] : [code, 304]))
    }
  }

  @Test func movedFeedIsToldToPeople() async throws {
    let locations = """
      location = /old.xml { try_files /old.xml @moved; }
      location @moved { return 301 /new.xml; }
      """
    try await withNginx(locations: locations) { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      try sandbox.add([server.url("/old.xml")])
      let id = try sandbox.podcast(feedURL: server.url("/old.xml")).id
      try FileManager.default.moveItem(
        at: server.root.appendingPathComponent("old.xml"),
        to: server.root.appendingPathComponent("new.xml"))
      let run = try sandbox.run(["refresh"])
      #expect(run.status == 0)
      #expect(
        run.stdout == """
          Show (\(id.prefix(8))): moved to \(server.url("/new.xml"))
          Refreshed 1 podcast: no new episodes, 1 moved.

          """)
    }
  }

  @Test func announcedNewAddressIsFollowedOnce() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      let old = server.url("/old.xml")
      let new = server.url("/new.xml")
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      try sandbox.add([old])
      let id = try sandbox.podcast(feedURL: old).id
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3, newFeedURL: new),
        modified: FixtureFeed.version(2))
      // The new feed announces yet another address: that one waits for the next refresh.
      try server.put(
        "new.xml",
        FixtureFeed.rss(title: "Show", episodes: 0..<4, newFeedURL: server.url("/newer.xml")),
        modified: FixtureFeed.version(2))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(
        results == [
          RefreshedFeed(
            id: id, title: "Show", feedUrl: new, status: "moved", newEpisodes: 1,
            updatedEpisodes: 0, movedFrom: old, movedTo: new, error: nil, warnings: [])
        ])
      let requests = try server.requests(atLeast: 3)
      #expect(requests.map(\.uri) == ["/old.xml", "/old.xml", "/new.xml"])
      #expect(requests.last?.ifNoneMatch.isEmpty == true)
      let stored = try sandbox.podcast(feedURL: new)
      #expect(stored.id == id)
      #expect(stored.episodeCount == 4)
      #expect(try sandbox.catalog().podcast(feedURL: old) == nil)
    }
  }

  @Test func announcedAddressThatFailsKeepsTheFeedWhereItIs() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      let old = server.url("/old.xml")
      let missing = server.url("/missing.xml")
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      try sandbox.add([old])
      let id = try sandbox.podcast(feedURL: old).id
      try server.put(
        "old.xml", FixtureFeed.rss(title: "Show", episodes: 0..<4, newFeedURL: missing),
        modified: FixtureFeed.version(2))

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      let warning =
        "the feed announces the new address \(missing), which failed (HTTP 404 Not Found: no "
        + "feed at this address); it stays at \(old)"
      #expect(
        results == [
          RefreshedFeed(
            id: id, title: "Show", feedUrl: old, status: "updated", newEpisodes: 1,
            updatedEpisodes: 0, movedFrom: nil, movedTo: nil, error: nil, warnings: [warning])
        ])
      #expect(run.stderr == "podcasts: warning: Show (\(id.prefix(8))): \(warning)\n")
      let stored = try sandbox.podcast(feedURL: old)
      #expect(stored.episodeCount == 4)
      #expect(stored.refresh.lastError == nil)
      #expect(stored.refresh.validators == HTTPValidators())

      // Without validators the next refresh reads the announcement again and retries it.
      let quiet = try sandbox.run(["--quiet", "refresh", "--json"])
      #expect(quiet.status == 0)
      #expect(quiet.stderr.isEmpty)
      let requests = try server.requests(atLeast: 5)
      #expect(
        requests.map(\.uri) == ["/old.xml", "/old.xml", "/missing.xml", "/old.xml", "/missing.xml"])
      #expect(requests[3].status == 200 && requests[3].ifNoneMatch.isEmpty)
    }
  }

  /// What the parser repaired in a changed feed, and the episodes the catalog had nothing
  /// to store by, are told as `add` tells them: on stderr and in the JSON.
  @Test func repairsOfAChangedFeedAreWarned() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      let url = server.url("/show.xml")
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<2),
        modified: FixtureFeed.version(1))
      try sandbox.add([url])
      let damaged = FixtureFeed.rss(title: "Show", episodes: 0..<3)
        .replacingOccurrences(of: "<title>Episode 2</title>", with: "<title>Q & A</title>")
        .replacingOccurrences(
          of: "</channel>", with: "<item><description>nothing else</description></item></channel>")
      try server.put("show.xml", damaged, modified: FixtureFeed.version(2))

      let (run, results) = try sandbox.refresh()
      let expected = [
        "1 unescaped \"&\" kept as text",
        "1 episode with no guid, enclosure, link or title left out",
      ]
      #expect(run.status == 0)
      #expect(results.map(\.status) == ["updated"])
      #expect(results.first?.newEpisodes == 1)
      #expect(results.first?.warnings == expected)
      let name = "Show (\(results.first?.id.prefix(8) ?? ""))"
      #expect(run.stderrLines == expected.map { "podcasts: warning: \(name): \($0)" })
    }
  }

  @Test func feedAnnouncingItsOwnAddressStays() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      let url = server.url("/show.xml")
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3),
        modified: FixtureFeed.version(1))
      try sandbox.add([url])
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Show", episodes: 0..<3, newFeedURL: url + "/"),
        modified: FixtureFeed.version(2))
      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(results.map(\.status) == ["updated"])
      #expect(results.first?.warnings == [])
      #expect(try server.requests(atLeast: 2).map(\.uri) == ["/show.xml", "/show.xml"])
    }
  }

  @Test func basicAuthentication() async throws {
    try await withNginx(users: ["alice": "s3cret"]) { server in
      let sandbox = try RefreshSandbox()
      try server.put(
        "show.xml", FixtureFeed.rss(title: "Private Show", episodes: 0..<2),
        modified: FixtureFeed.version(1))
      let url = server.url("/private/show.xml", user: "alice", password: "s3cret")
      try sandbox.add([url])
      let id = try sandbox.podcast(feedURL: url).id

      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(results.map(\.status) == ["notModified"])
      #expect(
        results.first?.feedUrl == server.url("/private/show.xml", user: "alice", password: "***"))
      let requests = try server.requests(atLeast: 2)
      #expect(requests.map(\.status) == [200, 304])
      #expect(requests.map(\.user) == ["alice", "alice"])

      try server.setUsers(["alice": "changed"])
      let (failed, failures) = try sandbox.refresh()
      #expect(failed.status == 1)
      let message = "HTTP 401 Unauthorized: the feed needs credentials (user:password@ in the URL)"
      #expect(failures.first?.error == message)
      #expect(failed.stderr == "podcasts: Private Show (\(id.prefix(8))): \(message)\n")
      #expect(!failed.stdout.contains("s3cret") && !failed.stderr.contains("s3cret"))
      #expect(try sandbox.podcast(feedURL: url).refresh.lastError == message)
    }
  }

  /// Real feeds of the corpus, small enough to keep the test quick, that announce no new
  /// address (which would lead off this machine).
  @Test func realFeedsComeBackNotModified() async throws {
    let corpus = BuiltProducts.packageRoot.appendingPathComponent("../shared/corpus/podcasts")
      .standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
      .filter { $0.hasSuffix(".xml") }
      .filter { name in
        let data = (try? Data(contentsOf: corpus.appendingPathComponent(name))) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        return data.count < 64 << 10 && !text.contains("new-feed-url")
          && !text.contains("newFeedUrl")
      }
    #expect(files.count >= 5)
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      for name in files {
        let data = try Data(contentsOf: corpus.appendingPathComponent(name))
        try data.write(to: server.root.appendingPathComponent(name))
      }
      try sandbox.add(files.map { server.url("/" + $0) })
      let (run, results) = try sandbox.refresh()
      #expect(run.status == 0)
      #expect(results.count == files.count)
      #expect(results.allSatisfy { $0.status == "notModified" })
      let requests = try server.requests(atLeast: 2 * files.count)
      #expect(requests.filter { $0.status == 304 }.count == files.count)
      #expect(requests.filter { $0.status == 304 }.allSatisfy { !$0.ifNoneMatch.isEmpty })
    }
  }
}
