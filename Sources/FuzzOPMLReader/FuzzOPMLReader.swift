import FuzzSupport

/// Fuzzes `OPMLReader` on any bytes: the promises of `OPMLDocument` and `OPMLEntry`.
/// See docs/hardening.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = UnsafeRawBufferPointer(fuzzInput: data, count: size)
  let violations = OPMLInvariants.violations(input)
  // The one place a broken invariant traps: libFuzzer then keeps the input that did it.
  if !violations.isEmpty { fatalError(violations.joined(separator: "\n")) }
  return 0
}

@main
enum FuzzOPMLReader {
  static func main() {
    FuzzDriver.run(fuzzOneInput)
  }
}
