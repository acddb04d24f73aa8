import Foundation
import TestProcesses

/// nginx run by a test as a child process, serving a temporary folder of files on 127.0.0.1
/// at a free port.
///
/// Everything it writes (configuration, logs, pid file, temporary files) stays in its own
/// temporary folder. It runs in the foreground as one process (`daemon off`,
/// `master_process off`) under a small shell that stops it when `stop()` is called, and
/// also when the test process dies, so no nginx outlives the tests. The access log records,
/// for each request, the validators it carried, the user it authenticated as and how the
/// answer was encoded (`requests()`).
final class NginxServer: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// One request as the access log recorded it; an absent header is an empty string.
  struct Request: Decodable, Sendable, Equatable {
    let method: String
    let uri: String
    let status: Int
    let ifNoneMatch: String
    let ifModifiedSince: String
    let user: String
    /// Content-Encoding of the answer, e.g. `gzip`.
    let encoding: String
  }

  let port: Int
  /// The server's own folder: `nginx.conf`, `access.log`, `error.log` and `root`.
  let directory: URL
  private let shell: ChildProcess

  /// The folder served at `/`, and at `/private/` to the users given to `start`.
  var root: URL { directory.appendingPathComponent("root") }

  private init(port: Int, directory: URL, shell: ChildProcess) {
    self.port = port
    self.directory = directory
    self.shell = shell
  }

  /// The nginx executable: in PATH, else where Debian puts it (outside a user's PATH).
  static var executable: URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin"]
    return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("nginx") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Starts nginx and waits until it accepts connections.
  /// - Parameters:
  ///   - locations: more directives for the server block, e.g.
  ///     `location = /old.xml { return 301 /new.xml; }`.
  ///   - users: names and passwords that Basic authentication lets into `/private/`.
  ///   - http: more directives for the http block, e.g. a `limit_conn_zone`.
  static func start(
    locations: String = "", users: [String: String] = [:], http: String = ""
  ) throws -> NginxServer {
    guard let nginx = executable else {
      throw Failure(description: "nginx is not installed (Debian: apt-get install nginx)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-nginx-" + UUID().uuidString)
    let fileManager = FileManager.default
    try fileManager.createDirectory(
      at: directory.appendingPathComponent("root"), withIntermediateDirectories: true)
    try fileManager.createDirectory(
      at: directory.appendingPathComponent("temp"), withIntermediateDirectories: true)
    try NginxConfiguration.passwordFile(users).write(
      to: directory.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
    // Another process may take the free port between our look and nginx's bind: try again.
    var lastError = ""
    attempts: for _ in 0..<5 {
      let port = try NginxLoopback.freePort()
      try NginxConfiguration.text(
        directory: directory.path, port: port, locations: locations, http: http
      )
      .write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
      let server = try launch(nginx, directory: directory, port: port)
      switch server.waitUntilListening() {
      case .listening:
        return server
      case .failed(let log):
        server.stop(removingFiles: false)
        lastError = log
        if !log.contains("Address already in use") { break attempts }
      }
    }
    try? fileManager.removeItem(at: directory)
    throw Failure(description: "nginx did not start: \(lastError)")
  }

  private static func launch(_ nginx: URL, directory: URL, port: Int) throws -> NginxServer {
    // The shell stops nginx when told to (SIGTERM), and on its own once the test process
    // that started it is gone.
    let script = """
      "$1" -p "$2" -c "$2/nginx.conf" -e "$2/error.log" &
      child=$!
      trap 'kill "$child" 2>/dev/null; wait "$child"; exit 0' TERM
      while kill -0 "$PPID" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
        sleep 0.2 &
        wait $!
      done
      kill "$child" 2>/dev/null
      wait "$child"
      """
    let shell = try ChildProcess.spawn(
      "/bin/sh", ["-c", script, "sh", nginx.path, directory.path])
    return NginxServer(port: port, directory: directory, shell: shell)
  }

  private enum Startup {
    case listening
    case failed(String)
  }

  private func waitUntilListening() -> Startup {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      if NginxLoopback.accepts(port: port) { return .listening }
      let log = errorLog()
      if log.contains("[emerg]") { return .failed(log) }
      usleep(10_000)
    }
    return .failed("not listening on port \(port) after 5 s. " + errorLog())
  }

  /// Stops nginx and waits for it; removes its folder unless told not to.
  func stop(removingFiles: Bool = true) {
    shell.stop()
    // Should the shell have been killed before its trap ran, nginx would be left alone.
    if let text = try? String(
      contentsOf: directory.appendingPathComponent("nginx.pid"), encoding: .utf8),
      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
      kill(pid, 0) == 0
    {
      kill(pid, SIGKILL)
    }
    if removingFiles { try? FileManager.default.removeItem(at: directory) }
  }

  /// `http://127.0.0.1:<port><path>`, with `user:password@` when given.
  func url(_ path: String, user: String? = nil, password: String? = nil) -> String {
    let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
    return "http://\(credentials)127.0.0.1:\(port)\(path)"
  }

  /// Replaces the users that Basic authentication lets into `/private/`; nginx reads the
  /// file at each request.
  func setUsers(_ users: [String: String]) throws {
    try NginxConfiguration.passwordFile(users).write(
      to: directory.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
  }

  /// Writes a file under `root` and sets its modification date, which nginx sends as
  /// Last-Modified and builds its ETag from (with the size).
  func put(_ path: String, _ contents: String, modified: Date) throws {
    let file = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: file)
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
  }

  /// The requests logged so far, oldest first. nginx logs a request once its answer is
  /// sent, so a client may see the answer an instant before the line is written: this waits
  /// up to 2 s for at least `count` lines.
  func requests(atLeast count: Int = 0) throws -> [Request] {
    let deadline = Date().addingTimeInterval(2)
    while true {
      let text =
        (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8))
        ?? ""
      let lines = text.split(separator: "\n")
      if lines.count >= count || Date() >= deadline {
        let decoder = JSONDecoder()
        return try lines.map { try decoder.decode(Request.self, from: Data($0.utf8)) }
      }
      usleep(10_000)
    }
  }

  func errorLog() -> String {
    (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8))
      ?? ""
  }
}

/// Runs `body` with a started nginx, and stops nginx afterwards whatever happens.
func withNginx<T>(
  locations: String = "", users: [String: String] = [:], http: String = "",
  _ body: (NginxServer) async throws -> T
) async throws -> T {
  let server = try NginxServer.start(locations: locations, users: users, http: http)
  defer { server.stop() }
  return try await body(server)
}
