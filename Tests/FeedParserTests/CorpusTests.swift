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

@Suite struct FeedparserCorpusTests {
  /// feedparser's own test files, many deliberately odd: each either parses or is refused
  /// with a ``FeedParseError``; nothing else may happen.
  @Test func everyFileParsesOrIsRefused() throws {
    let files = TestFiles.files(under: TestFiles.corpusFile("feedparser"))
    #expect(files.count > 2000)
    var parsed = 0
    for file in files {
      do {
        _ = try FeedParser.parse(Data(contentsOf: file), baseURL: file.absoluteString)
        parsed += 1
      } catch is FeedParseError {
      } catch {
        Issue.record("\(file.lastPathComponent): \(error)")
      }
    }
    #expect(parsed > files.count * 9 / 10)
  }
}
