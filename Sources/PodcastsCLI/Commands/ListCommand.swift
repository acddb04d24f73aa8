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
      Shows each podcast's id, title, number of episodes and date of the latest one. Any \
      unambiguous prefix of an id works wherever a command takes an id.

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

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("list")
  }
}
