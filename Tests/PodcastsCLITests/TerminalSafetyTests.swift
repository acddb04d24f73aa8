import Foundation
import Testing

@testable import PodcastsCLI

/// Text from feeds, or from a catalog file edited by hand, must never reach the terminal as
/// control sequences: no escape, no C1 control, no bidi override, whatever the command.
@Suite("Terminal safety of catalog output")
struct TerminalSafetyTests {
  static let esc = "\u{1B}"
  /// Window title (OSC 0), clear screen (CSI 2J), colour, a hyperlink (OSC 8), the 8-bit CSI
  /// and OSC, bidi override and isolate characters.
  static let hostile =
    "Evil \(esc)]0;pwned\u{07} \(esc)[2J\(esc)[31mred\(esc)[0m \(esc)]8;;https://x.example\(esc)\\link\(esc)]8;;\(esc)\\ \u{9B}31m\u{9D}0;t\u{07} \u{202E}desrever\u{202C} \u{2066}iso\u{2069}"

  static let first = "eeee0001-0000-4000-8000-000000000001"
  static let second = "eeee0002-0000-4000-8000-000000000002"

  /// Two podcasts with hostile text: the first as a feed writes it (the parser keeps what
  /// XML allows), the second also edited into the catalog file with raw escapes everywhere.
  static let hostileFixture = Fixture(name: "hostile") { catalog in
    var feeds: [String] = []
    for (index, guid) in [first, second].enumerated() {
      let xmlSafe =
        hostile.replacingOccurrences(of: "&", with: "&amp;") + " &#27;[2J &#x9B;1m"
      feeds.append(
        try TestFeeds.write(
          TestFeeds.rss(
            guid: guid, title: xmlSafe + " \(index)", author: xmlSafe, description: xmlSafe,
            link: "https://evil.example/\(esc)[2J", category: xmlSafe, language: "en\(esc)[5m",
            items: [
              .init(
                title: xmlSafe, guid: "g\(esc)[2J", published: "Tue, 05 Mar 2024 14:07:00 GMT",
                duration: "60", description: xmlSafe)
            ]), named: "evil-\(index).xml", in: catalog.directory))
    }
    try catalog.add(feeds)
    let raw = "'" + hostile.replacingOccurrences(of: "'", with: "''") + "'"
    try catalog.sql(
      """
      UPDATE podcasts SET title = \(raw), author = \(raw), description = \(raw),
        link = 'https://evil.example/' || \(raw), image_url = 'https://evil.example/' || \(raw),
        language = \(raw), categories = json_array(\(raw)), new_feed_url = \(raw),
        last_error = \(raw), last_error_at = 1710000000
      WHERE id = '\(second)';
      UPDATE episodes SET title = \(raw), description = \(raw), guid = \(raw)
      WHERE podcast_id = '\(second)';
      """)
    // The test means something only if the catalog really holds escapes now.
    #expect(
      try catalog.sql(
        "SELECT instr(title, char(27)) > 0 AND instr(last_error, char(27)) > 0 FROM podcasts WHERE id = '\(second)';"
      ) == "1\n")
  }

  static let commands: [[String]] = [
    ["list"], ["list", "--sort", "latest"], ["show", first], ["show", second],
    ["episodes", first], ["episodes", second], ["search", "evil"], ["search", "pwned"],
    ["show", "eeee"], ["episodes", "eeee"], ["unsubscribe", "eeee"],
    ["list", "--json"], ["show", second, "--json"], ["episodes", second, "--json"],
    ["search", "evil", "--json"], ["unsubscribe", first, second],
  ]

  @Test func noControlSequenceReachesTheOutput() throws {
    let catalog = try TemporaryCatalog(copying: Self.hostileFixture)
    for command in Self.commands {
      let run = try catalog.run(command)
      #expect(run.status <= 1, "\(command): \(run.stderr)")
      for (stream, bytes) in [("stdout", run.stdoutBytes), ("stderr", run.stderrBytes)] {
        #expect(
          Self.controls(in: bytes).isEmpty, "\(command) \(stream): \(Self.controls(in: bytes))")
      }
      // The words around the sequences are still shown.
      #expect((run.stdout + run.stderr).contains("Evil"), "\(command)")
    }
  }

  /// The JSON keeps the characters, escaped: a script reading it gets the text as stored.
  @Test func theJSONEscapesWhatItKeeps() throws {
    let catalog = try TemporaryCatalog(copying: Self.hostileFixture)
    let run = try catalog.run(["show", "--json", Self.second])
    #expect(Self.controls(in: run.stdoutBytes).isEmpty)
    #expect(run.stdout.contains("\\u001b"))
    #expect(try JQ.run(".lastError", run.stdoutBytes) == Self.hostile + "\n")
  }

  /// With colour on, the only sequences are the table's own bold, dim and reset.
  @Test func colourOnATerminalAddsOnlyItsOwnSequences() async throws {
    let catalog = try TemporaryCatalog(copying: Self.hostileFixture)
    for command in [
      ["list"], ["show", Self.second], ["episodes", Self.second], ["search", "evil"],
    ] {
      let coloured = await runInProcess(
        ["--db", catalog.path] + command, environment: ["TERM": "xterm"], stdoutIsTerminal: true)
      #expect(coloured.status == 0)
      let text = coloured.stdout
      #expect(text.contains("\(Self.esc)[1m"), "\(command)")
      let stripped = ["\(Self.esc)[0m", "\(Self.esc)[1m", "\(Self.esc)[2m"].reduce(text) {
        $0.replacingOccurrences(of: $1, with: "")
      }
      #expect(Self.controls(in: Array(stripped.utf8)).isEmpty, "\(command)")
      for environment in [["NO_COLOR": "1", "TERM": "xterm"], ["TERM": "dumb"]] {
        let plain = await runInProcess(
          ["--db", catalog.path] + command, environment: environment, stdoutIsTerminal: true)
        #expect(!plain.stdoutBytes.contains(0x1B), "\(command) \(environment)")
      }
    }
  }

  /// ESC, BEL and the other C0 controls but tab and line feed, DEL, C1 controls (as UTF-8)
  /// and the bidi controls U+202A-U+202E and U+2066-U+2069, with their offsets.
  static func controls(in bytes: [UInt8]) -> [Int] {
    var found: [Int] = []
    for index in bytes.indices {
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      let third = index + 2 < bytes.count ? bytes[index + 2] : 0
      if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F
        || (byte == 0xC2 && (0x80...0x9F).contains(next))
        || (byte == 0xE2 && next == 0x80 && (0xAA...0xAE).contains(third))
        || (byte == 0xE2 && next == 0x81 && (0xA6...0xA9).contains(third))
      {
        found.append(index)
      }
    }
    return found
  }
}
