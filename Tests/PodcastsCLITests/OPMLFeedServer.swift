import Foundation

/// Python's `http.server` on 127.0.0.1, on a port the system picks, serving copies of the
/// project's sample feeds from a temporary folder; stopped and removed by `stop()`.
///
/// The server exits when its standard input closes: a signal may find it blocked (children
/// inherit the signal mask of the thread that started them), and a test process that
/// crashes still closes the pipe.
final class OPMLFeedServer: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let port: Int
  let folder: URL
  private let process: Process
  private let input: Pipe

  static let sampleFeeds = BuiltProducts.packageRoot.appendingPathComponent("SampleFeeds")

  /// The sample feeds served, by file name.
  static var feedNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: sampleFeeds.path)) ?? [])
      .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".rdf") }.sorted()
  }

  private init(port: Int, folder: URL, process: Process, input: Pipe) {
    self.port = port
    self.folder = folder
    self.process = process
    self.input = input
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // Port 0: the system picks a free one, which the server prints.
    process.arguments = ["python3", "-c", script, folder.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      if more.isEmpty { break }
      line.append(more)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = Int(text) else {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: folder)
      throw Failure(description: "the feed server did not say its port (got \"\(text)\")")
    }
    return OPMLFeedServer(port: port, folder: folder, process: process, input: input)
  }

  func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: folder)
  }
}
