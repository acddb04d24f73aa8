import Foundation
import PodcastModel
import Testing

@testable import Catalog

@Suite struct SearchTests {
  let folder: TemporaryFolder
  let catalog: Catalog
  let podcastID = "5e4c0000-0000-5000-8000-000000000000"

  init() throws {
    folder = try TemporaryFolder()
    catalog = try openCatalog(folder.path("catalog.sqlite3"))
    let episodes = [
      Episode(
        guid: "e1", title: "C++ & Rust: a love story",
        description: "<p>NEAR misses AND (parentheses)</p>"),
      Episode(guid: "e2", title: "Café culture", description: "the naïve barista"),
      Episode(guid: "e3", title: "Podcasting 2.0", description: "<b>bold</b> chapters"),
      Episode(
        guid: "e4", title: "Say \"hello\" world",
        description: "<a href=\"https://x.example/\">link</a>"),
    ]
    try catalog.save(
      makePodcast(
        id: podcastID, title: "Searchable <em>Show</em>", description: "Weekly love letters",
        episodes: episodes),
      feedURL: "https://search.example/feed", subscribing: epoch)
  }

  /// Whatever the user types, the search never fails on FTS5 syntax: operators, quotes,
  /// column filters and brackets are just text.
  @Test(arguments: [
    ("rust:", ["e1"]), ("C++", ["e1"]), ("NEAR(misses", ["e1"]), ("AND", ["e1"]),
    ("(parentheses)", ["e1"]), ("rust love", ["e1"]), ("rust -love", ["e1"]),
    ("\"hello\"", ["e4"]), ("hello\"", ["e4"]), ("\"hello", ["e4"]), ("'hello'", ["e4"]),
    ("cafe", ["e2"]), ("NAÏVE", ["e2"]), ("podcast*", ["e3"]), ("^podcasting", ["e3"]),
    ("2.0", ["e3"]), ("bold", ["e3"]), ("{bold chapters}", ["e3"]),
    ("b", []), ("href", []), ("title:podcasting", []), ("rust cafe", []), ("OR", []),
    ("*", []), ("\"", []), ("\"\"", []), ("(", []), (")", []), ("-", []), ("+", []), ("", []),
    ("   ", []), ("NOT", []), ("a\u{0}b", []), ("🎙️", []), ("e1 OR e2", []), ("x:y:z", []),
  ])
  func neverFailsOnSyntax(query: String, guids: [String]) throws {
    let results = try catalog.search(query)
    #expect(results.episodes.map(\.episode.guid) == guids)
  }

  @Test func findsPodcastsAndSaysWhereEpisodesBelong() throws {
    let results = try catalog.search("love")
    #expect(results.podcasts.map(\.podcastID) == [podcastID])
    #expect(results.podcasts.first?.title == "Searchable <em>Show</em>")
    #expect(results.podcasts.first?.feedURL == "https://search.example/feed")
    let match = try #require(results.episodes.first)
    #expect(results.episodes.count == 1)
    #expect(match.podcastID == podcastID && match.podcastTitle == "Searchable <em>Show</em>")
    #expect(match.episode.title == "C++ & Rust: a love story")
    #expect(try catalog.search("em").podcasts.isEmpty, "markup must not be indexed")
  }

  @Test func ranksTitleMatchesFirstAndHonoursTheLimit() throws {
    let episodes =
      (1...30).map { n in
        Episode(guid: "r\(n)", title: "Episode \(n)", description: "talk about weather and more")
      } + [Episode(guid: "top", title: "Weather", description: "forecast")]
    try catalog.save(
      makePodcast(id: "ranked", title: "Ranked", episodes: episodes),
      feedURL: "https://r.example/feed", subscribing: epoch)
    let results = try catalog.search("weather", limit: 5)
    #expect(results.episodes.count == 5)
    #expect(results.episodes.first?.episode.guid == "top")
    let scores = results.episodes.map(\.score)
    #expect(scores == scores.sorted(by: >))
    #expect(try catalog.search("weather", limit: 0).episodes.isEmpty)
  }

  @Test func rebuildsTheIndexWithANewTextFunction() throws {
    #expect(try catalog.search("bold").episodes.count == 1)
    let path = folder.path("catalog.sqlite3")
    let shouting = try Catalog(path: path, plainText: { stripTags($0).uppercased() + " rebuilt" })
    try shouting.rebuildSearchIndex()
    #expect(try shouting.search("rebuilt", limit: 100).episodes.count == 4)
    #expect(try shouting.search("rebuilt").podcasts.map(\.podcastID) == [podcastID])
    #expect(try shouting.rawInt("SELECT count(*) FROM episode_search") == 4)
    #expect(try shouting.search("b").episodes.isEmpty)
  }

  @Test(
    arguments: [
      ("hello world", "\"hello\" \"world\""),
      ("say \"hi\"", "\"say\" \"\"\"hi\"\"\""),
      ("pod* **", "\"pod\"*"),
      ("NEAR(a", "\"NEAR(a\""),
      ("* - ( )", nil),
    ] as [(String, String?)])
  func quotesEveryWord(text: String, expression: String?) {
    #expect(SearchExpression.fts5(for: text) == expression)
  }
}
