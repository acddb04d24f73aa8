import Foundation
import Testing

@Suite("podcasts list")
struct ListCommandTests {
  @Test func anEmptyCatalogGivesAHintOnStderrAndAnEmptyArray() throws {
    let catalog = try TemporaryCatalog()
    let text = try catalog.run(["list"])
    #expect(text.status == 0)
    #expect(text.stdout.isEmpty)
    #expect(text.stderr == "No subscriptions yet. Add one with: podcasts add <feed-url>\n")
    let json = try catalog.run(["list", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout == "[]\n")
    #expect(json.stderr.isEmpty)
    let quiet = try catalog.run(["list", "--quiet"])
    #expect(quiet.status == 0)
    #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
  }

  static let undated = "d1a1d1a1-0000-4000-8000-000000000001"

  /// Four podcasts with known titles, latest episodes (one with no dated episode) and
  /// subscription dates set apart by hand.
  static let sorting = Fixture(name: "sorting") { catalog in
    let undated = try TestFeeds.write(
      TestFeeds.rss(
        guid: undated, title: "Dial-Up Diaries", author: "Ruth Calloway",
        items: [.init(title: "Modems", guid: "1"), .init(title: "Handshakes", guid: "2")]),
      named: "undated.xml", in: catalog.directory)
    try catalog.add(FeedFiles.withGuids + [undated])
    try catalog.sql(
      """
      UPDATE subscriptions SET subscribed = CASE
        (SELECT title FROM podcasts WHERE id = podcast_id)
        WHEN 'Switchyard' THEN 1600000000 WHEN 'Dial-Up Diaries' THEN 1650000000
        WHEN 'Tidepool Radio' THEN 1700000000 ELSE 1710000000 END;
      """)
  }

  @Test(arguments: [
    ([], ["Dial-Up Diaries", "Podcasting 2.0", "Switchyard", "Tidepool Radio"]),
    (["--sort", "title"], ["Dial-Up Diaries", "Podcasting 2.0", "Switchyard", "Tidepool Radio"]),
    (
      ["--sort", "subscribed"],
      ["Switchyard", "Dial-Up Diaries", "Tidepool Radio", "Podcasting 2.0"]
    ),
    (["--sort=latest"], ["Tidepool Radio", "Switchyard", "Podcasting 2.0", "Dial-Up Diaries"]),
  ])
  func sortOrders(options: [String], titles: [String]) throws {
    let catalog = try TemporaryCatalog(copying: Self.sorting)
    let json = try catalog.run(["list", "--json"] + options)
    #expect(json.status == 0)
    #expect(try JQ.lines(".[].title", json.stdoutBytes) == titles)
    let text = try catalog.run(["list"] + options)
    #expect(text.status == 0)
    let rows = text.stdout.split(separator: "\n").dropFirst()
    #expect(rows.count == titles.count)
    for (row, title) in zip(rows, titles) {
      #expect(row.contains("  " + title + "  "), "\(row)")
    }
  }

  @Test func theTableShowsIdTitleAuthorCountsAndDates() throws {
    let catalog = try TemporaryCatalog(copying: Self.sorting)
    let run = try catalog.run(["list"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "ID        TITLE            AUTHOR             EPISODES  LATEST      SUBSCRIBED",
        "d1a1d1a1  Dial-Up Diaries  Ruth Calloway             2              2022-04-15",
        "917393e3  Podcasting 2.0   Podcast Index LLC        56  2021-10-08  2024-03-09",
        "056c7019  Switchyard       Hamish Olufemi            1  2024-01-16  2020-09-13",
        "1dee190e  Tidepool Radio   Marisol Okafor            4  2024-03-15  2023-11-14",
      ])
  }

  static let longTitles = Fixture(name: "long-titles") { catalog in
    try catalog.add([
      FeedFiles.tidepool,
      try TestFeeds.write(
        TestFeeds.rss(
          guid: "1111aaaa-0000-4000-8000-000000000001",
          title: String(repeating: "A very long podcast title ", count: 6),
          author: String(repeating: "Author Name ", count: 5),
          items: [.init(title: "One", guid: "one", published: "Tue, 05 Mar 2024 14:07:00 GMT")]),
        named: "long.xml", in: catalog.directory),
    ])
  }

  @Test(arguments: [40, 60, 72, 100])
  func theTableFitsTheWidth(columns: Int) throws {
    let catalog = try TemporaryCatalog(copying: Self.longTitles)
    let run = try catalog.run(["list"], environment: ["COLUMNS": String(columns)])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    // The fixed columns (id, counts, dates) need 56 columns and 2 flexible ones at their
    // minimum: below that the table cannot shrink further.
    let limit = max(columns, 8 + 2 + 12 + 2 + 8 + 2 + 8 + 2 + 10 + 2 + 10)
    for line in lines {
      #expect(line.count <= limit, "\(line)")
    }
    #expect(lines.contains { $0.contains("…") })
  }

  @Test func theJSONFollowsTheContract() throws {
    let catalog = try TemporaryCatalog(copying: Self.sorting)
    let run = try catalog.run(["list", "--json"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let bytes = run.stdoutBytes
    // Every key of the contract with its type, and no episodes or warnings.
    #expect(
      try JQ.holds(
        """
        type == "array" and length == 4 and all(.[];
          (.id | type) == "string" and (.feedUrl | type) == "string"
          and (.format | IN("rss2", "rss09x")) and (.title | type) == "string"
          and has("author") and has("description") and has("link") and has("language")
          and has("imageUrl") and (.categories | type) == "array" and has("explicit")
          and has("newFeedUrl") and (.subscribed | test("^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT\\\\d\\\\d:\\\\d\\\\d:\\\\d\\\\dZ$"))
          and (.episodeCount | type) == "number" and has("latestEpisode")
          and has("lastChecked") and has("lastError")
          and (has("episodes") | not) and (has("warnings") | not))
        """, bytes))
    let rows = try JQ.lines(".[] | [.id, .episodeCount, .latestEpisode, .subscribed] | @tsv", bytes)
    #expect(
      rows == [
        "\(Self.undated)\t2\t\t2022-04-15T05:20:00Z",
        "\(IDs.podcasting20)\t56\t2021-10-08T18:55:32Z\t2024-03-09T16:00:00Z",
        "\(IDs.switchyard)\t1\t2024-01-16T06:30:00Z\t2020-09-13T12:26:40Z",
        "\(IDs.tidepool)\t4\t2024-03-15T09:00:00Z\t2023-11-14T22:13:20Z",
      ])
  }

  @Test func aFailedRefreshIsMarked() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    try catalog.sql(
      """
      UPDATE podcasts SET last_error = 'HTTP 404 Not Found', last_error_at = 1710000000
      WHERE id = '\(IDs.switchyard)';
      """)
    let text = try catalog.run(["list"])
    #expect(text.status == 0)
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("ID           TITLE") == true)
    #expect(lines.contains { $0.hasPrefix("056c7019  !  Switchyard") })
    #expect(lines.contains { $0.hasPrefix("1dee190e     Tidepool Radio") })
    #expect(text.stderr == "! the last refresh failed; 'podcasts show <id>' says why\n")
    let json = try catalog.run(["list", "--json"])
    #expect(
      try JQ.lines(".[] | \"\\(.title): \\(.lastError) \\(.lastErrorAt)\"", json.stdoutBytes) == [
        "Podcasting 2.0: null null",
        "Switchyard: HTTP 404 Not Found 2024-03-09T16:00:00Z",
        "Tidepool Radio: null null",
      ])
  }
}
