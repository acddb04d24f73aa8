import Foundation

/// Why a fetch failed, with the address it was fetching.
///
/// The address is stored already masked (`user:***@host`), so no description, log line
/// or error report can leak a password from a feed URL.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    case unsupportedScheme(String)
    case invalidURL
    case hostNotFound(String)
    case connectionRefused
    case tls(String)
    /// Nothing arrived for this many seconds.
    case timedOut(seconds: Double)
    /// The whole transfer took longer than this many seconds.
    case tookTooLong(seconds: Double)
    case http(status: Int, reason: String)
    case bodyTooLarge(limit: Int)
    case tooManyRedirects(limit: Int)
    case redirectLoop(String)
    case redirectWithoutLocation(status: Int)
    /// The body ended early: `expected` is the announced Content-Length when there was one.
    case truncated(received: Int, expected: Int?)
    case fileNotFound
    case fileNotReadable(String)
    case isDirectory
    /// The body could not be set aside on disk while the consumer caught up.
    case bufferFailed(String)
    case network(String)
  }

  /// The address that failed, with any password replaced by `***`.
  public let location: String
  public let reason: Reason

  public init(location: String, reason: Reason) {
    self.location = location
    self.reason = reason
  }

  init(url: URL, reason: Reason) {
    self.init(location: url.maskingPassword, reason: reason)
  }

  public var description: String { "\(location): \(reason)" }
}

extension FetchError.Reason: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unsupportedScheme(let scheme):
      return "unsupported URL scheme '\(scheme)' (use http, https, file or a path)"
    case .invalidURL:
      return "not a valid URL"
    case .hostNotFound(let host):
      return "host not found (DNS lookup of \(host) failed)"
    case .connectionRefused:
      return "could not connect to the server (connection refused)"
    case .tls(let detail):
      return "secure connection (TLS) failed: \(detail)"
    case .timedOut(let seconds):
      return "timed out: nothing received for \(Self.format(seconds)) s"
    case .tookTooLong(let seconds):
      return "timed out: transfer took longer than \(Self.format(seconds)) s"
    case .http(let status, let reason):
      return "HTTP \(status) \(reason)" + Self.explanation(status: status)
    case .bodyTooLarge(let limit):
      return "body larger than the limit of \(Self.formatBytes(limit))"
    case .tooManyRedirects(let limit):
      return "too many redirects (more than \(limit))"
    case .redirectLoop(let target):
      return "redirect loop (redirected back to \(target))"
    case .redirectWithoutLocation(let status):
      return "HTTP \(status) redirect without a usable Location header"
    case .truncated(let received, let expected?):
      return "body truncated: received \(received) of \(expected) bytes"
    case .truncated(let received, nil):
      return "body truncated: connection closed after \(received) bytes"
    case .fileNotFound:
      return "file not found"
    case .fileNotReadable(let detail):
      return "file not readable (\(detail))"
    case .isDirectory:
      return "is a directory, not a feed file"
    case .bufferFailed(let detail):
      return "could not buffer the body on disk (\(detail))"
    case .network(let detail):
      return "network error: \(detail)"
    }
  }

  private static func explanation(status: Int) -> String {
    switch status {
    case 401: return ": the feed needs credentials (user:password@ in the URL)"
    case 403: return ": access to the feed is forbidden"
    case 404: return ": no feed at this address"
    case 410: return ": the feed is gone for good"
    case 500...599: return ": the server failed"
    default: return ""
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }

  private static func formatBytes(_ bytes: Int) -> String {
    let mebibyte = 1024 * 1024
    if bytes >= mebibyte && bytes % mebibyte == 0 { return "\(bytes / mebibyte) MB" }
    if bytes >= 1024 && bytes % 1024 == 0 { return "\(bytes / 1024) KB" }
    return "\(bytes) bytes"
  }
}
