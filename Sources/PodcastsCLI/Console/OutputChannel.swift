import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One output stream: standard output or error of the process, or a buffer that keeps what
/// was written (for running commands in-process in tests).
///
/// Writes are collected in a buffer and handed to the kernel in large blocks; a write larger
/// than the buffer goes out directly without being copied. Safe to share between tasks: a
/// lock keeps each write whole and in order.
public final class OutputChannel: Sendable {
  private enum Destination {
    case fileDescriptor(Int32)
    case capture
  }

  private struct State {
    var buffer: [UInt8] = []
    /// The first failed write's errno; later writes are dropped.
    var failure: Int32?
  }

  private let destination: Destination
  private let capacity: Int
  private let state: Mutex<State>

  /// A channel writing to `fileDescriptor`, flushing every `bufferSize` bytes (0: at once).
  public init(fileDescriptor: Int32, bufferSize: Int = 64 * 1024) {
    destination = .fileDescriptor(fileDescriptor)
    capacity = bufferSize
    var state = State()
    state.buffer.reserveCapacity(bufferSize)
    self.state = Mutex(state)
  }

  /// A channel that keeps everything written, readable with `capturedBytes`.
  public init(capturing: Void = ()) {
    destination = .capture
    capacity = Int.max
    state = Mutex(State())
  }

  public func write(_ string: String) {
    var string = string
    string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  public func write(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { write($0) }
  }

  public func write(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    state.withLock { state in
      guard state.failure == nil else { return }
      guard case .fileDescriptor(let descriptor) = destination else {
        state.buffer.append(contentsOf: bytes)
        return
      }
      if state.buffer.count + bytes.count <= capacity {
        state.buffer.append(contentsOf: bytes)
        if state.buffer.count == capacity { Self.drain(&state, to: descriptor) }
        return
      }
      Self.drain(&state, to: descriptor)
      if bytes.count < capacity {
        state.buffer.append(contentsOf: bytes)
      } else if state.failure == nil {
        state.failure = Self.writeAll(bytes, to: descriptor)
      }
    }
  }

  /// Hands buffered bytes to the kernel. Does nothing for a capturing channel.
  public func flush() {
    state.withLock { state in
      if case .fileDescriptor(let descriptor) = destination {
        Self.drain(&state, to: descriptor)
      }
    }
  }

  /// Everything written to a capturing channel.
  public var capturedBytes: [UInt8] {
    state.withLock { state in
      if case .capture = destination { return state.buffer }
      return []
    }
  }

  /// Everything written to a capturing channel, decoded as UTF-8.
  public var capturedText: String {
    String(decoding: capturedBytes, as: UTF8.self)
  }

  /// The errno of the first write that failed, if any did.
  public var writeFailure: Int32? {
    state.withLock { $0.failure }
  }

  /// The system's description of `writeFailure`.
  public var writeFailureDescription: String? {
    writeFailure.map { String(cString: strerror($0)) }
  }

  private static func drain(_ state: inout State, to descriptor: Int32) {
    guard !state.buffer.isEmpty else { return }
    if state.failure == nil {
      state.failure = state.buffer.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
    state.buffer.removeAll(keepingCapacity: true)
  }

  /// Writes every byte, retrying after interruptions and short writes; the errno on failure.
  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard var address = bytes.baseAddress else { return nil }
    var left = bytes.count
    while left > 0 {
      let written = systemWrite(descriptor, address, left)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      address += written
      left -= written
    }
    return nil
  }
}

private func systemWrite(_ descriptor: Int32, _ address: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, address, count)
  #elseif canImport(Musl)
    Musl.write(descriptor, address, count)
  #else
    Darwin.write(descriptor, address, count)
  #endif
}
