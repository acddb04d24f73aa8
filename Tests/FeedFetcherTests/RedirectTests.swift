import Foundation
import Testing

@testable import FeedFetcher

extension HTTPFetchTests {
  @Suite struct Redirects {
    struct Case: Sendable, CustomTestStringConvertible {
      let start: String
      let final: String
      let hops: Int
      let permanent: Bool
      var testDescription: String { start }
    }

    static let cases: [Case] = [
      Case(start: "/redirect/301?to=/feed", final: "/feed", hops: 1, permanent: true),
      Case(start: "/redirect/308?to=/feed", final: "/feed", hops: 1, permanent: true),
      Case(start: "/redirect/302?to=/feed", final: "/feed", hops: 1, permanent: false),
      Case(start: "/redirect/303?to=/feed", final: "/feed", hops: 1, permanent: false),
      Case(start: "/redirect/307?to=/feed", final: "/feed", hops: 1, permanent: false),
      // Relative Locations resolve against the redirecting URL, not the root.
      Case(start: "/redirect/301?to=../feed", final: "/feed", hops: 1, permanent: true),
      Case(
        start: "/redirect/301?to=../slash/feed/", final: "/slash/feed/", hops: 1, permanent: true),
      // "feed/" from /slash/start is /slash/feed/, not /feed (which some clients make
      // of it, a loop on real servers).
      Case(start: "/slash/start", final: "/slash/feed/", hops: 1, permanent: false),
      Case(start: "/slash/feed", final: "/slash/feed/", hops: 1, permanent: true),
      // A permanent hop after a temporary one is not a move of the feed.
      Case(
        start: "/redirect/302?to=/redirect/301%3Fto%3D/feed", final: "/feed", hops: 2,
        permanent: false),
      Case(
        start: "/redirect/308?to=/redirect/301%3Fto%3D/feed", final: "/feed", hops: 2,
        permanent: true),
      Case(start: "/chain/10", final: "/chain/0", hops: 10, permanent: false),
    ]

    @Test(arguments: cases)
    func followsRedirects(_ testCase: Case) async throws {
      let server = try TestServer.shared
      let (response, body) = try await Fetcher.testing().fetchData(
        FetchRequest(url: server.url(testCase.start)))
      #expect(response.status == 200)
      #expect(body == Fixture.feed)
      #expect(response.finalURL == server.url(testCase.final))
      #expect(response.redirectCount == testCase.hops)
      #expect(response.movedPermanently == testCase.permanent)
    }

    @Test func absoluteLocationToAnotherHost() async throws {
      let server = try TestServer.shared
      let target = server.url("/feed", host: "localhost")
      let (response, body) = try await Fetcher.testing().fetchData(
        FetchRequest(url: server.url("/redirect/301?to=\(target.absoluteString)")))
      #expect(body == Fixture.feed)
      #expect(response.finalURL == target)
      #expect(response.movedPermanently)
    }

    @Test func loopIsAnError() async throws {
      let server = try TestServer.shared
      let error = try #require(await Fetcher.testing().failure(server.url("/loop/a")))
      #expect(error.reason == .redirectLoop(server.url("/loop/a").absoluteString))
      #expect(error.description.contains("redirect loop"))
    }

    @Test func moreThanTheLimitIsAnError() async throws {
      let server = try TestServer.shared
      let error = try #require(await Fetcher.testing().failure(server.url("/chain/11")))
      #expect(error.reason == .tooManyRedirects(limit: 10))
      #expect(error.description.hasSuffix("too many redirects (more than 10)"))
    }

    @Test func limitIsConfigurable() async throws {
      let server = try TestServer.shared
      let error = try #require(
        await Fetcher.testing { $0.maxRedirects = 2 }.failure(server.url("/chain/3")))
      #expect(error.reason == .tooManyRedirects(limit: 2))
    }

    @Test func redirectToAFileURLIsRefused() async throws {
      let server = try TestServer.shared
      let error = try #require(
        await Fetcher.testing().failure(server.url("/redirect/302?to=file:///etc/passwd")))
      #expect(error.reason == .unsupportedScheme("file"))
    }

    @Test func credentialsFollowWithinTheirOrigin() async throws {
      let server = try TestServer.shared
      let start = try #require(
        URL(string: "http://alice:s3cret@127.0.0.1:\(server.port)/redirect/301?to=/auth"))
      let (response, body) = try await Fetcher.testing().fetchData(FetchRequest(url: start))
      #expect(body == Fixture.feed)
      // The caller can store the new address and still authenticate.
      #expect(
        response.finalURL.absoluteString == "http://alice:s3cret@127.0.0.1:\(server.port)/auth")
      #expect(response.finalURL.maskingPassword == "http://alice:***@127.0.0.1:\(server.port)/auth")
    }

    @Test func credentialsDoNotFollowToAnotherHost() async throws {
      let server = try TestServer.shared
      let target = server.url("/headers", host: "localhost")
      let start = try #require(
        URL(
          string:
            "http://alice:s3cret@127.0.0.1:\(server.port)/redirect/302?to=\(target.absoluteString)")
      )
      let (response, body) = try await Fetcher.testing().fetchData(FetchRequest(url: start))
      let text = String(decoding: body, as: UTF8.self)
      #expect(text.hasPrefix("GET /headers HTTP/1.1"))
      #expect(!text.contains("Authorization"))
      #expect(response.finalURL == target)
    }
  }
}
