/// `podcasts add`: subscribe to feeds.
struct AddCommand: ParsableCommand {
  static let feeds = Argument<String>(
    "feed", arity: .oneOrMore, help: "The URL of a podcast feed to subscribe to.")
  static let json = Flag("json", help: "Print what was added as JSON.")

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
    arguments: [feeds], options: [json])

  let feeds: [String]
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    feeds = try arguments.arguments(Self.feeds)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("add")
  }
}
