/// `podcasts refresh`: fetch feeds again and store what changed.
struct RefreshCommand: ParsableCommand {
  static let ids = Argument<String>(
    "id", arity: .zeroOrMore,
    help: "A podcast id, an unambiguous prefix of one, or a feed URL; all podcasts when none.")
  static let json = Flag("json", help: "Print what was refreshed as JSON.")
  static let jobs = Option<Int>(
    "jobs", short: "j", valueName: "n", help: "Fetch up to <n> feeds at a time.", default: 4)
  static let timeout = Option<Double>(
    "timeout", valueName: "seconds", help: "Give up on a feed after <seconds> without an answer.",
    default: 30)

  static let configuration = CommandConfiguration(
    name: "refresh",
    abstract: "Fetch the feeds of podcasts again and store new episodes.",
    discussion: """
      Fetches every podcast subscribed to, or only those given, and updates the catalog. \
      Progress goes to stderr. A feed that fails is reported and the others are still saved; \
      the exit status is then 1.

      Examples:
        podcasts refresh
        podcasts refresh 917393e3 --timeout 10
        podcasts refresh --json --jobs 8 | jq '.[] | select(.newEpisodes > 0)'
      """,
    arguments: [ids], options: [json, jobs, timeout])

  let ids: [String]
  let json: Bool
  let jobs: Int
  let timeout: Double

  init(_ arguments: ParsedArguments) throws {
    ids = try arguments.arguments(Self.ids)
    json = arguments.flag(Self.json)
    jobs = try arguments.value(Self.jobs, where: { $0 > 0 }, expected: "a positive integer") ?? 4
    timeout =
      try arguments.value(Self.timeout, where: { $0 > 0 }, expected: "a positive number") ?? 30
  }

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("refresh")
  }
}
