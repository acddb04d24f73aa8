import Foundation

/// `podcasts generate-manpage`: the manual page in roff, generated from the help texts.
///
/// Hidden: it serves packagers and the install instructions, not daily use.
struct GenerateManpageCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "generate-manpage",
    abstract: "Print the podcasts(1) manual page in roff.",
    discussion: """
      The page is dated today, or by SOURCE_DATE_EPOCH when set, for reproducible builds.

      Example:
        podcasts generate-manpage > ~/.local/share/man/man1/podcasts.1
      """,
    isHidden: true)

  init(_ arguments: ParsedArguments) {}

  func run(_ context: CommandContext) throws {
    let console = context.console
    var date = console.now
    if let epoch = console.environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
      guard let seconds = Int(epoch) else {
        throw CommandFailure("SOURCE_DATE_EPOCH is not a number of seconds: '\(epoch)'")
      }
      date = Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    console.write(ManPage(tree: CommandTree(root: context.root.configuration), date: date).roff())
  }
}
