import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a command line went: done, or a command that awaits is still to run.
public enum CommandStart: Sendable {
  case finished(Int32)
  case awaiting(PendingCommand)
}

/// A parsed `AsyncParsableCommand`, ready to run.
public struct PendingCommand: Sendable {
  fileprivate let command: any AsyncParsableCommand
  fileprivate let context: CommandContext
  fileprivate let path: [String]
  fileprivate let rootName: String

  /// Runs the command and returns the exit status.
  public func finish() async -> Int32 {
    let status: Int32
    do {
      try await command.run(context)
      status = 0
    } catch {
      status = CommandRunner.status(
        for: error, path: path, rootName: rootName, console: context.console)
    }
    return CommandRunner.conclude(status, console: context.console)
  }
}

/// The one place where errors become messages and exit statuses.
///
/// 0: success. 1: the work failed (any error but a usage error), reported as one line
/// `podcasts: <message>`. 2: a usage error, reported as `podcasts: <message>` and
/// `See 'podcasts <subcommand> --help'.`.
enum CommandRunner {
  /// Runs the command line through to the end, awaiting the command if it must.
  static func run(root: any ParsableCommand.Type, arguments: [String], console: Console) async
    -> Int32
  {
    switch start(root: root, arguments: arguments, console: console) {
    case .finished(let status): return status
    case .awaiting(let pending): return await pending.finish()
    }
  }

  /// Parses the command line and runs the command if it does not await, without
  /// starting Swift's concurrency runtime: most commands read the catalog and print,
  /// and the runtime's threads would cost them about a millisecond of every start.
  static func start(root: any ParsableCommand.Type, arguments: [String], console: Console)
    -> CommandStart
  {
    let rootName = root.configuration.name
    var path: [String] = []
    let status: Int32
    do {
      let invocation = try CommandParser(root: root, environment: console.environment)
        .parse(Array(arguments.dropFirst()))
      switch invocation {
      case .help(let configurations):
        console.write(HelpFormatter(path: configurations, width: console.width).render())
      case .version:
        console.write("\(rootName) \(root.configuration.version ?? "")\n")
      case .run(let command, let commandPath, let parsedGlobals):
        path = commandPath
        let globals = try GlobalOptions(parsedGlobals)
        var console = console
        console.isQuiet = globals.isQuiet
        let context = CommandContext(console: console, globals: globals, root: root)
        if let command = command.awaiting {
          return .awaiting(
            PendingCommand(command: command, context: context, path: path, rootName: rootName))
        }
        try command.run(context)
      }
      status = 0
    } catch {
      status = Self.status(for: error, path: path, rootName: rootName, console: console)
    }
    return .finished(conclude(status, console: console))
  }

  /// Reports `error` and returns the exit status it calls for.
  fileprivate static func status(
    for error: any Error, path: [String], rootName: String, console: Console
  ) -> Int32 {
    switch error {
    case let error as UsageError:
      let helpPath = ([rootName] + (error.commandPath ?? path)).joined(separator: " ")
      console.error(error.message)
      console.stderr.write("See '\(helpPath) --help'.\n")
      return 2
    case let exit as ExitCode:
      return exit.rawValue
    default:
      console.error(message(for: error))
      return 1
    }
  }

  /// Flushes standard output; a write that failed there fails the command.
  fileprivate static func conclude(_ status: Int32, console: Console) -> Int32 {
    console.flush()
    if let failure = console.stdout.writeFailure, failure != EPIPE {
      let reason = console.stdout.writeFailureDescription ?? "error \(failure)"
      console.error("cannot write to standard output: \(reason)")
      return 1
    }
    return status
  }

  /// The project's errors describe themselves through `CustomStringConvertible` (or
  /// `LocalizedError`); Foundation's only through their localized description, to which the
  /// file or URL concerned is added.
  static func message(for error: any Error) -> String {
    if let localized = error as? LocalizedError, let description = localized.errorDescription {
      return description
    }
    let bridged = error as NSError
    let foundationDomains = [NSCocoaErrorDomain, NSPOSIXErrorDomain, NSURLErrorDomain]
    guard type(of: error) is NSError.Type || foundationDomains.contains(bridged.domain) else {
      return String(describing: error)
    }
    let subject =
      bridged.userInfo[NSFilePathErrorKey] as? String
      ?? (bridged.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString
    return bridged.localizedDescription + (subject.map { " (\($0))" } ?? "")
  }
}
