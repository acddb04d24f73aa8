import FeedParser
import Foundation
import Glibc

/// The bytes of an OPML file to import: a path, or standard input for `-`.
enum OPMLInput {
  /// Reads at most one byte more than ``OPMLReader/maxInputSize``, so that a huge file
  /// (or an endless pipe) is refused by the reader without being read whole.
  static func read(_ path: String) throws -> Data {
    let limit = OPMLReader.maxInputSize + 1
    let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(path) }
    defer { if descriptor != 0 { close(descriptor) } }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while data.count < limit {
      let wanted = min(chunk.count, limit - data.count)
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(path)
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[0..<count])
    }
    return data
  }

  private static func failure(_ path: String) -> CommandFailure {
    let name = path == "-" ? "standard input" : path
    return CommandFailure("\(name): " + String(cString: strerror(errno)))
  }
}
