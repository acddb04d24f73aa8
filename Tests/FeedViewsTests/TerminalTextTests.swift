import FeedViews
import Testing

@Suite struct TerminalTextTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let input: String
    let safe: String
    let line: String

    init(_ input: String, _ safe: String, line: String? = nil) {
      self.input = input
      self.safe = safe
      self.line = line ?? safe
    }

    var testDescription: String { String(reflecting: input) }
  }

  static let cases: [Case] = [
    Case("\u{1B}]0;pwned\u{07}Title", "Title"),
    Case("a\u{1B}[2Jb", "ab"),
    Case("\u{1B}[1;31mred\u{1B}[0m", "red"),
    Case("\u{1B}[?1049h\u{1B}[Hscreen", "screen"),
    Case("x\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\y", "xlinky"),
    Case("\u{1B}]52;c;ZXZpbA==\u{07}clip", "clip"),
    Case("\u{1B}Pdevice\u{1B}\\d", "d"),
    Case("\u{1B}_app\u{9C}a", "a"),
    Case("\u{1B}(Bcharset \u{1B}7save\u{1B}8", "charset save"),
    Case("\u{1B}]0;never terminated", ""),
    Case("ends with ESC\u{1B}", "ends with ESC"),
    Case("\u{9B}31mred 8-bit", "red 8-bit"),
    Case("a\u{9D}0;title\u{9C}b", "ab"),
    Case("next\u{85}line\u{86}x\u{9F}", "nextlinex"), Case("dcs\u{90}eats\u{9C}rest", "dcsrest"),
    Case("\u{202E}txt.exe\u{202C}", "txt.exe"),
    Case("\u{2066}iso\u{2069} \u{202A}emb\u{202B}", "iso emb"),
    Case("cr\rover\u{8}bs\u{7F}del\u{0}nul\u{7}bell", "croverbsdelnulbell"),
    Case("two\nlines\tand tab", "two\nlines\tand tab", line: "two lines and tab"),
    Case("Café — 中文 🎧 \u{200F}rlm", "Café — 中文 🎧 \u{200F}rlm"),
    Case("", ""),
  ]

  @Test(arguments: cases)
  func removesWhatControlsTheTerminal(_ example: Case) {
    #expect(TerminalText.sanitized(example.input) == example.safe)
    #expect(TerminalText.sanitizedLine(example.input) == example.line)
  }

  /// Whatever goes in, no control character but line feed and tab, and no bidi control,
  /// comes out; printable text around the controls survives.
  @Test(arguments: 0..<8)
  func nothingDangerousSurvives(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let pieces: [String] = [
      "a", "é", "中", "🎧", " ", "\n", "\t", "\u{1B}", "[", "]", "\u{07}", "\\", ";", "0", "m",
      "\u{9B}", "\u{9C}", "\u{9D}", "\u{85}", "\u{202E}", "\u{2067}", "\r", "\u{7F}", "P",
    ]
    for _ in 0..<200 {
      var input = ""
      for _ in 0..<Int(generator.next() % 30) {
        input += pieces[Int(generator.next() % UInt64(pieces.count))]
      }
      let safe = TerminalText.sanitized(input)
      #expect(!safe.unicodeScalars.contains { forbidden($0) && $0 != "\n" && $0 != "\t" })
      #expect(!TerminalText.sanitizedLine(input).unicodeScalars.contains(where: forbidden))
      #expect(TerminalText.sanitized(safe) == safe)
    }
  }

  private func forbidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}

/// A small seeded generator, so that generated cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
