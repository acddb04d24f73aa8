import Foundation

@testable import PodcastsCLI

/// What a command run in this process wrote and returned.
struct CommandRun: Sendable {
  let status: Int32
  let stdoutBytes: [UInt8]
  let stderr: String

  var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
  var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs `podcasts <arguments>` in this process against a capturing console.
///
/// - Parameters:
///   - environment: the whole environment the command sees (nothing is inherited).
///   - now: the date the command sees.
func runInProcess(
  _ arguments: [String], environment: [String: String] = [:], stdoutIsTerminal: Bool = false,
  now: Date = Date(timeIntervalSince1970: 1_709_647_620),
  root: any ParsableCommand.Type = PodcastsCommand.self
) async -> CommandRun {
  let console = Console.capturing(
    environment: environment, stdoutIsTerminal: stdoutIsTerminal, now: { now })
  let status = await CommandRunner.run(
    root: root, arguments: ["podcasts"] + arguments, console: console)
  return CommandRun(
    status: status, stdoutBytes: console.stdout.capturedBytes,
    stderr: console.stderr.capturedText)
}

/// Parses `podcasts <arguments>` and returns the command it asks to run, for checking the
/// fields a command was built with.
func parseCommand<Command: ParsableCommand>(
  _ arguments: [String], as commandType: Command.Type, environment: [String: String] = [:]
) throws -> (command: Command, globals: GlobalOptions) {
  let invocation = try CommandParser(root: PodcastsCommand.self, environment: environment)
    .parse(arguments)
  guard case .run(let command, _, let globals) = invocation else {
    throw CommandFailure("expected a command to run, got \(invocation)")
  }
  guard let typed = command as? Command else {
    throw CommandFailure("expected \(Command.self), got \(type(of: command))")
  }
  return (typed, try GlobalOptions(globals))
}
