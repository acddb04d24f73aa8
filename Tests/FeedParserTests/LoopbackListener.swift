import Foundation
import Glibc
import Synchronization

/// A TCP port on 127.0.0.1 that counts the connections made to it and drops each at once,
/// so that a test can tell whether the code under test tried to fetch a URL there without
/// that code waiting for an answer.
final class LoopbackListener: Sendable {
  struct SocketError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
  }

  let port: UInt16
  private let socket: Int32
  private let connections = Atomic(0)
  private let stopped = Atomic(false)
  private let done = DispatchSemaphore(value: 0)

  init() throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw SocketError(call: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard bound == 0, listen(socket, 8) == 0 else {
      let code = errno
      close(socket)
      throw SocketError(call: "bind/listen", code: code)
    }
    var actual = sockaddr_in()
    var actualLength = length
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(socket, $0, &actualLength)
      }
    }
    guard named == 0 else {
      let code = errno
      close(socket)
      throw SocketError(call: "getsockname", code: code)
    }
    self.socket = socket
    self.port = UInt16(bigEndian: actual.sin_port)
    Thread.detachNewThread { [self] in acceptUntilStopped() }
  }

  /// Stops listening and returns how many connections were made.
  func stop() -> Int {
    stopped.store(true, ordering: .releasing)
    done.wait()
    close(socket)
    return connections.load(ordering: .relaxed)
  }

  private func acceptUntilStopped() {
    var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    // Polling in short steps keeps `stop()` prompt without a second descriptor to wake on.
    while !stopped.load(ordering: .acquiring) {
      guard poll(&waiting, 1, 20) > 0 else { continue }
      let client = accept(socket, nil, nil)
      if client >= 0 {
        close(client)
        connections.add(1, ordering: .relaxed)
      }
    }
    done.signal()
  }
}
