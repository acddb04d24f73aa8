/// The command line was wrong: exit status 2, the message, and a pointer to the help of the
/// command concerned.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public let message: String
  /// Names of the command whose help the hint points to, after `podcasts`; nil when the
  /// command that was being parsed or run is meant.
  public var commandPath: [String]?

  public init(_ message: String, commandPath: [String]? = nil) {
    self.message = message
    self.commandPath = commandPath
  }

  public var description: String { message }

  static func unknownOption(_ word: String, suggestion: String?) -> UsageError {
    UsageError("unknown option '\(word)'" + didYouMean(suggestion))
  }

  static func unknownSubcommand(_ word: String, suggestion: String?) -> UsageError {
    UsageError("unknown subcommand '\(word)'" + didYouMean(suggestion))
  }

  static func missingValue(_ option: OptionSpec) -> UsageError {
    UsageError("missing value for option '\(option.usageForm)'")
  }

  static func unexpectedValue(_ option: OptionSpec) -> UsageError {
    UsageError("option '\(option.longForm)' does not take a value")
  }

  static func invalidValue(_ value: String, for option: OptionSpec, expected: String)
    -> UsageError
  {
    UsageError("invalid value '\(value)' for option '\(option.usageForm)': expected \(expected)")
  }

  static func invalidValue(_ value: String, for argument: ArgumentSpec, expected: String)
    -> UsageError
  {
    UsageError("invalid value '\(value)' for argument \(argument.helpLabel): expected \(expected)")
  }

  static func invalidEnvironment(
    _ value: String, variable: String, for option: OptionSpec, expected: String
  ) -> UsageError {
    UsageError(
      "invalid value '\(value)' in \(variable) for option '\(option.usageForm)': expected \(expected)"
    )
  }

  static func missingArgument(_ argument: ArgumentSpec) -> UsageError {
    UsageError("missing argument \(argument.helpLabel)")
  }

  static func unexpectedArgument(_ word: String) -> UsageError {
    UsageError("unexpected argument '\(word)'")
  }

  /// For a value the parser accepted but the command finds out of range.
  public static func invalidValue(
    _ value: String, for option: some OptionDeclaration, expected: String
  ) -> UsageError {
    invalidValue(value, for: option.spec, expected: expected)
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { "; did you mean '\($0)'?" } ?? ""
  }
}

/// The work failed (network, parse, not found): exit status 1 and the message.
public struct CommandFailure: Error, Equatable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }

}

/// Ends the command with a status and no message, for a command that already reported what
/// went wrong (a refresh in which some feeds failed).
public struct ExitCode: Error, Equatable {
  public let rawValue: Int32

  public init(_ rawValue: Int32) { self.rawValue = rawValue }

  public static let success = ExitCode(0)
  public static let failure = ExitCode(1)
  public static let usage = ExitCode(2)
}
