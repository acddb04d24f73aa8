import Foundation
import PodcastModel

/// Which address a feed's itunes:new-feed-url / podcast:newFeedUrl sends a refresh to.
///
/// Many feeds name their own address there, in another spelling (a trailing slash, another
/// case of host, no credentials); others keep an old `http` address after moving to `https`.
/// Neither is a move. A different http or https address is, and a move from `http` to
/// `https` at the same place too; a move back to plain `http` is refused, as is any other
/// scheme (a feed must not be able to point the catalog at a local file).
enum AnnouncedFeedURL {
  /// The URL to fetch for the announced address, or nil when it is not a move from
  /// `current` (the stored feed URL) or `fetchedFrom` (where the announcing body came from).
  /// Credentials of `current` are added when the new address is on the same host and no
  /// less secure.
  static func target(_ announced: String, current: String, fetchedFrom: String) -> String? {
    let text = announced.trimmingWhitespace()
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
      let currentURL = URL(string: current)
    else { return nil }
    let key = placeKey(url)
    for known in [current, fetchedFrom] {
      guard let knownURL = URL(string: known), placeKey(knownURL) == key else { continue }
      let upgrade = scheme == "https" && knownURL.scheme?.lowercased() == "http"
      if !upgrade { return nil }
    }
    guard url.user == nil, currentURL.user != nil,
      currentURL.host?.lowercased() == host.lowercased(),
      scheme == "https" || currentURL.scheme?.lowercased() == scheme,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let source = URLComponents(url: currentURL, resolvingAgainstBaseURL: false)
    else { return text }
    components.percentEncodedUser = source.percentEncodedUser
    components.percentEncodedPassword = source.percentEncodedPassword
    return components.string ?? text
  }

  /// Whether two feed URLs name the same place, whatever their credentials and spelling.
  static func samePlace(_ a: String, _ b: String) -> Bool {
    guard let first = URL(string: a), let second = URL(string: b) else { return a == b }
    return first.scheme?.lowercased() == second.scheme?.lowercased()
      && placeKey(first) == placeKey(second)
  }

  /// Host (any case), port unless the scheme's default, path without trailing slashes, and
  /// query: what tells one feed's address from another's, scheme and credentials aside.
  private static func placeKey(_ url: URL) -> String {
    let scheme = url.scheme?.lowercased()
    let defaultPort = scheme == "https" ? 443 : 80
    let port = url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
    var path = url.path
    while path.hasSuffix("/") { path.removeLast() }
    let query = url.query.map { "?" + $0 } ?? ""
    return (url.host?.lowercased() ?? "") + port + path + query
  }
}
