import Foundation

/// What to fetch, with the validators stored from the previous fetch.
public struct FetchRequest: Sendable, Equatable {
  /// An http, https or file URL. Credentials in it (`user:password@`) are sent as
  /// HTTP Basic authentication, never in the request line.
  public var url: URL
  /// Sent as If-None-Match.
  public var etag: String?
  /// Sent as If-Modified-Since.
  public var lastModified: String?

  public init(url: URL, etag: String? = nil, lastModified: String? = nil) {
    self.url = url
    self.etag = etag
    self.lastModified = lastModified
  }

  /// A request for what a person typed: an http, https or file URL, or a plain path
  /// (absolute, relative to the working directory, or starting with `~`).
  public init(location: String, etag: String? = nil, lastModified: String? = nil)
    throws(FetchError)
  {
    self.init(url: try Self.url(forLocation: location), etag: etag, lastModified: lastModified)
  }

  /// The URL for an http, https or file URL, or a plain path.
  public static func url(forLocation location: String) throws(FetchError) -> URL {
    let text = location.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let scheme = Self.scheme(of: text) else {
      guard !text.isEmpty else { throw FetchError(location: location, reason: .invalidURL) }
      return URL(fileURLWithPath: (text as NSString).expandingTildeInPath)
    }
    guard let url = URL(string: text) else {
      throw FetchError(location: Self.masked(text), reason: .invalidURL)
    }
    switch scheme {
    case "http", "https":
      guard let host = url.host, !host.isEmpty else {
        throw FetchError(url: url, reason: .invalidURL)
      }
      return url
    case "file":
      guard !url.path.isEmpty else { throw FetchError(url: url, reason: .invalidURL) }
      return url
    default:
      throw FetchError(url: url, reason: .unsupportedScheme(scheme))
    }
  }

  /// RFC 3986 scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:`.
  private static func scheme(of text: String) -> String? {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let candidate = text[..<colon]
    guard let first = candidate.unicodeScalars.first, first.isASCIILetter else { return nil }
    let valid = candidate.unicodeScalars.allSatisfy {
      $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
    }
    return valid ? candidate.lowercased() : nil
  }

  /// Best effort masking for text that is not even a URL.
  private static func masked(_ text: String) -> String {
    guard let at = text.lastIndex(of: "@"),
      let schemeEnd = text.range(of: "://"),
      schemeEnd.upperBound < at,
      let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":")
    else { return text }
    return String(text[...colon]) + "***" + String(text[at...])
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// How fetches behave; the defaults suit feeds.
public struct FetchOptions: Sendable, Equatable {
  /// Sent as User-Agent.
  public var userAgent: String
  /// Seconds without any progress (connecting, waiting for the answer, between two
  /// pieces of the body) before the fetch fails. Silence is checked about once a
  /// second, so a fetch may wait up to a second longer.
  public var timeout: Double
  /// Seconds the whole transfer, redirects included, may take.
  public var totalTimeout: Double
  /// Most bytes of (decoded) body accepted; the transfer stops as soon as more arrive.
  public var maxBodySize: Int
  /// Most redirects followed.
  public var maxRedirects: Int
  /// Size of the pieces a file is read in.
  public var fileChunkSize: Int
  /// Body bytes kept in memory while the consumer is slower than the network; beyond
  /// this they wait in an unlinked temporary file.
  var memoryBufferLimit: Int

  /// Options with a User-Agent of `podcasts/<version>`.
  public init(
    version: String,
    timeout: Double = 30,
    totalTimeout: Double = 300,
    maxBodySize: Int = 50 * 1024 * 1024,
    maxRedirects: Int = 10
  ) {
    self.init(
      userAgent: "podcasts/\(version)", timeout: timeout, totalTimeout: totalTimeout,
      maxBodySize: maxBodySize, maxRedirects: maxRedirects)
  }

  public init(
    userAgent: String,
    timeout: Double = 30,
    totalTimeout: Double = 300,
    maxBodySize: Int = 50 * 1024 * 1024,
    maxRedirects: Int = 10
  ) {
    self.userAgent = userAgent
    self.timeout = timeout
    self.totalTimeout = totalTimeout
    self.maxBodySize = maxBodySize
    self.maxRedirects = maxRedirects
    self.fileChunkSize = 256 * 1024
    self.memoryBufferLimit = 4 * 1024 * 1024
  }
}
