import Foundation

/// Small RSS feeds written by tests into their own folders.
enum TestFeeds {
  struct Item {
    var title: String
    var guid: String
    var published: String? = nil
    var duration: String? = nil
    var description: String? = nil
  }

  /// An RSS 2.0 feed with a `podcast:guid`, so its id does not depend on where it is. Text
  /// is put in as given: escape it for XML yourself where it needs escaping.
  static func rss(
    guid: String, title: String, author: String = "Test Author", description: String = "",
    link: String = "https://example.com/", category: String = "Testing", language: String = "en",
    items: [Item]
  ) -> String {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
           xmlns:podcast="https://podcastindex.org/namespace/1.0">
      <channel>
      <title>\(title)</title>
      <podcast:guid>\(guid)</podcast:guid>
      <itunes:author>\(author)</itunes:author>
      <description>\(description)</description>
      <link>\(link)</link>
      <language>\(language)</language>
      <itunes:category text="\(category)"/>

      """
    for item in items {
      xml += "<item><title>\(item.title)</title><guid>\(item.guid)</guid>"
      if let published = item.published { xml += "<pubDate>\(published)</pubDate>" }
      if let duration = item.duration { xml += "<itunes:duration>\(duration)</itunes:duration>" }
      if let description = item.description { xml += "<description>\(description)</description>" }
      xml +=
        "<enclosure url=\"https://media.example.com/\(item.guid).mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>\n"
    }
    return xml + "</channel>\n</rss>\n"
  }

  /// Writes `text` to `name` in `folder` and returns its path.
  static func write(_ text: String, named name: String, in folder: URL) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }
}
