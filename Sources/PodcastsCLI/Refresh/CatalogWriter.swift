import Catalog
import Foundation

/// The one catalog connection that `refresh` writes through. Feeds download side by side;
/// each is saved here as soon as its download is complete, one at a time and each in its own
/// transaction, so one feed's failure never undoes another's save, and the connections of
/// one process never queue on each other's write lock.
actor CatalogWriter {
  private let catalog: Catalog

  init(_ catalog: sending Catalog) {
    self.catalog = catalog
  }

  /// Parses a download into the podcast stored under `storedFeedURL`.
  func save(
    _ download: FeedSaver.Download, with saver: FeedSaver, storedFeedURL: String, now: Date
  ) throws -> FeedSaver.Saved {
    try saver.save(
      download, into: catalog, subscribing: nil, storedFeedURL: storedFeedURL, now: now)
  }

  func recordCheck(podcastID: String, validators: HTTPValidators, at date: Date) throws {
    try catalog.recordCheck(podcastID: podcastID, validators: validators, at: date)
  }

  func recordFailure(podcastID: String, message: String, at date: Date) throws {
    try catalog.recordFailure(podcastID: podcastID, message: message, at: date)
  }

  func updateFeedURL(podcastID: String, to feedURL: String) throws {
    try catalog.updateFeedURL(podcastID: podcastID, to: feedURL)
  }
}
