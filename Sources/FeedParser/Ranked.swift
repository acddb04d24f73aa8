/// A field filled from several elements in order of preference: a better-ranked source
/// (lower rank) replaces a worse one; among equals the first in the document stays.
struct Ranked<Value> {
  private(set) var value: Value?
  private var rank = Int.max

  /// Whether a value of `rank` would replace the present one.
  func wants(rank: Int) -> Bool { rank < self.rank }

  mutating func offer(_ candidate: Value?, rank: Int) {
    guard let candidate, rank < self.rank else { return }
    value = candidate
    self.rank = rank
  }
}
