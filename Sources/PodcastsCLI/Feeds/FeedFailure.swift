import FeedViews

/// Why one feed of several could not be handled: said on one line that names the feed,
/// its password masked.
struct FeedFailure: Error, Sendable, CustomStringConvertible {
  let feed: String
  let reason: String

  init(_ feed: String, _ reason: String) {
    self.feed = URLMasking.maskingCredentials(feed)
    self.reason = reason
  }

  init(_ feed: String, _ error: any Error) {
    // A fetch error names its address itself; the others need the feed added.
    let text = String(describing: error)
    let masked = URLMasking.maskingCredentials(feed)
    self.init(feed, text.hasPrefix(masked + ": ") ? String(text.dropFirst(masked.count + 2)) : text)
  }

  var description: String { "\(feed): \(reason)" }
}

extension String {
  /// The string, or nil when it is empty.
  var nonEmpty: String? { isEmpty ? nil : self }
}
