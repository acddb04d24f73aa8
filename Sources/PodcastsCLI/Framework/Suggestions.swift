/// Picks the candidate a mistyped word most likely meant, for "did you mean" hints.
enum Suggestions {
  /// The closest candidate by edit distance (a swap of neighbours counts as one edit), or the
  /// only candidate that starts with `word`; nil when nothing is close enough to help.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased())
    guard !typed.isEmpty else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, Array(candidate.lowercased()))
      if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    if let best, best.distance <= max(1, min(2, (typed.count - 1) / 2)) {
      return best.candidate
    }
    let extensions = candidates.filter { $0.hasPrefix(word) }
    return typed.count >= 2 && extensions.count == 1 ? extensions[0] : nil
  }

  /// Optimal string alignment distance.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousRow = [Int](repeating: 0, count: b.count + 1)
    var row = Array(0...b.count)
    for i in 1...a.count {
      let rowBeforePrevious = previousRow
      previousRow = row
      row = [Int](repeating: 0, count: b.count + 1)
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          row[j] = min(row[j], rowBeforePrevious[j - 2] + 1)
        }
      }
    }
    return row[b.count]
  }
}
