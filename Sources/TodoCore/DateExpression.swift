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

/// Reads date expressions relative to a fixed `now`, in the process's local time zone.
///
/// Case-insensitive, surrounding whitespace ignored:
/// - `now`; `today`, `tomorrow`, `yesterday` (00:00 local);
/// - `2026-12-01` (00:00 local), `2026-12-01T17:00[:00]` or with a space (local wall time),
///   with `Z` or `±HH:MM` (that exact instant; a fraction of a second is dropped);
/// - `monday`…`sunday`, `mon`…`sun`: the next such day strictly after today, 00:00 local;
/// - `+3d`, `3d`, `-2d`, `2w`, `1mo` (months), `1y`, `12h`, `30min` (a bare `m` is refused as
///   ambiguous), and `in 3 days`,
///   `in 1 week`, `in 2 months`, `in 1 year`, `in 5 hours`, `in 10 minutes`. Days, weeks,
///   months and years move the local calendar date and keep the wall-clock time (so `+1d`
///   across a DST change is 23 or 25 hours); a day past the end of the month is clamped
///   (Jan 31 + 1m = Feb 28/29). Hours and minutes are exact seconds;
/// - `sod`/`eod`, `sow`/`eow` (ISO weeks, Monday to Sunday), `som`/`eom`, `soy`/`eoy`:
///   start (00:00:00) or end (23:59:59) of the current day, week, month, year.
///
/// A local time that does not exist (in a spring-forward gap) is read with the offset in
/// force before the gap (02:30 → 03:30 DST); an ambiguous one (in the autumn overlap) is
/// the earlier instant. Results must fall in the years 1970...9999.
///
/// ```swift
/// let parser = DateExpressionParser(now: Timestamp.now())
/// let due = try parser.parse("friday")
/// ```
public struct DateExpressionParser: Sendable {
  private let now: Int64
  /// `now` on the local calendar; nil if the C library cannot represent it.
  private let local: LocalFields?

  private static let years: ClosedRange<Int64> = 1970...9999
  private static let expected = "expected a date like 2026-12-01, today, friday, +3d, eow"
  private static let outOfRange = "out of range: dates must be in the years 1970 to 9999"
  private static let anchors = [
    "today", "tomorrow", "yesterday", "sod", "eod", "sow", "eow", "som", "eom", "soy", "eoy",
  ]
  private static let weekdays = [
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]

  /// Makes a parser for expressions relative to `now`, read with the process's `TZ`.
  ///
  /// ```swift
  /// let parser = DateExpressionParser(now: 1_795_253_400)  // 2026-11-21T09:30:00Z
  /// ```
  public init(now: Int64) {
    self.now = now
    self.local = LocalTime.fields(now)
  }

  /// The instant (seconds since the epoch, UTC) that `text` names.
  ///
  /// ```swift
  /// // TZ=Europe/Berlin, now = 2026-11-21T09:30:00Z (a Saturday)
  /// try parser.parse("tomorrow")  // 2026-11-22 00:00 CET = 1795302000
  /// try parser.parse("2026-02-30")  // throws: invalid date: day must be 1-28 in 2026-02
  /// ```
  public func parse(_ text: String) throws(DateExpressionError) -> Int64 {
    var trimmed = Substring(text)
    while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
    while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
    let input = trimmed.lowercased()
    func failure(_ reason: String) -> DateExpressionError {
      DateExpressionError(expression: text, reason: reason)
    }
    if input.isEmpty { throw failure("empty date: " + Self.expected) }
    if input == "now" { return now }

    let result: Int64?
    if let anchor = Self.anchors.firstIndex(of: input) {
      result = anchored(anchor)
    } else if let weekday = Self.weekday(named: input) {
      guard let local else { throw failure(Self.outOfRange) }
      let ahead = (weekday - local.weekday + 7) % 7
      result = startOfDay(plus: ahead == 0 ? 7 : Int64(ahead))
    } else if Self.isBareM(input) {
      throw failure("'m' could be minutes or months: use min (30min) or mo (2mo)")
    } else if let (amount, unit) = Self.duration(input) {
      guard let amount else { throw failure(Self.outOfRange) }
      result = shifted(by: amount, unit)
    } else if let parts = DateTimeText(Array(input.utf8)) {
      if let problem = parts.problem(allowLeapSecond: false) { throw failure(problem) }
      guard Self.years.contains(parts.year) else {
        throw failure("out of range: the year must be 1970 to 9999")
      }
      if let offset = parts.offset { return parts.wallSeconds - offset }
      result = LocalTime.instant(
        year: parts.year, month: parts.month, day: parts.day,
        hour: parts.hour, minute: parts.minute, second: parts.second)
    } else if let suggestion = Self.suggestion(for: input) {
      throw failure("not a date: did you mean '\(suggestion)'?")
    } else {
      throw failure("not a date: " + Self.expected)
    }
    guard let result else { throw failure(Self.outOfRange) }
    return result
  }

  // MARK: - Forms

  private enum Unit { case minute, hour, day, week, month, year }

  /// `[+|-]Nm`: refused, since `30m` is as likely half an hour as two and a half years.
  private static func isBareM(_ input: String) -> Bool {
    var rest = Substring(input)
    if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
    let digits = rest.prefix(while: \.isASCIIDigit)
    return !digits.isEmpty && rest.dropFirst(digits.count) == "m"
  }

  /// `[+|-]N(d|w|mo|y|h|min)` or `in N unit(s)`: nil if the shape differs; a nil amount if the
  /// number does not fit an Int64.
  private static func duration(_ input: String) -> (Int64?, Unit)? {
    let compact = ["d": Unit.day, "w": .week, "mo": .month, "y": .year, "h": .hour, "min": .minute]
    let spelled: [Substring: Unit] = [
      "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute, "hour": .hour, "hours": .hour, "day": .day,
      "days": .day, "week": .week, "weeks": .week, "month": .month, "months": .month,
      "year": .year, "years": .year,
    ]
    let words = input.split(whereSeparator: \.isWhitespace)
    if words.count == 3, words[0] == "in", let unit = spelled[words[2]],
      !words[1].isEmpty, words[1].allSatisfy(\.isASCIIDigit)
    {
      return (Int64(words[1]), unit)
    }
    var rest = Substring(input)
    let negative = rest.first == "-"
    if rest.first == "+" || negative { rest.removeFirst() }
    let digits = rest.prefix(while: \.isASCIIDigit)
    guard !digits.isEmpty, let unit = compact[String(rest.dropFirst(digits.count))] else {
      return nil
    }
    // "-" + digits keeps Int64.min readable and makes the magnitude check below exact.
    return (Int64((negative ? "-" : "") + String(digits)), unit)
  }

  /// 0 = Sunday ... 6 = Saturday for a full or three-letter weekday name.
  private static func weekday(named name: String) -> Int? {
    weekdays.firstIndex { $0 == name || $0.prefix(3) == name }
  }

  /// `today`, `eow`, …: indexes into `anchors`.
  private func anchored(_ anchor: Int) -> Int64? {
    guard let local else { return nil }
    let isoWeekday = Int64(local.weekday == 0 ? 7 : local.weekday)
    let lastOfMonth = Int64(Civil.daysIn(month: local.month, year: local.year))
    let dayOfMonth = Int64(local.day)
    let dayOfYear =
      Civil.days(year: local.year, month: local.month, day: local.day)
      - Civil.days(year: local.year, month: 1, day: 1)
    let lastOfYear = Civil.isLeap(local.year) ? 365 : 364 as Int64
    switch Self.anchors[anchor] {
    case "tomorrow": return startOfDay(plus: 1)
    case "yesterday": return startOfDay(plus: -1)
    case "eod": return endOfDay(plus: 0)
    case "sow": return startOfDay(plus: 1 - isoWeekday)
    case "eow": return endOfDay(plus: 7 - isoWeekday)
    case "som": return startOfDay(plus: 1 - dayOfMonth)
    case "eom": return endOfDay(plus: lastOfMonth - dayOfMonth)
    case "soy": return startOfDay(plus: -dayOfYear)
    case "eoy": return endOfDay(plus: lastOfYear - dayOfYear)
    default: return startOfDay(plus: 0)  // today, sod
    }
  }

  private func startOfDay(plus days: Int64) -> Int64? { day(plus: days, at: (0, 0, 0)) }
  private func endOfDay(plus days: Int64) -> Int64? { day(plus: days, at: (23, 59, 59)) }

  /// The local wall time `time` on the day `days` after today.
  private func day(plus days: Int64, at time: (Int, Int, Int)) -> Int64? {
    guard let local, days.magnitude <= 4_000_000 else { return nil }  // > 10,000 years
    let date = Civil.date(
      days: Civil.days(year: local.year, month: local.month, day: local.day) + days)
    return Self.wall(date.year, date.month, date.day, time)
  }

  /// `now` moved by `amount` units: calendar arithmetic for days and longer, exact seconds
  /// for hours and minutes.
  private func shifted(by amount: Int64, _ unit: Unit) -> Int64? {
    guard let local else { return nil }
    let time = (local.hour, local.minute, local.second)
    switch unit {
    case .minute, .hour:
      let (delta, overflow) = amount.multipliedReportingOverflow(by: unit == .hour ? 3600 : 60)
      let (instant, overflowAgain) = now.addingReportingOverflow(delta)
      guard !overflow, !overflowAgain, let year = LocalTime.fields(instant)?.year,
        Self.years.contains(year)
      else { return nil }
      return instant
    case .day:
      return day(plus: amount, at: time)
    case .week:
      guard amount.magnitude <= 1_000_000 else { return nil }
      return day(plus: amount * 7, at: time)
    case .month, .year:
      guard amount.magnitude <= 1_000_000 else { return nil }
      let months = unit == .year ? amount * 12 : amount
      let index = local.year * 12 + Int64(local.month - 1) + months
      let year = index >= 0 ? index / 12 : (index - 11) / 12
      let month = Int(index - year * 12) + 1
      let day = min(local.day, Civil.daysIn(month: month, year: year))
      return Self.wall(year, month, day, time)
    }
  }

  /// A local wall-clock time, or nil outside the years 1970...9999.
  private static func wall(_ year: Int64, _ month: Int, _ day: Int, _ time: (Int, Int, Int))
    -> Int64?
  {
    guard years.contains(year) else { return nil }
    return LocalTime.instant(
      year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
  }

  // MARK: - Hints

  /// The keyword closest to a misspelt word (edit distance 1, or 2 for words of 5+ letters).
  private static func suggestion(for input: String) -> String? {
    guard input.allSatisfy({ $0.isLetter }) else { return nil }
    let words = ["now"] + anchors + weekdays
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
