import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// libxml2 and libcurl are opened the first time something is parsed or fetched, not when
/// the program starts: a command that does neither loads neither (nor ICU, TLS and the rest
/// they bring), and a machine without one of them can still run every command that does not
/// need it.
@Suite("Libraries opened when first needed")
struct LibraryLoadingTests {
  /// What the dynamic loader would load to start the program, as it lists it itself.
  @Test func startingLoadsNeitherLibxml2NorLibcurl() throws {
    let run = try BuiltProducts.run(["--help"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    #expect(run.status == 0, "\(run.stderr)")
    let libraries = run.stdout.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(libraries.contains { $0.hasPrefix("libsqlite3.so") }, "\(run.stdout)")
    for name in ["libxml2", "libicu", "libcurl", "libssl", "libgnutls"] {
      #expect(!libraries.contains { $0.hasPrefix(name) }, "\(name): \(run.stdout)")
    }
  }

  /// A folder whose files carry the libraries' names but are no libraries, for
  /// `LD_LIBRARY_PATH`: the loader finds them first and cannot open them.
  private static func brokenLibraries(_ names: [String], in folder: HardeningFolder) throws
    -> [String: String]
  {
    for name in names {
      try Data("not a library\n".utf8).write(to: folder.url.appendingPathComponent(name))
    }
    return ["LD_LIBRARY_PATH": folder.url.path]
  }

  /// Without libxml2, parsing a feed or reading an OPML file fails in one line that says
  /// why; the catalog's commands work.
  @Test func withoutLibxml2OnlyParsingFails() async throws {
    let folder = try HardeningFolder()
    let environment = try Self.brokenLibraries(["libxml2.so.2"], in: folder)
    let catalog = folder.path("catalog.sqlite3")
    let added = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", FeedFiles.tidepool], output: folder.url)
    try #require(added.status == 0, "\(added.stderr)")

    let opml = folder.path("list.opml")
    try Data(
      #"<opml version="2.0"><body><outline type="rss" xmlUrl="https://example.com/feed.xml"/></body></opml>"#
        .utf8
    ).write(to: URL(fileURLWithPath: opml))
    for command in [
      ["parse", FeedFiles.tidepool], ["add", FeedFiles.switchyard], ["import", opml],
    ] {
      let run = try await HardeningProcess.runPodcasts(
        ["--db", catalog] + command, environment: environment, output: folder.url)
      #expect(run.status == 1, "\(command)")
      #expect(run.stderrLines.count == 1, "\(command): \(run.stderr)")
      #expect(run.stderr.hasPrefix("podcasts: "), "\(command): \(run.stderr)")
      #expect(
        run.stderr.contains("cannot load libxml2: ")
          && run.stderr.contains(folder.url.appendingPathComponent("libxml2.so.2").path),
        "\(command): \(run.stderr)")
      #expect(run.stdout.isEmpty, "\(command): \(run.stdout)")
    }
    for command in [
      ["list", "--json"], ["episodes", IDs.tidepool, "--json"], ["search", "tidepool"],
    ] {
      let run = try await HardeningProcess.runPodcasts(
        ["--db", catalog] + command, environment: environment, output: folder.url)
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(command): \(run.stderr)")
    }
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    #expect(inspection.podcasts.map(\.id) == [IDs.tidepool], "\(inspection)")
  }

  /// Without libcurl, a URL fails in one line that says why, before any request is made;
  /// a feed read from a file is added as before.
  @Test func withoutLibcurlAURLFailsAndAFileIsStillAdded() async throws {
    let server = try HostileServer.start()
    defer { server.stop() }
    let folder = try HardeningFolder()
    let environment = try Self.brokenLibraries(
      ["libcurl.so.4", "libcurl-gnutls.so.4"], in: folder)
    let catalog = folder.path("catalog.sqlite3")
    let url = server.url("/hold/feed?id=without-libcurl")

    let fetched = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", url], environment: environment, output: folder.url)
    #expect(fetched.status == 1)
    #expect(fetched.stderrLines.count == 1, "\(fetched.stderr)")
    #expect(
      fetched.stderr.hasPrefix("podcasts: \(url): network error: cannot load libcurl: "),
      "\(fetched.stderr)")
    #expect(fetched.stderr.contains("libcurl.so.4"), "\(fetched.stderr)")
    #expect(fetched.stdout.isEmpty)
    let arrived = try await URLSession.shared.data(
      from: try #require(URL(string: server.url("/arrived?id=without-libcurl"))))
    #expect(String(decoding: arrived.0, as: UTF8.self) == "no")

    let read = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", FeedFiles.tidepool], environment: environment,
      output: folder.url)
    #expect(read.status == 0, "\(read.stderr)")
    let inspection = try CatalogInspection.inspect(catalog)
    #expect(inspection.isConsistent)
    #expect(inspection.podcasts.map(\.episodes) == [4], "\(inspection)")
  }
}
