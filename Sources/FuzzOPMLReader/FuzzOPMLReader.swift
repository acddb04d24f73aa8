import FuzzSupport

/// Fuzzes `OPMLReader` on any bytes: the promises of `OPMLDocument` and `OPMLEntry`.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzDriver.check(data, size, OPMLInvariants.violations)
}

@main
enum FuzzOPMLReader {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
