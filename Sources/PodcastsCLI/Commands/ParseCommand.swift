import FeedParser
import FeedViews
import PodcastModel

/// `podcasts parse`: read one feed and print what it holds.
struct ParseCommand: AsyncParsableCommand {
  static let source = Argument<String>(
    "source", help: "A feed file, or an http or https URL to fetch.", completion: .file)
  static let json = Flag("json", help: "Print the podcast and its episodes as JSON.")

  static let configuration = CommandConfiguration(
    name: "parse",
    abstract: "Print what a feed holds, without touching the catalog.",
    discussion: """
      Reads an RSS or Atom feed from a file or a URL and prints the podcast and its episodes. \
      What the parser had to repair or drop is reported as warnings on stderr (and under \
      "warnings" in JSON). Nothing is stored.

      Examples:
        podcasts parse feed.xml
        podcasts parse --json https://example.com/feed.xml | jq '.episodes | length'
      """,
    arguments: [source], options: [json])

  let source: String
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    source = try arguments.argument(Self.source)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) async throws {
    let stream = json ? StreamingPodcastJSON(output: context.console.stdout) : nil
    let loaded: FeedLoader.Loaded?
    do {
      loaded = try await FeedLoader().load(
        source, fileIsFeedAddress: false, onEpisode: stream.map { stream in { stream.add($0) } })
    } catch {
      stream?.abandon()
      if let error = error as? FeedParseError {
        throw FeedProblem(location: URLMasking.maskingCredentials(source), error: error)
      }
      throw error
    }
    guard let podcast = loaded?.podcast else {
      stream?.abandon()
      return
    }
    if let stream {
      try stream.finish(with: podcast)
    } else {
      context.console.write(
        Self.summary(of: podcast, width: context.console.width, colour: context.console.usesColor))
    }
    for warning in podcast.warnings {
      context.console.warning(URLMasking.maskingCredentials(source) + ": " + warning)
    }
  }

  /// The text for people: what the podcast is, then its newest episodes.
  static func summary(of podcast: Podcast, width: Int, colour: Bool) -> String {
    let view = PodcastViewModel(podcast)
    var lines: [String] = []
    lines.append(TerminalText.sanitizedLine(view.title ?? "(untitled)"))
    var facts: [String] = []
    if let author = view.author { facts.append("by " + TerminalText.sanitizedLine(author)) }
    facts.append(view.format)
    facts.append(view.episodeCount == 1 ? "1 episode" : "\(view.episodeCount) episodes")
    lines.append(facts.joined(separator: " · "))
    if let id = view.id { lines.append("id: " + id) }
    if let feedUrl = view.feedUrl { lines.append("feed: " + TerminalText.sanitizedLine(feedUrl)) }
    if let link = view.link { lines.append("link: " + TerminalText.sanitizedLine(link)) }
    var text = lines.joined(separator: "\n") + "\n"
    let newest = podcast.episodes.enumerated().sorted { a, b in
      switch (a.element.published, b.element.published) {
      case (let x?, let y?): return x != y ? x > y : a.offset < b.offset
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return a.offset < b.offset
      }
    }.prefix(Self.episodesShown)
    guard !newest.isEmpty else { return text }
    var table = TextTable(columns: [
      .init("DATE", dim: true), .init("DURATION", alignment: .right),
      .init("TITLE", flexible: true, minimumWidth: 16),
    ])
    for (_, episode) in newest {
      let item = EpisodeViewModel(episode, withDescription: false)
      table.append([item.publishedText ?? "", item.durationText ?? "", item.title ?? ""])
    }
    text += "\n" + table.render(width: width, colour: colour)
    if podcast.episodes.count > newest.count {
      text += "… and \(podcast.episodes.count - newest.count) more (--json prints them all)\n"
    }
    return text
  }

  static let episodesShown = 10
}
