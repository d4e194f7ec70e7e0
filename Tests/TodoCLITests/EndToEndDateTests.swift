import Foundation
import Testing

/// All-day dates, wait/scheduled/until and the filter grammar, through the real binary.
/// The sandbox's clock is Saturday 2026-11-21 09:30 UTC, in TZ=UTC unless a test says otherwise.
@Suite struct EndToEndDateTests {
  // MARK: all-day dates

  @Test func aDayIsDueUntilItEndsWhereTheUserIs() throws {
    let todo = try TodoSandbox()
    let berlin: [String: String?] = ["TZ": "Europe/Berlin"]
    todo.run(["add", "Pay rent", "due:today"], environment: berlin).expectSuccess()
    todo.run(["add", "Call at eight", "due:today 08:00"], environment: berlin).expectSuccess()
    // 08:30 in Berlin: the all-day task is due today, the 08:00 one is overdue.
    let morning: [String: String?] = ["TZ": "Europe/Berlin", "TODO_NOW": "2026-11-21T07:30:00Z"]
    #expect(todo.run(["list", "+OVERDUE"], environment: morning).lines.dropFirst().map { $0.trimmed } == ["2  overdue 30min  Call at eight"])
    #expect(todo.run(["list", "+TODAY", "--sort", "id"], environment: morning).lines.count == 3)
    // 23:59 in Berlin: still not overdue; one minute later it is.
    let lateEvening: [String: String?] = ["TZ": "Europe/Berlin", "TODO_NOW": "2026-11-21T22:59:00Z"]
    #expect(todo.run(["list", "+OVERDUE"], environment: lateEvening).lines.count == 2)
    let nextDay: [String: String?] = ["TZ": "Europe/Berlin", "TODO_NOW": "2026-11-21T23:00:00Z"]
    #expect(todo.run(["list", "+OVERDUE", "--sort", "id"], environment: nextDay).lines.dropFirst().map { $0.trimmed.prefix(1) } == ["1", "2"])
    // The day stays the day in another zone; the instant stays the instant.
    let newYork = try todo.run(["show", "1", "2", "--json"], environment: ["TZ": "America/New_York"]).jsonArray()
    #expect(newYork.map { $0["due"] as? String } == ["2026-11-21", "2026-11-21T07:00:00Z"])
    #expect(todo.run(["show", "1"], environment: ["TZ": "America/New_York"]).stdout.contains("Due        2026-11-21 (today, all day)"))
  }

  @Test func aDayIsAlsoADayAcrossTheSpringAndAutumnChanges() throws {
    let todo = try TodoSandbox()
    let zone: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-03-13T15:00:00Z"]
    // Sunday 2027-03-14 has 23 hours in New York; 2027-11-07 has 25.
    todo.run(["add", "Spring", "due:2027-03-14"], environment: zone).expectSuccess()
    todo.run(["add", "Autumn", "due:2027-11-07"], environment: zone).expectSuccess()
    let springLate: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-03-15T03:59:00Z"]  // 23:59 EDT
    #expect(todo.run(["list", "due:2027-03-14"], environment: springLate).lines.dropFirst().map(\.trimmed) == ["1  today  Spring"])
    #expect(todo.run(["list", "+OVERDUE"], environment: springLate).lines.count == 1)
    let autumnLate: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-11-08T04:59:00Z"]  // 23:59 EST
    #expect(todo.run(["list", "+TODAY"], environment: autumnLate).lines.dropFirst().map(\.trimmed) == ["2  today  Autumn"])
    let autumnAfter: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-11-08T05:00:00Z"]
    #expect(todo.run(["list", "+OVERDUE", "--sort", "id"], environment: autumnAfter).lines.dropFirst().map { $0.trimmed.prefix(1) } == ["1", "2"])
  }

  @Test func aTaskDueAtTheEndOfTheWeekIsFoundByEveryFormThatMeansThisWeek() throws {
    let todo = try TodoSandbox()
    todo.add("Week's end", "due:eow")
    todo.add("Next Monday", "due:monday")
    todo.add("Sunday evening", "due:sun 23:30")
    #expect(try todo.task(1)["due"] as? String == "2026-11-22")
    for filter in [["due:eow"], ["due.by:eow"], ["+WEEK"], ["due.before:monday"], ["due.after:today", "due.before:next week"]] {
      #expect(todo.ids(filter).contains(1), "\(filter)")
    }
    #expect(todo.ids("due:eow") == [1, 3])
    #expect(todo.ids("due.by:eow") == [1, 3])
    #expect(todo.ids("due.after:eow") == [2])
    #expect(todo.ids("due:sun 23:30") == [3])  // an instant is that instant
    #expect(todo.ids("due.by:sun 23:30") == [1, 3])  // the day has started by then
    #expect(todo.ids("due.before:sun 23:30") == [])  // …but not ended
    #expect(todo.ids("due.none:") == [])
    #expect(todo.ids("due.any:") == [1, 3, 2])
    // The end-of forms keep their last day in `before`; the start-of forms their first in `after`.
    #expect(todo.ids("due.before:eow") == [1, 3])
    #expect(todo.ids("due.before:eod") == [])
    #expect(todo.ids("created.after:sod") == [1, 3, 2])  // created today, from its start on
    #expect(todo.ids("created.after:today") == [])
    #expect(todo.ids("due.after:sow") == [1, 3, 2])
  }

  @Test func datesWrittenWithoutQuotesKeepTheirWords() throws {
    let todo = try TodoSandbox()
    let run = todo("add", "Call", "mum", "due:tomorrow", "17:00", "+family")
    #expect(run.stdout == "Added task 1: Call mum  +family due:2026-11-22 17:00 UTC\n", "\(run)")
    #expect(todo("add", "Party", "due:friday", "at", "8pm").stdout == "Added task 2: Party  due:2026-11-27 20:00 UTC\n")
    #expect(todo("add", "Gifts", "wait:dec", "20", "due:dec", "24").stdout == "Added task 3: Gifts  due:2026-12-24 wait:2026-12-20\n")
    // A word that does not continue the date stays title text…
    #expect(todo("add", "Read", "due:fri", "chapters", "3").stdout == "Added task 4: Read chapters 3  due:2026-11-27\n")
    // …and so does one that would move it into the past.
    #expect(todo("add", "Essay", "due:may", "5", "2000", "words").stdout == "Added task 5: Essay 2000 words  due:2027-05-05\n")
    #expect(todo.ids("due.by:tomorrow", "17:00") == [1])
  }

  // MARK: wait, scheduled, until

  @Test func waitHidesATaskUntilThenAndWaitingListsIt() throws {
    let todo = try TodoSandbox()
    todo.add("Visible", "+x")
    todo.add("Renew passport", "wait:fri", "due:dec", "24", "+x")
    #expect(todo.ids() == [1])
    #expect(todo.ids("+x") == [1])
    #expect(todo.ids("+WAITING") == [2])
    #expect(todo.ids("-WAITING") == [1])
    // With its wait date (how long it stays hidden), first to show first.
    #expect(
      todo("waiting").lines.map(\.trimmed) == [
        "ID  Wait        Remaining  Due    Tags  Title", "2  2026-11-27  fri        in 4w  x     Renew passport",
      ])
    #expect(todo.ids("wait.any:") == [2])
    #expect(todo.ids("2") == [2])  // named by id: shown
    let task = try todo.task(2)
    #expect(task["wait"] as? String == "2026-11-27")
    // A change selects waiting tasks like any other: it never skips one it names.
    #expect(todo("update", "--where", "+x", "pri:L", "--yes").lines.count == 3)  // two tasks and the summary
    #expect(todo("done", "1").status == 0)
    // From Friday on, it is back.
    #expect(todo.run(["list"], environment: ["TODO_NOW": "2026-11-27T00:00:00Z"]).lines.dropFirst().map { $0.trimmed.prefix(1) } == ["2"])
    // Relative to the due date: each task counts from its own.
    #expect(todo("update", "2", "wait:due-3d").stdout == "Updated task 2: Renew passport  +x pri:L due:2026-12-24 wait:2026-12-21\n")
    #expect(todo("update", "2", "wait:due-2h").stdout == "Updated task 2: Renew passport  +x pri:L due:2026-12-24 wait:2026-12-23 22:00 UTC\n")
    #expect(
      todo("update", "2", "wait:").stdout
        == "Updated task 2: Renew passport  +x pri:L due:2026-12-24\nTask 2 'Renew passport' is no longer waiting.\n")
    let noDue = todo("add", "Undated", "wait:due-1d")
    #expect(noDue.status == 2)
    #expect(
      noDue.errorLines.first
        == "todo: error: cannot read the date 'due-1d' for the new task: the task has no due date to count from; give it one (due:fri) or a date")
    #expect(todo.ids("status:all") == [2, 1])  // nothing was added
  }

  @Test func scheduledDecidesReady() throws {
    let todo = try TodoSandbox()
    todo.add("Now", "scheduled:today")
    todo.add("Later", "scheduled:tue")
    todo.add("Any time")
    todo.add("Hidden", "wait:tue")
    #expect(todo.ids("+READY") == [1, 3])
    #expect(todo.ids("+SCHEDULED") == [1, 2])
    #expect(todo.ids("scheduled.after:today") == [2])
    #expect(
      todo.run(["list", "+READY"], environment: ["TODO_NOW": "2026-11-24T00:00:00Z"]).lines.dropFirst().map { $0.trimmed.prefix(1) } == [
        "1", "2", "3", "4",
      ])
    #expect(try todo.task(2)["scheduled"] as? String == "2026-11-24")
  }

  @Test func untilExpiresATaskInTheNextCommandThatWritesAndUndoBringsItBack() throws {
    let todo = try TodoSandbox()
    todo.add("Offer", "until:today")
    todo.add("Coupon", "until:today 12:00")
    todo.add("Other")
    // Reads never write: at 13:00 the coupon is past its until, but still pending.
    let afternoon: [String: String?] = ["TODO_NOW": "2026-11-21T13:00:00Z"]
    #expect(todo.run(["list", "status:all"], environment: afternoon).lines.count == 4)
    // A list of pending tasks leaves it out at once (as Taskwarrior's reports do).
    let pending = try todo.run(["list", "--json"], environment: afternoon).jsonArray().map { $0["id"] as? Int }
    #expect(pending == [1, 3])
    #expect(
      try todo.run(["next", "--json"], environment: afternoon).jsonArray().map { $0["id"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 3])
    #expect(try todo.run(["show", "2", "--json"], environment: afternoon).jsonObject()["status"] as? String == "pending")
    // The next write expires it (the all-day offer lasts until the day ends).
    let write = todo.run(["done", "3"], environment: afternoon)
    #expect(
      write.lines == ["Expired task 2: its until date 2026-11-21 12:00 UTC has passed (Coupon)", "Completed task 3: Other  status:done"], "\(write)")
    let coupon = try todo.task(2)
    #expect(coupon["status"] as? String == "deleted")
    #expect(coupon["reason"] as? String == "expired")
    #expect(todo("show", "2").stdout.contains("Status     deleted (expired)"))
    #expect(todo("journal").lines[1].hasSuffix("completed task 3; expired task 2  done 3"))
    // One undo step: both come back.
    todo.run(["undo"], environment: afternoon).expectSuccess()
    #expect(try todo.task(2)["status"] as? String == "pending")
    #expect(try todo.task(3)["status"] as? String == "pending")
    // The next day the offer goes too; with --json the notice is a warning on stderr.
    let tomorrow = todo.run(["add", "New", "--json"], environment: ["TODO_NOW": "2026-11-22T00:00:01Z"])
    #expect(
      tomorrow.errorLines == [
        #"{"warning":"expired task 1: its until date 2026-11-21 has passed"}"#,
        #"{"warning":"expired task 2: its until date 2026-11-21 12:00 UTC has passed"}"#,
      ])
    #expect(todo.ids("status:deleted") == [1, 2])
    // Reopening clears the reason.
    todo("reopen", "2").expectSuccess()
    #expect(isJSONNull(try todo.task(2)["reason"]))
  }

  @Test func aCommandChangesTheTasksItSelectsEvenPastTheirUntil() throws {
    let todo = try TodoSandbox()
    todo.add("Offer", "until:today")
    todo.add("Deal", "until:today")
    let nextDay: [String: String?] = ["TODO_NOW": "2026-11-22T10:00:00Z"]
    // Extending the until is the command's own change: the task is not expired first.
    let extend = todo.run(["update", "1", "until:next week"], environment: nextDay)
    #expect(extend.lines == ["Expired task 2: its until date 2026-11-21 has passed (Deal)", "Updated task 1: Offer  until:2026-11-23"], "\(extend)")
    // A change that leaves a past until in place says when the task will go.
    todo.add("Coupon", "until:today")
    let touch = todo.run(["update", "3", "+x"], environment: nextDay)
    #expect(touch.status == 0)
    #expect(touch.errorLines == ["todo: warning: task 3's until date 2026-11-21 has passed: the next command that writes deletes it"])
    // Completing it is allowed too.
    #expect(todo.run(["done", "3"], environment: nextDay).lines == ["Completed task 3: Coupon  +x until:2026-11-21 status:done"])
  }

  @Test func virtualTagsCannotBeSet() throws {
    let todo = try TodoSandbox()
    let run = todo("add", "x", "+OVERDUE")
    #expect(run.status == 2)
    #expect(run.errorLines.first == "todo: error: +OVERDUE is a virtual tag: todo works it out from the task, so it cannot be added")
    #expect(todo("add", "x", "+Overdue").status == 0)  // only the capitals are reserved
  }

  // MARK: filters

  @Test func booleanStructure() throws {
    let todo = try TodoSandbox()
    todo.add("Sweep", "+home", "pri:L")
    todo.add("Report", "project:work", "pri:H")
    todo.add("Garden", "project:home.garden")
    todo.add("Gym", "+health", "project:work.fit", "pri:L")
    #expect(todo.ids("(", "+home", "or", "project:work", ")", "not", "pri:L").sorted() == [2])
    #expect(todo.ids("+home", "or", "project:work").sorted() == [1, 2, 4])
    #expect(todo.ids("+home", "or", "project:work", "pri:L").sorted() == [1, 4])  // AND binds tighter than or
    #expect(todo.ids("not", "(", "+home", "or", "+health", ")").sorted() == [2, 3])
    #expect(todo.ids("-project:work").sorted() == [1, 3])
    #expect(todo.ids("project.not:work").sorted() == [1, 3])
    #expect(todo.ids("project:home,work.fit").sorted() == [3, 4])
    #expect(todo.ids("title.has:R").sorted() == [2, 3])  // any case
    #expect(todo.ids("title.not:r").sorted() == [1, 4])
    #expect(todo.ids("+TAGGED", "+PRIORITY").sorted() == [1, 4])
    #expect(todo.ids("-PROJECT").sorted() == [1])
    #expect(todo.ids("pri.none:").sorted() == [3])
    #expect(todo.ids("project:work", "project:work.fit").sorted() == [4])  // two project terms both hold
    #expect(todo.ids("(", "project:work", "or", "project:home", ")", "(", "project:home.garden", "or", "pri:H", ")").sorted() == [2, 3])
    #expect(todo.ids("pri:H", "pri:L") == [])
    #expect(try todo("not", "+home", "--json").jsonArray().count == 3)  // a filter may start with not
    // Done tasks by virtual tag: no status is assumed then.
    todo("done", "1").expectSuccess()
    #expect(todo.ids("+DONE").sorted() == [1])
    #expect(todo.ids("+DONE", "or", "pri:H").sorted() == [1, 2])
    // `or` as a search word needs --.
    todo.add("This or that")
    #expect(try todo("list", "--json", "--", "or").jsonArray().map { $0["id"] as? Int } == [2, 5])  // Rep-or-t, too
  }

  /// Every virtual tag, each against tasks it must and must not select (Saturday 2026-11-21).
  @Test func everyVirtualTagSelectsWhatItSays() throws {
    let todo = try TodoSandbox()
    todo.add("Yesterday", "due:yesterday")  // 1
    todo.add("Today", "due:today", "+t")  // 2
    todo.add("Tomorrow", "due:tomorrow", "project:p")  // 3 (Sunday: still this ISO week)
    todo.add("Monday", "due:monday", "pri:H")  // 4
    todo.add("Next month", "due:2026-12-02", "until:2026-12-31")  // 5
    todo.add("Noted", "--note", "n")  // 6
    todo.add("Gone")  // 7
    todo("delete", "7").expectSuccess()
    let expected: [(String, [Int])] = [
      ("+OVERDUE", [1]), ("+TODAY", [2]), ("+TOMORROW", [3]), ("+WEEK", [1, 2, 3]), ("+MONTH", [1, 2, 3, 4]),
      ("+DUE", [2, 3, 4]), ("+UNTIL", [5]), ("+TAGGED", [2]), ("+NOTED", [6]), ("+PROJECT", [3]), ("+PRIORITY", [4]),
      ("+PENDING", [1, 2, 3, 4, 5, 6]), ("+DELETED", [7]), ("+DONE", []), ("-DUE", [1, 5, 6]), ("+SCHEDULED", []),
    ]
    for (tag, ids) in expected {
      #expect(todo.ids(tag).sorted() == ids, "\(tag)")
    }
  }

  @Test func filterErrorsNameTheWordAndWhere() throws {
    let todo = try TodoSandbox()
    let cases: [([String], String)] = [
      (["list", "(", "+a"], "todo: error: filter: '(' at word 2 is never closed"),
      (["list", "+a", ")"], "todo: error: filter: unmatched ')' at word 3"),
      (["list", "+a", "or"], "todo: error: filter: 'or' at the end has nothing after it"),
      (["list", "or", "+a"], "todo: error: filter: 'or' at word 2 has nothing before it"),
      (["list", "+a", "not"], "todo: error: filter: 'not' at word 3 has nothing after it"),
      (["list", "(", "3", "or", "+a", ")"], "todo: error: filter: task ids cannot be inside 'or' or parentheses; put them first"),
      (["list", "+a", "due.befor:fri"], "todo: error: filter: unknown attribute 'due.befor' at word 3; did you mean 'due.before:'?"),
      (
        ["list", "+a", "due.by:whenever"],
        "todo: error: cannot read the date 'whenever': not a date: expected a date like 2026-12-01, today, friday, +3d, eow (word 3 of the filter)"
      ),
      (["list", "+a", "not", "or", "+b"], "todo: error: filter: 'not' at word 3 has nothing after it"),
      (["list", "project.none:work"], "todo: error: bad value 'work' for project.none: takes no value (word 2)"),
      (["list", "pri.any:H"], "todo: error: bad value 'H' for pri.any: takes no value (word 2)"),
      (["list", "due.none:fri"], "todo: error: bad value 'fri' for due.none: takes no value (word 2)"),
    ]
    for (arguments, message) in cases {
      let run = todo.run(arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(run.errorLines.first == message, "\(arguments)")
    }
  }
}

extension String {
  var trimmed: String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}

extension TodoSandbox {
  fileprivate func ids(_ filter: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
    let run = run(["list"] + filter + ["--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    return ((try? run.jsonArray()) ?? []).map { $0["id"] as? Int ?? -1 }
  }
}

extension TodoRun {
  func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(status == 0, "\(self)", sourceLocation: sourceLocation)
  }
}
