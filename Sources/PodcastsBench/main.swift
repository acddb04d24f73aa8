import FeedParser
import Foundation
import PodcastModel

/// In-process figures for BENCHMARKS.md: `PodcastsBench FIGURE FILE [RUNS]` prints the median
/// wall time of RUNS runs of one stage of the work on FILE.
let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: PodcastsBench parse-models FILE [RUNS]\n".utf8))
  exit(2)
}
let figure = arguments[1]
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let file = URL(fileURLWithPath: arguments[2])

func readChunks(_ url: URL, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
  let handle = try FileHandle(forReadingFrom: url)
  defer { try? handle.close() }
  while let chunk = try handle.read(upToCount: 256 << 10), !chunk.isEmpty {
    try chunk.withUnsafeBytes(body)
  }
}

func measure(_ body: () throws -> Int) rethrows {
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

switch figure {
case "parse-models":
  try measure {
    let parser = FeedParser(feedURL: nil)
    try readChunks(file) { try parser.feed($0) }
    return try parser.finish().episodes.count
  }
default:
  FileHandle.standardError.write(Data("unknown figure \(figure)\n".utf8))
  exit(2)
}
