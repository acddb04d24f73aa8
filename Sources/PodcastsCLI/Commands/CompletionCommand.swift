/// `podcasts completion`: shell completion scripts generated from the command declarations.
struct CompletionCommand: ParsableCommand {
  enum Shell: String, CaseIterable, ExpressibleByArgument {
    case bash
    case zsh
    case fish
  }

  static let shell = Argument<Shell>("shell", help: "The shell to write the script for.")

  static let configuration = CommandConfiguration(
    name: "completion",
    abstract: "Print a shell completion script for podcasts.",
    discussion: """
      The script completes subcommands, options, their values, and file names where a file \
      is expected. Install it once:

        podcasts completion bash > ~/.local/share/bash-completion/completions/podcasts
        podcasts completion zsh > "${fpath[1]}/_podcasts"
        podcasts completion fish > ~/.config/fish/completions/podcasts.fish
      """,
    arguments: [shell])

  let shell: Shell

  init(_ arguments: ParsedArguments) throws {
    shell = try arguments.argument(Self.shell)
  }

  func run(_ context: CommandContext) throws {
    let tree = CommandTree(root: context.root.configuration)
    switch shell {
    case .bash: context.console.write(BashCompletion(tree: tree).script())
    case .zsh: context.console.write(ZshCompletion(tree: tree).script())
    case .fish: context.console.write(FishCompletion(tree: tree).script())
    }
  }
}
