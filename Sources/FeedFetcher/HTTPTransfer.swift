import CCurl
import Foundation

/// One HTTP(S) fetch: drives a libcurl easy handle through redirects on a thread of its
/// own and hands the head and body to a `BodyChannel`.
///
/// Only `ended` is shared (the fetching task calls `abort`); everything else belongs to
/// the transfer's thread, where libcurl also calls the callbacks.
final class HTTPTransfer: @unchecked Sendable {
  private let request: FetchRequest
  private let options: FetchOptions
  private let channel: BodyChannel
  private let lock = NSLock()
  /// The channel was finished: by the transfer, or by `abort`.
  private var ended = false

  /// The address being fetched, with the credentials that go with it.
  private var current: URL
  private var visited: Set<String>
  private var redirectCount = 0
  private var everyRedirectPermanent = true
  private var head: FetchResponse?
  private var encoded = false
  private var received = 0
  /// Why a callback stopped the transfer.
  private var stop: FetchError?
  /// The current response is a redirect: its body is read and dropped.
  private var redirecting = false
  /// Headers of the response being received, names lower-cased.
  private var headerFields: [String: String] = [:]
  private var status = 0
  private var statusReason = ""
  private var started: ContinuousClock.Instant
  private var lastActivity: ContinuousClock.Instant

  init(request: FetchRequest, options: FetchOptions, channel: BodyChannel) {
    self.request = request
    self.options = options
    self.channel = channel
    self.current = request.url
    self.visited = [request.url.removingCredentials.absoluteString]
    started = .now
    lastActivity = started
  }

  /// Starts the transfer on a thread of its own (libcurl's easy interface blocks).
  /// Returns at once.
  func start() {
    Thread.detachNewThread { [self] in
      run()
    }
  }

  /// Stops the transfer and ends the channel with `error`, unless it already ended.
  /// libcurl notices within a second, at its next progress call.
  func abort(_ error: any Error) {
    if endOnce() { channel.finish(throwing: error) }
  }

  /// True for the one caller that ends the transfer.
  private func endOnce() -> Bool {
    lock.withLock {
      guard !ended else { return false }
      ended = true
      return true
    }
  }

  private var aborted: Bool { lock.withLock { ended } }

  private func run() {
    let library: CurlLibrary
    switch CurlLibrary.shared {
    case .success(let loaded): library = loaded
    case .failure(let error):
      return finish(
        FetchError(url: current, reason: .network("cannot load libcurl: \(error.detail)")))
    }
    let origin = request.url.origin
    guard let easy = CurlHandlePool.shared.take(for: origin, library: library) else {
      return finish(FetchError(url: current, reason: .network("cannot start libcurl")))
    }
    configure(easy)
    while !aborted {
      easy.set(CURLOPT_URL, current.removingCredentials.absoluteString)
      easy.setHeaders(requestHeaders(for: current))
      headerFields = [:]
      redirecting = false
      lastActivity = .now
      let code = easy.perform()
      if aborted { return }
      if let stop { return finish(stop) }
      guard code == CURLE_OK else {
        return finish(
          FetchError(url: current, reason: reason(for: code, detail: easy.detail(for: code))))
      }
      guard redirecting else {
        CurlHandlePool.shared.giveBack(easy, origin: origin)
        return finish(completion())
      }
      switch redirectTarget() {
      case .success(let target): current = target
      case .failure(let error): return finish(error)
      }
    }
  }

  private func finish(_ error: FetchError?) {
    if endOnce() { channel.finish(throwing: error) }
  }

  /// How a transfer that libcurl completed ended for the consumer.
  private func completion() -> FetchError? {
    guard let head else { return FetchError(url: current, reason: .network("no response")) }
    if !encoded, let expected = head.contentLength, received < expected {
      return FetchError(url: current, reason: .truncated(received: received, expected: expected))
    }
    return nil
  }

  private func configure(_ easy: CurlEasy) {
    let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    // Several transfers run on threads of their own: no signals for DNS timeouts.
    easy.set(CURLOPT_NOSIGNAL, 1)
    easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
    // Redirects are followed here, to tell permanent from temporary moves and keep
    // credentials to their origin.
    easy.set(CURLOPT_FOLLOWLOCATION, 0)
    // Every encoding libcurl can decode is asked for and decoded.
    easy.set(CURLOPT_ACCEPT_ENCODING, "")
    easy.set(CURLOPT_USERAGENT, options.userAgent)
    easy.set(CURLOPT_BUFFERSIZE, 256 * 1024)
    easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(options.timeout))
    easy.set(
      CURLOPT_HEADERFUNCTION,
      write: { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        return HTTPTransfer.named(by: context).receiveHeader(
          .init(start: buffer, count: size * count))
      })
    easy.set(CURLOPT_HEADERDATA, pointer: context)
    easy.set(
      CURLOPT_WRITEFUNCTION,
      write: { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        return HTTPTransfer.named(by: context).receiveBody(
          .init(start: buffer, count: size * count))
      })
    easy.set(CURLOPT_WRITEDATA, pointer: context)
    easy.set(CURLOPT_NOPROGRESS, 0)
    easy.set(
      CURLOPT_XFERINFOFUNCTION,
      progress: { context, _, _, _, _ in
        guard let context else { return 1 }
        return HTTPTransfer.named(by: context).keepGoing() ? 0 : 1
      })
    easy.set(CURLOPT_XFERINFODATA, pointer: context)
  }

  /// The transfer a callback's context pointer names; `run` keeps it alive meanwhile.
  private static func named(by context: UnsafeMutableRawPointer) -> HTTPTransfer {
    Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
  }

  private func milliseconds(_ seconds: Double) -> Int {
    Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
  }

  private func requestHeaders(for url: URL) -> [String] {
    var lines = [
      "Accept: application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"
    ]
    if let etag = request.etag { lines.append("If-None-Match: \(etag)") }
    if let lastModified = request.lastModified {
      lines.append("If-Modified-Since: \(lastModified)")
    }
    if let authorization = url.basicAuthorization {
      lines.append("Authorization: \(authorization)")
    }
    return lines.filter { !$0.contains("\r") && !$0.contains("\n") }
  }

  // MARK: Callbacks (on the transfer's thread, inside perform)

  /// False stops the transfer: it was aborted, or stayed silent or ran too long.
  private func keepGoing() -> Bool {
    if aborted { return false }
    let now = ContinuousClock.now
    if now - lastActivity > .seconds(options.timeout) {
      stop = FetchError(url: current, reason: .timedOut(seconds: options.timeout))
      return false
    }
    if now - started > .seconds(options.totalTimeout) {
      stop = FetchError(url: current, reason: .tookTooLong(seconds: options.totalTimeout))
      return false
    }
    return true
  }

  private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
    lastActivity = .now
    let text = String(decoding: line, as: UTF8.self)
    if text.hasPrefix("HTTP/") {
      headerFields = [:]
      let parts = text.split(separator: " ", maxSplits: 2)
      status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
      statusReason = parts.count > 2 ? parts[2].trimmingCharacters(in: .whitespacesAndNewlines) : ""
    } else if let colon = text.firstIndex(of: ":") {
      let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
      if headerFields[name] == nil { headerFields[name] = value }
    } else if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      if let reason = endOfHeaders() {
        stop = FetchError(url: current, reason: reason)
        return 0
      }
    }
    return line.count
  }

  /// Decides what the response just received means; a reason stops the transfer.
  private func endOfHeaders() -> FetchError.Reason? {
    switch status {
    case 100...199:
      return nil
    case 200...299, 304:
      let contentEncoding = headerFields["content-encoding"]
      encoded = contentEncoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
      let response = FetchResponse(
        status: status, finalURL: current, redirectCount: redirectCount,
        movedPermanently: redirectCount > 0 && everyRedirectPermanent,
        etag: headerFields["etag"],
        lastModified: headerFields["last-modified"],
        contentType: headerFields["content-type"],
        contentLength: headerFields["content-length"].flatMap { Int($0) })
      if !encoded, let length = response.contentLength, length > options.maxBodySize {
        return .bodyTooLarge(limit: options.maxBodySize)
      }
      head = response
      channel.deliver(head: response)
      return nil
    case 300...399:
      guard headerFields["location"] != nil else { return .redirectWithoutLocation(status: status) }
      redirecting = true
      return nil
    default:
      return .http(status: status, reason: HTTPStatus.reasonPhrase(status) ?? statusReason)
    }
  }

  private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    lastActivity = .now
    if redirecting { return bytes.count }
    guard head != nil, !aborted else { return 0 }
    received += bytes.count
    guard received <= options.maxBodySize else {
      stop = FetchError(url: current, reason: .bodyTooLarge(limit: options.maxBodySize))
      return 0
    }
    do throws(FetchError) {
      try channel.deliver(Data(bytes))
    } catch {
      stop = error
      return 0
    }
    return bytes.count
  }

  // MARK: Outcomes

  /// Where a redirect leads, checked against the limits and loops.
  private func redirectTarget() -> Result<URL, FetchError> {
    guard let location = headerFields["location"],
      let resolved = URL(string: location, relativeTo: current)?.absoluteURL
    else {
      return .failure(FetchError(url: current, reason: .redirectWithoutLocation(status: status)))
    }
    guard let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return .failure(
        FetchError(url: resolved, reason: .unsupportedScheme(resolved.scheme ?? "")))
    }
    redirectCount += 1
    guard redirectCount <= options.maxRedirects else {
      return .failure(
        FetchError(url: current, reason: .tooManyRedirects(limit: options.maxRedirects)))
    }
    let key = resolved.removingCredentials.absoluteString
    guard visited.insert(key).inserted else {
      return .failure(FetchError(url: current, reason: .redirectLoop(resolved.maskingPassword)))
    }
    everyRedirectPermanent = everyRedirectPermanent && (status == 301 || status == 308)
    // Credentials go only where they came from: a Location with its own wins, the
    // request's follow the redirect only within their origin.
    if resolved.user != nil {
      return .success(resolved)
    } else if resolved.hasSameOrigin(as: request.url) {
      return .success(resolved.addingCredentials(of: request.url))
    } else {
      return .success(resolved)
    }
  }

  /// What a libcurl failure means, in the terms of `FetchError`.
  private func reason(for code: CURLcode, detail: String) -> FetchError.Reason {
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      return .hostNotFound(current.host ?? "")
    case CURLE_COULDNT_CONNECT:
      return .connectionRefused
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(seconds: options.timeout)
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
      CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
      CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
      return .tls(detail)
    case CURLE_UNSUPPORTED_PROTOCOL:
      return .unsupportedScheme(current.scheme ?? "")
    case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2_STREAM:
      guard let head else { return .network(detail) }
      return .truncated(received: received, expected: encoded ? nil : head.contentLength)
    default:
      return .network(detail)
    }
  }
}
