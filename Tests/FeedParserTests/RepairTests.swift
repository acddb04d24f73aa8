import Foundation
import PodcastModel
import Testing

@testable import FeedParser

/// Malformed XML that real feeds carry: each case's data must come out intact. RSS text is
/// HTML in the model, so a repaired `&` or `<` comes out as the character it stood for.
@Suite struct RepairTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let item: String
    let title: String?
    let enclosureURL: String?
    let warning: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "bare & in text", item: "<title>Tom & Jerry</title>", title: "Tom & Jerry",
      enclosureURL: nil, warning: "unescaped \"&\""),
    Case(
      name: "bare & in a URL",
      item: "<title>t</title><enclosure url=\"https://e.com/a.mp3?a=1&b=2\" type=\"audio/mpeg\"/>",
      title: "t", enclosureURL: "https://e.com/a.mp3?a=1&b=2", warning: "unescaped \"&\""),
    Case(
      name: "bare & deep in a long URL",
      item:
        "<title>t</title><enclosure url=\"https://e.com/\(String(repeating: "path/", count: 9))"
        + "a.mp3?a=1&b=2&c=3\" type=\"audio/mpeg\"/>",
      title: "t",
      enclosureURL: "https://e.com/\(String(repeating: "path/", count: 9))a.mp3?a=1&b=2&c=3",
      warning: "2 unescaped \"&\""),
    Case(
      name: "unescaped < deep in a long single-quoted value",
      item:
        "<title>t</title><enclosure url='https://e.com/\(String(repeating: "path/", count: 9))"
        + "a.mp3?q=a<b' type='audio/mpeg'/>",
      title: "t", enclosureURL: "https://e.com/\(String(repeating: "path/", count: 9))a.mp3?q=a<b",
      warning: "unescaped \"<\""),
    Case(
      name: "escaped & in a URL",
      item:
        "<title>t</title>"
        + "<enclosure url=\"https://e.com/a.mp3?a=1&amp;b=2\" type=\"audio/mpeg\"/>",
      title: "t", enclosureURL: "https://e.com/a.mp3?a=1&b=2", warning: ""),
    Case(
      name: "HTML entities", item: "<title>caf&eacute;&nbsp;&rsquo;s</title>",
      title: "caf\u{e9}\u{a0}\u{2019}s", enclosureURL: nil, warning: "&eacute; &nbsp; &rsquo;"),
    Case(
      name: "unknown entity", item: "<title>a &bogus; b</title>", title: "a &bogus; b",
      enclosureURL: nil, warning: "&bogus;"),
    Case(
      name: "stray end tag", item: "<title>Hello</b> world</title><guid>1</guid>",
      title: "Hello</b> world", enclosureURL: nil, warning: "</b>"),
    Case(
      name: "unescaped <", item: "<title>a < b</title>", title: "a < b", enclosureURL: nil,
      warning: "unescaped \"<\""),
    Case(
      name: "unclosed HTML inside a field",
      item: "<description>one<br>two</description><title>t</title>",
      title: "t", enclosureURL: nil, warning: "<br>"),
    Case(
      name: "Windows-1252 character reference", item: "<title>it&#146;s</title>",
      title: "it\u{2019}s", enclosureURL: nil, warning: ""),
    Case(
      name: "control characters", item: "<title>a\u{01}b\u{0B}c</title>", title: "abc",
      enclosureURL: nil, warning: "control characters"),
    Case(
      name: "invalid character reference", item: "<title>a&#0;b</title>", title: "a\u{FFFD}b",
      enclosureURL: nil, warning: "invalid characters"),
  ]

  @Test(arguments: cases)
  func dataSurvivesRepair(testCase: Case) throws {
    let document =
      "<rss version=\"2.0\"><channel><title>c</title><item>\(testCase.item)</item></channel></rss>"
    let podcast = try FeedParser.parse(Data(document.utf8))
    #expect(podcast.title == "c")
    let episode = try #require(podcast.episodes.first)
    #expect(podcast.episodes.count == 1)
    #expect(episode.title == testCase.title)
    #expect(episode.enclosure?.url == testCase.enclosureURL)
    if testCase.warning.isEmpty {
      #expect(podcast.warnings.isEmpty, "\(podcast.warnings)")
    } else {
      #expect(podcast.warnings.contains { $0.contains(testCase.warning) }, "\(podcast.warnings)")
    }
  }

  /// Every case above, cut at every byte: chunk boundaries must not change the result.
  @Test(arguments: cases)
  func chunkBoundariesDoNotMatter(testCase: Case) throws {
    let document = Data(
      ("\n\n<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>c</title><item>"
        + testCase.item + "</item></channel></rss>").utf8)
    let whole = try FeedParser.parse(document)
    for cut in 1..<document.count {
      let parser = FeedParser()
      try parser.feed(document[..<cut])
      try parser.feed(document[cut...])
      let split = try parser.finish()
      #expect(split.episodes == whole.episodes, "cut at \(cut)")
    }
  }

  /// Each repair is reported once, however many kinds a feed needs.
  @Test(
    arguments: TestFiles.files(under: TestFiles.sampleFeeds).filter { $0.pathExtension != "md" })
  func noWarningIsRepeated(file: URL) throws {
    let podcast = try FeedParser.parse(Data(contentsOf: file), baseURL: file.absoluteString)
    #expect(Set(podcast.warnings).count == podcast.warnings.count, "\(podcast.warnings)")
  }

  @Test func junkBeforeTheDeclarationIsSkipped() throws {
    let document =
      "\n\n   <?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>c</title></channel></rss>"
    let podcast = try FeedParser.parse(Data(document.utf8))
    #expect(podcast.title == "c")
  }

  @Test func contentAfterTheRootIsIgnored() throws {
    let document = "<rss version=\"2.0\"><channel><title>c</title></channel></rss><p>junk</p>"
    let podcast = try FeedParser.parse(Data(document.utf8))
    #expect(podcast.title == "c")
    #expect(podcast.warnings.contains { $0.contains("after the feed") })
  }
}
