import FeedParser
import Foundation
import Testing

@Suite struct FeedDurationTests {
  @Test(arguments: [
    ("3600", 3600), ("0", 0), ("7", 7), ("  3600 \n", 3600), ("\t45\t", 45),
    ("\u{A0}30:00\u{A0}", 1800), ("3600.5", 3601), ("3600.4", 3600), ("3600.49", 3600),
    ("3600.50", 3601), ("0.5", 1), ("12:34.6", 755), ("12:34.4", 754), ("1:00:00.5", 3601),
    ("5:07", 307), ("05:07", 307), ("59:59", 3599), ("75:00", 4500), ("125:30", 7530),
    ("1:02:03", 3723), ("01:02:03", 3723), ("0:0:1", 1), ("1:5:30", 3930), ("10:00:00", 36000),
    ("100:00:00", 360_000), ("00:00:00", 0), ("9223372036854775807", Int.max),
    // From the corpus.
    ("0:00", 0), ("00:49.53", 50), ("1014.708375", 1015), ("835.821875", 836),
    ("1031.870813", 1032), ("02:18:38", 8318), ("2:02:06", 7326), ("59:02", 3542),
  ])
  func readable(input: String, seconds: Int) {
    #expect(FeedDuration.parse(input) == seconds, "\(input.debugDescription)")
    #expect(FeedDuration.parse(Array(input.utf8)) == seconds, "bytes of \(input.debugDescription)")
  }

  @Test(arguments: [
    "", " ", "\n", "https://www.mediafire.com/file/ounwlem8zz8bi6d/082021a.mp3", "32.17 minutes",
    "-5", "-1:00", "+5", "1:2:3:4", "1:60", "1:00:60", "1:60:00", "1::00", ":30", "30:", "1:30:",
    "12.5:30", "1.2.3", "3600.", ".5", "1,5", "1 30", "12:345", "1:30 min", "abc", "3600s",
    "PT1H30M", "1h 30m", "\u{0}", "12\u{0}", "9223372036854775808", "999999999999999999:00",
    "9223372036854775807.5", "１２",
  ])
  func unreadable(input: String) {
    #expect(FeedDuration.parse(input) == nil, "\(input.debugDescription)")
  }

  /// Every `itunes:duration` in the corpus's podcast feeds reads as the seconds a plain
  /// split-and-multiply computes, except the URLs one feed put there by mistake.
  @Test(arguments: ReaderCorpus.files(in: "podcasts"))
  func podcastCorpus(file: String) throws {
    let bytes = try ReaderCorpus.bytes(of: file)
    for value in ReaderCorpus.texts(of: "itunes:duration", in: bytes) {
      let text = value.text.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("http") {
        #expect(FeedDuration.parse(value) == nil, "\(text) in \(file)")
        continue
      }
      let fields = text.split(separator: ":").compactMap { Double($0) }
      try #require(!fields.isEmpty, "\(text.debugDescription) in \(file)")
      let seconds = fields.reduce(0) { $0 * 60 + $1 }
      #expect(
        FeedDuration.parse(value) == Int((seconds + 0.5).rounded(.down)),
        "\(text.debugDescription) in \(file)")
    }
  }

  /// The durations in SampleFeeds are the seconds its README lists, in document order.
  @Test(
    arguments: [
      ("full-rss2.xml", [3723, 1530, 1831, 95]), ("prefix-it.xml", []),
      ("atom-podcast.xml", [1965, 1770]), ("latin1.xml", [1310, 1147]),
      ("utf16.xml", [1638]), ("broken.xml", [nil, nil, 754]),
      ("podcastindex-old-namespace.xml", [2096]), ("new-feed-url.xml", [65]),
      ("no-guids.xml", [885]),
    ] as [(String, [Int?])])
  func sampleFeeds(name: String, seconds: [Int?]) throws {
    let bytes = try ReaderCorpus.sampleBytes(of: name)
    let values = ReaderCorpus.texts(of: "itunes:duration", in: bytes)
    #expect(values.map { FeedDuration.parse($0) } == seconds, "\(values.map(\.text))")
  }

  @Test func randomDurationsRoundTrip() {
    var random = SeededRandom(seed: 0xD0_0A71_0F)
    for _ in 0..<5_000 {
      let hours = Int.random(in: 0...30, using: &random)
      let minutes = Int.random(in: 0...59, using: &random)
      let seconds = Int.random(in: 0...59, using: &random)
      let total = hours * 3600 + minutes * 60 + seconds
      let mm = minutes < 10 ? "0\(minutes)" : "\(minutes)"
      let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
      #expect(FeedDuration.parse("\(hours):\(mm):\(ss)") == total)
      #expect(FeedDuration.parse("\(hours * 60 + minutes):\(ss)") == total)
      #expect(FeedDuration.parse("\(total)") == total)
      #expect(FeedDuration.parse("\(total).\(Int.random(in: 5...9, using: &random))") == total + 1)
    }
  }

  @Test func randomBytesNeverCrash() {
    var random = SeededRandom(seed: 0xD0_0A71_0E)
    let alphabet = Array("0123456789:. \t-+,\u{A0}".utf8)
    for round in 0..<30_000 {
      let length = Int.random(in: 0...16, using: &random)
      let bytes: [UInt8] =
        round.isMultiple(of: 2)
        ? (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        : (0..<length).map { _ in alphabet.randomElement(using: &random) ?? 0 }
      if let seconds = FeedDuration.parse(bytes) {
        #expect(seconds >= 0, "\(bytes)")
      }
    }
  }
}
