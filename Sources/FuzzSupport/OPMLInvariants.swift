import FeedParser
import Foundation
import PodcastModel

/// What must hold for any bytes handed to ``OPMLReader``, as ``OPMLDocument`` and
/// ``OPMLEntry`` promise: feed URLs absolute http or https with a host and trimmed, each feed
/// once, titles and folder names collapsed and not blank, site addresses http or https.
public enum OPMLInvariants {
  /// Each broken invariant, described; empty when all hold.
  public static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
    guard let document = try? OPMLReader.read(Data(input)) else { return [] }
    var found: [String] = []
    if let problem = collapsedProblem(document.title) { found.append("title: \(problem)") }
    if let problem = collapsedProblem(document.version) { found.append("version: \(problem)") }
    var seen: Set<String> = []
    for (index, entry) in document.entries.enumerated() {
      func note(_ problem: String) { found.append("entry \(index): \(problem)") }
      if let problem = webURLProblem(entry.url) {
        note("url \(entry.url.debugDescription): \(problem)")
      }
      if entry.url.first?.isWhitespace == true || entry.url.last?.isWhitespace == true {
        note("url \(entry.url.debugDescription) not trimmed")
      }
      if !seen.insert(PodcastID.normalizedFeedURL(entry.url)).inserted {
        note("url \(entry.url.debugDescription) listed twice")
      }
      if let problem = collapsedProblem(entry.title) { note("title: \(problem)") }
      if entry.title == entry.url { note("title repeats the url") }
      if let site = entry.htmlUrl, let problem = webURLProblem(site) {
        note("htmlUrl \(site.debugDescription): \(problem)")
      }
      for folder in entry.folders {
        if let problem = collapsedProblem(folder) { note("folder: \(problem)") }
      }
    }
    return found
  }

  /// Why `url` is not an absolute http or https URL with a host, or nil.
  static func webURLProblem(_ url: String) -> String? {
    let lowered = url.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
      return "not http or https"
    }
    guard let host = URL(string: url)?.host, !host.isEmpty else { return "no host" }
    return nil
  }

  /// Why `text` is not collapsed XML whitespace with its ends trimmed, or nil.
  static func collapsedProblem(_ text: String?) -> String? {
    guard let text else { return nil }
    if text.isEmpty { return "empty rather than nil" }
    let scalars = Array(text.unicodeScalars)
    if scalars.first == " " || scalars.last == " " { return "untrimmed: \(text.debugDescription)" }
    for (index, scalar) in scalars.enumerated() {
      if scalar == "\t" || scalar == "\n" || scalar == "\r"
        || (scalar == " " && index + 1 < scalars.count && scalars[index + 1] == " ")
      {
        return "whitespace not collapsed: \(text.debugDescription)"
      }
    }
    return nil
  }
}
