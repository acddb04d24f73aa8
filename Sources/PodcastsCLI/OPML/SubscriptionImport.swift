import Catalog
import FeedFetcher
import FeedParser
import FeedViews
import Foundation
import PodcastModel

/// Subscribes to the feeds of an OPML file that the catalog does not have yet: fetched
/// concurrently as `add` fetches them, or only recorded, to be filled in by a refresh.
struct SubscriptionImport {
  /// What became of one feed of the file.
  struct Result: Sendable {
    enum Status: String, Sendable {
      case added
      case alreadySubscribed
      case failed
    }

    let entry: OPMLEntry
    var status: Status
    var podcastID: String?
    /// Markup, as the catalog holds titles.
    var title: String?
    /// Nil when the feed was not fetched.
    var newEpisodes: Int?
    var error: String?
  }

  let context: CommandContext
  let now: Date

  /// One result per entry, in the order of `entries`.
  func run(_ entries: [OPMLEntry], fetch: Bool) async throws -> [Result] {
    let catalog = try context.openCatalog(forWriting: true)
    var results: [Result?] = []
    var pending: [(index: Int, entry: OPMLEntry, stored: StoredPodcast?)] = []
    for (index, entry) in entries.enumerated() {
      let stored = try Self.podcast(entry.url, in: catalog)
      if let stored, stored.subscribed != nil {
        results.append(
          Result(
            entry: entry, status: .alreadySubscribed, podcastID: stored.id,
            title: stored.podcast.title))
      } else {
        results.append(nil)
        pending.append((index, entry, stored))
      }
    }
    if fetch {
      for (index, result) in await fetchAll(pending.map { ($0.index, $0.entry) }) {
        results[index] = result
      }
    } else {
      for (index, entry, stored) in pending {
        results[index] = record(entry, stored: stored, in: catalog)
      }
    }
    return results.enumerated().map { index, result in
      result ?? Result(entry: entries[index], status: .failed, error: "not imported")
    }
  }

  /// The podcast the catalog holds under this feed URL or any spelling of it with the same id.
  static func podcast(_ url: String, in catalog: Catalog) throws -> StoredPodcast? {
    do {
      return try catalog.podcast(matching: url)
    } catch CatalogError.notFound {
      return nil
    }
  }

  /// Subscribes without fetching: the podcast is stored with the outline's title and site,
  /// or, when the catalog already has it unsubscribed, as it is.
  private func record(_ entry: OPMLEntry, stored: StoredPodcast?, in catalog: Catalog) -> Result {
    do {
      let report: SaveReport
      if let stored {
        report = try catalog.save(
          stored.podcast, feedURL: stored.feedURL, subscribing: now,
          validators: stored.refresh.validators, at: now)
      } else {
        let podcast = Podcast(
          format: .rss2, title: entry.title.map(Self.escapingHTML), link: entry.htmlUrl)
        report = try catalog.save(podcast, feedURL: entry.url, subscribing: now, at: now)
      }
      return Result(
        entry: entry, status: report.wasSubscribed ? .alreadySubscribed : .added,
        podcastID: report.podcastID, title: report.title)
    } catch {
      return Result(entry: entry, status: .failed, error: FeedFailure(entry.url, error).reason)
    }
  }

  /// Fetches and saves the feeds, a few at a time; a progress line on a terminal's stderr.
  private func fetchAll(_ work: [(index: Int, entry: OPMLEntry)]) async -> [(Int, Result)] {
    let showsProgress = context.console.stderrIsTerminal && !context.console.isQuiet
    let saver = FeedSaver()
    let limiter = FetchLimiter()
    let context = self.context
    let now = self.now
    return await withTaskGroup(of: (Int, Result).self) { group in
      for (index, entry) in work {
        group.addTask {
          let host = (try? FetchRequest.url(forLocation: entry.url))?.host
          do {
            let outcome = try await limiter.withPermit(host: host) {
              try await saver.save(
                entry.url, into: context.openCatalog(), subscribing: now, now: now)
            }
            guard case .saved(let saved, _) = outcome else {
              return (index, Result(entry: entry, status: .failed, error: "not modified"))
            }
            let report = saved.report
            return (
              index,
              Result(
                entry: entry, status: report.wasSubscribed ? .alreadySubscribed : .added,
                podcastID: report.podcastID, title: report.title, newEpisodes: report.newEpisodes)
            )
          } catch {
            let reason = FeedFailure(entry.url, error).reason
            return (index, Result(entry: entry, status: .failed, error: reason))
          }
        }
      }
      var results: [(Int, Result)] = []
      if showsProgress { progress(0, of: work.count) }
      for await result in group {
        results.append(result)
        if showsProgress { progress(results.count, of: work.count) }
      }
      if showsProgress { context.console.stderr.write("\r\u{1b}[K") }
      return results
    }
  }

  private func progress(_ done: Int, of total: Int) {
    context.console.stderr.write("\r\u{1b}[KFetching feeds: \(done)/\(total)")
  }

  /// Plain text as the HTML the catalog keeps titles in.
  static func escapingHTML(_ text: String) -> String {
    guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return text }
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
