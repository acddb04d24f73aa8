import FeedViews
import Foundation
import Testing

@Suite struct FormattingTests {
  @Test(arguments: [
    (0, "0:00"), (7, "0:07"), (59, "0:59"), (60, "1:00"), (2710, "45:10"), (3599, "59:59"),
    (3600, "1:00:00"), (3723, "1:02:03"), (36_000, "10:00:00"), (400_000, "111:06:40"),
  ])
  func formatsDurations(seconds: Int, expected: String) {
    #expect(Formatting.duration(seconds) == expected)
  }

  @Test func refusesNegativeDurations() {
    #expect(Formatting.duration(-1) == nil)
  }

  /// Unix seconds and their UTC time, checked with Python's time.gmtime: the epoch, both
  /// sides of it, leap days (2000 is a leap year, 2100 is not), the 32-bit rollover in 2038,
  /// the Gregorian reform and the ends of four-digit years.
  static let epochs: [(Int64, String)] = [
    (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
    (951_782_400, "2000-02-29T00:00:00Z"), (946_684_799, "1999-12-31T23:59:59Z"),
    (1_078_012_800, "2004-02-29T00:00:00Z"), (1_582_934_400, "2020-02-29T00:00:00Z"),
    (1_709_647_620, "2024-03-05T14:07:00Z"), (4_107_542_400, "2100-03-01T00:00:00Z"),
    (2_147_483_647, "2038-01-19T03:14:07Z"), (2_147_483_648, "2038-01-19T03:14:08Z"),
    (-2_208_988_800, "1900-01-01T00:00:00Z"), (-12_219_292_800, "1582-10-15T00:00:00Z"),
    (-62_135_596_800, "0001-01-01T00:00:00Z"), (253_402_300_799, "9999-12-31T23:59:59Z"),
  ]

  @Test(arguments: epochs)
  func formatsTimestamps(seconds: Int64, expected: String) {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    #expect(Formatting.timestamp(date) == expected)
    #expect(Formatting.date(date) == String(expected.prefix(10)))
  }

  @Test func dropsFractionsTowardsThePast() {
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: 59.999)) == "1970-01-01T00:00:59Z")
  }

  @Test func refusesYearsBeyondFourDigits() {
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: 253_402_300_800)) == nil)
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: -62_135_596_801)) == nil)
    #expect(Formatting.timestamp(.distantFuture) != nil)
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: .infinity)) == nil)
    #expect(Formatting.timestamp(Date(timeIntervalSince1970: .nan)) == nil)
  }

  /// The arithmetic against Foundation's Gregorian calendar, over a sweep of moments from
  /// the year 1600 to 2400 in steps that land on every time of day.
  @Test func agreesWithFoundationCalendar() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    var seconds: Int64 = -11_676_096_000
    while seconds < 13_569_465_600 {
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute, .second], from: date)
      let expected = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year ?? 0, parts.month ?? 0,
        parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
      #expect(Formatting.timestamp(date) == expected)
      seconds += 12_345_679
    }
  }

  @Test func shiftsDatesByAnOffset() {
    let date = Date(timeIntervalSince1970: 1_709_683_200 - 60)  // 2024-03-05T23:59:00Z
    #expect(Formatting.date(date) == "2024-03-05")
    #expect(Formatting.date(date, utcOffset: 3600) == "2024-03-06")
    #expect(Formatting.date(date, utcOffset: -86_400) == "2024-03-04")
  }

  @Test func writesShortDatesForTables() {
    let now = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01
    #expect(Formatting.shortDate(Date(timeIntervalSince1970: 1_709_647_620), now: now) == "Mar 5")
    #expect(
      Formatting.shortDate(Date(timeIntervalSince1970: 1_672_531_200), now: now) == "Jan 1 2023")
    #expect(Formatting.shortDate(Date(timeIntervalSince1970: 1e15), now: now) == nil)
  }

  @Test(arguments: [
    (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1499, "1.5 kB"), (9949, "9.9 kB"),
    (9950, "10 kB"), (999_499, "999 kB"), (999_500, "1.0 MB"), (48_300_000, "48 MB"),
    (1_200_000_000, "1.2 GB"), (-1500, "-1.5 kB"), (Int.max, "9.2 EB"),
  ])
  func formatsByteCounts(bytes: Int, expected: String) {
    #expect(Formatting.byteCount(bytes) == expected)
  }
}
