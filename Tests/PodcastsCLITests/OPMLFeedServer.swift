import Foundation
import TestProcesses

/// Python's `http.server` on 127.0.0.1, on a port the system picks, serving copies of the
/// project's sample feeds from a temporary folder; stopped and removed by `stop()`.
///
/// The server also exits when its standard input closes, so a test process that crashes
/// does not leave it behind.
final class OPMLFeedServer: Sendable {
  let port: Int
  let folder: URL
  private let process: ChildProcess

  static let sampleFeeds = BuiltProducts.packageRoot.appendingPathComponent("SampleFeeds")

  /// The sample feeds served, by file name.
  static var feedNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: sampleFeeds.path)) ?? [])
      .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".rdf") }.sorted()
  }

  private init(port: Int, folder: URL, process: ChildProcess) {
    self.port = port
    self.folder = folder
    self.process = process
  }

  private static let script = """
    import functools, http.server, sys, threading
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    """

  static func start() throws -> OPMLFeedServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-opml-feeds-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in feedNames {
      try FileManager.default.copyItem(
        at: sampleFeeds.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    // Port 0: the system picks a free one, which the server prints.
    let process: ChildProcess
    let port: Int
    do {
      (process, port) = try ChildProcess.server(
        "the feed server", "python3", ["-c", script, folder.path])
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
    return OPMLFeedServer(port: port, folder: folder, process: process)
  }

  func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

  func stop() {
    process.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}
