import Foundation

/// A bounded queue between one thread that produces items and one that consumes them, for
/// the save of a feed: the parser's thread hands over episodes, the writing thread stores
/// them. Either side can stop the other: the consumer by failing (the producer's next
/// ``put(_:)`` throws its error), the producer by closing.
final class HandOff<Item: Sendable>: @unchecked Sendable {
  // Every field is read and written with `condition` locked.
  private let condition = NSCondition()
  private var items: [Item] = []
  private var closed = false
  private var failure: (any Error)?
  private var consumerDone = false
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Adds an item, waiting while the queue is full.
  /// - Throws: the consumer's error once it has failed.
  func put(_ item: Item) throws {
    condition.lock()
    defer { condition.unlock() }
    while items.count >= capacity && failure == nil && !consumerDone {
      condition.wait()
    }
    if let failure { throw failure }
    items.append(item)
    if items.count == 1 { condition.broadcast() }
  }

  /// Takes every item waiting, after waiting for one; an empty array once the queue is closed
  /// and drained.
  func take() -> [Item] {
    condition.lock()
    defer { condition.unlock() }
    while items.isEmpty && !closed {
      condition.wait()
    }
    let taken = items
    items.removeAll(keepingCapacity: true)
    condition.broadcast()
    return taken
  }

  /// The consumer's error: no more items are taken, and the producer learns of it.
  func fail(_ error: any Error) {
    changeAndWake {
      failure = error
      items.removeAll()
    }
  }

  /// No more items will come.
  func close() {
    changeAndWake { closed = true }
  }

  /// Drops the items not taken yet and closes: the consumer stops after its current item.
  func cancel() {
    changeAndWake {
      items.removeAll()
      closed = true
    }
  }

  /// Called by the consumer as its last act.
  func consumerFinished() {
    changeAndWake { consumerDone = true }
  }

  /// Changes the state under the lock and wakes whoever waits on either side.
  private func changeAndWake(_ change: () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    change()
    condition.broadcast()
  }

  /// Waits until the consumer has finished; its error, if it failed.
  func waitForConsumer() -> (any Error)? {
    condition.lock()
    defer { condition.unlock() }
    while !consumerDone {
      condition.wait()
    }
    return failure
  }
}
