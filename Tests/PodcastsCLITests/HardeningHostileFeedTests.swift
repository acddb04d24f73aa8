import Foundation
import Testing

/// Hostile feeds through the built `podcasts`, where the parser-level tests cannot tell:
/// the memory a whole process holds for a million items or a 100 MB title, control and bidi
/// characters in what `add`, `parse` and `refresh` print (TerminalSafetyTests covers the
/// commands that read the catalog), and SQL in every field of a feed stored verbatim.
@Suite("Hostile feeds through the command line")
struct HardeningHostileFeedTests {
  enum HugeFeed: String, CaseIterable, Sendable {
    case millionEmptyItems
    case hundredMegabyteTitle

    func write(to path: String) throws {
      switch self {
      case .millionEmptyItems: try HardeningFeeds.millionEmptyItems(to: path)
      case .hundredMegabyteTitle: try HardeningFeeds.hugeTitle(megabytes: 100, to: path)
      }
    }
  }

  /// Peak memory of `parse --json` and of `add`, measured by the kernel. Holding a million
  /// episodes would take hundreds of megabytes, holding the title some 100 MB per copy; what
  /// each needs is a working set plus the 8 MB that a field is cut to.
  @Test(arguments: HugeFeed.allCases)
  func hugeFeedsTakeBoundedMemory(_ feed: HugeFeed) async throws {
    let folder = try HardeningFolder()
    let file = folder.path("\(feed.rawValue).xml")
    try feed.write(to: file)

    let parse = try await HardeningProcess.runPodcasts(
      ["parse", "--json", file], output: folder.url, timeout: .seconds(180))
    #expect(parse.status == 0, "\(parse.stderr)")
    #expect(parse.peakMemory < 100 << 20, "parse --json held \(parse.peakMemory >> 20) MB")

    let catalog = folder.path("catalog.sqlite3")
    let add = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", file], output: folder.url, timeout: .seconds(180))
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.peakMemory < 160 << 20, "add held \(add.peakMemory >> 20) MB")
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    Attachment.record(
      "parse --json: \(parse.peakMemory >> 20) MB in \(parse.duration)\n"
        + "add: \(add.peakMemory >> 20) MB in \(add.duration)\n", named: "\(feed.rawValue).txt")

    switch feed {
    case .millionEmptyItems:
      // Every item is in the JSON; none has an identity to be stored by.
      let count = try BuiltProducts.runProcess(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "grep -o '{\"guid\":null' \"$1\" | wc -l", "sh", parse.stdoutURL.path])
      #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1000000")
      #expect(inspection.podcasts.map(\.episodes) == [0])
      #expect(add.stdout.hasPrefix("Added Empty Items ("))
      #expect(
        add.stderr.hasSuffix(
          ": 1000000 episodes with no guid, enclosure, link or title left out\n"), "\(add.stderr)")
    case .hundredMegabyteTitle:
      #expect(parse.stderr.contains("a field longer than 8 MB was cut"), "\(parse.stderr)")
      let title = try JQ.run(".title | length", parse.stdoutBytes)
      let length = Int(title.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
      #expect(length <= 8 << 20 && length > 1 << 20, "\(length)")
      #expect(inspection.podcasts.map(\.episodes) == [1])
      // The status line names the podcast by the start of its title.
      #expect(add.stdoutSize < 1000)
    }
  }

  // MARK: Terminal safety of the commands that read feeds

  static let guid = "eeee0003-0000-4000-8000-000000000003"

  /// The characters XML lets through from a feed: C1 controls (the 8-bit CSI and OSC, which
  /// the parser reads as the Windows-1252 characters they stand for), bidi overrides and
  /// isolates, and escapes as character references (which it replaces with U+FFFD).
  static let hostile =
    "Evil \u{9B}31m\u{9D}0;pwned\u{9C} \u{202E}desrever\u{202C} \u{2066}iso\u{2069} &#27;[2J&#x1B;]0;t&#7;"

  /// A feed with the hostile text everywhere, two items with the same hostile title (so that a
  /// warning quotes it) and `extra` more.
  static func hostileFeed(extra: Int = 0) -> String {
    var items = ""
    for number in 0..<(2 + extra) {
      // The first two share their title, which is then their identity.
      let title = number < 2 ? hostile : "\(hostile) \(number)"
      items += "<item><title>\(title)</title><description>\(hostile)</description></item>\n"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
           xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
      <title>\(hostile)</title><podcast:guid>\(guid)</podcast:guid>
      <itunes:author>\(hostile)</itunes:author><description>\(hostile)</description>
      <bogus:x>&undefined\u{9B}2J;</bogus:x>
      \(items)</channel></rss>
      """
  }

  @Test func nothingOfTheFeedReachesTheTerminalFromAddParseOrRefresh() async throws {
    let folder = try HardeningFolder()
    let feed = folder.path("evil.xml")
    try Data(Self.hostileFeed().utf8).write(to: URL(fileURLWithPath: feed))
    let catalog = folder.path("catalog.sqlite3")

    var runs: [(String, HardeningProcess.Ended)] = []
    for command in [["parse", feed], ["parse", "--json", feed], ["add", feed]] {
      runs.append(
        (
          command.joined(separator: " "),
          try await HardeningProcess.runPodcasts(["--db", catalog] + command, output: folder.url)
        ))
    }
    // A new episode to report, then a feed that is gone to fail on.
    try Data(Self.hostileFeed(extra: 1).utf8).write(to: URL(fileURLWithPath: feed))
    runs.append(
      (
        "refresh",
        try await HardeningProcess.runPodcasts(["--db", catalog, "refresh"], output: folder.url)
      ))
    try FileManager.default.removeItem(atPath: feed)
    runs.append(
      (
        "refresh of a missing file",
        try await HardeningProcess.runPodcasts(["--db", catalog, "refresh"], output: folder.url)
      ))

    for (command, run) in runs {
      let output = run.stdoutBytes + Array(run.stderr.utf8)
      #expect(TerminalSafetyTests.controls(in: output).isEmpty, "\(command): \(run.stderr)")
      #expect(String(decoding: output, as: UTF8.self).contains("Evil"), "\(command)")
    }
    let statuses = runs.map { $0.1.status }
    #expect(statuses == [0, 0, 0, 0, 1], "\(runs.map { $0.1.stderr })")
    // The warning that quotes the duplicated title was printed, and cleaned.
    #expect(runs[2].1.stderr.contains("same identity"), "\(runs[2].1.stderr)")
    // The JSON keeps what it holds, escaped: a script reads the text as the feed gave it.
    #expect(runs[1].1.stdout.contains("\\u202edesrever\\u202c"))
  }

  // MARK: SQL

  static let sqlPayloads = [
    "Robert'); DROP TABLE episodes; --",
    "' OR '1'='1' --",
    "\"; DELETE FROM subscriptions WHERE \"\" = \"",
    "1; ATTACH DATABASE '/tmp/pwned.db' AS pwned; --",
    "%_ LIKE '%' ESCAPE '\\' ?1 :name @p $x",
    "x') UNION SELECT sql FROM sqlite_schema --",
  ]

  static func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// The payload in every text field a feed has, two episodes.
  static func sqlFeed(_ payload: String, guid: String) -> String {
    let text = xmlEscaped(payload)
    var items = ""
    for number in 1...2 {
      items += """
        <item><title>\(text) \(number)</title><guid isPermaLink="false">\(text) \(number)</guid>
        <link>https://example.com/\(text)/\(number)</link><description>\(text)</description>
        <content:encoded><![CDATA[<p>\(payload)</p>]]></content:encoded>
        <pubDate>Tue, 05 Mar 2024 1\(number):07:00 GMT</pubDate>
        <enclosure url="https://media.example.com/\(text)/\(number).mp3" type="\(text)" length="1"/>
        <itunes:episodeType>\(text)</itunes:episodeType><itunes:image href="https://i.example/\(text).png"/>
        <podcast:transcript url="https://t.example/\(text).vtt" type="\(text)"/>
        <podcast:chapters url="https://c.example/\(text).json" type="\(text)"/></item>

        """
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
           xmlns:content="http://purl.org/rss/1.0/modules/content/"
           xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
      <title>\(text)</title><podcast:guid>\(guid)</podcast:guid>
      <itunes:author>\(text)</itunes:author><description>\(text)</description>
      <link>https://example.com/\(text)</link><language>\(text)</language>
      <itunes:category text="\(text)"><itunes:category text="\(text)"/></itunes:category>
      <category>\(text)</category><itunes:image href="https://i.example/\(text).png"/>
      <itunes:new-feed-url>https://example.com/\(text)/new</itunes:new-feed-url>
      \(items)</channel></rss>
      """
  }

  static let podcastKeys =
    "{author,categories,description,explicit,format,id,imageUrl,language,link,newFeedUrl,nextPageUrl,title}"
  static let episodeKeys =
    "{chapters,description,duration,enclosure,episode,episodeType,explicit,guid,imageUrl,link,published,season,title,transcripts}"

  /// What `add` stores comes back from `show` and `episodes` exactly as `parse` read it,
  /// the catalog keeps its tables and passes its checks, and search takes the payload as
  /// words.
  @Test(arguments: sqlPayloads)
  func sqlInEveryFieldIsStoredVerbatim(payload: String) async throws {
    let folder = try HardeningFolder()
    let feed = folder.path("sql.xml")
    let index = try #require(Self.sqlPayloads.firstIndex(of: payload))
    let guid = "5c1e0000-0000-4000-8000-00000000000\(index)"
    try Data(Self.sqlFeed(payload, guid: guid).utf8).write(to: URL(fileURLWithPath: feed))
    let catalog = folder.path("catalog.sqlite3")
    try await Self.podcasts(["--db", catalog, "add", FeedFiles.tidepool], folder)
    let tablesBefore = try Self.tables(catalog)

    let parsed = try await Self.podcasts(["parse", "--json", feed], folder)
    try await Self.podcasts(["--db", catalog, "add", feed], folder)
    let shown = try await Self.podcasts(["--db", catalog, "show", "--json", guid], folder)
    let episodes = try await Self.podcasts(
      ["--db", catalog, "episodes", "--json", "--limit", "10", guid], folder)

    #expect(
      try JQ.run(Self.podcastKeys, shown, arguments: ["-S"])
        == JQ.run(Self.podcastKeys, parsed, arguments: ["-S"]))
    #expect(
      try JQ.run("[.[] | \(Self.episodeKeys)] | sort_by(.guid)", episodes, arguments: ["-S"])
        == JQ.run("[.episodes[] | \(Self.episodeKeys)] | sort_by(.guid)", parsed, arguments: ["-S"])
    )
    #expect(try JQ.run(".title", parsed) == payload + "\n")

    #expect(try Self.tables(catalog) == tablesBefore)
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    #expect(inspection.podcasts.map(\.episodes).sorted() == [2, 4])
    #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned.db"))

    let search = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "search", "--json", payload], output: folder.url)
    #expect(search.status == 0, "\(search.stderr)")
    #expect(search.stderr.isEmpty)
  }

  /// Runs `podcasts`, requires it to succeed, and returns what it printed.
  @discardableResult
  private static func podcasts(_ arguments: [String], _ folder: HardeningFolder) async throws
    -> [UInt8]
  {
    let run = try await HardeningProcess.runPodcasts(arguments, output: folder.url)
    try #require(run.status == 0, "\(arguments): \(run.stderr)")
    return run.stdoutBytes
  }

  private static func tables(_ catalog: String) throws -> String {
    let sqlite3 = try #require(BuiltProducts.installedTool("sqlite3"), "sqlite3 is needed")
    let run = try BuiltProducts.runProcess(
      sqlite3, [catalog, "SELECT type, name FROM sqlite_schema ORDER BY name;"])
    try #require(run.status == 0, "\(run.stderr)")
    return run.stdout
  }
}
