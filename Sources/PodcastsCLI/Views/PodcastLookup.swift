import Catalog

extension Catalog {
  /// The podcast a user means by `reference` (a full id, an unambiguous prefix, a feed URL),
  /// failing with a message fit for a terminal: the catalog's own messages quote feed titles
  /// and URLs as stored.
  func lookUpPodcast(_ reference: String) throws -> StoredPodcast {
    do {
      return try podcast(matching: reference)
    } catch CatalogError.notFound {
      throw PodcastLookupFailure.notFound(reference: reference)
    } catch CatalogError.ambiguousReference(_, let candidates) {
      throw PodcastLookupFailure.ambiguous(reference: reference, candidates: candidates)
    }
  }
}

/// Why a reference given on the command line names no single podcast.
enum PodcastLookupFailure: Error, Equatable, CustomStringConvertible {
  case notFound(reference: String)
  case ambiguous(reference: String, candidates: [CatalogError.Candidate])

  var description: String {
    switch self {
    case .notFound(let reference):
      return "no podcast matches '\(Shown.message(reference))'; 'podcasts list' shows the ids"
    case .ambiguous(let reference, let candidates):
      let listed = candidates.map {
        "\(Shown.plain($0.id) ?? "") (\(Shown.title($0.title)))"
      }
      return "'\(Shown.message(reference))' matches \(candidates.count) podcasts: "
        + listed.joined(separator: ", ") + "; give more of the id"
    }
  }
}
