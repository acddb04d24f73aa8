/// `podcasts search`: find podcasts and episodes in the catalog.
struct SearchCommand: ParsableCommand {
  static let words = Argument<String>(
    "word", arity: .oneOrMore, help: "A word to look for; every word must match.")
  static let json = Flag("json", help: "Print the matches as a JSON array.")
  static let limit = Option<Int>(
    "limit", short: "n", valueName: "n", help: "Show at most <n> matches.")

  static let configuration = CommandConfiguration(
    name: "search",
    abstract: "Search the titles and descriptions in the catalog.",
    discussion: """
      Looks for podcasts and episodes whose title or description contains all the words, \
      ignoring case. Only the catalog is searched; nothing is fetched.

      Example:
        podcasts search swift concurrency --limit 5
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

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("search")
  }
}
