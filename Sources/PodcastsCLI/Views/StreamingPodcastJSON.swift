import FeedViews
import Foundation
import PodcastModel

/// Writes the Podcast object of `parse --json` while the feed is still being parsed: episodes
/// go to a thread of their own, which turns their HTML into text and writes their JSON as
/// the parser produces the next ones. Memory stays flat whatever the size of the feed, and
/// the two halves of the work use both cores.
///
/// The podcast's own keys come after `episodes`: a channel's fields may follow its items, so
/// they are known only at the end. JSON objects have no order; jq and every JSON reader see
/// the same object.
final class StreamingPodcastJSON: @unchecked Sendable {
  // Every mutable field below is guarded by `condition`.
  private let condition = NSCondition()
  private var pending: [Episode] = []
  private var podcast: Podcast?
  private var abandoned = false
  private var finished = false
  private var failure: (any Error)?
  /// Episodes waiting at most: the parser waits when the writer falls behind.
  private static let capacity = 512
  private static let batch = 64

  init(output: OutputChannel) {
    let thread = Thread { [self] in write(to: output) }
    thread.name = "podcasts-json"
    thread.start()
  }

  /// Queues an episode, waiting while the writer is behind.
  func add(_ episode: Episode) {
    condition.lock()
    while pending.count >= Self.capacity && !abandoned { condition.wait() }
    pending.append(episode)
    // The writer is woken for batches, not for every episode: waking a thread costs more
    // than writing one episode.
    if pending.count >= Self.batch { condition.signal() }
    condition.unlock()
  }

  /// Writes the podcast's keys after the last episode and waits until all is written.
  func finish(with podcast: Podcast) throws {
    condition.lock()
    self.podcast = podcast
    condition.broadcast()
    while !finished { condition.wait() }
    let failure = self.failure
    condition.unlock()
    if let failure { throw failure }
  }

  /// Stops the writer without completing the document: the feed could not be read.
  func abandon() {
    condition.lock()
    abandoned = true
    condition.broadcast()
    while !finished { condition.wait() }
    condition.unlock()
  }

  private func write(to output: OutputChannel) {
    var writer = JSONWriter { output.write($0) }
    writer.beginObject()
    writer.key("episodes")
    writer.beginArray()
    var batch: [Episode] = []
    while true {
      condition.lock()
      while pending.count < Self.batch && podcast == nil && !abandoned { condition.wait() }
      swap(&batch, &pending)
      let podcast = self.podcast
      let abandoned = self.abandoned
      condition.broadcast()
      condition.unlock()
      if abandoned { break }
      for episode in batch { writer.episode(episode) }
      batch.removeAll(keepingCapacity: true)
      guard let podcast else { continue }
      condition.lock()
      let more = !pending.isEmpty
      condition.unlock()
      if more { continue }
      writer.endArray()
      writer.podcastMembers(podcast)
      writer.key("warnings")
      writer.strings(podcast.warnings)
      writer.endObject()
      do { try writer.finish() } catch { record(error) }
      break
    }
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  private func record(_ error: any Error) {
    condition.lock()
    failure = error
    condition.unlock()
  }
}
