import FeedParser
import Foundation
import PodcastModel

/// What must hold for any bytes handed to ``FeedParser``: besides not crashing, the result
/// may not depend on how the document is cut into chunks, nor on whether episodes are kept
/// or streamed. Where libxml2 had to recover from errors left after the repair stage, only
/// the outcome (a feed or an error) must be the same: libxml2's recovery itself depends on
/// how its input was cut.
///
/// The first byte of an input is not part of the document: it says where to cut it, in
/// 255ths of its length, for the chunked parse.
public enum FeedParserInvariants {
  /// The URL the documents are parsed as coming from, so that relative URLs resolve.
  static let feedURL = "https://feeds.example.com/show/feed.xml"

  /// Each broken invariant, described; empty when all hold.
  public static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
    guard let cutByte = input.first else { return [] }
    let document = UnsafeRawBufferPointer(rebasing: input[1...])
    let cut = document.count * Int(cutByte) / 255

    let whole = outcome { try FeedParser.parse(Data(document), feedURL: feedURL) }
    var streamed: [Episode] = []
    var kept = 0
    let chunked = outcome {
      let parser = FeedParser(feedURL: feedURL) { streamed.append($0) }
      try parser.feed(UnsafeRawBufferPointer(rebasing: document[..<cut]))
      try parser.feed(UnsafeRawBufferPointer(rebasing: document[cut...]))
      var podcast = try parser.finish()
      kept = podcast.episodes.count
      podcast.episodes = streamed
      return podcast
    }
    var found = compare(whole, chunked, cut: cut)
    if kept > 0 { found.append("the parser kept \(kept) episodes it also handed to onEpisode") }
    return found
  }

  private enum Outcome: Equatable {
    case success(Podcast)
    case failure(String)
  }

  private static func outcome(_ parse: () throws -> Podcast) -> Outcome {
    do {
      return .success(try parse())
    } catch {
      return .failure(String(describing: error))
    }
  }

  private static func compare(_ whole: Outcome, _ chunked: Outcome, cut: Int) -> [String] {
    guard whole != chunked else { return [] }
    let context = "parsed whole and cut at byte \(cut) with streamed episodes"
    switch (whole, chunked) {
    case (.success(let one), .success(let other)):
      // What libxml2 recovers from, it recovers from differently depending on where its
      // input was cut (libxml2 2.9's push parser); only documents it reads without an error
      // must come out the same.
      if recoveredFromErrors(one) || recoveredFromErrors(other) { return [] }
      return differences(one, other).map { "\(context), \($0)" }
    default:
      return ["\(context), the outcomes differ: \(describe(whole)) / \(describe(chunked))"]
    }
  }

  private static func recoveredFromErrors(_ podcast: Podcast) -> Bool {
    podcast.warnings.contains { $0.hasPrefix("XML errors recovered from") }
  }

  private static func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .success(let podcast): "a \(podcast.format) feed of \(podcast.episodes.count) episodes"
    case .failure(let error): "error \"\(error)\""
    }
  }

  /// The fields that differ, named, so that a report says what went wrong.
  private static func differences(_ one: Podcast, _ other: Podcast) -> [String] {
    var found = fieldDifferences(one, other, prefix: "")
    for (index, pair) in zip(one.episodes, other.episodes).enumerated() where pair.0 != pair.1 {
      found += fieldDifferences(pair.0, pair.1, prefix: "episode \(index) ")
    }
    return found.isEmpty ? ["the podcasts differ: \(one) / \(other)"] : found
  }

  private static func fieldDifferences<Value>(_ one: Value, _ other: Value, prefix: String)
    -> [String]
  {
    zip(Mirror(reflecting: one).children, Mirror(reflecting: other).children).compactMap {
      let (a, b) = (String(reflecting: $0.value), String(reflecting: $1.value))
      guard a != b, let label = $0.label, label != "episodes" else { return nil }
      return "\(prefix)\(label) differs: \(a) / \(b)"
    }
  }
}
