import Foundation
import Testing

@testable import FeedParser

/// The real OPML files of the shared corpus.
@Suite struct OPMLCorpusTests {
  static let folder = TestFiles.corpusFile("opml")

  @Test func radiofeedExport() throws {
    let data = try Data(contentsOf: Self.folder.appendingPathComponent("radiofeed-feeds.opml"))
    let document = try OPMLReader.read(data)
    let listed = String(decoding: data, as: UTF8.self).components(separatedBy: "xmlUrl=").count - 1
    #expect(document.entries.count == listed)
    #expect(document.warnings == [])
    #expect(document.title == "Podcasts for in Radiofeed")
    #expect(document.version == "1.0")
    #expect(document.entries.allSatisfy { $0.folders == ["My Podcasts"] })
    #expect(
      document.entries.first
        == OPMLEntry(
          url: "https://feeds.99percentinvisible.org/99percentinvisible", title: "99% Invisible",
          htmlUrl: "https://99percentinvisible.org", folders: ["My Podcasts"]))
    #expect(
      document.entries.contains {
        $0.title == "Mysterious Radio: Paranormal, UFO & Lore Interviews"
      })
    #expect(document.entries.contains { $0.url == "http://techzinglive.com/?feed=podcast" })
  }

  @Test func radiofeedExportWithAnInvalidEntry() throws {
    let clean = try OPMLReader.read(
      Data(contentsOf: Self.folder.appendingPathComponent("radiofeed-feeds.opml")))
    let document = try OPMLReader.read(
      Data(contentsOf: Self.folder.appendingPathComponent("radiofeed-feeds_with_invalid.opml")))
    #expect(
      document.entries.map(\.url) == clean.entries.map(\.url).filter { !$0.contains("hypnogoria") })
    #expect(
      document.warnings == [
        #"outline "Hypnogoria": feed URL "hypnogoria.libsyn.com/rss" skipped: it is relative; a feed URL must be absolute (http or https)"#
      ])
  }
}
