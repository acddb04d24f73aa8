import FeedFetcher
import Foundation
import TestProcesses
import Testing

/// The Python test server (test_server.py beside this file), on 127.0.0.1 on a port it
/// picks itself. It exits when its standard input closes, so it cannot outlive the
/// test process even if that crashes.
final class TestServer: Sendable {
  let port: Int
  private let process: ChildProcess

  @TaskLocal static var current: TestServer?

  /// The server of the suite being run.
  static var shared: TestServer {
    get throws { try #require(current, "the suite needs the .localServer trait") }
  }

  private init(port: Int, process: ChildProcess) {
    self.port = port
    self.process = process
  }

  static func start() throws -> TestServer {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("test_server.py")
    let (process, port) = try ChildProcess.server("test_server.py", "python3", [script.path])
    return TestServer(port: port, process: process)
  }

  func stop() {
    process.stop()
  }

  func url(_ pathAndQuery: String, host: String = "127.0.0.1") -> URL {
    URL(string: "http://\(host):\(port)\(pathAndQuery)")!
  }

  /// Whether the server saw the client of the stream with this id go away early.
  func sawClientLeave(id: String) async throws -> Bool {
    // The server notices only on its next write: poll a little.
    for _ in 0..<100 {
      let (_, body) = try await Fetcher.testing().fetchData(
        FetchRequest(url: url("/closed?id=\(id)")))
      if body == Data("yes".utf8) { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return false
  }
}

struct ServerError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// Runs a suite with its own test server, stopped when the suite ends.
struct LocalServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: () async throws -> Void
  ) async throws {
    let server = try TestServer.start()
    defer { server.stop() }
    try await TestServer.$current.withValue(server) { try await function() }
  }
}

extension Trait where Self == LocalServerTrait {
  static var localServer: Self { Self() }
}
