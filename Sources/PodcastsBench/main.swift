import Catalog
import FeedParser
import FeedViews
import Foundation
import PodcastModel

/// In-process figures for BENCHMARKS.md: `PodcastsBench FIGURE FILE [RUNS]` runs one stage of
/// the work on FILE RUNS times and prints the median and the fastest wall time.
///
///   parse-models   bytes to Podcast and Episode values (no text conversion, no output)
///   html-text      HTML to text of every title and description (the feed parsed first)
///   json           the Podcast's JSON written to memory (the feed parsed first)
///   catalog-save   the parse streamed into a new catalog file, as `podcasts add` does
let arguments = CommandLine.arguments
let figures = ["parse-models", "html-text", "json", "catalog-save"]
guard arguments.count >= 3, figures.contains(arguments[1]) else {
  FileHandle.standardError.write(
    Data("usage: PodcastsBench \(figures.joined(separator: "|")) FILE [RUNS]\n".utf8))
  exit(2)
}
let figure = arguments[1]
let runs = max(1, arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5)
let file = URL(fileURLWithPath: arguments[2])

func readChunks(_ url: URL, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
  let handle = try FileHandle(forReadingFrom: url)
  defer { try? handle.close() }
  while let chunk = try handle.read(upToCount: 256 << 10), !chunk.isEmpty {
    try chunk.withUnsafeBytes(body)
  }
}

func parse(onEpisode: ((Episode) throws -> Void)? = nil) throws -> Podcast {
  let parser = FeedParser(onEpisode: onEpisode)
  try readChunks(file) { try parser.feed($0) }
  return try parser.finish()
}

func measure(_ body: () throws -> Int) throws {
  var times: [Double] = []
  var result = 0
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    result = try body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  times.sort()
  print(
    String(
      format: "%@\t%@\tmedian %.3f s\tmin %.3f s\tresult %d", figure, file.lastPathComponent,
      times[times.count / 2], times[0], result))
}

do {
  switch figure {
  case "parse-models":
    try measure { try parse().episodes.count }
  case "html-text":
    let podcast = try parse()
    try measure {
      var characters = 0
      for episode in podcast.episodes {
        characters += HTMLText.singleLine(episode.title ?? "").utf8.count
        characters += HTMLText.plainText(episode.description ?? "").utf8.count
      }
      return characters
    }
  case "json":
    let podcast = try parse()
    try measure {
      var bytes = 0
      var writer = JSONWriter { bytes += $0.count }
      writer.podcast(podcast)
      try writer.finish()
      return bytes
    }
  default:
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-bench-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var run = 0
    try measure {
      run += 1
      let catalog = try Catalog(
        path: folder.appendingPathComponent("catalog-\(run).sqlite3").path,
        plainText: HTMLText.plainText)
      let report = try catalog.saveFeed(feedURL: file.absoluteString, subscribing: Date()) {
        writer in try parse { try writer.add($0) }
      }
      return report.newEpisodes
    }
  }
} catch {
  FileHandle.standardError.write(Data("PodcastsBench: \(error)\n".utf8))
  exit(1)
}
