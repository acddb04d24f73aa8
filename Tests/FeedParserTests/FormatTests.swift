import Foundation
import PodcastModel
import Testing

@testable import FeedParser

/// Formats, namespaces and encodings, each shown by a file of feedparser's own test suite.
@Suite struct FormatTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let file: String
    let format: FeedFormat
    let check: @Sendable (Podcast) -> Bool
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    Case(file: "wellformed/rss/rss_namespace_1.xml", format: .rss2) {
      $0.description == "Example description"
    },
    Case(file: "wellformed/rss/rss_namespace_3.xml", format: .rss2) { _ in true },
    Case(file: "wellformed/atom/atom_namespace_2.xml", format: .atom03) {
      $0.title == "Example Atom"
    },
    Case(file: "wellformed/rss/rss_version_090.xml", format: .rss09x) { _ in true },
    Case(file: "wellformed/rss/rss_version_091_netscape.xml", format: .rss09x) { _ in true },
    Case(file: "wellformed/rss/rss_version_20.xml", format: .rss2) { _ in true },
    Case(file: "wellformed/rdf/rss090_channel_title.xml", format: .rss09x) {
      $0.title == "Example title"
    },
    Case(file: "wellformed/rdf/rss_version_10.xml", format: .rss1) { _ in true },
    Case(file: "wellformed/atom10/feed_title.xml", format: .atom10) {
      $0.title == "Example Atom"
    },
    Case(file: "wellformed/atom/feed_title.xml", format: .atom03) { $0.title == "Example Atom" },
    Case(file: "encoding/utf-32be-autodetect.xml", format: .rss2) { _ in true },
    Case(file: "encoding/utf-32le.xml", format: .rss2) { _ in true },
    Case(file: "entities/hex_entity_x_uppercase.xml", format: .atom03) {
      $0.episodes.first?.title == "A"
    },
    Case(file: "wellformed/psc/rss2.0simplechapter.xml", format: .rss2) {
      $0.link == "http://podlove.org/"
        && $0.episodes.first?.enclosure?.url == "http://podlove.org/files/fiatlux.mp3"
    },
    Case(file: "wellformed/rdf/rdf_item_title.xml", format: .rss1) {
      $0.episodes.first?.guid == "http://example.com/1"
    },
    Case(file: "wellformed/media-rss/media_group.xml", format: .atom03) {
      $0.episodes.first?.description == "Test Description"
    },
    Case(file: "wellformed/itunes/itunes_channel_owner_name.xml", format: .rss2) {
      $0.author == "Mark Pilgrim"
    },
    Case(file: "wellformed/rss/channel_dc_creator_map_author_detail_email.xml", format: .rss2) {
      $0.author == "Example editor"
    },
    Case(file: "wellformed/rss/item_dcterms_issued.xml", format: .rss2) {
      $0.episodes.first?.published == Date(timeIntervalSince1970: 1_072_865_695)
    },
    Case(file: "wellformed/rss/item_dc_title.xml", format: .rss2) {
      $0.episodes.first?.title == "Example title"
    },
    Case(file: "wellformed/sanitize/item_body_applet.xml", format: .rss2) {
      $0.episodes.first?.description?.hasPrefix("safe<applet") == true
    },
    Case(file: "wellformed/atom10/entry_title_base64.xml", format: .atom10) {
      $0.episodes.first?.title == "Example &lt;b&gt;Atom&lt;/b&gt;"
    },
    Case(file: "wellformed/atom/entry_content_mode_base64.xml", format: .atom03) {
      $0.episodes.first?.description == "Example <b>Atom</b>"
    },
  ]

  @Test(arguments: cases)
  func readsFormat(testCase: Case) throws {
    let url = TestFiles.corpusFile("feedparser/" + testCase.file)
    let podcast = try FeedParser.parse(Data(contentsOf: url))
    #expect(podcast.format == testCase.format)
    #expect(testCase.check(podcast), "\(podcast)")
  }

  /// Relative and protocol-relative URLs: `//host` takes the feed's scheme (https for a file).
  @Test(arguments: [
    (
      "https://feeds.example.com/show/feed.xml", "https://cdn.example.com/a.mp3",
      "https://feeds.example.com/show/b.mp3"
    ),
    (
      "http://feeds.example.com/show/feed.xml", "http://cdn.example.com/a.mp3",
      "http://feeds.example.com/show/b.mp3"
    ),
    (nil, "https://cdn.example.com/a.mp3", "b.mp3"),
  ])
  func relativeURLsAreResolved(feedURL: String?, protocolRelative: String, relative: String) throws
  {
    let document = """
      <rss version="2.0"><channel><title>t</title>
      <item><guid>1</guid><enclosure url="//cdn.example.com/a.mp3" type="audio/mpeg"/></item>
      <item><guid>2</guid><enclosure url=" b.mp3 " type="audio/mpeg"/></item>
      </channel></rss>
      """
    let podcast = try FeedParser.parse(Data(document.utf8), feedURL: feedURL)
    #expect(podcast.episodes.map { $0.enclosure?.url } == [protocolRelative, relative])
  }

  @Test func undeclaredWellKnownPrefixesAreRead() throws {
    let url = TestFiles.corpusFile("podcasts/radiofeed-rss_mock_small.xml")
    let podcast = try FeedParser.parse(Data(contentsOf: url))
    #expect(podcast.author == "ABC News")
    #expect(podcast.episodes.first?.duration == 253)
    #expect(podcast.warnings.contains { $0.contains("\"itunes:\" used without a declaration") })
  }

  static let notFeeds: [(String, String)] = [
    ("<!DOCTYPE html><html><head><title>x</title></head><body>hi</body></html>", "HTML page"),
    ("<opml version=\"2.0\"><body/></opml>", "OPML"),
    ("{\"title\": \"json\"}", "JSON"),
    ("just a line of text\n", "no XML element"),
    ("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "<svg>"),
  ]

  @Test(arguments: notFeeds)
  func documentsThatAreNotFeedsAreRefused(document: String, reason: String) {
    #expect {
      try FeedParser.parse(Data(document.utf8))
    } throws: { error in
      guard let error = error as? FeedParseError else { return false }
      return "\(error)".hasPrefix("not a feed") && "\(error)".contains(reason)
    }
  }

  @Test(arguments: [Data(), Data("  \n\t ".utf8)])
  func emptyInputIsRefused(data: Data) {
    #expect(throws: FeedParseError.empty) { try FeedParser.parse(data) }
  }

  @Test func binaryInputIsRefused() {
    var generator = SeededRandom(seed: 7)
    let bytes = Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) })
    #expect(throws: FeedParseError.self) { try FeedParser.parse(bytes) }
  }
}
