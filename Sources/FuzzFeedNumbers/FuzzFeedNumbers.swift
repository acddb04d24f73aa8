import FuzzSupport

/// Fuzzes `FeedDuration` and `FeedNumber` on any text.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzDriver.check(data, size) {
    ReaderInvariants.durationViolations($0) + ReaderInvariants.numberViolations($0)
  }
}

@main
enum FuzzFeedNumbers {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
