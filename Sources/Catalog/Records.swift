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
}

/// What unsubscribing removed.
public struct UnsubscribeReport: Sendable, Hashable {
  public var podcastID: String
  public var title: String?
  public var feedURL: String
  /// Nil when the podcast was stored without a subscription.
  public var subscribed: Date?
  public var episodesRemoved: Int
}

/// One subscription as an OPML export needs it.
public struct ExportEntry: Sendable, Hashable {
  public var title: String?
  public var feedURL: String
  public var link: String?
}

/// Podcasts and episodes whose title or description match a search, best first.
public struct SearchResults: Sendable, Hashable {
  public var podcasts: [PodcastMatch]
  public var episodes: [EpisodeMatch]
}

public struct PodcastMatch: Sendable, Hashable {
  public var podcastID: String
  public var title: String?
  public var feedURL: String
  /// Higher is better (the negated bm25 rank).
  public var score: Double
}

public struct EpisodeMatch: Sendable, Hashable {
  public var podcastID: String
  public var podcastTitle: String?
  public var episode: Episode
  /// Higher is better (the negated bm25 rank).
  public var score: Double
}
