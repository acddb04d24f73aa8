/// A UTC date and time of day, to write an instant back in the forms ``FeedDate`` reads.
struct CivilDate {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int
  /// 0 is Sunday.
  var weekday: Int

  init?(unixSeconds: Int64) {
    let (days, secondOfDay) = unixSeconds.quotientAndRemainder(dividingBy: 86_400)
    let dayNumber = Int(secondOfDay < 0 ? days - 1 : days)
    let seconds = Int(secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay)
    // Days since 1970-01-01 to the proleptic Gregorian calendar, counting in 400-year eras
    // that start on 1 March so that the leap day falls last.
    let shifted = dayNumber + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    hour = seconds / 3600
    minute = seconds / 60 % 60
    second = seconds % 60
    weekday = ((dayNumber + 4) % 7 + 7) % 7
    guard (1...12).contains(month) else { return nil }
  }

  /// `2024-03-05T14:07:00Z`
  var iso8601: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
  }

  /// `Tue, 05 Mar 2024 14:07:00 GMT`
  var rfc822: String {
    let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    return
      "\(weekdays[weekday]), \(pad(day, 2)) \(months[month - 1]) \(pad(year, 4)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)) GMT"
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
