import Foundation
import PodcastModel

/// A podcast ready to show to people: clean text, masked URLs, nil for what is missing or
/// empty. Not yet terminal-safe: renderers pass every string through ``TerminalText``.
public struct PodcastViewModel: Sendable, Hashable {
  public var id: String?
  public var feedUrl: String?
  public var format: String
  /// On one line.
  public var title: String?
  /// On one line.
  public var author: String?
  /// Paragraphs separated by blank lines.
  public var description: String?
  public var link: String?
  public var language: String?
  public var imageUrl: String?
  public var categories: [String]
  public var explicit: Bool?
  public var newFeedUrl: String?
  public var episodeCount: Int
  public var warnings: [String]

  public init(_ podcast: Podcast) {
    id = ViewText.nonEmpty(podcast.id)
    feedUrl = ViewText.url(podcast.feedUrl)
    format = podcast.format.rawValue
    title = ViewText.line(podcast.title)
    author = ViewText.line(podcast.author)
    description = ViewText.paragraphs(podcast.description)
    link = ViewText.url(podcast.link)
    language = ViewText.nonEmpty(podcast.language)
    imageUrl = ViewText.url(podcast.imageUrl)
    categories = podcast.categories.filter { !$0.isEmpty }
    explicit = podcast.explicit
    newFeedUrl = ViewText.url(podcast.newFeedUrl)
    episodeCount = podcast.episodes.count
    warnings = podcast.warnings
  }
}

/// The conversions from model fields to printable values, shared by the view models.
enum ViewText {
  static func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }

  static func line(_ markup: String?) -> String? {
    nonEmpty(markup.map(HTMLText.singleLine))
  }

  static func paragraphs(_ markup: String?) -> String? {
    nonEmpty(markup.map(HTMLText.plainText))
  }

  static func url(_ value: String?) -> String? {
    nonEmpty(value).map(URLMasking.maskingCredentials)
  }
}
