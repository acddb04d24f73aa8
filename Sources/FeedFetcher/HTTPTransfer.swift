import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP(S) fetch: drives a URLSession data task through redirects and hands the
/// head and body to a `BodyChannel`.
///
/// Every piece of mutable state is guarded by `lock`: URLSession calls the delegate
/// methods on a private serial queue, the fetching task calls `abort`.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let request: FetchRequest
  private let options: FetchOptions
  private let channel: BodyChannel
  private let lock = NSLock()
  /// URLSession's delegate queue: one operation at a time, so body pieces reach the
  /// channel in the order they arrived.
  private let queue: OperationQueue
  private var session: URLSession?
  private var task: URLSessionDataTask?
  /// The address being fetched, with the credentials that go with it.
  private var current: URL
  private var visited: Set<String>
  private var redirectCount = 0
  private var everyRedirectPermanent = true
  private var head: FetchResponse?
  private var encoded = false
  private var received = 0
  private var failure: (any Error)?

  init(request: FetchRequest, options: FetchOptions, channel: BodyChannel) {
    self.request = request
    self.options = options
    self.channel = channel
    self.current = request.url
    self.visited = [request.url.removingCredentials.absoluteString]
    self.queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
  }

  /// Seconds of silence before URLSession gives up; it counts whole seconds only.
  private var idleTimeout: Double { max(1, options.timeout.rounded(.up)) }

  /// Starts the transfer. Returns at once.
  ///
  /// Creating, resuming and cancelling a task wait for the session's work queue, which
  /// needs a thread of the shared dispatch pool, where URLSession, OperationQueue and
  /// Swift's own tasks all run: on a small machine, threads blocked there starve
  /// every other fetch and task (libdispatch on Linux adds threads only about once a
  /// second). Those calls run on a thread of their own instead.
  func start() {
    Thread.detachNewThread { [self] in
      let configuration = URLSessionConfiguration.ephemeral
      // The configuration's timeout is the one URLSession on Linux honours (not always
      // URLRequest's). It does not enforce the resource timeout at all: the fetcher's
      // own deadline does.
      configuration.timeoutIntervalForRequest = idleTimeout
      configuration.timeoutIntervalForResource = options.totalTimeout
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.urlCache = nil
      let session = URLSession(
        configuration: configuration, delegate: self, delegateQueue: queue)
      let task = session.dataTask(with: makeRequest(for: request.url))
      let proceed = lock.withLock {
        guard failure == nil else { return false }
        self.session = session
        self.task = task
        return true
      }
      if proceed {
        task.resume()
      } else {
        session.invalidateAndCancel()
      }
    }
  }

  /// Stops the transfer and ends the channel with `error`, unless it already ended.
  func abort(_ error: any Error) {
    let first = lock.withLock {
      guard failure == nil else { return false }
      failure = error
      return true
    }
    guard first else { return }
    channel.finish(throwing: error)
    // Calling a redirect completion handler after cancel() traps in
    // swift-corelibs-foundation. The redirect delegate method holds the lock while it
    // answers and does not answer once `failure` is set, so any answer was given
    // before this cancel.
    Thread.detachNewThread { [self] in
      lock.withLock { task }?.cancel()
    }
  }

  private func fail(_ reason: FetchError.Reason) {
    abort(FetchError(url: lock.withLock { current }, reason: reason))
  }

  private func makeRequest(for url: URL) -> URLRequest {
    var urlRequest = URLRequest(
      url: url.removingCredentials, cachePolicy: .reloadIgnoringLocalCacheData)
    urlRequest.httpMethod = "GET"
    urlRequest.setValue(options.userAgent, forHTTPHeaderField: "User-Agent")
    urlRequest.setValue(
      "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8",
      forHTTPHeaderField: "Accept")
    if let etag = request.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
    if let lastModified = request.lastModified {
      urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
    }
    if let authorization = url.basicAuthorization {
      urlRequest.setValue(authorization, forHTTPHeaderField: "Authorization")
    }
    return urlRequest
  }

  // MARK: URLSessionDataDelegate

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    lock.lock()
    defer { lock.unlock() }
    // Aborted meanwhile: the cancellation completes the task, and answering now would
    // trap (see abort).
    guard failure == nil else { return }
    switch redirectTarget(for: response) {
    case .success(let target):
      completionHandler(makeRequest(for: target))
    case .failure(let error):
      // Not following makes the redirect the final response; the recorded failure is
      // what the consumer sees.
      failure = error
      channel.finish(throwing: error)
      completionHandler(nil)
    }
  }

  /// Where a redirect leads, resolved here because URLSession on Linux resolves a
  /// relative Location wrongly (it drops the base path and a trailing slash).
  private func redirectTarget(for response: HTTPURLResponse) -> Result<URL, FetchError> {
    let status = response.statusCode
    guard let location = response.value(forHTTPHeaderField: "Location"),
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
      current = resolved
    } else if resolved.hasSameOrigin(as: request.url) {
      current = resolved.addingCredentials(of: request.url)
    } else {
      current = resolved
    }
    return .success(current)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(.allow)
    guard let http = response as? HTTPURLResponse else {
      fail(.network("not an HTTP response"))
      return
    }
    let status = http.statusCode
    let outcome: FetchError.Reason? = lock.withLock {
      guard failure == nil else { return nil }
      switch status {
      case 200...299, 304:
        let contentEncoding = http.value(forHTTPHeaderField: "Content-Encoding")
        encoded = contentEncoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        let response = FetchResponse(
          status: status, finalURL: current, redirectCount: redirectCount,
          movedPermanently: redirectCount > 0 && everyRedirectPermanent,
          etag: http.value(forHTTPHeaderField: "ETag"),
          lastModified: http.value(forHTTPHeaderField: "Last-Modified"),
          contentType: http.value(forHTTPHeaderField: "Content-Type"),
          contentLength: http.value(forHTTPHeaderField: "Content-Length").flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
          })
        if !encoded, let length = response.contentLength, length > options.maxBodySize {
          return .bodyTooLarge(limit: options.maxBodySize)
        }
        head = response
        return nil
      case 300...399:
        return http.value(forHTTPHeaderField: "Location") == nil
          ? .redirectWithoutLocation(status: status)
          : .http(status: status, reason: HTTPURLResponse.localizedString(forStatusCode: status))
      default:
        return .http(status: status, reason: HTTPURLResponse.localizedString(forStatusCode: status))
      }
    }
    if let outcome {
      fail(outcome)
    } else if let head = lock.withLock({ head }) {
      channel.deliver(head: head)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let outcome: FetchError? = lock.withLock {
      guard failure == nil, head != nil else { return nil }
      received += data.count
      guard received <= options.maxBodySize else {
        return FetchError(url: current, reason: .bodyTooLarge(limit: options.maxBodySize))
      }
      do throws(FetchError) {
        try channel.deliver(data)
      } catch {
        return error
      }
      return nil
    }
    if let outcome { abort(outcome) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let outcome: (any Error)? = lock.withLock {
      if let failure { return failure }
      if let error { return FetchError(url: current, reason: reason(for: error)) }
      guard let head else { return FetchError(url: current, reason: .network("no response")) }
      if !encoded, let expected = head.contentLength, received < expected {
        return FetchError(url: current, reason: .truncated(received: received, expected: expected))
      }
      return nil
    }
    channel.finish(throwing: outcome)
    session.finishTasksAndInvalidate()
    lock.withLock {
      self.session = nil
      self.task = nil
    }
  }

  /// What a URLSession error means, in the terms of `FetchError`.
  private func reason(for error: any Error) -> FetchError.Reason {
    let nsError = error as NSError
    let detail = nsError.localizedDescription
    let code = URLError.Code(rawValue: nsError.code)
    switch code {
    case .timedOut:
      return .timedOut(seconds: idleTimeout)
    case .cannotFindHost, .dnsLookupFailed:
      return .hostNotFound(current.host ?? "")
    case .cannotConnectToHost:
      return .connectionRefused
    case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
      .clientCertificateRejected, .clientCertificateRequired:
      return .tls(detail)
    case .unsupportedURL:
      return .unsupportedScheme(current.scheme ?? "")
    default:
      break
    }
    // curl's own wording is all that tells TLS failures and cut-off bodies apart from
    // other failures reported as "unknown".
    let lowered = detail.lowercased()
    if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("certificate") {
      return .tls(detail)
    }
    let cutOff =
      code == .networkConnectionLost || lowered.contains("transfer closed")
      || lowered.contains("connection reset") || lowered.contains("recv failure")
    if head != nil && cutOff {
      return .truncated(received: received, expected: encoded ? nil : head?.contentLength)
    }
    return .network(detail)
  }
}
