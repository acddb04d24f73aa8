import Foundation

extension Catalog {
  /// Removes the subscription, the podcast and all its episodes.
  ///
  /// - Throws: ``CatalogError/notFound(reference:)`` when no podcast has this id.
  @discardableResult
  public func unsubscribe(podcastID: String) throws -> UnsubscribeReport {
    try connection.writeTransaction {
      guard let podcast = try podcast(id: podcastID) else {
        throw CatalogError.notFound(reference: podcastID)
      }
      // Cascades to the subscription and the episodes; triggers clear the search index.
      try connection.execute("DELETE FROM podcasts WHERE id = ?", podcast.id)
      return UnsubscribeReport(
        podcastID: podcast.id, title: podcast.podcast.title, feedURL: podcast.feedURL,
        subscribed: podcast.subscribed, episodesRemoved: podcast.episodeCount)
    }
  }

  /// Points a podcast at a new feed URL; it keeps its id, subscription and episodes.
  ///
  /// - Throws: ``CatalogError/feedURLInUse(url:podcastID:)`` when another podcast has the URL,
  ///   ``CatalogError/notFound(reference:)`` when no podcast has this id.
  public func updateFeedURL(podcastID: String, to feedURL: String) throws {
    let feedURL = feedURL.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !feedURL.isEmpty else { throw CatalogError.invalidFeedURL(feedURL) }
    try connection.writeTransaction {
      if let owner = try podcast(feedURL: feedURL) {
        guard owner.id.lowercased() == podcastID.lowercased() else {
          throw CatalogError.feedURLInUse(url: feedURL, podcastID: owner.id)
        }
        return
      }
      try connection.execute("UPDATE podcasts SET feed_url = ? WHERE id = ?", feedURL, podcastID)
      guard connection.changes > 0 else { throw CatalogError.notFound(reference: podcastID) }
    }
  }

  /// Records a successful check that found the feed unchanged (HTTP 304): the check time and,
  /// when given, new validators. Clears the last error.
  public func recordCheck(
    podcastID: String, validators: HTTPValidators? = nil, at date: Date = Date()
  ) throws {
    try connection.writeTransaction {
      if let validators {
        try connection.execute(
          """
          UPDATE podcasts SET last_checked = ?, etag = ?, last_modified = ?,
            last_error = NULL, last_error_at = NULL
          WHERE id = ?
          """, date, validators.etag, validators.lastModified, podcastID)
      } else {
        try connection.execute(
          """
          UPDATE podcasts SET last_checked = ?, last_error = NULL, last_error_at = NULL
          WHERE id = ?
          """, date, podcastID)
      }
      guard connection.changes > 0 else { throw CatalogError.notFound(reference: podcastID) }
    }
  }

  /// Records a failed refresh, changing nothing else.
  public func recordFailure(podcastID: String, message: String, at date: Date = Date()) throws {
    try connection.writeTransaction {
      try connection.execute(
        "UPDATE podcasts SET last_error = ?, last_error_at = ? WHERE id = ?",
        message, date, podcastID)
      guard connection.changes > 0 else { throw CatalogError.notFound(reference: podcastID) }
    }
  }
}
