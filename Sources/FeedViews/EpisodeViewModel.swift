import Foundation
import PodcastModel

/// An episode ready to show to people: clean text, formatted date, duration and size,
/// masked URLs, nil for what is missing or empty. Not yet terminal-safe: renderers pass
/// every string through ``TerminalText``.
public struct EpisodeViewModel: Sendable, Hashable {
  public var guid: String?
  /// On one line.
  public var title: String?
  /// Paragraphs separated by blank lines; nil when built without descriptions.
  public var description: String?
  public var link: String?
  public var published: Date?
  /// `2024-03-05`, in UTC.
  public var publishedText: String?
  public var duration: Int?
  /// `1:02:03` or `45:10`.
  public var durationText: String?
  public var enclosureUrl: String?
  public var enclosureType: String?
  public var enclosureLength: Int?
  /// `48 MB`; nil for a length of 0, which feeds write for "unknown".
  public var enclosureSizeText: String?
  public var season: Int?
  public var episode: Int?
  public var episodeType: String?
  public var explicit: Bool?
  public var imageUrl: String?
  public var transcriptUrls: [String]
  public var chaptersUrl: String?

  /// `withDescription: false` skips the description, the costly field, for views that do
  /// not show it (tables of many episodes).
  public init(_ episode: Episode, withDescription: Bool = true) {
    guid = ViewText.nonEmpty(episode.guid)
    title = ViewText.line(episode.title)
    description = withDescription ? ViewText.paragraphs(episode.description) : nil
    link = ViewText.url(episode.link)
    published = episode.published
    publishedText = episode.published.flatMap { Formatting.date($0) }
    duration = episode.duration
    durationText = episode.duration.flatMap(Formatting.duration)
    enclosureUrl = ViewText.url(episode.enclosure?.url)
    enclosureType = ViewText.nonEmpty(episode.enclosure?.type)
    enclosureLength = episode.enclosure?.length
    enclosureSizeText = episode.enclosure?.length.flatMap {
      $0 > 0 ? Formatting.byteCount($0) : nil
    }
    season = episode.season
    self.episode = episode.episode
    episodeType = ViewText.nonEmpty(episode.episodeType)
    explicit = episode.explicit
    imageUrl = ViewText.url(episode.imageUrl)
    transcriptUrls = episode.transcripts.compactMap { ViewText.url($0.url) }
    chaptersUrl = ViewText.url(episode.chapters?.url)
  }

  /// The date for a table column: `Mar 5` in the year of `now`, `Mar 5 2023` otherwise.
  public func publishedShortText(now: Date = Date(), utcOffset: Int = 0) -> String? {
    published.flatMap { Formatting.shortDate($0, now: now, utcOffset: utcOffset) }
  }
}
