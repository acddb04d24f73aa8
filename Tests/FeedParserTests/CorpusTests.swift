import Foundation
import PodcastModel
import Testing

@testable import FeedParser

@Suite struct CorpusTests {
  @Test(arguments: TestFiles.feedparserEpisodeCounts())
  func podcastFeedParsesWithFeedparsersEpisodeCount(file: String, episodes: Int) throws {
    let url = TestFiles.corpusFile("podcasts/" + file)
    let podcast = try FeedParser.parse(Data(contentsOf: url))
    #expect(podcast.episodes.count == episodes)
    #expect(podcast.format == .rss2)
  }

  @Test func everyPodcastFeedOfTheCorpusIsCounted() throws {
    let listed = Set(TestFiles.feedparserEpisodeCounts().map(\.file))
    let present = Set(
      TestFiles.files(under: TestFiles.corpusFile("podcasts")).map(\.lastPathComponent))
    #expect(!present.isEmpty)
    #expect(listed == present)
  }
}
