import Foundation
import Testing

@testable import FeedParser
@testable import FeedViews

/// What OPMLWriter writes, OPMLReader reads back: every title and URL, whatever it holds.
@Suite struct OPMLRoundTripTests {
  /// A title as written, and as read back: whitespace collapsed, what XML cannot carry gone.
  static let titles: [(written: String, read: String?)] = [
    ("Plain", "Plain"),
    ("Tom & Jerry <live> \"quoted\" 'single'", "Tom & Jerry <live> \"quoted\" 'single'"),
    ("&amp; &lt;b&gt; &#x27; &nbsp;", "&amp; &lt;b&gt; &#x27; &nbsp;"),
    ("tab\there\nnewline  double", "tab here newline double"),
    (
      "no-break\u{A0}space, ideographic\u{3000}space",
      "no-break\u{A0}space, ideographic\u{3000}space"
    ),
    ("bell\u{7}nul\u{0}esc\u{1B}[1m", "bellnulesc[1m"),
    ("Größe 日本語 🎧 עברית \u{FFFD}", "Größe 日本語 🎧 עברית \u{FFFD}"),
    ("non\u{FFFE}characters\u{FFFF}", "noncharacters"),
    ("]]> <![CDATA[ x ]]>", "]]> <![CDATA[ x ]]>"),
    ("<!-- comment --> <?pi?> <!DOCTYPE x>", "<!-- comment --> <?pi?> <!DOCTYPE x>"),
    ("", nil),
  ]

  @Test(arguments: titles.indices)
  func title(index: Int) throws {
    let (written, read) = Self.titles[index]
    let url = "https://example.com/feed/\(index)"
    let data = Data(
      OPMLWriter(title: written, dateCreated: Date()).document([
        OPMLWriter.Feed(title: written, feedURL: url, siteURL: "https://example.com/")
      ]))
    let document = try OPMLReader.read(data)
    #expect(document.warnings == [])
    #expect(document.title == read)
    #expect(
      document.entries == [
        OPMLEntry(url: url, title: read, htmlUrl: "https://example.com/", folders: [])
      ])
  }

  @Test(arguments: [
    "https://e.example/feed?a=1&b=2&amp;c=<3>&d=\"4\"",
    "https://user:pa%40ss@e.example/private/feed.xml",
    "http://[::1]:8080/feed",
    "https://xn--grsse-lva.example/f%C3%BCr/feed",
    "https://e.example/\u{00FC}ber/feed",
    "https://e.example/feed#fragment",
  ])
  func url(url: String) throws {
    let data = Data(
      OPMLWriter(dateCreated: Date()).document([OPMLWriter.Feed(title: "t", feedURL: url)]))
    let document = try OPMLReader.read(data)
    #expect(document.warnings == [])
    #expect(document.entries.map(\.url) == [url])
  }

  @Test func manyFeedsKeepTheirOrder() throws {
    let feeds = (0..<500).map {
      OPMLWriter.Feed(title: "Feed \($0) & more", feedURL: "https://e\($0).example/rss")
    }
    let document = try OPMLReader.read(Data(OPMLWriter(dateCreated: Date()).document(feeds)))
    #expect(document.entries.map(\.url) == feeds.map(\.feedURL))
    #expect(document.entries.map(\.title) == feeds.map(\.title))
  }
}
