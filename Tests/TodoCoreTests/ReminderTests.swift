import DataOperation
import Testing

@testable import TodoCore

/// Reminders: what `remind:` reads, when each rings, and what a check records.
@Suite struct ReminderTests {
  /// The local instant of a wall-clock time (whatever zone the tests run in).
  func local(_ year: Int64, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
    Timestamp.wallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: 0)!
  }

  @Test func theFormsReadAndGoBackToTheirCanonicalSpelling() throws {
    let cases: [(String, String)] = [
      ("due-15min", "due-15min"), ("due", "due"), ("DUE+1h", "due+1h"), ("scheduled-1h", "scheduled-1h"), ("sched-90min", "scheduled-1h30min"),
      ("due-1d@09:00", "due-1d@09:00"), ("due-1d@9am", "due-1d@09:00"), ("due@5:30pm", "due@17:30"), ("due-PT15M", "due-15min"),
      ("due-1w", "due-7d"),
    ]
    for (typed, canonical) in cases {
      let reminder = try Reminder(parsing: typed, now: storeNow)
      #expect(reminder.text == canonical, "\(typed)")
      #expect(Reminder(stored: reminder.text) == reminder, "\(typed)")
    }
    let absolute = try Reminder(parsing: "2026-12-01T09:00:00Z", now: storeNow)
    #expect(absolute.text == "2026-12-01T09:00:00Z")
    #expect(try Reminder(parsing: "now+1h", now: storeNow).when == .at(storeNow + 3600))
    #expect(try Reminder(parsing: "2026-12-01@9:00", now: storeNow).when == .at(local(2026, 12, 1, 9, 0)))
    let snooze = Reminder(.at(storeNow), isSnooze: true)
    #expect(Reminder(stored: snooze.text) == snooze && snooze.text.hasPrefix("snooze@"))
    #expect(Reminder.list(stored: "due-15min,nonsense,2026-12-01T09:00:00Z").map(\.text) == ["due-15min", "2026-12-01T09:00:00Z"])
    #expect(Reminder.stored([]) == nil)
  }

  @Test func whatIsNotAReminderIsAnErrorThatSaysWhy() {
    let bad: [(String, String)] = [
      ("tomorrow", "is a whole day"), ("due-15m", "'15m' is not a duration"), ("due-x", "'x' is not a duration"),
      ("due@25:00", "not a time of day"), ("dueish", "after 'due' comes + or -"), ("blorp", "cannot read the reminder 'blorp'"),
      ("fri 17:00@9:00", "names a time twice"), ("tomorrow@", "time of day"),
    ]
    for (typed, reason) in bad {
      do {
        _ = try Reminder(parsing: typed, now: storeNow)
        Issue.record("'\(typed)' was read")
      } catch {
        #expect(error.description.contains(reason), "\(typed): \(error)")
      }
    }
  }

  @Test func aReminderRingsWhereItsDateIs() throws {
    let due = local(2026, 12, 4, 18, 0)
    #expect(try Reminder(parsing: "due-15min", now: storeNow).fire(due: .instant(due), scheduled: nil) == due - 900)
    #expect(try Reminder(parsing: "due-15min", now: storeNow).fire(due: nil, scheduled: .instant(due)) == nil)
    #expect(try Reminder(parsing: "scheduled+1h", now: storeNow).fire(due: nil, scheduled: .instant(due)) == due + 3600)
    #expect(try Reminder(parsing: "due-1d@09:00", now: storeNow).fire(due: .instant(due), scheduled: nil) == local(2026, 12, 3, 9, 0))
    // An all-day date counts from the local start of its day; whole days move the day.
    let day = TaskDate.day(CalendarDay(year: 2026, month: 12, day: 4))
    #expect(try Reminder(parsing: "due", now: storeNow).fire(due: day, scheduled: nil) == local(2026, 12, 4, 0, 0))
    #expect(try Reminder(parsing: "due-1d", now: storeNow).fire(due: day, scheduled: nil) == local(2026, 12, 3, 0, 0))
    #expect(try Reminder(parsing: "due-2d@8:30", now: storeNow).fire(due: day, scheduled: nil) == local(2026, 12, 2, 8, 30))
    #expect(try Reminder(parsing: "due-15min", now: storeNow).fire(due: day, scheduled: nil) == local(2026, 12, 3, 23, 45))
    #expect(Reminder(.at(42)).fire(due: nil, scheduled: nil) == 42)
  }

  @Test func aCheckShowsHoldsMarksLateOrSkips() throws {
    var policy = ReminderPolicy()
    let now = local(2026, 11, 27, 12, 0)
    #expect(policy.outcome(fire: now - 60, now: now) == .shown)
    #expect(policy.outcome(fire: now - 3600, now: now) == .late)
    #expect(policy.outcome(fire: now - 2 * 86_400, now: now) == .skipped)
    policy.missedLimit = 3 * 86_400
    #expect(policy.outcome(fire: now - 2 * 86_400, now: now) == .late)
    policy.quiet = try #require(QuietHours(parsing: "22:00-07:00"))
    let night = local(2026, 11, 27, 23, 30)
    #expect(policy.quiet!.contains(night) && !policy.quiet!.contains(now))
    #expect(policy.outcome(fire: night - 60, now: night) == nil)
    // Held until the quiet hours end, then on time.
    let morning = local(2026, 11, 28, 7, 0)
    #expect(policy.quiet!.end(after: night) == morning)
    #expect(policy.outcome(fire: night - 60, now: morning) == .shown)
    #expect(policy.outcome(fire: local(2026, 11, 27, 21, 0), now: morning) == .late)
    #expect(QuietHours(parsing: "13:00-14:30")?.contains(local(2026, 11, 27, 14, 0)) == true)
    #expect(QuietHours(parsing: "22-7")?.text == "22:00-07:00")
    #expect(QuietHours(parsing: "10:00-10:00") == nil && QuietHours(parsing: "late") == nil)
  }

  @Test func eachReminderIsClaimedOnceAndADoneTaskRingsNoMore() throws {
    let context = try makeTodoContext()
    let reminder = Reminder(.at(storeNow - 60))
    let first = try addTask("Call", in: context) { $0.reminders = [reminder, Reminder(.at(storeNow + 3600))] }
    let second = try addTask("Other", in: context) { $0.reminders = [reminder] }
    let claimed = try TodoStore.claimReminders(now: storeNow, policy: ReminderPolicy()).operate(in: context)
    #expect(claimed.map(\.task.id) == [first.id, second.id] && claimed.allSatisfy { $0.outcome == .shown })
    #expect(try TodoStore.claimReminders(now: storeNow, policy: ReminderPolicy()).operate(in: context).isEmpty)
    // The next one, when its time comes; not for a task that is done.
    _ = try TodoStore.complete(ids(.id(second.id)), now: storeNow, command: "done").operate(in: context)
    let later = try TodoStore.claimReminders(now: storeNow + 4000, policy: ReminderPolicy()).operate(in: context)
    #expect(later.map(\.fire) == [storeNow + 3600])
    // A delivery that failed is forgotten: the next check tries again.
    _ = try TodoStore.releaseReminders(later).operate(in: context)
    #expect(try TodoStore.claimReminders(now: storeNow + 4001, policy: ReminderPolicy()).operate(in: context).count == 1)
  }

  @Test func undoPutsRemindersBackButDeliveriesStay() throws {
    let context = try makeTodoContext()
    let task = try addTask("Call", in: context) { $0.reminders = [Reminder(.at(storeNow - 60))] }
    _ = try TodoStore.claimReminders(now: storeNow, policy: ReminderPolicy()).operate(in: context)
    var changes = TodoChanges()
    changes.reminders = []
    _ = try TodoStore.update(ids(.id(task.id)), changes, now: storeNow, command: "update").operate(in: context)
    #expect(try snapshot(context)[0].reminders.isEmpty)
    _ = try TodoStore.undo().operate(in: context)
    #expect(try snapshot(context)[0].reminders == [Reminder(.at(storeNow - 60))])
    // Delivered before the undo: it does not ring again.
    #expect(try TodoStore.claimReminders(now: storeNow, policy: ReminderPolicy()).operate(in: context).isEmpty)
  }

  @Test func aSeriesNextInstanceKeepsTheRemindersThatCountFromItsDates() throws {
    let context = try makeTodoContext()
    let task = try addTask("Water", in: context) { changes in
      changes.due = .set(.date(.instant(storeNow + 86_400)))
      changes.recur = .set(try! #require(RecurrenceRule(parsing: "weekly")))
      changes.reminders = [try! Reminder(parsing: "due-1h", now: storeNow), Reminder(.at(storeNow + 100))]
    }
    let report = try TodoStore.complete(ids(.id(task.id)), now: storeNow, command: "done").operate(in: context)
    let next = try #require(report.created.first)
    #expect(next.reminders.map(\.text) == ["due-1h"])
    let scheduled = try TodoStore.reminders(of: [next.id]).operate(in: context)
    #expect(scheduled.map(\.fire) == [storeNow + 86_400 + 7 * 86_400 - 3600])
  }
}
