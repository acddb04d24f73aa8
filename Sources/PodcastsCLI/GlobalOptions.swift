/// Options every subcommand accepts, before or after its name.
public struct GlobalOptions: Sendable, Equatable {
  static let database = Option<String>(
    "db", valueName: "path",
    help: "The catalog database file; by default catalog.sqlite3 in $XDG_DATA_HOME/podcasts.",
    environment: "PODCASTS_DB", completion: .file)
  static let quiet = Flag(
    "quiet", short: "q", help: "Print no progress or warnings on stderr; errors still show.")

  static let all: [any OptionDeclaration] = [database, quiet]

  /// The catalog file given by `--db` or `PODCASTS_DB`; nil for the default location.
  public var databasePath: String?
  public var isQuiet: Bool

  public init(databasePath: String? = nil, isQuiet: Bool = false) {
    self.databasePath = databasePath
    self.isQuiet = isQuiet
  }

  init(_ parsed: ParsedArguments) throws {
    databasePath = try parsed.value(Self.database, where: { !$0.isEmpty }, expected: "a file path")
    isQuiet = parsed.flag(Self.quiet)
  }
}
