/// What the command line asked for.
enum Invocation: Sendable {
  /// Help of the command at the end of this path (root first).
  case help([CommandConfiguration])
  case version
  /// The command to run, the names leading to it after the root, and the global options.
  case run(any ParsableCommand, path: [String], globals: ParsedArguments)
}

/// The options every command understands without declaring them.
enum BuiltinOptions {
  static let help = Flag("help", short: "h", help: "Show help information.")
  static let version = Flag("version", help: "Show the version.")
}

/// Turns argv into an `Invocation`: walks down the subcommands, assigns option values and
/// positional words to the declarations of the command reached, and builds that command.
///
/// Syntax: `--name value`, `--name=value`, `-n value`, `-nvalue`, clusters of short flags
/// (`-qn5`), `--` ends the options, `-` alone is a word (standard input), a word that looks
/// like a negative number is a word. Global options are accepted at every level.
struct CommandParser {
  let root: any ParsableCommand.Type
  let environment: [String: String]

  func parse(_ words: [String]) throws -> Invocation {
    var state = ParseState(root: root, environment: environment, words: words)
    do {
      return try state.parse()
    } catch var error as UsageError {
      if state.helpRequested && !state.failedOnSubcommand {
        return .help(state.path)
      }
      if error.commandPath == nil { error.commandPath = state.pathNames }
      throw error
    }
  }
}

private struct ParseState {
  let rootConfiguration: CommandConfiguration
  let environment: [String: String]
  let words: [String]
  /// Set before parsing when `--help` or `-h` stands alone before `--`, so that errors
  /// anywhere give way to help; set on reaching `h` in a cluster such as `-qh`.
  var helpRequested: Bool

  var commandType: any ParsableCommand.Type
  var path: [CommandConfiguration]
  var local = ParsedArguments()
  var globals = ParsedArguments()
  var positionals: [String] = []
  var failedOnSubcommand = false

  init(root: any ParsableCommand.Type, environment: [String: String], words: [String]) {
    rootConfiguration = root.configuration
    self.environment = environment
    self.words = words
    helpRequested = words.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    commandType = root
    path = [rootConfiguration]
  }

  var pathNames: [String] { path.dropFirst().map(\.name) }
  private var current: CommandConfiguration { path[path.count - 1] }
  private var isAtRoot: Bool { path.count == 1 }

  mutating func parse() throws -> Invocation {
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if optionsEnded || !Self.isOptionLike(word) {
        try take(word: word)
      } else if word == "--" {
        optionsEnded = true
      } else if word.hasPrefix("--") {
        if let invocation = try takeLong(word, index: &index) { return invocation }
      } else {
        if let invocation = try takeShortCluster(word, index: &index) { return invocation }
      }
    }
    if helpRequested { return .help(path) }
    try assignPositionals()
    try applyEnvironment()
    return .run(try commandType.init(local), path: pathNames, globals: globals)
  }

  /// Words starting with a dash are options, except `-` itself and negative numbers.
  static func isOptionLike(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    let second = word.dropFirst().first
    let third = word.dropFirst(2).first
    let isNegativeNumber = isDigit(second) || (second == "." && isDigit(third))
    return !isNegativeNumber
  }

  private static func isDigit(_ character: Character?) -> Bool {
    guard let character else { return false }
    return ("0"..."9").contains(character)
  }

  private mutating func take(word: String) throws {
    guard !current.subcommands.isEmpty else {
      positionals.append(word)
      return
    }
    guard let subcommand = current.subcommand(named: word) else {
      failedOnSubcommand = true
      throw UsageError.unknownSubcommand(
        word,
        suggestion: Suggestions.closest(
          to: word, among: current.visibleSubcommands.map(\.name)))
    }
    commandType = subcommand
    path.append(subcommand.configuration)
    local = ParsedArguments()
  }

  /// Options the current level understands: its own, the globals, help, and version at the
  /// root.
  private var activeOptions: [(spec: OptionSpec, isGlobal: Bool)] {
    var options = current.options.map { (spec: $0, isGlobal: false) }
    options += rootConfiguration.globalOptions.map { (spec: $0, isGlobal: true) }
    options.append((BuiltinOptions.help.spec, false))
    if isAtRoot && rootConfiguration.version != nil {
      options.append((BuiltinOptions.version.spec, false))
    }
    return options
  }

  private mutating func takeLong(_ word: String, index: inout Int) throws -> Invocation? {
    let body = word.dropFirst(2)
    let name: Substring
    let inlineValue: String?
    if let equals = body.firstIndex(of: "=") {
      name = body[..<equals]
      inlineValue = String(body[body.index(after: equals)...])
    } else {
      name = body
      inlineValue = nil
    }
    let active = activeOptions
    guard let (spec, isGlobal) = active.first(where: { $0.spec.name == name }) else {
      throw UsageError.unknownOption(
        "--" + name,
        suggestion: Suggestions.closest(to: "--" + name, among: active.map(\.spec.longForm)))
    }
    if spec.takesValue {
      guard let value = inlineValue ?? nextValue(index: &index) else {
        throw UsageError.missingValue(spec)
      }
      try store(value, for: spec, isGlobal: isGlobal)
      return nil
    }
    guard inlineValue == nil else { throw UsageError.unexpectedValue(spec) }
    return storeFlag(spec, isGlobal: isGlobal)
  }

  private mutating func takeShortCluster(_ word: String, index: inout Int) throws -> Invocation? {
    let active = activeOptions
    var letters = word.dropFirst()
    while let letter = letters.first {
      letters = letters.dropFirst()
      guard let (spec, isGlobal) = active.first(where: { $0.spec.short == letter }) else {
        throw UsageError.unknownOption("-" + String(letter), suggestion: nil)
      }
      if spec.takesValue {
        let attached = letters.first == "=" ? letters.dropFirst() : letters
        guard let value = attached.isEmpty ? nextValue(index: &index) : String(attached) else {
          throw UsageError.missingValue(spec)
        }
        try store(value, for: spec, isGlobal: isGlobal)
        return nil
      }
      if let invocation = storeFlag(spec, isGlobal: isGlobal) { return invocation }
    }
    return nil
  }

  /// The next word as an option's value, unless it is itself an option.
  private func nextValue(index: inout Int) -> String? {
    guard index < words.count, !Self.isOptionLike(words[index]) else { return nil }
    index += 1
    return words[index - 1]
  }

  private mutating func store(_ value: String, for spec: OptionSpec, isGlobal: Bool) throws {
    if let expected = spec.check(value) {
      throw UsageError.invalidValue(value, for: spec, expected: expected)
    }
    if isGlobal {
      globals.optionValues[spec.name] = value
    } else {
      local.optionValues[spec.name] = value
    }
  }

  private mutating func storeFlag(_ spec: OptionSpec, isGlobal: Bool) -> Invocation? {
    if spec.name == BuiltinOptions.version.spec.name && isAtRoot && !helpRequested {
      return .version
    }
    if spec.name == BuiltinOptions.help.spec.name {
      helpRequested = true
      return nil
    }
    if isGlobal {
      globals.givenFlags.insert(spec.name)
    } else {
      local.givenFlags.insert(spec.name)
    }
    return nil
  }

  private mutating func assignPositionals() throws {
    var remaining = positionals[...]
    for argument in current.arguments {
      var taken: [String]
      switch argument.arity {
      case .required, .optional:
        taken = remaining.first.map { [$0] } ?? []
        remaining = remaining.dropFirst(taken.count)
      case .zeroOrMore, .oneOrMore:
        taken = Array(remaining)
        remaining = []
      }
      if taken.isEmpty && argument.arity.isRequired {
        throw UsageError.missingArgument(argument)
      }
      for word in taken {
        if let expected = argument.check(word) {
          throw UsageError.invalidValue(word, for: argument, expected: expected)
        }
      }
      local.argumentValues[argument.name] = taken
    }
    if let extra = remaining.first {
      throw UsageError.unexpectedArgument(extra)
    }
  }

  /// Options left unset take their environment variable's value, when it is set and not empty.
  private mutating func applyEnvironment() throws {
    for spec in current.options where local.optionValues[spec.name] == nil {
      if let value = try environmentValue(for: spec) { local.optionValues[spec.name] = value }
    }
    for spec in rootConfiguration.globalOptions where globals.optionValues[spec.name] == nil {
      if let value = try environmentValue(for: spec) { globals.optionValues[spec.name] = value }
    }
  }

  private func environmentValue(for spec: OptionSpec) throws -> String? {
    guard let variable = spec.environment, let value = environment[variable], !value.isEmpty
    else { return nil }
    if let expected = spec.check(value) {
      throw UsageError.invalidEnvironment(value, variable: variable, for: spec, expected: expected)
    }
    return value
  }
}
