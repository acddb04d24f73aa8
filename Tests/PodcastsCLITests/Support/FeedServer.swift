import Foundation
import TestProcesses
import Testing

/// A small HTTP server on 127.0.0.1, on a free port it picks, serving the files of one folder
/// at `/<name>`, and at `/private/<name>` only to a client that sends Basic credentials.
///
/// It stops when ``stop()`` closes its standard input, and in any case after a minute, so a
/// crashed test run cannot leave it behind.
final class FeedServer: Sendable {
  static let user = "listener"
  static let password = "s3cr3tpass"

  let port: Int
  private let process: ChildProcess

  private init(port: Int, process: ChildProcess) {
    self.port = port
    self.process = process
  }

  static func start(serving folder: URL) throws -> FeedServer {
    let python = try #require(BuiltProducts.installedTool("python3"), "python3 is needed")
    let (process, port) = try ChildProcess.server(
      "the feed server", python.path, ["-c", script, folder.path, user, password])
    return FeedServer(port: port, process: process)
  }

  func stop() {
    process.stop()
  }

  /// `http://127.0.0.1:<port>/<name>`.
  func url(_ name: String) -> String {
    "http://127.0.0.1:\(port)/\(name)"
  }

  /// The URL of a file behind Basic authentication, with the credentials in it.
  func privateURL(_ name: String, password: String = FeedServer.password) -> String {
    "http://\(Self.user):\(password)@127.0.0.1:\(port)/private/\(name)"
  }

  private static let script = #"""
    import base64, http.server, os, sys, threading

    folder, user, password = sys.argv[1:4]
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            name = self.path.split("?")[0].lstrip("/")
            if name.startswith("private/"):
                if self.headers.get("Authorization") != expected:
                    self.answer(401, b"", [("WWW-Authenticate", 'Basic realm="feeds"')])
                    return
                name = name[len("private/"):]
            try:
                with open(os.path.join(folder, os.path.basename(name)), "rb") as f:
                    body = f.read()
            except OSError:
                self.answer(404, b"not found")
                return
            self.answer(200, body, [("Content-Type", "application/rss+xml")])

        def answer(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    waiting = threading.Thread(target=sys.stdin.read, daemon=True)
    waiting.start()
    waiting.join(60)
    """#
}
