import Foundation
import Testing

@testable import PodcastsCLI

/// What `refresh` shows, and to whom: the progress line on a terminal only, the podcasts
/// chosen by id, prefix or URL.
@Suite("podcasts refresh output")
struct RefreshOutputTests {
  /// Runs `podcasts <arguments>` in this process with stderr a terminal or not.
  private func run(
    _ arguments: [String], stderrIsTerminal: Bool, columns: Int = 40
  ) async -> (status: Int32, stdout: String, stderr: String) {
    let console = Console.capturing(
      environment: ["COLUMNS": String(columns)], stderrIsTerminal: stderrIsTerminal)
    let status = await CommandRunner.run(
      root: PodcastsCommand.self, arguments: ["podcasts"] + arguments, console: console)
    return (status, console.stdout.capturedText, console.stderr.capturedText)
  }

  private static let erase = "\r\u{1B}[K"

  @Test func progressLineOnATerminalOnly() async throws {
    let locations = """
      location = /b.xml { try_files /b.xml @broken; }
      location @broken { return 500; }
      """
    try await withNginx(locations: locations) { server in
      let sandbox = try RefreshSandbox()
      for name in ["a", "b"] {
        try server.put(
          "\(name).xml",
          FixtureFeed.rss(
            title: "Show \(name.uppercased()) with a rather long title", episodes: 0..<2),
          modified: FixtureFeed.version(1))
      }
      try sandbox.add([server.url("/a.xml"), server.url("/b.xml")])
      let id = try sandbox.podcast(feedURL: server.url("/b.xml")).id
      try FileManager.default.removeItem(at: server.root.appendingPathComponent("b.xml"))
      let failure =
        "podcasts: Show B with a rather long title (\(id.prefix(8))): HTTP 500 Internal Server "
        + "Error: the server failed\n"

      let terminal = await run(["--db", sandbox.database, "refresh"], stderrIsTerminal: true)
      #expect(terminal.status == 1)
      #expect(terminal.stdout == "Refreshed 2 podcasts: no new episodes, 1 failed.\n")
      #expect(terminal.stderr.hasPrefix(Self.erase + "Refreshing 0/2: Show "))
      #expect(terminal.stderr.hasSuffix(Self.erase + failure))
      let lines = terminal.stderr.dropLast(failure.count).components(separatedBy: Self.erase)
        .filter { !$0.isEmpty }
      #expect(lines.last?.hasPrefix("Refreshing 2/2, 1 failed") == true)
      // Cut to the width, so that it never wraps and can be redrawn.
      #expect(lines.allSatisfy { $0.count <= 39 })
      #expect(lines.contains { $0.hasSuffix("…") })

      let piped = await run(["--db", sandbox.database, "refresh"], stderrIsTerminal: false)
      #expect(piped.status == 1)
      #expect(piped.stderr == failure)

      let quiet = await run(["--db", sandbox.database, "-q", "refresh"], stderrIsTerminal: true)
      #expect(quiet.status == 1)
      #expect(quiet.stderr == failure)

      // The built program on a pipe: no trace of a progress line either.
      let process = try sandbox.run(["refresh"])
      #expect(process.status == 1)
      #expect(process.stderr == failure)
    }
  }

  @Test func podcastsChosenByIdPrefixOrURL() async throws {
    try await withNginx { server in
      let sandbox = try RefreshSandbox()
      for name in ["a", "b", "c"] {
        try server.put(
          "\(name).xml", FixtureFeed.rss(title: "Show \(name)", episodes: 0..<1),
          modified: FixtureFeed.version(1))
      }
      try sandbox.add(["a", "b", "c"].map { server.url("/\($0).xml") })
      let a = try sandbox.podcast(feedURL: server.url("/a.xml"))
      let c = try sandbox.podcast(feedURL: server.url("/c.xml"))

      let (run, results) = try sandbox.refresh([server.url("/c.xml"), String(a.id.prefix(8)), a.id])
      #expect(run.status == 0)
      #expect(results.map(\.id) == [c.id, a.id])
      #expect(
        try server.requests(atLeast: 5).dropFirst(3).map(\.uri).sorted() == ["/a.xml", "/c.xml"])

      let unknown = try sandbox.run(["refresh", "ffff0000"])
      #expect(unknown.status == 1)
      #expect(unknown.stderr == "podcasts: no podcast matches 'ffff0000'\n")
      let two = try sandbox.run(["refresh", "ffff0000", "a.xml", String(c.id.prefix(8))])
      #expect(two.status == 1)
      #expect(
        two.stderrLines == [
          "podcasts: no podcast matches 'ffff0000'", "podcasts: no podcast matches 'a.xml'",
        ])
      // Nothing was fetched for a command line with a wrong name in it.
      #expect(try server.requests().count == 5)
    }
  }

  @Test func nothingToRefresh() throws {
    let sandbox = try RefreshSandbox()
    let text = try sandbox.run(["refresh"])
    #expect(text.status == 0)
    #expect(text.stdout == "No podcasts to refresh: subscribe with 'podcasts add <feed>'.\n")
    #expect(text.stderr.isEmpty)
    let json = try sandbox.run(["refresh", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout == "[]\n")
  }

  @Test(arguments: [
    (["refresh", "--max-size", "0"], "invalid value '0' for option '--max-size <size>'"),
    (["refresh", "--max-size", "5X"], "invalid value '5X' for option '--max-size <size>'"),
    (["refresh", "--jobs", "0"], "invalid value '0' for option '--jobs <n>'"),
  ])
  func usageErrors(arguments: [String], message: String) async {
    let result = await runInProcess(arguments)
    #expect(result.status == 2)
    #expect(result.stderrLines.first?.hasPrefix("podcasts: " + message) == true)
  }
}
