import Foundation

/// One item or entry of a feed. Text fields hold markup, as in ``Podcast``.
public struct Episode: Sendable, Codable, Hashable {
  public var guid: String?
  public var title: String?
  public var description: String?
  public var link: String?
  public var published: Date?
  /// Seconds.
  public var duration: Int?
  public var enclosure: Enclosure?
  public var season: Int?
  public var episode: Int?
  /// `full`, `trailer` or `bonus` as the feed gave it, lower-cased.
  public var episodeType: String?
  public var explicit: Bool?
  public var imageUrl: String?
  public var transcripts: [Transcript]
  public var chapters: Chapters?

  public init(
    guid: String? = nil, title: String? = nil, description: String? = nil, link: String? = nil,
    published: Date? = nil, duration: Int? = nil, enclosure: Enclosure? = nil,
    season: Int? = nil, episode: Int? = nil, episodeType: String? = nil,
    explicit: Bool? = nil, imageUrl: String? = nil, transcripts: [Transcript] = [],
    chapters: Chapters? = nil
  ) {
    self.guid = guid
    self.title = title
    self.description = description
    self.link = link
    self.published = published
    self.duration = duration
    self.enclosure = enclosure
    self.season = season
    self.episode = episode
    self.episodeType = episodeType
    self.explicit = explicit
    self.imageUrl = imageUrl
    self.transcripts = transcripts
    self.chapters = chapters
  }
}

public struct Enclosure: Sendable, Codable, Hashable {
  public var url: String
  public var type: String?
  /// Bytes.
  public var length: Int?

  public init(url: String, type: String? = nil, length: Int? = nil) {
    self.url = url
    self.type = type
    self.length = length
  }
}

public struct Transcript: Sendable, Codable, Hashable {
  public var url: String
  public var type: String?
  public var language: String?

  public init(url: String, type: String? = nil, language: String? = nil) {
    self.url = url
    self.type = type
    self.language = language
  }
}

public struct Chapters: Sendable, Codable, Hashable {
  public var url: String
  public var type: String?

  public init(url: String, type: String? = nil) {
    self.url = url
    self.type = type
  }
}
