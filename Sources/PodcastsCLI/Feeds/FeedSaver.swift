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
struct FeedSaver: Sendable {
  enum Outcome: Sendable {
    case saved(SaveReport, feedURL: String)
    /// The server answered 304 Not Modified to the validators given.
    case notModified
  }

  let fetcher: Fetcher

  init(timeout: Double = 30, maxBodySize: Int = 50 << 20) {
    fetcher = Fetcher(
      options: FetchOptions(
        version: PodcastsCommand.version, timeout: timeout, maxBodySize: maxBodySize))
  }

  /// Fetches `location` and saves it.
  /// - Parameters:
  ///   - storedFeedURL: the feed URL the catalog knows the podcast by, when it is already
  ///     there (a refresh): the podcast keeps its id and its episodes whatever the fetch
  ///     finds, and a permanent move is applied afterwards by the caller.
  func save(
    _ location: String, into catalog: Catalog, subscribing: Date?,
    validators: HTTPValidators = HTTPValidators(), storedFeedURL: String? = nil, now: Date
  ) async throws -> Outcome {
    var request = try FetchRequest(
      location: location, etag: validators.etag, lastModified: validators.lastModified)
    var fetcher = self.fetcher
    let body: FileBody
    let response: FetchResponse
    if request.url.isFileURL {
      // A file is its own buffer: read in place, whatever its size.
      fetcher.options.maxBodySize = Int.max
      request.lastModified = nil
      body = try FileBody(path: request.url.path)
      response = FetchResponse(
        status: 200, finalURL: request.url, redirectCount: 0, movedPermanently: false,
        etag: nil, lastModified: nil, contentType: nil, contentLength: nil, bytesReceived: 0)
    } else {
      body = try FileBody.temporary()
      response = try await fetcher.fetch(request) { chunk in try body.append(chunk) }
      if response.notModified { return .notModified }
    }
    let address = FeedLoader.storedAddress(request: request.url, response: response)
    let feedURL = storedFeedURL ?? address
    let report = try catalog.saveFeed(
      feedURL: feedURL, subscribing: subscribing,
      validators: HTTPValidators(etag: response.etag, lastModified: response.lastModified),
      at: now
    ) { writer in
      let parser = FeedParser(
        feedURL: feedURL, baseURL: address, onEpisode: { try writer.add($0) })
      try body.read { try parser.feed($0) }
      return try parser.finish()
    }
    return .saved(report, feedURL: address)
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
