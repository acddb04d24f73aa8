import Foundation

/// Reads the dates feeds write in `pubDate`, `dc:date`, `published` and `updated`.
///
/// Runs for every item of every feed, so it scans the UTF-8 bytes in place in one pass and
/// computes Unix time arithmetically rather than through a formatter or a calendar.
///
/// Accepted, case-insensitive, surrounding whitespace ignored:
/// - RFC 822 / 2822 / 1123: `Tue, 5 Mar 2024 14:07:00 GMT`, with or without the weekday
///   (abbreviated, full, or `Tues`/`Thurs`-style), without the comma, with single-digit
///   days, full month names (`July`), 2-, 3- or 4-digit years (`24` is 2024, `99` is 1999, as
///   RFC 2822 says: 00-49 are 20xx, 50-99 are 19xx; `124` is 2024), missing seconds, a
///   zero-padded 3-digit hour (`012:31:50`), `AM`/`PM`, RFC 850 hyphens (`05-Mar-24`), a
///   trailing comment (`+0000 (GMT)`), and anything after a complete zone.
/// - Month first: `Mar 5, 2024 14:07:00 GMT`, `March 5th 2024`, and asctime / Unix `date`
///   output `Tue Mar  5 14:07:00 PST 2024`. A month *name* makes the order unambiguous;
///   all-numeric orders such as `05/03/2024` are refused.
/// - ISO 8601 / RFC 3339 / W3C-DTF: `2024-03-05T14:07:00Z`, fractions (dropped), offsets
///   `+01:00`, `+0100`, `+01`, a space or lowercase `t` instead of `T`, lowercase `z`, no
///   seconds (`2024-03-05T14:07Z`), date only (`2024-03-05`), partial dates `2024-03` and
///   `2024` (the first day of the month or year), basic format `20240305T140700Z`, and
///   `2024/03/05 14:07:00 EDT`.
///
/// Zones: numeric offsets; `UT`, `UTC`, `GMT`, `Z`; the US zones of RFC 822 (`EST` ... `PDT`)
/// and a few more North American ones (`AKST`, `HST`, ...); names that mean one thing
/// wherever feeds come from (`BST` British Summer Time, `CET`, `CEST`, `EET`, `MSK`, `JST`,
/// `AEST`, `NZDT`, ...); `GMT+2` / `UTC-05:00` read as written. A date without a zone is UTC.
/// So is a zone name that is not known or that means different things in different places
/// (`IST`, `AST`), and an impossible offset (`-3000`): the date is kept, off by some hours,
/// rather than lost.
/// Military single letters other than `Z` are also read as UTC, as RFC 2822 advises,
/// because RFC 822 defined their signs backwards and senders never agreed which they meant.
///
/// Hour 24 is the next day's hour 0 (ISO 8601's `24:00`, and generators that forget to wrap,
/// `24:28:20`); a leap second `:60` is the next minute's `:00`. Out-of-range fields (month 13,
/// 30 February, hour 25, minute 60, second 61) and anything else unreadable give nil.
/// Weekdays are not checked against the date: feeds get them wrong far more often than they
/// get the date wrong.
public enum FeedDate {
  /// The instant `text` names, or nil when it cannot be read unambiguously.
  public static func parse(_ text: String) -> Date? {
    unixSeconds(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// The instant the UTF-8 `bytes` name, or nil when they cannot be read unambiguously.
  public static func parse(_ bytes: some Collection<UInt8>) -> Date? {
    unixSeconds(bytes).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// Whole seconds since 1970-01-01T00:00:00Z (fractions of a second dropped).
  public static func unixSeconds(_ text: String) -> Int64? {
    var text = text
    return text.withUTF8 { unixSeconds(in: $0) }
  }

  /// Whole seconds since 1970-01-01T00:00:00Z (fractions of a second dropped).
  public static func unixSeconds(_ bytes: some Collection<UInt8>) -> Int64? {
    if let result = bytes.withContiguousStorageIfAvailable({ unixSeconds(in: $0) }) {
      return result
    }
    return Array(bytes).withUnsafeBufferPointer { unixSeconds(in: $0) }
  }

  /// The scanner behind every entry point; the parser calls it on its own buffers.
  static func unixSeconds(in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var scanner = DateScanner(bytes: bytes)
    return scanner.read()
  }
}

/// The fields of a date as written, before the zone is applied.
private struct Fields {
  var year = 0
  var month = 1
  var day = 1
  var hour = 0
  var minute = 0
  var second = 0
  var offsetSeconds = 0

  var unixSeconds: Int64? {
    guard (1...9999).contains(year), (1...12).contains(month),
      day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
      (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let days = Int64(CivilCalendar.daysSinceEpoch(year: year, month: month, day: day))
    return days * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offsetSeconds)
  }
}

/// Proleptic Gregorian arithmetic, enough to turn a valid date into a day count.
private enum CivilCalendar {
  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to the given date (`year` >= 1). Counting years from March puts
  /// the leap day last, so every 400-year cycle has the same shape and the count is closed-form.
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let marchYear = month <= 2 ? year - 1 : year
    let cycle = marchYear / 400
    let yearOfCycle = marchYear - cycle * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
    // 719_468 days separate 0000-03-01, where the cycles start, from 1970-01-01.
    return cycle * 146_097 + dayOfCycle - 719_468
  }
}

/// The words a date may contain, as lower-case ASCII.
private enum Words {
  static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ].map { Array($0.utf8) }

  static let weekdays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weds",
  ].map { Array($0.utf8) }

  /// The first three letters tell the months (and the weekdays) apart, so one integer compare
  /// finds a name.
  static let monthKeys = months.map { key($0.prefix(3)) }
  static let weekdayKeys = weekdays.map { key($0.prefix(3)) }

  /// Zone names and their offsets east of UTC, in minutes. Only names that mean the same
  /// offset wherever a feed is likely to come from.
  static let zones: [(key: UInt32, minutes: Int)] = [
    ("ut", 0), ("utc", 0), ("gmt", 0), ("z", 0), ("uct", 0), ("wet", 0),
    ("edt", -4 * 60), ("est", -5 * 60), ("cdt", -5 * 60), ("cst", -6 * 60),
    ("mdt", -6 * 60), ("mst", -7 * 60), ("pdt", -7 * 60), ("pst", -8 * 60),
    ("akdt", -8 * 60), ("akst", -9 * 60), ("hdt", -9 * 60), ("hst", -10 * 60),
    ("nst", -(3 * 60 + 30)), ("ndt", -(2 * 60 + 30)),
    ("bst", 60), ("west", 60), ("cet", 60), ("met", 60), ("cest", 2 * 60), ("mest", 2 * 60),
    ("eet", 2 * 60), ("eest", 3 * 60), ("msk", 3 * 60),
    ("hkt", 8 * 60), ("awst", 8 * 60), ("jst", 9 * 60), ("kst", 9 * 60),
    ("acst", 9 * 60 + 30), ("acdt", 10 * 60 + 30), ("aest", 10 * 60), ("aedt", 11 * 60),
    ("nzst", 12 * 60), ("nzdt", 13 * 60),
  ].map { (key(Array($0.0.utf8)), $0.1) }

  /// Up to four letters, lower-cased and packed into one integer; callers check the length.
  static func key(_ letters: some Collection<UInt8>) -> UInt32 {
    letters.reduce(0) { $0 << 8 | UInt32($1 | 0x20) }
  }
}

/// A cursor over the bytes of one date. Every read checks bounds; reads past the end see 0.
private struct DateScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  mutating func read() -> Int64? {
    skipBlanks()
    if isDigit(peek()) {
      return digitRun() >= 4 ? readISO() : readDayFirst()
    }
    guard isLetter(peek()) else { return nil }
    let word = readWord()
    guard isWeekday(word) else {
      guard let month = monthNumber(word) else { return nil }
      return readMonthFirst(month: month)
    }
    skip(where: { isBlank($0) || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") })
    if isDigit(peek()) {
      // `Fri, 2006/09/15 08:19:53 EDT` and `Tue, 2024-03-05T...` carry a weekday too.
      return digitRun() >= 4 ? readISO() : readDayFirst()
    }
    guard isLetter(peek()), let month = monthNumber(readWord()) else { return nil }
    return readMonthFirst(month: month)
  }

  // MARK: Forms

  /// `5 Mar 2024 ...`, after any weekday.
  private mutating func readDayFirst() -> Int64? {
    var fields = Fields()
    guard let day = readDay() else { return nil }
    fields.day = day
    skipDateSeparators()
    guard isLetter(peek()), let month = monthNumber(readWord()) else { return nil }
    fields.month = month
    skipDateSeparators()
    guard let year = readYear() else { return nil }
    fields.year = year
    return readTimeAndZone(into: &fields)
  }

  /// `Mar 5, 2024 ...` or asctime `Mar 5 14:07:00 [zone] 2024`, after the month name.
  private mutating func readMonthFirst(month: Int) -> Int64? {
    var fields = Fields()
    fields.month = month
    skipDateSeparators()
    guard let day = readDay() else { return nil }
    fields.day = day
    skip(where: { isBlank($0) || $0 == UInt8(ascii: ",") })
    if isDigit(peek()) && looksLikeTime() {
      guard readTime(into: &fields) else { return nil }
      skipBlanks()
      if !isDigit(peek()) {
        guard let offset = readZone() else { return nil }
        fields.offsetSeconds = offset
        skipBlanks()
      }
      guard digitRun() == 4, let year = readYear() else { return nil }
      fields.year = year
      return endsCleanly() ? fields.unixSeconds : nil
    }
    guard let year = readYear() else { return nil }
    fields.year = year
    return readTimeAndZone(into: &fields)
  }

  /// `2024`, `2024-03`, `2024-03-05`, `20240305`, `2024/03/05`, then an optional time.
  private mutating func readISO() -> Int64? {
    var fields = Fields()
    let run = digitRun()
    guard run == 4 || run == 8 else { return nil }
    fields.year = readNumber(maxDigits: 4)
    if run == 8 {
      fields.month = readNumber(maxDigits: 2)
      fields.day = readNumber(maxDigits: 2)
    } else if peek() == UInt8(ascii: "-") || peek() == UInt8(ascii: "/") {
      let separator = peek()
      index += 1
      guard let month = readField(maxDigits: 2) else { return nil }
      fields.month = month
      if peek() == separator {
        index += 1
        guard let day = readField(maxDigits: 2) else { return nil }
        fields.day = day
      }
    }
    if peek() == UInt8(ascii: "T") || peek() == UInt8(ascii: "t") {
      index += 1
      guard isDigit(peek()) else { return nil }
    } else {
      skipBlanks()
      // A date alone must stand alone: `2024 Mar 05` is not the first of January.
      guard isDigit(peek()) else { return atEnd ? fields.unixSeconds : nil }
    }
    guard readTime(into: &fields) else { return nil }
    return readZoneAndTail(into: &fields)
  }

  // MARK: Parts

  /// After the date of the RFC forms: an optional time, AM/PM, then an optional zone.
  private mutating func readTimeAndZone(into fields: inout Fields) -> Int64? {
    skip(where: { isBlank($0) || $0 == UInt8(ascii: ",") })
    if isDigit(peek()) {
      guard readTime(into: &fields) else { return nil }
    }
    return readZoneAndTail(into: &fields)
  }

  private mutating func readZoneAndTail(into fields: inout Fields) -> Int64? {
    skipBlanks()
    if atEnd || peek() == UInt8(ascii: "(") { return fields.unixSeconds }
    guard let offset = readZone() else { return nil }
    fields.offsetSeconds = offset
    return endsCleanly() ? fields.unixSeconds : nil
  }

  /// `H:MM`, `HH:MM:SS`, `012:31:50`, `HH:MM:SS.fff`, basic `HHMMSS`, then AM/PM.
  private mutating func readTime(into fields: inout Fields) -> Bool {
    let run = digitRun()
    if run == 4 || run == 6 {
      fields.hour = readNumber(maxDigits: 2)
      fields.minute = readNumber(maxDigits: 2)
      if run == 6 { fields.second = readNumber(maxDigits: 2) }
    } else {
      guard run <= 3, let hour = readField(maxDigits: 3), peek() == UInt8(ascii: ":") else {
        return false
      }
      index += 1
      guard let minute = readField(maxDigits: 2) else { return false }
      fields.hour = hour
      fields.minute = minute
      if peek() == UInt8(ascii: ":") {
        index += 1
        guard let second = readField(maxDigits: 2) else { return false }
        fields.second = second
      }
    }
    if peek() == UInt8(ascii: ".") || peek() == UInt8(ascii: ","), isDigit(peek(1)) {
      index += 1
      skip(where: isDigit)
    }
    if isDigit(peek()) || peek() == UInt8(ascii: ":") { return false }
    return readMeridiem(into: &fields)
  }

  /// `AM` / `PM` after a 12-hour time; leaves anything else for the zone.
  private mutating func readMeridiem(into fields: inout Fields) -> Bool {
    let start = index
    skipBlanks()
    let first = peek() | 0x20
    guard first == UInt8(ascii: "a") || first == UInt8(ascii: "p"),
      peek(1) | 0x20 == UInt8(ascii: "m"), !isLetter(peek(2))
    else {
      index = start
      return true
    }
    index += 2
    guard (1...12).contains(fields.hour) else { return false }
    fields.hour = fields.hour % 12 + (first == UInt8(ascii: "p") ? 12 : 0)
    return true
  }

  /// A zone as seconds east of UTC: `Z`, `+01:00`, `-0500`, `+01`, a name, `GMT+2`.
  private mutating func readZone() -> Int? {
    if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
      return readOffset()
    }
    guard isLetter(peek()) else { return nil }
    let word = readWord()
    guard word.count <= 4 else { return 0 }
    let key = Words.key(word)
    guard let zone = Words.zones.first(where: { $0.key == key }) else { return 0 }
    // `GMT+2`, `UTC-05:00`: a UTC name carrying the offset.
    if zone.minutes == 0, peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
      return readOffset()
    }
    return zone.minutes * 60
  }

  private mutating func readOffset() -> Int? {
    let sign = peek() == UInt8(ascii: "-") ? -1 : 1
    index += 1
    let run = digitRun()
    var hours = 0
    var minutes = 0
    switch run {
    case 1, 2:
      hours = readNumber(maxDigits: run)
      if peek() == UInt8(ascii: ":") {
        index += 1
        guard digitRun() == 2 else { return nil }
        minutes = readNumber(maxDigits: 2)
      }
    case 3, 4:
      hours = readNumber(maxDigits: run - 2)
      minutes = readNumber(maxDigits: 2)
    default:
      return nil
    }
    // Seen in the wild: `13:30:00 -3000`, a generator printing the minutes where the offset
    // goes. The date and time are still plain; only the zone is lost, as with unknown names.
    guard hours <= 23, minutes <= 59 else { return 0 }
    return sign * (hours * 3_600 + minutes * 60)
  }

  /// A day of the month, with an optional English ordinal suffix (`5th`).
  private mutating func readDay() -> Int? {
    guard let day = readField(maxDigits: 2) else { return nil }
    let suffix = (peek() | 0x20, peek(1) | 0x20)
    switch suffix {
    case (UInt8(ascii: "s"), UInt8(ascii: "t")), (UInt8(ascii: "n"), UInt8(ascii: "d")),
      (UInt8(ascii: "r"), UInt8(ascii: "d")), (UInt8(ascii: "t"), UInt8(ascii: "h")):
      if !isLetter(peek(2)) { index += 2 }
    default:
      break
    }
    return day
  }

  /// A year of 2, 3 or 4 digits, widened as RFC 2822 says.
  private mutating func readYear() -> Int? {
    let run = digitRun()
    guard (2...4).contains(run) else { return nil }
    let year = readNumber(maxDigits: run)
    switch run {
    case 2: return year < 50 ? 2000 + year : 1900 + year
    case 3: return 1900 + year
    default: return year
    }
  }

  /// 1 to `maxDigits` digits that are not followed by another digit.
  private mutating func readField(maxDigits: Int) -> Int? {
    let start = index
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      // Wrapping is harmless: a run long enough to wrap is refused below.
      value = value &* 10 &+ Int(digit)
      index += 1
    }
    guard index > start, index - start <= maxDigits else { return nil }
    return value
  }

  /// Reads up to `maxDigits` (at most 4) digits; the caller has checked that they are there.
  private mutating func readNumber(maxDigits: Int) -> Int {
    var value = 0
    let end = min(index + maxDigits, bytes.count)
    while index < end {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value &* 10 &+ Int(digit)
      index += 1
    }
    return value
  }

  private mutating func readWord() -> UnsafeBufferPointer<UInt8> {
    let start = index
    skip(where: isLetter)
    return UnsafeBufferPointer(rebasing: bytes[start..<index])
  }

  /// After a zone: the end, or a blank or comment before whatever else the feed appended.
  private func endsCleanly() -> Bool {
    atEnd || isBlank(peek()) || peek() == UInt8(ascii: "(") || (peek() == 0xC2 && peek(1) == 0xA0)
  }

  /// `H:`, `HH:` or `HHH:` ahead, which tells asctime's time from a year.
  private func looksLikeTime() -> Bool {
    let run = digitRun()
    return run <= 3 && peek(run) == UInt8(ascii: ":")
  }

  // MARK: Words

  /// 1-12 for a month name: in full, or cut to at least three letters (`Sep`, `Sept`).
  private func monthNumber(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
    guard word.count >= 3, let index = Words.monthKeys.firstIndex(of: firstThree(word)),
      isPrefix(word, of: Words.months[index])
    else { return nil }
    return index + 1
  }

  /// A weekday in full or cut to at least three letters (`Thu`, `Thurs`), or `Weds`.
  private func isWeekday(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    guard word.count >= 3 else { return false }
    let key = firstThree(word)
    for (index, weekdayKey) in Words.weekdayKeys.enumerated() where weekdayKey == key {
      if isPrefix(word, of: Words.weekdays[index]) { return true }
    }
    return false
  }

  /// `Words.key` of the first three letters, unrolled: it runs for every date.
  private func firstThree(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
    UInt32(word[0] | 0x20) << 16 | UInt32(word[1] | 0x20) << 8 | UInt32(word[2] | 0x20)
  }

  /// Whether `word`, whose first three letters are known to match, goes on as `name` does.
  private func isPrefix(_ word: UnsafeBufferPointer<UInt8>, of name: [UInt8]) -> Bool {
    guard word.count <= name.count else { return false }
    for offset in 3..<word.count where word[offset] | 0x20 != name[offset] {
      return false
    }
    return true
  }

  // MARK: Bytes

  var atEnd: Bool { index >= bytes.count }

  func peek(_ ahead: Int = 0) -> UInt8 {
    let position = index + ahead
    return position < bytes.count ? bytes[position] : 0
  }

  func digitRun() -> Int {
    var end = index
    while end < bytes.count, isDigit(bytes[end]) { end += 1 }
    return end - index
  }

  private mutating func skip(where predicate: (UInt8) -> Bool) {
    while index < bytes.count, predicate(bytes[index]) { index += 1 }
  }

  /// Spaces, tabs, line breaks and U+00A0 (an `&nbsp;` that survived decoding).
  mutating func skipBlanks() {
    while index < bytes.count {
      if isBlank(bytes[index]) {
        index += 1
      } else if bytes[index] == 0xC2, peek(1) == 0xA0 {
        index += 2
      } else {
        return
      }
    }
  }

  /// Between day, month and year: blanks, commas, dots, and RFC 850's hyphens.
  private mutating func skipDateSeparators() {
    skipBlanks()
    skip(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
    skipBlanks()
  }
}

private func isDigit(_ byte: UInt8) -> Bool {
  byte &- UInt8(ascii: "0") < 10
}

private func isLetter(_ byte: UInt8) -> Bool {
  (byte | 0x20) &- UInt8(ascii: "a") < 26
}

private func isBlank(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
    || byte == UInt8(ascii: "\r")
}
