import DataOperation
import TodoSystem

/// A date on a task (due, wait, scheduled, until): an exact instant (`fri 17:00`, `+3h`) or a
/// whole calendar day (`today`, `fri`, `dec 24`), the distinction iCalendar makes with
/// `DUE;VALUE=DATE`. A day is a day wherever the user is: `due:today` is due until the local
/// day ends, and "due Monday" stays Monday after a flight to New York.
///
/// Stored in two columns: the instant (for a day, its local start when it was written: what
/// lists sort by and what indexes range over) and, for a day, the day itself as `YYYY-MM-DD`.
///
/// ```swift
/// TaskDate(try DateExpressionParser(now: now).read("fri"))        // .day(2026-11-27)
/// TaskDate(try DateExpressionParser(now: now).read("fri 17:00"))  // .instant(…)
/// ```
public enum TaskDate: Sendable, Equatable, Hashable {
  case instant(Int64)
  case day(CalendarDay)

  /// The date an expression named: its day when it named one without a time, else its instant.
  public init(_ reading: DateReading) {
    if let day = reading.day { self = .day(day) } else { self = .instant(reading.instant) }
  }

  /// The instant stored for ordering: the instant itself, or the local start of the day.
  public var sortInstant: Int64 {
    switch self {
    case .instant(let instant): instant
    case .day(let day): day.start
    }
  }

  /// The day column: `YYYY-MM-DD` for a day, nil for an instant.
  public var dayText: String? {
    if case .day(let day) = self { return day.description }
    return nil
  }

  /// JSON and export text: `2026-11-23` for a day, RFC 3339 UTC for an instant.
  public var text: String {
    switch self {
    case .instant(let instant): Timestamp.rfc3339(instant)
    case .day(let day): day.description
    }
  }

  /// Whether the date is one a task may hold (`Timestamp.representable`; a day in 1970...9999).
  public var isRepresentable: Bool {
    switch self {
    case .instant(let instant): Timestamp.representable.contains(instant)
    case .day(let day): (1970...9999).contains(day.year)
    }
  }

  /// Before `now`: a day only once it has ended where the user is now.
  public func isPast(now: Int64) -> Bool {
    switch self {
    case .instant(let instant): instant < now
    case .day(let day): day < CalendarDay.local(now)
    }
  }
}

extension CalendarDay: Comparable {
  public static func < (left: CalendarDay, right: CalendarDay) -> Bool {
    (left.year, left.month, left.day) < (right.year, right.month, right.day)
  }

  /// 0 = Sunday … 6 = Saturday.
  public var weekday: Int { Civil.weekday(days: dayNumber) }

  /// Days since 1970-01-01.
  public var dayNumber: Int64 { Civil.days(year: year, month: month, day: day) }

  /// The day `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int64) {
    let date = Civil.date(days: dayNumber)
    self.init(year: date.year, month: date.month, day: date.day)
  }

  /// The local calendar day of an instant (the process's `TZ`); UTC's if the C library cannot say.
  public static func local(_ instant: Int64) -> CalendarDay {
    if let fields = LocalTime.fields(instant) { return CalendarDay(year: fields.year, month: fields.month, day: fields.day) }
    return CalendarDay(dayNumber: Civil.split(instant).days)
  }

  /// The local instant the day starts (00:00, or the first moment after a gap).
  public var start: Int64 {
    LocalTime.instant(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
      ?? Civil.seconds(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
  }

  /// The day `days` later (earlier when negative).
  public func adding(days: Int64) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }

  /// Reads `YYYY-MM-DD` (a valid date in 1970...9999).
  public init?(text: String) {
    var text = text
    guard let day = text.withUTF8({ CalendarDay(utf8: $0) }) else { return nil }
    self = day
  }

  /// Reads `YYYY-MM-DD` from bytes (a stored day column: one per listed task, so no string).
  init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func digits(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let digit = Int(bytes[index]) - 48
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10), (1970...9999).contains(year),
      (1...12).contains(month), day >= 1, day <= Civil.daysIn(month: month, year: Int64(year))
    else { return nil }
    self.init(year: Int64(year), month: month, day: day)
  }
}

/// How a command sets a date: to a date read from the command line, or relative to the task's
/// own due date (`wait:due-3d`, `due:due+1w`), worked out for each task it changes.
public enum DateSetting: Sendable, Equatable {
  case date(TaskDate)
  /// An expression that starts from the word `due` (`due-3d`), read when the task is known.
  case fromDue(String)
}
