import Foundation
import PodcastModel
import Testing

/// What SampleFeeds/README.md says a parser must get out of each sample feed, as tables.
/// Titles and authors are compared as single-line text, descriptions as plain text, times
/// as ISO 8601 in UTC. A field a table leaves out is not checked; `nil` states null.
enum SampleFeedFacts {
  struct PodcastFacts: Sendable, CustomTestStringConvertible {
    let file: String
    var format: FeedFormat
    var episodeCount: Int
    var id: Stated<String> = .unstated
    var feedUrl: Stated<String> = .unstated
    var title: Stated<String> = .unstated
    /// Any of these: the README names the source of an author, not always its value.
    var author: [String]? = nil
    var description: Stated<String> = .unstated
    var link: Stated<String> = .unstated
    var language: Stated<String> = .unstated
    var imageUrl: Stated<String> = .unstated
    var categories: Stated<[String]> = .unstated
    var explicit: Stated<Bool> = .unstated
    var newFeedUrl: Stated<String> = .unstated
    var testDescription: String { file }
  }

  struct EpisodeFacts: Sendable, CustomTestStringConvertible {
    var file: String
    let index: Int
    var title: Stated<String> = .unstated
    var guid: Stated<String> = .unstated
    var link: Stated<String> = .unstated
    var published: Stated<String> = .unstated
    var duration: Stated<Int> = .unstated
    /// `nil` states that the episode has no enclosure at all.
    var enclosureURL: Stated<String> = .unstated
    var enclosureType: Stated<String> = .unstated
    var enclosureLength: Stated<Int> = .unstated
    var season: Stated<Int> = .unstated
    var episode: Stated<Int> = .unstated
    var episodeType: Stated<String> = .unstated
    var explicit: Stated<Bool> = .unstated
    var imageUrl: Stated<String> = .unstated
    /// Each transcript as `type language`, in feed order.
    var transcripts: Stated<[String]> = .unstated
    var chaptersURL: Stated<String> = .unstated
    var description: Stated<String> = .unstated
    var testDescription: String { "\(file) episode \(index + 1)" }

    /// The same facts about the episode at the same place in `other`.
    func `in`(_ other: String) -> EpisodeFacts {
      var copy = self
      copy.file = other
      return copy
    }
  }

  /// A warning the README requires: some warning of the feed must satisfy `matches`.
  struct WarningFact: Sendable, CustomTestStringConvertible {
    let file: String
    let repair: String
    let matches: @Sendable (String) -> Bool
    var testDescription: String { "\(file): \(repair)" }
  }

  static let tidepool = PodcastFacts(
    file: "full-rss2.xml", format: .rss2, episodeCount: 4,
    id: "1dee190e-173f-5586-ad29-300b960f9312",
    feedUrl: "https://feeds.example.com/tidepool.xml", title: "Tidepool Radio",
    author: ["Marisol Okafor"],
    imageUrl: "https://tidepool.example.com/art/cover-3000.jpg",
    categories: ["Science/Nature", "Kids & Family", "Marine biology"], explicit: false,
    newFeedUrl: nil)

  static let podcasts: [PodcastFacts] = [
    tidepool,
    PodcastFacts(
      file: "prefix-it.xml", format: tidepool.format, episodeCount: tidepool.episodeCount,
      id: tidepool.id, feedUrl: tidepool.feedUrl, title: tidepool.title,
      author: tidepool.author, imageUrl: tidepool.imageUrl, categories: tidepool.categories,
      explicit: tidepool.explicit, newFeedUrl: tidepool.newFeedUrl),
    PodcastFacts(
      file: "atom-podcast.xml", format: .atom10, episodeCount: 3,
      feedUrl: "https://lantern.example.org/show/feed.atom", title: "Lantern Hours",
      description: "Ghost stories from lighthouse keepers, read aloud after dark.",
      link: "https://lantern.example.org/show/",
      imageUrl: "https://lantern.example.org/show/art/cover.jpg"),
    PodcastFacts(
      file: "atom03.xml", format: .atom03, episodeCount: 2, title: "Orchard Notes",
      description: "A beekeeper and an apple grower trade notes every fortnight."),
    PodcastFacts(
      file: "rss1.rdf", format: .rss1, episodeCount: 2, title: "The Night Moth Census",
      author: ["Gwen Achterberg"], language: "en"),
    PodcastFacts(
      file: "rss091.xml", format: .rss09x, episodeCount: 2, title: "Dial-Up Diaries",
      author: ["host@dialup.example.com (Ruth Calloway)", "Ruth Calloway"],
      imageUrl: "http://dialup.example.com/images/logo.gif"),
    PodcastFacts(
      file: "latin1.xml", format: .rss2, episodeCount: 2, title: "Épicerie Fine",
      author: ["Chloé Dubreuil-Muñoz"]),
    PodcastFacts(
      file: "utf8-declared-latin1-bytes.xml", format: .rss2, episodeCount: 2,
      title: "Café Olé Sessions"),
    PodcastFacts(
      file: "utf16.xml", format: .rss2, episodeCount: 1,
      title: "Żółw i Żuraw — Polish & Japanese folk tales",
      author: ["Łucja Wróbel & 佐藤 花子"],
      description: "Bajki czytane po polsku i 日本語の昔話, one of each per episode. 🎙"),
    PodcastFacts(
      file: "broken.xml", format: .rss2, episodeCount: 3, title: "Static & Noise",
      description: "Repairing old radios on air. Every fortnight, Renée’s workbench."),
    PodcastFacts(file: "no-guids.xml", format: .rss2, episodeCount: 4, title: "Marginalia"),
    PodcastFacts(
      file: "podcastindex-old-namespace.xml", format: .rss2, episodeCount: 1,
      id: "056c7019-3471-514e-9438-0ce2d1e5bc62", title: "Switchyard"),
    PodcastFacts(
      file: "new-feed-url.xml", format: .rss2, episodeCount: 1, title: "Kiln Talk",
      newFeedUrl: "https://feeds.example.org/kiln-talk.xml"),
  ]

  static let tidepoolEpisodes: [EpisodeFacts] = [
    EpisodeFacts(
      file: "full-rss2.xml", index: 0, title: "Anemones Don't Blink", guid: "tidepool-s1e3",
      published: "2024-03-15T09:00:00Z", duration: 3723,
      enclosureURL: "https://cdn.example.com/tidepool/s1e3.mp3?a=1&b=2",
      enclosureLength: 59_612_345, season: 1, episode: 3, episodeType: "full", explicit: false,
      imageUrl: "https://tidepool.example.com/art/s1e3.jpg",
      transcripts: ["text/vtt en", "application/x-subrip es"],
      chaptersURL: "https://tidepool.example.com/chapters/s1e3.json",
      description: .value(
        "How a sea anemone hunts without eyes.\n\nStinging cells & how they fire\n\n"
          + "Why it never lets go\n\nGuest: Inés Varga")),
    EpisodeFacts(
      file: "full-rss2.xml", index: 1, title: "The Hermit Crab Housing Market",
      guid: "tidepool-s1e2", published: "2024-03-08T09:00:00Z", duration: 1530,
      explicit: false),
    EpisodeFacts(
      file: "full-rss2.xml", index: 2, title: "Bonus: Listener Questions About Starfish",
      guid: "tidepool-bonus-1", duration: 1831, enclosureType: "audio/x-m4a", episode: nil,
      episodeType: "bonus", explicit: true),
    EpisodeFacts(
      file: "full-rss2.xml", index: 3, title: "Trailer: Welcome to the Tidepool",
      duration: 95, episodeType: "trailer", explicit: nil),
  ]

  static let episodes: [EpisodeFacts] =
    tidepoolEpisodes + tidepoolEpisodes.map { $0.in("prefix-it.xml") } + [
      EpisodeFacts(
        file: "atom-podcast.xml", index: 0, title: "The Keeper Who Counted Gulls",
        link: "https://lantern.example.org/show/episodes/2", published: "2024-02-20T20:00:00Z",
        duration: 1965, enclosureURL: "https://lantern.example.org/show/audio/episode-2.mp3",
        description: .value(
          "A keeper counts the same gull twice a night, then three times.\n\nRead by Ada Moreau.")
      ),
      EpisodeFacts(
        file: "atom-podcast.xml", index: 1, title: "Fog & Foghorns",
        link: "https://archive.example.net/lantern/1.html", duration: 1770,
        enclosureURL: "https://archive.example.net/lantern/mp3/1.mp3",
        imageUrl: "https://archive.example.net/lantern/art/episode-1.jpg",
        description: "The foghorn answers a ship that is not there."),
      EpisodeFacts(
        file: "atom-podcast.xml", index: 2, title: "Announcement: Season Two",
        link: "https://lantern.example.org/show/news/season-two",
        published: "2024-02-01T12:00:00Z",
        enclosureURL: "https://lantern.example.org/show/audio/announcement.ogg",
        enclosureType: "audio/ogg"),
      EpisodeFacts(
        file: "atom03.xml", index: 0, title: "Swarm Season", published: "2005-05-02T18:30:00Z",
        enclosureURL: "https://orchard.example.com/audio/swarm-season.mp3",
        description: "Why a hive splits in May."),
      EpisodeFacts(
        file: "atom03.xml", index: 1, title: "Grafting by Hand",
        published: "2005-04-18T19:00:00Z",
        enclosureURL: "https://orchard.example.com/audio/grafting.mp3",
        description: "Whip-and-tongue grafts, step by step."),
      EpisodeFacts(
        file: "rss1.rdf", index: 0, title: "Elephant Hawk-moths in July",
        published: "2006-07-14T04:30:00Z",
        enclosureURL: "https://moth.example.org/audio/2006-07-13.mp3",
        enclosureType: "audio/mpeg", enclosureLength: 9_437_184,
        description: "Forty-one moths of nine species, including two elephant hawk-moths."),
      EpisodeFacts(
        file: "rss1.rdf", index: 1, title: "A Quiet Night", published: "2006-06-30T00:00:00Z",
        enclosureURL: nil),
      EpisodeFacts(
        file: "rss091.xml", index: 0, title: "The Handshake, Slowed Down", guid: nil,
        link: "http://dialup.example.com/shows/handshake.html", published: nil,
        enclosureURL: nil,
        description: "We play a 56k handshake at a tenth of its speed and name every tone."),
      EpisodeFacts(
        file: "rss091.xml", index: 1, title: "Busy Signals", guid: nil,
        link: "http://dialup.example.com/shows/busy.html", published: nil, enclosureURL: nil,
        description: "Listeners call in with the numbers they could never get through to."),
      EpisodeFacts(
        file: "latin1.xml", index: 0, title: "Crème brûlée à Zürich",
        published: "2023-12-02T09:00:00Z", duration: 1310,
        description:
          "Une pâtissière suisse, un chalumeau à 1½ kW et la température idéale : 180 °C."),
      EpisodeFacts(
        file: "latin1.xml", index: 1, title: "Señora Peña et le jamón ibérico", duration: 1147,
        description:
          "À Séville, « on ne coupe jamais le jambon à la machine ». Straße, smørrebrød et façade."
      ),
      EpisodeFacts(
        file: "utf8-declared-latin1-bytes.xml", index: 0, title: "Guitarra en el café",
        description: "Tres canciones, un piano desafinado y mucho olé."),
      EpisodeFacts(
        file: "utf8-declared-latin1-bytes.xml", index: 1, title: "Años después",
        description: "Músicos que tocaron aquí hace veinte años vuelven al escenario."),
      EpisodeFacts(
        file: "utf16.xml", index: 0, title: "鶴の恩返し / Wdzięczny żuraw",
        published: "2024-04-07T16:00:00Z", duration: 1638,
        description: "A crane repays a kindness, told twice: 🇵🇱 then 🇯🇵."),
      EpisodeFacts(
        file: "broken.xml", index: 0, title: "Valve Radios Part One", published: nil,
        duration: nil, enclosureURL: "https://static.example.com/audio/1.mp3?a=1&b=2",
        enclosureLength: 180,
        description:
          "Resistors & capacitors: why a < b matters when you read the colour bands."),
      EpisodeFacts(
        file: "broken.xml", index: 1, title: "Crackle, Hum and Hiss", published: nil,
        duration: nil, enclosureLength: nil),
      EpisodeFacts(
        file: "broken.xml", index: 2, title: "Q&A with Listeners",
        published: "2024-03-05T14:07:00Z", duration: 754, enclosureLength: 12_058_624),
      EpisodeFacts(
        file: "podcastindex-old-namespace.xml", index: 0, title: "The Last Lever Frame",
        season: 2, episode: 5, transcripts: ["application/json en-GB"],
        chaptersURL: "https://switchyard.example.net/chapters/5.json"),
      EpisodeFacts(file: "new-feed-url.xml", index: 0, title: "We Have Moved", duration: 65),
    ]

  /// Episode identities the README gives, in feed order.
  static let identities: [(file: String, identities: [String])] = [
    (
      "no-guids.xml",
      [
        "enclosure:https://media.example.com/marginalia/cookbook.mp3",
        "link:https://marginalia.example.com/live 1712170800",
        "link:https://marginalia.example.com/live 1711566000",
        "title:A Pressed Flower in a Field Guide",
      ]
    ),
    // No guid, date or enclosure: the link with an empty date, as the model builds it.
    (
      "rss091.xml",
      [
        "link:http://dialup.example.com/shows/handshake.html",
        "link:http://dialup.example.com/shows/busy.html",
      ]
    ),
  ]

  static func mentions(_ words: String...) -> @Sendable (String) -> Bool {
    { warning in words.allSatisfy { warning.range(of: $0, options: .caseInsensitive) != nil } }
  }

  static let warnings: [WarningFact] = [
    WarningFact(
      file: "broken.xml", repair: "blank lines before <?xml", matches: mentions("before")),
    WarningFact(file: "broken.xml", repair: "bare &", matches: mentions("unescaped", "\"&\"")),
    WarningFact(file: "broken.xml", repair: "undeclared &nbsp;", matches: mentions("&nbsp;")),
    WarningFact(file: "broken.xml", repair: "undeclared &eacute;", matches: mentions("&eacute;")),
    WarningFact(file: "broken.xml", repair: "undeclared &rsquo;", matches: mentions("&rsquo;")),
    WarningFact(file: "broken.xml", repair: "stray </b>", matches: mentions("</b>")),
    WarningFact(file: "broken.xml", repair: "unescaped <", matches: mentions("unescaped", "\"<\"")),
    WarningFact(
      file: "utf8-declared-latin1-bytes.xml", repair: "Latin-1 bytes in a UTF-8 feed",
      matches: { warning in
        mentions("UTF-8")(warning)
          && (mentions("Windows-1252")(warning) || mentions("Latin-1")(warning)
            || mentions("ISO-8859-1")(warning))
      }),
  ]
}
