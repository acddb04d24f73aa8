/// `podcasts parse`: read one feed and print what it holds.
struct ParseCommand: ParsableCommand {
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
    throw CommandFailure.notAvailableYet("parse")
  }
}
