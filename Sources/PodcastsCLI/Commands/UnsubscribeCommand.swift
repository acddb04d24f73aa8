import Catalog
import FeedViews

/// `podcasts unsubscribe`: remove podcasts from the catalog.
struct UnsubscribeCommand: ParsableCommand {
  static let ids = Argument<String>(
    "id", arity: .oneOrMore,
    help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let json = Flag("json", help: "Print what was removed as JSON.")

  static let configuration = CommandConfiguration(
    name: "unsubscribe",
    abstract: "Unsubscribe from podcasts and delete their episodes.",
    discussion: """
      Removes each podcast, its subscription and its episodes from the catalog, and prints \
      what was removed. Every id is looked up before anything is removed: an id that \
      matches no podcast, or a prefix that matches several, is an error, and then nothing \
      is removed at all.

      Example:
        podcasts unsubscribe 917393e3
      """,
    arguments: [ids], options: [json])

  let ids: [String]
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    ids = try arguments.arguments(Self.ids)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) throws {
    let catalog = try context.openCatalog(forWriting: true)
    let console = context.console
    // All or nothing: a typo in one id must not leave the others half done.
    var podcasts: [StoredPodcast] = []
    var failures: [PodcastLookupFailure] = []
    for id in ids {
      do {
        let podcast = try catalog.lookUpPodcast(id)
        if !podcasts.contains(where: { $0.id == podcast.id }) { podcasts.append(podcast) }
      } catch let failure as PodcastLookupFailure {
        failures.append(failure)
      }
    }
    if !failures.isEmpty {
      for failure in failures { console.error(failure.description) }
      if ids.count > 1 { console.error("nothing was removed") }
      throw ExitCode.failure
    }
    var reports: [UnsubscribeReport] = []
    for podcast in podcasts {
      do {
        reports.append(try catalog.unsubscribe(podcastID: podcast.id))
      } catch CatalogError.notFound {
        // Another process removed it between the lookup and now: what was asked is done.
        console.warning("\(Shown.shortID(podcast.id)) was removed meanwhile by another command")
      }
    }
    if json {
      var writer = JSONWriter()
      writer.beginArray()
      for report in reports { writer.unsubscribeReport(report) }
      writer.endArray()
      try writer.finish()
      console.write(writer.bytes)
    } else {
      for report in reports { console.write(Self.line(for: report)) }
    }
  }

  static func line(for report: UnsubscribeReport) -> String {
    "Removed \(Shown.statusTitle(report.title) ?? "(untitled)") (\(Shown.shortID(report.podcastID))) and "
      + Shown.count(report.episodesRemoved, "episode") + "\n"
  }
}
