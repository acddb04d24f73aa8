import Catalog
import FeedViews

/// The JSON objects of the catalog commands (docs/json.md): the contract's Podcast and
/// Episode keys, written by the view layer, followed by what the catalog knows of them.
extension JSONWriter {
  /// A stored podcast, as `list`, `show` and `search` print it: the Podcast keys without
  /// `episodes` and `warnings`, then the subscription, counts and refresh state.
  mutating func catalogPodcast(_ stored: StoredPodcast) {
    beginObject()
    catalogPodcastMembers(stored)
    endObject()
  }

  mutating func catalogPodcastMembers(_ stored: StoredPodcast) {
    podcastMembers(stored.podcast)
    key("subscribed")
    date(stored.subscribed)
    key("episodeCount")
    int(stored.episodeCount)
    key("latestEpisode")
    date(stored.latestEpisode)
    key("added")
    date(stored.added)
    key("lastChecked")
    date(stored.refresh.lastChecked)
    key("lastUpdated")
    date(stored.refresh.lastUpdated)
    key("lastError")
    string(stored.refresh.lastError.map(Shown.maskingCredentials(inText:)))
    key("lastErrorAt")
    date(stored.refresh.lastErrorAt)
  }

  /// A stored episode, as `episodes` prints it: the Episode keys, its podcast's id and the
  /// date the catalog first saw it.
  mutating func catalogEpisode(_ stored: StoredEpisode) {
    beginObject()
    episodeMembers(stored.episode)
    key("podcastId")
    string(stored.podcastID)
    key("firstSeen")
    date(stored.firstSeen)
    endObject()
  }

  /// An episode found by `search`: the Episode keys, its podcast's id and title.
  mutating func episodeMatch(_ match: EpisodeMatch) {
    beginObject()
    episodeMembers(match.episode)
    key("podcastId")
    string(match.podcastID)
    key("podcastTitle")
    text(match.podcastTitle)
    endObject()
  }

  /// What `unsubscribe` removed.
  mutating func unsubscribeReport(_ report: UnsubscribeReport) {
    beginObject()
    key("id")
    string(report.podcastID)
    key("title")
    text(report.title)
    key("feedUrl")
    url(report.feedURL)
    key("subscribed")
    date(report.subscribed)
    key("episodesRemoved")
    int(report.episodesRemoved)
    endObject()
  }
}
