import FeedViews
import Foundation
import PodcastModel
import Testing

@Suite struct ViewModelTests {
  @Test func makesAPodcastPrintable() {
    let model = PodcastViewModel(ModelJSONTests.podcast)
    #expect(model.id == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
    #expect(model.feedUrl == "https://user:***@feeds.example.com/show.xml")
    #expect(model.format == "rss2")
    #expect(model.title == "Podcasting 2.0")
    #expect(model.author == "Adam & Dave")
    #expect(model.description == "About\n\nus")
    #expect(model.imageUrl == nil)
    #expect(model.episodeCount == 2)
    #expect(model.warnings == ["repaired a bare &"])
  }

  @Test func makesAnEpisodePrintable() {
    let model = EpisodeViewModel(ModelJSONTests.fullEpisode)
    #expect(model.title == "Episode & One")
    #expect(model.description == "First paragraph here.\n\nSecond link.")
    #expect(model.publishedText == "2024-03-05")
    #expect(model.durationText == "1:02:03")
    #expect(model.enclosureUrl == "https://u:***@cdn.example.com/ep1.mp3")
    #expect(model.enclosureSizeText == "48 MB")
    #expect(model.transcriptUrls.count == 2)
    #expect(model.chaptersUrl == "https://example.com/ep1.json")
    let now = Date(timeIntervalSince1970: 1_717_200_000)
    #expect(model.publishedShortText(now: now) == "Mar 5")
  }

  @Test func titlesStayOnOneLine() {
    let model = EpisodeViewModel(Episode(title: "<p>Part one</p><p>Part two</p>"))
    #expect(model.title == "Part one Part two")
  }

  @Test func leavesOutWhatIsMissing() {
    let model = EpisodeViewModel(
      Episode(
        title: "  ", description: "<br>", duration: -5,
        enclosure: Enclosure(url: "https://e.com/a.mp3", length: 0)))
    #expect(model.title == nil)
    #expect(model.description == nil)
    #expect(model.durationText == nil)
    #expect(model.enclosureSizeText == nil)
    #expect(model.publishedText == nil)
  }

  @Test func skipsDescriptionsWhenAsked() {
    let model = EpisodeViewModel(ModelJSONTests.fullEpisode, withDescription: false)
    #expect(model.description == nil)
    #expect(model.title == "Episode & One")
  }
}
