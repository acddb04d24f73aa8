import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one place where errors become messages and exit statuses.
///
/// 0: success. 1: the work failed (any error but a usage error), reported as one line
/// `podcasts: <message>`. 2: a usage error, reported as `podcasts: <message>` and
/// `See 'podcasts <subcommand> --help'.`.
enum CommandRunner {
  static func run(root: any ParsableCommand.Type, arguments: [String], console: Console) async
    -> Int32
  {
    let status = await execute(root: root, words: Array(arguments.dropFirst()), console: console)
    console.flush()
    if let failure = console.stdout.writeFailure, failure != EPIPE {
      let reason = console.stdout.writeFailureDescription ?? "error \(failure)"
      console.error("cannot write to standard output: \(reason)")
      return 1
    }
    return status
  }

  private static func execute(root: any ParsableCommand.Type, words: [String], console: Console)
    async -> Int32
  {
    let rootName = root.configuration.name
    var path: [String] = []
    do {
      let invocation = try CommandParser(root: root, environment: console.environment)
        .parse(words)
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
        try await command.run(CommandContext(console: console, globals: globals, root: root))
      }
      return 0
    } catch let error as UsageError {
      let helpPath = ([rootName] + (error.commandPath ?? path)).joined(separator: " ")
      console.error(error.message)
      console.stderr.write("See '\(helpPath) --help'.\n")
      return 2
    } catch let exit as ExitCode {
      return exit.rawValue
    } catch {
      console.error(message(for: error))
      return 1
    }
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
