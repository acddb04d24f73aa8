/// A command of the command line: a type that declares its name, help text, arguments,
/// options and subcommands, is built from what the parser read, and runs.
///
/// Commands are value types created after parsing succeeded, so `run` sees typed, validated
/// fields and the parser never touches a half-built command. The declarations live in the
/// type's static `configuration`, where help, shell completions and the manual page read them
/// without an instance.
public protocol ParsableCommand: Sendable {
  static var configuration: CommandConfiguration { get }

  /// Reads the command's fields from parsed arguments. Throwing a `UsageError` here (a value
  /// out of range, two options that exclude each other) is reported as a usage error.
  init(_ arguments: ParsedArguments) throws

  func run(_ context: CommandContext) throws

  /// The command itself when its `run` awaits, found without a dynamic cast (which
  /// searches every conformance of the program on its first use).
  var awaiting: (any AsyncParsableCommand)? { get }
}

extension ParsableCommand {
  public var awaiting: (any AsyncParsableCommand)? { nil }
}

/// A command whose work awaits: fetching, or jobs that run side by side. The runner
/// calls its asynchronous `run`; the others run without Swift's concurrency runtime.
public protocol AsyncParsableCommand: ParsableCommand {
  func run(_ context: CommandContext) async throws
}

extension AsyncParsableCommand {
  public var awaiting: (any AsyncParsableCommand)? { self }

  /// Not called by the runner, which awaits the asynchronous `run`: says so to anyone
  /// who calls it.
  public func run(_ context: CommandContext) throws {
    throw CommandRequiresAwait(name: Self.configuration.name)
  }
}

/// The synchronous `run` of an `AsyncParsableCommand` was called.
struct CommandRequiresAwait: Error, CustomStringConvertible {
  let name: String
  var description: String { "the \(name) command must be awaited" }
}

/// What a command declares about itself.
public struct CommandConfiguration: Sendable {
  public let name: String
  /// One sentence: the OVERVIEW line of help and the subcommand list.
  public let abstract: String
  /// Paragraphs after the overview. Lines starting with a space are kept as they are
  /// (examples); other lines are reflowed to the terminal width.
  public let discussion: String
  public let arguments: [ArgumentSpec]
  public let options: [OptionSpec]
  public let subcommands: [any ParsableCommand.Type]
  /// Options accepted at every level, before or after the subcommand. Only the root's count.
  public let globalOptions: [OptionSpec]
  /// Shown by `--version`; only the root's counts.
  public let version: String?
  /// Hidden commands work but are left out of help, completions and the manual page.
  public let isHidden: Bool

  public init(
    name: String, abstract: String, discussion: String = "",
    arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [],
    subcommands: [any ParsableCommand.Type] = [], globalOptions: [any OptionDeclaration] = [],
    version: String? = nil, isHidden: Bool = false
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments.map(\.spec)
    self.options = options.map(\.spec)
    self.subcommands = subcommands
    self.globalOptions = globalOptions.map(\.spec)
    self.version = version
    self.isHidden = isHidden
  }

  var visibleSubcommands: [CommandConfiguration] {
    subcommands.map { $0.configuration }.filter { !$0.isHidden }
  }

  func subcommand(named name: String) -> (any ParsableCommand.Type)? {
    subcommands.first { $0.configuration.name == name }
  }
}

/// What a running command is handed: where to write, the environment, and the global options.
public struct CommandContext: Sendable {
  public let console: Console
  public let globals: GlobalOptions
  /// The command tree this command belongs to, for help and the generators.
  let root: any ParsableCommand.Type

  public init(console: Console, globals: GlobalOptions) {
    self.init(console: console, globals: globals, root: PodcastsCommand.self)
  }

  init(console: Console, globals: GlobalOptions, root: any ParsableCommand.Type) {
    self.console = console
    self.globals = globals
    self.root = root
  }
}
