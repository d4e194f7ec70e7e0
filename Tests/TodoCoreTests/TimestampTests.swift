import TestSupport
import Testing
import TodoCore

/// Timestamp functions that do not depend on `TZ` (the ones that do are in
/// `DateExpressionTests`, which serializes access to the process environment).
@Suite struct DateTimestampTests {
  @Test(arguments: [
    (Int64(0), "1970-01-01T00:00:00Z"),
    (1_795_253_400, "2026-11-21T09:30:00Z"),
    (-1, "1969-12-31T23:59:59Z"),
    (951_782_400, "2000-02-29T00:00:00Z"),
    (951_868_799, "2000-02-29T23:59:59Z"),
    (253_402_300_799, "9999-12-31T23:59:59Z"),
    (-2_208_988_800, "1900-01-01T00:00:00Z"),
    (-62_135_596_800, "0001-01-01T00:00:00Z"),
  ])
  func rfc3339KnownValues(seconds: Int64, text: String) {
    #expect(Timestamp.rfc3339(seconds) == text)
    #expect(Timestamp.parseRFC3339(text) == seconds)
  }

  @Test func rfc3339ExtremesDoNotTrap() {
    #expect(Timestamp.rfc3339(253_402_300_800) == "10000-01-01T00:00:00Z")
    #expect(Timestamp.rfc3339(Int64.max) == "292277026596-12-04T15:30:07Z")
    #expect(Timestamp.rfc3339(Int64.min) == "-292277022657-01-27T08:29:52Z")
  }

  @Test(
    arguments: [
      ("2026-11-21T09:30:00Z", 1_795_253_400),
      ("2026-11-21t09:30:00z", 1_795_253_400),
      ("2026-11-21 09:30:00Z", 1_795_253_400),
      ("2026-11-21T10:30:00+01:00", 1_795_253_400),
      ("2026-11-21T04:00:00-05:30", 1_795_253_400),
      ("2026-11-21T09:30:00.999Z", 1_795_253_400),
      ("2026-11-21T09:30:00.123456789+00:00", 1_795_253_400),
      ("2026-11-21T09:29:60Z", 1_795_253_400),  // leap second
      ("2026-11-21T09:30:00-00:00", 1_795_253_400),
    ] as [(String, Int64)])
  func parseRFC3339Accepts(text: String, seconds: Int64) {
    #expect(Timestamp.parseRFC3339(text) == seconds)
  }

  @Test(arguments: [
    "", "2026-11-21", "2026-11-21T09:30Z", "2026-11-21T09:30:00", "2026-11-21T09:30:00+0100",
    "2026-11-21T09:30:00+01", "2026-11-21T09:30:00.Z", "2026-11-21T09:30:00Zjunk",
    " 2026-11-21T09:30:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z",
    "2026-11-21T24:00:00Z", "2026-11-21T09:60:00Z", "2026-11-21T09:30:61Z",
    "2026-11-21T09:30:00+24:00", "2026-11-21T09:30:00+01:60", "26-11-21T09:30:00Z",
    "2026-11-21X09:30:00Z", "２０２６-11-21T09:30:00Z", "now",
  ])
  func parseRFC3339Rejects(text: String) {
    #expect(Timestamp.parseRFC3339(text) == nil)
  }

  @Test func rfc3339RoundTripsRandomInstants() {
    var random = SeededGenerator(seed: 2026)
    let first: Int64 = -62_135_596_800 + 86_400
    let last: Int64 = 253_402_300_799 - 86_400
    for _ in 0..<500 {  // 0001-01-02 ... 9999-12-30, so a wall time ± 24 h keeps 4-digit years
      let seconds = first + Int64(random.next(below: Int(last - first + 1)))
      let text = Timestamp.rfc3339(seconds)
      #expect(text.count == 20 && text.hasSuffix("Z"))
      #expect(Timestamp.parseRFC3339(text) == seconds, "\(seconds) → \(text)")
      // The same instant written with a random offset, as another program might.
      let minutes = Int64(random.next(below: 2 * 1439 + 1)) - 1439
      let wall = String(Timestamp.rfc3339(seconds + minutes * 60).dropLast())
      let offset =
        (minutes < 0 ? "-" : "+") + two(minutes.magnitude / 60) + ":"
        + two(minutes.magnitude % 60)
      #expect(Timestamp.parseRFC3339(wall + offset) == seconds, "\(wall)\(offset)")
    }
  }

  @Test(
    arguments: [
      (Int64(0), "now"), (59, "now"), (-59, "now"), (60, "in 1min"), (-60, "overdue 1min"),
      (45 * 60 + 59, "in 45min"), (3599, "in 59min"), (3600, "in 1h"), (-3600, "overdue 1h"),
      (5 * 3600, "in 5h"), (48 * 3600 - 1, "in 47h"), (-(48 * 3600 - 1), "overdue 47h"),
      (48 * 3600, "in 2d"), (14 * 86_400 - 1, "in 13d"), (-3 * 86_400, "overdue 3d"),
      (14 * 86_400, "in 2w"), (21 * 86_400, "in 3w"), (56 * 86_400 - 1, "in 7w"),
      (56 * 86_400, "in 1mo"), (-56 * 86_400, "overdue 1mo"), (120 * 86_400, "in 4mo"),
      (365 * 86_400 - 1, "in 12mo"), (365 * 86_400, "in 1y"), (730 * 86_400 - 1, "in 1y"),
      (-730 * 86_400, "overdue 2y"),
    ] as [(Int64, String)])
  func relative(offset: Int64, text: String) {
    let now: Int64 = 1_795_253_400
    #expect(Timestamp.relative(now + offset, now: now) == text)
  }

  @Test func relativeExtremesDoNotTrap() {
    #expect(Timestamp.relative(Int64.max, now: 0) == "in 292471208677y")
    #expect(Timestamp.relative(Int64.max, now: Int64.min) == "in 584942417355y")
    #expect(Timestamp.relative(Int64.min, now: Int64.max) == "overdue 584942417355y")
    #expect(Timestamp.relative(Int64.min, now: Int64.min) == "now")
  }

  private func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
