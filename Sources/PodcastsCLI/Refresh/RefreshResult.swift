import Catalog

/// What refreshing one podcast did.
struct RefreshResult: Sendable {
  enum Status: String, Sendable {
    /// The feed was fetched and saved; the counts say whether anything in it was new.
    case updated
    /// The server answered 304 Not Modified: nothing was parsed or written but the check time.
    case notModified
    /// The feed URL changed: a permanent redirect, or the feed announced a new address.
    case moved
    case failed
  }

  let podcastID: String
  var title: String?
  /// The feed URL stored once the refresh is done.
  var feedURL: String
  var status: Status
  var newEpisodes = 0
  /// Stored episodes that the feed changed.
  var updatedEpisodes = 0
  var movedFrom: String?
  var movedTo: String?
  /// Why the refresh failed, on one line.
  var error: String?
  /// What went wrong without failing the refresh, e.g. a move that could not be applied.
  var warnings: [String] = []

  /// A podcast about to be refreshed, as the catalog knows it.
  init(_ podcast: StoredPodcast) {
    podcastID = podcast.id
    title = podcast.podcast.title
    feedURL = podcast.feedURL
    status = .notModified
  }

  /// Counts a save of the feed (a refresh may save twice when the feed announces a new URL).
  mutating func add(_ report: SaveReport) {
    title = report.title ?? title
    newEpisodes += report.newEpisodes
    updatedEpisodes += report.updatedEpisodes
    if status == .notModified { status = .updated }
  }

  /// Records that the feed URL is now `target`.
  mutating func move(to target: String) {
    movedFrom = movedFrom ?? feedURL
    movedTo = target
    feedURL = target
    status = .moved
  }

  mutating func fail(_ message: String) {
    error = message
    status = .failed
  }
}
