/// Warnings of one parse, with repeats of a kind folded into a count so that a feed with
/// ten thousand bad dates yields a readable list.
struct Warnings {
  private var messages: [String] = []
  private var counts: [String: Int] = [:]
  private var order: [String] = []
  private static let examplesPerKind = 3

  mutating func add(_ message: String) {
    messages.append(message)
  }

  /// A warning that may repeat: the first few of `kind` are kept verbatim, the rest counted.
  mutating func add(kind: String, _ message: @autoclosure () -> String) {
    let seen = counts[kind, default: 0]
    counts[kind] = seen + 1
    if seen == 0 { order.append(kind) }
    if seen < Self.examplesPerKind { messages.append(message()) }
  }

  var all: [String] {
    var result = messages
    for kind in order {
      let extra = counts[kind, default: 0] - Self.examplesPerKind
      if extra > 0 { result.append("\(extra) more: \(kind)") }
    }
    return result
  }
}
