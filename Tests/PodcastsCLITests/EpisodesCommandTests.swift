import Foundation
import Testing

@Suite("podcasts episodes")
struct EpisodesCommandTests {
  @Test func theTableShowsTheTwentyNewestAndSaysHowToSeeAll() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let run = try catalog.run(["episodes", "917393e3"])
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 21)
    #expect(lines.first == "DATE        DURATION  TITLE")
    #expect(lines[1] == "2021-10-08            Episode 57: Rebel Rubes")
    #expect(lines[20] == "2021-05-21            Episode 38: Don't Feed The Monkeys")
    #expect(run.stderr == "Showing the 20 newest of 56 episodes; --limit 56 shows them all.\n")
    let quiet = try catalog.run(["-q", "episodes", "917393e3"])
    #expect(quiet.stdout == run.stdout)
    #expect(quiet.stderr.isEmpty)
  }

  @Test(arguments: [1, 3, 56, 100])
  func limitCountsEpisodesInTheTableAndTheJSON(limit: Int) throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let text = try catalog.run(["episodes", IDs.podcasting20, "--limit", String(limit)])
    #expect(text.status == 0)
    #expect(text.stderr.isEmpty)
    #expect(text.stdout.split(separator: "\n").count == min(limit, 56) + 1)
    let json = try catalog.run(["episodes", "917393E3", "-n", String(limit), "--json"])
    #expect(json.status == 0)
    #expect(try JQ.run("length", json.stdoutBytes) == "\(min(limit, 56))\n")
  }

  @Test func theJSONHasEveryEpisodeNewestFirstWithItsPodcastId() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let json = try catalog.run(["episodes", "917393e3", "--json"])
    #expect(json.status == 0)
    #expect(json.stderr.isEmpty)
    let bytes = json.stdoutBytes
    let facts = try JQ.run(
      """
      [length, ([.[].published] == ([.[].published] | sort | reverse)),
        all(.[]; .podcastId == "\(IDs.podcasting20)"),
        all(.[]; has("guid") and (.title | type) == "string" and has("description")
          and has("link") and has("duration") and (.enclosure.url | startswith("http"))
          and has("season") and has("episode") and has("episodeType") and has("explicit")
          and has("imageUrl") and (.transcripts | type) == "array" and has("chapters")
          and (.firstSeen | type) == "string")]
      | @tsv
      """, bytes)
    #expect(facts == "56\ttrue\ttrue\ttrue\n")
  }

  @Test func episodesOfTheSampleFeedMatchWhatItSays() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let text = try catalog.run(["episodes", "1dee"])
    #expect(text.status == 0)
    #expect(text.stderr.isEmpty)
    #expect(
      text.stdout == """
        DATE        DURATION  TITLE
        2024-03-15   1:02:03  Anemones Don't Blink
        2024-03-08     25:30  The Hermit Crab Housing Market
        2024-03-04     30:31  Bonus: Listener Questions About Starfish
        2024-03-01      1:35  Trailer: Welcome to the Tidepool
        """ + "\n")
    let json = try catalog.run(["episodes", "1dee", "--json"])
    #expect(
      try JQ.lines(".[] | [.guid, .duration, .enclosure.url] | @tsv", json.stdoutBytes) == [
        "tidepool-s1e3\t3723\thttps://cdn.example.com/tidepool/s1e3.mp3?a=1&b=2",
        "tidepool-s1e2\t1530\thttps://cdn.example.com/tidepool/s1e2.mp3",
        "tidepool-bonus-1\t1831\thttps://cdn.example.com/tidepool/bonus-1.m4a",
        "https://tidepool.example.com/episodes/trailer\t95\thttps://cdn.example.com/tidepool/trailer.mp3",
      ])
  }

  /// Markup in titles is stripped for the table; the JSON has the same clean text.
  @Test func titlesAreCleanText() throws {
    let catalog = try TemporaryCatalog()
    let feed = try TestFeeds.write(
      TestFeeds.rss(
        guid: "2222bbbb-0000-4000-8000-000000000002", title: "Markup",
        items: [
          .init(
            title: "&lt;b&gt;Bold&lt;/b&gt; &amp;amp; &lt;i&gt;italic&lt;/i&gt;\n   news",
            guid: "m1", published: "Tue, 05 Mar 2024 14:07:00 GMT", duration: "3600")
        ]), named: "markup.xml", in: catalog.directory)
    try catalog.add([feed])
    let text = try catalog.run(["episodes", "2222"])
    #expect(text.stdout.split(separator: "\n").last == "2024-03-05   1:00:00  Bold & italic news")
    let json = try catalog.run(["episodes", "2222", "--json"])
    #expect(try JQ.run(".[0].title", json.stdoutBytes) == "Bold & italic news\n")
  }

  @Test func aPodcastWithoutEpisodesSaysSo() throws {
    let catalog = try TemporaryCatalog()
    let feed = try TestFeeds.write(
      TestFeeds.rss(guid: "3333cccc-0000-4000-8000-000000000003", title: "Quiet", items: []),
      named: "quiet.xml", in: catalog.directory)
    try catalog.add([feed])
    let text = try catalog.run(["episodes", "3333"])
    #expect(text.status == 0)
    #expect(text.stdout.isEmpty)
    #expect(text.stderr == "Quiet has no episodes.\n")
    let json = try catalog.run(["episodes", "3333", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout == "[]\n")
  }
}
