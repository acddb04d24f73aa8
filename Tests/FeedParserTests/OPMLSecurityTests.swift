import Foundation
import Testing

@testable import FeedParser

/// Hostile OPML: what the feed parser refuses, the OPML reader refuses too.
@Suite struct OPMLSecurityTests {
  static let passwdFirstLine: String = {
    let text = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
    return String(text.prefix { $0 != "\n" })
  }()

  static let externalEntityDocuments = [
    """
    <?xml version="1.0"?>
    <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
    <opml version="2.0"><head><title>&xxe;</title></head><body>
    <outline text="&xxe;" xmlUrl="https://x.example/feed?&xxe;"/>
    <outline text="ok" xmlUrl="https://ok.example/feed"/>
    </body></opml>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE opml [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>
    <opml><body><outline text="ok" xmlUrl="https://ok.example/feed"/></body></opml>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE opml SYSTEM "file:///etc/passwd">
    <opml><body><outline text="ok" xmlUrl="https://ok.example/feed"/></body></opml>
    """,
    """
    <?xml version="1.0"?>
    <!DOCTYPE opml [<!ENTITY % d SYSTEM "file:///etc/passwd"><!ENTITY % e "<!ENTITY leak '%d;'>"> %e;]>
    <opml><head><title>&leak;</title></head><body><outline text="&leak;" xmlUrl="https://ok.example/feed"/></body></opml>
    """,
  ]

  @Test(arguments: externalEntityDocuments)
  func externalEntitiesAreNeverLoaded(document: String) throws {
    let read = try OPMLReader.read(Data(document.utf8))
    let everything = String(describing: read)
    #expect(!everything.contains(Self.passwdFirstLine))
    #expect(!everything.contains("root:"))
    #expect(read.entries.contains { $0.url == "https://ok.example/feed" })
  }

  @Test(arguments: [
    "<head><title>&lol9;</title></head><body/>",
    #"<body><outline text="&lol9;" xmlUrl="https://x.example/"/></body>"#,
  ])
  func billionLaughsIsRefusedQuickly(use: String) throws {
    var doctype = "<!ENTITY lol0 \"lol\">"
    for level in 1...9 {
      doctype +=
        "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
    }
    let document = #"<?xml version="1.0"?><!DOCTYPE opml [\#(doctype)]><opml>\#(use)</opml>"#
    let clock = ContinuousClock()
    let started = clock.now
    #expect(throws: OPMLError.entityExpansion) { try OPMLReader.read(Data(document.utf8)) }
    // A generous bound: the refusal takes milliseconds; expansion would take minutes.
    #expect(clock.now - started < .seconds(5))
  }

  @Test func internalEntitiesAreExpanded() throws {
    let document = """
      <?xml version="1.0"?><!DOCTYPE opml [<!ENTITY host "e.example">]>
      <opml><body><outline text="On &host;" xmlUrl="https://&host;/feed"/></body></opml>
      """
    let read = try OPMLReader.read(Data(document.utf8))
    #expect(read.entries == [OPMLEntry(url: "https://e.example/feed", title: "On e.example")])
  }
}
