import FeedParser
import FeedViews
import Foundation
import PodcastModel
import Testing

/// The sample feeds against what SampleFeeds/README.md says a parser must get out of them
/// (the facts are in ``SampleFeedFacts``).
@Suite struct SampleFeedTests {
  typealias PodcastFacts = SampleFeedFacts.PodcastFacts
  typealias EpisodeFacts = SampleFeedFacts.EpisodeFacts
  typealias WarningFact = SampleFeedFacts.WarningFact

  static let readme = TestFiles.sampleFeeds.appendingPathComponent("README.md")

  /// Every sample feed, by file name.
  static let files: [String] = TestFiles.files(under: TestFiles.sampleFeeds)
    .map(\.lastPathComponent).filter { $0 != readme.lastPathComponent }

  /// The README calls all feeds well-formed but these two.
  static let malformed: Set = ["broken.xml", "utf8-declared-latin1-bytes.xml"]

  static func parse(_ file: String) throws -> Podcast {
    let url = TestFiles.sampleFeeds.appendingPathComponent(file)
    return try FeedParser.parse(Data(contentsOf: url), baseURL: url.absoluteString)
  }

  @Test func everySampleFeedIsDescribedAndTested() throws {
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    #expect(Self.files.count >= 13)
    for file in Self.files {
      #expect(readme.contains("- `\(file)`:"), "\(file) has no entry in the README")
    }
    #expect(Set(SampleFeedFacts.podcasts.map(\.file)) == Set(Self.files))
  }

  @Test(arguments: SampleFeedFacts.podcasts)
  func podcast(_ facts: PodcastFacts) throws {
    let podcast = try Self.parse(facts.file)
    #expect(podcast.format == facts.format)
    #expect(podcast.episodes.count == facts.episodeCount)
    facts.id.check(podcast.id, "id")
    facts.feedUrl.check(podcast.feedUrl, "feedUrl")
    facts.title.check(podcast.title.map(HTMLText.singleLine), "title")
    if let authors = facts.author {
      let author = podcast.author.map(HTMLText.singleLine)
      #expect(authors.contains { $0 == author }, "author \(author ?? "nil") is none of \(authors)")
    }
    facts.description.check(podcast.description.map(HTMLText.plainText), "description")
    facts.link.check(podcast.link, "link")
    facts.language.check(podcast.language, "language")
    facts.imageUrl.check(podcast.imageUrl, "imageUrl")
    facts.categories.check(podcast.categories, "categories")
    facts.explicit.check(podcast.explicit, "explicit")
    facts.newFeedUrl.check(podcast.newFeedUrl, "newFeedUrl")
  }

  @Test(arguments: SampleFeedFacts.episodes)
  func episode(_ facts: EpisodeFacts) throws {
    let podcast = try Self.parse(facts.file)
    try #require(podcast.episodes.indices.contains(facts.index))
    let episode = podcast.episodes[facts.index]
    facts.title.check(episode.title.map(HTMLText.singleLine), "title")
    facts.guid.check(episode.guid, "guid")
    facts.link.check(episode.link, "link")
    try facts.published.map { try #require(isoDate($0)) }.check(episode.published, "published")
    facts.duration.check(episode.duration, "duration")
    facts.enclosureURL.check(episode.enclosure?.url, "enclosure URL")
    facts.enclosureType.check(episode.enclosure?.type, "enclosure type")
    facts.enclosureLength.check(episode.enclosure?.length, "enclosure length")
    facts.season.check(episode.season, "season")
    facts.episode.check(episode.episode, "episode")
    facts.episodeType.check(episode.episodeType, "episodeType")
    facts.explicit.check(episode.explicit, "explicit")
    facts.imageUrl.check(episode.imageUrl, "imageUrl")
    facts.transcripts.check(
      episode.transcripts.map { "\($0.type ?? "nil") \($0.language ?? "nil")" }, "transcripts")
    facts.chaptersURL.check(episode.chapters?.url, "chapters URL")
    facts.description.check(episode.description.map(HTMLText.plainText), "description")
  }

  @Test(arguments: SampleFeedFacts.identities)
  func identities(file: String, identities: [String]) throws {
    let podcast = try Self.parse(file)
    #expect(podcast.episodes.map(\.identity) == identities)
  }

  @Test(arguments: files)
  func everyEpisodeHasItsOwnIdentity(file: String) throws {
    let identities = try Self.parse(file).episodes.map(\.identity)
    #expect(!identities.contains(nil))
    #expect(Set(identities).count == identities.count, "\(identities)")
  }

  @Test func prefixesDoNotMatterOnlyNamespaces() throws {
    let full = try Self.parse("full-rss2.xml")
    let prefixed = try Self.parse("prefix-it.xml")
    #expect(prefixed.episodes.count == full.episodes.count)
    for (mine, theirs) in zip(prefixed.episodes, full.episodes) {
      #expect(mine == theirs)
    }
    var channel = prefixed
    var expected = full
    channel.episodes = []
    expected.episodes = []
    #expect(channel == expected)
  }

  @Test func noBreakSpaceFromAnUndeclaredEntityIsKept() throws {
    let title = try #require(try Self.parse("broken.xml").episodes.dropFirst().first?.title)
    let spellings = ["\u{A0}", "&nbsp;", "&#160;", "&#xA0;", "&#xa0;"]
    #expect(spellings.contains { title.contains($0) }, "\(title)")
  }

  @Test(arguments: SampleFeedFacts.warnings)
  func warning(_ fact: WarningFact) throws {
    let warnings = try Self.parse(fact.file).warnings
    #expect(warnings.contains(where: fact.matches), "no warning about \(fact.repair): \(warnings)")
  }

  @Test(arguments: files.filter { !malformed.contains($0) })
  func wellFormedFeedClaimsNoRepair(file: String) throws {
    let warnings = try Self.parse(file).warnings
    for fact in SampleFeedFacts.warnings {
      #expect(!warnings.contains(where: fact.matches), "\(fact.repair): \(warnings)")
    }
  }

  /// The DOCTYPE's URL moved to a port of ours: a parser that fetches it connects there.
  @Test func netscapeDoctypeIsNotFetched() throws {
    let url = TestFiles.sampleFeeds.appendingPathComponent("rss091.xml")
    let original = try String(contentsOf: url, encoding: .isoLatin1)
    let dtd = "http://my.netscape.com/publish/formats/rss-0.91.dtd"
    try #require(original.contains(dtd))
    let listener = try LoopbackListener()
    let local = original.replacingOccurrences(
      of: dtd, with: "http://127.0.0.1:\(listener.port)/rss-0.91.dtd")
    let parsed = Result { try FeedParser.parse(Data(local.utf8), baseURL: url.absoluteString) }
    #expect(listener.stop() == 0)
    #expect(try parsed.get() == Self.parse("rss091.xml"))
  }

  @Test(arguments: files, [1, 7, 64, 4096])
  func chunkedParsingMatchesWholeParsing(file: String, chunkSize: Int) throws {
    let url = TestFiles.sampleFeeds.appendingPathComponent(file)
    let data = try Data(contentsOf: url)
    let parser = FeedParser(baseURL: url.absoluteString)
    var offset = data.startIndex
    while offset < data.endIndex {
      let end = min(data.endIndex, offset + chunkSize)
      try parser.feed(data[offset..<end])
      offset = end
    }
    #expect(try parser.finish() == FeedParser.parse(data, baseURL: url.absoluteString))
  }
}
