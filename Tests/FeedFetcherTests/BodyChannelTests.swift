import Foundation
import Testing

@testable import FeedFetcher

@Suite struct BodyChannelTests {
  static let url = URL(fileURLWithPath: "/feed.xml")

  /// 8 MB pushed at once through a channel allowed 64 KB of memory: the rest waits on
  /// disk, and everything comes out in order.
  @Test func spillsToDiskBeyondTheMemoryLimitAndKeepsOrder() async throws {
    let channel = BodyChannel(url: Self.url, memoryLimit: 64 * 1024, readSize: 32 * 1024)
    let pieceSize = 16 * 1024
    let pieces = 512
    for index in 0..<pieces {
      try channel.deliver(Data(repeating: UInt8(truncatingIfNeeded: index), count: pieceSize))
    }
    channel.finish()
    #expect(channel.peakMemoryBytes <= 64 * 1024)
    #expect(channel.spilledBytes == pieces * pieceSize - 64 * 1024)

    var body = Data()
    loop: while true {
      switch try await channel.next() {
      case .chunks(let chunks):
        for chunk in chunks { body.append(chunk) }
      case .end: break loop
      case .head: Issue.record("no head was delivered")
      }
    }
    #expect(body.count == pieces * pieceSize)
    for index in [0, 3, 4, 100, 511] {
      #expect(body[index * pieceSize] == UInt8(truncatingIfNeeded: index))
      #expect(body[(index + 1) * pieceSize - 1] == UInt8(truncatingIfNeeded: index))
    }
  }

  /// Producer and consumer at once, the consumer slower: order holds across the
  /// switches between memory and disk.
  @Test func concurrentProducerAndSlowConsumer() async throws {
    let channel = BodyChannel(url: Self.url, memoryLimit: 32 * 1024, readSize: 8 * 1024)
    let total = 2 * 1024 * 1024
    let producer = Thread {
      var sent = 0
      while sent < total {
        let piece = Data((0..<4096).map { UInt8(truncatingIfNeeded: sent + $0) })
        try? channel.deliver(piece)
        sent += piece.count
      }
      channel.finish()
    }
    producer.start()
    var offset = 0
    var misplaced = 0
    loop: while true {
      switch try await channel.next() {
      case .chunks(let chunks):
        for chunk in chunks {
          if chunk.first != UInt8(truncatingIfNeeded: offset)
            || chunk.last != UInt8(truncatingIfNeeded: offset + chunk.count - 1)
          {
            misplaced += 1
          }
          offset += chunk.count
        }
        try await Task.sleep(for: .microseconds(200))
      case .end: break loop
      case .head: Issue.record("no head was delivered")
      }
    }
    #expect(offset == total)
    #expect(misplaced == 0)
    #expect(channel.peakMemoryBytes <= 32 * 1024)
  }

  @Test func headComesFirstThenAnErrorDropsWhatWaits() async throws {
    let channel = BodyChannel(url: Self.url, memoryLimit: 1024, readSize: 1024)
    let head = FetchResponse(status: 200, finalURL: Self.url)
    channel.deliver(head: head)
    try channel.deliver(Data(count: 10))
    guard case .head(let received) = try await channel.next() else {
      Issue.record("expected the head first")
      return
    }
    #expect(received == head)
    let failure = FetchError(url: Self.url, reason: .network("gone"))
    channel.finish(throwing: failure)
    channel.finish()
    await #expect(throws: failure) { try await channel.next() }
  }

  @Test func aWaitingConsumerWakesUp() async throws {
    let channel = BodyChannel(url: Self.url, memoryLimit: 1024, readSize: 1024)
    let consumer = Task { try await channel.next() }
    try await Task.sleep(for: .milliseconds(50))
    try channel.deliver(Data([1, 2, 3]))
    guard case .chunks(let chunks) = try await consumer.value else {
      Issue.record("expected chunks")
      return
    }
    #expect(chunks == [Data([1, 2, 3])])
  }
}
