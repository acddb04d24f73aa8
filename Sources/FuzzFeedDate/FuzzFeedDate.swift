import FuzzSupport

/// Fuzzes `FeedDate` on any text.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzDriver.check(data, size, ReaderInvariants.dateViolations)
}

@main
enum FuzzFeedDate {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
