import Foundation
import Testing

@testable import FeedFetcher

@Suite struct FileFetchTests {
  static let corpusFeeds = [
    "podcasts/rss-parser-giantbomb-podcast.xml",
    "podcasts/radiofeed-rss_mock_iso_8859-1.xml",
    "podcasts/partytime-1865.xml",
  ]

  /// A real feed read from a file URL and from a plain path comes out byte for byte,
  /// in pieces of the configured size.
  @Test(arguments: corpusFeeds)
  func readsAFeedInChunks(relativePath: String) async throws {
    let file = Fixture.corpus.appendingPathComponent(relativePath)
    let expected = try Data(contentsOf: file)
    let fetcher = Fetcher.testing { $0.fileChunkSize = 64 * 1024 }
    for request in [
      FetchRequest(url: file),
      try FetchRequest(location: file.path),
      try FetchRequest(location: file.absoluteString),
    ] {
      var chunks: [Int] = []
      var body = Data()
      let response = try await fetcher.fetch(request) { chunk in
        chunks.append(chunk.count)
        body.append(chunk)
      }
      #expect(body == expected)
      #expect(response.status == 200)
      #expect(response.bytesReceived == expected.count)
      #expect(response.contentLength == expected.count)
      #expect(chunks.count == (expected.count + 64 * 1024 - 1) / (64 * 1024))
      #expect(chunks.dropLast().allSatisfy { $0 == 64 * 1024 })
      #expect(response.lastModified != nil)
    }
  }

  @Test func aRelativePathIsResolvedAgainstTheWorkingDirectory() throws {
    let url = try FetchRequest.url(forLocation: "feeds/show.xml")
    #expect(url.isFileURL)
    #expect(url.path == FileManager.default.currentDirectoryPath + "/feeds/show.xml")
  }

  @Test func unchangedFileIsNotModified() async throws {
    let file = try temporaryFile(contents: Data("<rss/>".utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    let fetcher = Fetcher.testing()
    let first = try await fetcher.fetch(FetchRequest(url: file)) { _ in }
    let stamp = try #require(first.lastModified)
    #expect(stamp.hasSuffix(" GMT"))
    var chunks = 0
    let second = try await fetcher.fetch(FetchRequest(url: file, lastModified: stamp)) { _ in
      chunks += 1
    }
    #expect(second.notModified)
    #expect(chunks == 0)
    let third = try await fetcher.fetch(
      FetchRequest(url: file, lastModified: "Mon, 01 Jan 2001 00:00:00 GMT")
    ) { _ in }
    #expect(third.status == 200)
    #expect(third.bytesReceived == 6)
  }

  @Test func missingFile() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "missing-\(UUID().uuidString).xml"
    ).path
    let error = try #require(await Fetcher.testing().failure(FetchRequest(location: path)))
    #expect(error.reason == .fileNotFound)
    #expect(error.description == "\(path): file not found")
  }

  @Test func missingParentDirectory() async throws {
    let file = try temporaryFile(contents: Data("x".utf8))
    defer { try? FileManager.default.removeItem(at: file) }
    // A path that goes through a regular file as if it were a directory.
    let error = try #require(
      await Fetcher.testing().failure(FetchRequest(location: file.path + "/feed.xml")))
    #expect(error.reason == .fileNotFound)
  }

  @Test func directory() async throws {
    let directory = FileManager.default.temporaryDirectory
    let error = try #require(await Fetcher.testing().failure(FetchRequest(url: directory)))
    #expect(error.reason == .isDirectory)
    #expect(error.description.hasSuffix("is a directory, not a feed file"))
  }

  @Test func fileLargerThanTheCap() async throws {
    let file = try temporaryFile(contents: Data(repeating: 0x41, count: 10_000))
    defer { try? FileManager.default.removeItem(at: file) }
    var delivered = 0
    await #expect(throws: FetchError(location: file.path, reason: .bodyTooLarge(limit: 4096))) {
      try await Fetcher.testing { $0.maxBodySize = 4096 }.fetch(FetchRequest(url: file)) {
        delivered += $0.count
      }
    }
    #expect(delivered == 0)
  }

  /// A device without end: the cap is enforced while reading, not from the size.
  @Test func endlessDeviceStopsAtTheCap() async throws {
    var delivered = 0
    let cap = 1024 * 1024
    await #expect(throws: FetchError(location: "/dev/zero", reason: .bodyTooLarge(limit: cap))) {
      try await Fetcher.testing {
        $0.maxBodySize = cap
        $0.fileChunkSize = 64 * 1024
      }.fetch(FetchRequest(location: "/dev/zero")) { delivered += $0.count }
    }
    #expect(delivered == cap)
  }

  struct Stop: Error, Equatable {}

  @Test func aConsumerErrorStopsReading() async throws {
    var calls = 0
    await #expect(throws: Stop()) {
      try await Fetcher.testing { $0.fileChunkSize = 1024 }.fetch(
        FetchRequest(location: "/dev/zero")
      ) { _ in
        calls += 1
        if calls == 3 { throw Stop() }
      }
    }
    #expect(calls == 3)
  }

  private func temporaryFile(contents: Data) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fetcher-\(UUID().uuidString).xml")
    try contents.write(to: url)
    return url
  }
}
