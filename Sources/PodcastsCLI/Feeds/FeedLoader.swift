import FeedFetcher
import FeedParser
import Foundation
import PodcastModel

/// Where a feed becomes a model: fetches a URL or reads a file and streams the body into
/// the parser as it arrives. `parse`, `add` and `refresh` all load feeds through here.
struct FeedLoader: Sendable {
  /// What a load produced.
  struct Loaded: Sendable {
    var podcast: Podcast
    var response: FetchResponse
    /// The address the podcast is stored under: the final URL after permanent redirects,
    /// else the address asked for.
    var feedURL: String
  }

  let fetcher: Fetcher

  init(timeout: Double = 30, maxBodySize: Int = 50 << 20) {
    fetcher = Fetcher(
      options: FetchOptions(
        version: PodcastsCommand.version, timeout: timeout, maxBodySize: maxBodySize))
  }

  /// Loads `location` (an http, https or file URL, or a path).
  /// - Parameters:
  ///   - fileIsFeedAddress: whether a file's URL is the feed's address (a subscription) or
  ///     only where the bytes are (a file given to `parse`, whose podcast id then comes from
  ///     the document alone). An http URL is always the feed's address.
  ///   - onEpisode: when set, episodes are handed over as they are parsed, not kept.
  /// - Returns: nil when the server answered 304 Not Modified to the validators given.
  func load(
    _ location: String, etag: String? = nil, lastModified: String? = nil,
    fileIsFeedAddress: Bool = true, onEpisode: ((Episode) throws -> Void)? = nil
  ) async throws -> Loaded? {
    var request = try FetchRequest(location: location, etag: etag, lastModified: lastModified)
    let isFile = request.url.isFileURL
    var fetcher = self.fetcher
    if isFile {
      // A file on disk is read in chunks whatever its size; the cap guards the network.
      fetcher.options.maxBodySize = Int.max
      request.lastModified = nil
    }
    var parser: FeedParser?
    let response = try await fetcher.fetch(
      request,
      onResponse: { response in
        guard !response.notModified else { return }
        let address = Self.storedAddress(request: request.url, response: response)
        parser = FeedParser(
          feedURL: !isFile || fileIsFeedAddress ? address : nil,
          baseURL: isFile ? request.url.absoluteString : address, onEpisode: onEpisode)
      },
      onChunk: { chunk in try parser?.feed(chunk) })
    guard let parser, !response.notModified else { return nil }
    let podcast = try parser.finish()
    return Loaded(
      podcast: podcast, response: response,
      feedURL: Self.storedAddress(request: request.url, response: response))
  }

  /// The final URL when every redirect was permanent, else the URL asked for.
  static func storedAddress(request: URL, response: FetchResponse) -> String {
    (response.movedPermanently ? response.finalURL : request).absoluteString
  }
}
