import FeedViews
import Foundation
import PodcastModel
import Testing

@Suite struct ModelJSONTests {
  static let fullEpisode = Episode(
    guid: "ep-1", title: "Episode &amp; <b>One</b>",
    description: "<p>First paragraph&nbsp;here.</p><p>Second <a href=\"x\">link</a>.</p>"
      + "<script>track()</script>",
    link: "https://example.com/ep1", published: Date(timeIntervalSince1970: 1_709_647_620),
    duration: 3723,
    enclosure: Enclosure(
      url: "https://u:secret@cdn.example.com/ep1.mp3", type: "audio/mpeg",
      length: 48_300_000),
    season: 2, episode: 7, episodeType: "full", explicit: false,
    imageUrl: "https://example.com/ep1.jpg",
    transcripts: [
      Transcript(url: "https://example.com/ep1.vtt", type: "text/vtt", language: "en"),
      Transcript(url: "https://example.com/ep1.srt"),
    ],
    chapters: Chapters(url: "https://example.com/ep1.json", type: "application/json+chapters"))

  static let bareEpisode = Episode(title: "", description: "<p> </p>")

  static let podcast = Podcast(
    id: "917393e3-1b1e-5cef-ace4-edaa54e1f810",
    feedUrl: "https://user:pa55@feeds.example.com/show.xml", format: .rss2,
    title: "Podcasting 2.0", author: "Adam &amp; Dave", description: "<p>About</p><p>us</p>",
    link: "https://example.com", language: "en-us", imageUrl: "", categories: ["Tech/News"],
    explicit: nil, newFeedUrl: nil, episodes: [fullEpisode, bareEpisode],
    warnings: ["repaired a bare &"])

  private func decode(_ write: (inout JSONWriter) -> Void) throws -> [String: Any] {
    var json = JSONWriter()
    write(&json)
    try json.finish()
    let object = try JSONSerialization.jsonObject(with: Data(json.bytes), options: [])
    return try #require(object as? [String: Any])
  }

  @Test func writesThePodcastOfTheContract() throws {
    let object = try decode { $0.podcast(Self.podcast) }
    #expect(object["id"] as? String == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
    #expect(object["feedUrl"] as? String == "https://user:***@feeds.example.com/show.xml")
    #expect(object["format"] as? String == "rss2")
    #expect(object["title"] as? String == "Podcasting 2.0")
    #expect(object["author"] as? String == "Adam & Dave")
    #expect(object["description"] as? String == "About\n\nus")
    #expect(object["link"] as? String == "https://example.com")
    #expect(object["language"] as? String == "en-us")
    #expect(object["imageUrl"] is NSNull)
    #expect(object["categories"] as? [String] == ["Tech/News"])
    #expect(object["explicit"] is NSNull)
    #expect(object["newFeedUrl"] is NSNull)
    #expect(object["warnings"] as? [String] == ["repaired a bare &"])
    let episodes = try #require(object["episodes"] as? [[String: Any]])
    #expect(episodes.count == 2)
  }

  @Test func writesTheEpisodeOfTheContract() throws {
    let object = try decode { $0.episode(Self.fullEpisode) }
    #expect(object["guid"] as? String == "ep-1")
    #expect(object["title"] as? String == "Episode & One")
    #expect(object["description"] as? String == "First paragraph here.\n\nSecond link.")
    #expect(object["link"] as? String == "https://example.com/ep1")
    #expect(object["published"] as? String == "2024-03-05T14:07:00Z")
    #expect(object["duration"] as? Int == 3723)
    let enclosure = try #require(object["enclosure"] as? [String: Any])
    #expect(enclosure["url"] as? String == "https://u:***@cdn.example.com/ep1.mp3")
    #expect(enclosure["type"] as? String == "audio/mpeg")
    #expect(enclosure["length"] as? Int == 48_300_000)
    #expect(object["season"] as? Int == 2)
    #expect(object["episode"] as? Int == 7)
    #expect(object["episodeType"] as? String == "full")
    #expect(object["explicit"] as? Bool == false)
    #expect(object["imageUrl"] as? String == "https://example.com/ep1.jpg")
    let transcripts = try #require(object["transcripts"] as? [[String: Any]])
    #expect(transcripts.count == 2)
    #expect(transcripts[0]["language"] as? String == "en")
    #expect(transcripts[1]["type"] is NSNull && transcripts[1]["language"] is NSNull)
    let chapters = try #require(object["chapters"] as? [String: Any])
    #expect(chapters["type"] as? String == "application/json+chapters")
  }

  /// What the feed does not give is null, never an empty string; arrays stay arrays.
  @Test func writesNullForWhatIsMissing() throws {
    let object = try decode { $0.episode(Self.bareEpisode) }
    for key in [
      "guid", "title", "description", "link", "published", "duration", "enclosure", "season",
      "episode", "episodeType", "explicit", "imageUrl", "chapters",
    ] {
      #expect(object[key] is NSNull, "\(key)")
    }
    #expect(
      object["transcripts"] as? [Any] != nil && (object["transcripts"] as? [Any])?.isEmpty == true)
  }

  @Test func keepsTheKeyOrder() {
    var json = JSONWriter()
    json.episode(Self.fullEpisode)
    let text = String(decoding: json.bytes, as: UTF8.self)
    let order = [
      "guid", "title", "description", "link", "published", "duration", "enclosure", "season",
      "episode", "episodeType", "explicit", "imageUrl", "transcripts", "chapters",
    ]
    let positions = order.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
    #expect(positions.count == order.count)
    #expect(positions == positions.sorted())
  }

  /// The members methods leave the object open, for the keys a command adds.
  @Test func letsCommandsAddKeys() throws {
    let object = try decode { json in
      json.beginObject()
      json.podcastMembers(Self.podcast)
      json.key("subscribed")
      json.date(Date(timeIntervalSince1970: 0))
      json.key("episodeCount")
      json.int(Self.podcast.episodes.count)
      json.key("latestEpisode")
      json.date(nil)
      json.endObject()
    }
    #expect(object["title"] as? String == "Podcasting 2.0")
    #expect(object["subscribed"] as? String == "1970-01-01T00:00:00Z")
    #expect(object["episodeCount"] as? Int == 2)
    #expect(object["latestEpisode"] is NSNull)
    #expect(object["episodes"] == nil && object["warnings"] == nil)

    let entry = try decode { json in
      json.beginObject()
      json.episodeMembers(Self.fullEpisode)
      json.key("podcastId")
      json.string("917393e3")
      json.endObject()
    }
    #expect(entry["podcastId"] as? String == "917393e3")
    #expect(entry["guid"] as? String == "ep-1")
  }
}
