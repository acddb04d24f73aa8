import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// TCP on 127.0.0.1, for starting nginx: a port nobody listens on, and whether one accepts.
enum NginxLoopback {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// A port the system has free right now (bound to port 0, then released).
  static func freePort() throws -> Int {
    let socket = try openSocket()
    defer { close(socket) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      throw Failure(description: "bind: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    guard named == 0 else {
      throw Failure(description: "getsockname: \(String(cString: strerror(errno)))")
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts connections on 127.0.0.1:`port`.
  static func accepts(port: Int) -> Bool {
    guard let socket = try? openSocket() else { return false }
    defer { close(socket) }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return connected == 0
  }

  private static func openSocket() throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else {
      throw Failure(description: "socket: \(String(cString: strerror(errno)))")
    }
    return socket
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}
