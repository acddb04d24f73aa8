import Foundation

/// Files the tests read: fixtures beside the tests, and the shared corpus, which sits next
/// to the package (`../shared/corpus`).
enum TestFiles {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FeedViewsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package
    .deletingLastPathComponent()
    .appendingPathComponent("shared/corpus")

  /// The feed files of one corpus directory, by name.
  static func feeds(in directory: String) -> [String] {
    let url = corpus.appendingPathComponent(directory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".xml") }.sorted()
  }
}
