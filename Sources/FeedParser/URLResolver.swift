import Foundation
import PodcastModel

/// Makes the URLs a feed gives absolute: against xml:base, then the document's base.
enum URLResolver {
  /// `raw` trimmed and resolved against `base`; nil when blank. Stays relative when there is
  /// no base to resolve against.
  static func resolve(_ raw: String, against base: String?, defaultScheme: String) -> String? {
    let trimmed = raw.trimmingWhitespace()
    if trimmed.isEmpty { return nil }
    if hasScheme(trimmed) { return trimmed }
    if trimmed.hasPrefix("//") {
      let scheme = base.flatMap(scheme(of:)) ?? defaultScheme
      return scheme + ":" + trimmed
    }
    guard let base, let baseURL = URL(string: base) ?? URL(string: escapeSpaces(base)) else {
      return trimmed
    }
    let relative =
      URL(string: trimmed, relativeTo: baseURL)
      ?? URL(string: escapeSpaces(trimmed), relativeTo: baseURL)
    return relative?.absoluteString ?? trimmed
  }

  static func hasScheme(_ url: String) -> Bool {
    schemeLength(url) != nil
  }

  /// The scheme of an absolute URL (`[A-Za-z][A-Za-z0-9+.-]*:`), lower-cased.
  static func scheme(of url: String) -> String? {
    guard let length = schemeLength(url) else { return nil }
    return String(decoding: url.utf8.prefix(length), as: UTF8.self).lowercased()
  }

  /// The length of the scheme of an absolute URL; nil when there is none. Read from the
  /// bytes, with no String made: every URL of a feed goes through here.
  private static func schemeLength(_ url: String) -> Int? {
    var length = 0
    for c in url.utf8 {
      if c == 0x3A { return length == 0 ? nil : length }
      let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
      let other = (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E
      guard letter || (length > 0 && other) else { return nil }
      length += 1
    }
    return nil
  }

  private static func escapeSpaces(_ s: String) -> String {
    s.replacingOccurrences(of: " ", with: "%20")
  }
}
