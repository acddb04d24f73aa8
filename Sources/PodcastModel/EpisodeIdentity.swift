import Foundation

extension Episode {
  /// The key that tells this episode apart from the others of its podcast: the guid, else
  /// the enclosure URL, else link plus date, else the title. Prefixed by its kind so that a
  /// guid can never collide with an enclosure URL that happens to have the same text.
  /// Nil for an item that carries none of them. The date is in Unix seconds, after a space.
  public var identity: String? {
    if let guid = Self.nonBlank(guid) { return "guid:" + guid }
    if let url = Self.nonBlank(enclosure?.url) { return "enclosure:" + url }
    if let link = Self.nonBlank(link) {
      let seconds = published?.timeIntervalSince1970
      let date = seconds.flatMap { Int64(exactly: $0.rounded(.down)) }.map(String.init) ?? ""
      return date.isEmpty ? "link:" + link : "link:" + link + " " + date
    }
    if let title = Self.nonBlank(title) { return "title:" + title }
    return nil
  }

  private static func nonBlank(_ value: String?) -> String? {
    guard let value else { return nil }
    let trimmed = value.trimmingWhitespace()
    return trimmed.isEmpty ? nil : trimmed
  }
}
