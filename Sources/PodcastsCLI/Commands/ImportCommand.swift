import FeedParser
import FeedViews

/// `podcasts import`: subscribe to the feeds of an OPML file.
struct ImportCommand: AsyncParsableCommand {
  static let file = Argument<String>(
    "file", help: "An OPML file, or - to read standard input.", completion: .file)
  static let noFetch = Flag(
    "no-fetch", help: "Record the subscriptions without fetching the feeds now.")
  static let json = Flag("json", help: "Print what was imported as JSON.")

  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Subscribe to the feeds listed in an OPML file.",
    discussion: """
      Reads the feed URLs of an OPML subscription list, as podcast apps export it, and \
      subscribes to each feed not yet in the catalog. Feeds are fetched unless --no-fetch is \
      given; run 'podcasts refresh' later to fetch them then. Entries that cannot be used are \
      reported as warnings.

      Examples:
        podcasts import subscriptions.opml
        podcasts import --no-fetch - < subscriptions.opml
      """,
    arguments: [file], options: [noFetch, json])

  let file: String
  let noFetch: Bool
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    file = try arguments.argument(Self.file)
    noFetch = arguments.flag(Self.noFetch)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) async throws {
    let name = file == "-" ? "standard input" : file
    let document: OPMLDocument
    do {
      document = try OPMLReader.read(try OPMLInput.read(file))
    } catch let error as OPMLError {
      throw CommandFailure("\(name): \(error)")
    }
    for warning in document.warnings {
      context.console.warning("\(name): " + TerminalText.sanitizedLine(warning))
    }
    let results = try await SubscriptionImport(context: context, now: context.console.now)
      .run(document.entries, fetch: !noFetch)
    if json {
      var writer = JSONWriter()
      writer.beginArray()
      for result in results { Self.write(result, to: &writer) }
      writer.endArray()
      try writer.finish()
      context.console.write(writer.bytes)
    } else {
      for result in results where result.status == .added {
        context.console.write(Self.line(for: result))
      }
    }
    for result in results where result.status == .failed {
      context.console.error(FeedFailure(result.entry.url, result.error ?? "failed").description)
    }
    context.console.note("\(name): " + Self.summary(of: results))
    if results.contains(where: { $0.status == .failed }) { throw ExitCode(1) }
  }

  static func line(for result: SubscriptionImport.Result) -> String {
    let title =
      Shown.statusTitle(result.title)
      ?? TerminalText.sanitizedLine(URLMasking.maskingCredentials(result.entry.url))
    let id = result.podcastID.map { " (\($0.prefix(8)))" } ?? ""
    let episodes = result.newEpisodes.map { $0 == 1 ? ": 1 episode" : ": \($0) episodes" } ?? ""
    return "Added \(title)\(id)\(episodes)\n"
  }

  static func summary(of results: [SubscriptionImport.Result]) -> String {
    guard !results.isEmpty else { return "no feeds in it" }
    let count = { (status: SubscriptionImport.Result.Status) in
      results.count { $0.status == status }
    }
    let feeds = results.count == 1 ? "1 feed" : "\(results.count) feeds"
    return
      "\(feeds): \(count(.added)) added, \(count(.alreadySubscribed)) already subscribed, "
      + "\(count(.failed)) failed"
  }

  static func write(_ result: SubscriptionImport.Result, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("feedUrl")
    writer.url(result.entry.url)
    writer.key("id")
    writer.string(result.podcastID)
    writer.key("title")
    writer.text(result.title ?? result.entry.title.map(SubscriptionImport.escapingHTML))
    writer.key("folders")
    writer.strings(result.entry.folders)
    writer.key("status")
    writer.string(result.status.rawValue)
    writer.key("newEpisodes")
    writer.int(result.newEpisodes)
    writer.key("error")
    writer.string(result.error)
    writer.endObject()
  }
}
