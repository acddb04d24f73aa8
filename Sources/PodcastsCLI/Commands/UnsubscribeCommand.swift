/// `podcasts unsubscribe`: remove podcasts from the catalog.
struct UnsubscribeCommand: ParsableCommand {
  static let ids = Argument<String>(
    "id", arity: .oneOrMore,
    help: "A podcast id, an unambiguous prefix of one, or the podcast's feed URL.")
  static let json = Flag("json", help: "Print what was removed as JSON.")

  static let configuration = CommandConfiguration(
    name: "unsubscribe",
    abstract: "Unsubscribe from podcasts and delete their episodes.",
    discussion: """
      Removes each podcast, its subscription and its episodes from the catalog. An id that \
      matches no podcast, or a prefix that matches several, is an error; nothing is removed \
      then.

      Example:
        podcasts unsubscribe 917393e3
      """,
    arguments: [ids], options: [json])

  let ids: [String]
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    ids = try arguments.arguments(Self.ids)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("unsubscribe")
  }
}
