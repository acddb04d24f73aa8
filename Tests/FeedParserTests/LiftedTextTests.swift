import Foundation
import PodcastModel
import Testing

@testable import FeedParser

/// Long text and CDATA sections reach the builder beside libxml2 (``LiftedText``): the
/// podcast, its warnings and the line numbers in them must be those of a parse that leaves
/// every byte to libxml2.
@Suite struct LiftedTextTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    /// What goes inside the item's description, in the middle of long text.
    let twist: String
    /// Whether the runs holding the twist are lifted whole (libxml2 would deliver them
    /// unchanged); nil when the repair stage edits the twist out first.
    let lifted: Bool?
    var testDescription: String { name }
  }

  static let filler = String(repeating: "Words that make the run long enough. ", count: 3)

  static let cases: [Case] = [
    Case(name: "plain", twist: "", lifted: true),
    Case(name: "line feeds", twist: "one\ntwo\n\nthree", lifted: true),
    Case(name: "non-ASCII", twist: "caf\u{e9} \u{2019} \u{4e2d}\u{ff0c} \u{1F399}", lifted: true),
    Case(name: "carriage returns", twist: "one\r\ntwo\rthree", lifted: false),
    Case(name: "U+FFFF", twist: "a\u{FFFF}b", lifted: false),
    Case(name: "U+FFFE", twist: "a\u{FFFE}b", lifted: false),
    Case(name: "control character", twist: "a\u{01}b", lifted: nil),
    Case(name: "square brackets", twist: "[a] ]] ]>", lifted: true),
  ]

  static func document(_ body: String) -> Data {
    Data(
      ("<?xml version=\"1.0\"?>\n<rss version=\"2.0\">\n<channel>\n<title>c</title>\n"
        + "<item><guid>1</guid>\n\(body)\n</item>\n"
        + "<item><guid>2</guid><title>\u{FFFF} makes libxml2 report a line</title></item>\n"
        + "</channel>\n</rss>\n").utf8)
  }

  static func bodies(_ testCase: Case) -> [String] {
    let text = filler + testCase.twist + filler
    return [
      "<description><![CDATA[<p>\(text)</p>]]></description>",
      "<description>\(text.replacingOccurrences(of: "]]>", with: "]]&gt;"))</description>",
      "<itunes:summary xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">"
        + "\(text)&amp;\(text)</itunes:summary>",
      "<description>\(text)<![CDATA[\(text)]]>\(text)</description>",
    ]
  }

  static func parse(_ document: Data, liftingText: Bool, chunk: Int) throws -> Podcast {
    let parser = FeedParser(feedURL: nil, baseURL: nil, liftingText: liftingText, onEpisode: nil)
    var offset = 0
    while offset < document.count {
      let end = min(document.count, offset + chunk)
      try parser.feed(document[offset..<end])
      offset = end
    }
    return try parser.finish()
  }

  @Test(arguments: cases)
  func liftingChangesNothing(testCase: Case) throws {
    for body in Self.bodies(testCase) {
      let document = Self.document(body)
      let expected = try Self.parse(document, liftingText: false, chunk: document.count)
      // The error after the description gives a line number, which must not move.
      #expect(expected.warnings.contains { $0.contains("first at line ") })
      for chunk in [document.count, 4096, 97, 13, 1] {
        let podcast = try Self.parse(document, liftingText: true, chunk: chunk)
        #expect(podcast == expected, "\(testCase.name), chunks of \(chunk): \(body)")
      }
    }
  }

  /// The cases that libxml2 would deliver unchanged are lifted, the others are left to it.
  @Test(arguments: cases.filter { $0.lifted != nil })
  func liftsWhatLibxml2WouldDeliverUnchanged(testCase: Case) {
    let text = Self.filler + testCase.twist + Self.filler
    var repair = MarkupRepair(liftingText: true)
    var output: [UInt8] = []
    var liftedRuns: [String] = []
    Data(
      ("<rss><channel><description>" + text + "</description><description><![CDATA[" + text
        + "]]></description></channel></rss>").utf8
    ).withUnsafeBytes { input in
      repair.process(input, final: true) { bytes, lifted in
        output.append(contentsOf: bytes)
        liftedRuns += lifted.runs.map { String(decoding: lifted.bytes(of: $0), as: UTF8.self) }
        #expect(lifted.firstNumber == 0)
      }
    }
    let repaired = String(decoding: output, as: UTF8.self)
    if testCase.lifted == true {
      #expect(liftedRuns == [text, text])
      let lineFeeds = String(repeating: "\n", count: text.filter { $0 == "\n" }.count)
      #expect(
        repaired
          == "<rss><channel><description><?podcasts-lifted 0\(lineFeeds)?></description>"
          + "<description><?podcasts-lifted 1\(lineFeeds)?></description></channel></rss>")
    } else {
      #expect(liftedRuns.isEmpty)
      #expect(!repaired.contains("podcasts-lifted"))
    }
  }

  /// Instructions named as this parser's own but written in the feed lack the document's
  /// token: the item around one is kept, and a lifted run still goes where its own
  /// instruction stands, with lifting on and off.
  @Test(arguments: [true, false])
  func instructionsWrittenInTheFeedAreNotTheParsersOwn(liftingText: Bool) throws {
    let long = (Self.filler + Self.filler).trimmingCharacters(in: .whitespaces)
    let document = Data(
      """
      <rss version="2.0"><channel><title>c</title>
      <item><guid>1</guid><title>one<?podcasts-lifted 0?><?podcasts-lifted  1?></title>
      <description><![CDATA[\(long)]]></description></item>
      <item><guid>2</guid><title>two</title><?podcasts-end-of-input?>
      <?podcasts-end-of-input 0?><description>\(long)</description></item>
      </channel></rss>
      """.utf8)
    for chunk in [document.count, 64, 7] {
      let podcast = try Self.parse(document, liftingText: liftingText, chunk: chunk)
      #expect(podcast.episodes.map(\.title) == ["one", "two"], "chunks of \(chunk)")
      #expect(podcast.episodes.map(\.description) == [long, long], "chunks of \(chunk)")
      #expect(!podcast.warnings.contains { $0.contains("cut short") }, "\(podcast.warnings)")
    }
  }

  /// Short runs stay in the markup: the instruction would cost libxml2 more than they do.
  @Test func shortRunsStay() {
    var repair = MarkupRepair(liftingText: true)
    var output: [UInt8] = []
    Data("<rss><title>short</title><title><![CDATA[short]]></title></rss>".utf8).withUnsafeBytes {
      repair.process($0, final: true) { bytes, lifted in
        output.append(contentsOf: bytes)
        #expect(lifted.runs.isEmpty)
      }
    }
    #expect(String(decoding: output, as: UTF8.self).contains("<![CDATA[short]]>"))
  }

  /// Attribute values holding references, with what libxml2 treats apart in them.
  static let attributeTwists = [
    "", "&amp;&lt;&gt;&quot;&apos;", "&#38;&#x26;&#233;&#x1F399;", "caf\u{e9}", "&nbsp;",
    "&#146;", "&#X41;", "&#0;", "&bogus;", "bare & ampersand", "less < than", "tab\there",
    "line\nfeed", "carriage\r\nreturn", "\u{FFFF}",
  ]

  static func attributeDocument(_ twist: String, prologue: String = "") -> Data {
    let url: String =
      "https://example.com/" + String(repeating: "path/", count: 12) + "a.mp3?x=1&amp;y="
    let head: String =
      "<?xml version=\"1.0\"?>\n\(prologue)<rss version=\"2.0\" xmlns:z=\"\(url)2\">"
    let first: String =
      "<item><guid>1</guid><enclosure url=\"\(url)\(twist)\" type='audio/mpeg'/>"
      + "<description>&lt;a href=\"\(url)3\"&gt;x&lt;/a&gt;</description></item>\n"
    let second: String =
      "<item><guid>2</guid><enclosure url='\(url)\(twist)' length=\"12\"/>"
      + "<z:x z:y=\"\(url)\"/></item>\n"
    return Data(
      (head + "<channel>\n<title>c</title>\n" + first + second + "</channel>\n</rss>\n").utf8)
  }

  @Test(arguments: attributeTwists)
  func liftingAttributesChangesNothing(twist: String) throws {
    for prologue in ["", "<!DOCTYPE rss [<!ENTITY e \"entity\">]>\n"] {
      let document = Self.attributeDocument(twist, prologue: prologue)
      let expected = try Self.parse(document, liftingText: false, chunk: document.count)
      // libxml2 gives up on the item holding U+FFFF.
      #expect(expected.episodes.count == (twist == "\u{FFFF}" ? 1 : 2))
      for chunk in [document.count, 4096, 97, 13] {
        let podcast = try Self.parse(document, liftingText: true, chunk: chunk)
        #expect(podcast == expected, "chunks of \(chunk): \(twist)")
      }
    }
  }

  /// A value that a feed writes to look like a lifted one stays what it is: the mark is
  /// random for each document.
  @Test func aValueCannotPassForALiftedOne() throws {
    let url = "https://example.com/" + String(repeating: "path/", count: 12) + "a.mp3?x=1&amp;y=2"
    let document = Data(
      ("<rss version=\"2.0\"><channel><title>c</title><item><guid>1</guid>"
        + "<enclosure url=\"\(url)\" type=\"audio/mpeg\"/></item><item><guid>2</guid>"
        + "<enclosure url=\"podcasts-lifted-0-0\" type=\"audio/mpeg\"/></item></channel></rss>")
        .utf8)
    let podcast = try Self.parse(document, liftingText: true, chunk: document.count)
    #expect(
      podcast.episodes.map { $0.enclosure?.url }
        == [url.replacingOccurrences(of: "&amp;", with: "&"), "podcasts-lifted-0-0"])
  }

  @Test(arguments: TestFiles.files(under: TestFiles.corpusFile("podcasts")))
  func corpusFeedsComeOutTheSame(file: URL) throws {
    let document = try Data(contentsOf: file)
    let expected = try Self.parse(document, liftingText: false, chunk: document.count)
    #expect(try Self.parse(document, liftingText: true, chunk: 65536) == expected)
  }
}
