import Foundation
import Testing

@testable import FeedFetcher

extension Fetcher {
  /// A fetcher with test options: short timeouts, so a failing test fails quickly.
  static func testing(_ adjust: (inout FetchOptions) -> Void = { _ in }) -> Fetcher {
    var options = FetchOptions(version: "0.1", timeout: 5, totalTimeout: 10)
    adjust(&options)
    return Fetcher(options: options)
  }

  /// The error a fetch failed with; records an issue if it succeeded.
  func failure(
    _ request: FetchRequest, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> FetchError? {
    do {
      let (response, body) = try await fetchData(request)
      Issue.record(
        "expected a failure, got status \(response.status) with \(body.count) bytes",
        sourceLocation: sourceLocation)
      return nil
    } catch let error as FetchError {
      return error
    } catch {
      Issue.record("expected a FetchError, got \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  func failure(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) async -> FetchError? {
    await failure(FetchRequest(url: url), sourceLocation: sourceLocation)
  }
}

/// The feed test_server.py serves.
enum Fixture {
  static let itemCount = 200

  static var feed: Data {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<rss version=\"2.0\"><channel><title>Test feed</title>"
    for i in 0..<itemCount {
      text += "<item><title>Episode \(i)</title><guid>ep-\(i)</guid></item>"
    }
    text += "</channel></rss>\n"
    return Data(text.utf8)
  }

  static let etag = "\"v1-feed\""
  static let lastModified = "Tue, 01 Apr 2025 10:00:00 GMT"

  /// The package root, found from this file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The shared corpus of real feeds beside the package.
  static var corpus: URL {
    packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  }
}
