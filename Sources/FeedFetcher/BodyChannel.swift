import Foundation

/// Carries the response head and then the body, in order, from the transfer's thread
/// to the task that consumes them.
///
/// The connection is never made to wait for the consumer (a server may drop a stalled
/// connection, which would cost the whole download), so when the consumer is slower
/// than the network the bytes must wait somewhere. Up to `memoryLimit` bytes wait in memory; beyond that they go to an
/// unlinked temporary file, so memory stays bounded whatever the size of the body.
final class BodyChannel: @unchecked Sendable {
  enum Event {
    case head(FetchResponse)
    case chunks([Data])
    case end
  }

  private let lock = NSLock()
  private let url: URL
  private let memoryLimit: Int
  private let readSize: Int
  private var pendingHead: FetchResponse?
  private var memory: [Data] = []
  private var memoryBytes = 0
  private var spill: SpillFile?
  private var ending: Result<Void, any Error>?
  private var waiter: CheckedContinuation<Void, Never>?
  private var peakMemory = 0
  private var spilled = 0

  init(url: URL, memoryLimit: Int, readSize: Int) {
    self.url = url
    self.memoryLimit = memoryLimit
    self.readSize = readSize
  }

  /// Most body bytes that waited in memory at once.
  var peakMemoryBytes: Int { lock.withLock { peakMemory } }
  /// Body bytes that waited on disk.
  var spilledBytes: Int { lock.withLock { spilled } }

  // MARK: Producer side (the delegate queue)

  func deliver(head: FetchResponse) {
    wake {
      guard ending == nil else { return }
      pendingHead = head
    }
  }

  /// Queues body bytes; throws when they had to go to disk and could not.
  func deliver(_ data: Data) throws(FetchError) {
    try wake { () throws(FetchError) in
      guard ending == nil, !data.isEmpty else { return }
      let backlogOnDisk = (spill?.unread ?? 0) > 0
      if !backlogOnDisk && (memoryBytes == 0 || memoryBytes + data.count <= memoryLimit) {
        memory.append(data)
        memoryBytes += data.count
        peakMemory = max(peakMemory, memoryBytes)
        return
      }
      do throws(SpillError) {
        if spill == nil { spill = try SpillFile() }
        try spill?.write(data)
      } catch {
        throw FetchError(url: url, reason: .bufferFailed(error.detail))
      }
      spilled += data.count
    }
  }

  /// Ends the stream; the first call wins. After an error, bytes still waiting are
  /// dropped: the consumer learns of the failure at once.
  func finish(throwing error: (any Error)? = nil) {
    wake {
      guard ending == nil else { return }
      if let error {
        ending = .failure(error)
        pendingHead = nil
        memory.removeAll()
        memoryBytes = 0
        spill = nil
      } else {
        ending = .success(())
      }
    }
  }

  /// Runs `body` under the lock, then resumes the consumer if it waits.
  private func wake<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    let result: Result<T, E>
    do throws(E) { result = .success(try body()) } catch { result = .failure(error) }
    let continuation = waiter
    waiter = nil
    lock.unlock()
    continuation?.resume()
    return try result.get()
  }

  // MARK: Consumer side

  /// The next event; throws the error the stream was finished with.
  func next() async throws -> Event {
    while true {
      if let event = try lock.withLock({ try takeLocked() }) { return event }
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        lock.lock()
        if isReadyLocked {
          lock.unlock()
          continuation.resume()
        } else {
          waiter = continuation
          lock.unlock()
        }
      }
    }
  }

  private var isReadyLocked: Bool {
    pendingHead != nil || !memory.isEmpty || (spill?.unread ?? 0) > 0 || ending != nil
  }

  private func takeLocked() throws -> Event? {
    if let head = pendingHead {
      pendingHead = nil
      return .head(head)
    }
    if !memory.isEmpty {
      let chunks = memory
      memory.removeAll(keepingCapacity: true)
      memoryBytes = 0
      return .chunks(chunks)
    }
    if let spill, spill.unread > 0 {
      do throws(SpillError) {
        return .chunks([try spill.read(upTo: readSize)])
      } catch {
        let failure = FetchError(url: url, reason: .bufferFailed(error.detail))
        ending = .failure(failure)
        self.spill = nil
        throw failure
      }
    }
    switch ending {
    case .success?: return .end
    case .failure(let error)?: throw error
    case nil: return nil
    }
  }
}

private struct SpillError: Error {
  let code: Int32
  var detail: String { String(cString: strerror(code)) }
}

/// An unlinked temporary file used as a FIFO of bytes; it vanishes when closed, even if
/// the process dies.
private final class SpillFile {
  private let descriptor: Int32
  private var writeOffset = 0
  private var readOffset = 0

  init() throws(SpillError) {
    let path = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("podcasts-fetch-XXXXXX").path
    var template = Array(path.utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else { throw SpillError(code: errno) }
    template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
    descriptor = fd
  }

  deinit { close(descriptor) }

  var unread: Int { writeOffset - readOffset }

  func write(_ data: Data) throws(SpillError) {
    let failure: Int32? = data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return nil }
      var done = 0
      while done < bytes.count {
        let written = pwrite(
          descriptor, base + done, bytes.count - done, off_t(writeOffset + done))
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        done += written
      }
      return nil
    }
    if let failure { throw SpillError(code: failure) }
    writeOffset += data.count
  }

  func read(upTo limit: Int) throws(SpillError) -> Data {
    let count = min(limit, unread)
    var data = Data(count: count)
    let failure: Int32? = data.withUnsafeMutableBytes { bytes in
      guard let base = bytes.baseAddress else { return nil }
      var done = 0
      while done < count {
        let got = pread(descriptor, base + done, count - done, off_t(readOffset + done))
        if got < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if got == 0 { return EIO }
        done += got
      }
      return nil
    }
    if let failure { throw SpillError(code: failure) }
    readOffset += count
    if readOffset == writeOffset {
      // Drained: start over at the beginning so the file never outgrows the backlog.
      readOffset = 0
      writeOffset = 0
    }
    return data
  }
}
