/// The words the parser assigned to one command's declarations, already checked against the
/// declared types; commands read typed values from it in their `init`.
public struct ParsedArguments: Sendable {
  /// Values by long option name; a repeated option keeps its last value.
  var optionValues: [String: String] = [:]
  var givenFlags: Set<String> = []
  /// Words by argument name, in command-line order.
  var argumentValues: [String: [String]] = [:]

  public init() {}

  public func flag(_ flag: Flag) -> Bool {
    givenFlags.contains(flag.spec.name)
  }

  /// The option's value, else its environment variable's, else its default, else nil.
  public func value<Value>(_ option: Option<Value>) throws -> Value? {
    guard let word = optionValues[option.spec.name] else { return option.defaultValue }
    guard let value = Value(argument: word) else {
      throw UsageError.invalidValue(word, for: option.spec, expected: Value.expectation)
    }
    return value
  }

  /// The value of an option that has a default.
  public func value<Value>(_ option: Option<Value>, default fallback: Value) throws -> Value {
    try value(option) ?? fallback
  }

  /// The option's value, which must satisfy `isValid`; `expected` names what is valid, as in
  /// "expected a positive integer".
  public func value<Value>(
    _ option: Option<Value>, where isValid: (Value) -> Bool, expected: String
  ) throws -> Value? {
    guard let value = try value(option) else { return nil }
    guard isValid(value) else {
      throw UsageError.invalidValue(
        optionValues[option.spec.name] ?? value.argumentDescription, for: option.spec,
        expected: expected)
    }
    return value
  }

  /// A required argument's value.
  public func argument<Value>(_ argument: Argument<Value>) throws -> Value {
    guard let value = try arguments(argument).first else {
      throw UsageError.missingArgument(argument.spec)
    }
    return value
  }

  /// An optional argument's value.
  public func optionalArgument<Value>(_ argument: Argument<Value>) throws -> Value? {
    try arguments(argument).first
  }

  /// The values of a variadic argument, in command-line order.
  public func arguments<Value>(_ argument: Argument<Value>) throws -> [Value] {
    try (argumentValues[argument.spec.name] ?? []).map { word in
      guard let value = Value(argument: word) else {
        throw UsageError.invalidValue(word, for: argument.spec, expected: Value.expectation)
      }
      return value
    }
  }
}
