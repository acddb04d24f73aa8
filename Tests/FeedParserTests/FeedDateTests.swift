import FeedParser
import Foundation
import Testing

@Suite struct FeedDateTests {
  /// `expected` is ISO 8601 in UTC, read by Foundation's own formatter; nil means unreadable.
  private func check(_ input: String, _ expected: String?) throws {
    let parsed = FeedDate.parse(input)
    guard let expected else {
      #expect(parsed == nil, "\(input.debugDescription) should not parse")
      return
    }
    let instant = try #require(ISO8601DateFormatter().date(from: expected))
    #expect(parsed == instant, "\(input.debugDescription)")
    #expect(FeedDate.parse(Array(input.utf8)) == instant, "bytes of \(input.debugDescription)")
  }

  @Test(arguments: [
    ("Tue, 05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 5 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Mon, 5 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("24 Jun 2019 10:00:00 +0000", "2019-06-24T10:00:00Z"),
    ("Tue 05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Tue,05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("  Tue,  05  Mar  2024  14:07:00  GMT \n", "2024-03-05T14:07:00Z"),
    ("\u{A0}Tue, 05 Mar 2024 14:07:00 GMT\u{A0}", "2024-03-05T14:07:00Z"),
    ("tue, 05 mar 2024 14:07:00 gmt", "2024-03-05T14:07:00Z"),
    ("TUESDAY, 05 MARCH 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Tues, 05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Weds, 06 Mar 2024 14:07:00 GMT", "2024-03-06T14:07:00Z"),
    ("Thurs, 07 Mar 2024 14:07:00 GMT", "2024-03-07T14:07:00Z"),
    ("Tue., 05 Mar. 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Sept 2023 14:07:00 GMT", "2023-09-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 14:07 GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 14:07:00", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024", "2024-03-05T00:00:00Z"),
    ("5 Mar 2024", "2024-03-05T00:00:00Z"),
    ("Tue, 05 Mar 24 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Fri, 05 Mar 49 14:07:00 GMT", "2049-03-05T14:07:00Z"),
    ("Sun, 05 Mar 50 14:07:00 GMT", "1950-03-05T14:07:00Z"),
    ("Fri, 05 Mar 99 14:07:00 GMT", "1999-03-05T14:07:00Z"),
    ("Sat, 05 Mar 00 14:07:00 GMT", "2000-03-05T14:07:00Z"),
    ("Tue, 05 Mar 124 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 14:07:00 +0000 (GMT)", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 06:07:00 -0800 (PST)", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 14:07:00 +0000 GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 14:07:00 (PST)", "2024-03-05T14:07:00Z"),
    ("Tuesday, 05-Mar-24 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("Mar 5, 2024 14:07:00 GMT", "2024-03-05T14:07:00Z"),
    ("March 5, 2024", "2024-03-05T00:00:00Z"),
    ("Tuesday, March 5th, 2024", "2024-03-05T00:00:00Z"),
    ("Tue Mar  5 14:07:00 2024", "2024-03-05T14:07:00Z"),
    ("Tue Mar  5 06:07:00 PST 2024", "2024-03-05T14:07:00Z"),
    ("Tue Mar 05 15:07:00 +0100 2024", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 2:07:00 PM GMT", "2024-03-05T14:07:00Z"),
    ("Tue, 05 Mar 2024 12:07 AM GMT", "2024-03-05T00:07:00Z"),
    ("Tue, 05 Mar 2024 12:07 pm GMT", "2024-03-05T12:07:00Z"),
    ("Tue, 05 Mar 2024 14:07:59.75 GMT", "2024-03-05T14:07:59Z"),
    ("Tue, 05 Mar 2024 1407 GMT", "2024-03-05T14:07:00Z"),
    ("Sun, 31 Dec 2023 23:59:60 GMT", "2024-01-01T00:00:00Z"),
    ("Tue, 05 Mar 2024 24:00:00 GMT", "2024-03-06T00:00:00Z"),
    ("Thu, 29 Feb 2024 12:00:00 GMT", "2024-02-29T12:00:00Z"),
    ("Tue, 05 Mar 2024 00:30:00 +0100", "2024-03-04T23:30:00Z"),
    ("Sat, 01 Jan 2000 00:00:00 +0000", "2000-01-01T00:00:00Z"),
    ("Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
    ("Wed, 31 Dec 1969 23:59:59 GMT", "1969-12-31T23:59:59Z"),
  ])
  func rfc822(input: String, expected: String) throws {
    try check(input, expected)
  }

  /// Each zone after `Tue, 05 Mar 2024 14:07:00 `.
  @Test(arguments: [
    ("GMT", "2024-03-05T14:07:00Z"), ("UT", "2024-03-05T14:07:00Z"),
    ("UTC", "2024-03-05T14:07:00Z"), ("Z", "2024-03-05T14:07:00Z"),
    ("EST", "2024-03-05T19:07:00Z"), ("EDT", "2024-03-05T18:07:00Z"),
    ("CST", "2024-03-05T20:07:00Z"), ("CDT", "2024-03-05T19:07:00Z"),
    ("MST", "2024-03-05T21:07:00Z"), ("MDT", "2024-03-05T20:07:00Z"),
    ("PST", "2024-03-05T22:07:00Z"), ("PDT", "2024-03-05T21:07:00Z"),
    ("pst", "2024-03-05T22:07:00Z"), ("AKST", "2024-03-05T23:07:00Z"),
    ("HST", "2024-03-06T00:07:00Z"), ("BST", "2024-03-05T13:07:00Z"),
    ("CET", "2024-03-05T13:07:00Z"), ("CEST", "2024-03-05T12:07:00Z"),
    ("MET", "2024-03-05T13:07:00Z"), ("EET", "2024-03-05T12:07:00Z"),
    ("EEST", "2024-03-05T11:07:00Z"), ("MSK", "2024-03-05T11:07:00Z"),
    ("JST", "2024-03-05T05:07:00Z"), ("AEST", "2024-03-05T04:07:00Z"),
    ("AEDT", "2024-03-05T03:07:00Z"), ("ACST", "2024-03-05T04:37:00Z"),
    ("NZST", "2024-03-05T02:07:00Z"), ("NZDT", "2024-03-05T01:07:00Z"),
    ("+0000", "2024-03-05T14:07:00Z"), ("-0000", "2024-03-05T14:07:00Z"),
    ("+0100", "2024-03-05T13:07:00Z"), ("-0500", "2024-03-05T19:07:00Z"),
    ("+01:00", "2024-03-05T13:07:00Z"), ("-05:30", "2024-03-05T19:37:00Z"),
    ("+0530", "2024-03-05T08:37:00Z"), ("+530", "2024-03-05T08:37:00Z"),
    ("+01", "2024-03-05T13:07:00Z"), ("+1", "2024-03-05T13:07:00Z"),
    ("-5", "2024-03-05T19:07:00Z"), ("GMT+2", "2024-03-05T12:07:00Z"),
    ("GMT-05:00", "2024-03-05T19:07:00Z"), ("UTC+01:00", "2024-03-05T13:07:00Z"),
    // RFC 2822: military letters are unreliable and read as -0000, J included.
    ("A", "2024-03-05T14:07:00Z"), ("N", "2024-03-05T14:07:00Z"),
    ("M", "2024-03-05T14:07:00Z"), ("Y", "2024-03-05T14:07:00Z"),
    ("J", "2024-03-05T14:07:00Z"),
    // Ambiguous or unknown names and impossible offsets keep the date, in UTC.
    ("IST", "2024-03-05T14:07:00Z"), ("AST", "2024-03-05T14:07:00Z"),
    ("Pacific", "2024-03-05T14:07:00Z"), ("-3000", "2024-03-05T14:07:00Z"),
    ("+2400", "2024-03-05T14:07:00Z"), ("+0160", "2024-03-05T14:07:00Z"),
  ])
  func zone(zone: String, expected: String) throws {
    try check("Tue, 05 Mar 2024 14:07:00 " + zone, expected)
  }

  @Test(arguments: [
    ("2024-03-05T14:07:00Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07:00.123Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07:00,5Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T15:07:00.123456+01:00", "2024-03-05T14:07:00Z"),
    ("2024-03-05T15:07:00+01:00", "2024-03-05T14:07:00Z"),
    ("2024-03-05T15:07:00+0100", "2024-03-05T14:07:00Z"),
    ("2024-03-05T15:07:00+01", "2024-03-05T14:07:00Z"),
    ("2024-03-05T08:37:00-05:30", "2024-03-05T14:07:00Z"),
    ("2024-03-05T00:30:00+01:00", "2024-03-04T23:30:00Z"),
    ("2024-03-05", "2024-03-05T00:00:00Z"),
    ("2024-3-5", "2024-03-05T00:00:00Z"),
    ("2024-03-05 14:07:00", "2024-03-05T14:07:00Z"),
    ("2024-03-05 14:07:00Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05 14:07:00 +0000", "2024-03-05T14:07:00Z"),
    ("2024-03-05 09:07:00 EST", "2024-03-05T14:07:00Z"),
    ("2024-03-05t14:07:00z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07:00", "2024-03-05T14:07:00Z"),
    ("2024-03-05T14:07:00Z (UTC)", "2024-03-05T14:07:00Z"),
    (" 2024-03-05T14:07:00Z\n", "2024-03-05T14:07:00Z"),
    ("2024-03", "2024-03-01T00:00:00Z"),
    ("2024", "2024-01-01T00:00:00Z"),
    ("20240305", "2024-03-05T00:00:00Z"),
    ("20240305T140700Z", "2024-03-05T14:07:00Z"),
    ("2024-03-05T140700Z", "2024-03-05T14:07:00Z"),
    ("2024/03/05 10:07:00 EDT", "2024-03-05T14:07:00Z"),
    ("Fri, 2006/09/15 08:19:53 EDT", "2006-09-15T12:19:53Z"),
    ("Tue, 2024-03-05T14:07:00Z", "2024-03-05T14:07:00Z"),
    ("2023-12-31T23:59:60Z", "2024-01-01T00:00:00Z"),
    ("2024-03-05T24:00:00Z", "2024-03-06T00:00:00Z"),
    ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
    ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
    ("1900-03-01T00:00:00Z", "1900-03-01T00:00:00Z"),
    ("2000-02-29T12:00:00Z", "2000-02-29T12:00:00Z"),
    ("2400-02-29T12:00:00Z", "2400-02-29T12:00:00Z"),
    ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
  ])
  func iso8601(input: String, expected: String) throws {
    try check(input, expected)
  }

  @Test(arguments: [
    "", " ", "\n", "junk", "Tue,", "Tue, 05 Mar", "Tue, 05 Foo 2024 14:07:00 GMT", "14:07:00",
    "2024 Mar 05", "05/03/2024", "03/05/2024 14:07:00", "Tue, 05 13 2024", "Mars 5, 2024",
    "Tue, 32 Mar 2024 14:07:00 GMT", "Tue, 00 Mar 2024 14:07:00 GMT",
    "Fri, 29 Feb 2023 14:07:00 GMT", "Tue, 31 Apr 2024 14:07:00 GMT",
    "Tue, 05 Mar 2024 25:07:00 GMT",
    "Tue, 05 Mar 2024 14:60:00 GMT", "Tue, 05 Mar 2024 14:07:61 GMT",
    "Tue, 05 Mar 2024 13:07 PM GMT", "Tue, 05 Mar 2024 0:07 AM GMT",
    "Tue, 05 Mar 2024 14:07:00 +12345", "Tue, 05 Mar 2024 14:07:00 GMT0",
    "Tue, 05 Mar 2024 14:07:00 +", "Tue, 05 Mar 2024 14:07:", "Tue, 05 Mar 2024 14",
    "Tue, 05 Mar 20245 14:07:00 GMT", "Tue, 005 Mar 2024 14:07:00 GMT", "Tue, 05 Mar 2 14:07",
    "2024-13-05T14:07:00Z", "2024-00-05", "2024-03-32", "2024-02-30", "2023-02-29",
    "2100-02-29", "2024-03-05T25:00:00Z", "2024-03-05T14:60:00Z",
    "2024-03-05T14:07:61Z", "2024-03-05T", "2024-03-05T14", "2024-03-05T14:07:00+",
    "2024-03-05T14:07:00+01:00junk", "2024-03-05 junk", "2024-03-05T14:07:00.Z", "12345-03-05",
    "0000-01-01", "202403", "2024-", "2024-03-", "2024--05", "Tue, 05 Mar\u{0} 2024",
    "Tue, 05 Mar 2024 14:07:00 GMT\u{0}",
  ])
  func unreadable(input: String) throws {
    try check(input, nil)
  }

  /// Odd values from the shared corpus, with the file they come from.
  @Test(
    arguments: [
      ("Thurs, 18 Jun 2009 21:16:13 CST", "2009-06-19T03:16:13Z", "radiofeed-rss_bad_pub_date"),
      ("Sun, 08 July 2012 07:12:01 CST", "2012-07-08T13:12:01Z", "radiofeed-rss_bad_pub_date"),
      ("Fri, 10 April 2009 16:11:32 CST", "2009-04-10T22:11:32Z", "radiofeed-rss_bad_pub_date"),
      ("Sat, 25 April 2009 18:18:21 CST", "2009-04-26T00:18:21Z", "radiofeed-rss_bad_pub_date"),
      ("Mon, 03 Jan 2011 012:31:50 CST", "2011-01-03T18:31:50Z", "radiofeed-rss_bad_pub_date"),
      ("Sat, 07 Mar 2009 24:28:20 CST", "2009-03-08T06:28:20Z", "radiofeed-rss_bad_pub_date"),
      ("Sun, 28 Apr 2013 15:12:352 CST", nil, "radiofeed-rss_bad_pub_date"),
      ("", nil, "radiofeed-rss_bad_pub_date"),
      ("Fri, 05 Feb 2016 13:30:00 -3000", "2016-02-05T13:30:00Z", "radiofeed-rss_invalid_data"),
      ("Mon, 18 Apr 2022 00:09:00 -0900", "2022-04-18T09:09:00Z", "radiofeed-rss_invalid_data"),
      ("2009-12-08T16:59:02.544-08:00", "2009-12-09T00:59:02Z", "atomthreadingwithentry"),
      ("2004-06-02T19:07:55-04:00", "2004-06-02T23:07:55Z", "encoding/http_i18n"),
      ("2002", "2002-01-01T00:00:00Z", "namespace/rss1.0withModules"),
      ("start=2002-10-13T09:00+01:00;scheme=W3C-DTF", nil, "rss/channel_dcterms_validity"),
      ("Τρι, 29 Ιούν 2004 12:53:00 GMT", nil, "illformed/http_high_bit_date"),
    ] as [(String, String?, String)])
  func corpusOddities(input: String, expected: String?, file: String) throws {
    try check(input, expected)
  }

  /// Every date element of every podcast feed in the corpus: all but the known-bad values
  /// parse, and each canonical RFC 822 or RFC 3339 value agrees with Foundation's formatters.
  @Test(arguments: ReaderCorpus.files(in: "podcasts"))
  func podcastCorpus(file: String) throws {
    let bytes = try ReaderCorpus.bytes(of: file)
    let values = ["pubDate", "lastBuildDate", "dc:date", "published", "updated"]
      .flatMap { ReaderCorpus.texts(of: $0, in: bytes) }
    let unreadable: Set<String> = ["", "Sun, 28 Apr 2013 15:12:352 CST"]
    let rfc = DateFormatter()
    rfc.locale = Locale(identifier: "en_US_POSIX")
    rfc.dateFormat = "EEE, d MMM yyyy HH:mm:ss zzz"
    let iso = ISO8601DateFormatter()
    let isoFraction = ISO8601DateFormatter()
    isoFraction.formatOptions.insert(.withFractionalSeconds)
    var checked = 0
    for value in values {
      let parsed = FeedDate.parse(value)
      if unreadable.contains(value.text) {
        #expect(parsed == nil, "\(value.text.debugDescription) in \(file)")
        continue
      }
      #expect(parsed != nil, "\(value.text.debugDescription) in \(file)")
      var text = value.text
      // Offsets past 23 hours are documented to read as UTC; Foundation would apply them.
      if let sign = text.dropLast(4).last, sign == "+" || sign == "-",
        let hours = Int(text.suffix(4).prefix(2)), hours > 23
      {
        text = String(text.dropLast(5)) + "+0000"
      }
      if let expected = rfc.date(from: text) ?? iso.date(from: text)
        ?? isoFraction.date(from: text)
      {
        #expect(
          parsed.map { floor($0.timeIntervalSince1970) } == floor(expected.timeIntervalSince1970),
          "\(value.text.debugDescription) in \(file)")
        checked += 1
      }
    }
    #expect(checked > 0 || values.isEmpty, "no value of \(file) was checked against Foundation")
  }

  /// feedparser's date tests: the tuple each `Expect:` line names is the value of one of the
  /// file's date elements (some files hold two), and every date in them parses.
  @Test(arguments: ReaderCorpus.files(in: "feedparser/wellformed"))
  func feedparserExpectations(file: String) throws {
    let bytes = try ReaderCorpus.bytes(of: file)
    let header = String(decoding: bytes.prefix(1_000), as: UTF8.self)
    guard !file.contains("validity"), let tuple = header.range(of: "_parsed'] == ("),
      let match = header[tuple.lowerBound...].prefixMatch(
        of: /_parsed'\] == \((\d+), (\d+), (\d+), (\d+), (\d+), (\d+),/)
    else { return }
    var parts = DateComponents()
    parts.year = Int(match.1)
    parts.month = Int(match.2)
    parts.day = Int(match.3)
    parts.hour = Int(match.4)
    parts.minute = Int(match.5)
    parts.second = Int(match.6)
    let expected = try #require(Self.utcCalendar.date(from: parts))
    let values =
      [
        "pubDate", "lastBuildDate", "dc:date", "dcterms:created", "dcterms:issued",
        "dcterms:modified", "created", "issued", "modified", "published", "updated",
        "expirationDate",
      ].flatMap { ReaderCorpus.texts(of: $0, in: bytes) }
      + ReaderCorpus.attributeValues("LASTMOD", in: bytes)
    try #require(!values.isEmpty, "no date found in \(file)")
    let parsed = values.map { FeedDate.parse($0) }
    #expect(!parsed.contains(nil), "\(values.map(\.text)) in \(file)")
    #expect(parsed.contains(expected), "\(values.map(\.text)) in \(file)")
  }

  /// Every date in SampleFeeds reads, except the two that broken.xml gets wrong on purpose.
  @Test(arguments: ReaderCorpus.sampleFeedNames)
  func sampleFeeds(name: String) throws {
    let bytes = try ReaderCorpus.sampleBytes(of: name)
    let values = ["pubDate", "lastBuildDate", "dc:date", "published", "updated", "issued"]
      .flatMap { ReaderCorpus.texts(of: $0, in: bytes) }
    try #require(!values.isEmpty, "no dates found in \(name)")
    let deliberate: Set<String> = ["Someday soon", "Mon, 32 Jan 2024 10:00:00 GMT"]
    for value in values {
      let parsed = FeedDate.parse(value)
      if name == "broken.xml" && deliberate.contains(value.text) {
        #expect(parsed == nil, "\(value.text) in \(name)")
      } else {
        #expect(parsed != nil, "\(value.text) in \(name)")
      }
    }
  }

  private static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    return calendar
  }()

  /// Random instants written in the forms feeds use read back as the instant Foundation's
  /// calendar computes for the same fields.
  @Test func randomInstantsRoundTrip() throws {
    var random = SeededRandom(seed: 0x5EED_DA7E)
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
      "Dec",
    ]
    for _ in 0..<3_000 {
      let year = Int.random(in: 1600...9999, using: &random)
      let month = Int.random(in: 1...12, using: &random)
      let day = Int.random(in: 1...28, using: &random)
      let hour = Int.random(in: 0...23, using: &random)
      let minute = Int.random(in: 0...59, using: &random)
      let second = Int.random(in: 0...59, using: &random)
      let offset =
        Int.random(in: -14...14, using: &random) * 60 + [0, 30, 45].randomElement(
          using: &random)!
      var parts = DateComponents(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      parts.timeZone = TimeZone(secondsFromGMT: offset * 60)
      let expected = try #require(Self.utcCalendar.date(from: parts))

      let sign = offset < 0 ? "-" : "+"
      let hhmm = pad(abs(offset) / 60) + pad(abs(offset) % 60)
      let hhColonMM = pad(abs(offset) / 60) + ":" + pad(abs(offset) % 60)
      let time = pad(hour) + ":" + pad(minute) + ":" + pad(second)
      let date = pad(year, 4) + "-" + pad(month) + "-" + pad(day)
      let forms = [
        "\(day) \(months[month - 1]) \(year) \(time) \(sign)\(hhmm)",
        "Sun, \(pad(day)) \(months[month - 1]) \(year) \(time) \(sign)\(hhColonMM)",
        "\(date)T\(time)\(sign)\(hhColonMM)",
        "\(date) \(time).\(Int.random(in: 0...999, using: &random)) \(sign)\(hhmm)",
      ]
      for form in forms {
        #expect(FeedDate.parse(form) == expected, "\(form)")
      }
    }
  }

  /// Random bytes, and random mixes of the characters dates are made of, never crash and
  /// never yield an instant outside years 1-9999 (with a day of zone offset either side).
  @Test func randomBytesNeverCrash() {
    var random = SeededRandom(seed: 0xBADD_A7E5)
    let alphabet = Array("0123456789 ,:+-./TtZzAaMmPpGgSsJjNnUuEeCcDdOoFfRrWwHh()\u{A0}".utf8)
    let seeds = ["Tue, 05 Mar 2024 14:07:00 GMT", "2024-03-05T14:07:00.5+01:00", "Tue Mar  5"]
    // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, widened by a day for the zone.
    let lowest = Date(timeIntervalSince1970: -62_135_596_800 - 86_400)
    let highest = Date(timeIntervalSince1970: 253_402_300_799 + 86_400)
    for round in 0..<30_000 {
      let length = Int.random(in: 0...40, using: &random)
      var bytes: [UInt8]
      switch round % 3 {
      case 0:
        bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      case 1:
        bytes = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
      default:
        bytes = Array(seeds.randomElement(using: &random)!.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] =
            alphabet.randomElement(using: &random)!
        }
        bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
      }
      if let date = FeedDate.parse(bytes) {
        #expect(date >= lowest && date <= highest, "\(bytes)")
      }
    }
  }

  private func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
