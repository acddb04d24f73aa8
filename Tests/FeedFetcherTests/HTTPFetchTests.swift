import Foundation
import Testing

@testable import FeedFetcher

/// Fetches against test_server.py. Every suite nested here shares one server.
@Suite(.localServer)
struct HTTPFetchTests {
  /// Feeds from one server come over one connection, one after the other: the next
  /// fetch skips the handshakes. A server of its own keeps other tests' fetches out.
  @Test func fetchesFromOneServerReuseTheConnection() async throws {
    let server = try TestServer.start()
    defer { server.stop() }
    let fetcher = Fetcher.testing()
    var ports: [String] = []
    for path in ["/connection", "/feed", "/gzip", "/connection", "/connection"] {
      let (_, body) = try await fetcher.fetchData(FetchRequest(url: server.url(path)))
      if path == "/connection" { ports.append(String(decoding: body, as: UTF8.self)) }
    }
    #expect(ports.count == 3)
    #expect(Set(ports).count == 1, "\(ports)")
  }

  @Test func fetchesBodyWithValidatorsAndMetadata() async throws {
    let server = try TestServer.shared
    var heads: [FetchResponse] = []
    var body = Data()
    let response = try await Fetcher.testing().fetch(
      FetchRequest(url: server.url("/feed")),
      onResponse: { heads.append($0) },
      onChunk: { body.append($0) })
    #expect(body == Fixture.feed)
    #expect(response.status == 200)
    #expect(!response.notModified)
    #expect(response.etag == Fixture.etag)
    #expect(response.lastModified == Fixture.lastModified)
    #expect(response.contentType == "application/rss+xml")
    #expect(response.mediaType == "application/rss+xml")
    #expect(response.contentLength == Fixture.feed.count)
    #expect(response.bytesReceived == Fixture.feed.count)
    #expect(response.finalURL == server.url("/feed"))
    #expect(response.redirectCount == 0)
    #expect(!response.movedPermanently)
    #expect(heads.count == 1)
    #expect(heads.first?.bytesReceived == 0)
  }

  @Test(arguments: [
    (Fixture.etag as String?, nil as String?),
    (nil, Fixture.lastModified),
    (Fixture.etag, Fixture.lastModified),
  ])
  func answersNotModifiedToStoredValidators(etag: String?, lastModified: String?) async throws {
    let server = try TestServer.shared
    var chunks = 0
    let response = try await Fetcher.testing().fetch(
      FetchRequest(url: server.url("/feed"), etag: etag, lastModified: lastModified)
    ) { _ in chunks += 1 }
    #expect(response.notModified)
    #expect(response.status == 304)
    #expect(chunks == 0)
    #expect(response.bytesReceived == 0)
    #expect(response.etag == Fixture.etag)
  }

  @Test func staleValidatorsGetTheFullBody() async throws {
    let server = try TestServer.shared
    let (response, body) = try await Fetcher.testing().fetchData(
      FetchRequest(
        url: server.url("/feed"), etag: "\"v0-old\"",
        lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"))
    #expect(response.status == 200)
    #expect(body == Fixture.feed)
  }

  @Test func sendsUserAgentConditionalHeadersAndAcceptEncoding() async throws {
    let server = try TestServer.shared
    let (_, body) = try await Fetcher.testing().fetchData(
      FetchRequest(
        url: server.url("/headers"), etag: "\"e1\"", lastModified: "Sat, 01 Mar 2025 00:00:00 GMT"))
    let lines = String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(lines.first == "GET /headers HTTP/1.1")
    #expect(lines.contains("User-Agent: podcasts/0.1"))
    #expect(lines.contains("If-None-Match: \"e1\""))
    #expect(lines.contains("If-Modified-Since: Sat, 01 Mar 2025 00:00:00 GMT"))
    let acceptEncoding = try #require(lines.first { $0.hasPrefix("Accept-Encoding: ") })
    #expect(acceptEncoding.contains("gzip"))
    #expect(acceptEncoding.contains("deflate"))
    #expect(!lines.contains { $0.hasPrefix("Authorization") })
  }

  /// libcurl decodes Content-Encoding itself: the consumer gets the decoded feed, and
  /// the declared length is the encoded one.
  @Test(arguments: ["/gzip", "/deflate"])
  func decodesCompressedBodies(path: String) async throws {
    let server = try TestServer.shared
    let (response, body) = try await Fetcher.testing().fetchData(
      FetchRequest(url: server.url(path)))
    #expect(body == Fixture.feed)
    #expect(response.bytesReceived == Fixture.feed.count)
    let declared = try #require(response.contentLength)
    #expect(declared < Fixture.feed.count)
  }

  @Test func reportsHTMLContentType() async throws {
    let server = try TestServer.shared
    let (response, body) = try await Fetcher.testing().fetchData(
      FetchRequest(url: server.url("/html")))
    #expect(response.status == 200)
    #expect(response.contentType == "text/html; charset=utf-8")
    #expect(response.mediaType == "text/html")
    #expect(String(decoding: body, as: UTF8.self).contains("<title>Not a feed</title>"))
  }

  @Test(arguments: [
    (404, "Not Found", "no feed at this address"),
    (410, "Gone", "the feed is gone for good"),
    (500, "Internal Server Error", "the server failed"),
    (503, "Service Unavailable", "the server failed"),
    (401, "Unauthorized", "needs credentials"),
    (403, "Forbidden", "forbidden"),
  ])
  func reportsHTTPErrors(status: Int, reason: String, explanation: String) async throws {
    let server = try TestServer.shared
    let url = server.url("/status/\(status)")
    let error = try #require(await Fetcher.testing().failure(url))
    #expect(error.reason == .http(status: status, reason: reason))
    #expect(error.location == url.absoluteString)
    #expect(error.description.hasPrefix("\(url.absoluteString): HTTP \(status) \(reason)"))
    #expect(error.description.contains(explanation))
    #expect(!error.description.contains("\n"))
  }

  @Test func sendsCredentialsFromTheURLAsBasicAuth() async throws {
    let server = try TestServer.shared
    var components = try #require(
      URLComponents(url: server.url("/auth"), resolvingAgainstBaseURL: false))
    components.user = "alice"
    components.password = "s3cret"
    let url = try #require(components.url)
    let (response, body) = try await Fetcher.testing().fetchData(FetchRequest(url: url))
    #expect(response.status == 200)
    #expect(body == Fixture.feed)
  }

  @Test func wrongCredentialsAreNeverShown() async throws {
    let server = try TestServer.shared
    let url = try #require(URL(string: "http://alice:wrong-pass@127.0.0.1:\(server.port)/auth"))
    let error = try #require(await Fetcher.testing().failure(url))
    #expect(error.reason == .http(status: 401, reason: "Unauthorized"))
    #expect(error.location == "http://alice:***@127.0.0.1:\(server.port)/auth")
    #expect(!error.description.contains("wrong-pass"))
    #expect(!"\(error)".contains("wrong-pass"))
  }

  @Test func missingCredentialsAreReported() async throws {
    let server = try TestServer.shared
    let error = try #require(await Fetcher.testing().failure(server.url("/auth")))
    #expect(error.reason == .http(status: 401, reason: "Unauthorized"))
  }

  /// Tests that measure time, and the one that loads the machine most: one at a time,
  /// so that on a small machine the load of one does not upset the clock of another.
  @Suite(.serialized) struct Timing {
    @Test func deliversChunksAsTheyArrive() async throws {
      let server = try TestServer.shared
      // The server sends its second half only once it hears that the first half has been
      // handed over: without streaming the fetch would wait for it in vain.
      let gate = UUID().uuidString
      var body = Data()
      var opener: Task<Void, Never>?
      let response = try await Fetcher.testing { $0.timeout = 20 }.fetch(
        FetchRequest(url: server.url("/gate?id=\(gate)"))
      ) { chunk in
        if opener == nil {
          let open = server.url("/open?id=\(gate)")
          opener = Task {
            _ = try? await Fetcher.testing { _ in }.fetchData(FetchRequest(url: open))
          }
        }
        body.append(chunk)
      }
      await opener?.value
      #expect(response.bytesReceived == 2048)
      #expect(body.first == UInt8(ascii: "a"))
      #expect(body.last == UInt8(ascii: "b"))
    }

    @Test func toleratesPausesShorterThanTheTimeout() async throws {
      let server = try TestServer.shared
      // 10 pieces 0.25 s apart: 2.25 s in all, more than the 2 s idle timeout would
      // allow if it counted the whole transfer instead of silences.
      let response = try await Fetcher.testing { $0.timeout = 2 }.fetch(
        FetchRequest(url: server.url("/trickle?chunks=10&delay=0.25"))
      ) { _ in }
      #expect(response.bytesReceived == 10 * 1024)
    }

    @Test func failsWhenTheServerStaysSilent() async throws {
      let server = try TestServer.shared
      let clock = ContinuousClock()
      let start = clock.now
      // The server would answer after 30 s: ending well before shows the 1 s timeout ended
      // it, with room for a loaded machine.
      let url = server.url("/sleep?seconds=30")
      let error = try #require(await Fetcher.testing { $0.timeout = 1 }.failure(url))
      #expect(error.reason == .timedOut(seconds: 1))
      #expect(error.description == "\(url.absoluteString): timed out: nothing received for 1 s")
      #expect(clock.now - start < .seconds(15))
    }

    @Test func totalTimeoutCapsATricklingTransfer() async throws {
      let server = try TestServer.shared
      let clock = ContinuousClock()
      let start = clock.now
      // 30 s of trickle: ending well before shows the 1.5 s total ended it.
      let url = server.url("/trickle?chunks=300&delay=0.1")
      let error = try #require(
        await Fetcher.testing {
          $0.timeout = 3
          $0.totalTimeout = 1.5
        }.failure(url))
      #expect(error.reason == .tookTooLong(seconds: 1.5))
      #expect(clock.now - start < .seconds(15))
    }

    @Test func streamsA300MBBodyInOrderWithBoundedMemory() async throws {
      let server = try TestServer.shared
      let size = 300 * 1024 * 1024
      let fetcher = Fetcher.testing {
        $0.maxBodySize = size
        $0.memoryBufferLimit = 1024 * 1024
      }
      let url = server.url("/bytes?size=\(size)")
      let channel = BodyChannel(url: url, memoryLimit: 1024 * 1024, readSize: 256 * 1024)
      var offset = 0
      var misplaced = 0
      var pieces = 0
      let response = try await fetcher.fetchHTTP(
        FetchRequest(url: url), through: channel, onResponse: { _ in },
        onChunk: { chunk in
          // The server sends bytes 0...255 over and over: each piece must start where the
          // previous one ended, and end right.
          if chunk.first != UInt8(truncatingIfNeeded: offset)
            || chunk.last != UInt8(truncatingIfNeeded: offset + chunk.count - 1)
          {
            misplaced += 1
          }
          offset += chunk.count
          pieces += 1
          // A consumer slower than the loopback network, now and then.
          if pieces % 64 == 0 { Thread.sleep(forTimeInterval: 0.005) }
        })
      #expect(response.bytesReceived == size)
      #expect(offset == size)
      #expect(misplaced == 0)
      // The consumer fell behind, the backlog went to disk, and never more than the
      // limit plus one piece waited in memory.
      #expect(channel.spilledBytes > 0)
      #expect(channel.peakMemoryBytes <= 1024 * 1024 + 256 * 1024)
    }
  }

  @Test func stopsAnEndlessBodyAtTheSizeCap() async throws {
    let server = try TestServer.shared
    let id = UUID().uuidString
    let cap = 256 * 1024
    var delivered = 0
    await #expect(
      throws: FetchError(
        location: server.url("/endless?id=\(id)").absoluteString, reason: .bodyTooLarge(limit: cap))
    ) {
      try await Fetcher.testing { $0.maxBodySize = cap }.fetch(
        FetchRequest(url: server.url("/endless?id=\(id)"))
      ) { delivered += $0.count }
    }
    #expect(delivered <= cap)
    #expect(try await server.sawClientLeave(id: id))
  }

  @Test func refusesADeclaredLengthOverTheCapBeforeReading() async throws {
    let server = try TestServer.shared
    var delivered = 0
    let url = server.url("/bytes?size=10000000")
    await #expect(
      throws: FetchError(location: url.absoluteString, reason: .bodyTooLarge(limit: 1_000_000))
    ) {
      try await Fetcher.testing { $0.maxBodySize = 1_000_000 }.fetch(FetchRequest(url: url)) {
        delivered += $0.count
      }
    }
    #expect(delivered == 0)
  }

  @Test func capErrorNamesTheLimit() {
    let error = FetchError(
      location: "http://x/feed", reason: .bodyTooLarge(limit: 50 * 1024 * 1024))
    #expect(error.description == "http://x/feed: body larger than the limit of 50 MB")
  }

  @Test func reportsATruncatedBody() async throws {
    let server = try TestServer.shared
    var delivered = 0
    let error = try await #require(throws: FetchError.self) {
      try await Fetcher.testing().fetch(FetchRequest(url: server.url("/truncated"))) {
        delivered += $0.count
      }
    }
    #expect(error.reason == .truncated(received: 100, expected: 1000))
    #expect(error.description.hasSuffix("body truncated: received 100 of 1000 bytes"))
  }

  struct NotAFeed: Error, Equatable {}

  @Test func aConsumerErrorStopsTheTransferAndIsRethrown() async throws {
    let server = try TestServer.shared
    let id = UUID().uuidString
    var calls = 0
    await #expect(throws: NotAFeed()) {
      try await Fetcher.testing().fetch(FetchRequest(url: server.url("/endless?id=\(id)"))) { _ in
        calls += 1
        throw NotAFeed()
      }
    }
    #expect(calls == 1)
    #expect(try await server.sawClientLeave(id: id))
  }

  @Test func aResponseHandlerErrorStopsBeforeTheBody() async throws {
    let server = try TestServer.shared
    var chunks = 0
    await #expect(throws: NotAFeed()) {
      try await Fetcher.testing().fetch(
        FetchRequest(url: server.url("/html")),
        onResponse: { if $0.mediaType == "text/html" { throw NotAFeed() } },
        onChunk: { _ in chunks += 1 })
    }
    #expect(chunks == 0)
  }

  @Test func cancellingTheTaskStopsTheTransfer() async throws {
    let server = try TestServer.shared
    let id = UUID().uuidString
    let url = server.url("/endless?id=\(id)")
    let (bodyStarted, started) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await Fetcher.testing { $0.maxBodySize = .max }.fetch(FetchRequest(url: url)) { _ in
        started.yield()
      }
    }
    // Cancel mid-body, not before the server even saw the request.
    for await _ in bodyStarted { break }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try await server.sawClientLeave(id: id))
  }

  @Test func connectionRefused() async throws {
    // A port that was just bound and released: nothing listens there.
    let port = try freePort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/feed"))
    let error = try #require(await Fetcher.testing().failure(url))
    #expect(error.reason == .connectionRefused)
    #expect(
      error.description
        == "\(url.absoluteString): could not connect to the server (connection refused)")
  }

  @Test func hostNotFound() async throws {
    // .invalid is reserved: it never resolves (RFC 6761).
    let url = try #require(URL(string: "http://no-such-host.invalid/feed.xml"))
    let error = try #require(await Fetcher.testing().failure(url))
    #expect(error.reason == .hostNotFound("no-such-host.invalid"))
    #expect(error.description.contains("host not found"))
  }

  @Test func tlsFailure() async throws {
    // https to a plain-HTTP server: the TLS handshake fails.
    let server = try TestServer.shared
    let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/feed"))
    let error = try #require(await Fetcher.testing().failure(url))
    guard case .tls = error.reason else {
      Issue.record("expected a TLS failure, got \(error)")
      return
    }
    #expect(error.description.contains("TLS"))
  }
}

/// A TCP port on 127.0.0.1 that nothing listens on: bound, then closed.
func freePort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw ServerError(message: "socket failed") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
    }
  }
  guard bound else { throw ServerError(message: "bind failed") }
  return Int(UInt16(bigEndian: address.sin_port))
}
