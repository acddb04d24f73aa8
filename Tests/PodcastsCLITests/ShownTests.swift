import Foundation
import Testing

@testable import PodcastsCLI

@Suite("Catalog values as printed")
struct ShownTests {
  @Test(arguments: [
    ("no URL at all", "no URL at all"),
    ("https://host/feed", "https://host/feed"),
    ("https://user:pw@host/feed", "https://user:***@host/feed"),
    (
      "cannot fetch 'https://user:pw@host/feed': HTTP 500",
      "cannot fetch 'https://user:***@host/feed': HTTP 500"
    ),
    ("(http://a:b@h:8080/x?y=1)", "(http://a:***@h:8080/x?y=1)"),
    ("error:http://a:b@h/x", "error:http://a:***@h/x"),
    ("two\thttp://a:b@h/1\nhttp://c:d@i/2 end", "two\thttp://a:***@h/1\nhttp://c:***@i/2 end"),
    ("user only http://a@h/x", "user only http://a@h/x"),
    ("mail me@example.com about ftp://x", "mail me@example.com about ftp://x"),
    ("bare ://a:b@h", "bare ://a:b@h"),
  ])
  func passwordsInTextAreMasked(text: String, expected: String) {
    #expect(Shown.maskingCredentials(inText: text) == expected)
  }

  @Test(arguments: [
    ([], 8), (["1dee190e-aaaa"], 8), (["1dee190e-aaaa", "1dee190f-aaaa"], 8),
    (["1dee190e-aaaa", "1DEE190E-abaa", "0"], 11), (["abcd1234-0", "abcd1234-1", "abcd"], 10),
  ])
  func idsAreShortenedToStayUnique(ids: [String], length: Int) {
    #expect(Shown.shortIDLength(ids) == length)
  }

  /// Status lines show a title up to 100 columns, cut with `…`; wide characters count
  /// twice. The whole title stays for `show`, the tables and the JSON.
  @Test(arguments: [
    ("Short &amp; sweet", "Short & sweet"),
    (String(repeating: "a", count: 100), String(repeating: "a", count: 100)),
    (String(repeating: "a", count: 101), String(repeating: "a", count: 99) + "…"),
    (String(repeating: "日", count: 60), String(repeating: "日", count: 49) + "…"),
    (String(repeating: "<b>x</b>", count: 300), String(repeating: "x", count: 99) + "…"),
  ])
  func statusLinesCutLongTitles(markup: String, expected: String) {
    #expect(Shown.statusTitle(markup) == expected)
  }

  @Test func warningsAndErrorsAreCutToTheLongestMessage() {
    let title = String(repeating: "t", count: 1 << 20)
    let console = Console.capturing(environment: [:], stdoutIsTerminal: false, now: { .now })
    console.warning("two episodes share the title " + title)
    console.error("failed:\n" + title)
    let lines = console.stderr.capturedText.split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      #expect(line.count <= "podcasts: warning: ".count + Console.longestMessage)
      #expect(line.hasSuffix("t…"))
    }
  }

  @Test func messagesAreOneSafeLine() {
    #expect(
      Shown.message("a\u{1B}]0;title\u{07}b\nc https://u:p@h/") == "ab c https://u:***@h/")
  }
}
