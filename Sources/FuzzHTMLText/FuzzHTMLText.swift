import FuzzSupport

/// Fuzzes `HTMLText` and `TerminalText` on any text: the promises of their documentation.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzDriver.check(data, size, TextInvariants.violations)
}

@main
enum FuzzHTMLText {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
