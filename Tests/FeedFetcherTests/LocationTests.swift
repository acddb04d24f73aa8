import Foundation
import Testing

@testable import FeedFetcher

@Suite struct LocationTests {
  @Test(arguments: [
    ("https://feeds.example.com/show.xml", "https://feeds.example.com/show.xml"),
    ("  http://feeds.example.com/show.xml\n", "http://feeds.example.com/show.xml"),
    ("HTTP://feeds.example.com/a", "HTTP://feeds.example.com/a"),
    ("file:///tmp/show.xml", "file:///tmp/show.xml"),
    ("/tmp/show.xml", "file:///tmp/show.xml"),
    ("/tmp/a b.xml", "file:///tmp/a%20b.xml"),
    ("relative/dir:with-colon.xml", nil),
  ])
  func parsesLocations(location: String, expected: String?) throws {
    let url = try FetchRequest.url(forLocation: location)
    if let expected {
      #expect(url.absoluteString == expected)
    } else {
      #expect(url.isFileURL)
      #expect(url.path.hasSuffix("/relative/dir:with-colon.xml"))
    }
  }

  @Test(arguments: [
    ("ftp://example.com/feed.xml", FetchError.Reason.unsupportedScheme("ftp")),
    ("gopher://example.com/", .unsupportedScheme("gopher")),
    ("mailto:someone@example.com", .unsupportedScheme("mailto")),
    ("http://", .invalidURL),
    ("https:///no-host", .invalidURL),
    ("", .invalidURL),
  ])
  func rejectsLocations(location: String, reason: FetchError.Reason) {
    #expect(throws: FetchError.self) { try FetchRequest.url(forLocation: location) }
    do {
      _ = try FetchRequest.url(forLocation: location)
    } catch {
      #expect(error.reason == reason)
    }
  }

  @Test func unsupportedSchemeErrorExplains() async throws {
    let url = try #require(URL(string: "ftp://alice:pw@example.com/feed.xml"))
    let error = try #require(await Fetcher.testing().failure(url))
    #expect(
      error.description
        == "ftp://alice:***@example.com/feed.xml: unsupported URL scheme 'ftp' (use http, https, file or a path)"
    )
  }

  @Test(arguments: [
    ("https://alice:s3cret@example.com/feed", "https://alice:***@example.com/feed"),
    ("https://alice@example.com/feed", "https://alice@example.com/feed"),
    ("https://example.com/feed?token=1", "https://example.com/feed?token=1"),
    ("http://a%40b:p%3Ass@example.com:8080/x", "http://a%40b:***@example.com:8080/x"),
  ])
  func masksPasswords(url: String, masked: String) throws {
    #expect(try #require(URL(string: url)).maskingPassword == masked)
  }

  @Test func invalidURLTextIsMaskedToo() {
    do {
      _ = try FetchRequest.url(forLocation: "http://bob:hunter2@exa mple.com:port/")
      Issue.record("expected an error")
    } catch {
      #expect(!error.description.contains("hunter2"))
      #expect(error.description.contains("bob:***@"))
    }
  }

  @Test func basicAuthorizationUsesDecodedCredentials() throws {
    let url = try #require(URL(string: "https://us%20er:p%40ss@example.com/"))
    #expect(url.basicAuthorization == "Basic " + Data("us er:p@ss".utf8).base64EncodedString())
    #expect(url.removingCredentials.absoluteString == "https://example.com/")
    #expect(try #require(URL(string: "https://example.com/")).basicAuthorization == nil)
  }

  @Test(arguments: [
    ("https://a.example/x", "https://a.example:443/y", true),
    ("http://a.example/x", "http://A.EXAMPLE/y", true),
    ("http://a.example/x", "https://a.example/x", false),
    ("http://a.example/x", "http://b.example/x", false),
    ("http://a.example:8080/x", "http://a.example/x", false),
  ])
  func originComparison(first: String, second: String, same: Bool) throws {
    let a = try #require(URL(string: first))
    let b = try #require(URL(string: second))
    #expect(a.hasSameOrigin(as: b) == same)
  }

  @Test func userAgentNamesTheToolAndVersion() {
    #expect(FetchOptions(version: "0.1").userAgent == "podcasts/0.1")
    #expect(FetchOptions(version: "0.1").timeout == 30)
    #expect(FetchOptions(version: "0.1").maxBodySize == 50 * 1024 * 1024)
    #expect(FetchOptions(version: "0.1").maxRedirects == 10)
  }

  @Test(arguments: [
    ("application/rss+xml; charset=utf-8", "application/rss+xml"),
    ("Text/HTML", "text/html"),
    ("", nil),
  ])
  func mediaType(contentType: String, expected: String?) throws {
    let response = FetchResponse(
      status: 200, finalURL: try #require(URL(string: "http://x/")), contentType: contentType)
    #expect(response.mediaType == expected)
  }
}
