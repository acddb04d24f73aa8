import Foundation

/// A moment broken into proleptic Gregorian calendar fields, computed with integer arithmetic
/// from Unix seconds (no DateFormatter, no calendar object: this runs once per episode).
struct CivilTime: Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: what four-digit years can write.
  static let secondsRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

  /// The fields of `date` shifted by `utcOffset` seconds, to the second (fractions
  /// dropped towards the past); nil when the year falls outside 1...9999.
  init?(_ date: Date, utcOffset: Int = 0) {
    let interval = date.timeIntervalSince1970.rounded(.down) + Double(utcOffset)
    guard interval.isFinite, interval >= Double(Self.secondsRange.lowerBound),
      interval <= Double(Self.secondsRange.upperBound)
    else { return nil }
    self.init(unixSeconds: Int64(interval))
  }

  init(unixSeconds: Int64) {
    let (days, secondOfDay) = Self.floorDivision(unixSeconds, 86_400)
    hour = Int(secondOfDay / 3600)
    minute = Int(secondOfDay % 3600 / 60)
    second = Int(secondOfDay % 60)
    // Count from 0000-03-01 so that a leap day is the last day of its year; a 400-year era
    // repeats exactly (146,097 days).
    let (era, dayOfEra) = Self.floorDivision(days + 719_468, 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
    year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value / divisor
    let remainder = value % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}
