import Testing

@testable import TodoCore

/// Periods and their bounds: an instant on a bound belongs to the period that starts there.
@Suite struct ChartTests {
  @Test func anInstantOnABoundStartsThePeriod() {
    let range = PeriodRange(.monthly, from: CalendarDay(year: 2026, month: 10, day: 15), through: CalendarDay(year: 2026, month: 12, day: 2))
    #expect(range.days.map(\.description) == ["2026-10-01", "2026-11-01", "2026-12-01"])
    #expect(range.bounds.count == 4)
    #expect(range.index(of: range.bounds[0]) == 0)
    #expect(range.index(of: range.bounds[1] - 1) == 0)
    #expect(range.index(of: range.bounds[1]) == 1)
    #expect(range.index(of: range.bounds[3] - 1) == 2)
    #expect(range.index(of: range.bounds[3]) == nil)
    #expect(range.index(of: range.bounds[0] - 1) == nil)
  }

  @Test func periodsEndWithTheOneHoldingTheDay() {
    let day = CalendarDay(year: 2026, month: 1, day: 3)
    #expect(PeriodRange(.monthly, count: 3, endingWith: day).days.map(\.description) == ["2025-11-01", "2025-12-01", "2026-01-01"])
    #expect(PeriodRange(.annual, count: 2, endingWith: day).days.map(\.description) == ["2025-01-01", "2026-01-01"])
    #expect(PeriodRange(.daily, count: 4, endingWith: day).days.map(\.description) == ["2025-12-31", "2026-01-01", "2026-01-02", "2026-01-03"])
    #expect(ChartPeriod.monthly.next(after: CalendarDay(year: 2026, month: 12, day: 1)) == CalendarDay(year: 2027, month: 1, day: 1))
  }

  @Test func anEstimateNeedsMoreClosedThanAdded() {
    var chart = Burndown(period: .weekly, rows: [Burndown.Row(start: CalendarDay(year: 2026, month: 11, day: 23), pending: 10)])
    chart.days = 10
    chart.added = 10
    chart.completed = 5
    #expect(chart.estimatedCompletion(now: 0) == nil)
    chart.deleted = 10
    // Net: 0.5 a day closed; 10 pending: 20 days.
    #expect(chart.estimatedCompletion(now: 0) == Int64(20 * 86_400))
  }

  @Test func aProjectSumsItsSubProjectsAndComesBeforeThem() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context) { $0.project = .set("home.garden") }
    try addTask("b", in: context) { $0.project = .set("home-office") }
    try addTask("c", in: context) { $0.project = .set("home") }
    let summary = try TodoStore.summary(TodoFilter(), now: storeNow).operate(in: context)
    #expect(summary.map(\.name) == ["home", "home.garden", "home-office"])
    #expect(summary.map(\.pending) == [2, 1, 1])
  }

  @Test func anAgendaDayHasItsAllDayItemsFirstThenItsTimesInOrder() {
    let today = CalendarDay(year: 2026, month: 11, day: 27)
    let nine = today.start + 9 * 3600
    let tasks = [
      DatedTask(id: 1, title: "late", due: .instant(nine + 3600), scheduled: nil, active: false),
      DatedTask(id: 2, title: "early", due: nil, scheduled: .instant(nine), active: false),
      DatedTask(id: 3, title: "all day", due: .day(today), scheduled: nil, active: false),
      DatedTask(id: 4, title: "last week", due: .day(today.adding(days: -7)), scheduled: nil, active: false),
    ]
    let agenda = Agenda(tasks: tasks, today: today, days: 2, now: nine + 1800, workedToday: 0)
    #expect(agenda.days == [today, today.adding(days: 1)])
    #expect(agenda.items[today]?.map(\.task.id) == [3, 2, 1])
    #expect(agenda.items[today]?.map(\.overdue) == [false, false, false])
    #expect(agenda.overdue.map(\.task.id) == [4])
    // A timed due that has passed today is overdue on its day.
    let later = Agenda(tasks: tasks, today: today, days: 1, now: nine + 7200, workedToday: 0)
    #expect(later.items[today]?.map(\.overdue) == [false, false, true])
  }
}
