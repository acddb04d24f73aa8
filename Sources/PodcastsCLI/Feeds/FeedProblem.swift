import FeedParser

/// A feed that could not be read, named by the address it came from: the parser's errors
/// know nothing of where their bytes came from.
struct FeedProblem: Error, CustomStringConvertible {
  let location: String
  let error: FeedParseError

  var description: String { "\(location): \(error)" }
}
