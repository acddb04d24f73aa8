import Foundation
import PodcastModel

/// What an outline's URL attributes may hold to be subscribed to: an absolute http or
/// https URL with a host.
enum OPMLFeedURL {
  enum Verdict: Equatable {
    case accepted(String)
    /// A podcast-app scheme (`feed://`, `itpc://`, `pcast://`, `podcast://`) read as the
    /// http URL it stands for.
    case rewritten(String)
    /// Why the URL cannot be used.
    case rejected(String)
  }

  /// Schemes that podcast apps use to hand a feed over; each means the http URL after it.
  private static let aliasSchemes: Set<String> = ["feed", "itpc", "pcast", "podcast"]

  static func check(_ raw: String) -> Verdict {
    let text = raw.trimmingWhitespace()
    guard let colon = text.firstIndex(of: ":"), let scheme = scheme(text[..<colon]) else {
      return .rejected("it is relative; a feed URL must be absolute (http or https)")
    }
    let rest = text[text.index(after: colon)...]
    switch scheme {
    case "http", "https":
      let url = scheme + ":" + rest
      guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else {
        return .rejected("not a valid URL")
      }
      return .accepted(url)
    case _ where aliasSchemes.contains(scheme):
      // `feed://host/x` means http://host/x; `feed:https://host/x` wraps the URL meant.
      let meant = rest.hasPrefix("//") ? "http:" + rest : String(rest)
      guard let inner = meant.firstIndex(of: ":"),
        ["http", "https"].contains(Self.scheme(meant[..<inner]))
      else { return .rejected("not an http or https URL") }
      if case .accepted(let url) = check(meant) { return .rewritten(url) }
      return .rejected("not a valid URL")
    default:
      return .rejected("not an http or https URL")
    }
  }

  /// `htmlUrl`, kept only when it is an absolute http or https URL: it is informative, so
  /// anything else is dropped without a word.
  static func site(_ raw: String?) -> String? {
    guard let raw, case .accepted(let url) = check(raw) else { return nil }
    return url
  }

  /// The scheme in lower case, when `text` is one (a letter, then letters, digits, `+-.`).
  private static func scheme(_ text: Substring) -> String? {
    guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
      text.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "+-.".unicodeScalars.contains($0))
      })
    else { return nil }
    return text.lowercased()
  }

  /// The URL as warnings show it: a password becomes `***`, so that it never reaches a
  /// terminal or a log.
  static func masked(_ url: String) -> String {
    guard url.contains("@"), let separator = url.range(of: "://") else { return url }
    let authorityEnd =
      url[separator.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? url.endIndex
    let authority = url[separator.upperBound..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"),
      let colon = authority[..<at].firstIndex(of: ":"), url.index(after: colon) < at
    else { return url }
    return url[...colon] + "***" + url[at...]
  }
}
