import Foundation
import Testing

@testable import PodcastModel

@Suite struct PodcastIDTests {
  @Test(arguments: [
    ("https://mp3s.nashownotes.com/pc20rss.xml", "917393e3-1b1e-5cef-ace4-edaa54e1f810"),
    ("http://mp3s.nashownotes.com/pc20rss.xml/", "917393e3-1b1e-5cef-ace4-edaa54e1f810"),
    ("https://podnews.net/rss", "9b024349-ccf0-5f69-a609-6b82873eab3c"),
    ("podnews.net/rss//", "9b024349-ccf0-5f69-a609-6b82873eab3c"),
  ])
  func specExamples(url: String, id: String) {
    #expect(PodcastID.forFeedURL(url) == id)
  }

  @Test(arguments: [
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
  ])
  func sha1KnownAnswers(message: String, hex: String) {
    let digest = SHA1.digest(Array(message.utf8))
    #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
  }

  @Test(arguments: [
    (Episode(guid: "g1", link: "l"), "guid:g1"),
    (
      Episode(guid: "  ", enclosure: Enclosure(url: "https://e/a.mp3")),
      "enclosure:https://e/a.mp3"
    ),
    (Episode(title: "t", link: "https://e/1"), "link:https://e/1"),
    (Episode(title: "Only a title"), "title:Only a title"),
  ])
  func episodeIdentity(episode: Episode, key: String) {
    #expect(episode.identity == key)
  }
}
