import FeedParser
import Foundation
import PodcastModel

/// What must hold for any bytes handed to ``FeedParser``: besides not crashing, the result
/// may not depend on how the document is cut into chunks, nor on whether episodes are kept
/// or streamed.
///
/// The first byte of an input is not part of the document: it says where to cut it, in
/// 255ths of its length, for the chunked parse.
public enum FeedParserInvariants {
  /// The URL the documents are parsed as coming from, so that relative URLs resolve.
  static let feedURL = "https://feeds.example.com/show/feed.xml"

  /// Each broken invariant, described; empty when all hold.
  public static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
    guard let cutByte = input.first else {
      return []
    }
    let document = UnsafeRawBufferPointer(rebasing: input[1...])
    let cut = document.count * Int(cutByte) / 255

    let whole = outcome { try FeedParser.parse(Data(document), feedURL: feedURL) }
    var streamed: [Episode] = []
    let chunked = outcome {
      let parser = FeedParser(feedURL: feedURL) { streamed.append($0) }
      try parser.feed(UnsafeRawBufferPointer(rebasing: document[..<cut]))
      try parser.feed(UnsafeRawBufferPointer(rebasing: document[cut...]))
      var podcast = try parser.finish()
      if !podcast.episodes.isEmpty {
        return .failure("the parser kept \(podcast.episodes.count) episodes it streamed")
      }
      podcast.episodes = streamed
      return .success(podcast)
    }
    return compare(whole, chunked, cut: cut)
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

  private static func outcome(_ parse: () throws -> Outcome) -> Outcome {
    do {
      return try parse()
    } catch {
      return .failure(String(describing: error))
    }
  }

  private static func compare(_ whole: Outcome, _ chunked: Outcome, cut: Int) -> [String] {
    guard whole != chunked else { return [] }
    let context = "parsed whole and cut at byte \(cut) with streamed episodes"
    switch (whole, chunked) {
    case (.success(let one), .success(let other)):
      return differences(one, other).map { "\(context), \($0)" }
    default:
      return ["\(context), the outcomes differ: \(describe(whole)) / \(describe(chunked))"]
    }
  }

  private static func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .success(let podcast): "a \(podcast.format) feed of \(podcast.episodes.count) episodes"
    case .failure(let error): "error \"\(error)\""
    }
  }

  /// The fields that differ, named, so that a report says what went wrong.
  private static func differences(_ one: Podcast, _ other: Podcast) -> [String] {
    var found: [String] = []
    func note<Value: Equatable>(_ name: String, _ a: Value, _ b: Value) {
      if a != b { found.append("\(name) differs: \(a) / \(b)") }
    }
    note("id", one.id, other.id)
    note("format", one.format, other.format)
    note("title", one.title, other.title)
    note("description", one.description, other.description)
    note("warnings", one.warnings, other.warnings)
    note("episode count", one.episodes.count, other.episodes.count)
    for (index, pair) in zip(one.episodes, other.episodes).enumerated() where pair.0 != pair.1 {
      found.append("episode \(index) differs: \(pair.0) / \(pair.1)")
      break
    }
    var rest = (one, other)
    rest.0.episodes = []
    rest.1.episodes = []
    rest.0.warnings = []
    rest.1.warnings = []
    if found.isEmpty || rest.0 != rest.1 {
      found.append("podcast differs: \(rest.0) / \(rest.1)")
    }
    return found
  }
}
