import Foundation
import Testing

@testable import PodcastsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary file opened for writing, read back after the channel flushed.
private final class TemporaryFile {
  let url: URL
  let descriptor: Int32

  init(flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-console-" + UUID().uuidString)
    descriptor = open(url.path, flags, 0o600)
    guard descriptor >= 0 else { throw CommandFailure("cannot open \(url.path)") }
  }

  func contents() throws -> [UInt8] { Array(try Data(contentsOf: url)) }

  deinit {
    close(descriptor)
    try? FileManager.default.removeItem(at: url)
  }
}

@Suite("Console and output channels")
struct ConsoleTests {
  @Test(arguments: [0, 1, 7, 4096, 64 * 1024])
  func bufferedWritesReachTheFileInOrder(bufferSize: Int) throws {
    let file = try TemporaryFile()
    let channel = OutputChannel(fileDescriptor: file.descriptor, bufferSize: bufferSize)
    var expected: [UInt8] = []
    let big = (0..<(70 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    channel.write("héllo ")
    expected += Array("héllo ".utf8)
    channel.write(big)
    expected += big
    channel.write(big[5..<100])
    expected += big[5..<100]
    let raw: [UInt8] = [0, 1, 2, 255]
    raw.withUnsafeBytes { channel.write($0) }
    expected += raw
    for index in 0..<1000 {
      channel.write("line \(index)\n")
      expected += Array("line \(index)\n".utf8)
    }
    channel.flush()
    #expect(try file.contents() == expected)
    #expect(channel.writeFailure == nil)
    #expect(channel.capturedBytes.isEmpty)
  }

  @Test func writesWaitInTheBufferUntilFlushed() throws {
    let file = try TemporaryFile()
    let channel = OutputChannel(fileDescriptor: file.descriptor, bufferSize: 1024)
    channel.write("pending")
    #expect(try file.contents().isEmpty)
    channel.flush()
    #expect(try file.contents() == Array("pending".utf8))
  }

  @Test func concurrentWritesStayWhole() async throws {
    let channel = OutputChannel()
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<200 { channel.write("task \(task) line \(index)\n") }
        }
      }
    }
    let lines = channel.capturedText.split(separator: "\n")
    #expect(lines.count == 1600)
    #expect(lines.allSatisfy { $0.hasPrefix("task ") && $0.contains(" line ") })
  }

  @Test func failedWriteIsReportedAsStatusOne() async throws {
    let file = try TemporaryFile(flags: O_RDONLY | O_CREAT)
    let console = Console(
      stdout: OutputChannel(fileDescriptor: file.descriptor), stderr: OutputChannel(),
      environment: [:], stdoutIsTerminal: false, stderrIsTerminal: false, width: 80,
      clock: { Date() })
    let status = await PodcastsCommand.main(["podcasts", "--version"], console: console)
    #expect(status == 1)
    #expect(console.stdout.writeFailure == EBADF)
    #expect(
      console.stderr.capturedText
        == "podcasts: cannot write to standard output: \(String(cString: strerror(EBADF)))\n")
  }

  struct ColourCase: Sendable {
    let terminal: Bool
    let environment: [String: String]
    let colour: Bool
  }

  @Test(arguments: [
    ColourCase(terminal: true, environment: [:], colour: true),
    ColourCase(terminal: false, environment: [:], colour: false),
    ColourCase(terminal: true, environment: ["NO_COLOR": "1"], colour: false),
    ColourCase(terminal: true, environment: ["NO_COLOR": ""], colour: true),
    ColourCase(terminal: true, environment: ["TERM": "dumb"], colour: false),
    ColourCase(terminal: true, environment: ["TERM": "xterm-256color"], colour: true),
  ])
  func colourDecision(_ testCase: ColourCase) {
    let console = Console.capturing(
      environment: testCase.environment, stdoutIsTerminal: testCase.terminal)
    #expect(console.usesColor == testCase.colour)
  }

  @Test(
    arguments: [
      ([:], 80), (["COLUMNS": "120"], 120), (["COLUMNS": "wide"], 80), (["COLUMNS": "0"], 80),
      (["COLUMNS": "-5"], 80),
    ] as [([String: String], Int)])
  func widthFromTheEnvironment(environment: [String: String], width: Int) throws {
    #expect(Console.capturing(environment: environment).width == width)
    let file = try TemporaryFile()
    #expect(!Terminal.isTerminal(file.descriptor))
    #expect(Terminal.width(of: file.descriptor, environment: environment) == width)
  }

  @Test func widthOfARealTerminal() throws {
    // The controlling side of a new pseudo-terminal is a terminal device too.
    let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(terminal >= 0)
    defer { close(terminal) }
    var size = winsize(ws_row: 40, ws_col: 123, ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(terminal, UInt(TIOCSWINSZ), &size) == 0)
    #expect(Terminal.isTerminal(terminal))
    #expect(Terminal.width(of: terminal, environment: ["COLUMNS": "50"]) == 123)
  }

  @Test func quietSilencesNotesAndWarningsButNotErrors() {
    var console = Console.capturing()
    console.note("fetching")
    console.warning("odd date")
    console.error("gone")
    #expect(
      console.stderr.capturedText == "fetching\npodcasts: warning: odd date\npodcasts: gone\n")
    console = Console.capturing()
    console.isQuiet = true
    console.note("fetching")
    console.warning("odd date")
    console.error("gone\nfor good")
    #expect(console.stderr.capturedText == "podcasts: gone for good\n")
    #expect(console.stdout.capturedBytes.isEmpty)
  }

  @Test func stdoutOnATerminalIsShownBeforeStderr() throws {
    let file = try TemporaryFile()
    let stderr = OutputChannel()
    let console = Console(
      stdout: OutputChannel(fileDescriptor: file.descriptor), stderr: stderr, environment: [:],
      stdoutIsTerminal: true, stderrIsTerminal: true, width: 80, clock: { Date() })
    console.write("row\n")
    #expect(try file.contents().isEmpty)
    console.note("progress")
    #expect(try file.contents() == Array("row\n".utf8))
  }

  @Test func injectedClockAndEnvironment() {
    let date = Date(timeIntervalSince1970: 1_000_000)
    let console = Console.capturing(environment: ["A": "b"], now: { date })
    #expect(console.now == date)
    #expect(console.environment == ["A": "b"])
  }
}
