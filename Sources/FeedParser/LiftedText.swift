/// Long runs of character data that ``MarkupRepair`` takes out of the document before
/// libxml2 reads it, leaving in their place a processing instruction that names them.
///
/// libxml2 checks every byte of a CDATA section or of text again, one character at a time,
/// after the repair stage has already read them: in a feed whose descriptions are HTML in
/// CDATA, that was over half of libxml2's work. A run is lifted only when libxml2 would have
/// handed it to the characters callback unchanged and in one piece (see
/// ``MarkupRepair/liftable(_:text:)``), so the builder sees the same text in the same order.
/// The instruction keeps the run's line feeds, so that the line numbers libxml2 gives in its
/// errors stay those of the document.
enum LiftedText {
  /// The target of the instruction left in a run's place; its data is the run's number.
  static let target: StaticString = "podcasts-lifted"
  /// Shorter runs cost libxml2 less than the instruction that would replace them.
  static let minimumLength = 64

  /// The runs lifted out of one repaired chunk: ranges of `source`, numbered from
  /// `firstNumber` in document order.
  struct Chunk {
    let source: UnsafeBufferPointer<UInt8>
    let ranges: [Range<Int>]
    let firstNumber: Int
  }

  /// The runs whose instructions libxml2 has not reached yet. libxml2 may keep the end of
  /// a chunk until the next one arrives, so runs outlive the chunk they came from.
  struct Queue {
    private var bytes: [UInt8] = []
    private var entries: [(number: Int, range: Range<Int>)] = []
    private var head = 0

    mutating func append(_ chunk: Chunk) {
      guard let base = chunk.source.baseAddress else { return }
      for (offset, range) in chunk.ranges.enumerated() {
        let start = bytes.count
        bytes.append(
          contentsOf: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
        entries.append((chunk.firstNumber + offset, start..<bytes.count))
      }
    }

    /// Hands the bytes of run `number` to `body`. Runs before it whose instruction never
    /// came (libxml2 stopped, or dropped the markup around it) are forgotten.
    mutating func take(_ number: Int, _ body: (UnsafePointer<UInt8>, Int) -> Void) {
      while head < entries.count && entries[head].number < number { head += 1 }
      guard head < entries.count, entries[head].number == number else { return }
      let range = entries[head].range
      head += 1
      bytes.withUnsafeBufferPointer { all in
        if let base = all.baseAddress { body(base + range.lowerBound, range.count) }
      }
    }

    /// Drops the runs already taken; called between chunks.
    mutating func compact() {
      guard head > 0 else { return }
      if head == entries.count {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
      } else {
        let shift = entries[head].range.lowerBound
        bytes.removeSubrange(0..<shift)
        entries.removeSubrange(0..<head)
        for index in entries.indices {
          let range = entries[index].range
          entries[index].range = (range.lowerBound - shift)..<(range.upperBound - shift)
        }
      }
      head = 0
    }

    mutating func removeAll() {
      bytes.removeAll()
      entries.removeAll()
      head = 0
    }
  }
}
