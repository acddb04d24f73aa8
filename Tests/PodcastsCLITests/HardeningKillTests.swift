import Foundation
import Testing

/// `podcasts add` and `podcasts refresh` of a 10,000-episode feed, killed with SIGKILL at
/// seeded random moments. Whenever the kill lands (before the catalog exists, while the
/// episodes stream in, during the commit, after it), the catalog must open, pass SQLite's
/// integrity check, and hold the feed whole or not at all: after an add, no podcast or all
/// 10,000 episodes; after a refresh, the old version or the new one, never a mixture. (A
/// debug build takes some 2.5 s over such an add, which leaves kills room to land anywhere.)
///
/// The delays are drawn over 80% of the shortest time the command took here, unkilled.
/// `PODCASTS_KILL_SEED` replays the draws of another run; what each round found is attached
/// (`swift test --attachments-path DIR` keeps it).
@Suite("Killed adds and refreshes")
struct HardeningKillTests {
  static let id = "4b1d0000-0000-4000-8000-00000000c0de"
  static let count = 10_000
  static let added = 1_000
  static let rounds = 20

  static let seed: UInt64 = {
    let text = ProcessInfo.processInfo.environment["PODCASTS_KILL_SEED"] ?? ""
    return UInt64(text) ?? 20_241_129
  }()

  /// What one round found.
  struct Round: CustomStringConvertible {
    let delay: Duration
    let killed: Bool
    let state: String
    var description: String { "\(delay): \(killed ? "killed" : "had ended"), \(state)" }
  }

  @Test func aKilledAddSavesTheFeedWholeOrNotAtAll() async throws {
    let folder = try HardeningFolder()
    let feed = folder.path("large.xml")
    try HardeningFeeds.large(guid: Self.id, count: Self.count, to: feed)

    // An add left alone: how long one takes here, and the state it leaves.
    let reference = try TemporaryCatalog()
    let full = try await HardeningProcess.runPodcasts(
      ["--db", reference.path, "add", feed], output: folder.url)
    var duration = full.duration
    #expect(full.status == 0, "\(full.stderr)")
    let whole = try CatalogInspection.inspect(reference.path)
    #expect(whole.isConsistent)
    #expect(whole.podcast(Self.id)?.episodes == Self.count)

    var random = HardeningRandom(seed: Self.seed)
    var rounds: [Round] = []
    var last: TemporaryCatalog?
    for _ in 0..<Self.rounds {
      let catalog = try TemporaryCatalog()
      let delay = duration * Double.random(in: 0..<0.8, using: &random)
      let child = try HardeningProcess.podcasts(
        ["--db", catalog.path, "add", feed], output: folder.url)
      child.kill(after: delay)
      let ended = try await child.wait()
      // A round that ended by itself measured the command again: the shortest time seen
      // keeps the kills within it when the reference ran on a busier machine.
      if !ended.wasKilled { duration = min(duration, ended.duration) }

      let inspection = try CatalogInspection.inspect(catalog.path)
      let state: String
      switch inspection.podcast(Self.id) {
      case nil:
        state = "nothing saved"
        #expect(inspection.episodes == 0 && inspection.podcasts.isEmpty, "\(inspection)")
      case let podcast?:
        state = "all saved"
        #expect(
          podcast.episodes == Self.count && podcast.subscribed == 1
            && podcast.title == "Large Show", "\(podcast)")
      }
      #expect(inspection.isConsistent, "\(inspection)")
      let round = Round(delay: delay, killed: ended.wasKilled, state: state)
      #expect(ended.wasKilled || ended.status == 0, "\(round): \(ended.stderr)")
      try await expectUsable(catalog, holding: state == "all saved", folder: folder)
      rounds.append(round)
      last = catalog
    }
    // Kills must have landed while the add was at work, or the test shows nothing. The
    // delays spread over 80% of the shortest add, but a round may run faster than it did.
    #expect(rounds.filter(\.killed).count >= Self.rounds / 4, "\(rounds)")
    Attachment.record(rounds.map(\.description).joined(separator: "\n"), named: "rounds.txt")

    // The catalog of the last round takes the whole feed afterwards.
    let catalog = try #require(last)
    let again = try await HardeningProcess.runPodcasts(
      ["--db", catalog.path, "add", feed], output: folder.url)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try CatalogInspection.inspect(catalog.path).podcast(Self.id)?.episodes == Self.count)
  }

  @Test func aKilledRefreshLeavesTheOldVersionOrTheNew() async throws {
    let folder = try HardeningFolder()
    let feed = folder.path("large.xml")
    try HardeningFeeds.large(guid: Self.id, count: Self.count, to: feed)
    let original = try TemporaryCatalog()
    try original.add([feed])
    // The feed changes: every episode retitled, a thousand more.
    try HardeningFeeds.large(
      guid: Self.id, count: Self.count, revised: true, added: Self.added, to: feed)

    let reference = try Self.copy(original)
    let full = try await HardeningProcess.runPodcasts(
      ["--db", reference.path, "refresh"], output: folder.url)
    var duration = full.duration
    #expect(full.status == 0, "\(full.stderr)")
    let refreshed = try CatalogInspection.inspect(reference.path)
    #expect(refreshed.isConsistent)
    #expect(refreshed.podcast(Self.id)?.revised == Self.count + Self.added)

    var random = HardeningRandom(seed: Self.seed &+ 1)
    var rounds: [Round] = []
    for _ in 0..<Self.rounds {
      let catalog = try Self.copy(original)
      let delay = duration * Double.random(in: 0..<0.8, using: &random)
      let child = try HardeningProcess.podcasts(
        ["--db", catalog.path, "refresh"], output: folder.url)
      child.kill(after: delay)
      let ended = try await child.wait()
      // A round that ended by itself measured the command again: the shortest time seen
      // keeps the kills within it when the reference ran on a busier machine.
      if !ended.wasKilled { duration = min(duration, ended.duration) }

      let inspection = try CatalogInspection.inspect(catalog.path)
      let podcast = try #require(inspection.podcast(Self.id), "\(inspection)")
      let state: String
      if podcast.title == "Large Show" {
        state = "old version"
        #expect(podcast.episodes == Self.count && podcast.revised == 0, "\(podcast)")
      } else {
        state = "new version"
        #expect(
          podcast.title == "Large Show, revised" && podcast.episodes == Self.count + Self.added
            && podcast.revised == Self.count + Self.added, "\(podcast)")
      }
      #expect(podcast.subscribed == 1)
      #expect(inspection.isConsistent, "\(inspection)")
      let round = Round(delay: delay, killed: ended.wasKilled, state: state)
      #expect(ended.wasKilled || ended.status == 0, "\(round): \(ended.stderr)")
      try await expectUsable(catalog, holding: true, folder: folder)
      rounds.append(round)
    }
    #expect(rounds.filter(\.killed).count >= Self.rounds / 4, "\(rounds)")
    Attachment.record(rounds.map(\.description).joined(separator: "\n"), named: "rounds.txt")
  }

  /// `podcasts list` works on the catalog and shows the podcast when it was saved.
  private func expectUsable(_ catalog: TemporaryCatalog, holding: Bool, folder: HardeningFolder)
    async throws
  {
    let list = try await HardeningProcess.runPodcasts(
      ["--db", catalog.path, "list", "--json"], output: folder.url)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains(Self.id) == holding, "\(list.stdout)")
  }

  /// A new catalog with the files of `catalog`.
  private static func copy(_ catalog: TemporaryCatalog) throws -> TemporaryCatalog {
    let copy = try TemporaryCatalog()
    for suffix in ["", "-wal", "-shm"]
    where FileManager.default.fileExists(atPath: catalog.path + suffix) {
      try FileManager.default.copyItem(atPath: catalog.path + suffix, toPath: copy.path + suffix)
    }
    return copy
  }
}
