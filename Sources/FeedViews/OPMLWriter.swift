import Foundation

/// Writes a subscription list as OPML 2.0, the format podcast apps exchange subscriptions
/// in: one `<outline type="rss">` per feed in a flat `<body>`.
///
/// The output is well-formed whatever the strings hold: `&`, `<`, `>` and `"` are escaped,
/// tab, line feed and carriage return become character references (so that attribute
/// normalisation does not turn them into spaces), and what XML 1.0 cannot carry at all (the
/// other C0 controls, U+FFFE, U+FFFF) is left out. Everything else is written as UTF-8.
public struct OPMLWriter: Sendable {
  /// One subscription. Text is plain text, not HTML: ``HTMLText/singleLine(_:)`` of a
  /// catalog title.
  public struct Feed: Sendable, Hashable {
    public var title: String?
    public var feedURL: String
    public var siteURL: String?

    public init(title: String?, feedURL: String, siteURL: String? = nil) {
      self.title = title
      self.feedURL = feedURL
      self.siteURL = siteURL
    }
  }

  /// The `<head><title>`.
  public var title: String
  /// The `<head><dateCreated>`, written as an RFC 822 date in GMT.
  public var dateCreated: Date

  public init(title: String = "podcasts subscriptions", dateCreated: Date) {
    self.title = title
    self.dateCreated = dateCreated
  }

  /// The whole document, UTF-8, ending with a line feed.
  public func document(_ feeds: [Feed]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256 + feeds.count * 160)
    out.append(
      contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n".utf8)
    out.append(contentsOf: "  <head>\n    <title>".utf8)
    Self.appendEscaped(title, to: &out)
    out.append(contentsOf: "</title>\n".utf8)
    if let date = Self.rfc822(dateCreated) {
      out.append(contentsOf: "    <dateCreated>\(date)</dateCreated>\n".utf8)
    }
    out.append(contentsOf: "  </head>\n  <body>\n".utf8)
    for feed in feeds {
      let title = feed.title.flatMap { $0.isEmpty ? nil : $0 }
      out.append(contentsOf: "    <outline type=\"rss\" text=\"".utf8)
      // OPML requires `text`: an untitled feed shows its address.
      Self.appendEscaped(title ?? feed.feedURL, to: &out)
      if let title {
        out.append(contentsOf: "\" title=\"".utf8)
        Self.appendEscaped(title, to: &out)
      }
      out.append(contentsOf: "\" xmlUrl=\"".utf8)
      Self.appendEscaped(feed.feedURL, to: &out)
      if let site = feed.siteURL, !site.isEmpty {
        out.append(contentsOf: "\" htmlUrl=\"".utf8)
        Self.appendEscaped(site, to: &out)
      }
      out.append(contentsOf: "\"/>\n".utf8)
    }
    out.append(contentsOf: "  </body>\n</opml>\n".utf8)
    return out
  }

  /// `text` escaped for an attribute value or element content.
  static func appendEscaped(_ text: String, to out: inout [UInt8]) {
    let bytes = text.utf8
    var index = bytes.startIndex
    while index != bytes.endIndex {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
      case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
      case 0x09: out.append(contentsOf: "&#9;".utf8)
      case 0x0A: out.append(contentsOf: "&#10;".utf8)
      case 0x0D: out.append(contentsOf: "&#13;".utf8)
      case 0..<0x20: break
      case 0xEF:
        // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
        let second = bytes.index(after: index)
        let third = second == bytes.endIndex ? second : bytes.index(after: second)
        if third != bytes.endIndex, bytes[second] == 0xBF, bytes[third] >= 0xBE {
          index = third
        } else {
          out.append(byte)
        }
      default: out.append(byte)
      }
      index = bytes.index(after: index)
    }
  }

  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Tue, 05 Mar 2024 14:07:00 GMT` (RFC 822 with a four-digit year, as RFC 1123 has it);
  /// nil for a date outside the years 1-9999.
  static func rfc822(_ date: Date) -> String? {
    guard let time = CivilTime(date) else { return nil }
    let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    // 1970-01-01 was a Thursday.
    let weekday = weekdays[((days + 4) % 7 + 7) % 7]
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = String(time.year)
    return "\(weekday), \(two(time.day)) \(months[time.month - 1]) "
      + String(repeating: "0", count: max(0, 4 - year.count)) + year
      + " \(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT"
  }
}
