import Catalog
import FeedViews

/// `podcasts list`: the podcasts subscribed to.
struct ListCommand: ParsableCommand {
  enum SortOrder: String, CaseIterable, ExpressibleByArgument {
    case title
    case subscribed
    case latest
  }

  static let json = Flag("json", help: "Print the podcasts as a JSON array.")
  static let sort = Option<SortOrder>(
    "sort", valueName: "order",
    help: "Order by title, by date subscribed (oldest first), or by latest episode (newest first).",
    default: .title)

  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the podcasts subscribed to.",
    discussion: """
      Shows each podcast's short id, title, author, number of episodes, the date of its \
      latest episode and the date you subscribed (days in UTC). A '!' marks a podcast whose \
      last refresh failed; 'podcasts show' tells why. Any unambiguous prefix of an id works \
      wherever a command takes an id.

      Examples:
        podcasts list --sort latest
        podcasts list --json | jq -r '.[].title'
      """,
    options: [json, sort])

  let json: Bool
  let sort: SortOrder

  init(_ arguments: ParsedArguments) throws {
    json = arguments.flag(Self.json)
    sort = try arguments.value(Self.sort, default: .title)
  }

  func run(_ context: CommandContext) throws {
    let podcasts = try context.openCatalog().subscriptions(orderedBy: sort.catalogOrder)
    let console = context.console
    if json {
      var writer = JSONWriter()
      writer.beginArray()
      for podcast in podcasts { writer.catalogPodcast(podcast) }
      writer.endArray()
      try writer.finish()
      console.write(writer.bytes)
      return
    }
    guard !podcasts.isEmpty else {
      console.note("No subscriptions yet. Add one with: podcasts add <feed-url>")
      return
    }
    console.write(Self.table(podcasts).render(width: console.width, colour: console.usesColor))
    if podcasts.contains(where: { $0.refresh.lastError != nil }) {
      console.note("! the last refresh failed; 'podcasts show <id>' says why")
    }
  }

  static func table(_ podcasts: [StoredPodcast]) -> TextTable {
    let marksFailures = podcasts.contains { $0.refresh.lastError != nil }
    var columns: [TextTable.Column] = [.init("ID", dim: true)]
    if marksFailures { columns.append(.init("")) }
    columns += [
      .init("TITLE", flexible: true, minimumWidth: 12),
      .init("AUTHOR", flexible: true, minimumWidth: 8),
      .init("EPISODES", alignment: .right), .init("LATEST"), .init("SUBSCRIBED"),
    ]
    var table = TextTable(columns: columns)
    let idLength = Shown.shortIDLength(podcasts.map(\.id))
    for podcast in podcasts {
      var row = [Shown.shortID(podcast.id, length: idLength)]
      if marksFailures { row.append(podcast.refresh.lastError == nil ? "" : "!") }
      row += [
        Shown.title(podcast.podcast.title), Shown.line(podcast.podcast.author) ?? "",
        String(podcast.episodeCount), Shown.day(podcast.latestEpisode),
        Shown.day(podcast.subscribed),
      ]
      table.append(row)
    }
    return table
  }
}

extension ListCommand.SortOrder {
  var catalogOrder: SubscriptionOrder {
    switch self {
    case .title: .title
    case .subscribed: .subscribed
    case .latest: .latestEpisode
    }
  }
}
