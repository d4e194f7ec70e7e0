import Foundation
import TestSupport
import Testing
import TodoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// POSIX rules (no tzdata needed) equal to the current rules of the named zones.
private let berlin = "CET-1CEST,M3.5.0,M10.5.0/3"  // Europe/Berlin
private let newYork = "EST5EDT,M3.2.0,M11.1.0"  // America/New_York
private let expected = "expected a date like 2026-12-01, today, friday, +3d, eow"
private let notADate = "not a date: " + expected
private let empty = "empty date: " + expected
private let outOfRange = "out of range: dates must be in the years 1970 to 9999"
private let bareM = "'m' could be minutes or months: use min (30min) or mo (2mo)"

/// Every test that depends on `TZ` or other process environment lives in this one suite.
/// `.serialized` keeps its tests from running at the same time as each other; each test
/// sets the variable (setenv + tzset) and restores the previous value afterwards.
@Suite(.serialized) struct DateExpressionTests {
  // MARK: - Grammar, TZ = Europe/Berlin, now = Wednesday 2026-11-18 10:30 CET

  @Test(
    arguments: [
      ("now", "2026-11-18T09:30:00Z"),
      ("today", "2026-11-17T23:00:00Z"),
      ("tomorrow", "2026-11-18T23:00:00Z"),
      ("yesterday", "2026-11-16T23:00:00Z"),
      ("2026-12-01", "2026-11-30T23:00:00Z"),
      ("2026-12-01T17:00", "2026-12-01T16:00:00Z"),
      ("2026-12-01 17:00:30", "2026-12-01T16:00:30Z"),
      ("2026-07-01T17:00", "2026-07-01T15:00:00Z"),
      ("2026-12-01T17:00Z", "2026-12-01T17:00:00Z"),
      ("2026-12-01T17:00+05:30", "2026-12-01T11:30:00Z"),
      ("2026-12-01T17:00:00.75-03:00", "2026-12-01T20:00:00Z"),
      ("monday", "2026-11-22T23:00:00Z"), ("mon", "2026-11-22T23:00:00Z"),
      ("tuesday", "2026-11-23T23:00:00Z"), ("tue", "2026-11-23T23:00:00Z"),
      ("wednesday", "2026-11-24T23:00:00Z"), ("wed", "2026-11-24T23:00:00Z"),
      ("thursday", "2026-11-18T23:00:00Z"), ("thu", "2026-11-18T23:00:00Z"),
      ("friday", "2026-11-19T23:00:00Z"), ("fri", "2026-11-19T23:00:00Z"),
      ("saturday", "2026-11-20T23:00:00Z"), ("sat", "2026-11-20T23:00:00Z"),
      ("sunday", "2026-11-21T23:00:00Z"), ("sun", "2026-11-21T23:00:00Z"),
      ("+3d", "2026-11-21T09:30:00Z"), ("3d", "2026-11-21T09:30:00Z"),
      ("-2d", "2026-11-16T09:30:00Z"), ("2w", "2026-12-02T09:30:00Z"),
      ("1mo", "2026-12-18T09:30:00Z"), ("-1mo", "2026-10-18T08:30:00Z"),
      ("+5mo", "2027-04-18T08:30:00Z"), ("1y", "2027-11-18T09:30:00Z"),
      ("12h", "2026-11-18T21:30:00Z"), ("-12h", "2026-11-17T21:30:00Z"),
      ("30min", "2026-11-18T10:00:00Z"), ("+0d", "2026-11-18T09:30:00Z"),
      ("in 3 days", "2026-11-21T09:30:00Z"), ("in 1 day", "2026-11-19T09:30:00Z"),
      ("in 1 week", "2026-11-25T09:30:00Z"), ("in 2 weeks", "2026-12-02T09:30:00Z"),
      ("in 2 months", "2027-01-18T09:30:00Z"), ("in 1 month", "2026-12-18T09:30:00Z"),
      ("in 1 year", "2027-11-18T09:30:00Z"), ("in 2 years", "2028-11-18T09:30:00Z"),
      ("in 5 hours", "2026-11-18T14:30:00Z"), ("in 1 hour", "2026-11-18T10:30:00Z"),
      ("in 10 minutes", "2026-11-18T09:40:00Z"),
      ("eod", "2026-11-18T22:59:59Z"), ("sod", "2026-11-17T23:00:00Z"),
      ("eow", "2026-11-22T22:59:59Z"), ("sow", "2026-11-15T23:00:00Z"),
      ("eom", "2026-11-30T22:59:59Z"), ("som", "2026-10-31T23:00:00Z"),
      ("eoy", "2026-12-31T22:59:59Z"), ("soy", "2025-12-31T23:00:00Z"),
      ("  TOMORROW \t", "2026-11-18T23:00:00Z"), ("Friday", "2026-11-19T23:00:00Z"),
      ("IN 3  DAYS", "2026-11-21T09:30:00Z"), ("2026-12-01t17:00z", "2026-12-01T17:00:00Z"),
      ("EOW", "2026-11-22T22:59:59Z"), ("+3D", "2026-11-21T09:30:00Z"),
    ] as [(String, String)])
  func grammar(expression: String, result: String) throws {
    #expect(try parsed(expression, now: "2026-11-18T09:30:00Z") == result)
  }

  /// Taskwarrior's words, each compared with what `task calc` 2.6.2 prints for the same now
  /// (midsummer eve aside: Taskwarrior gives the Friday a week early; this is the real one).
  @Test(
    arguments: [
      ("jan", "2026-12-31T23:00:00Z"), ("january", "2026-12-31T23:00:00Z"), ("dec", "2026-11-30T23:00:00Z"),
      ("nov", "2027-10-31T23:00:00Z"), ("3days", "2026-11-21T09:30:00Z"), ("2weeks", "2026-12-02T09:30:00Z"),
      ("1month", "2026-12-18T09:30:00Z"), ("+2hrs", "2026-11-18T11:30:00Z"), ("P1W", "2026-11-25T09:30:00Z"),
      ("PT2H", "2026-11-18T11:30:00Z"), ("P1DT12H", "2026-11-19T21:30:00Z"), ("PT90M", "2026-11-18T11:00:00Z"),
      ("P1Y2M", "2028-01-18T09:30:00Z"), ("20261201T140000Z", "2026-12-01T14:00:00Z"),
      ("20261201T140000", "2026-12-01T13:00:00Z"), ("20261201", "2026-11-30T23:00:00Z"),
      ("soww", "2026-11-15T23:00:00Z"), ("eoww", "2026-11-20T22:59:59Z"), ("socm", "2026-10-31T23:00:00Z"),
      ("eocm", "2026-11-30T22:59:59Z"), ("sopw", "2026-11-08T23:00:00Z"), ("eopw", "2026-11-15T22:59:59Z"),
      ("sonw", "2026-11-22T23:00:00Z"), ("eonm", "2026-12-31T22:59:59Z"), ("sonq", "2026-12-31T23:00:00Z"),
      ("eopy", "2025-12-31T22:59:59Z"), ("sopd", "2026-11-16T23:00:00Z"), ("easter", "2027-03-27T23:00:00Z"),
      ("eastermonday", "2027-03-28T22:00:00Z"), ("goodfriday", "2027-03-25T23:00:00Z"),
      ("ascension", "2027-05-05T22:00:00Z"), ("pentecost", "2027-05-15T22:00:00Z"), ("midsommar", "2027-06-25T22:00:00Z"),
      ("midsommarafton", "2027-06-24T22:00:00Z"), ("1st", "2026-11-30T23:00:00Z"), ("22nd", "2026-11-21T23:00:00Z"),
      ("later", "9999-12-29T23:00:00Z"), ("sonww", "2026-11-22T23:00:00Z"), ("eopww", "2026-11-13T22:59:59Z"),
    ] as [(String, String)])
  func taskwarriorsWords(expression: String, result: String) throws {
    #expect(try parsed(expression, now: "2026-11-18T09:30:00Z") == result)
  }

  @Test func easterForSeveralYears() {
    let known: [(Int64, Int, Int)] = [(2024, 3, 31), (2025, 4, 20), (2026, 4, 5), (2027, 3, 28), (2038, 4, 25), (2000, 4, 23)]
    for (year, month, day) in known {
      #expect(DateExpressionParser.easter(year) == CalendarDay(year: year, month: month, day: day), "\(year)")
    }
  }

  // MARK: - Times of day, named days, arithmetic (now = Wednesday 2026-11-18 10:30 CET)

  @Test(
    arguments: [
      ("17:00", "2026-11-18T16:00:00Z"), ("5pm", "2026-11-18T16:00:00Z"), ("5:30PM", "2026-11-18T16:30:00Z"),
      ("9am", "2026-11-19T08:00:00Z"),  // already past today: tomorrow
      ("10:30", "2026-11-19T09:30:00Z"),  // exactly now is not ahead
      ("10:31", "2026-11-18T09:31:00Z"), ("noon", "2026-11-18T11:00:00Z"), ("12pm", "2026-11-18T11:00:00Z"),
      ("midnight", "2026-11-18T23:00:00Z"), ("12am", "2026-11-18T23:00:00Z"), ("at 5pm", "2026-11-18T16:00:00Z"),
      ("tomorrow 9am", "2026-11-19T08:00:00Z"), ("tomorrow at 9am", "2026-11-19T08:00:00Z"),
      ("fri 17:00", "2026-11-20T16:00:00Z"), ("Friday at 5pm", "2026-11-20T16:00:00Z"),
      ("2026-12-24 17:00", "2026-12-24T16:00:00Z"), ("2026-12-24 5pm", "2026-12-24T16:00:00Z"),
      ("dec 24 9:30", "2026-12-24T08:30:00Z"),
      ("next monday", "2026-11-22T23:00:00Z"), ("next wed", "2026-11-24T23:00:00Z"),
      ("next week", "2026-11-22T23:00:00Z"), ("next month", "2026-11-30T23:00:00Z"),
      ("next quarter", "2026-12-31T23:00:00Z"), ("next year", "2026-12-31T23:00:00Z"),
      ("end of month", "2026-11-30T22:59:59Z"), ("end of week", "2026-11-22T22:59:59Z"),
      ("end of day", "2026-11-18T22:59:59Z"), ("start of month", "2026-10-31T23:00:00Z"),
      ("start of year", "2025-12-31T23:00:00Z"),
      ("soq", "2026-09-30T22:00:00Z"), ("eoq", "2026-12-31T22:59:59Z"),
      ("1st", "2026-11-30T23:00:00Z"), ("15th", "2026-12-14T23:00:00Z"),
      ("18th", "2026-12-17T23:00:00Z"),  // today is the 18th: next month's
      ("30th", "2026-11-29T23:00:00Z"), ("31st", "2026-12-30T23:00:00Z"), ("22nd", "2026-11-21T23:00:00Z"),
      ("dec 24", "2026-12-23T23:00:00Z"), ("24 dec", "2026-12-23T23:00:00Z"), ("24th dec", "2026-12-23T23:00:00Z"),
      ("December 24 2027", "2027-12-23T23:00:00Z"), ("24 december 2027", "2027-12-23T23:00:00Z"),
      ("nov 18", "2026-11-17T23:00:00Z"),  // today
      ("nov 17", "2027-11-16T23:00:00Z"),  // past: next year
      ("feb 29", "2028-02-28T23:00:00Z"), ("sept 1", "2027-08-31T22:00:00Z"),
      ("later", "9999-12-29T23:00:00Z"), ("someday", "9999-12-29T23:00:00Z"),
      ("eom+1d", "2026-12-01T22:59:59Z"), ("now-2h", "2026-11-18T07:30:00Z"),
      ("friday+16h", "2026-11-20T15:00:00Z"), ("1d12h", "2026-11-19T21:30:00Z"),
      ("+1w2d", "2026-11-27T09:30:00Z"), ("in 90 min", "2026-11-18T11:00:00Z"),
      ("in 1d12h", "2026-11-19T21:30:00Z"), ("tomorrow 9am+30min", "2026-11-19T08:30:00Z"),
      ("2026-12-24+1d", "2026-12-24T23:00:00Z"), ("eom-1mo", "2026-10-30T22:59:59Z"),
      ("today+1d-2h", "2026-11-18T21:00:00Z"),
    ] as [(String, String)])
  func extendedGrammar(expression: String, result: String) throws {
    #expect(try parsed(expression, now: "2026-11-18T09:30:00Z") == result)
  }

  /// A day named without a time of day is read as that calendar day; a time, an hour or a
  /// minute offset makes an instant.
  @Test(
    arguments: [
      ("today", "2026-11-18"), ("tomorrow", "2026-11-19"), ("fri", "2026-11-20"), ("eow", "2026-11-22"),
      ("eom", "2026-11-30"), ("eom+1d", "2026-12-01"), ("2026-12-24", "2026-12-24"), ("dec 24", "2026-12-24"),
      ("15th", "2026-12-15"), ("next month", "2026-12-01"), ("later", "9999-12-30"), ("friday+1w", "2026-11-27"),
      ("fri 17:00", nil), ("friday+16h", nil), ("now", nil), ("+3d", nil), ("17:00", nil),
      ("2026-12-24T10:00", nil), ("in 3 days", nil),
    ] as [(String, String?)])
  func daysAndInstants(expression: String, day: String?) throws {
    let now = try #require(Timestamp.parseRFC3339("2026-11-18T09:30:00Z"))
    let reading = try withEnvironment("TZ", berlin) { try DateExpressionParser(now: now).read(expression) }
    #expect(reading.day?.description == day)
  }

  @Test(
    arguments: [
      ("25:00", "invalid time: hour must be 0-23"), ("13pm", "invalid time: hour must be 1-12 with am or pm"),
      ("0am", "invalid time: hour must be 1-12 with am or pm"), ("9:75", "invalid time: minute must be 0-59"),
      ("dec 32", "invalid date: day must be 1-31 in 2026-12"), ("feb 29 2027", "invalid date: day must be 1-28 in 2027-02"),
      ("32nd", "invalid date: a day of the month is 1st to 31st"), ("1d12m", bareM),
      ("now 9am", notADate), ("next day", notADate), ("decc 24", notADate), ("24", notADate), ("1th", notADate),
      ("eom+", notADate), ("eom +1d", notADate), ("jun 5 1969", "out of range: the year must be 1970 to 9999"),
      ("9am tomorrow", notADate), ("later+1y", outOfRange),
      ("eom+30m", bareM), ("now-5m", bareM), ("in 30 m", bareM), ("dec 2027", notADate), ("dec 0024", notADate),
    ] as [(String, String)])
  func extendedErrors(expression: String, reason: String) {
    let error = #expect(throws: DateExpressionError.self) {
      try parsed(expression, now: "2026-11-18T09:30:00Z")
    }
    #expect(error == DateExpressionError(expression: expression, reason: reason))
  }

  @Test func timesAcrossTheSpringGapAndMonthEnds() throws {
    // Saturday 2026-03-28 12:00 CET; clocks jump on Sunday 02:00 → 03:00.
    let now = "2026-03-28T11:00:00Z"
    #expect(try parsed("tomorrow 2:30am", now: now) == "2026-03-29T01:30:00Z")  // read before the gap
    #expect(try parsed("tomorrow noon", now: now) == "2026-03-29T10:00:00Z")  // 12:00 CEST
    #expect(try parsed("eom", now: now) == "2026-03-31T21:59:59Z")
    #expect(try parsed("31st", now: "2026-04-10T10:00:00Z") == "2026-05-30T22:00:00Z")  // April has 30
    #expect(try parsed("29th", now: "2027-01-30T10:00:00Z") == "2027-03-28T22:00:00Z")  // not in Feb 2027
    #expect(try parsed("29th", now: "2028-01-30T10:00:00Z") == "2028-02-28T23:00:00Z")  // leap year
    #expect(try parsed("eoq", now: "2028-02-10T10:00:00Z") == "2028-03-31T21:59:59Z")
  }

  // MARK: - DST

  @Test func springForwardNewYork() throws {
    let now = "2026-03-07T17:00:00Z"  // Saturday 12:00 EST; clocks jump on Sunday 02:00
    #expect(try parsed("+1d", now: now, zone: newYork) == "2026-03-08T16:00:00Z")  // 12:00 EDT
    #expect(try seconds("+1d", now: now, zone: newYork) - seconds("now", now: now) == 23 * 3600)
    #expect(try parsed("24h", now: now, zone: newYork) == "2026-03-08T17:00:00Z")  // 13:00 EDT
    #expect(try parsed("tomorrow", now: now, zone: newYork) == "2026-03-08T05:00:00Z")
    #expect(try parsed("eod", now: now, zone: newYork) == "2026-03-08T04:59:59Z")
    #expect(try parsed("1w", now: now, zone: newYork) == "2026-03-14T16:00:00Z")
  }

  @Test func fallBackBerlin() throws {
    let now = "2026-10-24T10:00:00Z"  // Saturday 12:00 CEST; clocks fall back on Sunday 03:00
    #expect(try parsed("+1d", now: now) == "2026-10-25T11:00:00Z")  // 12:00 CET
    #expect(try seconds("+1d", now: now) - seconds("now", now: now) == 25 * 3600)
    #expect(try parsed("in 1 week", now: now) == "2026-10-31T11:00:00Z")
    #expect(try parsed("-1d", now: now) == "2026-10-23T10:00:00Z")
  }

  @Test func nonexistentLocalTimeIsReadWithTheOffsetBeforeTheGap() throws {
    let now = "2026-03-01T12:00:00Z"
    #expect(try parsed("2026-03-08T02:30", now: now, zone: newYork) == "2026-03-08T07:30:00Z")
    #expect(try parsed("2026-03-29 02:30", now: now) == "2026-03-29T01:30:00Z")
    // +1d from 02:30 EST lands in the gap: 03:30 EDT.
    #expect(try parsed("+1d", now: "2026-03-07T07:30:00Z", zone: newYork) == "2026-03-08T07:30:00Z")
  }

  @Test func ambiguousLocalTimeIsTheEarlierInstant() throws {
    let now = "2026-10-01T12:00:00Z"
    // Asked after a summer and a winter time too: glibc's mktime would answer differently.
    for warmUp in ["2026-07-01T12:00", "2026-12-01T12:00", "2026-11-02T12:00"] {
      _ = try parsed(warmUp, now: now, zone: newYork)
      #expect(try parsed("2026-11-01T01:30", now: now, zone: newYork) == "2026-11-01T05:30:00Z")
      _ = try parsed(warmUp, now: now)
      #expect(try parsed("2026-10-25T02:30", now: now) == "2026-10-25T00:30:00Z")
    }
  }

  @Test(.enabled(if: access("/usr/share/zoneinfo/America/New_York", R_OK) == 0))
  func namedZones() throws {
    let ny = "America/New_York"
    let de = "Europe/Berlin"
    #expect(try parsed("+1d", now: "2026-03-07T17:00:00Z", zone: ny) == "2026-03-08T16:00:00Z")
    #expect(try parsed("+1d", now: "2026-10-24T10:00:00Z", zone: de) == "2026-10-25T11:00:00Z")
  }

  // MARK: - Month clamping, leap years, weekday wrap

  @Test(
    arguments: [
      ("1mo", "2026-01-31T09:00:00Z", "2026-02-28T09:00:00Z"),
      ("1mo", "2028-01-31T09:00:00Z", "2028-02-29T09:00:00Z"),
      ("-1mo", "2026-03-31T08:00:00Z", "2026-02-28T09:00:00Z"),  // 10:00 CEST → 10:00 CET
      ("2mo", "2026-12-31T09:00:00Z", "2027-02-28T09:00:00Z"),
      ("in 1 month", "2026-10-31T09:00:00Z", "2026-11-30T09:00:00Z"),
      ("13mo", "2026-01-31T09:00:00Z", "2027-02-28T09:00:00Z"),
      ("1y", "2028-02-29T09:00:00Z", "2029-02-28T09:00:00Z"),
      ("4y", "2028-02-29T09:00:00Z", "2032-02-29T09:00:00Z"),
      ("-1y", "2028-02-29T09:00:00Z", "2027-02-28T09:00:00Z"),
      ("eom", "2028-02-10T09:00:00Z", "2028-02-29T22:59:59Z"),
      ("eom", "2026-02-10T09:00:00Z", "2026-02-28T22:59:59Z"),
      ("+1d", "2028-02-28T09:00:00Z", "2028-02-29T09:00:00Z"),
      ("+1d", "2100-02-28T09:00:00Z", "2100-03-01T09:00:00Z"),
      ("sunday", "2026-11-22T09:00:00Z", "2026-11-28T23:00:00Z"),  // on a Sunday: next week
      ("mon", "2026-11-22T09:00:00Z", "2026-11-22T23:00:00Z"),
      ("eow", "2026-11-22T09:00:00Z", "2026-11-22T22:59:59Z"),  // Sunday ends its own week
      ("sow", "2026-11-22T09:00:00Z", "2026-11-15T23:00:00Z"),
      ("sow", "2026-11-16T09:00:00Z", "2026-11-15T23:00:00Z"),  // on a Monday: today
      ("monday", "2026-12-30T09:00:00Z", "2027-01-03T23:00:00Z"),  // across the year
      ("eow", "2026-12-30T09:00:00Z", "2027-01-03T22:59:59Z"),
      ("sow", "2027-01-01T09:00:00Z", "2026-12-27T23:00:00Z"),
      ("tomorrow", "2026-12-31T09:00:00Z", "2026-12-31T23:00:00Z"),
    ] as [(String, String, String)])
  func calendar(expression: String, now: String, result: String) throws {
    #expect(try parsed(expression, now: now) == result)
  }

  @Test(arguments: ["2028-02-29", "2000-02-29", "2400-02-29", "1970-01-01", "9999-12-31"])
  func validDates(text: String) throws {
    #expect(try parsed(text, now: "2026-11-18T09:30:00Z", zone: "UTC0") == text + "T00:00:00Z")
  }

  // MARK: - Errors

  @Test(
    arguments: [
      ("2026-13-01", "invalid date: month must be 1-12"),
      ("2026-00-10", "invalid date: month must be 1-12"),
      ("2026-02-30", "invalid date: day must be 1-28 in 2026-02"),
      ("2027-02-29", "invalid date: day must be 1-28 in 2027-02"),
      ("2100-02-29", "invalid date: day must be 1-28 in 2100-02"),
      ("2026-04-31", "invalid date: day must be 1-30 in 2026-04"),
      ("2026-01-00", "invalid date: day must be 1-31 in 2026-01"),
      ("2026-12-01T24:00", "invalid time: hour must be 0-23"),
      ("2026-12-01T12:60", "invalid time: minute must be 0-59"),
      ("2026-12-01T12:00:60", "invalid time: second must be 0-59"),
      ("2026-12-01T12:00+24:00", "invalid time: offset must be between -23:59 and +23:59"),
      ("1969-12-31", "out of range: the year must be 1970 to 9999"),
      ("0000-01-01", "out of range: the year must be 1970 to 9999"),
      ("fridayy", "not a date: did you mean 'friday'?"),
      ("  Tomorow ", "not a date: did you mean 'tomorrow'?"),
      ("eox", "not a date: did you mean 'eod'?"),
      ("", empty), (" \t ", empty),
      ("+d", notADate), ("d", notADate),
      ("soon", notADate), ("3 d", notADate),
      ("in 3", notADate), ("in three days", notADate),
      ("in -3 days", notADate), ("3dayz", notADate),
      ("2026-1-1", notADate), ("2026-12-01T", notADate),
      ("12/01/2026", notADate), ("2026-12-01Z", notADate),
      ("tomorrow night", notADate), ("+-3d", notADate),
      ("2026-12-01T17:00:00.Z", notADate), ("٣d", notADate),
      ("99999999999d", outOfRange), ("99999999999999999999d", outOfRange),
      ("-99999999999w", outOfRange), ("99999999999mo", outOfRange), ("9999y", outOfRange),
      ("in 99999999999 years", outOfRange), ("9223372036854775807h", outOfRange),
      ("-9223372036854775808min", outOfRange), ("-9223372036854775808d", outOfRange),
      ("9223372036854775807min", outOfRange), ("-57y", outOfRange),
      ("30m", bareM), ("+2m", bareM), ("-1M", bareM),
    ] as [(String, String)])
  func errors(expression: String, reason: String) {
    let error = #expect(throws: DateExpressionError.self) {
      try parsed(expression, now: "2026-11-18T09:30:00Z")
    }
    #expect(error == DateExpressionError(expression: expression, reason: reason))
  }

  @Test func resultsOutsideTheYearsAreRefused() throws {
    let late = "9999-12-31T12:00:00Z"
    let early = "1970-01-01T00:00:00Z"
    for (text, now) in [("tomorrow", late), ("+1y", late), ("in 1 day", late), ("-1d", early)] {
      let error = #expect(throws: DateExpressionError.self) { try parsed(text, now: now) }
      #expect(error?.reason == outOfRange)
    }
    #expect(try parsed("eoy", now: late, zone: "UTC0") == "9999-12-31T23:59:59Z")
    #expect(try parsed("12h", now: "9999-12-31T11:00:00Z", zone: "UTC0") == "9999-12-31T23:00:00Z")
  }

  @Test func randomTextNeverTraps() {
    var random = SeededGenerator(seed: 42)
    let alphabet = Array("0123456789+-:. tTzZdwmyhinoaseu9")
    for _ in 0..<2000 {
      let length = random.next(below: 14)
      let text = String((0..<length).map { _ in alphabet[random.next(below: alphabet.count)] })
      _ = try? seconds(text, now: "2026-11-18T09:30:00Z")
    }
  }

  // MARK: - Timestamp functions that read TZ or the environment

  @Test(arguments: [
    (berlin, "2026-11-21T09:30:00Z", "2026-11-21 10:30 CET"),
    (berlin, "2026-07-01T12:00:00Z", "2026-07-01 14:00 CEST"),
    (newYork, "2026-11-21T09:30:00Z", "2026-11-21 04:30 EST"),
    (newYork, "2026-03-08T07:30:00Z", "2026-03-08 03:30 EDT"),
    ("UTC0", "2026-11-21T09:30:00Z", "2026-11-21 09:30 UTC"),
    ("<+0530>-5:30", "2026-11-21T09:30:00Z", "2026-11-21 15:00 +0530"),
  ])
  func localDescription(zone: String, instant: String, text: String) throws {
    let seconds = try #require(Timestamp.parseRFC3339(instant))
    #expect(withEnvironment("TZ", zone) { Timestamp.localDescription(seconds) } == text)
  }

  /// The core reads the clock only: `TODO_NOW` is the front end's to honour (`Session.now`).
  /// Nothing in TodoCore or DataOperation reads the environment, which is checked in their
  /// sources (setting a variable here would race with the other tests' threads reading theirs).
  @Test func theCoresClockIsTheSystemsAndTheCoreReadsNoEnvironment() throws {
    let clock = Int64(time(nil))
    let now = Timestamp.systemNow()
    #expect(now >= clock && now <= clock + 5)
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    var read = 0
    for target in ["TodoCore", "DataOperation"] {
      let folder = sources.appendingPathComponent(target)
      let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      for file in files where file.hasSuffix(".swift") {
        read += 1
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for word in ["getenv(", "ProcessInfo", "setenv("] {
          #expect(!text.contains(word), "\(target)/\(file) reads the environment (\(word))")
        }
        #expect(!text.contains(#/\benviron\b/#), "\(target)/\(file) reads the environment (environ)")
      }
    }
    #expect(read > 20)
  }
}

// MARK: - Helpers

/// Runs `body` with the environment variable set (or unset), restoring it afterwards.
/// Reminders whole days before a timed date keep its time of day over a DST change (in this
/// suite: they read `TZ`).
extension DateExpressionTests {
  @Test func reminderWholeDaysBeforeATimedDateAreCalendarDays() throws {
    try withEnvironment("TZ", berlin) {
      // Due Monday 2026-03-30 00:30 CEST; the clocks went forward on Sunday the 29th at 02:00.
      let due = try #require(Timestamp.wallClock(year: 2026, month: 3, day: 30, hour: 0, minute: 30, second: 0))
      let dayBefore = try Reminder(parsing: "due-1d", now: due).fire(due: .instant(due), scheduled: nil)
      #expect(dayBefore.map(Timestamp.localDescription) == "2026-03-29 00:30 CET")
      let morning = try Reminder(parsing: "due-1d@09:00", now: due).fire(due: .instant(due), scheduled: nil)
      #expect(morning.map(Timestamp.localDescription) == "2026-03-29 09:00 CEST")
      let hours = try Reminder(parsing: "due-23h", now: due).fire(due: .instant(due), scheduled: nil)
      #expect(hours.map(Timestamp.localDescription) == "2026-03-29 00:30 CET")
    }
  }
}

private func withEnvironment<T>(
  _ name: String, _ value: String?, _ body: () throws -> T
) rethrows -> T {
  precondition(name == "TZ", "only TZ, which takes turns (ProcessZone); another variable would race")
  return try ProcessZone.with(value, body)
}

/// `expression` parsed at `now` (RFC 3339) in `zone`, as seconds.
private func seconds(_ expression: String, now: String, zone: String = berlin) throws -> Int64 {
  let now = try #require(Timestamp.parseRFC3339(now))
  return try withEnvironment("TZ", zone) { try DateExpressionParser(now: now).parse(expression) }
}

/// `expression` parsed at `now` (RFC 3339) in `zone`, as RFC 3339 UTC.
private func parsed(_ expression: String, now: String, zone: String = berlin) throws -> String {
  Timestamp.rfc3339(try seconds(expression, now: now, zone: zone))
}

@Suite struct UserAttributeTests {
  @Test func durationsReadAsTaskwarriorAndTodoWriteThem() {
    for (text, seconds) in [
      ("PT1H30M", 5_400), ("90min", 5_400), ("1h30min", 5_400), ("2h", 7_200), ("P1D", 86_400), ("3d", 259_200),
      ("1w", 604_800), ("P2W", 1_209_600), ("PT45S", 45), ("3600", 3_600), ("P1DT12H", 129_600),
    ] {
      #expect(UserAttribute.seconds(text) == Int64(seconds), "\(text)")
    }
    for text in ["", "soon", "PT", "h2", "1h30", "-2h"] { #expect(UserAttribute.seconds(text) == nil, "\(text)") }
    #expect(UserAttribute.isoDuration(5_400) == "PT1H30M" && UserAttribute.isoDuration(129_600) == "P1DT12H")
    #expect(UserAttribute.isoDuration(0) == "PT0S" && UserAttribute.isoDuration(86_400) == "P1D")
  }

  @Test func storedValuesAreTaskwarriorsJSON() throws {
    #expect(try UserAttribute(name: "client").stored("Say \"hi\"", now: 0) == #""Say \"hi\"""#)
    #expect(try UserAttribute(name: "size", kind: .numeric).stored("3", now: 0) == "3")
    #expect(try UserAttribute(name: "size", kind: .numeric).stored("2.5", now: 0) == "2.5")
    #expect(try UserAttribute(name: "estimate", kind: .duration).stored("90min", now: 0) == #""PT1H30M""#)
    #expect(UserAttribute.plain(#""a\nb""#) == .text("a\nb") && UserAttribute.plain("3") == .number(3))
    #expect(!UserAttribute.isName("project") && !UserAttribute.isName("todo_series") && UserAttribute.isName("client_2"))
  }
}
