import FuzzSupport

/// Fuzzes `FeedParser` on any bytes: whole, and cut in two chunks with episodes streamed.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzDriver.check(data, size, FeedParserInvariants.violations)
}

@main
enum FuzzFeedParser {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
