/// `podcasts export`: the subscriptions as OPML.
struct ExportCommand: ParsableCommand {
  static let output = Option<String>(
    "output", short: "o", valueName: "file",
    help: "Write to <file> instead of standard output.", completion: .file)
  static let includeCredentials = Flag(
    "include-credentials",
    help: "Keep user names and passwords that feed URLs contain; they are removed by default.")

  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write the subscriptions as an OPML file.",
    discussion: """
      The OPML file lists every podcast subscribed to with its title and feed URL, for \
      importing into another podcast app or into 'podcasts import'.

      Examples:
        podcasts export > subscriptions.opml
        podcasts export --output subscriptions.opml
      """,
    options: [output, includeCredentials])

  let output: String?
  let includeCredentials: Bool

  init(_ arguments: ParsedArguments) throws {
    output = try arguments.value(Self.output)
    includeCredentials = arguments.flag(Self.includeCredentials)
  }

  func run(_ context: CommandContext) async throws {
    throw CommandFailure.notAvailableYet("export")
  }
}
