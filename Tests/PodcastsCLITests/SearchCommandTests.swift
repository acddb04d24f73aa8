import Foundation
import Testing

@Suite("podcasts search")
struct SearchCommandTests {
  @Test func findsPodcastsAndEpisodes() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let run = try catalog.run(["search", "tide*"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "1 podcast")
    #expect(lines[2].hasPrefix("1dee190e  Tidepool Radio  Marisol Okafor"))
    #expect(lines[3] == "")
    #expect(lines[4] == "1 episode")
    #expect(lines[5] == "ID        PODCAST         DATE        DURATION  TITLE")
    #expect(
      lines[6] == "1dee190e  Tidepool Radio  2024-03-01      1:35  Trailer: Welcome to the Tidepool"
    )
  }

  @Test(arguments: [
    (["value"], 0, 20), (["value", "--limit", "5"], 0, 5), (["podcasting"], 1, 20),
    (["Anemones", "sea"], 0, 1), (["ANEMONE"], 0, 1), (["Inés"], 0, 1), (["ines"], 0, 1),
  ])
  func theJSONListsMatchesBestFirst(words: [String], podcasts: Int, episodes: Int) throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let run = try catalog.run(["search", "--json"] + words)
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let bytes = run.stdoutBytes
    let query = words.filter { !$0.hasPrefix("-") && Int($0) == nil }.joined(separator: " ")
    let facts = try JQ.run(
      """
      [.query, (.podcasts | length), (.episodes | length),
        all(.podcasts[]; (.id | type) == "string" and (.episodeCount | type) == "number"
          and has("subscribed") and has("latestEpisode")),
        all(.episodes[]; (.podcastId | type) == "string" and (.podcastTitle | type) == "string"
          and has("guid") and has("enclosure") and has("published"))]
      | @tsv
      """, bytes)
    #expect(facts == "\(query)\t\(podcasts)\t\(episodes)\ttrue\ttrue\n")
  }

  @Test func nothingFoundIsNotAFailure() throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let text = try catalog.run(["search", "zyzzyva"])
    #expect(text.status == 0)
    #expect(text.stdout.isEmpty)
    #expect(text.stderr == "Nothing in the catalog matches 'zyzzyva'.\n")
    let json = try catalog.run(["search", "zyzzyva", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout == "{\"query\":\"zyzzyva\",\"podcasts\":[],\"episodes\":[]}\n")
  }

  /// FTS5 syntax typed by a user is searched as text, never an error.
  @Test(arguments: ["\"unbalanced", "NEAR(a b)", "title:x", "a AND", "(x", "-x", "x*y"])
  func queryOperatorsAreText(word: String) throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let run = try catalog.run(["search", "--json", "--", word])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("{\"query\":"))
    #expect(run.stdout.contains(",\"podcasts\":["))
  }
}
