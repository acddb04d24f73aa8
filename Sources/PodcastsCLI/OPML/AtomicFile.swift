import Foundation
import Glibc

/// Writes a file whole or not at all: into a temporary file beside it, flushed to disk, then
/// renamed over it. A reader never sees half a file, and a failed write leaves the old one.
enum AtomicFile {
  struct Failure: Error, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "cannot write \(path): " + String(cString: strerror(code)) }
  }

  /// - Parameters:
  ///   - path: the file to replace or create. A symbolic link is followed, so that the link
  ///     stays and the file it names is replaced.
  ///   - privateIfNew: make a new file readable by its owner only (it holds passwords); an
  ///     existing file keeps its permissions either way.
  static func write(_ bytes: [UInt8], to path: String, privateIfNew: Bool) throws {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var status = stat()
    let exists = stat(target, &status) == 0
    if exists && (status.st_mode & S_IFMT) == S_IFDIR { throw Failure(path: path, code: EISDIR) }
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    var template = Array(((folder.isEmpty ? "." : folder) + "/." + name + ".XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { throw Failure(path: path, code: errno) }
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var closed = false
    do {
      defer { if !closed { close(descriptor) } }
      let mode = exists ? status.st_mode & 0o7777 : privateIfNew ? 0o600 : Self.defaultMode()
      guard fchmod(descriptor, mode) == 0 else { throw Failure(path: path, code: errno) }
      try writeAll(bytes, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw Failure(path: path, code: errno) }
      closed = true
      guard close(descriptor) == 0 else { throw Failure(path: path, code: errno) }
      guard rename(temporary, target) == 0 else { throw Failure(path: path, code: errno) }
    } catch {
      unlink(temporary)
      throw error
    }
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
    try bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw Failure(path: path, code: errno)
        }
        offset += written
      }
    }
  }

  /// What `open(path, O_CREAT, 0666)` would give: 0666 less the umask.
  private static func defaultMode() -> mode_t {
    // The umask can only be read by setting it; nothing else creates files meanwhile.
    let mask = umask(0o022)
    umask(mask)
    return 0o666 & ~mask
  }
}
