import Testing

@testable import TodoCore

/// Recurrence rules and their dates, on all-day dates (which need no time zone: `now` is 1970,
/// so nothing is ever past). Timed dates across DST are tested through the binary, whose `TZ`
/// each run sets (EndToEndRecurrenceTests).
@Suite struct RecurrenceRuleTests {
  private func day(_ text: String) -> TaskDate { .day(CalendarDay(text: text)!) }

  @Test(arguments: [
    ("daily", "daily"), ("weekly", "weekly"), ("monthly", "monthly"), ("yearly", "yearly"), ("weekdays", "weekdays"),
    ("4d", "4d"), ("2w", "2w"), ("3mo", "3mo"), ("1y", "yearly"), ("2weeks", "2w"), ("6months", "6mo"), ("biweekly", "2w"),
    ("quarterly", "3mo"), ("+1w", "+1w"), ("+weekly", "+1w"), ("+3d", "+3d"), ("+weekdays", "+weekdays"), ("1d", "daily"),
    ("W", "weekly"),
  ])
  func rulesReadAndPrintCanonically(text: String, canonical: String) {
    let rule = RecurrenceRule(parsing: text)
    #expect(rule?.description == canonical)
    #expect(RecurrenceRule(parsing: canonical) == rule)
  }

  @Test(arguments: ["", "0d", "-1w", "3x", "weekly2", "1000d", "every week", "+", "d3"])
  func badRulesAreRefused(text: String) {
    #expect(RecurrenceRule(parsing: text) == nil)
  }

  @Test func monthlyKeepsTheDayOfTheMonthAndClampsShortMonthsWithoutDrifting() {
    let rule = RecurrenceRule(unit: .month)
    let start = day("2027-01-31")
    let dates = (1...4).map { rule.advance(start, steps: $0) }
    #expect(dates == [day("2027-02-28"), day("2027-03-31"), day("2027-04-30"), day("2027-05-31")])
    // Next after the clamped February date is March 31, not March 28.
    #expect(rule.next(after: day("2027-02-28"), start: start, completed: 0, now: 0) == day("2027-03-31"))
    // In a leap year, February 29.
    #expect(rule.advance(day("2028-01-31"), steps: 1) == day("2028-02-29"))
  }

  @Test func oldMonthlyAndQuarterlySeriesSkipNoInstance() {
    let monthly = RecurrenceRule(unit: .month)
    // Kept up from 2020: the instance after November 2023 is December 2023.
    #expect(monthly.next(after: day("2023-11-01"), start: day("2020-01-01"), completed: 0, now: 0) == day("2023-12-01"))
    #expect(monthly.next(after: day("2039-11-30"), start: day("2020-01-31"), completed: 0, now: 0) == day("2039-12-31"))
    let quarterly = RecurrenceRule(parsing: "quarterly")!
    #expect(quarterly.next(after: day("2035-10-15"), start: day("2020-01-15"), completed: 0, now: 0) == day("2036-01-15"))
    let yearly = RecurrenceRule(unit: .year)
    #expect(yearly.next(after: day("2060-03-01"), start: day("2000-03-01"), completed: 0, now: 0) == day("2061-03-01"))
  }

  @Test func yearlyFromLeapDayFallsOnFebruary28AndComesBack() {
    let rule = RecurrenceRule(unit: .year)
    let start = day("2028-02-29")
    #expect(rule.advance(start, steps: 1) == day("2029-02-28"))
    #expect(rule.advance(start, steps: 4) == day("2032-02-29"))
    #expect(rule.next(after: day("2031-02-28"), start: start, completed: 0, now: 0) == day("2032-02-29"))
  }

  @Test func intervalsAndYearEnds() {
    #expect(RecurrenceRule(unit: .day, count: 4).advance(day("2026-12-30"), steps: 1) == day("2027-01-03"))
    #expect(RecurrenceRule(unit: .week, count: 2).advance(day("2026-12-24"), steps: 1) == day("2027-01-07"))
    #expect(RecurrenceRule(unit: .month, count: 3).advance(day("2026-11-30"), steps: 1) == day("2027-02-28"))
    #expect(RecurrenceRule(unit: .month).advance(day("2026-12-15"), steps: 1) == day("2027-01-15"))
  }

  @Test func weekdaysSkipTheWeekend() {
    let rule = RecurrenceRule(unit: .weekday)
    // Friday 2026-11-27 → Monday 2026-11-30; Saturday → Monday.
    #expect(rule.next(after: day("2026-11-27"), start: day("2026-11-27"), completed: 0, now: 0) == day("2026-11-30"))
    #expect(rule.next(after: day("2026-11-28"), start: day("2026-11-27"), completed: 0, now: 0) == day("2026-11-30"))
    #expect(rule.next(after: day("2026-11-30"), start: day("2026-11-27"), completed: 0, now: 0) == day("2026-12-01"))
  }

  @Test func onAScheduleMissedDatesAreSkippedNotBackfilled() {
    let rule = RecurrenceRule(unit: .day)
    // Completed four days late (now is 2026-11-25 noon UTC, TZ-independent enough: a whole day
    // either side), the next date is the first that is not past.
    let now: Int64 = 1_795_608_000  // 2026-11-25T12:00:00Z
    let next = rule.next(after: day("2026-11-20"), start: day("2026-11-01"), completed: now, now: now)
    #expect(next == day("2026-11-25") || next == day("2026-11-26"))
    #expect(next?.isPast(now: now) == false)
  }

  @Test(arguments: ["daily", "weekly", "monthly", "yearly", "weekdays", "+1w"])
  func thereIsNoNextDateAfter9999OrFromADateOutOfRange(rule text: String) throws {
    let rule = try #require(RecurrenceRule(parsing: text))
    let last = day("9999-12-31")
    #expect(rule.next(after: last, start: day("9999-12-01"), completed: last.sortInstant, now: 0) == nil)
    // A date a database held before dates were checked: no answer, and no endless loop.
    for far in [Int64.max, Int64.min, 253_402_300_800] {
      #expect(rule.next(after: .instant(far), start: .instant(far), completed: 0, now: 0) == nil)
      #expect(rule.next(after: day("2026-11-20"), start: day("2026-11-01"), completed: 0, now: far) == nil)
    }
  }

  @Test func afterCompletionCountsFromTheDayItWasDone() {
    let rule = RecurrenceRule(parsing: "+1w")!
    let completed: Int64 = 1_795_608_000  // 2026-11-25T12:00:00Z
    let next = rule.next(after: day("2026-11-01"), start: day("2026-11-01"), completed: completed, now: completed)
    #expect(next == RecurrenceRule.shifted(.day(CalendarDay.local(completed)), days: 7))
  }

  @Test func instanceUUIDsAreVersion5OfTheSeriesAndTheNumber() {
    // Python: uuid.uuid5(uuid.UUID('7b4b41f3-2980-4878-b322-ea4c59ba36f0'), '2')
    #expect(UUIDGenerator.instance(2, of: "7b4b41f3-2980-4878-b322-ea4c59ba36f0") == "5d2538bd-b9d3-58db-9c97-f8f60c207d61")
    #expect(UUIDGenerator.instance(2, of: "7B4B41F3-2980-4878-B322-EA4C59BA36F0") == "5d2538bd-b9d3-58db-9c97-f8f60c207d61")
    // RFC 9562's example namespace: uuid5(NAMESPACE_DNS, 'python.org').
    #expect(SHA1.hash(Array("abc".utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(UUIDGenerator.instance(3, of: "not a uuid") == nil)
    let series = "9824234e-f932-4a3c-afe9-f42757a43f28"
    let instances = (1...100).compactMap { UUIDGenerator.instance($0, of: series) }
    #expect(Set(instances).count == 100)
  }
}

/// Taskwarrior's urgency, against values worked out by hand from its formulas.
@Suite struct UrgencyTests {
  private let now: Int64 = 1_795_253_400  // 2026-11-21T09:30:00Z

  @Test func termsMatchHandComputedValues() {
    var todo = Todo()
    todo.id = 1
    todo.created = now - 73 * 86_400  // 73 days old: 2 × 73/365 = 0.4
    todo.due = .instant(now + 7 * 86_400)  // due in 7 days: ((−7 + 14) × 0.8 / 21 + 0.2) × 12 = 5.6
    todo.priority = .high  // 6
    todo.tags = ["home", "next"]  // next: 15; two tags: 0.9
    todo.project = "house"  // 1
    todo.notes = [Note()]  // one note: 0.8
    let terms = Urgency.terms(of: todo, now: now)
    #expect(terms.map(\.name) == ["next", "due", "priority", "age", "notes", "tags", "project"])
    let expected = 15 + 5.6 + 6 + 0.4 + 0.8 + 0.9 + 1
    #expect(abs(Urgency.score(of: todo, now: now) - expected) < 1e-9)
  }

  @Test func overdueCapsAtOneAndFarFutureFloorsAtPointTwo() {
    var late = Todo()
    late.created = now
    late.due = .instant(now - 30 * 86_400)
    #expect(Urgency.score(of: late, now: now) == 12)
    var far = late
    far.due = .instant(now + 60 * 86_400)
    #expect(abs(Urgency.score(of: far, now: now) - 2.4) < 1e-9)
  }

  @Test func blockedBlockingActiveScheduledAndWaiting() {
    var todo = Todo()
    todo.created = now
    todo.depends = [TaskLink(id: 2, uuid: "", isOpen: true)]  // −5
    todo.blocking = [3]  // +8
    todo.intervals = [WorkInterval(id: 1, started: now - 60, stopped: nil)]  // +4
    todo.scheduled = .instant(now - 1)  // +5
    todo.wait = .instant(now + 86_400)  // −3
    #expect(abs(Urgency.score(of: todo, now: now) - (-5 + 8 + 4 + 5 - 3)) < 1e-9)
    todo.depends[0].isOpen = false
    #expect(abs(Urgency.score(of: todo, now: now) - (8 + 4 + 5 - 3)) < 1e-9)
    todo.status = .done
    #expect(Urgency.terms(of: todo, now: now).isEmpty)
  }
}
