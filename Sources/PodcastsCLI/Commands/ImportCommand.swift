/// `podcasts import`: subscribe to the feeds of an OPML file.
struct ImportCommand: ParsableCommand {
  static let file = Argument<String>(
    "file", help: "An OPML file, or - to read standard input.", completion: .file)
  static let noFetch = Flag(
    "no-fetch", help: "Record the subscriptions without fetching the feeds now.")
  static let json = Flag("json", help: "Print what was imported as JSON.")

  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Subscribe to the feeds listed in an OPML file.",
    discussion: """
      Reads the feed URLs of an OPML subscription list, as podcast apps export it, and \
      subscribes to each feed not yet in the catalog. Feeds are fetched unless --no-fetch is \
      given; run 'podcasts refresh' later to fetch them then. Entries that cannot be used are \
      reported as warnings.

      Examples:
        podcasts import subscriptions.opml
        podcasts import --no-fetch - < subscriptions.opml
      """,
    arguments: [file], options: [noFetch, json])

  let file: String
  let noFetch: Bool
  let json: Bool

  init(_ arguments: ParsedArguments) throws {
    file = try arguments.argument(Self.file)
    noFetch = arguments.flag(Self.noFetch)
    json = arguments.flag(Self.json)
  }

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("import")
  }
}
