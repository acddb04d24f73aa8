import Foundation
import PodcastModel
import Testing

@testable import FeedParser

@Suite struct SecurityTests {
  static let passwdFirstLine: String = {
    let text = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
    return String(text.prefix { $0 != "\n" })
  }()

  static let externalEntityDocuments = [
    """
    <?xml version="1.0"?>
    <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
    <rss version="2.0"><channel><title>&xxe;</title>
    <item><title>a &xxe; b</title><description>&xxe;</description></item></channel></rss>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE rss [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
    <rss version="2.0"><channel><title>t</title><item><title>x</title></item></channel></rss>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE rss SYSTEM "file:///etc/passwd">
    <rss version="2.0"><channel><title>t</title><item><title>x</title></item></channel></rss>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE rss [<!ENTITY % d SYSTEM "file:///etc/passwd"><!ENTITY % e "<!ENTITY leak '%d;'>"> %e;]>
    <rss version="2.0"><channel><title>&leak;</title><item><title>x</title></item></channel></rss>
    """,
  ]

  @Test(arguments: externalEntityDocuments)
  func externalEntitiesAreNeverLoaded(document: String) throws {
    let podcast = try? FeedParser.parse(Data(document.utf8))
    let everything = podcast.map { String(describing: $0) } ?? ""
    #expect(!everything.contains(Self.passwdFirstLine))
    #expect(!everything.contains("root:"))
  }

  @Test func billionLaughsIsRefusedQuickly() throws {
    var doctype = "<!ENTITY lol0 \"lol\">"
    for level in 1...9 {
      let uses = String(repeating: "&lol\(level - 1);", count: 10)
      doctype += "<!ENTITY lol\(level) \"" + uses + "\">"
    }
    let document = """
      <?xml version="1.0"?><!DOCTYPE rss [\(doctype)]>
      <rss version="2.0"><channel><title>&lol9;</title><item><title>x</title></item></channel></rss>
      """
    let clock = ContinuousClock()
    let started = clock.now
    #expect(throws: FeedParseError.entityExpansion) { try FeedParser.parse(Data(document.utf8)) }
    // A generous bound: the refusal takes milliseconds; expansion would take minutes.
    #expect(clock.now - started < .seconds(5))
  }

  @Test func quadraticBlowupStaysBounded() throws {
    let big = String(repeating: "x", count: 100_000)
    let uses = String(repeating: "&big;", count: 5_000)
    let document = """
      <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY big "\(big)">]>
      <rss version="2.0"><channel><title>t</title><item><title>\(uses)</title></item></channel></rss>
      """
    let podcast = try? FeedParser.parse(Data(document.utf8))
    let title = podcast?.episodes.first?.title ?? ""
    #expect(title.utf8.count <= FeedBuilder.maxFieldBytes)
  }

  @Test func hugeTextNodeIsCutNotHeld() throws {
    let parser = FeedParser()
    try parser.feed(Data("<rss version=\"2.0\"><channel><item><title>".utf8))
    let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
    for _ in 0..<100 { try parser.feed(block) }
    try parser.feed(Data("</title><guid>g</guid></item></channel></rss>".utf8))
    let podcast = try parser.finish()
    #expect(podcast.episodes.count == 1)
    #expect(podcast.episodes[0].guid == "g")
    #expect((podcast.episodes[0].title?.utf8.count ?? 0) <= FeedBuilder.maxFieldBytes)
    #expect(podcast.warnings.contains { $0.contains("cut") })
  }

  @Test func deepNestingEndsWithoutCrashing() throws {
    let depth = 100_000
    let document =
      "<rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid></item>"
      + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
      + "</channel></rss>"
    let podcast = try FeedParser.parse(Data(document.utf8))
    #expect(podcast.title == "t")
    #expect(podcast.episodes.count == 1)
  }
}
