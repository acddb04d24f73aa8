import FeedViews
import Foundation
import Testing

@Suite struct JSONWriterTests {
  private func document(_ body: (inout JSONWriter) -> Void) -> String {
    var json = JSONWriter()
    body(&json)
    return String(decoding: json.bytes, as: UTF8.self)
  }

  @Test func writesNestedStructures() {
    let text = document { json in
      json.object { json in
        json.key("a")
        json.int(1)
        json.key("b")
        json.array { json in
          json.bool(true)
          json.bool(false)
          json.null()
          json.int(nil)
        }
        json.key("c")
        json.object { json in
          json.key("d")
          json.string("x")
        }
        json.key("e")
        json.strings([])
        json.key("f")
        json.string(nil)
      }
    }
    #expect(text == #"{"a":1,"b":[true,false,null,null],"c":{"d":"x"},"e":[],"f":null}"#)
  }

  @Test(arguments: [
    ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
    ("\u{8}", #""\b""#), ("\u{C}", #""\f""#), ("\u{0}", #""\u0000""#), ("\u{1B}", #""\u001b""#),
    ("\u{1F}", #""\u001f""#), ("\u{7F}", #""\u007f""#), ("\u{9B}", #""\u009b""#),
    ("\u{2028}", #""\u2028""#), ("\u{2029}", #""\u2029""#), ("\u{202E}", #""\u202e""#),
    ("\u{2066}", #""\u2066""#), ("/", #""/""#), ("é中🎧", "\"é中🎧\""),
    ("\u{2027}\u{202F}", "\"\u{2027}\u{202F}\""),
  ])
  func escapesStrings(value: String, expected: String) {
    #expect(document { $0.string(value) } == expected)
  }

  /// An escape is found wherever it stands in long text, whose plain runs are skipped a
  /// block at a time: in the first block, across blocks, in the tail; after text that is
  /// not ASCII but needs no escape.
  @Test(arguments: [
    ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#),
    ("\u{7F}", #"\u007f"#), ("\u{85}", #"\u0085"#), ("\u{2028}", #"\u2028"#),
    ("\u{202E}", #"\u202e"#),
  ])
  func escapesAtEveryOffsetOfLongText(value: String, escaped: String) {
    for offset in 0...40 {
      let before = String(repeating: "a", count: offset) + "’é"
      let after = String(repeating: "b’", count: 12)
      #expect(
        document { $0.string(before + value + after) } == "\"" + before + escaped + after + "\"",
        "at \(offset)")
    }
  }

  /// Every string written decodes back to itself: all C0 and C1 controls, quotes,
  /// backslashes, the line separators, non-BMP characters, long mixed text.
  @Test func stringsRoundTripThroughJSONSerialization() throws {
    var values = (0..<0x100).compactMap { Unicode.Scalar(UInt32($0)).map { String(Character($0)) } }
    values += ["\u{2028}\u{2029}", "\u{202A}\u{202E}\u{2066}\u{2069}", "🎧🇫🇷👩‍💻", "\u{10FFFF}"]
    values += ["", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\r\n"]
    var generator = SplitMix64(seed: 42)
    let alphabet = Array("ab \"\\\n\u{1}\u{1B}\u{7F}\u{85}\u{9B}é中\u{2028}\u{202E}🎧")
    for _ in 0..<300 {
      values.append(
        String(
          (0..<Int(generator.next() % 40)).map { _ in
            alphabet[Int(generator.next() % UInt64(alphabet.count))]
          }))
    }
    let bytes = document { json in json.strings(values) }
    let decoded = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes.utf8)) as? [String])
    #expect(decoded == values)
  }

  @Test(arguments: [0, 1, -1, 42, -1_234_567_890, Int.max, Int.min])
  func writesIntegers(value: Int) {
    #expect(document { $0.int(value) } == String(value))
  }

  @Test(arguments: FormattingTests.epochs)
  func writesDates(seconds: Int64, expected: String) {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    #expect(document { $0.date(date) } == "\"\(expected)\"")
  }

  @Test func writesNullForDatesItCannotWrite() {
    #expect(document { $0.date(nil) } == "null")
    #expect(document { $0.date(Date(timeIntervalSince1970: 1e15)) } == "null")
  }

  @Test func escapesKeys() {
    let text = document { json in
      json.object { json in
        json.key("a\"b")
        json.int(1)
      }
    }
    #expect(text == #"{"a\"b":1}"#)
  }

  /// A large document goes out in chunks while it is written, and arrives whole.
  @Test func streamsToAFileDescriptor() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("json-writer-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var json = JSONWriter(fileDescriptor: descriptor, flushThreshold: 4096)
    json.beginArray()
    var largestBuffer = 0
    for index in 0..<20_000 {
      json.object { json in
        json.key("index")
        json.int(index)
        json.key("title")
        json.string("Episode \(index) — \"quoted\"\n")
      }
      largestBuffer = max(largestBuffer, json.bytes.count)
    }
    json.endArray()
    try json.finish()
    #expect(largestBuffer < 4096 + 100)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.last == UInt8(ascii: "\n"))
    let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(decoded.count == 20_000)
    #expect(decoded.last?["title"] as? String == "Episode 19999 — \"quoted\"\n")
    #expect(decoded.last?["index"] as? Int == 19_999)
  }

  @Test func reportsWriteErrors() throws {
    let descriptor = open("/dev/null", O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var json = JSONWriter(fileDescriptor: descriptor, flushThreshold: 16)
    json.strings(Array(repeating: "text", count: 100))
    #expect(json.failure?.code == EBADF)
    let error = #expect(throws: JSONWriter.WriteError.self) { try json.finish() }
    #expect(error?.description == "cannot write the JSON output: Bad file descriptor")
  }
}
