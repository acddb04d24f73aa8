import Catalog
import FeedViews

/// `podcasts episodes`: the episodes of one podcast.
struct EpisodesCommand: ParsableCommand {
  static let id = Argument<String>(
    "id", help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let limit = Option<Int>(
    "limit", short: "n", valueName: "n",
    help: "Show only the <n> newest episodes (default: 20 in the table, all in JSON).")
  static let json = Flag("json", help: "Print the episodes as a JSON array.")

  static let configuration = CommandConfiguration(
    name: "episodes",
    abstract: "List the episodes of a podcast, newest first.",
    discussion: """
      Shows the date (UTC), duration and title of each episode. The table shows the 20 newest \
      unless --limit says otherwise; --json prints every episode unless --limit is given.

      Examples:
        podcasts episodes 917393e3 --limit 10
        podcasts episodes 917393e3 --json | jq -r '.[0].enclosure.url'
      """,
    arguments: [id], options: [limit, json])

  let id: String
  let limit: Int?
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    id = try arguments.argument(Self.id)
    limit = try arguments.value(Self.limit, where: { $0 > 0 }, expected: "a positive integer")
    json = arguments.flag(Self.json)
  }

  /// Enough to see what is new without flooding the terminal; --limit shows more.
  static let tableLimit = 20

  func run(_ context: CommandContext) throws {
    let catalog = try context.openCatalog()
    let podcast = try catalog.lookUpPodcast(id)
    let console = context.console
    if json {
      var writer = JSONWriter()
      writer.beginArray()
      try catalog.forEachEpisode(ofPodcast: podcast.id, limit: limit) { writer.catalogEpisode($0) }
      writer.endArray()
      try writer.finish()
      console.write(writer.bytes)
      return
    }
    let shown = limit ?? Self.tableLimit
    var table = TextTable(columns: [
      .init("DATE", dim: true), .init("DURATION", alignment: .right),
      .init("TITLE", flexible: true, minimumWidth: 16),
    ])
    try catalog.forEachEpisode(ofPodcast: podcast.id, limit: shown) { stored in
      let episode = EpisodeViewModel(stored.episode, withDescription: false)
      table.append([
        episode.publishedText ?? "", episode.durationText ?? "", episode.title ?? "(untitled)",
      ])
    }
    guard table.rowCount > 0 else {
      console.note("\(Shown.title(podcast.podcast.title)) has no episodes.")
      return
    }
    console.write(table.render(width: console.width, colour: console.usesColor))
    if limit == nil && podcast.episodeCount > table.rowCount {
      console.note(
        "Showing the \(table.rowCount) newest of \(podcast.episodeCount) episodes; "
          + "--limit \(podcast.episodeCount) shows them all.")
    }
  }
}
