import FeedViews
import Foundation

/// Everything a command may touch of the outside world besides files and the network: the
/// two output streams, what they are connected to, the environment and the clock.
///
/// Data goes to `stdout` only; progress and warnings go through `note` and `warning`, which
/// `--quiet` silences; `error` always reaches stderr. Tests build a capturing console with
/// their own environment and clock and read what a command wrote.
public struct Console: Sendable {
  public let stdout: OutputChannel
  public let stderr: OutputChannel
  public let environment: [String: String]
  public let stdoutIsTerminal: Bool
  public let stderrIsTerminal: Bool
  /// Columns available for tables and help: the terminal's width, else `COLUMNS`, else 80.
  public let width: Int
  /// Set by `--quiet`: `note` and `warning` write nothing.
  public var isQuiet: Bool
  private let clock: @Sendable () -> Date

  public init(
    stdout: OutputChannel, stderr: OutputChannel, environment: [String: String],
    stdoutIsTerminal: Bool, stderrIsTerminal: Bool, width: Int, isQuiet: Bool = false,
    clock: @escaping @Sendable () -> Date
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
    self.width = width
    self.isQuiet = isQuiet
    self.clock = clock
  }

  /// The console of this process: file descriptors 1 and 2, its environment, the system clock.
  public static func standard() -> Console {
    let environment = ProcessInfo.processInfo.environment
    let stdoutIsTerminal = Terminal.isTerminal(1)
    let stderrIsTerminal = Terminal.isTerminal(2)
    return Console(
      stdout: OutputChannel(fileDescriptor: 1),
      // Unbuffered so that progress shows at once and never waits for an exit.
      stderr: OutputChannel(fileDescriptor: 2, bufferSize: 0),
      environment: environment, stdoutIsTerminal: stdoutIsTerminal,
      stderrIsTerminal: stderrIsTerminal,
      width: Terminal.width(
        of: stdoutIsTerminal ? 1 : (stderrIsTerminal ? 2 : nil), environment: environment),
      clock: { Date() })
  }

  /// A console that keeps what is written, for running commands in-process.
  public static func capturing(
    environment: [String: String] = [:], stdoutIsTerminal: Bool = false,
    stderrIsTerminal: Bool = false, now: @escaping @Sendable () -> Date = { Date() }
  ) -> Console {
    Console(
      stdout: OutputChannel(), stderr: OutputChannel(), environment: environment,
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal,
      width: Terminal.columnsVariable(environment) ?? Terminal.fallbackWidth, clock: now)
  }

  /// The current date; tests fix it.
  public var now: Date { clock() }

  /// Whether to colour stdout: only on a terminal, never with `NO_COLOR` set to anything but
  /// the empty string (no-color.org), and not on a terminal that declares itself dumb.
  public var usesColor: Bool {
    stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  public func write(_ string: String) { stdout.write(string) }

  public func write(_ bytes: [UInt8]) { stdout.write(bytes) }

  public func write(_ bytes: UnsafeRawBufferPointer) { stdout.write(bytes) }

  /// Progress and other information for people, on stderr; silenced by `--quiet`.
  public func note(_ message: String) {
    guard !isQuiet else { return }
    toStderr(message + "\n")
  }

  /// A problem that did not stop the work, as `podcasts: warning: ...`; silenced by `--quiet`.
  public func warning(_ message: String) {
    guard !isQuiet else { return }
    toStderr("podcasts: warning: " + Self.oneLine(message) + "\n")
  }

  /// A failure, as `podcasts: ...`; always shown.
  public func error(_ message: String) {
    toStderr("podcasts: " + Self.oneLine(message) + "\n")
  }

  public func flush() {
    stdout.flush()
    stderr.flush()
  }

  /// On a terminal both streams interleave on one screen, so what stdout holds is shown first.
  private func toStderr(_ text: String) {
    if stdoutIsTerminal { stdout.flush() }
    stderr.write(text)
  }

  /// Error messages from lower layers may span lines; the command line reports one.
  /// The message on one line and safe for a terminal: messages quote feed titles and
  /// addresses, which strangers write.
  static func oneLine(_ message: String) -> String {
    guard message.contains(where: \.isNewline) else {
      return DisplayWidth.truncated(TerminalText.sanitizedLine(message), to: longestMessage)
    }
    let joined = message.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
    return DisplayWidth.truncated(TerminalText.sanitizedLine(joined), to: longestMessage)
  }

  /// Most columns of a warning or error: enough for any message and the URL it names,
  /// not for a megabyte title a feed repeats in a warning.
  static let longestMessage = 2000
}
