/// `podcasts episodes`: the episodes of one podcast.
struct EpisodesCommand: ParsableCommand {
  static let id = Argument<String>(
    "id", help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let limit = Option<Int>(
    "limit", short: "n", valueName: "n", help: "Show only the <n> newest episodes.")
  static let json = Flag("json", help: "Print the episodes as a JSON array.")

  static let configuration = CommandConfiguration(
    name: "episodes",
    abstract: "List the episodes of a podcast, newest first.",
    discussion: """
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

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("episodes")
  }
}
