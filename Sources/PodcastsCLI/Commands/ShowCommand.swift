/// `podcasts show`: everything the catalog knows about one podcast.
struct ShowCommand: ParsableCommand {
  static let id = Argument<String>(
    "id", help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let json = Flag("json", help: "Print the podcast as a JSON object.")

  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show the details of a podcast.",
    discussion: """
      Shows the podcast's title, author, description, links, categories, date subscribed and \
      its number of episodes.

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

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("show")
  }
}
