import Foundation
import Testing

@testable import FeedFetcher

@Suite struct FetchLimiterTests {
  /// Tracks how many operations run at once, overall and per host.
  actor Gauge {
    private var running: [String: Int] = [:]
    private(set) var peakByHost: [String: Int] = [:]
    private(set) var peak = 0
    private var total = 0

    func enter(_ host: String) {
      running[host, default: 0] += 1
      total += 1
      peakByHost[host] = max(peakByHost[host] ?? 0, running[host] ?? 0)
      peak = max(peak, total)
    }

    func leave(_ host: String) {
      running[host, default: 0] -= 1
      total -= 1
    }
  }

  @Test(arguments: [(8, 2), (4, 2), (3, 1)])
  func neverExceedsTheLimits(maxConcurrent: Int, maxPerHost: Int) async throws {
    let limiter = FetchLimiter(maxConcurrent: maxConcurrent, maxPerHost: maxPerHost)
    let gauge = Gauge()
    let hosts = ["a.example", "b.example", "c.example"]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<36 {
        let host = hosts[index % hosts.count]
        group.addTask {
          try await limiter.withPermit(host: host) {
            await gauge.enter(host)
            try await Task.sleep(for: .milliseconds(10))
            await gauge.leave(host)
          }
        }
      }
      try await group.waitForAll()
    }
    let peak = await gauge.peak
    let peakByHost = await gauge.peakByHost
    // The limits hold, and are reached: the limiter does not serialise needlessly.
    #expect(peak == min(maxConcurrent, hosts.count * maxPerHost))
    #expect(peakByHost.values.allSatisfy { $0 <= maxPerHost })
    #expect(peakByHost.values.max() == maxPerHost)
    #expect(await limiter.activeCount == 0)
  }

  @Test func aBusyHostDoesNotHoldUpOthers() async throws {
    let limiter = FetchLimiter(maxConcurrent: 4, maxPerHost: 1)
    try await limiter.acquire(host: "busy.example")
    // Queued behind the busy host...
    let waiting = Task { try await limiter.withPermit(host: "busy.example") { 1 } }
    try await Task.sleep(for: .milliseconds(20))
    // ...while another host goes straight through.
    let other = try await limiter.withPermit(host: "other.example") { 2 }
    #expect(other == 2)
    #expect(await limiter.activeCount(host: "busy.example") == 1)
    await limiter.release(host: "busy.example")
    #expect(try await waiting.value == 1)
    #expect(await limiter.activeCount == 0)
  }

  @Test func hostsAreCaseInsensitiveAndFilesOnlyCountOverall() async throws {
    let limiter = FetchLimiter(maxConcurrent: 3, maxPerHost: 1)
    try await limiter.withPermit(host: "Feeds.Example") {
      #expect(await limiter.activeCount(host: "feeds.example") == 1)
      try await limiter.withPermit(host: nil) {
        try await limiter.withPermit(host: nil) {
          #expect(await limiter.activeCount == 3)
        }
      }
    }
    #expect(await limiter.activeCount == 0)
  }

  @Test func cancellingAWaiterFreesNothingAndThrows() async throws {
    let limiter = FetchLimiter(maxConcurrent: 1, maxPerHost: 1)
    try await limiter.acquire(host: "a.example")
    let waiter = Task { try await limiter.withPermit(host: "b.example") { "ran" } }
    try await Task.sleep(for: .milliseconds(20))
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(await limiter.activeCount == 1)
    await limiter.release(host: "a.example")
    #expect(try await limiter.withPermit(host: "b.example") { "next" } == "next")
    #expect(await limiter.activeCount == 0)
  }

  @Test func urlsAreLimitedByHost() async throws {
    let limiter = FetchLimiter(maxConcurrent: 4, maxPerHost: 2)
    let feed = try #require(URL(string: "https://Feeds.Example.com/a.xml"))
    try await limiter.withPermit(for: feed) {
      #expect(await limiter.activeCount(host: "feeds.example.com") == 1)
      try await limiter.withPermit(for: URL(fileURLWithPath: "/tmp/feed.xml")) {
        #expect(await limiter.activeCount == 2)
        #expect(await limiter.activeCount(host: "feeds.example.com") == 1)
      }
    }
  }

  @Test func errorsReleaseThePermit() async throws {
    struct Boom: Error {}
    let limiter = FetchLimiter(maxConcurrent: 1, maxPerHost: 1)
    await #expect(throws: Boom.self) {
      try await limiter.withPermit(host: "a.example") { throw Boom() }
    }
    #expect(await limiter.activeCount == 0)
    #expect(await limiter.activeCount(host: "a.example") == 0)
  }
}
