import Foundation
import Testing

@Suite("podcasts show")
struct ShowCommandTests {
  @Test func theDetailsOfTheSampleFeed() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    try catalog.sql(
      """
      UPDATE subscriptions SET subscribed = 1700000000;
      UPDATE podcasts SET added = 1700000000, last_checked = 1710000000,
        last_updated = 1705000000;
      """)
    let run = try catalog.run(["show", "1DEE190E"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let feedURL = URL(fileURLWithPath: FeedFiles.tidepool).absoluteString
    #expect(
      run.stdout == """
        Tidepool Radio
        by Marisol Okafor

        Short conversations about the creatures that live between the tides.

        id:           1dee190e-173f-5586-ad29-300b960f9312
        feed:         \(feedURL)
        website:      https://tidepool.example.com/
        image:        https://tidepool.example.com/art/cover-3000.jpg
        categories:   Science/Nature, Kids & Family, Marine biology
        language:     en-us
        explicit:     no
        format:       rss2
        episodes:     4 episodes, the latest on 2024-03-15
        subscribed:   2023-11-14
        added:        2023-11-14T22:13:20Z
        last checked: 2024-03-09T16:00:00Z
        last updated: 2024-01-11T19:06:40Z
        """ + "\n")
  }

  static let paragraph = "A show about <b>tides</b> &amp; the <i>creatures</i> living in them,"

  /// A podcast whose description is two paragraphs of HTML, and a long last error.
  static let wrapped = Fixture(name: "wrapped") { catalog in
    let description =
      "<![CDATA[<p>" + Array(repeating: paragraph, count: 4).joined(separator: " ")
      + "</p><p>Second paragraph.</p>]]>"
    let feed = try TestFeeds.write(
      TestFeeds.rss(
        guid: "4444dddd-0000-4000-8000-000000000004", title: "Wrapped",
        description: description, items: []),
      named: "wrapped.xml", in: catalog.directory)
    try catalog.add([feed])
    try catalog.sql(
      "UPDATE podcasts SET last_error = '\(Array(repeating: "word", count: 30).joined(separator: " "))'"
    )
  }

  @Test(arguments: [30, 50, 80])
  func theDescriptionIsCleanTextWrappedToTheWidth(columns: Int) throws {
    let catalog = try TemporaryCatalog(copying: Self.wrapped)
    let run = try catalog.run(["show", "4444"], environment: ["COLUMNS": String(columns)])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // Title, author, a blank line, then the first paragraph up to the next blank line.
    #expect(lines[0...2] == ["Wrapped", "by Test Author", ""])
    let first = lines[3...].prefix { !$0.isEmpty }
    #expect(first.count > 1)
    #expect(first.allSatisfy { $0.count <= columns }, "\(first)")
    let clean = "A show about tides & the creatures living in them,"
    #expect(
      first.joined(separator: " ") == Array(repeating: clean, count: 4).joined(separator: " "))
    #expect(lines[3 + first.count + 1] == "Second paragraph.")
    // A sentence wraps under its value; the first line keeps the label.
    let error = lines.drop { !$0.hasPrefix("last error:") }.prefix { !$0.isEmpty }
    #expect(error.count > 1)
    #expect(
      error.dropFirst().allSatisfy { $0.hasPrefix("              word") && $0.count <= columns })
    #expect(error.joined().split(separator: " ").filter { $0 == "word" }.count == 30)
  }

  @Test func theJSONIsOneObjectLikeAListEntry() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let show = try catalog.run(["show", "917393e3", "--json"])
    #expect(show.status == 0)
    #expect(show.stderr.isEmpty)
    let list = try catalog.run(["list", "--json"])
    let fromList = try JQ.run(
      ".[] | select(.id == \"\(IDs.podcasting20)\")", list.stdoutBytes, arguments: ["-c"])
    let shown = try JQ.lines(
      """
      ., ([.id, .title, .author, .language, .explicit, .episodeCount, .latestEpisode] | @tsv),
        (has("episodes") or has("warnings"))
      """, show.stdoutBytes, arguments: ["-rc"])
    #expect(
      shown == [
        String(fromList.dropLast()),
        "\(IDs.podcasting20)\tPodcasting 2.0\tPodcast Index LLC\ten\tfalse\t56\t2021-10-08T18:55:32Z",
        "false",
      ])
  }

  @Test func aFeedURLNamesThePodcast() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let url = URL(fileURLWithPath: FeedFiles.switchyard).absoluteString
    let run = try catalog.run(["show", url, "--json"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("{\"id\":\"\(IDs.switchyard)\","))
  }
}
