/// A size in bytes as an option takes it: `1048576`, or with a binary suffix, `512K`, `50M`,
/// `1G`.
struct ByteSize: ExpressibleByArgument, Equatable {
  let bytes: Int

  init(bytes: Int) {
    self.bytes = bytes
  }

  private static let units: [(suffix: Character, shift: Int)] = [("G", 30), ("M", 20), ("K", 10)]

  init?(argument: String) {
    var digits = Substring(argument)
    var shift = 0
    if let last = digits.last?.uppercased().first,
      let unit = Self.units.first(where: { $0.suffix == last })
    {
      shift = unit.shift
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let count = Int(digits), count > 0
    else { return nil }
    let (bytes, overflow) = count.multipliedReportingOverflow(by: 1 << shift)
    guard !overflow else { return nil }
    self.bytes = bytes
  }

  static var expectation: String { "a size in bytes, or with a suffix K, M or G such as 50M" }

  var argumentDescription: String {
    for unit in Self.units where bytes % (1 << unit.shift) == 0 {
      return "\(bytes >> unit.shift)\(unit.suffix)"
    }
    return String(bytes)
  }
}
