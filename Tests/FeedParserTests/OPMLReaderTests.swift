import Foundation
import Testing

@testable import FeedParser

/// OPML as podcast apps and feed readers write it, clean and broken: what each case yields.
@Suite struct OPMLReaderTests {
  /// One feed expected, as `url | title | folder/folder`.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let entries: [String]
    /// Fragments that must each appear in some warning; empty: no warning at all.
    let warnings: [String]
    var testDescription: String { name }

    init(_ name: String, _ document: String, _ entries: [String], warnings: [String] = []) {
      self.init(name, bytes: Array(document.utf8), entries, warnings: warnings)
    }

    init(_ name: String, bytes: [UInt8], _ entries: [String], warnings: [String] = []) {
      self.name = name
      self.bytes = bytes
      self.entries = entries
      self.warnings = warnings
    }
  }

  static func opml(_ body: String, version: String = "2.0") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <opml version="\(version)"><head><title>Subscriptions</title></head>
    <body>
    \(body)
    </body></opml>
    """
  }

  static let cases: [Case] = [
    Case(
      "OPML 2.0, flat",
      opml(
        """
        <outline type="rss" text="One" title="One" xmlUrl="https://one.example/feed" htmlUrl="https://one.example/"/>
        <outline type="rss" text="Two" xmlUrl="http://two.example/rss.xml"/>
        """),
      ["https://one.example/feed | One | ", "http://two.example/rss.xml | Two | "]),
    Case(
      "OPML 1.0, text only, no type",
      opml(
        #"<outline text="Old &amp; Gold" xmlUrl="https://old.example/feed"></outline>"#,
        version: "1.0"),
      ["https://old.example/feed | Old & Gold | "]),
    Case(
      "nested folders",
      opml(
        """
        <outline text="Tech" title="Tech">
          <outline text="Swift">
            <outline type="rss" text="Swift Talk" xmlUrl="https://swift.example/feed"/>
          </outline>
          <outline type="rss" text="Linux" xmlUrl="https://linux.example/feed"/>
        </outline>
        <outline type="rss" text="Top" xmlUrl="https://top.example/feed"/>
        """),
      [
        "https://swift.example/feed | Swift Talk | Tech/Swift",
        "https://linux.example/feed | Linux | Tech", "https://top.example/feed | Top | ",
      ]),
    Case(
      "attribute names in any case",
      opml(
        """
        <outline TYPE="RSS" TEXT="a" xmlurl="https://a.example/feed"/>
        <outline Type="rss" Title="b" XMLURL="https://b.example/feed"/>
        <outline text="c" XmlUrl="https://c.example/feed" HTMLURL="https://c.example/"/>
        """),
      [
        "https://a.example/feed | a | ", "https://b.example/feed | b | ",
        "https://c.example/feed | c | ",
      ]),
    Case(
      "title preferred to text, which may be a description",
      opml(
        #"<outline type="rss" text="A weekly show about design." title="99% Invisible" xmlUrl="https://99.example/feed"/>"#
      ),
      ["https://99.example/feed | 99% Invisible | "]),
    Case(
      "type missing, rss, link or other",
      opml(
        """
        <outline text="none" xmlUrl="https://none.example/feed"/>
        <outline type="link" text="link" xmlUrl="https://link.example/feed"/>
        <outline type="rss" text="url attribute" url="https://url.example/feed"/>
        <outline type="include" text="another list" url="https://lists.example/more.opml"/>
        """),
      [
        "https://none.example/feed | none | ", "https://link.example/feed | link | ",
        "https://url.example/feed | url attribute | ",
      ],
      warnings: [#"outline "another list" has no feed URL: skipped"#]),
    Case(
      "duplicates are read once and reported once",
      opml(
        """
        <outline text="First" xmlUrl="https://dup.example/feed"/>
        <outline text="Other" xmlUrl="https://other.example/feed"/>
        <outline text="Again" xmlUrl="https://dup.example/feed"/>
        <outline text="Folder"><outline text="Third" xmlUrl="http://dup.example/feed/"/></outline>
        """),
      ["https://dup.example/feed | First | ", "https://other.example/feed | Other | "],
      warnings: [#""https://dup.example/feed" is listed 3 times: read once"#]),
    Case(
      "outlines without a URL",
      opml(
        """
        <outline text="Empty folder"/>
        <outline text="Blank URL" type="rss" xmlUrl="  "/>
        <outline text="Folder"><outline text="Feed" xmlUrl="https://f.example/feed"/></outline>
        """),
      ["https://f.example/feed | Feed | Folder"],
      warnings: [
        #"outline "Empty folder" has no feed URL: skipped"#,
        #"outline "Blank URL" has no feed URL: skipped"#,
      ]),
    Case(
      "relative and non-http URLs are skipped",
      opml(
        """
        <outline text="Relative" xmlUrl="hypnogoria.libsyn.com/rss"/>
        <outline text="Rooted" xmlUrl="/feeds/x.xml"/>
        <outline text="FTP" xmlUrl="ftp://user:secret@files.example/feed.xml"/>
        <outline text="Script" xmlUrl="javascript:alert(1)"/>
        <outline text="No host" xmlUrl="http:///feed"/>
        <outline text="Good" xmlUrl=" https://good.example/feed "/>
        """),
      ["https://good.example/feed | Good | "],
      warnings: [
        #"outline "Relative": feed URL "hypnogoria.libsyn.com/rss" skipped: it is relative"#,
        #"outline "Rooted": feed URL "/feeds/x.xml" skipped: it is relative"#,
        #""ftp://user:***@files.example/feed.xml" skipped: not an http or https URL"#,
        #"outline "Script": feed URL "javascript:alert(1)" skipped"#,
        #"outline "No host": feed URL "http:///feed" skipped: not a valid URL"#,
      ]),
    Case(
      "podcast-app schemes",
      opml(
        """
        <outline text="a" xmlUrl="feed://a.example/rss"/>
        <outline text="b" xmlUrl="itpc://b.example/rss"/>
        <outline text="c" xmlUrl="feed:https://c.example/rss"/>
        <outline text="d" xmlUrl="HTTPS://d.example/rss"/>
        """),
      [
        "http://a.example/rss | a | ", "http://b.example/rss | b | ",
        "https://c.example/rss | c | ", "https://d.example/rss | d | ",
      ],
      warnings: [#"feed URL "feed://a.example/rss" read as http://a.example/rss"#]),
    Case(
      "bare & in xmlUrl",
      opml(#"<outline text="Q" xmlUrl="https://q.example/feed?a=1&b=2&amp;c=3"/>"#),
      ["https://q.example/feed?a=1&b=2&c=3 | Q | "], warnings: [#"1 unescaped "&" kept as text"#]),
    Case(
      "entities in the title",
      opml(
        #"<outline text="x" title="Caf&eacute; &amp; Bar&#x27;s &lt;Show&gt; &#146;" xmlUrl="https://e.example/feed"/>"#
      ),
      ["https://e.example/feed | Caf\u{e9} & Bar's <Show> \u{2019} | "],
      warnings: ["HTML entities undeclared in XML decoded: &eacute;"]),
    Case(
      "a title that only repeats the URL is none",
      opml(#"<outline text="https://u.example/feed" xmlUrl="https://u.example/feed"/>"#),
      ["https://u.example/feed |  | "]),
    Case(
      "whitespace in titles collapsed",
      opml("<outline text=\"  Two\n   lines\tand  tabs \" xmlUrl=\"https://w.example/feed\"/>"),
      ["https://w.example/feed | Two lines and tabs | "]),
    Case(
      "empty body", opml(""), []),
    Case(
      "outlines without a body",
      #"<opml version="1.0"><outline text="Loose" xmlUrl="https://loose.example/feed"/></opml>"#,
      ["https://loose.example/feed | Loose | "], warnings: ["1 outline outside <body> read"]),
    Case(
      "outlines in the head are not feeds",
      #"<opml><head><outline text="h" xmlUrl="https://h.example/feed"/></head><body/></opml>"#,
      []),
    Case(
      "a stray end tag and an unclosed outline",
      opml(
        """
        <outline text="Folder"></b>
          <outline text="A" xmlUrl="https://a.example/feed">
        </outline>
        <outline text="B" xmlUrl="https://b.example/feed"/>
        """),
      ["https://a.example/feed | A | Folder", "https://b.example/feed | B | Folder"],
      warnings: ["stray end tags kept as text: </b>", "unclosed elements closed: <outline>"]),
    Case(
      "XML errors the repair stage leaves: a duplicate attribute, an unquoted value",
      opml(
        """
        <outline text="A" text="again" xmlUrl="https://a.example/feed"/>
        <outline text="B" xmlUrl=https://b.example/feed />
        <outline text="C" xmlUrl="https://c.example/feed"/>
        """),
      ["https://a.example/feed | A | ", "https://c.example/feed | C | "],
      warnings: ["XML errors recovered from", "Attribute text redefined"]),
    Case(
      "a file cut short",
      #"<opml version="2.0"><body><outline text="A" xmlUrl="https://a.example/feed"/><outline text="B" xmlU"#,
      ["https://a.example/feed | A | "], warnings: ["XML errors recovered from"]),
    Case(
      "ISO-8859-1 declared, Latin-1 bytes",
      bytes: Array(
        #"<?xml version="1.0" encoding="ISO-8859-1"?><opml><body><outline text="Caf"#.utf8)
        + [0xE9] + Array(#"" xmlUrl="https://l.example/feed"/></body></opml>"#.utf8),
      ["https://l.example/feed | Caf\u{e9} | "]),
    Case(
      "UTF-16 with a byte-order mark",
      bytes: [0xFF, 0xFE]
        + Array(
          #"<?xml version="1.0" encoding="UTF-16"?><opml><body><outline text="Größe" xmlUrl="https://g.example/feed"/></body></opml>"#
            .utf16
        ).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
      ["https://g.example/feed | Größe | "]),
    Case(
      "UTF-8 without a declaration, with a BOM",
      bytes: [0xEF, 0xBB, 0xBF]
        + Array(
          #"<opml><body><outline text="日本語 🎧" xmlUrl="https://j.example/feed"/></body></opml>"#.utf8
        ),
      ["https://j.example/feed | 日本語 🎧 | "]),
  ]

  static func describe(_ entry: OPMLEntry) -> String {
    "\(entry.url) | \(entry.title ?? "") | \(entry.folders.joined(separator: "/"))"
  }

  @Test(arguments: cases)
  func reads(testCase: Case) throws {
    let document = try OPMLReader.read(Data(testCase.bytes))
    #expect(document.entries.map(Self.describe) == testCase.entries)
    if testCase.warnings.isEmpty {
      #expect(document.warnings == [])
    }
    for fragment in testCase.warnings {
      #expect(
        document.warnings.contains { $0.contains(fragment) },
        "no warning with \(fragment) in \(document.warnings)")
    }
    #expect(!document.warnings.joined().contains("secret"))
  }

  @Test func headTitleAndVersion() throws {
    let document = try OPMLReader.read(
      Data(
        #"<opml version=" 1.1 "><head><title> My   <![CDATA[Feeds & more]]> </title><title>second</title></head><body/></opml>"#
          .utf8))
    #expect(document.title == "My Feeds & more")
    #expect(document.version == "1.1")
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let message: String
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ message: String) {
      self.init(name, bytes: Array(text.utf8), message)
    }

    init(_ name: String, bytes: [UInt8], _ message: String) {
      self.name = name
      self.bytes = bytes
      self.message = message
    }
  }

  static let failures: [Failure] = [
    Failure("empty", "", "not an OPML file: the file is empty"),
    Failure("blank", " \n\t\n", "not an OPML file: the file is empty"),
    Failure("plain text", "hello, world\n", "not an OPML file: unreadable XML (line 1: "),
    Failure(
      "JSON", #"[{"url": "https://x.example/feed"}]"#, "not an OPML file: the file is JSON, not XML"
    ),
    Failure(
      "binary", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13],
      "not an OPML file: unreadable XML"),
    Failure(
      "an RSS feed",
      #"<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>"#,
      "not an OPML file: the root element is <rss>, not <opml>"),
    Failure(
      "an HTML page", "<!DOCTYPE html><html><head><title>x</title></head><body><p>hi</body></html>",
      "not an OPML file: the root element is <html>, not <opml>"),
    Failure(
      "no body", #"<opml version="2.0"><head><title>Subscriptions</title></head></opml>"#,
      "not an OPML file: <opml> has no <body>"),
  ]

  @Test(arguments: failures)
  func refuses(failure: Failure) throws {
    do {
      let document = try OPMLReader.read(Data(failure.bytes))
      Issue.record("read \(document) from \(failure.name)")
    } catch let error as OPMLError {
      #expect(error.description.hasPrefix(failure.message), "\(error)")
    }
  }

  @Test func tooLargeIsRefusedBeforeParsing() throws {
    let data = Data(count: OPMLReader.maxInputSize + 1)
    #expect(throws: OPMLError.tooLarge(bytes: data.count, limit: OPMLReader.maxInputSize)) {
      try OPMLReader.read(data)
    }
  }

  /// Thousands of feeds with long descriptions, as real exports carry them, each URL with a
  /// bare `&` that the repair stage widens: up to the limit, libxml2 reads it all.
  @Test func largestInputIsRead() throws {
    let description = String(repeating: "A weekly show about design and architecture. ", count: 20)
    var text = #"<?xml version="1.0"?><opml version="2.0"><head/><body>"# + "\n"
    let end = "</body></opml>"
    var count = 0
    while true {
      let line =
        #"<outline type="rss" text="\#(description)" title="Feed \#(count)" xmlUrl="https://feeds.example/\#(count)?a=1&b=2"/>"#
        + "\n"
      guard text.utf8.count + line.utf8.count + end.utf8.count <= OPMLReader.maxInputSize else {
        break
      }
      text += line
      count += 1
    }
    text += end
    let document = try OPMLReader.read(Data(text.utf8))
    #expect(document.entries.count == count)
    #expect(document.entries.last?.url == "https://feeds.example/\(count - 1)?a=1&b=2")
    #expect(document.warnings == ["\(count) unescaped \"&\" kept as text"])
  }
}
