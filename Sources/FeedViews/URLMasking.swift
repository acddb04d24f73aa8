import Foundation

/// URLs as printed: a password in the URL never reaches a terminal, a log or a JSON file.
public enum URLMasking {
  /// `https://user:pass@host/feed` -> `https://user:***@host/feed`. A URL without a password
  /// comes back unchanged.
  public static func maskingCredentials(_ url: String) -> String {
    // Nearly every URL has no `@` at all: looked for with memchr, not byte by byte.
    guard hasAt(url), let separator = url.range(of: "://") else {
      return url
    }
    let scheme = url.utf8[..<separator.lowerBound]
    guard let first = scheme.first, isLetter(first),
      scheme.allSatisfy({ isLetter($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
    else { return url }
    let authorityStart = separator.upperBound
    let authorityEnd =
      url[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
      ?? url.endIndex
    let authority = url[authorityStart..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"),
      let colon = authority[..<at].firstIndex(of: ":"),
      url.index(after: colon) < at
    else { return url }
    return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
  }

  private static func hasAt(_ url: String) -> Bool {
    let found = url.utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, Int32(UInt8(ascii: "@")), bytes.count) != nil
    }
    return found ?? url.utf8.contains(UInt8(ascii: "@"))
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
