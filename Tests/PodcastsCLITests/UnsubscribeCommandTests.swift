import Foundation
import Testing

@Suite("podcasts unsubscribe and the ids commands take")
struct UnsubscribeCommandTests {
  static let twinA = "abcd1234-0000-4000-8000-00000000000a"
  static let twinB = "abcd1234-0000-4000-8000-00000000000b"

  /// Tidepool Radio, Switchyard, Podcasting 2.0 and two podcasts whose ids share their first
  /// 12 characters.
  static let twins = Fixture(name: "twins") { catalog in
    var feeds = FeedFiles.withGuids
    for (guid, name) in [(twinA, "Twin A"), (twinB, "Twin B")] {
      feeds.append(
        try TestFeeds.write(
          TestFeeds.rss(
            guid: guid, title: name,
            items: [.init(title: name + " one", guid: "1"), .init(title: name + " two", guid: "2")]),
          named: name + ".xml", in: catalog.directory))
    }
    try catalog.add(feeds)
  }

  static func ids(in catalog: TemporaryCatalog) throws -> [String] {
    try catalog.sql("SELECT podcast_id FROM subscriptions;").split(separator: "\n").map(String.init)
      .sorted()
  }

  static let allIDs = [twinA, twinB, IDs.switchyard, IDs.tidepool, IDs.podcasting20].sorted()

  @Test func removesThePodcastsItsEpisodesAndSaysSo() throws {
    let catalog = try TemporaryCatalog(copying: Self.twins)
    let run = try catalog.run(["unsubscribe", "1dee", Self.twinA, "1DEE190E-173F"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(
      run.stdout == """
        Removed Tidepool Radio (1dee190e) and 4 episodes
        Removed Twin A (abcd1234) and 2 episodes

        """)
    #expect(try Self.ids(in: catalog) == [Self.twinB, IDs.switchyard, IDs.podcasting20].sorted())
    #expect(
      try catalog.sql(
        "SELECT count(*) FROM episodes WHERE podcast_id IN ('\(IDs.tidepool)', '\(Self.twinA)');")
        == "0\n")
    #expect(
      try catalog.sql("SELECT count(*) FROM episode_search WHERE episode_search MATCH 'anemones';")
        == "0\n")
    let again = try catalog.run(["episodes", "1dee"])
    #expect(again.status == 1)
  }

  @Test func theJSONSaysWhatWasRemoved() throws {
    let catalog = try TemporaryCatalog(copying: Self.twins)
    let run = try catalog.run([
      "unsubscribe", "--json", "917393e3", "abcd1234-0000-4000-8000-00000000000b",
    ])
    #expect(run.status == 0)
    let bytes = run.stdoutBytes
    #expect(
      try JQ.lines(
        """
        .[] | [.id, .title, .episodesRemoved, (.feedUrl | startswith("file:///")),
          (.subscribed | test("^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT"))] | @tsv
        """, bytes)
        == [
          "\(IDs.podcasting20)\tPodcasting 2.0\t56\ttrue\ttrue",
          "\(Self.twinB)\tTwin B\t2\ttrue\ttrue",
        ])
  }

  struct Failure: Sendable {
    let arguments: [String]
    let status: Int32
    let stderr: [String]

    init(_ arguments: [String], _ status: Int32, _ stderr: [String]) {
      self.arguments = arguments
      self.status = status
      self.stderr = stderr
    }
  }

  static let notFound = "podcasts: no podcast matches 'ffff'; 'podcasts list' shows the ids"

  static let failures: [Failure] = [
    Failure(["show", "ffff"], 1, [notFound]),
    Failure(["episodes", "ffff"], 1, [notFound]),
    Failure(["unsubscribe", "ffff"], 1, [notFound]),
    Failure(
      ["show", "no such podcast"], 1,
      ["podcasts: no podcast matches 'no such podcast'; 'podcasts list' shows the ids"]),
    Failure(["show", "abcd"], 1, [ambiguous("abcd")]),
    Failure(["episodes", "ABCD1234-0000"], 1, [ambiguous("ABCD1234-0000")]),
    Failure(["show", "--json", "abcd"], 1, [ambiguous("abcd")]),
    Failure(["unsubscribe", "abcd"], 1, [ambiguous("abcd")]),
    Failure(
      ["unsubscribe", "--json", "1dee", "abcd", "ffff"], 1,
      [
        ambiguous("abcd"), notFound,
        "podcasts: nothing was removed",
      ]),
    Failure(
      ["episodes", "1dee", "--limit", "0"], 2,
      [
        "podcasts: invalid value '0' for option '--limit <n>': expected a positive integer",
        "See 'podcasts episodes --help'.",
      ]),
    Failure(
      ["search", "***", "--", "-"], 2,
      [
        "podcasts: nothing to search for in '*** -': give a word", "See 'podcasts search --help'.",
      ]),
    Failure(
      ["search", "("], 2,
      [
        "podcasts: nothing to search for in '(': give a word", "See 'podcasts search --help'.",
      ]),
    Failure(["show"], 2, ["podcasts: missing argument <id>", "See 'podcasts show --help'."]),
    Failure(
      ["unsubscribe"], 2, ["podcasts: missing argument <id>", "See 'podcasts unsubscribe --help'."]),
  ]

  /// Every failure leaves the catalog as it was, prints nothing on stdout, and names the
  /// problem on stderr.
  @Test(arguments: failures)
  func failuresChangeNothing(_ failure: Failure) throws {
    let catalog = try TemporaryCatalog(copying: Self.twins)
    let run = try catalog.run(failure.arguments)
    #expect(run.status == failure.status)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines == failure.stderr)
    #expect(try Self.ids(in: catalog) == Self.allIDs)
  }

  static func ambiguous(_ reference: String) -> String {
    "podcasts: '\(reference)' matches 2 podcasts: \(twinA) (Twin A), \(twinB) (Twin B); give more of the id"
  }

  /// When two ids share their first 8 characters, `list` shows enough of every id to tell
  /// them apart, and each id it shows names its podcast.
  @Test func listShowsIdsLongEnoughToTypeBack() throws {
    let catalog = try TemporaryCatalog(copying: Self.twins)
    let run = try catalog.run(["list"], environment: ["COLUMNS": "200"])
    let shown = run.stdout.split(separator: "\n").dropFirst().map {
      String($0.prefix { $0 != " " })
    }
    #expect(shown.sorted() == Self.allIDs.map { String($0.prefix(36)) }.sorted())
    for id in shown {
      let show = try catalog.run(["show", "--json", id])
      #expect(show.status == 0, "\(id): \(show.stderr)")
    }
  }

  /// The full id, any unambiguous prefix in any case, and the feed URL all name a podcast.
  @Test(arguments: [
    IDs.tidepool, "1dee190e", "1", "1D", "1dee190e-173f-5586-ad29-300b960f9312",
    "  1dee  ", URL(fileURLWithPath: FeedFiles.tidepool).absoluteString,
  ])
  func referencesThatNameOnePodcast(reference: String) throws {
    let catalog = try TemporaryCatalog(copying: Self.twins)
    let run = try catalog.run(["show", "--json", reference])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("{\"id\":\"\(IDs.tidepool)\","))
  }
}
