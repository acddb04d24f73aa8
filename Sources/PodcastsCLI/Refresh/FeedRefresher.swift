import Catalog
import FeedFetcher
import FeedViews
import Foundation

/// Refreshes podcasts side by side: fetches with the stored validators through a limiter
/// (so many at a time overall, two per host), saves each feed as its download completes,
/// applies moves, and records failures in the catalog.
struct FeedRefresher: Sendable {
  let saver: FeedSaver
  let limiter: FetchLimiter
  /// The time to record checks, saves and failures with.
  let clock: @Sendable () -> Date

  init(jobs: Int, timeout: Double, maxBodySize: Int, clock: @escaping @Sendable () -> Date) {
    saver = FeedSaver(timeout: timeout, maxBodySize: maxBodySize)
    limiter = FetchLimiter(maxConcurrent: jobs, maxPerHost: 2)
    self.clock = clock
  }

  /// Refreshes `podcasts`, saving through `writer`; the results come in the same order. A
  /// podcast that another process unsubscribed while this one worked on it has no result:
  /// it is gone, and nothing of it is saved again.
  func refresh(
    _ podcasts: [StoredPodcast], through writer: CatalogWriter, progress: RefreshProgress
  ) async -> [RefreshResult] {
    await withTaskGroup(of: (Int, RefreshResult?).self) { group in
      for (index, podcast) in podcasts.enumerated() {
        group.addTask {
          let result = await refresh(podcast, through: writer, progress: progress)
          progress.finished(result ?? RefreshResult(podcast))
          return (index, result)
        }
      }
      var results: [RefreshResult?] = Array(repeating: nil, count: podcasts.count)
      for await (index, result) in group { results[index] = result }
      return results.compactMap { $0 }
    }
  }

  /// What one fetch came to.
  private enum Outcome {
    case notModified(FetchResponse)
    case saved(FeedSaver.Saved, response: FetchResponse, address: String)
  }

  /// - Returns: nil when the podcast left the catalog meanwhile.
  private func refresh(
    _ podcast: StoredPodcast, through writer: CatalogWriter, progress: RefreshProgress
  ) async -> RefreshResult? {
    var result = RefreshResult(podcast)
    do {
      let outcome = try await fetchAndSave(
        podcast.feedURL, validators: podcast.refresh.validators, into: podcast,
        through: writer, progress: progress)
      switch outcome {
      case .notModified(let response):
        // A 304 may leave out validators it did not change.
        let stored = podcast.refresh.validators
        try await writer.recordCheck(
          podcastID: podcast.id,
          validators: HTTPValidators(
            etag: response.etag ?? stored.etag,
            lastModified: response.lastModified ?? stored.lastModified),
          at: clock())
        if response.movedPermanently {
          await move(&result, to: response.finalURL.absoluteString, through: writer)
        }
      case .saved(let saved, let response, let address):
        result.add(saved.report)
        result.warnings += saved.notices
        if response.movedPermanently { await move(&result, to: address, through: writer) }
        if let announced = saved.newFeedURL,
          let target = AnnouncedFeedURL.target(
            announced, current: result.feedURL, fetchedFrom: address)
        {
          await follow(target, for: podcast, result: &result, through: writer, progress: progress)
        }
      }
    } catch CatalogError.notFound {
      return nil
    } catch {
      let message = Self.reason(for: error, feedURL: podcast.feedURL)
      result.fail(message)
      do {
        try await writer.recordFailure(podcastID: podcast.id, message: message, at: clock())
      } catch CatalogError.notFound {
        return nil
      } catch {
        result.warnings.append(
          "could not record the failure in the catalog: \(CommandRunner.message(for: error))")
      }
    }
    return result
  }

  /// Fetches `location` and saves what it holds into `podcast`, all in one slot of the
  /// limiter: a download waits for the catalog with its slot held, so that downloads never
  /// pile up (each in an open temporary file) faster than they can be saved.
  private func fetchAndSave(
    _ location: String, validators: HTTPValidators, into podcast: StoredPodcast,
    storedFeedURL: String? = nil, through writer: CatalogWriter, progress: RefreshProgress
  ) async throws -> Outcome {
    let host = (try? FetchRequest.url(forLocation: location))?.host
    return try await limiter.withPermit(host: host) {
      progress.began(podcast)
      switch try await saver.fetch(location, validators: validators) {
      case .notModified(let response):
        return .notModified(response)
      case .download(let download):
        let saved = try await writer.save(
          download, with: saver, storedFeedURL: storedFeedURL ?? podcast.feedURL, now: clock())
        return .saved(saved, response: download.response, address: download.address)
      }
    }
  }

  /// Follows a feed's announcement of a new address, once per refresh: fetches it, saves
  /// what it holds into the same podcast and stores the new address. When the new address
  /// fails, the podcast stays where it is, and its validators are dropped so that the next
  /// refresh reads the announcement again rather than hearing "not modified".
  private func follow(
    _ target: String, for podcast: StoredPodcast, result: inout RefreshResult,
    through writer: CatalogWriter, progress: RefreshProgress
  ) async {
    do {
      // Saved before it is known whether this is a move: the save is what proves that the
      // address holds a feed (and this podcast's, not another's).
      let outcome = try await fetchAndSave(
        target, validators: HTTPValidators(), into: podcast, storedFeedURL: result.feedURL,
        through: writer, progress: progress)
      guard case .saved(let saved, let response, let address) = outcome else { return }
      result.add(saved.report)
      result.warnings += saved.notices
      let destination = response.movedPermanently ? address : target
      // An announcement that only leads back here is no move.
      if !AnnouncedFeedURL.samePlace(destination, result.feedURL) {
        await move(&result, to: destination, through: writer)
      }
    } catch {
      result.warnings.append(
        "the feed announces the new address \(URLMasking.maskingCredentials(target)), which "
          + "failed (\(Self.reason(for: error, feedURL: target))); it stays at "
          + URLMasking.maskingCredentials(result.feedURL))
      try? await writer.recordCheck(
        podcastID: podcast.id, validators: HTTPValidators(), at: clock())
    }
  }

  /// Stores `target` as the feed URL, unless it is the stored one already.
  private func move(
    _ result: inout RefreshResult, to target: String, through writer: CatalogWriter
  ) async {
    guard target != result.feedURL else { return }
    do {
      try await writer.updateFeedURL(podcastID: result.podcastID, to: target)
      result.move(to: target)
    } catch CatalogError.feedURLInUse(_, let owner) {
      result.warnings.append(
        "the feed moved to \(URLMasking.maskingCredentials(target)), the feed of another "
          + "podcast (\(owner.prefix(8))); it stays at "
          + URLMasking.maskingCredentials(result.feedURL))
    } catch {
      result.warnings.append(
        "the feed moved to \(URLMasking.maskingCredentials(target)), but the catalog kept "
          + "the old address: \(CommandRunner.message(for: error))")
    }
  }

  /// The one-line reason for a failure; a fetch error names its address only when it is
  /// not the feed's own (a redirect's target).
  static func reason(for error: any Error, feedURL: String) -> String {
    FeedFailure(feedURL, error).reason
  }
}
