import Foundation
import PodcastModel
import Testing

@testable import Catalog

@Suite struct CatalogQueryTests {
  let folder: TemporaryFolder
  let catalog: Catalog

  static let noAgenda = "917393e3-1b1e-5cef-ace4-edaa54e1f810"
  static let podnews = "9b024349-ccf0-5f69-a609-6b82873eab3c"
  static let other = "917A0000-0000-5000-8000-000000000000"

  init() throws {
    folder = try TemporaryFolder()
    catalog = try openCatalog(folder.path("catalog.sqlite3"))
  }

  /// Three podcasts: "beta" subscribed first with the newest episode, "Alpha" with older
  /// episodes, and one without a title whose episodes have no dates.
  private func subscribeThree() throws {
    try catalog.save(
      makePodcast(id: Self.noAgenda, title: "beta", episodes: [makeEpisode(1), makeEpisode(9)]),
      feedURL: "https://mp3s.nashownotes.com/pc20rss.xml", subscribing: date(1))
    try catalog.save(
      makePodcast(id: Self.podnews, title: "Alpha", episodes: [makeEpisode(2)]),
      feedURL: "https://podnews.net/rss", subscribing: date(3))
    var untitled = makePodcast(id: Self.other, episodes: [Episode(guid: "u", title: "undated")])
    untitled.title = nil
    try catalog.save(untitled, feedURL: "https://other.example/feed", subscribing: date(2))
  }

  @Test(arguments: [
    (SubscriptionOrder.title, [podnews, noAgenda, other]),
    (.subscribed, [noAgenda, other, podnews]),
    (.latestEpisode, [noAgenda, podnews, other]),
  ])
  func listsSubscriptionsInOrder(order: SubscriptionOrder, ids: [String]) throws {
    try subscribeThree()
    let list = try catalog.subscriptions(orderedBy: order)
    #expect(list.map(\.id) == ids)
    let beta = try #require(list.first { $0.id == Self.noAgenda })
    #expect(beta.episodeCount == 2 && beta.latestEpisode == date(9) && beta.subscribed == date(1))
    let untitled = try #require(list.first { $0.id == Self.other })
    #expect(untitled.episodeCount == 1 && untitled.latestEpisode == nil)
  }

  @Test func listsEpisodesNewestFirstUndatedLastThenInFeedOrder() throws {
    let feed = [
      Episode(guid: "e1", published: date(5)), Episode(guid: "e2"),
      Episode(guid: "e3", published: date(7)), Episode(guid: "e4"),
      Episode(guid: "e5", published: date(5)),
    ]
    let report = try catalog.save(
      makePodcast(episodes: feed), feedURL: "https://x/feed", subscribing: epoch)
    let id = report.podcastID
    func page(_ limit: Int?, _ offset: Int) throws -> [String?] {
      try catalog.episodes(ofPodcast: id, limit: limit, offset: offset).map(\.episode.guid)
    }
    #expect(try page(nil, 0) == ["e3", "e1", "e5", "e2", "e4"])
    #expect(try page(2, 1) == ["e1", "e5"])
    #expect(try page(10, 4) == ["e4"])
    #expect(try page(0, 0) == [])
    #expect(try page(3, 99) == [])
    // A newest-first feed gains an undated item at the top: it comes before the older ones.
    try catalog.save(
      makePodcast(episodes: [Episode(guid: "e6")] + feed), feedURL: "https://x/feed",
      subscribing: nil)
    #expect(try page(nil, 0) == ["e3", "e1", "e5", "e6", "e2", "e4"])
    #expect(try catalog.episodes(ofPodcast: "unknown").isEmpty)
    #expect(try catalog.episodes(ofPodcast: id.uppercased()).count == 6)
  }

  @Test(arguments: [
    (noAgenda, noAgenda),
    (noAgenda.uppercased(), noAgenda),
    ("9173", noAgenda),
    ("9173 ", noAgenda),
    ("9B02", podnews),
    ("9b024349-CCF0", podnews),
    ("917a", other),
    ("https://podnews.net/rss", podnews),
    ("http://podnews.net/rss/", podnews),
    ("https://other.example/feed", other),
  ])
  func findsAPodcastByReference(reference: String, id: String) throws {
    try subscribeThree()
    #expect(try catalog.podcast(matching: reference).id == id)
  }

  @Test func anAmbiguousPrefixListsTheCandidates() throws {
    try subscribeThree()
    let expected = CatalogError.ambiguousReference(
      reference: "917",
      candidates: [
        .init(id: Self.noAgenda, title: "beta"),
        .init(id: Self.other, title: nil),
      ])
    #expect(throws: expected) { try catalog.podcast(matching: "917") }
    #expect(throws: CatalogError.self) { try catalog.podcast(matching: "9") }
    #expect(
      "\(expected)" == "'917' matches 2 podcasts: \(Self.noAgenda) (beta), \(Self.other) (untitled)"
    )
  }

  @Test(arguments: ["", "   ", "abc", "9173x", "%", "_", "https://nowhere.example/feed", "beta"])
  func anUnknownReferenceIsNotFound(reference: String) throws {
    try subscribeThree()
    let trimmed = reference.trimmingCharacters(in: .whitespaces)
    #expect(throws: CatalogError.notFound(reference: trimmed)) {
      try catalog.podcast(matching: reference)
    }
  }

  @Test func looksUpSubscriptions() throws {
    try subscribeThree()
    try catalog.save(
      makePodcast(id: "unsubscribed"), feedURL: "https://u.example/feed", subscribing: nil)
    #expect(try catalog.isSubscribed(Self.podnews))
    #expect(try catalog.isSubscribed(Self.podnews.uppercased()))
    #expect(try !catalog.isSubscribed("unsubscribed"))
    #expect(try !catalog.isSubscribed("missing"))
    #expect(
      try catalog.findSubscription(Self.podnews)
        == Subscription(podcastID: Self.podnews, subscribed: date(3)))
    #expect(try catalog.subscriptions().count == 3)
    #expect(try catalog.podcast(id: "unsubscribed")?.subscribed == nil)
  }

  @Test func unsubscribingRemovesThePodcastAndItsEpisodes() throws {
    try subscribeThree()
    let report = try catalog.unsubscribe(podcastID: Self.noAgenda.uppercased())
    #expect(
      report
        == UnsubscribeReport(
          podcastID: Self.noAgenda, title: "beta",
          feedURL: "https://mp3s.nashownotes.com/pc20rss.xml",
          subscribed: date(1), episodesRemoved: 2))
    #expect(try catalog.podcast(id: Self.noAgenda) == nil)
    #expect(
      try catalog.rawInt("SELECT count(*) FROM episodes WHERE podcast_id = ?", Self.noAgenda) == 0)
    #expect(try catalog.rawInt("SELECT count(*) FROM episodes") == 2)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 2)
    #expect(try catalog.search("beta").podcasts.isEmpty)
    #expect(try catalog.subscriptions().map(\.id) == [Self.podnews, Self.other])
    #expect(throws: CatalogError.notFound(reference: Self.noAgenda)) {
      try catalog.unsubscribe(podcastID: Self.noAgenda)
    }
  }

  /// The schema itself keeps podcasts, subscriptions, episodes and the search index together,
  /// also for a user editing the file with the sqlite3 shell.
  @Test(arguments: [
    "DELETE FROM podcasts WHERE id = '917393e3-1b1e-5cef-ace4-edaa54e1f810'",
    "DELETE FROM subscriptions WHERE podcast_id = '917393e3-1b1e-5cef-ace4-edaa54e1f810'",
  ])
  func deletingCascadesBothWays(sql: String) throws {
    try subscribeThree()
    try catalog.rawExecute(sql)
    for table in ["podcasts", "subscriptions"] {
      #expect(try catalog.rawInt("SELECT count(*) FROM \(table)") == 2)
    }
    #expect(try catalog.rawInt("SELECT count(*) FROM episodes") == 2)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 2)
    #expect(try catalog.rawInt("SELECT count(*) FROM podcast_search") == 2)
    #expect(try catalog.rawInt("PRAGMA foreign_key_check") == nil)
  }

  /// A value damaged by hand is an error naming it, not a crash.
  @Test(arguments: [
    ("UPDATE podcasts SET categories = '[1, 2'", "podcasts.categories"),
    ("UPDATE podcasts SET format = 'gopher'", "podcasts.format"),
    ("UPDATE episodes SET transcripts = '{\"url\": 3}'", "episodes.transcripts"),
  ])
  func reportsUnreadableValues(sql: String, column: String) throws {
    try subscribeThree()
    try catalog.rawExecute(sql)
    #expect {
      _ = try catalog.subscriptions()
      _ = try catalog.episodes(ofPodcast: Self.noAgenda)
    } throws: { error in
      guard case .invalidStoredValue? = error as? CatalogError else { return false }
      return "\(error)".contains(column)
    }
  }

  @Test func exportsSubscriptionsByTitle() throws {
    try subscribeThree()
    try catalog.save(
      makePodcast(id: "unsubscribed"), feedURL: "https://u.example/feed", subscribing: nil)
    #expect(
      try catalog.exportEntries() == [
        ExportEntry(
          title: "Alpha", feedURL: "https://podnews.net/rss", link: "https://example.com/"),
        ExportEntry(
          title: "beta", feedURL: "https://mp3s.nashownotes.com/pc20rss.xml",
          link: "https://example.com/"),
        ExportEntry(
          title: nil, feedURL: "https://other.example/feed", link: "https://example.com/"),
      ])
  }

  /// The queries that must stay fast on a million episodes walk an index and never sort.
  @Test(arguments: [
    (Catalog.episodesNewestFirst, "episodes_newest"),
    (Catalog.podcastsByIDPrefix, "sqlite_autoindex_podcasts_1"),
    (FeedSave.updateEpisodeSummary, "COVERING INDEX episodes_newest"),
    (
      "SELECT subscribed FROM subscriptions WHERE podcast_id = ?",
      "sqlite_autoindex_subscriptions_1"
    ),
  ])
  func queriesUseAnIndex(sql: String, index: String) throws {
    try subscribeThree()
    // Bound like the real calls: LIKE uses the index only for a bound prefix.
    let plan = try catalog.queryPlan(sql, Self.noAgenda, 20, 0).joined(separator: "; ")
    #expect(plan.contains(index), "\(plan)")
    #expect(!plan.contains("TEMP B-TREE") && !plan.contains("SCAN"), "\(plan)")
  }
}
