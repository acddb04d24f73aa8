#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process's file descriptors are connected to.
enum Terminal {
  static let fallbackWidth = 80

  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Columns of the terminal on `descriptor`, nil when it is no terminal or does not say.
  static func columns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// The terminal's width, else `COLUMNS`, else 80.
  static func width(of descriptor: Int32?, environment: [String: String]) -> Int {
    if let descriptor, let columns = columns(of: descriptor) { return columns }
    return columnsVariable(environment) ?? fallbackWidth
  }

  static func columnsVariable(_ environment: [String: String]) -> Int? {
    guard let text = environment["COLUMNS"], let columns = Int(text), columns > 0 else {
      return nil
    }
    return columns
  }
}
