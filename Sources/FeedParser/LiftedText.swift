import Glibc

/// Long runs of character data that ``MarkupRepair`` takes out of the document before
/// libxml2 reads it, leaving in their place a processing instruction that names them; and
/// long attribute values holding references, left as a mark and a number.
///
/// libxml2 checks every byte of a CDATA section or of text again, one character at a time,
/// after the repair stage has already read them: in a feed whose descriptions are HTML in
/// CDATA, that was over half of libxml2's work. An attribute value with a reference in it
/// (an enclosure URL with `&amp;`) it reads twice, the second time character by character.
/// A run is lifted only when libxml2 would have handed it over unchanged and in one piece,
/// so the builder sees the same text in the same order. The instruction keeps the run's
/// line feeds, so that the line numbers libxml2 gives in its errors stay those of the
/// document.
enum LiftedText {
  /// The target of the instruction left in a run's place; its data is the run's number.
  static let target: StaticString = "podcasts-lifted"
  /// Shorter runs cost libxml2 less than the instruction that would replace them.
  static let minimumLength = 64

  /// A lifted run: a range of the chunk's bytes, or of its decoded attribute values.
  struct Run {
    let range: Range<Int>
    let decoded: Bool
  }

  /// The runs lifted out of one repaired chunk, numbered from `firstNumber` in document
  /// order.
  struct Chunk {
    let source: UnsafeBufferPointer<UInt8>
    let decoded: UnsafeBufferPointer<UInt8>
    let runs: [Run]
    let firstNumber: Int

    func bytes(of run: Run) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: (run.decoded ? decoded : source)[run.range])
    }
  }

  /// The runs whose instructions or attributes libxml2 has not reached yet. Those of the
  /// chunk being parsed are read where they lie; libxml2 may keep the end of a chunk until
  /// the next one arrives, so the runs it has not reached are copied when the chunk has
  /// been parsed. A class, so that the attributes of a start tag can reach it.
  final class Queue {
    /// What a lifted attribute value becomes, before its number. Random for each document,
    /// so that no value written in a feed can pass for one.
    let attributeMark: [UInt8] = Array(
      "podcasts-lifted-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-".utf8)
    /// The first word of the data of this parser's own processing instructions (lifted
    /// runs, the end of the input). Random for each document, so that an instruction
    /// written in a feed is never taken for one of them.
    let instructionToken: [UInt8] = Array(
      String(UInt64.random(in: 0...UInt64.max), radix: 36).utf8)
    /// The chunk being parsed, and the index of its first run not passed yet.
    private var chunk: Chunk?
    private var chunkHead = 0
    /// Runs kept from earlier chunks, in `bytes`; `head` is the first not passed yet.
    private var bytes: [UInt8] = []
    private var entries: [(number: Int, range: Range<Int>)] = []
    private var head = 0

    /// Parses a chunk (`body`) with its runs at hand, then keeps those not reached.
    func parse(_ chunk: Chunk, _ body: () -> Void) {
      self.chunk = chunk
      chunkHead = 0
      body()
      for index in chunkHead..<chunk.runs.count {
        let start = bytes.count
        bytes.append(contentsOf: chunk.bytes(of: chunk.runs[index]))
        entries.append((chunk.firstNumber + index, start..<bytes.count))
      }
      self.chunk = nil
      compact()
    }

    /// Hands the bytes of run `number` to `body`. Runs before it whose instruction never
    /// came (libxml2 stopped, or dropped the markup around it) or whose attribute has been
    /// read are forgotten.
    func take(_ number: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
      while head < entries.count && entries[head].number < number { head += 1 }
      if head < entries.count {
        guard entries[head].number == number else { return }
        let range = entries[head].range
        head += 1
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        return
      }
      guard let chunk else { return }
      let index = number - chunk.firstNumber
      guard index >= chunkHead && index < chunk.runs.count else { return }
      chunkHead = index + 1
      body(chunk.bytes(of: chunk.runs[index]))
    }

    /// The decoded text of the attribute value that libxml2 reports as `value`, when it is
    /// a lifted one. Valid until the queue next changes: attributes are read while their
    /// start tag is reported, and the queue changes only between chunks and at the
    /// instructions that come after it.
    func attributeValue(_ value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
      let mark = attributeMark.count
      guard value.count > mark, let start = value.baseAddress,
        attributeMark.withUnsafeBufferPointer({ mine in
          mine.baseAddress.map { memcmp(start, $0, mark) == 0 } ?? false
        })
      else { return nil }
      var number = 0
      for digit in value[mark...] {
        guard digit >= 0x30 && digit <= 0x39, number < Int.max / 10 else { return nil }
        number = number * 10 + Int(digit - 0x30)
      }
      if let index = entries[head...].firstIndex(where: { $0.number == number }) {
        let range = entries[index].range
        return bytes.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[range]) }
      }
      guard let chunk else { return nil }
      let index = number - chunk.firstNumber
      guard index >= chunkHead && index < chunk.runs.count else { return nil }
      return chunk.bytes(of: chunk.runs[index])
    }

    /// Drops the kept runs already passed.
    private func compact() {
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

    func removeAll() {
      bytes.removeAll()
      entries.removeAll()
      head = 0
    }
  }
}
