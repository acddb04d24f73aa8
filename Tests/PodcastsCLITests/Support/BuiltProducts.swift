import Foundation
import TestProcesses

/// Runs executables that `swift build` made, for end-to-end tests.
///
/// The executable is looked up next to this test bundle (the products directory of the build
/// that made the tests), then in `.build/debug` of the package; `PODCASTS_BINARY` overrides
/// both.
enum BuiltProducts {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// What a finished process wrote and returned.
  struct Result: Sendable {
    let status: Int32
    let stdoutBytes: [UInt8]
    let stderrBytes: [UInt8]

    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
  }

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The built executable `name`.
  static func executable(_ name: String = "podcasts") throws -> URL {
    let fileManager = FileManager.default
    if name == "podcasts", let override = ProcessInfo.processInfo.environment["PODCASTS_BINARY"],
      !override.isEmpty
    {
      return URL(fileURLWithPath: override)
    }
    var candidates: [URL] = []
    // The test bundle is an executable in the products directory on Linux; on macOS it is a
    // bundle in it.
    let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    candidates.append(testExecutable.deletingLastPathComponent().appendingPathComponent(name))
    candidates.append(
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
    candidates.append(
      packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name))
    for candidate in candidates where fileManager.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw Failure(
      description: "no built '\(name)' in \(candidates.map(\.path)); run 'swift build' first")
  }

  /// Runs the built `podcasts` with `arguments`, the given environment (nothing inherited but
  /// PATH), and `stdin` as standard input; stdout and stderr go to files, so nothing can
  /// block on a full pipe. The process is killed after `timeout` seconds: a bound for a hang,
  /// not for speed, so it leaves room for a debug build on two busy cores.
  static func run(
    _ arguments: [String], executable name: String = "podcasts",
    environment: [String: String] = [:], stdin: [UInt8] = [], timeout: TimeInterval = 120
  ) throws -> Result {
    try runProcess(
      try executable(name), arguments, environment: environment, stdin: stdin, timeout: timeout)
  }

  /// A program installed on this machine (bash, zsh, groff), found in PATH; nil when absent.
  static func installedTool(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent(name)
    }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Runs any program as `run` runs the built one.
  static func runProcess(
    _ executableURL: URL, _ arguments: [String], environment: [String: String] = [:],
    stdin: [UInt8] = [], timeout: TimeInterval = 120
  ) throws -> Result {
    var fullEnvironment = environment
    if fullEnvironment["PATH"] == nil {
      fullEnvironment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    }
    do {
      let run = try ChildProcess.run(
        executableURL.path, arguments, environment: fullEnvironment, stdin: stdin,
        timeout: timeout)
      return Result(status: run.status, stdoutBytes: run.stdout, stderrBytes: run.stderr)
    } catch let failure as ChildProcess.Failure {
      throw Failure(description: failure.description)
    }
  }
}
