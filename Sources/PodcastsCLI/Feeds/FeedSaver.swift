import Catalog
import FeedFetcher
import FeedParser
import Foundation
import Glibc
import PodcastModel

/// Where a fetched feed becomes rows: the body is fetched into an unlinked temporary file
/// with no catalog lock held, then parsed inside one catalog transaction, each episode
/// handed to the catalog as the parser produces it. Memory stays flat for any size of
/// feed, and the write lock is never held across the network.
///
/// `add` fetches and saves in one call; `refresh` fetches many feeds at once and saves each
/// download through one connection as it arrives.
struct FeedSaver: Sendable {
  enum Outcome: Sendable {
    case saved(Saved, feedURL: String)
    /// The server answered 304 Not Modified to the validators given.
    case notModified
  }

  /// A feed body set aside on disk, not parsed yet.
  struct Download: Sendable {
    let body: FileBody
    let response: FetchResponse
    /// The URL asked for.
    let requestURL: URL

    /// Where the feed is to be fetched from now on: the final URL when every redirect was
    /// permanent, else the URL asked for.
    var address: String { FeedLoader.storedAddress(request: requestURL, response: response) }
  }

  enum Fetched: Sendable {
    case download(Download)
    /// 304 Not Modified: no body. The response still tells about permanent redirects.
    case notModified(FetchResponse)
  }

  /// What a save stored, and what the feed announced about its own address.
  struct Saved: Sendable {
    let report: SaveReport
    /// The feed's itunes:new-feed-url / podcast:newFeedUrl, as given.
    let newFeedURL: String?
    /// What the parser repaired or dropped.
    let warnings: [String]

    /// The parser's warnings, then the episodes the catalog could not store because nothing
    /// told them apart (the parser warns of those that share an identity, the catalog
    /// counts those without one).
    var notices: [String] {
      let count = report.episodesWithoutIdentity
      guard count > 0 else { return warnings }
      let episodes = count == 1 ? "1 episode" : "\(count) episodes"
      return warnings + ["\(episodes) with no guid, enclosure, link or title left out"]
    }
  }

  let fetcher: Fetcher

  /// - Parameter timeout: seconds without progress before a fetch fails; a whole transfer
  ///   gets ten times as long, so that a server sending a byte now and then cannot hold a
  ///   fetch for ever (300 s with the default).
  init(timeout: Double = 30, maxBodySize: Int = 50 << 20) {
    fetcher = Fetcher(
      options: FetchOptions(
        version: PodcastsCommand.version, timeout: timeout, totalTimeout: timeout * 10,
        maxBodySize: maxBodySize))
  }

  /// Fetches `location` into a temporary file (a file of the user's is read in place).
  func fetch(_ location: String, validators: HTTPValidators = HTTPValidators()) async throws
    -> Fetched
  {
    let request = try FetchRequest(
      location: location, etag: validators.etag, lastModified: validators.lastModified)
    if request.url.isFileURL {
      let response = FetchResponse(status: 200, finalURL: request.url)
      return .download(
        Download(
          body: try FileBody(path: request.url.path), response: response,
          requestURL: request.url))
    }
    let body = try FileBody.temporary()
    let response = try await fetcher.fetch(request) { chunk in try body.append(chunk) }
    if response.notModified { return .notModified(response) }
    return .download(Download(body: body, response: response, requestURL: request.url))
  }

  /// Parses `download` into the catalog, in one transaction.
  /// - Parameters:
  ///   - storedFeedURL: the feed URL the catalog knows the podcast by, when it is already
  ///     there (a refresh): the podcast keeps its id and its episodes whatever the fetch
  ///     found, and a move is applied afterwards by the caller. Should the podcast be gone
  ///     (unsubscribed meanwhile), nothing is saved: ``CatalogError/notFound(reference:)``.
  func save(
    _ download: Download, into catalog: Catalog, subscribing: Date?,
    storedFeedURL: String? = nil, now: Date
  ) throws -> Saved {
    let address = download.address
    let feedURL = storedFeedURL ?? address
    var newFeedURL: String?
    var warnings: [String] = []
    do {
      let report = try catalog.saveFeed(
        feedURL: feedURL, subscribing: subscribing,
        validators: HTTPValidators(
          etag: download.response.etag, lastModified: download.response.lastModified),
        at: now, storedOnly: storedFeedURL != nil
      ) { writer in
        let parser = FeedParser(
          feedURL: feedURL, baseURL: address, onEpisode: { try writer.add($0) })
        try download.body.read { try parser.feed($0) }
        let podcast = try parser.finish()
        newFeedURL = podcast.newFeedUrl
        warnings = podcast.warnings
        return podcast
      }
      return Saved(report: report, newFeedURL: newFeedURL, warnings: warnings)
    } catch let error as FeedParseError {
      throw Self.naming(error, mediaType: download.response.mediaType)
    }
  }

  /// Fetches `location` and saves it.
  func save(
    _ location: String, into catalog: Catalog, subscribing: Date?,
    validators: HTTPValidators = HTTPValidators(), storedFeedURL: String? = nil, now: Date
  ) async throws -> Outcome {
    switch try await fetch(location, validators: validators) {
    case .notModified:
      return .notModified
    case .download(let download):
      let saved = try save(
        download, into: catalog, subscribing: subscribing, storedFeedURL: storedFeedURL,
        now: now)
      return .saved(saved, feedURL: download.address)
    }
  }

  /// A web page where a feed should be is the commonest wrong address; the server's
  /// Content-Type says so even when the page is too broken for the parser to tell.
  static func naming(_ error: FeedParseError, mediaType: String?) -> FeedParseError {
    guard mediaType == "text/html" || mediaType == "application/xhtml+xml" else { return error }
    switch error {
    case .notAFeed, .malformed:
      return .notAFeed("the server sent a web page (\(mediaType ?? ""))")
    case .empty, .entityExpansion, .parserUnavailable:
      return error
    }
  }
}

/// A feed body on disk: a file of the user's, or a temporary file already unlinked, so that
/// nothing is left behind whatever happens to the process.
final class FileBody: @unchecked Sendable {
  // Used by one task at a time: written while fetching, then read while saving.
  private let descriptor: Int32
  private let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  convenience init(path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileBodyError(path: path, code: errno) }
    self.init(descriptor: descriptor, path: path)
  }

  static func temporary() throws -> FileBody {
    let folder =
      ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((folder + "/podcasts-feed-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw FileBodyError(path: folder, code: errno) }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    unlink(path)
    return FileBody(descriptor: descriptor, path: path)
  }

  func append(_ data: Data) throws {
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw FileBodyError(path: "a temporary file", code: errno)
        }
        offset += written
      }
    }
  }

  /// Reads the whole body from its start, in 256 KiB pieces.
  func read(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw FileBodyError(path: path, code: errno) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw FileBodyError(path: path, code: errno)
      }
      if count == 0 { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }
}

struct FileBodyError: Error, CustomStringConvertible {
  let path: String
  let code: Int32

  var description: String { "\(path): " + String(cString: strerror(code)) }
}
