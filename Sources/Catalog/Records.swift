import Foundation
import PodcastModel

/// A podcast as the catalog keeps it.
public struct StoredPodcast: Sendable, Hashable {
  public var id: String
  public var feedURL: String
  /// The metadata as last saved. `id` and `feedUrl` are set; `episodes` and `warnings` are
  /// empty (read episodes with ``Catalog/episodes(ofPodcast:limit:offset:)``).
  public var podcast: Podcast
  /// When the user subscribed; nil for a podcast saved without subscribing.
  public var subscribed: Date?
  public var episodeCount: Int
  /// The newest `published` date among its episodes.
  public var latestEpisode: Date?
  /// When the podcast was first saved.
  public var added: Date
  public var refresh: RefreshState

  public init(
    id: String, feedURL: String, podcast: Podcast, subscribed: Date?, episodeCount: Int,
    latestEpisode: Date?, added: Date, refresh: RefreshState = RefreshState()
  ) {
    self.id = id
    self.feedURL = feedURL
    self.podcast = podcast
    self.subscribed = subscribed
    self.episodeCount = episodeCount
    self.latestEpisode = latestEpisode
    self.added = added
    self.refresh = refresh
  }
}

/// What refreshing a feed needs to remember between runs.
public struct RefreshState: Sendable, Hashable {
  public var validators: HTTPValidators
  /// The last successful fetch, whether or not the feed had changed.
  public var lastChecked: Date?
  /// The last save that changed something (the podcast, or new or changed episodes).
  public var lastUpdated: Date?
  /// The last failure since the last success, with its time.
  public var lastError: String?
  public var lastErrorAt: Date?

  public init(
    validators: HTTPValidators = HTTPValidators(), lastChecked: Date? = nil,
    lastUpdated: Date? = nil, lastError: String? = nil, lastErrorAt: Date? = nil
  ) {
    self.validators = validators
    self.lastChecked = lastChecked
    self.lastUpdated = lastUpdated
    self.lastError = lastError
    self.lastErrorAt = lastErrorAt
  }
}

/// The HTTP validators of the last fetch, sent back as If-None-Match / If-Modified-Since.
public struct HTTPValidators: Sendable, Hashable {
  public var etag: String?
  public var lastModified: String?

  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }
}

/// An episode as the catalog keeps it.
public struct StoredEpisode: Sendable, Hashable {
  public var podcastID: String
  public var episode: Episode
  /// When the catalog first saw it.
  public var firstSeen: Date

  public init(podcastID: String, episode: Episode, firstSeen: Date) {
    self.podcastID = podcastID
    self.episode = episode
    self.firstSeen = firstSeen
  }
}

/// The order of ``Catalog/subscriptions(orderedBy:)``.
public enum SubscriptionOrder: Sendable, Hashable, CaseIterable {
  /// Title A to Z, ignoring ASCII case; podcasts without a title last.
  case title
  /// Oldest subscription first.
  case subscribed
  /// The podcast with the newest episode first; podcasts without dated episodes last.
  case latestEpisode
}

public struct Subscription: Sendable, Hashable {
  public var podcastID: String
  public var subscribed: Date

  public init(podcastID: String, subscribed: Date) {
    self.podcastID = podcastID
    self.subscribed = subscribed
  }
}

/// What a feed save did.
public struct SaveReport: Sendable, Hashable {
  public var podcastID: String
  public var title: String?
  /// The podcast was not in the catalog before.
  public var isNewPodcast: Bool
  public var newEpisodes: Int
  /// Episodes already stored that the feed changed.
  public var updatedEpisodes: Int
  /// Later episodes of the feed with the identity of an earlier one, left out.
  public var duplicateEpisodes: Int
  /// Episodes with no guid, enclosure, link or title, left out: nothing tells them apart.
  public var episodesWithoutIdentity: Int
  /// The subscription existed before this save (its date is kept).
  public var wasSubscribed: Bool
  /// The date subscribed after the save; nil when not subscribed.
  public var subscribed: Date?

  public init(
    podcastID: String, title: String?, isNewPodcast: Bool, newEpisodes: Int, updatedEpisodes: Int,
    duplicateEpisodes: Int = 0, episodesWithoutIdentity: Int = 0, wasSubscribed: Bool,
    subscribed: Date?
  ) {
    self.podcastID = podcastID
    self.title = title
    self.isNewPodcast = isNewPodcast
    self.newEpisodes = newEpisodes
    self.updatedEpisodes = updatedEpisodes
    self.duplicateEpisodes = duplicateEpisodes
    self.episodesWithoutIdentity = episodesWithoutIdentity
    self.wasSubscribed = wasSubscribed
    self.subscribed = subscribed
  }
}

/// What unsubscribing removed.
public struct UnsubscribeReport: Sendable, Hashable {
  public var podcastID: String
  public var title: String?
  public var feedURL: String
  /// Nil when the podcast was stored without a subscription.
  public var subscribed: Date?
  public var episodesRemoved: Int

  public init(
    podcastID: String, title: String?, feedURL: String, subscribed: Date?, episodesRemoved: Int
  ) {
    self.podcastID = podcastID
    self.title = title
    self.feedURL = feedURL
    self.subscribed = subscribed
    self.episodesRemoved = episodesRemoved
  }
}

/// One subscription as an OPML export needs it.
public struct ExportEntry: Sendable, Hashable {
  public var title: String?
  public var feedURL: String
  public var link: String?

  public init(title: String?, feedURL: String, link: String?) {
    self.title = title
    self.feedURL = feedURL
    self.link = link
  }
}

/// Podcasts and episodes whose title or description match a search, best first.
public struct SearchResults: Sendable, Hashable {
  public var podcasts: [PodcastMatch]
  public var episodes: [EpisodeMatch]

  public init(podcasts: [PodcastMatch], episodes: [EpisodeMatch]) {
    self.podcasts = podcasts
    self.episodes = episodes
  }
}

public struct PodcastMatch: Sendable, Hashable {
  public var podcastID: String
  public var title: String?
  public var feedURL: String
  /// Higher is better (the negated bm25 rank).
  public var score: Double

  public init(podcastID: String, title: String?, feedURL: String, score: Double) {
    self.podcastID = podcastID
    self.title = title
    self.feedURL = feedURL
    self.score = score
  }
}

public struct EpisodeMatch: Sendable, Hashable {
  public var podcastID: String
  public var podcastTitle: String?
  public var episode: Episode
  /// Higher is better (the negated bm25 rank).
  public var score: Double

  public init(podcastID: String, podcastTitle: String?, episode: Episode, score: Double) {
    self.podcastID = podcastID
    self.podcastTitle = podcastTitle
    self.episode = episode
    self.score = score
  }
}
