import Foundation
import Testing

@testable import FeedFetcher

extension HTTPFetchTests {
  /// libcurl reads the proxy variables for every transfer. These
  /// tests set them for this process while they run, so they run one at a time, and
  /// 127.0.0.1 and .invalid stay direct for the other tests meanwhile.
  @Suite(.serialized) struct Proxy {
    static func withEnvironment<T>(
      _ variables: [String: String], _ body: () async throws -> T
    ) async rethrows -> T {
      let names = variables.keys + ["no_proxy"]
      let saved = names.map { ($0, ProcessInfo.processInfo.environment[$0]) }
      for (name, value) in variables { setenv(name, value, 1) }
      setenv("no_proxy", "127.0.0.1,localhost,invalid", 1)
      defer {
        for (name, value) in saved {
          if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
      }
      return try await body()
    }

    @Test func httpProxyFromTheEnvironmentIsUsed() async throws {
      let server = try TestServer.shared
      let (_, body) = try await Self.withEnvironment([
        "http_proxy": "http://127.0.0.1:\(server.port)"
      ]) {
        try await Fetcher.testing().fetchData(
          FetchRequest(location: "http://feeds.example.test/show.xml"))
      }
      #expect(String(decoding: body, as: UTF8.self) == "proxied http://feeds.example.test/show.xml")
    }

    @Test func upperCaseHTTPSProxyIsUsed() async throws {
      let server = try TestServer.shared
      // The test server refuses CONNECT with 403: reaching it proves the proxy was used
      // (without it, .test does not resolve at all).
      let url = try #require(URL(string: "https://feeds.example.test/show.xml"))
      let failure = await Self.withEnvironment(["HTTPS_PROXY": "http://127.0.0.1:\(server.port)"]) {
        await Fetcher.testing().failure(url)
      }
      let error = try #require(failure)
      #expect(error.reason == .http(status: 403, reason: "Forbidden"))
    }

    @Test func noProxyHostsAreFetchedDirectly() async throws {
      let server = try TestServer.shared
      let (_, body) = try await Self.withEnvironment([
        "http_proxy": "http://127.0.0.1:\(server.port)"
      ]) {
        try await Fetcher.testing().fetchData(FetchRequest(url: server.url("/feed")))
      }
      #expect(body == Fixture.feed)
    }
  }
}

@Suite struct ProxyEnvironmentTests {
  @Test(arguments: [
    (["HTTP_PROXY": "http://p:3128"], ["http_proxy": "http://p:3128"]),
    (["HTTP_PROXY": "http://p:3128", "http_proxy": "http://q:8080"], [:]),
    // In a CGI program HTTP_PROXY may come from a client's Proxy header (httpoxy).
    (["HTTP_PROXY": "http://p:3128", "REQUEST_METHOD": "GET"], [:]),
    (["HTTP_PROXY": ""], [:]),
    (["https_proxy": "http://p:3128"], [:]),
  ])
  func upperCaseHTTPProxyIsHandedToLibcurl(
    environment: [String: String], additions: [String: String]
  ) {
    #expect(ProxyEnvironment.additions(to: environment) == additions)
  }
}
