import Foundation

/// Reads a local file in pieces, with the same contract as an HTTP fetch: a head, then
/// the body; 304 when the file's modification time matches `If-Modified-Since`.
struct FileSource {
  let url: URL
  let options: FetchOptions

  func read(
    ifModifiedSince: String?,
    onResponse: (FetchResponse) throws -> Void,
    onChunk: (Data) throws -> Void
  ) throws -> FetchResponse {
    let path = url.path
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(openErrno: errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw error(.fileNotReadable(describe(errno))) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw error(.isDirectory) }
    let isRegular = (info.st_mode & S_IFMT) == S_IFREG
    if isRegular && Int(info.st_size) > options.maxBodySize {
      throw error(.bodyTooLarge(limit: options.maxBodySize))
    }
    let modified = Self.httpDate(
      Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
    var response = FetchResponse(
      status: ifModifiedSince == modified ? 304 : 200, finalURL: url, lastModified: modified,
      contentLength: isRegular ? Int(info.st_size) : nil)
    try onResponse(response)
    if response.notModified { return response }

    var received = 0
    while true {
      try Task.checkCancellation()
      var chunk = Data(count: options.fileChunkSize)
      let count = chunk.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        var got: Int
        repeat {
          got = Glibc.read(descriptor, base, buffer.count)
        } while got < 0 && errno == EINTR
        return got
      }
      if count < 0 { throw error(.fileNotReadable(describe(errno))) }
      if count == 0 { break }
      received += count
      if received > options.maxBodySize { throw error(.bodyTooLarge(limit: options.maxBodySize)) }
      chunk.count = count
      try onChunk(chunk)
    }
    response.bytesReceived = received
    return response
  }

  private func failure(openErrno code: Int32) -> FetchError {
    switch code {
    case ENOENT, ENOTDIR: return error(.fileNotFound)
    case EISDIR: return error(.isDirectory)
    default: return error(.fileNotReadable(describe(code)))
    }
  }

  private func error(_ reason: FetchError.Reason) -> FetchError {
    FetchError(location: url.path, reason: reason)
  }

  private func describe(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
  }

  /// RFC 9110 IMF-fixdate, the form servers use for Last-Modified.
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
