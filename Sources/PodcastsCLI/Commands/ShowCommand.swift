import Catalog
import FeedViews

/// `podcasts show`: everything the catalog knows about one podcast.
struct ShowCommand: ParsableCommand {
  static let id = Argument<String>(
    "id", help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let json = Flag("json", help: "Print the podcast as a JSON object.")

  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show the details of a podcast.",
    discussion: """
      Shows the podcast's title, author, description, links, categories, date subscribed, \
      its number of episodes and how its last refresh went. Feed URLs are shown with their \
      password masked.

      Example:
        podcasts show 917393e3
      """,
    arguments: [id], options: [json])

  let id: String
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    id = try arguments.argument(Self.id)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) throws {
    let podcast = try context.openCatalog().lookUpPodcast(id)
    let console = context.console
    if json {
      var writer = JSONWriter()
      writer.catalogPodcast(podcast)
      try writer.finish()
      console.write(writer.bytes)
    } else {
      console.write(Self.details(of: podcast, width: console.width, colour: console.usesColor))
    }
  }

  /// The title and author, the description wrapped to `width`, then one labelled line per
  /// fact the catalog has.
  static func details(of stored: StoredPodcast, width: Int, colour: Bool) -> String {
    let podcast = stored.podcast
    let title = Shown.title(podcast.title)
    var text = (colour ? "\u{1B}[1m" + title + "\u{1B}[0m" : title) + "\n"
    if let author = Shown.line(podcast.author) { text += "by " + author + "\n" }
    if let description = Shown.paragraphs(podcast.description) {
      text += "\n" + FeedViews.TextWrapping.wrap(description, width: width) + "\n"
    }
    var episodes = Shown.count(stored.episodeCount, "episode")
    if let latest = stored.latestEpisode.flatMap({ Formatting.date($0) }) {
      episodes += ", the latest on " + latest
    }
    var lastError: String?
    if let error = stored.refresh.lastError {
      lastError = Shown.message(error)
      if let since = stored.refresh.lastErrorAt.flatMap({ Formatting.timestamp($0) }) {
        lastError? += " (" + since + ")"
      }
    }
    let facts: [(String, String?)] = [
      ("id", Shown.plain(stored.id)),
      ("feed", Shown.url(stored.feedURL)),
      ("new feed", Shown.url(podcast.newFeedUrl)),
      ("website", Shown.url(podcast.link)),
      ("image", Shown.url(podcast.imageUrl)),
      ("categories", Shown.plain(podcast.categories.joined(separator: ", "))),
      ("language", Shown.plain(podcast.language)),
      ("explicit", podcast.explicit.map { $0 ? "yes" : "no" }),
      ("format", podcast.format.rawValue),
      ("episodes", episodes),
      ("subscribed", stored.subscribed.flatMap { Formatting.date($0) } ?? "no"),
      ("added", Formatting.timestamp(stored.added)),
      ("last checked", stored.refresh.lastChecked.flatMap { Formatting.timestamp($0) }),
      ("last updated", stored.refresh.lastUpdated.flatMap { Formatting.timestamp($0) }),
      ("last error", lastError),
    ]
    let present = facts.compactMap { label, value in value.map { (label, $0) } }
    let labelWidth = present.map { $0.0.count }.max() ?? 0
    text += "\n"
    let indent = String(repeating: " ", count: labelWidth + 2)
    for (label, value) in present {
      let padded = label + ":" + String(repeating: " ", count: labelWidth - label.count + 1)
      // Sentences wrap under their value; a URL or an id stays whole, to be copied.
      let wrapped =
        value.contains(" ")
        ? String(
          FeedViews.TextWrapping.wrap(value, width: width, indent: indent).dropFirst(indent.count))
        : value
      text += (colour ? "\u{1B}[2m" + padded + "\u{1B}[0m" : padded) + wrapped + "\n"
    }
    return text
  }
}
