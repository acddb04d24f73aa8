import FeedParser
import Foundation
import Testing

@Suite struct FeedNumberTests {
  @Test(arguments: [
    ("1234", 1234), (" 1234 ", 1234), ("\n1234\t", 1234), ("0", 0), ("007", 7),
    ("179.5", 180), ("179.4", 179), ("179.49", 179), ("179.0", 179), ("1,234", 1234),
    ("1,234,567", 1_234_567), ("12,345,678.9", 12_345_679), ("9223372036854775807", Int.max),
    // From the corpus.
    ("24986239", 24_986_239), ("0", 0), ("1", 1),
  ])
  func length(input: String, bytes: Int) {
    #expect(FeedNumber.length(input) == bytes, "\(input.debugDescription)")
    #expect(FeedNumber.length(Array(input.utf8)) == bytes, "bytes of \(input.debugDescription)")
  }

  @Test(arguments: [
    "", "  ", "-1", "+1", "1,23", "12,5", "179,5", "1234,567", ",123", "1,,234", "1,234,",
    "1,2345", "1.2.3", "179.", ".5", "1e6", "abc", "12 34", "1 234", "0x10", "１２", "12MB",
    "9223372036854775808", "9223372036854775807.5", "99999999999999999999", "\u{0}",
  ])
  func unreadableLength(input: String) {
    #expect(FeedNumber.length(input) == nil, "\(input.debugDescription)")
  }

  @Test(arguments: [
    ("3", 3), (" 3 ", 3), ("03", 3), ("0", 0), ("23", 23), ("3.0", 3), ("3.00", 3),
    ("\u{A0}12\u{A0}", 12), ("9223372036854775807", Int.max),
  ])
  func integer(input: String, value: Int) {
    #expect(FeedNumber.integer(input) == value, "\(input.debugDescription)")
    #expect(FeedNumber.integer(Array(input.utf8)) == value, "bytes of \(input.debugDescription)")
  }

  @Test(arguments: [
    "", " ", "3.5", "3.", "-1", "+3", "three", "3a", "S3", "1,234", "1 2", "9223372036854775808",
    "3.0.0", "\u{0}",
  ])
  func unreadableInteger(input: String) {
    #expect(FeedNumber.integer(input) == nil, "\(input.debugDescription)")
  }

  @Test(arguments: [
    ("yes", true), ("Yes", true), ("YES", true), (" yes ", true), ("true", true),
    ("True", true), ("explicit", true), ("Explicit", true), ("no", false), ("No", false),
    ("false", false), ("FALSE", false), ("clean", false), ("Clean", false), ("\nno\n", false),
  ])
  func boolean(input: String, value: Bool) {
    #expect(FeedNumber.boolean(input) == value, "\(input.debugDescription)")
    #expect(FeedNumber.boolean(Array(input.utf8)) == value, "bytes of \(input.debugDescription)")
  }

  @Test(arguments: [
    "", "1", "0", "maybe", "y", "n", "ye", "yes please", "not explicit", "cleaner", "tru",
    "\u{0}yes",
  ])
  func unreadableBoolean(input: String) {
    #expect(FeedNumber.boolean(input) == nil, "\(input.debugDescription)")
  }

  /// Every enclosure length, season, episode and explicit flag in the corpus's podcast feeds
  /// reads as Swift's own `Int(_:)` reads the trimmed text (or `Double(_:)` rounded, for
  /// lengths with a fraction); empty lengths read as nil.
  @Test(arguments: ReaderCorpus.files(in: "podcasts"))
  func podcastCorpus(file: String) throws {
    let bytes = try ReaderCorpus.bytes(of: file)
    for value in ReaderCorpus.attributeValues("length", in: bytes) {
      let text = value.text.trimmingCharacters(in: .whitespaces)
      let expected = Int(text) ?? Double(text).map { Int(($0 + 0.5).rounded(.down)) }
      #expect(FeedNumber.length(value) == expected, "length \(text.debugDescription) in \(file)")
    }
    for tag in ["itunes:season", "itunes:episode", "podcast:season", "podcast:episode"] {
      for value in ReaderCorpus.texts(of: tag, in: bytes) {
        let text = value.text.trimmingCharacters(in: .whitespaces)
        #expect(
          FeedNumber.integer(value) == Int(text), "\(tag) \(text.debugDescription) in \(file)")
      }
    }
    for value in ReaderCorpus.texts(of: "itunes:explicit", in: bytes) {
      #expect(
        FeedNumber.boolean(value) != nil, "explicit \(value.text.debugDescription) in \(file)")
    }
  }

  /// Enclosure lengths, explicit flags and episode numbers of the RSS sample feeds.
  @Test(
    arguments: [
      (
        "full-rss2.xml", [59_612_345, 24_480_000, 17_567_745, 1_520_000],
        [false, false, false, true], [3, 2]
      ),
      ("broken.xml", [180, nil, 12_058_624], [], []),
      ("latin1.xml", [20_971_520, 18_350_080], [], []),
      ("no-guids.xml", [14_155_776], [], []),
    ] as [(String, [Int?], [Bool?], [Int?])])
  func sampleFeeds(name: String, lengths: [Int?], flags: [Bool?], episodes: [Int?]) throws {
    let bytes = try ReaderCorpus.sampleBytes(of: name)
    let lengthValues = ReaderCorpus.attributeValues("length", in: bytes)
    #expect(lengthValues.map { FeedNumber.length($0) } == lengths)
    let flagValues = ReaderCorpus.texts(of: "itunes:explicit", in: bytes)
    #expect(flagValues.map { FeedNumber.boolean($0) } == flags)
    let episodeValues = ReaderCorpus.texts(of: "itunes:episode", in: bytes)
    #expect(episodeValues.map { FeedNumber.integer($0) } == episodes)
  }

  @Test func randomBytesNeverCrash() {
    var random = SeededRandom(seed: 0x2_0BE5)
    let alphabet = Array("0123456789,. \t-+\u{A0}yesnotruefalsclean".utf8)
    for round in 0..<30_000 {
      let length = Int.random(in: 0...24, using: &random)
      let bytes: [UInt8] =
        round.isMultiple(of: 2)
        ? (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        : (0..<length).map { _ in alphabet.randomElement(using: &random) ?? 0 }
      if let value = FeedNumber.length(bytes) { #expect(value >= 0, "\(bytes)") }
      if let value = FeedNumber.integer(bytes) { #expect(value >= 0, "\(bytes)") }
      _ = FeedNumber.boolean(bytes)
    }
  }
}
