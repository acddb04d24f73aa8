import Foundation
import PodcastModel

/// The Podcast and Episode objects of the JSON contract (JSON.md).
///
/// The `…Members` methods write the standard keys into an object the caller has opened, so
/// that a command can add its own keys before closing it:
///
///     json.beginObject()
///     json.podcastMembers(podcast)
///     json.key("subscribed")
///     json.date(subscribedAt)
///     json.endObject()
///
/// Text fields are clean text (``HTMLText/plainText(_:)``), URLs have their passwords masked
/// (``URLMasking/maskingCredentials(_:)``), and what the feed does not give (an empty string
/// included) is null.
extension JSONWriter {
  /// The whole Podcast object of `podcasts parse --json`, with episodes and warnings.
  public mutating func podcast(_ podcast: Podcast) {
    beginObject()
    podcastMembers(podcast)
    key("episodes")
    beginArray()
    for item in podcast.episodes { episode(item) }
    endArray()
    key("warnings")
    strings(podcast.warnings)
    endObject()
  }

  /// The Podcast keys but `episodes` and `warnings`, in the contract's order.
  public mutating func podcastMembers(_ podcast: Podcast) {
    key("id")
    string(nonEmpty(podcast.id))
    key("feedUrl")
    url(podcast.feedUrl)
    key("format")
    string(podcast.format.rawValue)
    key("title")
    text(podcast.title)
    key("author")
    text(podcast.author)
    key("description")
    text(podcast.description)
    key("link")
    url(podcast.link)
    key("language")
    string(nonEmpty(podcast.language))
    key("imageUrl")
    url(podcast.imageUrl)
    key("categories")
    strings(podcast.categories)
    key("explicit")
    bool(podcast.explicit)
    key("newFeedUrl")
    url(podcast.newFeedUrl)
    key("nextPageUrl")
    url(podcast.nextPageUrl)
  }

  /// One Episode object.
  public mutating func episode(_ episode: Episode) {
    beginObject()
    episodeMembers(episode)
    endObject()
  }

  /// The Episode keys, in the contract's order.
  public mutating func episodeMembers(_ episode: Episode) {
    key("guid")
    string(nonEmpty(episode.guid))
    key("title")
    text(episode.title)
    key("description")
    text(episode.description)
    key("link")
    url(episode.link)
    key("published")
    date(episode.published)
    key("duration")
    int(episode.duration)
    key("enclosure")
    if let enclosure = episode.enclosure {
      beginObject()
      key("url")
      url(enclosure.url)
      key("type")
      string(nonEmpty(enclosure.type))
      key("length")
      int(enclosure.length)
      endObject()
    } else {
      null()
    }
    key("season")
    int(episode.season)
    key("episode")
    int(episode.episode)
    key("episodeType")
    string(nonEmpty(episode.episodeType))
    key("explicit")
    bool(episode.explicit)
    key("imageUrl")
    url(episode.imageUrl)
    key("transcripts")
    beginArray()
    for transcript in episode.transcripts {
      beginObject()
      key("url")
      url(transcript.url)
      key("type")
      string(nonEmpty(transcript.type))
      key("language")
      string(nonEmpty(transcript.language))
      endObject()
    }
    endArray()
    key("chapters")
    if let chapters = episode.chapters {
      beginObject()
      key("url")
      url(chapters.url)
      key("type")
      string(nonEmpty(chapters.type))
      endObject()
    } else {
      null()
    }
  }

  /// A URL with its password masked; null when absent or empty.
  public mutating func url(_ value: String?) {
    string(nonEmpty(value).map(URLMasking.maskingCredentials))
  }

  private func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
