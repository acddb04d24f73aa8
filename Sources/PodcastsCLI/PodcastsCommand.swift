/// The `podcasts` command: the root of the command tree and the entry point of the executable.
public struct PodcastsCommand: ParsableCommand {
  public static let version = "0.1.0"

  public static let configuration = CommandConfiguration(
    name: "podcasts",
    abstract: "Keep a catalog of podcasts and read their feeds.",
    discussion: """
      Subscribe to feeds, refresh them, and list podcasts and episodes as tables for people \
      or as JSON for programs such as jq. Data goes to stdout; progress, warnings and errors \
      go to stderr.

      Exit status: 0 on success, 1 when the work failed (network, feed, not found), 2 for a \
      usage error.

      Examples:
        podcasts add https://feeds.example.com/show.xml
        podcasts list --json | jq -r '.[].title'
        podcasts episodes 917393e3 --limit 5
      """,
    subcommands: [
      ParseCommand.self, AddCommand.self, ListCommand.self, UnsubscribeCommand.self,
      EpisodesCommand.self, ShowCommand.self, SearchCommand.self, RefreshCommand.self,
      ImportCommand.self, ExportCommand.self, CompletionCommand.self,
      GenerateManpageCommand.self, HelpCommand.self,
    ],
    globalOptions: GlobalOptions.all,
    version: version)

  public init(_ arguments: ParsedArguments) {}

  /// Without a subcommand, `podcasts` shows its help.
  public func run(_ context: CommandContext) throws {
    context.console.write(
      HelpFormatter(path: [Self.configuration], width: context.console.width).render())
  }

  /// Runs the command line `arguments` (the program name first) in this process and returns
  /// the exit status.
  public static func main(_ arguments: [String]) async -> Int32 {
    await main(arguments, console: .standard())
  }

  /// Runs `arguments` (the program name first) unless the command awaits; then
  /// `finish()` of what it returns runs it. A program that starts this way only starts
  /// Swift's concurrency runtime for the commands that need it.
  public static func start(_ arguments: [String]) -> CommandStart {
    CommandRunner.start(root: Self.self, arguments: arguments, console: .standard())
  }

  /// Runs `arguments` (the program name first) against `console`, e.g. a capturing one.
  public static func main(_ arguments: [String], console: Console) async -> Int32 {
    await CommandRunner.run(root: Self.self, arguments: arguments, console: console)
  }
}
