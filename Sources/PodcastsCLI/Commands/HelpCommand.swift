/// `podcasts help <subcommand>`: the same help as `podcasts <subcommand> --help`.
struct HelpCommand: ParsableCommand {
  static let subcommands = Argument<String>(
    "subcommand", arity: .zeroOrMore, help: "The subcommand to show help for.",
    completion: .subcommandNames)

  static let configuration = CommandConfiguration(
    name: "help", abstract: "Show subcommand help information.", arguments: [subcommands])

  let subcommands: [String]

  init(_ arguments: ParsedArguments) throws {
    subcommands = try arguments.arguments(Self.subcommands)
  }

  func run(_ context: CommandContext) throws {
    var path = [context.root.configuration]
    for name in subcommands {
      let current = path[path.count - 1]
      guard let subcommand = current.subcommand(named: name) else {
        throw UsageError(
          UsageError.unknownSubcommand(
            name,
            suggestion: Suggestions.closest(
              to: name, among: current.visibleSubcommands.map(\.name))
          ).message,
          commandPath: path.dropFirst().map(\.name))
      }
      path.append(subcommand.configuration)
    }
    context.console.write(HelpFormatter(path: path, width: context.console.width).render())
  }
}
