import TodoSystem

// Instants as Int64 seconds since the Unix epoch (UTC): RFC 3339 text, local display, relative
// display and the clock. UTC calendar arithmetic is done here by hand (exact for every Int64);
// only local time goes through the C library (LocalTime.swift).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Converting instants (`Int64` seconds since 1970-01-01T00:00:00Z) to and from text.
///
/// ```swift
/// let t = Timestamp.parseRFC3339("2026-11-21T09:30:00Z")  // 1795253400
/// Timestamp.rfc3339(1_795_253_400)  // "2026-11-21T09:30:00Z"
/// ```
public enum Timestamp {
  /// The instants a task may hold: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the years the
  /// date parser reads, a day column holds and every format we write can carry (RFC 3339 and
  /// iCalendar have four-digit years; Taskwarrior's `YYYYMMDDTHHMMSSZ` too). A date from any
  /// source outside them is refused before any arithmetic is done with it.
  public static let representable: ClosedRange<Int64> = 0...253_402_300_799

  /// The refusal of a date outside `representable`, for messages.
  public static let outOfRangeReason = "dates must be in the years 1970 to 9999"

  /// Formats an instant as RFC 3339 in UTC, whole seconds, with a `Z` suffix.
  ///
  /// ```swift
  /// Timestamp.rfc3339(0)  // "1970-01-01T00:00:00Z"
  /// ```
  public static func rfc3339(_ seconds: Int64) -> String {
    let (days, second) = Civil.split(seconds)
    let date = Civil.date(days: days)
    guard (0...9999).contains(date.year) else {
      return Civil.dateText(date.year, date.month, date.day) + "T" + Civil.two(Int(second / 3600))
        + ":" + Civil.two(Int(second / 60 % 60)) + ":" + Civil.two(Int(second % 60)) + "Z"
    }
    // The usual four-digit year, written byte by byte into the string's own storage: exports and
    // `--jsonl` write three of these per task (string concatenation cost 17k instructions each).
    let hour = Int(second / 3600), minute = Int(second / 60 % 60), secs = Int(second % 60)
    return String(unsafeUninitializedCapacity: 20) { buffer in
      Civil.writeDate(Int(date.year), date.month, date.day, into: buffer)
      Civil.writeTwo(hour, into: buffer, at: 11)
      Civil.writeTwo(minute, into: buffer, at: 14)
      Civil.writeTwo(secs, into: buffer, at: 17)
      buffer[10] = UInt8(ascii: "T")
      buffer[13] = UInt8(ascii: ":")
      buffer[16] = UInt8(ascii: ":")
      buffer[19] = UInt8(ascii: "Z")
      return 20
    }
  }

  /// A wall-clock time read as UTC, in seconds since the epoch (no zone, no range check): the
  /// arithmetic a calendar's own time zone rules are applied with (see `ICalendar`).
  public static func wallSeconds(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
    Civil.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// The calendar date of a wall-clock time read as UTC (the inverse of `wallSeconds`, to the day).
  public static func date(ofWallSeconds seconds: Int64) -> (year: Int64, month: Int, day: Int) {
    Civil.date(days: Civil.split(seconds).days)
  }

  /// The day of the week of a date, 0 = Sunday … 6 = Saturday.
  public static func weekday(year: Int64, month: Int, day: Int) -> Int {
    Civil.weekday(days: Civil.days(year: year, month: month, day: day))
  }

  /// The number of days in a month of a year.
  public static func daysIn(month: Int, year: Int64) -> Int { Civil.daysIn(month: month, year: year) }

  /// Reads an RFC 3339 time: `YYYY-MM-DDTHH:MM:SS`, optional fraction (dropped), then `Z`
  /// or a `±HH:MM` offset. `t`, `z` and a space for `T` are accepted too; a leap second
  /// (`:60`) reads as the next second. Returns nil for anything else or an invalid date.
  ///
  /// ```swift
  /// Timestamp.parseRFC3339("2026-11-21T10:30:00.250+01:00")  // 1795253400
  /// Timestamp.parseRFC3339("2026-02-30T00:00:00Z")  // nil
  /// ```
  public static func parseRFC3339(_ text: String) -> Int64? {
    guard let parts = DateTimeText(Array(text.utf8)), parts.hasSeconds, let offset = parts.offset,
      parts.problem(allowLeapSecond: true) == nil
    else { return nil }
    return parts.wallSeconds - offset
  }

  /// `parseRFC3339` for a task's time: nil outside `representable` too (a western offset on
  /// 9999-12-31 is already the year 10000 in UTC).
  public static func parseTaskTime(_ text: String) -> Int64? {
    parseRFC3339(text).flatMap { representable.contains($0) ? $0 : nil }
  }

  /// The instant of a wall-clock time: in the process's zone (`TZ`) when `zone` is nil, else in
  /// the named IANA zone (`Europe/Berlin`). Nil for an unknown zone, or fields out of range (a
  /// year outside 1970...9999).
  /// A time in a spring-forward gap or an autumn overlap reads as `CalendarDay.start` does.
  public static func wallClock(
    year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int, zone: String? = nil
  ) -> Int64? {
    guard (1...12).contains(month), day >= 1, day <= Civil.daysIn(month: month, year: year), (0...23).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    // A leap second reads as the next second.
    guard (1970...9999).contains(year) else { return nil }
    let leap = second == 60 ? 1 : 0
    let instant: Int64?
    if let zone {
      instant = LocalTime.instant(inZone: zone, year: year, month: month, day: day, hour: hour, minute: minute, second: second - leap)
    } else {
      instant = LocalTime.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second - leap)
    }
    // Not checked against `representable`: a western zone's last hours of 9999 are already the
    // year 10000 in UTC, which the caller refuses as out of range (not as an unknown zone).
    return instant.map { $0 + Int64(leap) }
  }

  /// Formats an instant as local wall-clock time (process `TZ`): `YYYY-MM-DD HH:MM ZONE`.
  /// Falls back to RFC 3339 for an instant the C library cannot represent.
  ///
  /// ```swift
  /// // with TZ=Europe/Berlin
  /// Timestamp.localDescription(1_795_253_400)  // "2026-11-21 10:30 CET"
  /// ```
  public static func localDescription(_ seconds: Int64) -> String {
    guard let local = LocalTime.fields(seconds) else { return rfc3339(seconds) }
    return Civil.dateText(local.year, local.month, local.day) + " " + Civil.two(local.hour) + ":"
      + Civil.two(local.minute) + " " + local.zone
  }

  /// The local time of day of an instant, `HH:MM`; nil if the C library cannot represent it.
  public static func localTimeOfDay(_ seconds: Int64) -> String? {
    guard let local = LocalTime.fields(seconds) else { return nil }
    return Civil.two(local.hour) + ":" + Civil.two(local.minute)
  }

  /// A compact relative form for a table column: `in 45m`, `in 5h`, `in 2d`, `in 3w`,
  /// `in 4mo`, `in 1y`, `overdue 3h`, … and `now` within a minute either way.
  ///
  /// Units, rounded down: under 60 minutes `m`, under 48 hours `h`, under 14 days `d`,
  /// under 8 weeks `w`, under 365 days `mo` (30-day months), else `y` (365-day years).
  ///
  /// ```swift
  /// Timestamp.relative(1_000 + 7_200, now: 1_000)  // "in 2h"
  /// Timestamp.relative(1_000 - 3 * 86_400, now: 1_000)  // "overdue 3d"
  /// Timestamp.relative(1_000 - 3 * 86_400, now: 1_000, past: .ago)  // "3d ago"
  /// ```
  public static func relative(_ seconds: Int64, now: Int64, past: PastStyle = .overdue) -> String {
    let (difference, overflow) = seconds.subtractingReportingOverflow(now)
    let future = overflow ? seconds > now : difference > 0
    let magnitude = overflow ? UInt64.max : difference.magnitude
    if magnitude < 60 { return "now" }
    let minutes = magnitude / 60
    let hours = magnitude / 3600
    let days = magnitude / 86_400
    let amount: String
    if minutes < 60 {
      amount = "\(minutes)min"
    } else if hours < 48 {
      amount = "\(hours)h"
    } else {
      amount = Self.days(days)
    }
    return worded(amount, future: future, past: past)
  }

  /// A time worked as a timesheet shows it: `2h 05m`, `45m`, `30s`.
  public static func duration(_ seconds: Int64) -> String {
    let hours = seconds / 3600
    let minutes = seconds % 3600 / 60
    if hours > 0 { return "\(hours)h \(minutes < 10 ? "0" : "")\(minutes)m" }
    if minutes > 0 { return "\(minutes)m" }
    return "\(seconds)s"
  }

  /// A number of days as a table shows it: `9d` under 14 days, then `3w` under 8 weeks, `4mo`
  /// under a year (30-day months), else `2y` (365-day years).
  public static func days(_ days: UInt64) -> String {
    if days < 14 { return "\(days)d" }
    if days < 56 { return "\(days / 7)w" }
    if days < 365 { return "\(days / 30)mo" }
    return "\(days / 365)y"
  }

  /// `in 3d`, or for the past `overdue 3d` / `3d ago`.
  public static func worded(_ amount: String, future: Bool, past: PastStyle) -> String {
    if future { return "in " + amount }
    switch past {
    case .overdue: return "overdue " + amount
    case .ago: return amount + " ago"
    }
  }

  /// How `relative` words a time in the past: a due date is `overdue 3h`, any other time `3h ago`.
  public enum PastStyle: Sendable {
    case overdue, ago
  }

  /// The current time from the system clock. The core never reads the clock on its own: every
  /// operation is given `now`, which a front end takes from here or from elsewhere (`Session`
  /// honours `TODO_NOW` for deterministic end-to-end tests).
  ///
  /// ```swift
  /// let now = Timestamp.systemNow()  // seconds since 1970, e.g. 1795253400
  /// ```
  public static func systemNow() -> Int64 {
    Int64(time(nil))
  }
}

extension LocalTime {
  /// The instant of a local wall-clock time (see `LocalTime.instant(wall:)`), the fields in range.
  static func instant(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
    instant(wall: Civil.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
  }

  /// The instant of a wall-clock time in a named IANA zone (see `LocalTime.instant(inZone:wall:)`).
  static func instant(inZone zone: String, year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
    instant(inZone: zone, wall: Civil.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
  }
}

/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01).
enum Civil {
  /// Day number of a date (H. Hinnant's `days_from_civil`); exact for |year| < 10^13.
  static func days(year: Int64, month: Int, day: Int) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * Int64((month + 9) % 12) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day number (`civil_from_days`); exact for every |days| < 10^15.
  static func date(days: Int64) -> (year: Int64, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * shifted + 2) / 5 + 1)
    let month = Int(shifted < 10 ? shifted + 3 : shifted - 9)
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Seconds since the epoch of a wall-clock time read as UTC.
  static func seconds(
    year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) -> Int64 {
    days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// Splits an instant into a day number and the second of that day (0..<86400), no overflow.
  static func split(_ seconds: Int64) -> (days: Int64, second: Int64) {
    let remainder = seconds % 86_400
    return remainder < 0
      ? (seconds / 86_400 - 1, remainder + 86_400) : (seconds / 86_400, remainder)
  }

  /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
  static func weekday(days: Int64) -> Int {
    let remainder = Int((days + 4) % 7)
    return remainder < 0 ? remainder + 7 : remainder
  }

  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int, year: Int64) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Writes `YYYY-MM-DD` (a year in 0...9999) into the first 10 bytes of `buffer`.
  static func writeDate(_ year: Int, _ month: Int, _ day: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) {
    writeTwo(year / 100, into: buffer, at: 0)
    writeTwo(year % 100, into: buffer, at: 2)
    buffer[4] = UInt8(ascii: "-")
    writeTwo(month, into: buffer, at: 5)
    buffer[7] = UInt8(ascii: "-")
    writeTwo(day, into: buffer, at: 8)
  }

  /// Writes a number in 0...99 as two digits at `offset`.
  static func writeTwo(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
    buffer[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
    buffer[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
  }

  static func dateText(_ year: Int64, _ month: Int, _ day: Int) -> String {
    if (0...9999).contains(year) {
      return String(unsafeUninitializedCapacity: 10) { buffer in
        writeDate(Int(year), month, day, into: buffer)
        return 10
      }
    }
    let digits = String(year.magnitude)
    let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return (year < 0 ? "-" : "") + padded + "-" + two(month) + "-" + two(day)
  }
}

/// The pieces of `YYYY-MM-DD[(T|t| )HH:MM[:SS[.fff]][Z|z|±HH:MM]]`, not yet range-checked.
struct DateTimeText: Sendable {
  var year: Int64 = 0, month = 0, day = 0
  var hour = 0, minute = 0, second = 0
  var hasTime = false, hasSeconds = false
  var offsetHour = 0, offsetMinute = 0
  /// Seconds east of UTC; nil when no zone was given (a local wall-clock time).
  var offset: Int64?

  /// Reads the shape (exact digit counts, separators); nil if the text has another shape.
  init?(_ bytes: [UInt8]) {
    var cursor = Cursor(bytes: bytes)
    guard let year = cursor.number(4), cursor.skip("-"), let month = cursor.number(2),
      cursor.skip("-"), let day = cursor.number(2)
    else { return nil }
    (self.year, self.month, self.day) = (Int64(year), month, day)
    if cursor.atEnd { return }
    guard cursor.skip("t") || cursor.skip("T") || cursor.skip(" "),
      let hour = cursor.number(2), cursor.skip(":"), let minute = cursor.number(2)
    else { return nil }
    (hasTime, self.hour, self.minute) = (true, hour, minute)
    if cursor.skip(":") {
      guard let second = cursor.number(2) else { return nil }
      (hasSeconds, self.second) = (true, second)
      if cursor.skip(".") {
        guard cursor.number(1) != nil else { return nil }
        while cursor.number(1) != nil {}
      }
    }
    if cursor.skip("z") || cursor.skip("Z") {
      offset = 0
    } else if cursor.atEnd {
      return
    } else {
      let sign: Int64 = cursor.skip("+") ? 1 : cursor.skip("-") ? -1 : 0
      guard sign != 0, let hours = cursor.number(2), cursor.skip(":"),
        let minutes = cursor.number(2)
      else { return nil }
      (offsetHour, offsetMinute) = (hours, minutes)
      offset = sign * Int64(hours * 3600 + minutes * 60)
    }
    guard cursor.atEnd else { return nil }
  }

  /// Why the fields are out of range (a reason for `DateExpressionError`), or nil if valid.
  func problem(allowLeapSecond: Bool) -> String? {
    if !(1...12).contains(month) { return "invalid date: month must be 1-12" }
    let last = Civil.daysIn(month: month, year: year)
    if !(1...last).contains(day) {
      return "invalid date: day must be 1-\(last) in \(Civil.dateText(year, month, 1).prefix(7))"
    }
    if hour > 23 { return "invalid time: hour must be 0-23" }
    if minute > 59 { return "invalid time: minute must be 0-59" }
    if second > (allowLeapSecond ? 60 : 59) { return "invalid time: second must be 0-59" }
    if offsetHour > 23 || offsetMinute > 59 {
      return "invalid time: offset must be between -23:59 and +23:59"
    }
    return nil
  }

  /// The wall-clock time read as if it were UTC.
  var wallSeconds: Int64 {
    Civil.seconds(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }
}

/// A byte cursor for `DateTimeText`.
private struct Cursor {
  let bytes: [UInt8]
  var index = 0

  var atEnd: Bool { index == bytes.count }

  /// Consumes exactly `count` ASCII digits.
  mutating func number(_ count: Int) -> Int? {
    guard bytes.count - index >= count else { return nil }
    var value = 0
    for byte in bytes[index..<index + count] {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    index += count
    return value
  }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }
}
