/// A type whose values can be read from one command-line word.
///
/// Conforming types describe what they accept so that help, error messages and shell
/// completions all say the same thing.
public protocol ExpressibleByArgument: Sendable {
  /// The value spelled by `argument`, or nil when the word is not one.
  init?(argument: String)

  /// The closed set of spellings this type accepts, in the order help lists them; empty when
  /// the set is open (numbers, text).
  static var allValueStrings: [String] { get }

  /// What a valid value looks like, completing "expected ..." in an error message.
  static var expectation: String { get }

  /// How this value is spelled on the command line, e.g. for a default shown in help.
  var argumentDescription: String { get }
}

extension ExpressibleByArgument {
  public static var allValueStrings: [String] { [] }
}

extension ExpressibleByArgument where Self: CustomStringConvertible {
  public var argumentDescription: String { description }
}

extension String: ExpressibleByArgument {
  public init?(argument: String) { self = argument }
  public static var expectation: String { "a text" }
}

extension Int: ExpressibleByArgument {
  public init?(argument: String) { self.init(argument) }
  public static var expectation: String { "an integer" }
}

extension Double: ExpressibleByArgument {
  /// Accepts decimal numbers only: `inf`, `nan` and hexadecimal floats are no sensible
  /// durations or counts.
  public init?(argument: String) {
    guard
      !argument.isEmpty,
      argument.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
      let value = Double(argument), value.isFinite
    else { return nil }
    self = value
  }
  public static var expectation: String { "a number" }

  /// `30` rather than `30.0` for whole numbers.
  public var argumentDescription: String {
    self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
  }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
  public init?(argument: String) { self.init(rawValue: argument) }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
  public static var expectation: String {
    "one of " + allValueStrings.joined(separator: ", ")
  }
  public var argumentDescription: String { rawValue }
}
