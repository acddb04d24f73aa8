import Foundation

/// Podcast identifiers as the Podcasting 2.0 `podcast:guid` defines them.
public enum PodcastID {
  /// The namespace UUID that Podcasting 2.0 fixes for feed-URL guids.
  static let namespace: [UInt8] = [
    0xea, 0xd4, 0xc2, 0x36, 0xbf, 0x58, 0x58, 0xc6, 0xa2, 0xc6, 0xa6, 0xb2, 0x8d, 0x12, 0x8c, 0xb6,
  ]

  /// UUIDv5 of the feed URL with its scheme and trailing slashes removed, lower-case hex.
  public static func forFeedURL(_ url: String) -> String {
    uuidV5(name: normalizedFeedURL(url))
  }

  /// `https://example.com/feed/` -> `example.com/feed`.
  public static func normalizedFeedURL(_ url: String) -> String {
    var rest = Substring(url.trimmingWhitespace())
    if let range = rest.range(of: "://") {
      let scheme = rest[..<range.lowerBound]
      if !scheme.isEmpty && scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
      {
        rest = rest[range.upperBound...]
      }
    }
    while rest.hasSuffix("/") { rest = rest.dropLast() }
    return String(rest)
  }

  static func uuidV5(name: String) -> String {
    var hash = SHA1.digest(namespace + Array(name.utf8))
    hash[6] = (hash[6] & 0x0f) | 0x50
    hash[8] = (hash[8] & 0x3f) | 0x80
    let hex = hash[0..<16].map { byte -> String in
      let digits = String(byte, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }.joined()
    let chars = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(
      separator: "-")
  }

  /// Whether `candidate` looks like a podcast id or a prefix of one (hex digits and dashes).
  public static func isIDLike(_ candidate: String) -> Bool {
    !candidate.isEmpty && candidate.allSatisfy { $0.isHexDigit || $0 == "-" }
  }
}
