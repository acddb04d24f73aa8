import Foundation
import Testing

/// What a specification says about one field: nothing, that it is null, or its value.
///
/// Written as a literal in fact tables: `nil` states null, a value states that value, and a
/// field left out stays ``unstated`` and is not checked.
enum Stated<Value: Equatable & Sendable>: Sendable {
  case unstated
  case null
  case value(Value)

  func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Stated<Other> {
    switch self {
    case .unstated: .unstated
    case .null: .null
    case .value(let value): .value(try transform(value))
    }
  }

  /// Records an issue naming `field` unless `actual` is what was stated.
  func check(_ actual: Value?, _ field: String, sourceLocation: SourceLocation = #_sourceLocation) {
    switch self {
    case .unstated: break
    case .null: #expect(actual == nil, "\(field)", sourceLocation: sourceLocation)
    case .value(let expected):
      #expect(actual == expected, "\(field)", sourceLocation: sourceLocation)
    }
  }
}

extension Stated: ExpressibleByNilLiteral {
  init(nilLiteral: ()) { self = .null }
}

extension Stated: ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral,
  ExpressibleByStringLiteral
where Value == String {
  init(stringLiteral value: String) { self = .value(value) }
}

extension Stated: ExpressibleByIntegerLiteral where Value == Int {
  init(integerLiteral value: Int) { self = .value(value) }
}

extension Stated: ExpressibleByBooleanLiteral where Value == Bool {
  init(booleanLiteral value: Bool) { self = .value(value) }
}

extension Stated: ExpressibleByArrayLiteral where Value == [String] {
  init(arrayLiteral elements: String...) { self = .value(elements) }
}

/// The instant an ISO 8601 time such as `2024-03-15T09:00:00Z` names; specifications give
/// times that way and the model holds `Date`s.
func isoDate(_ text: String) -> Date? {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime]
  return formatter.date(from: text)
}
