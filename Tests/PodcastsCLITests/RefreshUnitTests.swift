import Catalog
import Foundation
import PodcastModel
import Testing

@testable import PodcastsCLI

@Suite("refresh's parts")
struct RefreshUnitTests {
  /// (announced, stored feed URL, where the announcing body came from, what to fetch).
  @Test(
    arguments: [
      (
        "https://new.example/feed", "https://old.example/feed", "https://old.example/feed",
        "https://new.example/feed"
      ),
      (
        "  https://new.example/feed\n", "https://old.example/feed", "https://old.example/feed",
        "https://new.example/feed"
      ),
      // Its own address in another spelling.
      ("https://old.example/feed/", "https://old.example/feed", "https://old.example/feed", nil),
      ("https://OLD.example:443/feed", "https://old.example/feed", "https://old.example/feed", nil),
      (
        "https://old.example/feed", "https://user:pw@old.example/feed",
        "https://user:pw@old.example/feed", nil
      ),
      // Where a permanent redirect already led.
      ("https://new.example/feed", "https://old.example/feed", "https://new.example/feed", nil),
      // Up to https, never down to http.
      (
        "https://old.example/feed", "http://old.example/feed", "http://old.example/feed",
        "https://old.example/feed"
      ),
      ("http://old.example/feed", "https://old.example/feed", "https://old.example/feed", nil),
      // Credentials follow to the same host only, and never to plain http from https.
      (
        "https://old.example/v2/feed", "http://user:pw@old.example/feed",
        "http://user:pw@old.example/feed", "https://user:pw@old.example/v2/feed"
      ),
      (
        "http://old.example/v2", "https://user:pw@old.example/feed",
        "https://user:pw@old.example/feed", "http://old.example/v2"
      ),
      (
        "https://other.example/feed", "https://user:pw@old.example/feed",
        "https://user:pw@old.example/feed", "https://other.example/feed"
      ),
      (
        "https://new.example/feed?id=2", "https://new.example/feed?id=1",
        "https://new.example/feed?id=1", "https://new.example/feed?id=2"
      ),
      // Nothing a feed may send the catalog to.
      ("file:///etc/passwd", "https://old.example/feed", "https://old.example/feed", nil),
      ("ftp://old.example/feed", "https://old.example/feed", "https://old.example/feed", nil),
      ("not a url", "https://old.example/feed", "https://old.example/feed", nil),
      ("", "https://old.example/feed", "https://old.example/feed", nil),
    ] as [(String, String, String, String?)])
  func announcedFeedURL(announced: String, current: String, fetchedFrom: String, expected: String?)
  {
    #expect(
      AnnouncedFeedURL.target(announced, current: current, fetchedFrom: fetchedFrom) == expected)
  }

  @Test(arguments: [
    ("1048576", 1_048_576), ("1", 1), ("512K", 524_288), ("512k", 524_288), ("50M", 52_428_800),
    ("2G", 2_147_483_648),
  ])
  func byteSize(text: String, bytes: Int) {
    #expect(ByteSize(argument: text)?.bytes == bytes)
  }

  @Test(arguments: ["0", "0K", "-5", "+5", "5X", "K", "", "1.5M", " 5", "99999999999G"])
  func invalidByteSize(text: String) {
    #expect(ByteSize(argument: text) == nil)
  }

  @Test(arguments: [(52_428_800, "50M"), (1024, "1K"), (1536, "1536"), (3 << 30, "3G")])
  func byteSizeDescription(bytes: Int, text: String) {
    #expect(ByteSize(bytes: bytes).argumentDescription == text)
  }

  private func result(
    _ title: String?, status: RefreshResult.Status, new: Int = 0, changed: Int = 0,
    movedTo: String? = nil
  ) -> RefreshResult {
    let stored = StoredPodcast(
      id: "0123456789abcdef", feedURL: "https://user:pw@example.com/feed",
      podcast: Podcast(format: .rss2, title: title), subscribed: nil, episodeCount: 0,
      latestEpisode: nil, added: Date())
    var result = RefreshResult(stored)
    result.status = status
    result.newEpisodes = new
    result.updatedEpisodes = changed
    if let movedTo { result.move(to: movedTo) }
    return result
  }

  @Test func linesForPeople() {
    #expect(RefreshReport.line(for: result("A", status: .notModified)) == nil)
    #expect(RefreshReport.line(for: result("A", status: .updated)) == nil)
    #expect(
      RefreshReport.line(for: result("A", status: .updated, new: 1))
        == "A (01234567): 1 new episode\n")
    #expect(
      RefreshReport.line(for: result("A &amp; B", status: .updated, new: 2, changed: 1))
        == "A & B (01234567): 2 new episodes, 1 changed\n")
    #expect(
      RefreshReport.line(for: result("A", status: .updated, changed: 3))
        == "A (01234567): 3 episodes changed\n")
    let moved = RefreshReport.line(
      for: result("A\u{1B}]0;title\u{7}", status: .moved, movedTo: "https://u:p@new.example/f"))
    #expect(moved?.contains("\u{1B}") == false)
    #expect(moved?.contains("\u{7}") == false)
    #expect(moved?.hasSuffix(" (01234567): moved to https://u:***@new.example/f\n") == true)
    #expect(
      RefreshReport.line(for: result(nil, status: .updated, new: 1))
        == "https://user:***@example.com/feed (01234567): 1 new episode\n")
  }

  @Test func summaryForPeople() {
    #expect(
      RefreshReport.summary(of: [result("A", status: .notModified)])
        == "Refreshed 1 podcast: no new episodes.\n")
    #expect(
      RefreshReport.summary(of: [result("A", status: .updated, new: 1)])
        == "Refreshed 1 podcast: 1 new episode.\n")
    #expect(
      RefreshReport.summary(of: [
        result("A", status: .updated, new: 2, changed: 1), result("B", status: .updated, new: 3),
        result("C", status: .moved, movedTo: "https://new.example/f"),
        result("D", status: .failed), result("E", status: .notModified),
      ])
        == "Refreshed 5 podcasts: 5 new episodes in 2 podcasts, 1 episode changed, 1 moved, 1 failed.\n"
    )
  }

  @Test func progressLine() {
    #expect(
      RefreshProgress.line(done: 3, total: 20, failed: 0, current: "Show", width: 80)
        == "Refreshing 3/20: Show")
    #expect(
      RefreshProgress.line(done: 20, total: 20, failed: 2, current: nil, width: 80)
        == "Refreshing 20/20, 2 failed")
    #expect(
      RefreshProgress.line(done: 3, total: 20, failed: 1, current: "A long title", width: 24)
        == "Refreshing 3/20, 1 fai…")
    #expect(
      RefreshProgress.line(done: 1, total: 2, failed: 0, current: "日本語のポッドキャスト", width: 28)
        == "Refreshing 1/2: 日本語のポ…")
  }
}
