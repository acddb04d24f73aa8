import Foundation

/// Files the parser tests read: the project's sample feeds and the shared corpus of real
/// feeds, which sits beside the package.
enum TestFiles {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let sampleFeeds = packageRoot.appendingPathComponent("SampleFeeds")
  static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent(
    "shared/corpus")
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  static func corpusFile(_ relative: String) -> URL {
    corpus.appendingPathComponent(relative)
  }

  /// Every file below `folder` (recursively), sorted.
  static func files(under folder: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    else { return [] }
    return walker.compactMap { $0 as? URL }
      .filter { !$0.hasDirectoryPath && $0.lastPathComponent != "LICENSE" }
      .sorted { $0.path < $1.path }
  }

  /// The episode counts feedparser gives for the corpus's podcast feeds.
  static func feedparserEpisodeCounts() -> [(file: String, episodes: Int)] {
    let table =
      (try? String(
        contentsOf: here.appendingPathComponent("corpus-episode-counts.tsv"), encoding: .utf8))
      ?? ""
    return table.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
      let parts = line.split(separator: "\t")
      guard parts.count == 2, let count = Int(parts[1]) else { return nil }
      return (String(parts[0]), count)
    }
  }
}
