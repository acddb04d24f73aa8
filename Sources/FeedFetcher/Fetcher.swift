import Foundation

/// Fetches feeds over http, https and from files, handing the body over in pieces as
/// it arrives.
public struct Fetcher: Sendable {
  public var options: FetchOptions

  public init(options: FetchOptions) {
    ProxyEnvironment.adoptUpperCaseHTTPProxy()
    self.options = options
  }

  /// Fetches `request.url`.
  ///
  /// `onResponse` is called once with the response head (status 200 or 304, final URL,
  /// validators, Content-Type) before any body; `onChunk` then receives the body in
  /// order, decompressed. A 304 answer has no body: check `notModified`.
  ///
  /// An error thrown by either closure stops the transfer at once and is rethrown as it
  /// is; every other failure is a `FetchError`. Cancelling the calling task stops the
  /// transfer and throws `CancellationError`.
  @discardableResult
  public func fetch(
    _ request: FetchRequest,
    onResponse: (FetchResponse) throws -> Void = { _ in },
    onChunk: (Data) throws -> Void
  ) async throws -> FetchResponse {
    switch request.url.scheme?.lowercased() {
    case "http", "https":
      let channel = BodyChannel(
        url: request.url, memoryLimit: options.memoryBufferLimit, readSize: options.fileChunkSize)
      return try await fetchHTTP(
        request, through: channel, onResponse: onResponse, onChunk: onChunk)
    case "file":
      return try FileSource(url: request.url, options: options).read(
        ifModifiedSince: request.lastModified, onResponse: onResponse, onChunk: onChunk)
    default:
      throw FetchError(url: request.url, reason: .unsupportedScheme(request.url.scheme ?? ""))
    }
  }

  /// Fetches the whole body into memory: for small documents and tests; feeds should
  /// be streamed with `fetch(_:onResponse:onChunk:)`.
  public func fetchData(_ request: FetchRequest) async throws -> (FetchResponse, Data) {
    var body = Data()
    let response = try await fetch(request) { body.append($0) }
    return (response, body)
  }

  func fetchHTTP(
    _ request: FetchRequest,
    through channel: BodyChannel,
    onResponse: (FetchResponse) throws -> Void,
    onChunk: (Data) throws -> Void
  ) async throws -> FetchResponse {
    try Task.checkCancellation()
    let transfer = HTTPTransfer(request: request, options: options, channel: channel)
    transfer.start()
    let totalTimeout = options.totalTimeout
    let deadline = Task {
      guard (try? await Task.sleep(for: .seconds(totalTimeout))) != nil else { return }
      transfer.abort(FetchError(url: request.url, reason: .tookTooLong(seconds: totalTimeout)))
    }
    defer { deadline.cancel() }
    return try await withTaskCancellationHandler {
      do {
        return try await consume(channel, onResponse: onResponse, onChunk: onChunk)
      } catch {
        transfer.abort(error)
        throw error
      }
    } onCancel: {
      transfer.abort(CancellationError())
    }
  }

  private func consume(
    _ channel: BodyChannel,
    onResponse: (FetchResponse) throws -> Void,
    onChunk: (Data) throws -> Void
  ) async throws -> FetchResponse {
    var response: FetchResponse?
    var received = 0
    while true {
      switch try await channel.next() {
      case .head(let head):
        response = head
        try onResponse(head)
      case .chunks(let chunks):
        for chunk in chunks {
          received += chunk.count
          try onChunk(chunk)
        }
      case .end:
        guard var response else { throw CancellationError() }
        response.bytesReceived = received
        return response
      }
    }
  }
}
