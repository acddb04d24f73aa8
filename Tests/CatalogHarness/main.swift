// A separate process that drives the catalog, for what a test cannot do in its own process:
// be killed in the middle of a save, or save at the same moment as another process. Also
// measures the catalog on a large generated file.
//
//   CatalogHarness save DB FEED_URL COUNT [--wait] [--hang-after N] [--announce-merge]
//   CatalogHarness populate DB PODCASTS EPISODES_PER_PODCAST
//   CatalogHarness bench DB [NAME-PREFIX]
import Catalog
import Foundation
import PodcastModel

/// A crude tag stripper: the real HTML-to-text function lives in the view layer.
func stripTags(_ html: String) -> String {
  var text = ""
  var inTag = false
  for character in html {
    if character == "<" {
      inTag = true
    } else if character == ">" {
      inTag = false
      text.append(" ")
    } else if !inTag {
      text.append(character)
    }
  }
  return text
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The `index`th episode of a generated feed; the tests build the same values to compare.
func generatedEpisode(_ index: Int, feedURL: String) -> Episode {
  Episode(
    guid: "\(feedURL)#\(index)", title: "Episode \(index)",
    description: "<p>Body of episode \(index) of \(feedURL)</p>", link: "\(feedURL)/\(index)",
    published: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 3600),
    duration: index, enclosure: Enclosure(url: "\(feedURL)/\(index).mp3", type: "audio/mpeg"))
}

func save(_ arguments: [String]) throws {
  guard arguments.count >= 3, let count = Int(arguments[2]) else {
    fail("usage: save DB FEED_URL COUNT [--wait] [--hang-after N] [--announce-merge]")
  }
  let (path, feedURL) = (arguments[0], arguments[1])
  let options = Array(arguments.dropFirst(3))
  let hangAfter = options.firstIndex(of: "--hang-after").flatMap {
    options.indices.contains($0 + 1) ? Int(options[$0 + 1]) : nil
  }
  let catalog = try Catalog(path: path, plainText: stripTags)
  if options.contains("--wait") {
    say("ready")
    _ = readLine()
  }
  let report = try catalog.saveFeed(feedURL: feedURL, subscribing: Date()) { writer in
    for index in 0..<count {
      if index == hangAfter {
        say("staged \(index)")
        while true { sleep(60) }
      }
      try writer.add(generatedEpisode(index, feedURL: feedURL))
    }
    if options.contains("--announce-merge") {
      say("merging")
    }
    return Podcast(feedUrl: feedURL, format: .rss2, title: "Generated \(feedURL)")
  }
  say("saved \(report.newEpisodes)")
}

/// A deterministic word list, so that generated catalogs have a realistic spread of common
/// and rare words.
struct Words {
  private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  let vocabulary: [String]

  init() {
    var generator = SplitMix(state: 42)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    vocabulary = (0..<20_000).map { _ in
      let length = 3 + Int(generator.next() % 8)
      return String((0..<length).map { _ in letters[Int(generator.next() % 26)] })
    }
  }

  /// Picks words with a Zipf-like skew: low indexes are far more common.
  mutating func sentence(_ count: Int) -> String {
    var generator = SplitMix(state: state)
    defer { state = generator.state }
    return (0..<count).map { _ in
      let u = Double(generator.next() % 1_000_000) / 1_000_000
      return vocabulary[min(Int(pow(u, 3) * Double(vocabulary.count)), vocabulary.count - 1)]
    }.joined(separator: " ")
  }
}

struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func populate(_ arguments: [String]) throws {
  guard arguments.count == 3, let podcasts = Int(arguments[1]), let each = Int(arguments[2]) else {
    fail("usage: populate DB PODCASTS EPISODES_PER_PODCAST")
  }
  let catalog = try Catalog(path: arguments[0], plainText: stripTags)
  var words = Words()
  let start = Date()
  for p in 0..<podcasts {
    let feedURL = "https://feeds.example.com/show/\(p).xml"
    try catalog.saveFeed(feedURL: feedURL, subscribing: Date(timeIntervalSince1970: Double(p))) {
      writer in
      for e in 0..<each {
        try writer.add(
          Episode(
            guid: "\(p)-\(e)", title: words.sentence(6),
            description: "<p>" + words.sentence(60) + "</p>", link: "\(feedURL)/\(e)",
            published: Date(timeIntervalSince1970: 1_500_000_000 + Double(e * 86_400 + p)),
            duration: 1800 + e,
            enclosure: Enclosure(url: "\(feedURL)/\(e).mp3", type: "audio/mpeg", length: e)))
      }
      return Podcast(
        feedUrl: feedURL, format: .rss2, title: words.sentence(3),
        description: words.sentence(30))
    }
    if p % 50 == 49 {
      say("\(p + 1) podcasts, \(Int(Date().timeIntervalSince(start))) s")
    }
  }
}

func bench(_ arguments: [String]) throws {
  guard arguments.count == 1 || arguments.count == 2 else { fail("usage: bench DB [NAME]") }
  let only = arguments.count == 2 ? arguments[1] : ""
  /// Wall time, and CPU time, which other load on the machine disturbs less.
  func measure(_ name: String, runs: Int = 20, _ body: () throws -> Int) rethrows {
    guard name.hasPrefix(only) else { return }
    func now(_ clock: clockid_t) -> Double {
      var time = timespec()
      clock_gettime(clock, &time)
      return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
    var wall: [Double] = []
    var cpu: [Double] = []
    var size = 0
    for _ in 0..<runs {
      let (wallStart, cpuStart) = (now(CLOCK_MONOTONIC), now(CLOCK_PROCESS_CPUTIME_ID))
      size = try body()
      wall.append(now(CLOCK_MONOTONIC) - wallStart)
      cpu.append(now(CLOCK_PROCESS_CPUTIME_ID) - cpuStart)
    }
    wall.sort()
    cpu.sort()
    let label = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    say(
      label
        + String(
          format: " wall median %8.2f ms, max %8.2f ms; cpu median %8.2f ms  (%d rows)",
          wall[runs / 2], wall[runs - 1], cpu[runs / 2], size))
  }
  try measure("open") {
    _ = try Catalog(path: arguments[0], plainText: stripTags)
    return 0
  }
  let catalog = try Catalog(path: arguments[0], plainText: stripTags)
  let words = Words()
  let subscriptions = try catalog.subscriptions()
  let someID = subscriptions[subscriptions.count / 2].id
  for order in SubscriptionOrder.allCases {
    try measure("subscriptions(\(order))") { try catalog.subscriptions(orderedBy: order).count }
  }
  try measure("episodes limit 20") { try catalog.episodes(ofPodcast: someID, limit: 20).count }
  try measure("episodes limit 20 offset 500") {
    try catalog.episodes(ofPodcast: someID, limit: 20, offset: 500).count
  }
  try measure("episodes all of one podcast", runs: 5) {
    try catalog.episodes(ofPodcast: someID).count
  }
  try measure("podcast(matching: 8-char prefix)") {
    _ = try catalog.podcast(matching: String(someID.prefix(8)))
    return 1
  }
  let common = words.vocabulary[0]
  let middle = words.vocabulary[2000]
  let rare = words.vocabulary[19_000]
  for query in [common, middle, rare, "\(common) \(middle)", String(middle.prefix(3)) + "*"] {
    try measure("search '\(query)'") {
      let results = try catalog.search(query, limit: 20)
      return results.podcasts.count + results.episodes.count
    }
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "save": try save(Array(arguments.dropFirst()))
  case "populate": try populate(Array(arguments.dropFirst()))
  case "bench": try bench(Array(arguments.dropFirst()))
  default: fail("usage: CatalogHarness save|populate|bench ...")
  }
} catch {
  fail("error: \(error)")
}
