import TodoSystem

/// A reminder on a task: when `todo remind --check` (or `--watch`) tells the user about it.
///
/// Either an instant (`remind:2026-12-01T09:00`, `remind:'fri 17:00'`, `remind:tomorrow@9:00`) or
/// an offset from the task's due or scheduled date (`remind:due-15min`, `remind:scheduled-1h`,
/// `remind:due-1d@09:00`: the day before the due date, at 9 in the morning), which follows the
/// date when it moves and goes on to the next instance of a series. A reminder relative to an
/// all-day date counts from the local start of that day, as iCalendar's `TRIGGER;RELATED=END` does
/// from a `DUE;VALUE=DATE`; `@HH:MM` picks the time of day.
///
/// Stored as text, several on a task separated by commas (`due-15min,2026-12-01T08:00:00Z`): the
/// canonical spelling `text` gives and `init(stored:)` reads.
///
/// ```swift
/// let reminder = try Reminder(parsing: "due-15min", now: now)
/// reminder.fire(due: .instant(deadline), scheduled: nil)   // deadline - 900
/// ```
public struct Reminder: Sendable, Hashable {
  /// The date a relative reminder counts from.
  public enum Anchor: String, Sendable, CaseIterable {
    case due, scheduled
  }

  /// When it rings.
  public enum When: Sendable, Hashable {
    /// At an instant.
    case at(Int64)
    /// `offset` seconds after (before, when negative) the anchor; with `clock` (minutes after
    /// local midnight), at that time of day on the day the offset reaches.
    case relative(Anchor, offset: Int64, clock: Int?)
  }

  public var when: When
  /// Made by `todo remind snooze`: one of its own, replaced by the next snooze.
  public var isSnooze: Bool

  public init(_ when: When, isSnooze: Bool = false) {
    self.when = when
    self.isSnooze = isSnooze
  }

  /// Counts from a date of the task (and so goes on to a series' next instance).
  public var isRelative: Bool {
    if case .relative = when { return true }
    return false
  }

  /// The instant it rings for a task with these dates; nil when it counts from a date the task
  /// does not have.
  public func fire(due: TaskDate?, scheduled: TaskDate?) -> Int64? {
    switch when {
    case .at(let instant): return instant
    case .relative(let anchor, let offset, let clock):
      guard let date = anchor == .due ? due : scheduled else { return nil }
      let day: CalendarDay
      switch date {
      case .instant(let instant):
        // Whole days are calendar days, as iCalendar's are: the same time of day (a DST change
        // between makes one 23 or 25 hours).
        if offset % 86_400 == 0, offset != 0, let fields = LocalTime.fields(instant) {
          day = CalendarDay(year: fields.year, month: fields.month, day: fields.day).adding(days: offset / 86_400)
          return Self.instant(on: day, clock: clock ?? fields.hour * 60 + fields.minute) + (clock == nil ? Int64(fields.second) : 0)
        }
        guard let clock else { return instant + offset }
        day = CalendarDay.local(instant + offset)
        return Self.instant(on: day, clock: clock)
      case .day(let whole):
        // Whole days move the day itself (a DST change makes some days 23 or 25 hours).
        if offset % 86_400 == 0 {
          day = whole.adding(days: offset / 86_400)
          guard let clock else { return day.start }
          return Self.instant(on: day, clock: clock)
        }
        guard let clock else { return whole.start + offset }
        return Self.instant(on: CalendarDay.local(whole.start + offset), clock: clock)
      }
    }
  }

  private static func instant(on day: CalendarDay, clock: Int) -> Int64 {
    Timestamp.wallClock(year: day.year, month: day.month, day: day.day, hour: clock / 60, minute: clock % 60, second: 0)
      ?? day.start + Int64(clock) * 60
  }

  /// The canonical spelling, as stored and exported: `due-15min`, `scheduled+1h`, `due-1d@09:00`,
  /// `2026-12-01T08:00:00Z`; a snooze is `snooze@2026-12-01T08:10:00Z`.
  public var text: String {
    switch when {
    case .at(let instant): return (isSnooze ? "snooze@" : "") + Timestamp.rfc3339(instant)
    case .relative(let anchor, let offset, let clock):
      var text = anchor.rawValue
      if offset != 0 { text += (offset < 0 ? "-" : "+") + Self.compact(offset.magnitude) }
      if let clock { text += "@" + Self.clockText(clock) }
      return text
    }
  }

  /// Seconds as todo's duration words: `1d2h`, `15min`, `30s`.
  static func compact(_ seconds: UInt64) -> String {
    var rest = seconds
    var text = ""
    for (size, unit) in [(UInt64(86_400), "d"), (3_600, "h"), (60, "min"), (1, "s")] where rest >= size {
      text += "\(rest / size)\(unit)"
      rest %= size
    }
    return text.isEmpty ? "0s" : text
  }

  static func clockText(_ minutes: Int) -> String {
    (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
  }

  /// Reads the canonical spelling (`text`); nil for anything else.
  public init?(stored: String) {
    if stored.hasPrefix("snooze@") {
      guard let instant = Timestamp.parseTaskTime(String(stored.dropFirst(7))) else { return nil }
      self.init(.at(instant), isSnooze: true)
    } else if let instant = Timestamp.parseTaskTime(stored) {
      self.init(.at(instant))
    } else if let relative = try? Self.relative(stored) {
      self.init(relative)
    } else {
      return nil
    }
  }

  /// The reminders stored in a `remind` column (nil or empty: none). A part that cannot be read
  /// (written by hand into the file) is left out.
  public static func list(stored: String?) -> [Reminder] {
    guard let stored, !stored.isEmpty else { return [] }
    return stored.split(separator: ",").compactMap { Reminder(stored: String($0)) }
  }

  /// The `remind` column for reminders: nil for none.
  public static func stored(_ reminders: [Reminder]) -> String? {
    reminders.isEmpty ? nil : reminders.map(\.text).joinedText(",")
  }

  /// Reads what a user typed after `remind:` (one reminder; the caller splits at commas).
  ///
  /// - Throws: `TodoError.invalid` naming the text and the forms there are.
  public init(parsing typed: String, now: Int64) throws(TodoError) {
    let text = typed.trimmingSpaces
    let lowered = text.lowercased()
    // As `edit` shows a snooze.
    if lowered.hasPrefix("snooze@"), let stored = Reminder(stored: "snooze@" + String(text.dropFirst(7))) {
      self = stored
      return
    }
    if Anchor.allCases.contains(where: { lowered.hasPrefix($0.rawValue) }) || lowered.hasPrefix("sched") {
      do {
        self.init(try Self.relative(lowered))
      } catch {
        throw .invalid("cannot read the reminder '\(text)': \(error.reason); \(Self.forms)")
      }
      return
    }
    var datePart = text
    var clock: Int?
    if let at = text.lastIndex(of: "@") {
      datePart = String(text[..<at])
      guard let minutes = Self.clock(String(text[text.index(after: at)...])) else {
        throw .invalid("cannot read the time of day in the reminder '\(text)' (write @9:00, @17:30 or @9am); \(Self.forms)")
      }
      clock = minutes
    }
    let reading: DateReading
    do throws(DateExpressionError) {
      reading = try DateExpressionParser(now: now).read(datePart)
    } catch {
      throw .invalid("cannot read the reminder '\(text)': \(error.reason); \(Self.forms)")
    }
    switch (TaskDate(reading), clock) {
    case (.instant(let instant), nil): self.init(.at(instant))
    case (.day(let day), let clock?): self.init(.at(Self.instant(on: day, clock: clock)))
    case (.instant, .some):
      throw .invalid("the reminder '\(text)' names a time twice: write the day before '@' (tomorrow@9:00)")
    case (.day, nil):
      throw .invalid("the reminder '\(text)' is a whole day; give it a time of day: \(datePart)@9:00, or '\(datePart) 9:00'")
    }
    guard case .at(let instant) = when, Timestamp.representable.contains(instant) else {
      throw .invalid("the reminder '\(text)' is out of range: \(Timestamp.outOfRangeReason)")
    }
  }

  static let forms =
    "write a date and time (2026-12-01T09:00, 'fri 17:00', tomorrow@9:00, now+1h) or due or scheduled with an offset (due-15min, scheduled-1h, due-1d@09:00)"

  private struct Problem: Error {
    var reason: String
  }

  /// `due`, `due-15min`, `scheduled+1h`, `due-1d@09:00` (lowercase).
  private static func relative(_ text: String) throws(Problem) -> When {
    var rest = Substring(text)
    let anchor: Anchor
    if rest.hasPrefix("scheduled") {
      anchor = .scheduled
      rest = rest.dropFirst(9)
    } else if rest.hasPrefix("sched") {
      anchor = .scheduled
      rest = rest.dropFirst(5)
    } else if rest.hasPrefix("due") {
      anchor = .due
      rest = rest.dropFirst(3)
    } else {
      throw Problem(reason: "it counts from neither due nor scheduled")
    }
    var clock: Int?
    if let at = rest.firstIndex(of: "@") {
      guard let minutes = Self.clock(String(rest[rest.index(after: at)...])) else {
        throw Problem(reason: "'\(rest[rest.index(after: at)...])' is not a time of day (write @9:00, @17:30 or @9am)")
      }
      clock = minutes
      rest = rest[..<at]
    }
    var offset: Int64 = 0
    if let sign = rest.first {
      guard sign == "+" || sign == "-" else { throw Problem(reason: "after '\(anchor.rawValue)' comes + or - and a duration") }
      let amount = String(rest.dropFirst())
      // `15m` would be a month to Taskwarrior and a quarter hour to most people: neither is guessed.
      let bareM = amount.hasSuffix("m") && !amount.hasPrefix("p")
      guard !bareM, let seconds = UserAttribute.seconds(amount), seconds > 0, seconds <= 366 * 86_400 * 10
      else {
        throw Problem(reason: "'\(amount)' is not a duration (write 15min, 1h, 2d, 1w or 1d2h)")
      }
      offset = sign == "-" ? -seconds : seconds
    }
    return .relative(anchor, offset: offset, clock: clock)
  }

  /// `9:00`, `09:30`, `17:05`, `9am`, `5:30pm`, `noon`: minutes after midnight.
  static func clock(_ text: String) -> Int? {
    var word = text.lowercased()
    if word == "noon" { return 12 * 60 }
    if word == "midnight" { return 0 }
    var meridiem: String?
    if word.hasSuffix("am") || word.hasSuffix("pm") {
      meridiem = String(word.suffix(2))
      word = String(word.dropLast(2))
    }
    let parts = word.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy({ $0.isASCII && $0.isNumber }) }),
      var hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0, (0...59).contains(minute)
    else { return nil }
    if parts.count == 1 && meridiem == nil { return nil }
    if let meridiem {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
    }
    guard (0...23).contains(hour) else { return nil }
    return hour * 60 + minute
  }
}

extension String {
  /// Without leading and trailing spaces.
  var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
