import Foundation

/// Bounds how many fetches run at once, overall and per host.
///
/// Waiters are served in arrival order, except that one waiting for a busy host does
/// not hold up those for other hosts.
public actor FetchLimiter {
  public nonisolated let maxConcurrent: Int
  public nonisolated let maxPerHost: Int

  private struct Waiter {
    let id: Int
    let host: String?
    let continuation: CheckedContinuation<Void, any Error>
  }

  private var active = 0
  private var activeByHost: [String: Int] = [:]
  private var waiters: [Waiter] = []
  private var nextID = 0

  /// - Parameters:
  ///   - maxConcurrent: fetches at once in all (at least 1).
  ///   - maxPerHost: fetches at once to one host (at least 1).
  public init(maxConcurrent: Int = 8, maxPerHost: Int = 2) {
    self.maxConcurrent = max(1, maxConcurrent)
    self.maxPerHost = max(1, maxPerHost)
  }

  /// Runs `operation` once a slot is free for `host` (nil: only the overall limit
  /// applies, as for files). Throws `CancellationError` if the task is cancelled while
  /// it waits.
  public nonisolated func withPermit<T>(
    host: String?, _ operation: () async throws -> T
  ) async throws -> T {
    let key = host?.lowercased()
    try await acquire(host: key)
    do {
      let result = try await operation()
      await release(host: key)
      return result
    } catch {
      await release(host: key)
      throw error
    }
  }

  /// Runs `operation` once a slot is free for the host of `url` (files count only
  /// towards the overall limit).
  public nonisolated func withPermit<T>(
    for url: URL, _ operation: () async throws -> T
  ) async throws -> T {
    let host = url.isFileURL ? nil : url.host
    return try await withPermit(host: host, operation)
  }

  /// Takes a slot for `host`, waiting for one if needed; pair with `release(host:)`.
  public func acquire(host: String?) async throws {
    try Task.checkCancellation()
    // Every waiter that could start was admitted on the last release, so a free slot
    // here takes nothing from anyone waiting.
    if canStart(host: host) {
      start(host: host)
      return
    }
    let id = nextID
    nextID += 1
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiters.append(Waiter(id: id, host: host, continuation: continuation))
      }
    } onCancel: {
      Task { await self.cancelWaiter(id: id) }
    }
  }

  /// Gives back a slot taken for `host`.
  public func release(host: String?) {
    active -= 1
    if let host {
      let remaining = (activeByHost[host] ?? 1) - 1
      activeByHost[host] = remaining > 0 ? remaining : nil
    }
    admitWaiters()
  }

  /// Fetches running now, overall.
  public var activeCount: Int { active }

  /// Fetches running now to `host`.
  public func activeCount(host: String) -> Int { activeByHost[host.lowercased()] ?? 0 }

  private func canStart(host: String?) -> Bool {
    guard active < maxConcurrent else { return false }
    guard let host else { return true }
    return (activeByHost[host] ?? 0) < maxPerHost
  }

  private func start(host: String?) {
    active += 1
    if let host { activeByHost[host, default: 0] += 1 }
  }

  private func admitWaiters() {
    var index = 0
    while index < waiters.count && active < maxConcurrent {
      let waiter = waiters[index]
      if canStart(host: waiter.host) {
        waiters.remove(at: index)
        start(host: waiter.host)
        waiter.continuation.resume()
      } else {
        index += 1
      }
    }
  }

  private func cancelWaiter(id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: CancellationError())
  }
}
