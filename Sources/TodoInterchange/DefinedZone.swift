import TodoCore

/// A time zone that a calendar defines itself, in a `VTIMEZONE` (RFC 5545 3.6.5), for a `TZID`
/// no zone database knows: Outlook and Exchange name zones by display names (`(UTC+01:00)
/// Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`) or ids of their own, and always send the
/// definition along.
///
/// A definition is a list of observances (`STANDARD`, `DAYLIGHT`), each starting at an onset (its
/// `DTSTART`, repeated by a yearly `RRULE` such as `FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU`, or listed by
/// `RDATE`s) with the UTC offset it begins (`TZOFFSETTO`; the onset itself is a wall-clock time in
/// the offset before it, `TZOFFSETFROM`). A wall-clock time is in the observance whose onset came
/// last before it.
struct DefinedZone: Sendable {
  /// A wall-clock time, read as if it were UTC (`Timestamp.wallSeconds`).
  typealias Wall = Int64

  struct Observance: Sendable {
    var start: Wall
    var startYear: Int64
    var offsetFrom: Int64
    var offsetTo: Int64
    /// A yearly rule: the month, and the day as a weekday of it (`2SU`, `-1SU`) or a day number.
    var yearly: (month: Int, weekday: Int?, ordinal: Int, monthDay: Int?)?
    /// The rule's last onset may be at or before this instant (UNTIL, a UTC time)…
    var untilInstant: Int64?
    /// …or this wall-clock time (UNTIL without `Z`, read in the offset before the change).
    var untilWall: Wall?
    var dates: [Wall] = []

    /// The years worth looking at for the onset last before a time in `year`: around it, and
    /// those of a rule's first and last onsets (a zone may not have changed for decades).
    func years(around year: Int64) -> Set<Int64> {
      var years: Set<Int64> = [year - 1, year, year + 1, startYear]
      if let untilYear = (untilInstant ?? untilWall).map({ Timestamp.date(ofWallSeconds: $0).year }) {
        years.formUnion([untilYear - 1, untilYear, untilYear + 1])
      }
      return years
    }

    /// The onsets in `year`, as wall-clock times before the change.
    func onsets(in year: Int64) -> [Wall] {
      var onsets = dates
      if let yearly, year >= startYear {
        let time = ((start % 86_400) + 86_400) % 86_400
        let length = Timestamp.daysIn(month: yearly.month, year: year)
        var day: Int?
        if let weekday = yearly.weekday {
          let first = Timestamp.weekday(year: year, month: yearly.month, day: 1)
          let firstMatch = 1 + (weekday - first + 7) % 7
          if yearly.ordinal > 0 {
            day = firstMatch + 7 * (yearly.ordinal - 1)
          } else {
            let lastMatch = firstMatch + 7 * ((length - firstMatch) / 7)
            day = lastMatch + 7 * (yearly.ordinal + 1)
          }
        } else if let monthDay = yearly.monthDay {
          day = monthDay > 0 ? monthDay : length + monthDay + 1
        }
        if let day, (1...length).contains(day) {
          let onset = Timestamp.wallSeconds(year: year, month: yearly.month, day: day, hour: 0, minute: 0, second: 0) + time
          let beforeUntil = (untilInstant.map { onset - offsetFrom <= $0 } ?? true) && (untilWall.map { onset <= $0 } ?? true)
          if onset >= start, beforeUntil { onsets.append(onset) }
        }
      }
      // DTSTART is the first onset, with a rule or without.
      if year == startYear { onsets.append(start) }
      return onsets
    }
  }

  var observances: [Observance]

  /// The zone a `VTIMEZONE` defines; nil when it has no observance, or one that does not read
  /// (a STANDARD without its DAYLIGHT would give half the year the wrong offset).
  init?(_ component: Component) {
    var unreadable = false
    observances = component.components.compactMap { part -> Observance? in
      guard part.name == "STANDARD" || part.name == "DAYLIGHT" else { return nil }
      func refuse() -> Observance? {
        unreadable = true
        return nil
      }
      func value(_ name: String) -> String? { part.properties.first { $0.name == name }?.value.trimmingSpaces }
      guard let start = value("DTSTART").flatMap(Self.wall), let from = value("TZOFFSETFROM").flatMap(Self.offset),
        let to = value("TZOFFSETTO").flatMap(Self.offset)
      else { return refuse() }
      var observance = Observance(start: start.wall, startYear: start.year, offsetFrom: from, offsetTo: to, yearly: nil)
      for rdate in part.properties where rdate.name == "RDATE" {
        // Dates and date-times (a PERIOD, or a UTC time, is not what zones list).
        for piece in rdate.value.split(separator: ",") {
          guard !piece.contains("/"), !piece.hasSuffix("Z"), let date = Self.wall(String(piece)) else { return refuse() }
          observance.dates.append(date.wall)
        }
      }
      if let rule = value("RRULE") {
        var parts: [String: String] = [:]
        for piece in rule.split(separator: ";") {
          let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
          if pair.count == 2 { parts[pair[0].uppercased()] = pair[1].uppercased() }
        }
        // The yearly rules zones are made of, on one month; any other is refused, not guessed.
        let known: Set<String> = ["FREQ", "INTERVAL", "BYMONTH", "BYDAY", "BYMONTHDAY", "UNTIL", "WKST"]
        guard parts["FREQ"] == "YEARLY", parts["INTERVAL"].map({ $0 == "1" }) ?? true, parts.keys.allSatisfy(known.contains),
          let month = parts["BYMONTH"].map({ Int($0) }) ?? Self.month(of: start.wall), (1...12).contains(month)
        else { return refuse() }
        var weekday: Int?
        var ordinal = 1
        if let day = parts["BYDAY"] {
          guard day.count >= 2 else { return refuse() }
          weekday = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: String(day.suffix(2)))
          let number = String(day.dropLast(2))
          ordinal = number.isEmpty ? 1 : Int(number) ?? 0
          if weekday == nil || ordinal == 0 || abs(ordinal) > 5 { return refuse() }
        }
        var monthDay: Int?
        if let text = parts["BYMONTHDAY"] {
          guard let day = Int(text), day != 0, abs(day) <= 31 else { return refuse() }
          monthDay = day
        }
        observance.yearly = (month, weekday, ordinal, weekday == nil ? monthDay ?? Self.day(of: start.wall) : nil)
        if let until = parts["UNTIL"] {
          guard let wall = Self.wall(until)?.wall else { return refuse() }
          if until.hasSuffix("Z") { observance.untilInstant = wall } else { observance.untilWall = wall }
        }
      }
      return observance
    }
    if observances.isEmpty || unreadable { return nil }
  }

  /// The instant of a wall-clock time in this zone.
  func instant(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
    let wall = Timestamp.wallSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    var latest: (onset: Int64, offset: Int64)?
    for observance in observances {
      for onsetYear in observance.years(around: year) {
        for onset in observance.onsets(in: onsetYear) {
          // The onset as an instant, and whether the time comes after it. A time the change makes
          // twice (the hour the clocks go back) is read in the offset before it, its first
          // occurrence, as RFC 5545 says and the zone database path reads it; a time it skips
          // (the hour they go forward) is read in the offset before it too.
          let instant = onset - observance.offsetFrom
          guard wall - max(observance.offsetFrom, observance.offsetTo) >= instant, instant > latest?.onset ?? Int64.min
          else { continue }
          latest = (instant, observance.offsetTo)
        }
      }
    }
    if let latest { return wall - latest.offset }
    // Before the first onset: the offset the earliest observance changes from.
    let earliest = observances.min { $0.start < $1.start }!
    return wall - earliest.offsetFrom
  }

  /// `19701025T030000` (a local time; a trailing `Z` read the same) as a wall-clock time and its year.
  static func wall(_ text: String) -> (wall: Wall, year: Int64)? {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? { ICalendarText.digits(bytes, range) }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), (1...12).contains(month),
      day >= 1, day <= Timestamp.daysIn(month: month, year: Int64(year))
    else { return nil }
    guard bytes.count > 8 else {
      return (Timestamp.wallSeconds(year: Int64(year), month: month, day: day, hour: 0, minute: 0, second: 0), Int64(year))
    }
    guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
      let second = number(13..<15), hour < 24, minute < 60, second < 61
    else { return nil }
    return (
      Timestamp.wallSeconds(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second),
      Int64(year)
    )
  }

  /// `+0100`, `-0500`, `+013045`: seconds east of UTC.
  static func offset(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") else { return nil }
    var digits: [Int64] = []
    for byte in bytes.dropFirst() {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      digits.append(Int64(byte - 0x30))
    }
    let hours = digits[0] * 10 + digits[1]
    let minutes = digits[2] * 10 + digits[3]
    let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
    guard hours < 24, minutes < 60, seconds < 60 else { return nil }
    let value = hours * 3600 + minutes * 60 + seconds
    return bytes[0] == UInt8(ascii: "-") ? -value : value
  }

  private static func month(of wall: Wall) -> Int? { Timestamp.date(ofWallSeconds: wall).month }

  private static func day(of wall: Wall) -> Int { Timestamp.date(ofWallSeconds: wall).day }
}
