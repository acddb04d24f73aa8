import Catalog
import FeedViews

/// `podcasts search`: find podcasts and episodes in the catalog.
struct SearchCommand: ParsableCommand {
  static let words = Argument<String>(
    "word", arity: .oneOrMore, help: "A word to look for; every word must match.")
  static let json = Flag(
    "json", help: "Print the matches as a JSON object with a podcasts and an episodes array.")
  static let limit = Option<Int>(
    "limit", short: "n", valueName: "n",
    help: "Show at most <n> podcasts and <n> episodes (default: 20 of each).")

  static let configuration = CommandConfiguration(
    name: "search",
    abstract: "Search the titles and descriptions in the catalog.",
    discussion: """
      Looks for podcasts and episodes whose title or description contains all the words, \
      ignoring case and accents, best matches first (a word in a title counts more than one \
      in a description). A word ending in '*' matches as a prefix: 'pod*' finds 'podcast'. \
      Quotes and operators are plain text. Only the catalog is searched; nothing is fetched.

      Examples:
        podcasts search swift concurrency --limit 5
        podcasts search --json 'transist*' | jq -r '.episodes[].title'
      """,
    arguments: [words], options: [json, limit])

  let words: [String]
  let json: Bool
  let limit: Int?

  init(_ arguments: ParsedArguments) throws {
    words = try arguments.arguments(Self.words)
    json = arguments.flag(Self.json)
    limit = try arguments.value(Self.limit, where: { $0 > 0 }, expected: "a positive integer")
  }

  static let defaultLimit = 20

  func run(_ context: CommandContext) throws {
    let query = words.joined(separator: " ")
    // The catalog ignores words without a letter or digit; a query of only such words
    // would quietly find nothing.
    guard query.contains(where: { $0.isLetter || $0.isNumber }) else {
      throw UsageError("nothing to search for in '\(Shown.message(query))': give a word")
    }
    let catalog = try context.openCatalog()
    let results = try catalog.search(query, limit: limit ?? Self.defaultLimit)
    // The full records, for the same columns and keys as `list`.
    let podcasts = try results.podcasts.compactMap { try catalog.podcast(id: $0.podcastID) }
    let console = context.console
    if json {
      var writer = JSONWriter()
      writer.beginObject()
      writer.key("query")
      writer.string(query)
      writer.key("podcasts")
      writer.beginArray()
      for podcast in podcasts { writer.catalogPodcast(podcast) }
      writer.endArray()
      writer.key("episodes")
      writer.beginArray()
      for match in results.episodes { writer.episodeMatch(match) }
      writer.endArray()
      writer.endObject()
      try writer.finish()
      console.write(writer.bytes)
      return
    }
    guard !podcasts.isEmpty || !results.episodes.isEmpty else {
      console.note("Nothing in the catalog matches '\(Shown.message(query))'.")
      return
    }
    var text = ""
    if !podcasts.isEmpty {
      text += Shown.count(podcasts.count, "podcast") + "\n"
      text += ListCommand.table(podcasts).render(width: console.width, colour: console.usesColor)
    }
    if !results.episodes.isEmpty {
      if !text.isEmpty { text += "\n" }
      text += Shown.count(results.episodes.count, "episode") + "\n"
      text += Self.episodeTable(results.episodes).render(
        width: console.width, colour: console.usesColor)
    }
    console.write(text)
  }

  static func episodeTable(_ matches: [EpisodeMatch]) -> TextTable {
    var table = TextTable(columns: [
      .init("ID", dim: true), .init("PODCAST", flexible: true, minimumWidth: 10),
      .init("DATE"), .init("DURATION", alignment: .right),
      .init("TITLE", flexible: true, minimumWidth: 16),
    ])
    let idLength = Shown.shortIDLength(Array(Set(matches.map(\.podcastID))))
    for match in matches {
      let episode = EpisodeViewModel(match.episode, withDescription: false)
      table.append([
        Shown.shortID(match.podcastID, length: idLength), Shown.title(match.podcastTitle),
        episode.publishedText ?? "", episode.durationText ?? "", episode.title ?? "(untitled)",
      ])
    }
    return table
  }
}
