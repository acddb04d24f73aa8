import Catalog
import FeedFetcher
import FeedViews

/// `podcasts add`: subscribe to feeds.
struct AddCommand: AsyncParsableCommand {
  static let feeds = Argument<String>(
    "feed", arity: .oneOrMore, help: "The URL of a podcast feed to subscribe to.")
  static let json = Flag("json", help: "Print what was added as JSON.")
  // The same limits as refresh, for the same fetches.
  static let timeout = RefreshCommand.timeout
  static let maxSize = RefreshCommand.maxSize

  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Subscribe to podcasts by their feed URLs.",
    discussion: """
      Fetches each feed, stores the podcast and its episodes in the catalog and records the \
      date of subscribing. Adding a podcast that is already in the catalog refreshes it. A \
      feed that cannot be fetched or parsed is reported on stderr, the others are still \
      added, and the exit status is 1.

      Examples:
        podcasts add https://feeds.example.com/show.xml
        podcasts add --json https://a.example/feed https://b.example/rss
      """,
    arguments: [feeds], options: [json, timeout, maxSize])

  let feeds: [String]
  let json: Bool
  let timeout: Double
  let maxSize: ByteSize

  init(_ arguments: ParsedArguments) throws {
    feeds = try arguments.arguments(Self.feeds)
    json = arguments.flag(Self.json)
    timeout =
      try arguments.value(Self.timeout, where: { $0 > 0 }, expected: "a positive number") ?? 30
    maxSize = try arguments.value(Self.maxSize) ?? ByteSize(bytes: 50 << 20)
  }

  /// What became of one feed given on the command line.
  struct Result: Sendable {
    let feed: String
    let outcome: Swift.Result<SaveReport, FeedFailure>
    /// What the parser repaired or dropped.
    var warnings: [String] = []
  }

  func run(_ context: CommandContext) async throws {
    // Opened once up front, so that a bad --db fails before any download.
    _ = try context.openCatalog(forWriting: true)
    let now = context.console.now
    let saver = FeedSaver(timeout: timeout, maxBodySize: maxSize.bytes)
    let limiter = FetchLimiter()
    let results = await withTaskGroup(of: (Int, Result).self) { group in
      for (index, feed) in feeds.enumerated() {
        group.addTask {
          let host = (try? FetchRequest.url(forLocation: feed))?.host
          do {
            let outcome = try await limiter.withPermit(host: host) {
              try await saver.save(feed, into: context.openCatalog(), subscribing: now, now: now)
            }
            guard case .saved(let saved, _) = outcome else {
              return (
                index, Result(feed: feed, outcome: .failure(FeedFailure(feed, "not modified")))
              )
            }
            return (
              index,
              Result(feed: feed, outcome: .success(saved.report), warnings: saved.notices)
            )
          } catch {
            return (index, Result(feed: feed, outcome: .failure(FeedFailure(feed, error))))
          }
        }
      }
      var results: [(Int, Result)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
    if json {
      var writer = JSONWriter()
      writer.beginArray()
      for result in results { Self.write(result, to: &writer) }
      writer.endArray()
      try writer.finish()
      context.console.write(writer.bytes)
    }
    for result in results {
      switch result.outcome {
      case .success(let report):
        if !json { context.console.write(Self.line(for: report)) }
        let name = URLMasking.maskingCredentials(result.feed)
        for warning in result.warnings {
          context.console.warning(name + ": " + warning)
        }
      case .failure(let failure):
        context.console.error(failure.description)
      }
    }
    if results.contains(where: { if case .failure = $0.outcome { true } else { false } }) {
      throw ExitCode(1)
    }
  }

  static func line(for report: SaveReport) -> String {
    let title = Shown.statusTitle(report.title) ?? "(untitled)"
    let id = String(report.podcastID.prefix(8))
    let episodes = report.newEpisodes == 1 ? "1 new episode" : "\(report.newEpisodes) new episodes"
    if report.wasSubscribed {
      let since =
        report.subscribed.flatMap { Formatting.date($0) }.map { ", subscribed since \($0)" } ?? ""
      return "Updated \(title) (\(id)): already subscribed\(since); \(episodes)\n"
    }
    return "Added \(title) (\(id)): \(episodes)\n"
  }

  static func write(_ result: Result, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("feed")
    writer.url(result.feed)
    switch result.outcome {
    case .success(let report):
      writer.key("id")
      writer.string(report.podcastID)
      writer.key("title")
      writer.text(report.title)
      writer.key("newEpisodes")
      writer.int(report.newEpisodes)
      writer.key("updatedEpisodes")
      writer.int(report.updatedEpisodes)
      writer.key("alreadySubscribed")
      writer.bool(report.wasSubscribed)
      writer.key("subscribed")
      writer.date(report.subscribed)
      writer.key("error")
      writer.null()
    case .failure(let failure):
      for key in [
        "id", "title", "newEpisodes", "updatedEpisodes", "alreadySubscribed", "subscribed",
      ] {
        writer.key(key)
        writer.null()
      }
      writer.key("error")
      writer.string(failure.reason)
    }
    writer.endObject()
  }
}
