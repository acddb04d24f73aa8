import Foundation
import Testing

@testable import FeedViews

@Suite struct OPMLWriterTests {
  @Test func wholeDocument() {
    let writer = OPMLWriter(dateCreated: Date(timeIntervalSince1970: 1_709_647_620))
    let text = String(
      decoding: writer.document([
        OPMLWriter.Feed(
          title: "Tom & Jerry", feedURL: "https://e.example/feed?a=1&b=2",
          siteURL: "https://e.example/"),
        OPMLWriter.Feed(title: nil, feedURL: "https://untitled.example/rss"),
        OPMLWriter.Feed(title: "", feedURL: "https://blank.example/rss", siteURL: ""),
      ]), as: UTF8.self)
    #expect(
      text == """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head>
            <title>podcasts subscriptions</title>
            <dateCreated>Tue, 05 Mar 2024 14:07:00 GMT</dateCreated>
          </head>
          <body>
            <outline type="rss" text="Tom &amp; Jerry" title="Tom &amp; Jerry" xmlUrl="https://e.example/feed?a=1&amp;b=2" htmlUrl="https://e.example/"/>
            <outline type="rss" text="https://untitled.example/rss" xmlUrl="https://untitled.example/rss"/>
            <outline type="rss" text="https://blank.example/rss" xmlUrl="https://blank.example/rss"/>
          </body>
        </opml>

        """)
  }

  @Test func noSubscriptions() {
    let text = String(
      decoding: OPMLWriter(title: "Mine <3", dateCreated: Date(timeIntervalSince1970: 0))
        .document([]), as: UTF8.self)
    #expect(text.contains("<title>Mine &lt;3</title>"))
    #expect(text.contains("<dateCreated>Thu, 01 Jan 1970 00:00:00 GMT</dateCreated>"))
    #expect(text.hasSuffix("  <body>\n  </body>\n</opml>\n"))
  }

  @Test(arguments: [
    ("plain", "plain"),
    ("a & b < c > d \"e\" 'f'", "a &amp; b &lt; c &gt; d &quot;e&quot; 'f'"),
    ("tab\tline\nreturn\r", "tab&#9;line&#10;return&#13;"),
    ("nul\u{0}bell\u{7}esc\u{1B}[31m", "nulbellesc[31m"),
    ("del\u{7F} c1\u{85}", "del\u{7F} c1\u{85}"),
    ("nonchars \u{FFFE}\u{FFFF} kept \u{FFFD}\u{EFBF}", "nonchars  kept \u{FFFD}\u{EFBF}"),
    ("Größe 日本語 🎧 עברית", "Größe 日本語 🎧 עברית"),
    ("already &amp; escaped", "already &amp;amp; escaped"),
  ])
  func escaping(input: String, expected: String) {
    var out: [UInt8] = []
    OPMLWriter.appendEscaped(input, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == expected)
  }

  @Test(arguments: [
    (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"),
    (1_709_647_620.9, "Tue, 05 Mar 2024 14:07:00 GMT"),
    (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
    (-1.0, "Wed, 31 Dec 1969 23:59:59 GMT"),
    (-2_208_988_800, "Mon, 01 Jan 1900 00:00:00 GMT"),
    (-62_135_596_800, "Mon, 01 Jan 0001 00:00:00 GMT"),
    (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
  ])
  func rfc822Dates(seconds: Double, expected: String) {
    #expect(OPMLWriter.rfc822(Date(timeIntervalSince1970: seconds)) == expected)
  }

  @Test func datesOutsideFourDigitYearsAreLeftOut() {
    let date = Date(timeIntervalSince1970: 253_402_300_800)
    #expect(OPMLWriter.rfc822(date) == nil)
    let text = String(decoding: OPMLWriter(dateCreated: date).document([]), as: UTF8.self)
    #expect(!text.contains("dateCreated"))
  }
}
