import Foundation
import PodcastModel
import Testing

@testable import Catalog

@Suite struct FeedSaveTests {
  let folder: TemporaryFolder
  let catalog: Catalog
  let feedURL = "https://feeds.example.com/show.xml"

  init() throws {
    folder = try TemporaryFolder()
    catalog = try openCatalog(folder.path("catalog.sqlite3"))
  }

  private func guids(_ id: String) throws -> [String?] {
    try catalog.episodes(ofPodcast: id).map(\.episode.guid)
  }

  @Test func keepsEveryFieldOfPodcastAndEpisode() throws {
    let episode = Episode(
      guid: "urn:uuid:1", title: "The <i>First</i>", description: "<p>Long &amp; winding</p>",
      link: "https://example.com/1", published: date(3), duration: 3725,
      enclosure: Enclosure(
        url: "https://cdn.example.com/1.mp3?x=1&y=2", type: "audio/mpeg", length: 123_456_789),
      season: 2, episode: 14, episodeType: "bonus", explicit: true,
      imageUrl: "https://example.com/1.jpg",
      transcripts: [
        Transcript(url: "https://example.com/1.vtt", type: "text/vtt", language: "en"),
        Transcript(url: "https://example.com/1.srt"),
      ],
      chapters: Chapters(url: "https://example.com/1.json", type: "application/json+chapters"))
    var podcast = makePodcast(id: "917393e3-1b1e-5cef-ace4-edaa54e1f810", episodes: [episode])
    podcast.newFeedUrl = "https://new.example.com/feed"
    podcast.nextPageUrl = "https://feeds.example.com/show.xml?page=2"
    podcast.explicit = nil
    podcast.warnings = ["repaired a bare &"]
    let report = try catalog.save(
      podcast, feedURL: feedURL, subscribing: epoch,
      validators: HTTPValidators(etag: "\"abc\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"),
      at: date(10))
    #expect(
      report
        == SaveReport(
          podcastID: "917393e3-1b1e-5cef-ace4-edaa54e1f810", title: "A Show", isNewPodcast: true,
          newEpisodes: 1, updatedEpisodes: 0, duplicateEpisodes: 0, episodesWithoutIdentity: 0,
          wasSubscribed: false, subscribed: epoch))

    let stored = try #require(try catalog.podcast(id: report.podcastID))
    var expected = podcast
    expected.feedUrl = feedURL
    expected.episodes = []
    expected.warnings = []
    #expect(stored.podcast == expected)
    #expect(stored.feedURL == feedURL)
    #expect(stored.subscribed == epoch)
    #expect(stored.episodeCount == 1)
    #expect(stored.latestEpisode == date(3))
    #expect(stored.added == date(10))
    #expect(
      stored.refresh
        == RefreshState(
          validators: HTTPValidators(
            etag: "\"abc\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"),
          lastChecked: date(10), lastUpdated: date(10)))
    let episodes = try catalog.episodes(ofPodcast: report.podcastID)
    #expect(
      episodes == [
        StoredEpisode(podcastID: report.podcastID, episode: episode, firstSeen: date(10))
      ])
  }

  @Test func datesAreWholeSeconds() throws {
    let published = Date(timeIntervalSince1970: 1_700_000_000.75)
    try catalog.save(
      makePodcast(episodes: [makeEpisode(1, published: published)]), feedURL: feedURL,
      subscribing: Date(timeIntervalSince1970: 1_700_000_000.5))
    let id = PodcastID.forFeedURL(feedURL)
    #expect(try catalog.rawInt("SELECT published FROM episodes") == 1_700_000_000)
    #expect(try catalog.episodes(ofPodcast: id).first?.episode.published == epoch)
    #expect(try catalog.findSubscription(id)?.subscribed == epoch)
  }

  @Test func savingTheSameFeedTwiceChangesNothing() throws {
    let podcast = makePodcast(episodes: (1...5).map { makeEpisode($0) })
    let first = try catalog.save(podcast, feedURL: feedURL, subscribing: date(1), at: date(1))
    let before = try catalog.episodes(ofPodcast: first.podcastID)
    let second = try catalog.save(podcast, feedURL: feedURL, subscribing: date(2), at: date(2))
    #expect(second.podcastID == first.podcastID)
    #expect(!second.isNewPodcast && second.newEpisodes == 0 && second.updatedEpisodes == 0)
    #expect(second.wasSubscribed && second.subscribed == date(1))
    #expect(try catalog.episodes(ofPodcast: first.podcastID) == before)
    let stored = try #require(try catalog.podcast(id: first.podcastID))
    #expect(stored.subscribed == date(1) && stored.episodeCount == 5)
    #expect(stored.refresh.lastChecked == date(2) && stored.refresh.lastUpdated == date(1))
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 5)
  }

  @Test func updatesChangedEpisodesInPlaceAndKeepsVanishedOnes() throws {
    let first = try catalog.save(
      makePodcast(episodes: (1...4).map { makeEpisode($0) }), feedURL: feedURL,
      subscribing: epoch, at: date(1))
    let rowID = try catalog.rawInt("SELECT id FROM episodes WHERE guid = 'guid-2'")
    var changed = makeEpisode(2)
    changed.title = "Episode 2 (corrected)"
    changed.duration = 99
    // Episode 1 left the feed, 2 changed, 3 and 4 are the same, 5 is new.
    let second = try catalog.save(
      makePodcast(
        title: "A Show, renamed",
        episodes: [makeEpisode(5), makeEpisode(4), makeEpisode(3), changed]),
      feedURL: feedURL, subscribing: nil, at: date(6))
    #expect(second.newEpisodes == 1 && second.updatedEpisodes == 1)
    #expect(try guids(first.podcastID) == ["guid-5", "guid-4", "guid-3", "guid-2", "guid-1"])
    let stored = try catalog.episodes(ofPodcast: first.podcastID)
    #expect(stored.first { $0.episode.guid == "guid-2" }?.episode == changed)
    #expect(stored.first { $0.episode.guid == "guid-2" }?.firstSeen == date(1))
    #expect(stored.first { $0.episode.guid == "guid-5" }?.firstSeen == date(6))
    #expect(try catalog.rawInt("SELECT id FROM episodes WHERE guid = 'guid-2'") == rowID)
    let podcast = try #require(try catalog.podcast(id: first.podcastID))
    #expect(podcast.podcast.title == "A Show, renamed")
    #expect(podcast.episodeCount == 5 && podcast.latestEpisode == date(5))
    #expect(podcast.refresh.lastUpdated == date(6))
    #expect(try catalog.search("corrected").episodes.map(\.episode.guid) == ["guid-2"])
    #expect(try catalog.search("renamed").podcasts.map(\.podcastID) == [first.podcastID])
  }

  @Test func keepsTheFirstOfEpisodesWithTheSameIdentity() throws {
    var twin = makeEpisode(1)
    twin.title = "Second copy"
    let report = try catalog.save(
      makePodcast(episodes: [makeEpisode(1), makeEpisode(2), twin, twin]), feedURL: feedURL,
      subscribing: epoch)
    #expect(report.newEpisodes == 2 && report.duplicateEpisodes == 2)
    let episodes = try catalog.episodes(ofPodcast: report.podcastID)
    #expect(episodes.map(\.episode.title) == ["Episode 2", "Episode 1"])
  }

  /// Items without guids are told apart by enclosure, then link and date, then title; saving
  /// them again finds the same episodes.
  @Test(arguments: [
    [
      Episode(title: "A", enclosure: Enclosure(url: "https://cdn.example.com/a.mp3")),
      Episode(title: "A", enclosure: Enclosure(url: "https://cdn.example.com/b.mp3")),
    ],
    [
      Episode(title: "Same", link: "https://example.com/post", published: date(1)),
      Episode(title: "Same", link: "https://example.com/post", published: date(2)),
      Episode(title: "Same", link: "https://example.com/post"),
    ],
    [Episode(title: "Only a title"), Episode(title: "Another title")],
    [Episode(guid: "g", title: "x"), Episode(title: "x", enclosure: Enclosure(url: "g"))],
  ])
  func identifiesEpisodesWithoutGuids(episodes: [Episode]) throws {
    let first = try catalog.save(
      makePodcast(episodes: episodes), feedURL: feedURL, subscribing: epoch)
    #expect(first.newEpisodes == episodes.count && first.duplicateEpisodes == 0)
    let again = try catalog.save(
      makePodcast(episodes: episodes.reversed()), feedURL: feedURL, subscribing: epoch)
    #expect(again.newEpisodes == 0 && again.updatedEpisodes == 0)
    #expect(try catalog.podcast(id: first.podcastID)?.episodeCount == episodes.count)
  }

  @Test func leavesOutEpisodesWithNoIdentity() throws {
    let report = try catalog.save(
      makePodcast(episodes: [
        Episode(description: "just words"), makeEpisode(1), Episode(title: "  "),
      ]),
      feedURL: feedURL, subscribing: epoch)
    #expect(report.newEpisodes == 1 && report.episodesWithoutIdentity == 2)
  }

  @Test func takesThePodcastIDKnownOnlyAfterTheEpisodes() throws {
    let report = try catalog.saveFeed(feedURL: feedURL, subscribing: epoch) { writer in
      for n in 1...3 {
        try writer.add(makeEpisode(n))
      }
      return makePodcast(id: "late-guid-0001")
    }
    #expect(report.podcastID == "late-guid-0001")
    #expect(try guids("late-guid-0001") == ["guid-3", "guid-2", "guid-1"])
    #expect(try catalog.podcast(id: PodcastID.forFeedURL(feedURL)) == nil)
  }

  /// How a save finds the podcast a feed is: written straight in as a new podcast under the
  /// id of its feed URL, renamed to a guid known only at the end, or merged into the stored
  /// podcast with that guid.
  enum NewFeed: CaseIterable {
    case withoutGuid, withANewGuid, withTheGuidOfAStoredPodcast
  }

  /// `more` episodes past the first few are written on the writer's own thread.
  @Test(arguments: NewFeed.allCases, [0, 3 * FeedWriter.episodesBeforeThread])
  func aNewFeedURLCountsIndexesAndSummarisesItsEpisodes(feed: NewFeed, more: Int) throws {
    let guid = "cccccccc-3333-5333-8333-333333333333"
    let url = "https://new.example.com/feed"
    var expectedID = PodcastID.forFeedURL(url)
    var storedEpisodes = 0
    if feed == .withTheGuidOfAStoredPodcast {
      try catalog.save(
        makePodcast(id: guid, episodes: [makeEpisode(1), makeEpisode(9)]), feedURL: feedURL,
        subscribing: epoch)
      storedEpisodes = 1
    }
    if feed != .withoutGuid { expectedID = guid }
    var renamed = makeEpisode(1)
    renamed.title = "Episode 1 retitled"
    let extra = (0..<more).map { makeEpisode(100 + $0) }
    let report = try catalog.saveFeed(feedURL: url, subscribing: epoch, at: date(7)) { writer in
      for episode in [renamed, makeEpisode(2), makeEpisode(3)] + extra + [makeEpisode(2)] {
        try writer.add(episode)
      }
      return makePodcast(id: feed == .withoutGuid ? nil : guid)
    }
    #expect(report.podcastID == expectedID)
    #expect(report.isNewPodcast == (feed != .withTheGuidOfAStoredPodcast))
    #expect(report.newEpisodes == 3 - storedEpisodes + more)
    #expect(report.updatedEpisodes == storedEpisodes && report.duplicateEpisodes == 1)
    let podcast = try #require(try catalog.podcast(id: expectedID))
    #expect(podcast.feedURL == url)
    #expect(podcast.episodeCount == 3 + storedEpisodes + more)
    let latest = more > 0 ? 99 + more : feed == .withTheGuidOfAStoredPodcast ? 9 : 3
    #expect(podcast.latestEpisode == date(Double(latest)))
    #expect(try catalog.rawInt("SELECT count(*) FROM podcasts") == 1)
    #expect(try catalog.search("retitled").episodes.map(\.episode.guid) == ["guid-1"])
    let total = 3 + storedEpisodes + more
    #expect(try catalog.search("Episode", limit: 1000).episodes.count == total)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == total)
    #expect(try catalog.search("show").podcasts.map(\.podcastID) == [expectedID])
    let positions = try catalog.rawStrings(
      "SELECT guid FROM episodes WHERE podcast_id = ? ORDER BY position", expectedID)
    let inFeedOrder = ["guid-1", "guid-2", "guid-3"] + extra.compactMap(\.guid)
    #expect(positions.filter { $0 != "guid-9" } == inFeedOrder)
    #expect(try catalog.integrityCheck() == ["ok"])
  }

  @Test func derivesTheIDFromTheFeedURLWithoutAGuid() throws {
    let report = try catalog.save(
      makePodcast(), feedURL: "https://podnews.net/rss", subscribing: epoch)
    #expect(report.podcastID == "9b024349-ccf0-5f69-a609-6b82873eab3c")
    // The same feed reached over plain HTTP is the same podcast, now at the new URL.
    let again = try catalog.save(
      makePodcast(), feedURL: "http://podnews.net/rss/", subscribing: nil)
    #expect(again.podcastID == report.podcastID && !again.isNewPodcast)
    #expect(try catalog.podcast(id: report.podcastID)?.feedURL == "http://podnews.net/rss/")
  }

  @Test func aPodcastKeepsItsIDAndEpisodesWhenItsFeedMoves() throws {
    let guid = "aaaaaaaa-1111-5111-8111-111111111111"
    let first = try catalog.save(
      makePodcast(id: guid, episodes: [makeEpisode(1)]), feedURL: feedURL, subscribing: epoch)
    let moved = try catalog.save(
      makePodcast(id: guid, episodes: [makeEpisode(2)]), feedURL: "https://new.example.com/feed",
      subscribing: nil)
    #expect(moved.podcastID == first.podcastID && !moved.isNewPodcast && moved.wasSubscribed)
    #expect(try catalog.podcast(id: guid)?.feedURL == "https://new.example.com/feed")
    #expect(try guids(guid) == ["guid-2", "guid-1"])

    try catalog.updateFeedURL(podcastID: guid, to: "https://third.example.com/feed")
    #expect(try catalog.podcast(feedURL: "https://third.example.com/feed")?.id == guid)
    #expect(try catalog.podcast(id: guid)?.episodeCount == 2)
  }

  @Test func aFeedThatGainsAGuidKeepsItsStoredID() throws {
    let first = try catalog.save(
      makePodcast(episodes: [makeEpisode(1)]), feedURL: feedURL, subscribing: epoch)
    let second = try catalog.save(
      makePodcast(id: "bbbbbbbb-2222-5222-8222-222222222222", episodes: [makeEpisode(2)]),
      feedURL: feedURL, subscribing: nil)
    #expect(second.podcastID == first.podcastID && second.newEpisodes == 1)
    #expect(try catalog.subscriptions().map(\.id) == [first.podcastID])
  }

  @Test func refusesAFeedURLOfAnotherPodcast() throws {
    try catalog.save(
      makePodcast(id: "guid-x", episodes: [makeEpisode(1)]), feedURL: "https://x.example/feed",
      subscribing: epoch)
    try catalog.save(
      makePodcast(id: "guid-y"), feedURL: "https://y.example/feed", subscribing: epoch)
    let claimed = CatalogError.podcastIDInUse(
      url: "https://y.example/feed", claimedID: "guid-x", claimedFeedURL: "https://x.example/feed",
      storedID: "guid-y")
    #expect(throws: claimed) {
      try catalog.save(
        makePodcast(id: "guid-x", episodes: [makeEpisode(2)]), feedURL: "https://y.example/feed",
        subscribing: epoch)
    }
    #expect(
      "\(claimed)"
        == "the feed at https://y.example/feed (podcast guid-y) now gives podcast:guid guid-x, the podcast of https://x.example/feed; both are kept apart, and this feed was not saved"
    )
    #expect(try guids("guid-x") == ["guid-1"])
    #expect(throws: CatalogError.feedURLInUse(url: "https://y.example/feed", podcastID: "guid-y")) {
      try catalog.updateFeedURL(podcastID: "guid-x", to: "https://y.example/feed")
    }
    #expect(throws: CatalogError.notFound(reference: "guid-z")) {
      try catalog.updateFeedURL(podcastID: "guid-z", to: "https://z.example/feed")
    }
  }

  /// Nothing of a save that fails survives, and the next save is not polluted by it: a save
  /// into the stored podcast, or of a new feed written straight into the catalog.
  @Test(arguments: [false, true])
  func aFailingSaveChangesNothing(intoANewPodcast: Bool) throws {
    try catalog.save(
      makePodcast(episodes: (1...3).map { makeEpisode($0) }), feedURL: feedURL, subscribing: epoch,
      at: date(1))
    let before = try catalog.subscriptions()
    let episodesBefore = try catalog.episodes(ofPodcast: before[0].id)
    struct ParseFailure: Error {}
    let url = intoANewPodcast ? "https://failing.example/feed" : feedURL
    #expect(throws: ParseFailure.self) {
      try catalog.saveFeed(feedURL: url, subscribing: epoch, at: date(2)) { writer in
        for n in 4...500 {
          try writer.add(makeEpisode(n))
        }
        throw ParseFailure()
      }
    }
    #expect(try catalog.subscriptions() == before)
    #expect(try catalog.episodes(ofPodcast: before[0].id) == episodesBefore)
    #expect(try catalog.search("Notes").episodes.count == 3)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 3)

    let other = try catalog.save(
      makePodcast(title: "Other", episodes: [makeEpisode(1000, guid: "other")]),
      feedURL: "https://other.example/feed", subscribing: epoch)
    #expect(other.newEpisodes == 1)
    #expect(try catalog.rawInt("SELECT count(*) FROM episodes") == 4)
  }

  /// Ways a save can fail after it has started writing: a constraint of the file (here a
  /// trigger a user might add) in the middle of the episodes or at the very end, and a full
  /// disk (a page limit).
  enum LateFailure: String, CaseIterable {
    case episodeConstraint, subscriptionConstraint, diskFull

    func arrange(_ catalog: Catalog) throws {
      switch self {
      case .episodeConstraint:
        try catalog.rawExecute(
          """
          CREATE TEMP TRIGGER refuse AFTER INSERT ON main.episodes WHEN new.guid = 'guid-300'
          BEGIN SELECT RAISE(ABORT, 'refused'); END;
          """)
      case .subscriptionConstraint:
        try catalog.rawExecute(
          """
          CREATE TEMP TRIGGER refuse BEFORE INSERT ON main.subscriptions
          BEGIN SELECT RAISE(ABORT, 'refused'); END;
          """)
      case .diskFull:
        let pages = try catalog.rawInt("PRAGMA page_count") ?? 0
        try catalog.rawExecute("PRAGMA max_page_count = \(pages + 20)")
      }
    }

    var code: Int32 { self == .diskFull ? 13 : 1811 }  // SQLITE_FULL, SQLITE_CONSTRAINT_TRIGGER
  }

  /// The failures hit a save into the stored podcast, or one of a new feed whose episodes
  /// are written straight in (where an episode's failure is met on the writing thread).
  @Test(arguments: LateFailure.allCases, [false, true])
  func aSaveFailingLateChangesNothing(failure: LateFailure, intoANewPodcast: Bool) throws {
    try catalog.save(
      makePodcast(episodes: (1...3).map { makeEpisode($0) }), feedURL: feedURL,
      subscribing: nil, at: date(1))
    let podcast = try #require(try catalog.podcast(feedURL: feedURL))
    let episodes = try catalog.episodes(ofPodcast: podcast.id)
    try failure.arrange(catalog)

    var changed = makeEpisode(2)
    changed.title = "Changed"
    let feed = makePodcast(
      title: "Renamed", episodes: [changed] + (4...2000).map { makeEpisode($0) })
    let url = intoANewPodcast ? "https://late.example/feed" : feedURL
    let error = #expect(throws: SQLiteError.self) {
      try catalog.save(feed, feedURL: url, subscribing: epoch, at: date(2))
    }
    #expect(error?.code == failure.code && error?.sql != nil, "\(String(describing: error))")

    #expect(try catalog.podcast(id: podcast.id) == podcast)
    #expect(try catalog.episodes(ofPodcast: podcast.id) == episodes)
    #expect(try catalog.rawInt("SELECT count(*) FROM podcasts") == 1)
    #expect(try catalog.rawInt("SELECT count(*) FROM episodes") == 3)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 3)
    #expect(try catalog.search("changed").episodes.isEmpty)
    #expect(try catalog.search("renamed").podcasts.isEmpty)
    #expect(try !catalog.isSubscribed(podcast.id))
    #expect(try catalog.integrityCheck() == ["ok"])

    // Once the cause is gone, the next saves count and index as they should.
    try catalog.rawExecute(
      "DROP TRIGGER IF EXISTS temp.refuse; PRAGMA max_page_count = 1073741823")
    let again = try catalog.save(feed, feedURL: feedURL, subscribing: epoch, at: date(3))
    #expect(again.newEpisodes == 1997 && again.updatedEpisodes == 1)
    let new = try catalog.save(feed, feedURL: "https://late.example/feed", subscribing: epoch)
    #expect(new.isNewPodcast && new.newEpisodes == 1998)
    #expect(try catalog.rawInt("SELECT count(*) FROM episode_search") == 3 + 1997 + 1998)
    #expect(try catalog.search("changed", limit: 100).episodes.count == 2)
  }

  @Test func theWriterCannotBeUsedAfterItsSave() throws {
    var kept: FeedWriter?
    try catalog.saveFeed(feedURL: feedURL, subscribing: epoch) { writer in
      kept = writer
      return makePodcast()
    }
    #expect(throws: CatalogError.writerClosed) { try kept?.add(makeEpisode(1)) }
  }

  @Test(arguments: [
    "Robert'); DROP TABLE episodes; --",
    "100% _pure_ \\ escape \" ' `backtick`",
    "?1 :name @p $x",
    "line\nbreak\ttab and NUL \u{0} inside",
    "emoji 🎙️ and accents: café naïve",
    "",
  ])
  func storesSQLLookingTextVerbatim(text: String) throws {
    let episode = Episode(guid: text + "#guid", title: text, description: text, link: text)
    var podcast = makePodcast(
      id: "sql-" + text, title: text, description: text, episodes: [episode])
    podcast.categories = [text, "x"]
    let url = "https://example.com/feed?q=" + text
    let report = try catalog.save(podcast, feedURL: url, subscribing: epoch)
    let stored = try #require(try catalog.podcast(feedURL: url))
    #expect(stored.id == "sql-" + text && report.podcastID == stored.id)
    #expect(stored.podcast.title == text && stored.podcast.description == text)
    #expect(stored.podcast.categories == [text, "x"])
    #expect(try catalog.episodes(ofPodcast: stored.id).map(\.episode) == [episode])
    #expect(try catalog.rawInt("SELECT count(*) FROM sqlite_schema WHERE name = 'episodes'") == 1)
  }

  @Test func savesWithoutSubscribingAndSubscribesLater() throws {
    let first = try catalog.save(makePodcast(), feedURL: feedURL, subscribing: nil)
    #expect(first.subscribed == nil && !first.wasSubscribed)
    #expect(try catalog.subscriptions().isEmpty)
    #expect(try !catalog.isSubscribed(first.podcastID))
    let second = try catalog.save(makePodcast(), feedURL: feedURL, subscribing: date(4))
    #expect(!second.wasSubscribed && second.subscribed == date(4))
    #expect(
      try catalog.findSubscription(first.podcastID)
        == Subscription(podcastID: first.podcastID, subscribed: date(4)))
  }

  @Test func recordsRefreshOutcomes() throws {
    let report = try catalog.save(
      makePodcast(episodes: [makeEpisode(1)]), feedURL: feedURL, subscribing: epoch,
      validators: HTTPValidators(etag: "v1"), at: date(1))
    let id = report.podcastID

    let before = try #require(try catalog.podcast(id: id))
    try catalog.recordFailure(podcastID: id, message: "HTTP 503", at: date(2))
    var failed = try #require(try catalog.podcast(id: id))
    #expect(failed.refresh.lastError == "HTTP 503" && failed.refresh.lastErrorAt == date(2))
    failed.refresh.lastError = nil
    failed.refresh.lastErrorAt = nil
    #expect(failed == before)

    try catalog.recordCheck(podcastID: id, at: date(3))
    let checked = try #require(try catalog.podcast(id: id))
    #expect(
      checked.refresh
        == RefreshState(
          validators: HTTPValidators(etag: "v1"), lastChecked: date(3), lastUpdated: date(1)))

    try catalog.recordCheck(
      podcastID: id, validators: HTTPValidators(lastModified: "yesterday"), at: date(4))
    #expect(
      try catalog.podcast(id: id)?.refresh.validators == HTTPValidators(lastModified: "yesterday"))

    try catalog.recordFailure(podcastID: id, message: "timeout", at: date(5))
    try catalog.save(
      makePodcast(episodes: [makeEpisode(1)]), feedURL: feedURL, subscribing: nil,
      validators: HTTPValidators(etag: "v2"), at: date(6))
    #expect(
      try catalog.podcast(id: id)?.refresh
        == RefreshState(
          validators: HTTPValidators(etag: "v2"), lastChecked: date(6), lastUpdated: date(1)))

    #expect(throws: CatalogError.notFound(reference: "nope")) {
      try catalog.recordFailure(podcastID: "nope", message: "x")
    }
    #expect(throws: CatalogError.notFound(reference: "nope")) {
      try catalog.recordCheck(podcastID: "nope")
    }
  }

  @Test func refusesABlankFeedURL() throws {
    #expect(throws: CatalogError.invalidFeedURL("")) {
      try catalog.save(makePodcast(), feedURL: "  ", subscribing: epoch)
    }
  }
}
