import Catalog

/// `podcasts refresh`: fetch feeds again and store what changed.
struct RefreshCommand: AsyncParsableCommand {
  static let ids = Argument<String>(
    "id", arity: .zeroOrMore,
    help: "A podcast id, an unambiguous prefix of one, or a feed URL; all podcasts when none.")
  static let json = Flag("json", help: "Print what was refreshed as JSON.")
  static let jobs = Option<Int>(
    "jobs", short: "j", valueName: "n",
    help: "Fetch up to <n> feeds at a time (at most 2 from one host).", default: 8)
  static let timeout = Option<Double>(
    "timeout", valueName: "seconds",
    help: "Give up on a feed after <seconds> without an answer, or ten times as long in all.",
    default: 30)
  static let maxSize = Option<ByteSize>(
    "max-size", valueName: "size",
    help: "Refuse a feed larger than <size> (bytes, or with K, M or G).",
    default: ByteSize(bytes: 50 << 20))

  static let configuration = CommandConfiguration(
    name: "refresh",
    abstract: "Fetch the feeds of podcasts again and store new episodes.",
    discussion: """
      Fetches every podcast subscribed to, or only those given, and updates the catalog. A \
      feed that has not changed since the last refresh costs one short request. A feed that \
      moved for good (HTTP 301 or 308, or the new address the feed announces) is stored \
      under its new address, and keeps its id and episodes.

      Prints a line for each podcast with new episodes and a summary; with --json, an array \
      with the result of each podcast. A progress line shows on stderr when it is a \
      terminal. A feed that fails is reported on stderr and remembered in the catalog, the \
      others are still saved, and the exit status is 1.

      Examples:
        podcasts refresh
        podcasts refresh 917393e3 --timeout 10
        podcasts refresh --json | jq '.[] | select(.newEpisodes > 0)'
      """,
    arguments: [ids], options: [json, jobs, timeout, maxSize])

  let ids: [String]
  let json: Bool
  let jobs: Int
  let timeout: Double
  let maxSize: ByteSize

  init(_ arguments: ParsedArguments) throws {
    ids = try arguments.arguments(Self.ids)
    json = arguments.flag(Self.json)
    jobs = try arguments.value(Self.jobs, where: { $0 > 0 }, expected: "a positive integer") ?? 8
    timeout =
      try arguments.value(Self.timeout, where: { $0 > 0 }, expected: "a positive number") ?? 30
    maxSize = try arguments.value(Self.maxSize) ?? ByteSize(bytes: 50 << 20)
  }

  func run(_ context: CommandContext) async throws {
    let console = context.console
    let catalog = try context.openCatalog(forWriting: true)
    let podcasts = try select(in: catalog, console: console)
    let progress = RefreshProgress(console: console, total: podcasts.count)
    let refresher = FeedRefresher(
      jobs: jobs, timeout: timeout, maxBodySize: maxSize.bytes, clock: { console.now })
    let results = await refresher.refresh(
      podcasts, through: CatalogWriter(catalog), progress: progress)
    progress.clear()

    if json {
      console.write(try RefreshReport.json(results))
    } else if results.isEmpty {
      console.write("No podcasts to refresh: subscribe with 'podcasts add <feed>'.\n")
    } else {
      for result in results {
        if let line = RefreshReport.line(for: result) { console.write(line) }
      }
    }
    for result in results {
      if let error = result.error { console.error(RefreshReport.name(of: result) + ": " + error) }
      for warning in result.warnings {
        console.warning(RefreshReport.name(of: result) + ": " + warning)
      }
    }
    if !json && !results.isEmpty { console.write(RefreshReport.summary(of: results)) }
    if results.contains(where: { $0.status == .failed }) { throw ExitCode(1) }
  }

  /// The podcasts to refresh: every subscription by title, or those named, each once and
  /// in the order given. Any name that matches nothing stops the command before a fetch.
  private func select(in catalog: Catalog, console: Console) throws -> [StoredPodcast] {
    guard !ids.isEmpty else { return try catalog.subscriptions(orderedBy: .title) }
    var podcasts: [StoredPodcast] = []
    var seen: Set<String> = []
    var failures: [any Error] = []
    for reference in ids {
      do {
        let podcast = try catalog.podcast(matching: reference)
        if seen.insert(podcast.id).inserted { podcasts.append(podcast) }
      } catch {
        failures.append(error)
      }
    }
    guard failures.isEmpty else {
      if failures.count == 1 { throw failures[0] }
      for failure in failures { console.error(CommandRunner.message(for: failure)) }
      throw ExitCode(1)
    }
    return podcasts
  }
}
