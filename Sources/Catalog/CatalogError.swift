/// What can go wrong in the catalog besides a failing SQL statement (``SQLiteError``).
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A podcast that could be meant by an ambiguous reference.
  public struct Candidate: Sendable, Hashable {
    public var id: String
    public var title: String?

    public init(id: String, title: String?) {
      self.id = id
      self.title = title
    }
  }

  /// No home folder and no `XDG_DATA_HOME` to put the default catalog in.
  case noDataDirectory
  case cannotCreateDirectory(path: String, reason: String)
  case cannotOpen(path: String, reason: String)
  /// The file can be read but not written, not even by root (an immutable file).
  case readOnly(path: String)
  /// The file exists but is not an SQLite database.
  case notADatabase(path: String)
  /// SQLite found the file damaged (truncated, overwritten).
  case corruptDatabase(path: String, reason: String)
  /// An SQLite database that some other program made.
  case foreignDatabase(path: String)
  /// Written by a newer version of podcasts, whose schema this one does not know.
  case newerSchema(path: String, version: Int, supported: Int)
  case notFound(reference: String)
  case ambiguousReference(reference: String, candidates: [Candidate])
  /// The feed URL already belongs to another podcast.
  case feedURLInUse(url: String, podcastID: String)
  /// The feed at `url`, stored as `storedID`, now names `claimedID` (its `podcast:guid`),
  /// which the catalog holds from `claimedFeedURL`: two podcasts would become one.
  case podcastIDInUse(url: String, claimedID: String, claimedFeedURL: String, storedID: String)
  case invalidFeedURL(String)
  /// A value in the file that this version cannot read, e.g. after editing by hand.
  case invalidStoredValue(table: String, column: String, value: String)
  /// ``FeedWriter/add(_:)`` called after its save had ended.
  case writerClosed

  public var description: String {
    switch self {
    case .noDataDirectory:
      return "cannot locate the catalog: neither XDG_DATA_HOME nor HOME is set"
    case .cannotCreateDirectory(let path, let reason):
      return "cannot create the catalog folder \(path): \(reason)"
    case .cannotOpen(let path, let reason):
      return "cannot open the catalog \(path): \(reason)"
    case .readOnly(let path):
      return "cannot write to the catalog \(path): it is read-only"
    case .notADatabase(let path):
      return "\(path) is not an SQLite database; not touching it"
    case .corruptDatabase(let path, let reason):
      return "the catalog \(path) is damaged (\(reason)); not touching it"
    case .foreignDatabase(let path):
      return "\(path) is an SQLite database of another program, not a podcasts catalog"
    case .newerSchema(let path, let version, let supported):
      return
        "the catalog \(path) has schema version \(version), newer than this podcasts knows (\(supported)); upgrade podcasts"
    case .notFound(let reference):
      return "no podcast matches '\(reference)'"
    case .ambiguousReference(let reference, let candidates):
      let list = candidates.map { "\($0.id) (\(Self.oneLine($0.title ?? "untitled")))" }
      return "'\(reference)' matches \(candidates.count) podcasts: " + list.joined(separator: ", ")
    case .feedURLInUse(let url, let podcastID):
      return "the feed URL \(url) already belongs to podcast \(podcastID)"
    case .podcastIDInUse(let url, let claimedID, let claimedFeedURL, let storedID):
      return
        "the feed at \(url) (podcast \(storedID)) now gives podcast:guid \(claimedID), the podcast of \(claimedFeedURL); "
        + "both are kept apart, and this feed was not saved"
    case .invalidFeedURL(let url):
      return "invalid feed URL '\(url)'"
    case .invalidStoredValue(let table, let column, let value):
      let shown = value.count > 80 ? value.prefix(80) + "…" : value
      return "unreadable value '\(Self.oneLine(shown))' in \(table).\(column)"
    case .writerClosed:
      return "episodes were added to a feed save that had already ended"
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
