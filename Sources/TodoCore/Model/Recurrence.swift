import TodoSystem

/// How a series repeats: every N days, weeks, months or years, or every weekday; on a schedule
/// (the next dates follow the previous instance's dates) or after completion (they count from
/// when the previous instance was completed: `+1w`, "a week after I last did it").
///
/// ```swift
/// RecurrenceRule(parsing: "2w")        // every 2 weeks, on a schedule
/// RecurrenceRule(parsing: "+monthly")  // a month after each completion
/// ```
public struct RecurrenceRule: Sendable, Equatable, CustomStringConvertible {
  public enum Unit: String, Sendable, Equatable {
    case day = "d", week = "w", month = "mo", year = "y", weekday = "weekdays"
  }

  public var unit: Unit
  /// How many units between instances (1 for weekdays).
  public var count: Int
  public var afterCompletion: Bool

  public init(unit: Unit, count: Int = 1, afterCompletion: Bool = false) {
    self.unit = unit
    self.count = unit == .weekday ? 1 : count
    self.afterCompletion = afterCompletion
  }

  /// Reads `daily`, `weekly`, `biweekly`, `monthly`, `quarterly`, `yearly` (`annually`),
  /// `weekdays`, or a number and a unit (`4d`, `2w`, `3mo`, `1y`, also `2weeks`, `6months`),
  /// each optionally after `+` (after completion). A bare unit (`d`, `w`, `mo`, `y`) is 1 of it.
  public init?(parsing text: String) {
    var word = Substring(text.lowercased())
    let after = word.hasPrefix("+")
    if after { word = word.dropFirst() }
    let named: [Substring: (Unit, Int)] = [
      "daily": (.day, 1), "weekly": (.week, 1), "biweekly": (.week, 2), "fortnightly": (.week, 2),
      "monthly": (.month, 1), "quarterly": (.month, 3), "yearly": (.year, 1), "annually": (.year, 1),
      "weekdays": (.weekday, 1), "weekday": (.weekday, 1),
    ]
    if let (unit, count) = named[word] {
      self.init(unit: unit, count: count, afterCompletion: after)
      return
    }
    let digits = word.prefix { $0.isASCII && $0.isNumber }
    let unitWord = word.dropFirst(digits.count)
    let count = digits.isEmpty ? 1 : Int(digits)
    guard let count, (1...999).contains(count) else { return nil }
    let unit: Unit
    switch unitWord {
    case "d", "day", "days": unit = .day
    case "w", "wk", "wks", "week", "weeks": unit = .week
    case "mo", "mon", "mons", "month", "months": unit = .month
    case "q", "quarter", "quarters":
      self.init(unit: .month, count: count * 3, afterCompletion: after)
      return
    case "y", "yr", "yrs", "year", "years": unit = .year
    default: return nil
    }
    self.init(unit: unit, count: count, afterCompletion: after)
  }

  /// The canonical text, which reads back as the same rule: `weekly`, `2w`, `+1w`, `weekdays`.
  public var description: String {
    if afterCompletion { return "+" + (unit == .weekday ? "weekdays" : "\(count)\(unit.rawValue)") }
    if count == 1 {
      switch unit {
      case .day: return "daily"
      case .week: return "weekly"
      case .month: return "monthly"
      case .year: return "yearly"
      case .weekday: return "weekdays"
      }
    }
    return "\(count)\(unit.rawValue)"
  }

  /// In words: `every 2 weeks`, `every weekday`, `1 month after each completion`.
  public var words: String {
    let names: (String, String) =
      switch unit {
      case .day: ("day", "days")
      case .week: ("week", "weeks")
      case .month: ("month", "months")
      case .year: ("year", "years")
      case .weekday: ("weekday", "weekdays")
      }
    if unit == .weekday { return afterCompletion ? "the next weekday after each completion" : "every weekday" }
    let amount = count == 1 ? names.0 : "\(count) \(names.1)"
    return afterCompletion ? "\(count == 1 ? "1 " : "")\(amount) after each completion" : "every \(amount)"
  }

  /// The mode's name in JSON: `schedule` or `completion`.
  public var mode: String { afterCompletion ? "completion" : "schedule" }

  // MARK: - Dates

  /// The date `steps` units after `anchor`: a day stays a day; an instant keeps its local time of
  /// day across daylight-saving changes. Months and years keep the anchor's day of the month,
  /// on the month's last day when the month is shorter (Jan 31 → Feb 28 → Mar 31), so a series
  /// never drifts. Weekdays: `steps` weekdays later.
  public func advance(_ anchor: TaskDate, steps: Int) -> TaskDate {
    Self.moved(anchor) { day in
      switch unit {
      case .day: return day.adding(days: Int64(count * steps))
      case .week: return day.adding(days: Int64(7 * count * steps))
      case .month: return Self.adding(months: count * steps, to: day)
      case .year: return Self.adding(months: 12 * count * steps, to: day)
      case .weekday:
        var moved = day
        var left = steps
        while left > 0 {
          moved = moved.adding(days: 1)
          if (1...5).contains(moved.weekday) { left -= 1 }
        }
        return moved
      }
    }
  }

  /// The next instance's anchor date (its due date, or scheduled when it has no due date).
  ///
  /// - On a schedule: the first date of the schedule that started at `start` (the series'
  ///   first date) after `previous` that is not already past: missed instances are skipped,
  ///   never created.
  /// - After completion: one step after the day `completed` (at the previous date's time of day).
  ///
  /// Nil when there is no next date a task can hold: it would be after 9999-12-31 (or a date
  /// given is already outside `TaskDate.isRepresentable`). The series then ends.
  public func next(after previous: TaskDate, start: TaskDate, completed: Int64, now: Int64) -> TaskDate? {
    guard previous.isRepresentable, start.isRepresentable, Timestamp.representable.contains(completed),
      Timestamp.representable.contains(now)
    else { return nil }
    if afterCompletion {
      let day = CalendarDay.local(completed)
      let base = Self.moved(previous) { _ in day }
      let candidate = advance(base, steps: 1)
      return candidate.isRepresentable ? candidate : nil
    }
    if unit == .weekday {
      var candidate = advance(previous, steps: 1)
      while candidate.isPast(now: now) {
        guard candidate.isRepresentable else { return nil }
        candidate = advance(candidate, steps: 1)
      }
      return candidate.isRepresentable ? candidate : nil
    }
    // A first guess from the distance in days (units counted long, so that the guess is never
    // past the answer), then forward step by step.
    let distance = max(Self.day(of: previous).dayNumber, CalendarDay.local(now).dayNumber) - Self.day(of: start).dayNumber
    let unitDays: Int64 =
      switch unit {
      case .day: 1
      case .week: 7
      case .month: 31
      case .year: 366
      case .weekday: 1
      }
    var steps = max(1, Int(distance / (unitDays * Int64(count))) - 2)
    var candidate = advance(start, steps: steps)
    while Self.isAfter(candidate, previous) == false || candidate.isPast(now: now) {
      guard candidate.isRepresentable else { return nil }
      steps += 1
      candidate = advance(start, steps: steps)
    }
    return candidate.isRepresentable ? candidate : nil
  }

  /// The same date moved `days` days: a day to a day, an instant to the same local time.
  public static func shifted(_ date: TaskDate, days: Int64) -> TaskDate {
    moved(date) { $0.adding(days: days) }
  }

  /// The days from `from` to `to` (their local days).
  public static func days(from: TaskDate, to: TaskDate) -> Int64 {
    day(of: to).dayNumber - day(of: from).dayNumber
  }

  /// Whether `date` is later than `limit`: a day is later than an instant once it starts after it.
  public static func isAfter(_ date: TaskDate, _ limit: TaskDate) -> Bool {
    switch (date, limit) {
    case (.day(let day), .day(let other)): day > other
    case (.instant(let instant), .instant(let other)): instant > other
    case (.day(let day), .instant(let other)): day.start > other
    case (.instant(let instant), .day(let other)): instant >= other.adding(days: 1).start
    }
  }

  static func day(of date: TaskDate) -> CalendarDay {
    switch date {
    case .day(let day): day
    case .instant(let instant): CalendarDay.local(instant)
    }
  }

  /// A date moved to another day by `change`, keeping an instant's local time of day.
  private static func moved(_ date: TaskDate, _ change: (CalendarDay) -> CalendarDay) -> TaskDate {
    switch date {
    case .day(let day): return .day(change(day))
    case .instant(let instant):
      guard let fields = LocalTime.fields(instant) else { return date }
      let day = change(CalendarDay(year: fields.year, month: fields.month, day: fields.day))
      let moved =
        LocalTime.instant(
          year: day.year, month: day.month, day: day.day, hour: fields.hour, minute: fields.minute, second: fields.second)
        ?? instant + (day.dayNumber - CalendarDay.local(instant).dayNumber) * 86_400
      return .instant(moved)
    }
  }

  /// `months` months later, on the same day of the month or the month's last day.
  private static func adding(months: Int, to day: CalendarDay) -> CalendarDay {
    let total = Int64(day.month - 1) + Int64(months)
    let year = day.year + (total >= 0 ? total / 12 : (total - 11) / 12)
    let month = Int(total - (year - day.year) * 12) + 1
    return CalendarDay(year: year, month: month, day: min(day.day, Civil.daysIn(month: month, year: year)))
  }
}

/// What a task knows of its series: which series, which instance, and the rule.
public struct SeriesLink: Sendable, Equatable {
  public var id: Int64
  public var uuid: String
  /// The instance's number in the series, from 1.
  public var index: Int
  public var rule: RecurrenceRule
  /// When the series was ended (`delete --series`, its until passed, or `recur:` cleared).
  public var ended: Int64?

  public init(id: Int64, uuid: String, index: Int, rule: RecurrenceRule, ended: Int64?) {
    self.id = id
    self.uuid = uuid
    self.index = index
    self.rule = rule
    self.ended = ended
  }
}
