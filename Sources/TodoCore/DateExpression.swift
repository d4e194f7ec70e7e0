import Synchronization
import TodoSystem

// Date expressions typed by the user (`due:friday`, `--due +3d`, `todo date eow`), read in
// the process's local time zone (`TZ`) and returned as Int64 seconds since the Unix epoch.

/// A date expression that could not be read: the text as typed and why.
///
/// ```swift
/// do { _ = try DateExpressionParser(now: 0).parse("fridayy") } catch {
///   print("bad date '\(error.expression)': \(error.reason)")  // … did you mean 'friday'?
/// }
/// ```
public struct DateExpressionError: Error, Equatable, Sendable {
  /// The text the user typed, unchanged (not trimmed, not lowercased).
  ///
  /// ```swift
  /// error.expression  // "2026-02-30"
  /// ```
  public let expression: String

  /// Why it was refused, one line without the expression, e.g. `invalid date: month must be 1-12`.
  ///
  /// ```swift
  /// error.reason  // "invalid date: day must be 1-28 in 2026-02"
  /// ```
  public let reason: String

  /// Makes an error for `expression`.
  ///
  /// ```swift
  /// let error = DateExpressionError(expression: "soon", reason: "not a date")
  /// ```
  public init(expression: String, reason: String) {
    self.expression = expression
    self.reason = reason
  }
}

/// A calendar date (no time of day, no zone): what `today`, `fri` or `dec 24` name.
///
/// ```swift
/// CalendarDay(year: 2026, month: 12, day: 24).description  // "2026-12-24"
/// ```
public struct CalendarDay: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var year: Int64
  public var month: Int
  public var day: Int

  public init(year: Int64, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(Int64(month), 2))-\(pad(Int64(day), 2))"
  }
}

/// How a date expression was read: the instant it stands for and, when it named a day without
/// a time of day (`today`, `fri`, `dec 24`, `eom`, `eom+1d`), that calendar day.
///
/// ```swift
/// let reading = try DateExpressionParser(now: now).read("tomorrow 9am")
/// reading.day  // nil: a time was given
/// ```
public struct DateReading: Equatable, Sendable {
  /// The instant: for a day, the start of it in local time (the end of it, 23:59:59, for the
  /// end-of forms `eod eow eom eoq eoy` and `end of …`).
  public var instant: Int64
  /// The day named, when no time of day was; nil for an instant (`now`, `+3h`, `17:00`).
  public var day: CalendarDay?
}

/// Reads date expressions relative to a fixed `now`, in the process's local time zone.
///
/// Case-insensitive, surrounding whitespace ignored. A *day* (no time of day) or an *instant*:
/// - instants: `now`; `+3d`, `3d`, `-2d`, `2w`, `1mo`, `1y`, `12h`, `30min`, `1d12h` and
///   `in 3 days`, `in 90 min`, `in 1d12h` (relative to now, keeping its wall-clock time); a time
///   of day alone, `17:00`, `9am`, `5:30pm`, `noon`, `midnight` (the next such time: today if
///   still ahead); a day with a time, `tomorrow 9am`, `fri 17:00`, `friday at 5pm`,
///   `2026-12-24 17:00`, `dec 24 9:30` (the day is chosen first, so `today 9am` may be past);
///   ISO 8601 with `T`, `Z` or an offset;
/// - days: `today`, `tomorrow`, `yesterday`; `monday`…`sunday`, `mon`…`sun` and `next monday`
///   (the next such day strictly after today); `next week`, `next month`, `next quarter`,
///   `next year` (the first day of it); start and end of the current period, `sod sow som soq
///   soy`, `eod eow eom eoq eoy`, `start of week`, `end of month` … (ISO weeks, Monday to
///   Sunday); ordinals `1st`, `15th`, `31st` (the next such day of a month, strictly after today,
///   skipping months too short); `2026-12-24`; `dec 24`, `24 dec`, `december 24 2027`,
///   `24 december 2027` (without a year: this year's if not yet past, else next year's);
///   `later`, `someday` (9999-12-30, as Taskwarrior);
/// - arithmetic on any of them: `eom+1d`, `now-2h`, `friday+16h`, `tomorrow 9am+30min`. Days,
///   weeks, months and years move the local calendar date and keep the wall-clock time (so `+1d`
///   across a DST change is 23 or 25 hours) and keep a day a day; a day past the end of the
///   month is clamped (Jan 31 + 1mo = Feb 28/29). Hours and minutes are exact seconds and make
///   an instant. Units: `min`, `h`, `d`, `w`, `mo`, `y`; a bare `m` is refused as ambiguous.
///
/// A local time that does not exist (in a spring-forward gap) is read with the offset in
/// force before the gap (02:30 → 03:30 DST); an ambiguous one (in the autumn overlap) is
/// the earlier instant. Results must fall in the years 1970...9999.
///
/// ```swift
/// let parser = DateExpressionParser(now: Timestamp.systemNow())
/// let due = try parser.parse("friday 17:00")
/// ```
public struct DateExpressionParser: Sendable {
  private let now: Int64
  /// `now` on the local calendar; nil if the C library cannot represent it.
  private let local: LocalFields?

  private static let years: ClosedRange<Int64> = 1970...9999
  private static let expected = "expected a date like 2026-12-01, today, friday, +3d, eow"
  private static let outOfRange = "out of range: dates must be in the years 1970 to 9999"
  private static let bareM = "'m' could be minutes or months: use min (30min) or mo (2mo)"
  private static let anchors = [
    "today", "tomorrow", "yesterday", "sod", "eod", "sow", "eow", "som", "eom", "soq", "eoq", "soy", "eoy",
  ]
  private static let weekdays = [
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]
  private static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]
  private static let periods: [String: Character] = [
    "day": "d", "week": "w", "month": "m", "quarter": "q", "year": "y",
  ]

  /// Makes a parser for expressions relative to `now`, read with the process's `TZ`.
  ///
  /// ```swift
  /// let parser = DateExpressionParser(now: 1_795_253_400)  // 2026-11-21T09:30:00Z
  /// ```
  public init(now: Int64) {
    self.now = now
    self.local = LocalTime.fields(now)
    self.due = nil
  }

  /// A parser that also reads the word `due` as a task's due date, for dates set relative to
  /// it (`wait:due-3d`, `scheduled:due-1w`, `due:due+1d`); without one, `due` is an error.
  ///
  /// ```swift
  /// try DateExpressionParser(now: now, due: .day(friday)).read("due-3d").day  // Tuesday
  /// ```
  public init(now: Int64, due: TaskDate?) {
    self.init(now: now)
    self.due = due
    self.dueIsKnown = true
  }

  /// The task's due date that the word `due` names (see `init(now:due:)`).
  private var due: TaskDate?
  private var dueIsKnown = false

  /// The instant (seconds since the epoch, UTC) that `text` names (see `read`).
  ///
  /// ```swift
  /// // TZ=Europe/Berlin, now = 2026-11-21T09:30:00Z (a Saturday)
  /// try parser.parse("tomorrow")  // 2026-11-22 00:00 CET = 1795302000
  /// try parser.parse("2026-02-30")  // throws: invalid date: day must be 1-28 in 2026-02
  /// ```
  public func parse(_ text: String) throws(DateExpressionError) -> Int64 {
    try read(text).instant
  }

  /// What `text` names: an instant, and the calendar day when it named a day without a time.
  ///
  /// ```swift
  /// try parser.read("fri").day          // the coming Friday
  /// try parser.read("fri 17:00").day    // nil
  /// ```
  public func read(_ text: String) throws(DateExpressionError) -> DateReading {
    var trimmed = Substring(text)
    while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
    while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
    let input = trimmed.lowercased()
    func failure(_ reason: String) -> DateExpressionError {
      DateExpressionError(expression: text, reason: reason)
    }
    if input.isEmpty { throw failure("empty date: " + Self.expected) }
    guard let local else { throw failure(Self.outOfRange) }
    let value: Value
    do throws(Problem) {
      value = try expression(input, local: local)
    } catch {
      switch error {
      case .notADate:
        if let suggestion = Self.suggestion(for: input) { throw failure("not a date: did you mean '\(suggestion)'?") }
        throw failure("not a date: " + Self.expected)
      case .outOfRange: throw failure(Self.outOfRange)
      case .reason(let reason): throw failure(reason)
      }
    }
    switch value {
    case .instant(let instant):
      guard let year = LocalTime.fields(instant)?.year, Self.years.contains(year) else { throw failure(Self.outOfRange) }
      return DateReading(instant: instant, day: nil)
    case .day(let day, let time):
      guard Self.years.contains(day.year), let instant = Self.wall(day, time) else { throw failure(Self.outOfRange) }
      return DateReading(instant: instant, day: day)
    }
  }

  // MARK: - Values

  /// A day with the wall-clock time its instant takes (00:00, or 23:59:59 for the end-of
  /// forms), or an instant.
  private enum Value {
    case day(CalendarDay, time: (Int, Int, Int))
    case instant(Int64)
  }

  private enum Problem: Error {
    case notADate
    case outOfRange
    case reason(String)
  }

  private enum Unit { case minute, hour, day, week, month, year }

  private static let startOfDay = (0, 0, 0)
  private static let endOfDay = (23, 59, 59)

  // MARK: - Grammar

  /// A whole expression: a whole ISO 8601 text, or a term followed by `+`/`-` offsets.
  private func expression(_ input: String, local: LocalFields) throws(Problem) -> Value {
    if let parts = DateTimeText(Array(input.utf8)) {
      if let problem = parts.problem(allowLeapSecond: false) { throw .reason(problem) }
      guard Self.years.contains(parts.year) else { throw .reason("out of range: the year must be 1970 to 9999") }
      let day = CalendarDay(year: parts.year, month: parts.month, day: parts.day)
      if let offset = parts.offset { return .instant(parts.wallSeconds - offset) }
      if !parts.hasTime { return .day(day, time: Self.startOfDay) }
      guard let instant = Self.wall(day, (parts.hour, parts.minute, parts.second)) else { throw .outOfRange }
      return .instant(instant)
    }
    // `eom+1d`, `now-2h`: offsets written onto the last word, after something else.
    if let (base, offsets) = try Self.splitOffsets(input) {
      var value = try expression(base, local: local)
      for (amount, unit) in offsets { value = try shifted(value, by: amount, unit) }
      return value
    }
    return try term(input.split(whereSeparator: \.isWhitespace).map(String.init), local: local)
  }

  /// Words without offsets: a relative duration, a day with an optional time, or a time.
  private func term(_ words: [String], local: LocalFields) throws(Problem) -> Value {
    guard !words.isEmpty else { throw .notADate }
    if words == ["now"] { return .instant(now) }
    if words == ["due"] {
      switch due {
      case .day(let day): return .day(day, time: Self.startOfDay)
      case .instant(let instant): return .instant(instant)
      case nil where dueIsKnown: throw .reason("the task has no due date to count from; give it one (due:fri) or a date")
      case nil: throw .reason("'due' counts from a task's due date: use it in an attribute like wait:due-3d")
      }
    }
    // Taskwarrior's own form: `20261201T140000Z` (UTC), `20261201T140000` (local), `20261201`.
    if words.count == 1, let value = try Self.basicTimestamp(words[0]) { return value }
    // `+3d`, `-2h`, `1d12h`, ISO 8601's `P1W`, `PT2H`, `P1DT12H`: from now.
    if words.count == 1, let offsets = try Self.signedDurations(words[0], leadingSignOptional: true) ?? Self.isoDuration(words[0]) {
      var value = Value.instant(now)
      for (amount, unit) in offsets { value = try shifted(value, by: amount, unit) }
      return value
    }
    // `in 3 days`, `in 90 min`, `in 1d12h`.
    if words[0] == "in" {
      let rest = Array(words.dropFirst())
      var offsets: [(Int64?, Unit)]?
      if rest.count == 2 && rest[1] == "m" { throw .reason(Self.bareM) }
      if rest.count == 2, let unit = Self.spelledUnits[rest[1]], !rest[0].isEmpty, rest[0].allSatisfy(\.isASCIIDigit) {
        offsets = [(Int64(rest[0]), unit)]
      } else if rest.count == 1, let compound = try Self.durations(Substring(rest[0])) {
        offsets = compound
      }
      guard let offsets else { throw .notADate }
      var value = Value.instant(now)
      for (amount, unit) in offsets { value = try shifted(value, by: amount, unit) }
      return value
    }
    // A trailing time of day, with an optional `at` before it.
    var dayWords = words
    var time: (Int, Int)?
    if let last = dayWords.last, let parsed = try Self.timeOfDay(last) {
      time = parsed
      dayWords.removeLast()
      if dayWords.last == "at" { dayWords.removeLast() }
    }
    if dayWords.isEmpty {
      guard let time else { throw .notADate }
      // The next such time: today if still ahead, else tomorrow.
      let today = CalendarDay(year: local.year, month: local.month, day: local.day)
      guard let instant = Self.wall(today, (time.0, time.1, 0)) else { throw .outOfRange }
      if instant > now { return .instant(instant) }
      guard let tomorrow = Self.wall(today.adding(days: 1), (time.0, time.1, 0)) else { throw .outOfRange }
      return .instant(tomorrow)
    }
    let (day, dayTime) = try self.day(dayWords, local: local)
    guard let time else { return .day(day, time: dayTime) }
    guard let instant = Self.wall(day, (time.0, time.1, 0)) else { throw .outOfRange }
    return .instant(instant)
  }

  /// The day some words name, with the wall-clock time of its instant.
  private func day(_ words: [String], local: LocalFields) throws(Problem) -> (CalendarDay, (Int, Int, Int)) {
    let today = CalendarDay(year: local.year, month: local.month, day: local.day)
    switch words.count {
    case 1:
      let word = words[0]
      if let anchor = Self.anchors.firstIndex(of: word) { return anchored(Self.anchors[anchor], today: today, local: local) }
      if let weekday = Self.weekday(named: word) { return (next(weekday: weekday, today: today, local: local), Self.startOfDay) }
      if word == "later" || word == "someday" { return (CalendarDay(year: 9999, month: 12, day: 30), Self.startOfDay) }
      if let anchor = Self.relativeAnchor(word) { return anchored(anchor, today: today, local: local) }
      // `jan`, `january`: the first of that month, this year while it is still ahead.
      if let month = Self.month(named: word) {
        let year = month > today.month ? today.year : today.year + 1
        return (CalendarDay(year: year, month: month, day: 1), Self.startOfDay)
      }
      if let holiday = Self.holidays[word] {
        var day = holiday(today.year)
        if day <= today { day = holiday(today.year + 1) }
        return (day, Self.startOfDay)
      }
      if let parts = DateTimeText(Array(word.utf8)), !parts.hasTime, parts.offset == nil {
        if let problem = parts.problem(allowLeapSecond: false) { throw .reason(problem) }
        guard Self.years.contains(parts.year) else { throw .reason("out of range: the year must be 1970 to 9999") }
        return (CalendarDay(year: parts.year, month: parts.month, day: parts.day), Self.startOfDay)
      }
      if let ordinal = Self.ordinal(word) { return (try next(dayOfMonth: ordinal, today: today), Self.startOfDay) }
      if Self.isBareM(word) { throw .reason(Self.bareM) }
    case 2 where words[0] == "next":
      if let weekday = Self.weekday(named: words[1]) { return (next(weekday: weekday, today: today, local: local), Self.startOfDay) }
      if let period = Self.periods[words[1]], period != "d" {
        let (end, _) = anchored("eo" + String(period), today: today, local: local)
        return (end.adding(days: 1), Self.startOfDay)
      }
    case 3 where (words[0] == "end" || words[0] == "start") && words[1] == "of":
      if let period = Self.periods[words[2]] {
        return anchored((words[0] == "end" ? "eo" : "so") + String(period), today: today, local: local)
      }
    default: break
    }
    if let named = try monthDay(words, today: today) { return (named, Self.startOfDay) }
    throw .notADate
  }

  /// Taskwarrior's other anchors, as one of ours: `socm`/`eocm` (the current month, as
  /// `som`/`eom`), `soww`/`eoww` (the work week: Monday, Friday), and the previous and next
  /// periods (`sopw`, `eonm`, `sonq`, …) as the letter `P` or `N` after `so`/`eo`.
  private static func relativeAnchor(_ word: String) -> String? {
    let letters = Array(word)
    guard letters.count == 4 || letters.count == 5, letters[0] == "s" || letters[0] == "e", letters[1] == "o" else { return nil }
    // `soww`, `eoww`: this work week.
    if letters.count == 4, letters[2] == "w", letters[3] == "w" { return String(letters[0...1]) + "cww" }
    let period = String(letters[3...])
    guard ["d", "w", "ww", "m", "q", "y"].contains(period), ["c", "p", "n"].contains(letters[2]) else { return nil }
    return String(letters[0...2]) + period
  }

  /// `today`, `eow`, `soq`, and the forms of `relativeAnchor` (`sopw`, `eoww`, …).
  private func anchored(_ anchor: String, today: CalendarDay, local: LocalFields) -> (CalendarDay, (Int, Int, Int)) {
    if anchor.count >= 4, anchor.hasPrefix("so") || anchor.hasPrefix("eo") {
      let letters = Array(anchor)
      let isStart = letters[0] == "s"
      let direction: Int64 = letters[2] == "p" ? -1 : letters[2] == "n" ? 1 : 0
      if anchor.hasSuffix("ww") {
        // The work week (`soww`, `eonww`): Monday to Friday of this, the previous or next week.
        let monday = Week.start(of: today).adding(days: (Week.firstWeekday == 0 ? 1 : 0) + 7 * direction)
        return isStart ? (monday, Self.startOfDay) : (monday.adding(days: 4), Self.endOfDay)
      }
      let period = letters[3]
      let base = String(letters[0...1]) + String(period)
      // A day of the period before or after, then that period's start or end.
      let inPeriod: CalendarDay
      switch period {
      case "d": inPeriod = today.adding(days: direction)
      case "w": inPeriod = today.adding(days: 7 * direction)
      case "m": inPeriod = Self.addingMonths(Int(direction), to: CalendarDay(year: today.year, month: today.month, day: 1))
      case "q": inPeriod = Self.addingMonths(3 * Int(direction), to: CalendarDay(year: today.year, month: today.month, day: 1))
      default: inPeriod = CalendarDay(year: today.year + direction, month: 1, day: 1)
      }
      return anchored(base, today: inPeriod, local: local)
    }
    let quarterStart = (today.month - 1) / 3 * 3 + 1
    switch anchor {
    case "tomorrow": return (today.adding(days: 1), Self.startOfDay)
    case "yesterday": return (today.adding(days: -1), Self.startOfDay)
    case "eod": return (today, Self.endOfDay)
    case "sow": return (Week.start(of: today), Self.startOfDay)
    case "eow": return (Week.start(of: today).adding(days: 6), Self.endOfDay)
    case "som": return (CalendarDay(year: today.year, month: today.month, day: 1), Self.startOfDay)
    case "eom":
      return (
        CalendarDay(year: today.year, month: today.month, day: Civil.daysIn(month: today.month, year: today.year)),
        Self.endOfDay
      )
    case "soq": return (CalendarDay(year: today.year, month: quarterStart, day: 1), Self.startOfDay)
    case "eoq":
      let month = quarterStart + 2
      return (CalendarDay(year: today.year, month: month, day: Civil.daysIn(month: month, year: today.year)), Self.endOfDay)
    case "soy": return (CalendarDay(year: today.year, month: 1, day: 1), Self.startOfDay)
    case "eoy": return (CalendarDay(year: today.year, month: 12, day: 31), Self.endOfDay)
    default: return (today, Self.startOfDay)  // today, sod
    }
  }

  /// The first of a month `months` months from the first of another.
  private static func addingMonths(_ months: Int, to first: CalendarDay) -> CalendarDay {
    let index = first.year * 12 + Int64(first.month - 1) + Int64(months)
    return CalendarDay(year: index / 12, month: Int(index % 12) + 1, day: 1)
  }

  /// Easter Sunday of a year (the Gregorian computus, Meeus/Jones/Butcher).
  public static func easter(_ year: Int64) -> CalendarDay {
    let a = year % 19, b = year / 100, c = year % 100, d = b / 4, e = b % 4
    let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
    let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7, m = (a + 11 * h + 22 * l) / 451
    let month = (h + l - 7 * m + 114) / 31
    let day = (h + l - 7 * m + 114) % 31 + 1
    return CalendarDay(year: year, month: Int(month), day: Int(day))
  }

  /// The first day on or after `first` that is `weekday` (0 = Sunday).
  private static func weekday(_ weekday: Int, onOrAfter first: CalendarDay) -> CalendarDay {
    var day = first
    while Timestamp.weekday(year: day.year, month: day.month, day: day.day) != weekday { day = day.adding(days: 1) }
    return day
  }

  /// Taskwarrior's named days, for a year: Easter and the days that count from it, and
  /// midsummer (Sweden's Saturday and its eve, Finland's juhannus eve, on their real days).
  static let holidays: [String: @Sendable (Int64) -> CalendarDay] = [
    "easter": { easter($0) }, "eastermonday": { easter($0).adding(days: 1) }, "goodfriday": { easter($0).adding(days: -2) },
    "ascension": { easter($0).adding(days: 39) }, "pentecost": { easter($0).adding(days: 49) },
    "midsommar": { weekday(6, onOrAfter: CalendarDay(year: $0, month: 6, day: 20)) },
    "midsommarafton": { weekday(5, onOrAfter: CalendarDay(year: $0, month: 6, day: 19)) },
    "juhannus": { weekday(5, onOrAfter: CalendarDay(year: $0, month: 6, day: 19)) },
  ]

  /// `20261201T140000Z`, `20261201T140000`, `20261201`: nil for another shape.
  private static func basicTimestamp(_ word: String) throws(Problem) -> Value? {
    let characters = Array(word)
    guard characters.count == 8 || characters.count == 15 || characters.count == 16,
      characters.prefix(8).allSatisfy(\.isASCIIDigit)
    else { return nil }
    let utc = characters.count == 16
    if characters.count > 8 {
      guard characters[8] == "t", characters[9..<15].allSatisfy(\.isASCIIDigit), !utc || characters[15] == "z" else { return nil }
    }
    func number(_ range: Range<Int>) -> Int { Int(String(characters[range]))! }
    let text =
      "\(String(characters[0..<4]))-\(String(characters[4..<6]))-\(String(characters[6..<8]))"
      + (characters.count > 8 ? "T\(String(characters[9..<11])):\(String(characters[11..<13])):\(String(characters[13..<15]))" : "")
      + (utc ? "Z" : "")
    guard let parts = DateTimeText(Array(text.utf8)) else { return nil }
    if let problem = parts.problem(allowLeapSecond: false) { throw .reason(problem) }
    guard years.contains(parts.year) else { throw .reason("out of range: the year must be 1970 to 9999") }
    let day = CalendarDay(year: parts.year, month: parts.month, day: parts.day)
    if let offset = parts.offset { return .instant(parts.wallSeconds - offset) }
    if !parts.hasTime { return .day(day, time: startOfDay) }
    guard let instant = wall(day, (number(9..<11), number(11..<13), number(13..<15))) else { throw .outOfRange }
    return .instant(instant)
  }

  /// ISO 8601's durations: `P1W`, `P1Y2M3D`, `PT2H30M`, `P1DT12H` (lowercased here), with an
  /// optional sign; nil for another shape (seconds included: a date has minutes at most).
  private static func isoDuration(_ word: String) -> [(Int64?, Unit)]? {
    var rest = Substring(word)
    let negative = rest.first == "-"
    if rest.first == "+" || negative { rest.removeFirst() }
    guard rest.first == "p", rest.count > 1 else { return nil }
    rest.removeFirst()
    var parts: [(Int64?, Unit)] = []
    var inTime = false
    while !rest.isEmpty {
      if rest.first == "t", !inTime {
        inTime = true
        rest.removeFirst()
        continue
      }
      let digits = rest.prefix(while: \.isASCIIDigit)
      guard !digits.isEmpty, let letter = rest.dropFirst(digits.count).first else { return nil }
      rest = rest.dropFirst(digits.count + 1)
      let unit: Unit
      switch (letter, inTime) {
      case ("y", false): unit = .year
      case ("m", false): unit = .month
      case ("w", false): unit = .week
      case ("d", false): unit = .day
      case ("h", true): unit = .hour
      case ("m", true): unit = .minute
      default: return nil
      }
      parts.append((Int64((negative ? "-" : "") + digits), unit))
    }
    return parts.isEmpty ? nil : parts
  }

  /// The next such weekday strictly after today.
  private func next(weekday: Int, today: CalendarDay, local: LocalFields) -> CalendarDay {
    let ahead = (weekday - local.weekday + 7) % 7
    return today.adding(days: Int64(ahead == 0 ? 7 : ahead))
  }

  /// The next day numbered `number` of a month, strictly after today.
  private func next(dayOfMonth number: Int, today: CalendarDay) throws(Problem) -> CalendarDay {
    guard (1...31).contains(number) else { throw .reason("invalid date: a day of the month is 1st to 31st") }
    var year = today.year
    var month = today.month
    if number > today.day && number <= Civil.daysIn(month: month, year: year) {
      return CalendarDay(year: year, month: month, day: number)
    }
    // Every day number up to 31 comes back within a few months.
    for _ in 0..<12 {
      month += 1
      if month > 12 { (month, year) = (1, year + 1) }
      if number <= Civil.daysIn(month: month, year: year) { return CalendarDay(year: year, month: month, day: number) }
    }
    throw .outOfRange
  }

  /// `dec 24`, `24 dec`, `december 24 2027`, `24th december 2027`.
  private func monthDay(_ words: [String], today: CalendarDay) throws(Problem) -> CalendarDay? {
    guard words.count == 2 || words.count == 3 else { return nil }
    let month: Int
    let dayWord: String
    if let named = Self.month(named: words[0]) {
      (month, dayWord) = (named, words[1])
    } else if let named = Self.month(named: words[1]) {
      (month, dayWord) = (named, words[0])
    } else {
      return nil
    }
    guard let day = Self.ordinal(dayWord) ?? (dayWord.count <= 2 && dayWord.allSatisfy(\.isASCIIDigit) ? Int(dayWord) : nil)
    else { return nil }
    var year = today.year
    if words.count == 3 {
      guard words[2].count == 4, words[2].allSatisfy(\.isASCIIDigit), let given = Int64(words[2]) else { return nil }
      guard Self.years.contains(given) else { throw .reason("out of range: the year must be 1970 to 9999") }
      year = given
    }
    func check(_ year: Int64) throws(Problem) {
      let last = Civil.daysIn(month: month, year: year)
      if !(1...last).contains(day) {
        throw .reason("invalid date: day must be 1-\(last) in \(CalendarDay(year: year, month: month, day: 1).description.prefix(7))")
      }
    }
    if words.count == 2 {
      // This year's unless already past; Feb 29 waits for a leap year.
      if (month, day) < (today.month, today.day) { year += 1 }
      if month == 2 && day == 29 {
        while !Civil.isLeap(year) { year += 1 }
      }
    }
    try check(year)
    return CalendarDay(year: year, month: month, day: day)
  }

  // MARK: - Words

  private static let compactUnits: [Substring: Unit] = ["d": .day, "w": .week, "mo": .month, "y": .year, "h": .hour, "min": .minute]
  private static let spelledUnits: [String: Unit] = [
    "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute, "h": .hour, "hour": .hour, "hours": .hour,
    "d": .day, "day": .day, "days": .day, "w": .week, "week": .week, "weeks": .week, "mo": .month, "month": .month,
    "months": .month, "y": .year, "year": .year, "years": .year, "wk": .week, "wks": .week, "hr": .hour, "hrs": .hour,
    "yr": .year, "yrs": .year, "mth": .month, "mths": .month,
  ]

  /// `[+|-]Nm`: refused, since `30m` is as likely half an hour as two and a half years.
  private static func isBareM(_ input: String) -> Bool {
    var rest = Substring(input)
    if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
    let digits = rest.prefix(while: \.isASCIIDigit)
    return !digits.isEmpty && rest.dropFirst(digits.count) == "m"
  }

  /// `1d12h`: amounts and units one after the other; nil for another shape. A nil amount did
  /// not fit an Int64; `Nm` is refused.
  private static func durations(_ text: Substring, negative: Bool = false) throws(Problem) -> [(Int64?, Unit)]? {
    var rest = text
    var parts: [(Int64?, Unit)] = []
    while !rest.isEmpty {
      let digits = rest.prefix(while: \.isASCIIDigit)
      guard !digits.isEmpty else { return nil }
      rest = rest.dropFirst(digits.count)
      let letters = rest.prefix(while: { $0.isASCII && $0.isLetter })
      rest = rest.dropFirst(letters.count)
      if letters == "m" { throw .reason(bareM) }
      // `3d`, and Taskwarrior's long forms: `3days`, `2weeks`, `1month`, `2hrs`.
      guard let unit = compactUnits[letters] ?? spelledUnits[String(letters)] else { return nil }
      // "-" + digits keeps Int64.min readable and makes the magnitude checks exact.
      parts.append((Int64((negative ? "-" : "") + digits), unit))
    }
    return parts.isEmpty ? nil : parts
  }

  /// `+3d`, `-1d12h`, and without a sign when `leadingSignOptional`.
  private static func signedDurations(_ word: String, leadingSignOptional: Bool) throws(Problem) -> [(Int64?, Unit)]? {
    var rest = Substring(word)
    let negative = rest.first == "-"
    if rest.first == "+" || negative {
      rest.removeFirst()
    } else if !leadingSignOptional {
      return nil
    }
    return try durations(rest, negative: negative)
  }

  /// Splits `eom+1d-2h` into `eom` and its offsets; nil when the last word carries none.
  private static func splitOffsets(_ input: String) throws(Problem) -> (String, [(Int64?, Unit)])? {
    let characters = Array(input)
    var offsets: [(Int64?, Unit)] = []
    var end = characters.count
    var index = characters.count - 1
    while index > 0 {
      let character = characters[index]
      if character.isWhitespace { break }
      if character == "+" || character == "-" {
        guard let parsed = try signedDurations(String(characters[index..<end]), leadingSignOptional: false) else { break }
        offsets.insert(contentsOf: parsed, at: 0)
        end = index
      }
      index -= 1
    }
    let base = String(characters[0..<end])
    guard !offsets.isEmpty, let last = base.last, !last.isWhitespace else { return nil }
    return (base, offsets)
  }

  /// `17:00`, `9:30`, `9am`, `5:30pm`, `noon`, `midnight`: nil for another shape.
  private static func timeOfDay(_ word: String) throws(Problem) -> (Int, Int)? {
    if word == "noon" { return (12, 0) }
    if word == "midnight" { return (0, 0) }
    var rest = Substring(word)
    var meridiem: Substring?
    if rest.hasSuffix("am") || rest.hasSuffix("pm") {
      meridiem = rest.suffix(2)
      rest = rest.dropLast(2)
    }
    let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
      parts[0].count <= 2, parts.count == 1 || parts[1].count == 2
    else { return nil }
    // A bare number is a time only with am/pm: `24` alone is not a date.
    if parts.count == 1 && meridiem == nil { return nil }
    guard var hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0 else { return nil }
    guard minute < 60 else { throw .reason("invalid time: minute must be 0-59") }
    if let meridiem {
      guard (1...12).contains(hour) else { throw .reason("invalid time: hour must be 1-12 with am or pm") }
      hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
    } else if hour > 23 {
      throw .reason("invalid time: hour must be 0-23")
    }
    return (hour, minute)
  }

  /// `1st`, `2nd`, `3rd`, `15th`: the number; nil for another shape.
  private static func ordinal(_ word: String) -> Int? {
    let digits = word.prefix(while: \.isASCIIDigit)
    guard !digits.isEmpty, digits.count <= 2, let number = Int(digits) else { return nil }
    let suffix = word.dropFirst(digits.count)
    let expected: String
    switch (number % 100 / 10 == 1, number % 10) {
    case (false, 1): expected = "st"
    case (false, 2): expected = "nd"
    case (false, 3): expected = "rd"
    default: expected = "th"
    }
    return suffix == expected ? number : nil
  }

  /// 0 = Sunday ... 6 = Saturday for a full or three-letter weekday name.
  private static func weekday(named name: String) -> Int? {
    weekdays.firstIndex { $0 == name || $0.prefix(3) == name }
  }

  /// 1 ... 12 for a full or three-letter month name (and `sept`).
  private static func month(named name: String) -> Int? {
    if name == "sept" { return 9 }
    return months.firstIndex { $0 == name || (name.count == 3 && $0.prefix(3) == name) }.map { $0 + 1 }
  }

  // MARK: - Arithmetic

  /// A value moved by `amount` units: calendar arithmetic for days and longer (a day stays a
  /// day), exact seconds for hours and minutes (which make an instant).
  private func shifted(_ value: Value, by amount: Int64?, _ unit: Unit) throws(Problem) -> Value {
    guard let amount else { throw .outOfRange }
    switch unit {
    case .minute, .hour:
      let start: Int64
      switch value {
      case .instant(let instant): start = instant
      case .day(let day, let time):
        guard let instant = Self.wall(day, time) else { throw .outOfRange }
        start = instant
      }
      let (delta, overflow) = amount.multipliedReportingOverflow(by: unit == .hour ? 3600 : 60)
      let (instant, overflowAgain) = start.addingReportingOverflow(delta)
      guard !overflow, !overflowAgain, let year = LocalTime.fields(instant)?.year, Self.years.contains(year) else {
        throw .outOfRange
      }
      return .instant(instant)
    case .day, .week, .month, .year:
      let day: CalendarDay
      let time: (Int, Int, Int)
      switch value {
      case .day(let named, let at): (day, time) = (named, at)
      case .instant(let instant):
        guard let fields = LocalTime.fields(instant) else { throw .outOfRange }
        day = CalendarDay(year: fields.year, month: fields.month, day: fields.day)
        time = (fields.hour, fields.minute, fields.second)
      }
      let moved: CalendarDay
      switch unit {
      case .day, .week:
        let (days, overflow) = unit == .week ? amount.multipliedReportingOverflow(by: 7) : (amount, false)
        guard !overflow, days.magnitude <= 4_000_000 else { throw .outOfRange }  // > 10,000 years
        moved = day.adding(days: days)
      default:
        guard amount.magnitude <= 1_000_000 else { throw .outOfRange }
        let months = unit == .year ? amount * 12 : amount
        let index = day.year * 12 + Int64(day.month - 1) + months
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        let month = Int(index - year * 12) + 1
        moved = CalendarDay(year: year, month: month, day: min(day.day, Civil.daysIn(month: month, year: year)))
      }
      guard Self.years.contains(moved.year) else { throw .outOfRange }
      if case .day = value { return .day(moved, time: time) }
      guard let instant = Self.wall(moved, time) else { throw .outOfRange }
      return .instant(instant)
    }
  }

  /// A local wall-clock time, or nil outside the years 1970...9999.
  private static func wall(_ day: CalendarDay, _ time: (Int, Int, Int)) -> Int64? {
    guard years.contains(day.year) else { return nil }
    return LocalTime.instant(
      year: day.year, month: day.month, day: day.day, hour: time.0, minute: time.1, second: time.2)
  }

  // MARK: - Hints

  /// The keyword closest to a misspelt word (edit distance 1, or 2 for words of 5+ letters).
  private static func suggestion(for input: String) -> String? {
    guard input.allSatisfy({ $0.isLetter }) else { return nil }
    let words = ["now"] + anchors + weekdays + months + ["later", "someday"]
    let limit = input.count >= 5 ? 2 : 1
    var best: (word: String, distance: Int)?
    for word in words {
      let distance = editDistance(Array(input.unicodeScalars), Array(word.unicodeScalars))
      if distance <= limit, distance < (best?.distance ?? Int.max) { best = (word, distance) }
    }
    return best?.word
  }

  private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(
          Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

/// The first day of the week (`week.start` in the configuration): for `sow`, `eow`, `+WEEK` and
/// timesheets by week.
public enum Week {
  /// 0 for Sunday, 1 for Monday (the default, as ISO 8601 has it). A session binds it for the
  /// extent of one command (`Week.$firstWeekday.withValue(0) { … }`), so that two sessions in
  /// one process (the tests' in-process runs) each see their own.
  @TaskLocal public static var firstWeekday = 1

  /// The first day of the week that holds `day`.
  public static func start(of day: CalendarDay) -> CalendarDay {
    day.adding(days: -Int64((day.weekday - firstWeekday + 7) % 7))
  }
}
