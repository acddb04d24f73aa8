import Foundation
import Testing

/// `add` fetching over HTTP from a server on 127.0.0.1, and what the catalog commands show
/// of podcasts added that way.
@Suite("Feeds served over HTTP")
struct ServedFeedTests {
  /// Copies `files` into a folder of the catalog's and serves it.
  static func serve(_ files: [String], for catalog: TemporaryCatalog) throws -> FeedServer {
    let folder = catalog.directory.appendingPathComponent("served")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for file in files {
      let source = URL(fileURLWithPath: file)
      try FileManager.default.copyItem(
        at: source, to: folder.appendingPathComponent(source.lastPathComponent))
    }
    return try FeedServer.start(serving: folder)
  }

  @Test func podcastsAddedOverHTTPAreListedWithTheirURLs() throws {
    let catalog = try TemporaryCatalog()
    let server = try Self.serve(
      [FeedFiles.tidepool, FeedFiles.sample("rss091.xml"), FeedFiles.sample("atom-podcast.xml")],
      for: catalog)
    defer { server.stop() }
    let urls = ["full-rss2.xml", "rss091.xml", "atom-podcast.xml"].map(server.url)
    try catalog.add(urls)
    let list = try catalog.run(["list", "--json"])
    #expect(
      try JQ.lines(".[] | [.title, .feedUrl, .episodeCount] | @tsv", list.stdoutBytes) == [
        "Dial-Up Diaries\t\(urls[1])\t2", "Lantern Hours\t\(urls[2])\t3",
        "Tidepool Radio\t\(urls[0])\t4",
      ])
    // A served feed without podcast:guid is named by its URL, as by its id.
    let show = try catalog.run(["show", urls[1]])
    #expect(show.status == 0)
    #expect(show.stdout.hasPrefix("Dial-Up Diaries\n"))
    #expect(show.stdout.contains("\nfeed:         \(urls[1])\n"))
  }

  /// A password in a feed URL is used to fetch and kept for refreshing, and never shown.
  @Test func credentialsInAFeedURLAreNeverPrinted() throws {
    let catalog = try TemporaryCatalog()
    let server = try Self.serve([FeedFiles.sample("atom-podcast.xml")], for: catalog)
    defer { server.stop() }
    let secretURL = server.privateURL("atom-podcast.xml")
    let masked = "http://\(FeedServer.user):***@127.0.0.1:\(server.port)/private/atom-podcast.xml"

    let wrong = try catalog.run(["add", server.privateURL("atom-podcast.xml", password: "wrong")])
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("401"), "\(wrong.stderr)")
    #expect(!wrong.stderr.contains(":wrong@"))

    var runs: [BuiltProducts.Result] = []
    let add = try catalog.run(["add", secretURL])
    #expect(add.status == 0, "\(add.stderr)")
    runs.append(add)
    runs.append(try catalog.run(["add", "--json", secretURL]))
    let stored = try catalog.sql("SELECT feed_url FROM podcasts;")
    #expect(stored == secretURL + "\n", "the catalog keeps the password for refreshing")
    let id = try catalog.sql("SELECT id FROM podcasts;").trimmingCharacters(in: .newlines)
    try catalog.sql(
      "UPDATE podcasts SET last_error = 'cannot fetch ''\(secretURL)'': HTTP 500', last_error_at = 1710000000;"
    )

    let list = try catalog.run(["list", "--json"])
    #expect(
      try JQ.lines(".[0] | .feedUrl, .lastError", list.stdoutBytes) == [
        masked, "cannot fetch '\(masked)': HTTP 500",
      ])
    let show = try catalog.run(["show", secretURL])
    #expect(show.status == 0)
    #expect(show.stdout.contains("\nfeed:         \(masked)\n"))
    #expect(show.stdout.contains("\nlast error:   cannot fetch '\(masked)': HTTP 500"))
    runs += [list, show]
    for command in [
      ["list"], ["show", id, "--json"], ["episodes", id], ["episodes", id, "--json"],
      ["search", "lantern", "--json"], ["search", "lantern"],
      ["show", server.privateURL("missing.xml")],
    ] {
      runs.append(try catalog.run(command))
    }
    let unsubscribe = try catalog.run(["unsubscribe", "--json", secretURL])
    #expect(unsubscribe.status == 0)
    #expect(try JQ.run(".[0].feedUrl", unsubscribe.stdoutBytes) == masked + "\n")
    runs.append(unsubscribe)
    for run in runs {
      #expect(!run.stdout.contains(FeedServer.password), "\(run.stdout)")
      #expect(!run.stderr.contains(FeedServer.password), "\(run.stderr)")
    }
  }

  /// Two `podcasts add` at the same moment, on the same catalog, with feeds in common: both
  /// succeed, and the catalog ends as one process adding everything would leave it.
  @Test func twoAddsAtOnceBothSucceed() throws {
    let files = [
      FeedFiles.podcasting20, FeedFiles.tidepool, FeedFiles.switchyard,
      FeedFiles.sample("atom-podcast.xml"), FeedFiles.sample("no-guids.xml"),
      FeedFiles.sample("latin1.xml"), FeedFiles.sample("rss1.rdf"),
    ]
    let catalog = try TemporaryCatalog()
    let server = try Self.serve(files, for: catalog)
    defer { server.stop() }
    let urls = files.map { server.url(URL(fileURLWithPath: $0).lastPathComponent) }
    let first = Array(urls[0..<5])
    let second = [urls[1], urls[0], urls[5], urls[6], urls[3]]

    let bash = try #require(BuiltProducts.installedTool("bash"))
    let podcasts = try BuiltProducts.executable().path
    let script = """
      "$0" --db "$1" add --json \(first.joined(separator: " ")) > "$2/first.json" 2>&1 &
      a=$!
      "$0" --db "$1" add --json \(second.joined(separator: " ")) > "$2/second.json" 2>&1 &
      b=$!
      wait $a; first=$?
      wait $b; echo "$first $?"
      """
    let run = try BuiltProducts.runProcess(
      bash, ["-c", script, podcasts, catalog.path, catalog.directory.path])
    #expect(run.stdout == "0 0\n", "\(run.stderr)")
    for name in ["first.json", "second.json"] {
      let output = try Data(contentsOf: catalog.directory.appendingPathComponent(name))
      #expect(
        try JQ.holds("all(.[]; .error == null and (.id | type) == \"string\")", Array(output)))
    }

    let reference = try TemporaryCatalog()
    try reference.add(urls)
    let counts = ".[] | [.id, .title, .episodeCount, .latestEpisode] | @tsv"
    let together = try JQ.lines(counts, try catalog.run(["list", "--json"]).stdoutBytes)
    #expect(together.count == files.count)
    #expect(together == (try JQ.lines(counts, try reference.run(["list", "--json"]).stdoutBytes)))
    #expect(try catalog.sql("PRAGMA integrity_check;") == "ok\n")
  }
}
