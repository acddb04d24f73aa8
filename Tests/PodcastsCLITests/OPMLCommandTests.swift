import Catalog
import FeedViews
import Foundation
import PodcastModel
import Testing

@testable import PodcastsCLI

/// `podcasts import` and `podcasts export`, run as the built executable on catalogs in
/// temporary folders. Feeds are fetched only from a server on 127.0.0.1 that the test starts;
/// the corpus files, whose URLs point to the internet, are imported with --no-fetch only.
@Suite("podcasts import and export")
struct OPMLCommandTests {
  /// A temporary folder, removed when the test ends.
  final class Scratch {
    let folder: URL

    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "podcasts-opml-" + UUID().uuidString)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
      try Data(text.utf8).write(to: folder.appendingPathComponent(name))
      return path(name)
    }
  }

  static let corpus = BuiltProducts.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/opml")

  static func opml(_ urls: [String]) -> String {
    let outlines = urls.map { #"<outline type="rss" text="feed" xmlUrl="\#($0)"/>"# }
    return "<opml version=\"2.0\"><body>\n" + outlines.joined(separator: "\n")
      + "\n</body></opml>\n"
  }

  /// The JSON of `import --json` as objects.
  static func results(_ run: BuiltProducts.Result) throws -> [[String: Any]] {
    let parsed = try JSONSerialization.jsonObject(with: Data(run.stdoutBytes))
    return try #require(parsed as? [[String: Any]], "not an array of objects: \(run.stdout)")
  }

  /// The export without its creation date, which differs from run to run.
  static func withoutDate(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("<dateCreated>") }.joined(separator: "\n")
  }

  /// The `xmlUrl` values of an export, in order.
  static func feedURLs(_ export: String) -> [String] {
    export.components(separatedBy: #"xmlUrl=""#).dropFirst().map {
      String($0.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }
  }

  static func validate(_ path: String) throws {
    guard let xmllint = BuiltProducts.installedTool("xmllint") else { return }
    let run = try BuiltProducts.runProcess(xmllint, ["--noout", path])
    #expect(run.status == 0, "xmllint: \(run.stderr)")
    #expect(run.stderr.isEmpty)
  }

  @Test func roundTripThroughAnEmptyCatalog() throws {
    let server = try OPMLFeedServer.start()
    defer { server.stop() }
    let scratch = try Scratch()
    let served = OPMLFeedServer.feedNames.map(server.url)
    let list = try scratch.write("served.opml", Self.opml(served))

    let fetched = try BuiltProducts.run(["--db", scratch.path("a.db"), "import", list])
    #expect(fetched.status == 0, "\(fetched.stderr)")
    let exportA = try BuiltProducts.run(["--db", scratch.path("a.db"), "export"])
    #expect(exportA.status == 0)
    #expect(exportA.stderr.isEmpty)
    try Data(exportA.stdoutBytes).write(to: URL(fileURLWithPath: scratch.path("a.opml")))
    try Self.validate(scratch.path("a.opml"))
    // full-rss2.xml and prefix-it.xml are one podcast (one podcast:guid): it keeps one URL.
    let urlsA = Self.feedURLs(exportA.stdout)
    #expect(urlsA.count == served.count - 1)
    #expect(Set(urlsA).isSubset(of: served))
    #expect(exportA.stdout.contains(#"title="Épicerie Fine""#))
    #expect(exportA.stdout.contains(#"title="Żółw i Żuraw — Polish &amp; Japanese folk tales""#))

    let imported = try BuiltProducts.run([
      "--db", scratch.path("b.db"), "import", "--no-fetch", scratch.path("a.opml"),
    ])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stderrLines == [
        "\(scratch.path("a.opml")): \(urlsA.count) feeds: \(urlsA.count) added, 0 already subscribed, 0 failed"
      ])
    let exportB = try BuiltProducts.run(["--db", scratch.path("b.db"), "export"])
    #expect(exportB.status == 0)
    #expect(Self.feedURLs(exportB.stdout).sorted() == urlsA.sorted())
    #expect(Self.withoutDate(exportB.stdout) == Self.withoutDate(exportA.stdout))
  }

  @Test func fetchingReportsEveryFeed() throws {
    let server = try OPMLFeedServer.start()
    defer { server.stop() }
    let scratch = try Scratch()
    let db = scratch.path("catalog.db")
    let names = ["full-rss2.xml", "prefix-it.xml", "latin1.xml", "missing.xml", "atom03.xml"]
    let list = try scratch.write(
      "list.opml", Self.opml(names.map(server.url) + [server.url("latin1.xml")]))

    let first = try BuiltProducts.run(["--db", db, "import", "--json", list])
    #expect(first.status == 1)
    let results = try Self.results(first)
    #expect(results.map { $0["feedUrl"] as? String } == names.map(server.url))
    let status = results.map { $0["status"] as? String ?? "" }
    // The first two are one podcast: whichever is saved second finds it subscribed.
    #expect(Set(status[0...1]) == ["added", "alreadySubscribed"])
    #expect(results[0]["id"] as? String == "1dee190e-173f-5586-ad29-300b960f9312")
    #expect(results[1]["id"] as? String == "1dee190e-173f-5586-ad29-300b960f9312")
    #expect(Array(status[2...]) == ["added", "failed", "added"])
    #expect(results[2]["title"] as? String == "Épicerie Fine")
    #expect(results[2]["newEpisodes"] as? Int == 2)
    #expect(results[3]["id"] is NSNull)
    #expect((results[3]["error"] as? String)?.contains("404") == true)
    #expect(results[4]["error"] is NSNull)
    #expect(
      first.stderrLines.contains {
        $0.hasPrefix("podcasts: warning: \(list): \"")
          && $0.hasSuffix("latin1.xml\" is listed 2 times: read once")
      })
    #expect(
      first.stderrLines.filter { $0.hasPrefix("podcasts: \(server.url("missing.xml")): ") }.count
        == 1)
    #expect(first.stderrLines.last == "\(list): 5 feeds: 3 added, 1 already subscribed, 1 failed")

    let again = try BuiltProducts.run(["--db", db, "import", list])
    #expect(again.status == 1)
    #expect(again.stdout.isEmpty)
    #expect(again.stderrLines.last == "\(list): 5 feeds: 0 added, 4 already subscribed, 1 failed")
  }

  @Test(arguments: ["radiofeed-feeds.opml", "radiofeed-feeds_with_invalid.opml"])
  func corpusFileWithoutFetching(name: String) throws {
    let scratch = try Scratch()
    let db = scratch.path("catalog.db")
    let file = Self.corpus.appendingPathComponent(name).path
    let listed =
      try String(contentsOfFile: file, encoding: .utf8)
      .components(separatedBy: "xmlUrl=").count - 1

    let run = try BuiltProducts.run(["--db", db, "import", "--no-fetch", "--json", file])
    #expect(run.status == 0, "\(run.stderr)")
    let results = try Self.results(run)
    let skipped = name.contains("invalid") ? 1 : 0
    #expect(results.count == listed - skipped)
    #expect(results.allSatisfy { $0["status"] as? String == "added" })
    #expect(results.allSatisfy { ($0["folders"] as? [String]) == ["My Podcasts"] })
    #expect(results.allSatisfy { $0["newEpisodes"] is NSNull && $0["error"] is NSNull })
    #expect(
      results.contains {
        $0["title"] as? String == "Mysterious Radio: Paranormal, UFO & Lore Interviews"
      })
    let warnings = run.stderrLines.filter { $0.hasPrefix("podcasts: warning: ") }
    #expect(warnings.count == skipped)
    #expect(
      warnings.allSatisfy { $0.contains(#""hypnogoria.libsyn.com/rss" skipped: it is relative"#) })

    let export = try BuiltProducts.run(["--db", db, "export"])
    #expect(
      Set(Self.feedURLs(export.stdout)) == Set(results.compactMap { $0["feedUrl"] as? String }))
    #expect(
      export.stdout.contains(#"title="Mysterious Radio: Paranormal, UFO &amp; Lore Interviews""#))
    #expect(export.stdout.contains(#"htmlUrl="https://99percentinvisible.org""#))

    let again = try BuiltProducts.run(["--db", db, "import", "--no-fetch", "--json", file])
    #expect(try Self.results(again).allSatisfy { $0["status"] as? String == "alreadySubscribed" })
  }

  @Test func credentialsAreMaskedUnlessAsked() throws {
    let scratch = try Scratch()
    let db = scratch.path("catalog.db")
    let list = try scratch.write(
      "private.opml",
      Self.opml(["https://ann:s3cret@private.example/feed.xml", "https://public.example/rss"]))
    #expect(try BuiltProducts.run(["--db", db, "import", "--no-fetch", list]).status == 0)

    let masked = try BuiltProducts.run(["--db", db, "export"])
    #expect(masked.status == 0)
    #expect(
      Self.feedURLs(masked.stdout) == [
        "https://ann:***@private.example/feed.xml", "https://public.example/rss",
      ])
    #expect(
      masked.stderrLines == [
        "podcasts: warning: passwords in 1 URL written as ***; --include-credentials keeps them"
      ])

    let kept = try BuiltProducts.run([
      "--db", db, "export", "--include-credentials", "-o", scratch.path("kept.opml"),
    ])
    #expect(kept.status == 0)
    #expect(kept.stdout.isEmpty && kept.stderr.isEmpty)
    let text = try String(contentsOfFile: scratch.path("kept.opml"), encoding: .utf8)
    #expect(Self.feedURLs(text).contains("https://ann:s3cret@private.example/feed.xml"))
    let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path("kept.opml"))
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func exportToAFileReplacesItWhole() throws {
    let scratch = try Scratch()
    let db = scratch.path("catalog.db")
    let list = try scratch.write(
      "list.opml",
      #"<opml><body><outline text="A &amp; B &lt;3" xmlUrl="https://a.example/feed?x=1&amp;y=2" htmlUrl="https://a.example/"/></body></opml>"#
    )
    #expect(try BuiltProducts.run(["--db", db, "import", "--no-fetch", list]).status == 0)
    let output = try scratch.write("out.opml", "old content that is much longer than nothing")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: output)

    let run = try BuiltProducts.run(["--db", db, "export", "--output", output])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.isEmpty)
    let written = try String(contentsOfFile: output, encoding: .utf8)
    let toStdout = try BuiltProducts.run(["--db", db, "export"])
    #expect(Self.withoutDate(written) == Self.withoutDate(toStdout.stdout))
    #expect(
      written.contains(
        #"<outline type="rss" text="A &amp; B &lt;3" title="A &amp; B &lt;3" xmlUrl="https://a.example/feed?x=1&amp;y=2" htmlUrl="https://a.example/"/>"#
      ))
    try Self.validate(output)
    let attributes = try FileManager.default.attributesOfItem(atPath: output)
    #expect((attributes[.posixPermissions] as? Int) == 0o640)
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path).sorted()
    #expect(left.filter { !$0.hasPrefix("catalog.db") } == ["list.opml", "out.opml"])
  }

  @Test(arguments: [
    (
      ["export", "--output", "/nonexistent-folder/x.opml"],
      "podcasts: cannot write /nonexistent-folder/x.opml: No such file or directory"
    ),
    (["export", "--output", "/tmp"], "podcasts: cannot write /tmp: Is a directory"),
    (
      ["import", "/nonexistent-folder/x.opml"],
      "podcasts: /nonexistent-folder/x.opml: No such file or directory"
    ),
  ])
  func failuresToReadOrWrite(arguments: [String], message: String) throws {
    let scratch = try Scratch()
    let run = try BuiltProducts.run(["--db", scratch.path("catalog.db")] + arguments)
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines == [message])
  }

  @Test(arguments: [
    ("", "not an OPML file: the file is empty"),
    (
      "<rss version=\"2.0\"><channel><title>t</title></channel></rss>",
      "not an OPML file: the root element is <rss>, not <opml>"
    ),
    ("{\"feeds\": []}", "not an OPML file: the file is JSON, not XML"),
    ("<opml><head/></opml>", "not an OPML file: <opml> has no <body>"),
  ])
  func notOPML(text: String, message: String) throws {
    let scratch = try Scratch()
    let file = try scratch.write("input", text)
    let run = try BuiltProducts.run(["--db", scratch.path("catalog.db"), "import", file])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines == ["podcasts: \(file): \(message)"])
  }

  @Test func importReadsStandardInput() throws {
    let scratch = try Scratch()
    let run = try BuiltProducts.run(
      ["--db", scratch.path("catalog.db"), "import", "--no-fetch", "-"],
      stdin: Array(
        #"<opml><body><outline text="Piped" xmlUrl="https://piped.example/rss"/></body></opml>"#
          .utf8))
    #expect(run.status == 0)
    // The id is UUIDv5 of `piped.example/rss` (Python: uuid.uuid5(namespace, name)).
    #expect(run.stdout == "Added Piped (db0ae8a7)\n")
    #expect(run.stderrLines == ["standard input: 1 feed: 1 added, 0 already subscribed, 0 failed"])
  }

  @Test(arguments: [true, false])
  func progressOnlyOnATerminal(terminal: Bool) async throws {
    let server = try OPMLFeedServer.start()
    defer { server.stop() }
    let scratch = try Scratch()
    let names = ["latin1.xml", "atom03.xml", "rss1.rdf"]
    let list = try scratch.write("list.opml", Self.opml(names.map(server.url)))
    let console = Console.capturing(stderrIsTerminal: terminal)
    let status = await CommandRunner.run(
      root: PodcastsCommand.self,
      arguments: ["podcasts", "--db", scratch.path("catalog.db"), "import", list],
      console: console)
    #expect(status == 0)
    let stderr = console.stderr.capturedText
    #expect(stderr.contains("\r\u{1b}[KFetching feeds: 3/3\r\u{1b}[K") == terminal)
    #expect(stderr.contains("\r") == terminal)
    #expect(stderr.hasSuffix("\(list): 3 feeds: 3 added, 0 already subscribed, 0 failed\n"))
    #expect(console.stdout.capturedText.split(separator: "\n").count == 3)
  }
}

/// Import against a catalog prepared through the catalog's own API, in this process.
@Suite struct OPMLImportCatalogTests {
  @Test(arguments: [true, false])
  func podcastKnownButNotSubscribedIsSubscribedAsItIs(noFetch: Bool) async throws {
    let scratch = try OPMLCommandTests.Scratch()
    let db = scratch.path("catalog.db")
    let catalog = try Catalog(path: db, plainText: HTMLText.plainText)
    let url = "http://127.0.0.1:1/known.xml"
    let episode = Episode(guid: "e1", title: "Kept")
    try catalog.save(
      Podcast(
        format: .rss2, title: "Stored &amp; kept", link: "https://known.example/",
        episodes: [episode]),
      feedURL: url, subscribing: nil, validators: HTTPValidators(etag: "\"v1\""))
    #expect(try catalog.podcast(feedURL: url)?.subscribed == nil)
    let list = try scratch.write(
      "list.opml",
      #"<opml><body><outline text="Other title" xmlUrl="\#(url)" htmlUrl="https://other.example/"/></body></opml>"#
    )

    let arguments = ["podcasts", "--db", db, "import", "--json", list]
    let console = Console.capturing(now: { Date(timeIntervalSince1970: 1_709_647_620) })
    let status = await CommandRunner.run(
      root: PodcastsCommand.self, arguments: noFetch ? arguments + ["--no-fetch"] : arguments,
      console: console)

    let stored = try #require(try catalog.podcast(feedURL: url))
    if noFetch {
      #expect(status == 0)
      #expect(stored.subscribed == Date(timeIntervalSince1970: 1_709_647_620))
      #expect(stored.podcast.title == "Stored &amp; kept")
      #expect(stored.podcast.link == "https://known.example/")
      #expect(stored.refresh.validators.etag == "\"v1\"")
      #expect(try catalog.episodes(ofPodcast: stored.id).map(\.episode.title) == ["Kept"])
      #expect(console.stdout.capturedText.contains(#""title":"Stored & kept""#))
      #expect(console.stdout.capturedText.contains(#""status":"added""#))
    } else {
      // Port 1 refuses the connection: the podcast stays as it was, unsubscribed.
      #expect(status == 1)
      #expect(stored.subscribed == nil)
      #expect(console.stdout.capturedText.contains(#""status":"failed""#))
    }
  }
}
