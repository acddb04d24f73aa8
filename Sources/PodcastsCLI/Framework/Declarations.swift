/// What a shell should offer when completing a value.
public enum CompletionKind: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// Paths of files (and directories leading to them).
  case file
  /// Paths of directories.
  case directory
  /// A closed list of words.
  case values([String])
  /// The names of the root command's visible subcommands (for `help`).
  case subcommandNames
}

/// How many words a positional argument takes.
public enum Arity: Sendable, Equatable {
  case required
  case optional
  case zeroOrMore
  case oneOrMore

  var isVariadic: Bool { self == .zeroOrMore || self == .oneOrMore }
  var isRequired: Bool { self == .required || self == .oneOrMore }
}

/// The type-erased description of an option or flag: what the parser, help, completions and
/// the manual page read.
public struct OptionSpec: Sendable {
  /// Long name without the leading dashes, e.g. `limit`.
  public let name: String
  public let short: Character?
  /// Placeholder of the value in help (`n` shows as `<n>`); nil for a flag.
  public let valueName: String?
  public let help: String
  public let allowedValues: [String]
  public let defaultDescription: String?
  /// An environment variable read when the option is not given.
  public let environment: String?
  public let completion: CompletionKind
  /// nil when `word` is a valid value, otherwise what was expected.
  let check: @Sendable (String) -> String?

  public var takesValue: Bool { valueName != nil }
  var longForm: String { "--" + name }
  var shortForm: String? { short.map { "-" + String($0) } }

  /// `--limit <n>`, or `--json` for a flag.
  var usageForm: String {
    valueName.map { "\(longForm) <\($0)>" } ?? longForm
  }

  /// `-n, --limit <n>` as help lists it.
  var helpLabel: String {
    (shortForm.map { $0 + ", " } ?? "") + usageForm
  }

  /// The help text with the allowed values, the default and the environment variable.
  var fullHelp: String {
    var notes: [String] = []
    if !allowedValues.isEmpty {
      notes.append("values: " + allowedValues.joined(separator: ", "))
    }
    if let defaultDescription { notes.append("default: " + defaultDescription) }
    if let environment { notes.append("env: " + environment) }
    return notes.isEmpty ? help : help + " (" + notes.joined(separator: "; ") + ")"
  }
}

/// The type-erased description of a positional argument.
public struct ArgumentSpec: Sendable {
  /// Placeholder in help, e.g. `id` shows as `<id>`.
  public let name: String
  public let help: String
  public let arity: Arity
  public let allowedValues: [String]
  public let completion: CompletionKind
  let check: @Sendable (String) -> String?

  /// `<id>`, `[<id>]`, `<feed> ...` or `[<id> ...]`.
  var usageForm: String {
    switch arity {
    case .required: "<\(name)>"
    case .optional: "[<\(name)>]"
    case .oneOrMore: "<\(name)> ..."
    case .zeroOrMore: "[<\(name)> ...]"
    }
  }

  var helpLabel: String { "<\(name)>" }

  var fullHelp: String {
    allowedValues.isEmpty
      ? help : help + " (values: " + allowedValues.joined(separator: ", ") + ")"
  }
}

/// Anything a command lists among its options.
public protocol OptionDeclaration: Sendable {
  var spec: OptionSpec { get }
}

/// Anything a command lists among its positional arguments.
public protocol ArgumentDeclaration: Sendable {
  var spec: ArgumentSpec { get }
}

/// A switch that is either given or not: `--json`, `-q`.
public struct Flag: OptionDeclaration {
  public let spec: OptionSpec

  public init(_ name: String, short: Character? = nil, help: String) {
    spec = OptionSpec(
      name: name, short: short, valueName: nil, help: help, allowedValues: [],
      defaultDescription: nil, environment: nil, completion: .none, check: { _ in nil })
  }
}

/// An option with a typed value: `--limit 20`, `--limit=20`, `-n 20`, `-n20`.
public struct Option<Value: ExpressibleByArgument>: OptionDeclaration {
  public let spec: OptionSpec
  public let defaultValue: Value?

  /// - Parameters:
  ///   - completion: what shells offer for the value; by default the type's allowed values.
  public init(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    default defaultValue: Value? = nil, environment: String? = nil,
    completion: CompletionKind? = nil
  ) {
    self.defaultValue = defaultValue
    let allowed = Value.allValueStrings
    spec = OptionSpec(
      name: name, short: short, valueName: valueName, help: help, allowedValues: allowed,
      defaultDescription: defaultValue?.argumentDescription, environment: environment,
      completion: completion ?? (allowed.isEmpty ? .none : .values(allowed)),
      check: { Value(argument: $0) == nil ? Value.expectation : nil })
  }
}

/// A positional argument with a typed value.
public struct Argument<Value: ExpressibleByArgument>: ArgumentDeclaration {
  public let spec: ArgumentSpec

  public init(
    _ name: String, arity: Arity = .required, help: String, completion: CompletionKind? = nil
  ) {
    let allowed = Value.allValueStrings
    spec = ArgumentSpec(
      name: name, help: help, arity: arity, allowedValues: allowed,
      completion: completion ?? (allowed.isEmpty ? .none : .values(allowed)),
      check: { Value(argument: $0) == nil ? Value.expectation : nil })
  }
}
