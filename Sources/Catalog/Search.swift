import Foundation

extension Catalog {
  /// How many of the matching episodes, newest stored first, a search ranks. Scoring every
  /// match of a word found in most of a million episodes takes seconds; this many take
  /// milliseconds, and a query with fewer matches is ranked in full.
  static let episodeSearchCandidates = 5000

  /// Podcasts and episodes whose title or description hold every word of `text`, best first
  /// (bm25, titles weighing more than descriptions), at most `limit` of each.
  ///
  /// Episodes are ranked among the most recently stored ones that match (at most
  /// ``episodeSearchCandidates``), which bounds the time a word found in most episodes takes.
  ///
  /// Words are matched as written, never read as FTS5 syntax: quotes, `AND`, `NEAR`, `:` or
  /// parentheses are just text. A word ending in `*` matches as a prefix (`pod*`).
  public func search(_ text: String, limit: Int = 20) throws -> SearchResults {
    guard limit > 0, let expression = SearchExpression.fts5(for: text) else {
      return SearchResults(podcasts: [], episodes: [])
    }
    let podcasts = try connection.query(
      """
      SELECT p.id, p.title, p.feed_url, hit.rank
      FROM (
        SELECT podcast_id, bm25(podcast_search, 0.0, 4.0, 1.0) AS rank
        FROM podcast_search WHERE podcast_search MATCH ?1
        ORDER BY rank LIMIT ?2
      ) AS hit
      JOIN podcasts AS p ON p.id = hit.podcast_id
      ORDER BY hit.rank
      """, expression, limit
    ) { row in
      PodcastMatch(
        podcastID: row.string(0) ?? "", title: row.string(1), feedURL: row.string(2) ?? "",
        score: -(row.double(3) ?? 0))
    }
    let episodes = try connection.query(
      """
      SELECT e.podcast_id, p.title, hit.rank, \(EpisodeColumns.list(prefix: "e."))
      FROM (
        SELECT episode_id, rank FROM (
          SELECT rowid AS episode_id, bm25(episode_search, 4.0, 1.0) AS rank
          FROM episode_search WHERE episode_search MATCH ?1
          ORDER BY rowid DESC LIMIT ?3
        ) ORDER BY rank LIMIT ?2
      ) AS hit
      JOIN episodes AS e ON e.id = hit.episode_id
      JOIN podcasts AS p ON p.id = e.podcast_id
      ORDER BY hit.rank
      """, expression, limit, Self.episodeSearchCandidates
    ) { row in
      EpisodeMatch(
        podcastID: row.string(0) ?? "", podcastTitle: row.string(1),
        episode: try EpisodeColumns.read(row, from: 3), score: -(row.double(2) ?? 0))
    }
    return SearchResults(podcasts: podcasts, episodes: episodes)
  }
}

extension Catalog {
  /// Rebuilds the search index from the stored titles and descriptions, e.g. after the
  /// HTML-to-text function has improved. Reads every episode, so it takes time on a large
  /// catalog.
  public func rebuildSearchIndex() throws {
    try connection.writeTransaction {
      try connection.executeScript("DELETE FROM podcast_search; DELETE FROM episode_search;")
      try FullTextIndex.indexAll(connection, plainText: plainText)
    }
  }
}

/// Turns what a user typed into an FTS5 query that cannot be a syntax error.
enum SearchExpression {
  /// Every word becomes a quoted FTS5 string (inner quotes doubled), and the strings are
  /// ANDed. Nil when no word has a letter or digit to search for.
  static func fts5(for text: String) -> String? {
    var terms: [String] = []
    for word in text.split(whereSeparator: { $0.isWhitespace }) {
      var word = Substring(word)
      var isPrefix = false
      while word.hasSuffix("*") {
        word = word.dropLast()
        isPrefix = true
      }
      // FTS5 strings end at a NUL, and control characters are never part of a token.
      let cleaned = String(
        String.UnicodeScalarView(word.unicodeScalars.filter { $0.value >= 0x20 }))
      guard cleaned.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
      let quoted = "\"" + cleaned.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      terms.append(isPrefix ? quoted + "*" : quoted)
    }
    return terms.isEmpty ? nil : terms.joined(separator: " ")
  }
}
