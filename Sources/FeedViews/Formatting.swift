import Foundation

/// Durations, dates and sizes written for people.
public enum Formatting {
  /// `1:02:03` from an hour on, `45:10` below; nil for a negative duration.
  public static func duration(_ seconds: Int) -> String? {
    guard seconds >= 0 else { return nil }
    let hours = seconds / 3600
    let minutes = seconds % 3600 / 60
    let rest = seconds % 60
    if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" }
    return "\(minutes):\(twoDigits(rest))"
  }

  /// `2024-03-05`, the calendar day in UTC shifted by `utcOffset` seconds (pass
  /// `TimeZone.current.secondsFromGMT(for: date)` for local time); nil out of years 1-9999.
  public static func date(_ date: Date, utcOffset: Int = 0) -> String? {
    guard let time = CivilTime(date, utcOffset: utcOffset) else { return nil }
    return "\(fourDigits(time.year))-\(twoDigits(time.month))-\(twoDigits(time.day))"
  }

  /// A short date for tables: `Mar 5` in the year of `now`, `Mar 5 2023` in another.
  public static func shortDate(_ date: Date, now: Date, utcOffset: Int = 0) -> String? {
    guard let time = CivilTime(date, utcOffset: utcOffset),
      time.month >= 1 && time.month <= 12
    else { return nil }
    let name = monthNames[time.month - 1]
    if let today = CivilTime(now, utcOffset: utcOffset), today.year == time.year {
      return "\(name) \(time.day)"
    }
    return "\(name) \(time.day) \(time.year)"
  }

  /// `2024-03-05T14:07:00Z`: ISO 8601 in UTC to the second; nil out of years 1-9999.
  public static func timestamp(_ date: Date) -> String? {
    guard let time = CivilTime(date) else { return nil }
    return "\(fourDigits(time.year))-\(twoDigits(time.month))-\(twoDigits(time.day))T"
      + "\(twoDigits(time.hour)):\(twoDigits(time.minute)):\(twoDigits(time.second))Z"
  }

  /// `512 B`, `1.5 kB`, `48 MB`, `1.2 GB`: decimal units, as storage is sold and as
  /// players show episode sizes; one decimal below ten.
  public static func byteCount(_ bytes: Int) -> String {
    let sign = bytes < 0 ? "-" : ""
    let magnitude = Double(bytes.magnitude)
    if magnitude < 1000 { return "\(sign)\(bytes.magnitude) B" }
    let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
    var value = magnitude / 1000
    var unit = 0
    while value >= 999.5 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    let number = value < 9.95 ? "\(tenths / 10).\(tenths % 10)" : String(Int(value.rounded()))
    return "\(sign)\(number) \(units[unit])"
  }

  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }

  private static func fourDigits(_ value: Int) -> String {
    let digits = String(value)
    return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
  }
}
