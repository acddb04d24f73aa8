import Foundation

/// What the server (or the file system) said about the body.
public struct FetchResponse: Sendable, Equatable {
  /// The HTTP status: 200 for a body, 304 when not modified; 200 or 304 for files.
  public var status: Int
  /// Where the body came from after redirects, with the request's credentials kept
  /// when the last hop stayed on their origin, so it can replace a stored feed URL.
  public var finalURL: URL
  /// Number of redirects followed.
  public var redirectCount: Int
  /// True when there was at least one redirect and every one was permanent
  /// (301, 308): the caller should store `finalURL` as the feed's address.
  public var movedPermanently: Bool
  public var etag: String?
  public var lastModified: String?
  /// The Content-Type header as sent, e.g. `text/html; charset=utf-8`.
  public var contentType: String?
  /// The announced Content-Length (of the encoded body when it was compressed).
  public var contentLength: Int?
  /// Body bytes handed to the consumer, after decompression; 0 in `onResponse`.
  public var bytesReceived: Int

  /// The server confirmed the stored ETag or Last-Modified: there is no body.
  public var notModified: Bool { status == 304 }

  /// The media type without parameters, lower-cased: `text/html` for
  /// `Text/HTML; charset=utf-8`.
  public var mediaType: String? {
    guard let contentType else { return nil }
    let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
    return trimmed.isEmpty ? nil : trimmed
  }

  public init(
    status: Int, finalURL: URL, redirectCount: Int = 0, movedPermanently: Bool = false,
    etag: String? = nil, lastModified: String? = nil, contentType: String? = nil,
    contentLength: Int? = nil, bytesReceived: Int = 0
  ) {
    self.status = status
    self.finalURL = finalURL
    self.redirectCount = redirectCount
    self.movedPermanently = movedPermanently
    self.etag = etag
    self.lastModified = lastModified
    self.contentType = contentType
    self.contentLength = contentLength
    self.bytesReceived = bytesReceived
  }
}
