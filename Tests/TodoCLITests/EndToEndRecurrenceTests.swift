import Foundation
import Testing

/// Recurrence through the real binary. The sandbox's clock is Saturday 2026-11-21 09:30 UTC.
@Suite struct EndToEndRecurrenceTests {
  /// `due` of each task `list FILTER --json` prints, in id order.
  private func dues(_ todo: TodoSandbox, _ filter: String...) throws -> [String] {
    try todo.run(["list"] + filter + ["--sort", "id", "--json"]).jsonArray().map { $0["due"] as? String ?? "-" }
  }

  @Test func completingAnInstanceMakesTheNextOneOnTheSchedule() throws {
    let todo = try TodoSandbox()
    let add = todo("add", "Pay rent", "due:2026-12-31", "recur:monthly", "+home", "pri:H", "project:flat", "--json")
    add.expectSuccess()
    let first = try add.jsonObject()
    let recur = try #require(first["recur"] as? [String: Any])
    #expect(recur["rule"] as? String == "monthly")
    #expect(recur["mode"] as? String == "schedule")
    #expect(recur["instance"] as? Int == 1)
    let series = try #require(recur["series"] as? String)
    let done = todo("done", "1")
    done.expectSuccess()
    #expect(done.lines[1].hasPrefix("Created task 2, the next in its series: Pay rent  +home project:flat pri:H due:2027-01-31"), "\(done)")
    #expect(done.lines.last == "Project flat is 50% complete (1 of 2 tasks remaining).")
    let second = try todo.task(2)
    #expect(second["due"] as? String == "2027-01-31")
    #expect((second["recur"] as? [String: Any])?["instance"] as? Int == 2)
    #expect((second["recur"] as? [String: Any])?["series"] as? String == series)
    #expect(jsonStrings(second["tags"]) == ["home"])
    #expect(second["priority"] as? String == "H")
    // Month ends clamp without drifting: Jan 31 → Feb 28 → Mar 31 → Apr 30.
    for id in 2...4 { todo("done", String(id)).expectSuccess() }
    #expect(try dues(todo, "status:all") == ["2026-12-31", "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"])
    // Exactly one pending instance, the newest; +RECURRING selects the series' tasks.
    #expect(todo.ids() == [5])
    #expect(todo.ids("+RECURRING", "status:all").count == 5)
  }

  @Test func instanceUUIDsAreDerivedFromTheSeries() throws {
    let todo = try TodoSandbox()
    todo("add", "Water plants", "due:today", "recur:2d").expectSuccess()
    todo("done", "1").expectSuccess()
    let first = try todo.task(1)
    let second = try todo.task(2)
    let series = try #require((first["recur"] as? [String: Any])?["series"] as? String)
    let expected = todo.shell(
      "python3 -c 'import uuid,sys; print(uuid.uuid5(uuid.UUID(sys.argv[1]), \"1\"), uuid.uuid5(uuid.UUID(sys.argv[1]), \"2\"))' \(series)")
    #expect(expected.stdout == "\(first["uuid"] as? String ?? "") \(second["uuid"] as? String ?? "")\n", "\(expected)")
    #expect(second["due"] as? String == "2026-11-23")
  }

  @Test func afterCompletionCountsFromTheDayItWasDone() throws {
    let todo = try TodoSandbox()
    todo("add", "Water the plants", "due:2026-11-15", "recur:+1w", "wait:due-1d").expectSuccess()
    // Done on Saturday 2026-11-21 (six days late): next due a week after that, wait a day before.
    todo("done", "1").expectSuccess()
    let next = try todo.task(2)
    #expect(next["due"] as? String == "2026-11-28")
    #expect(next["wait"] as? String == "2026-11-27")
    #expect((next["recur"] as? [String: Any])?["mode"] as? String == "completion")
  }

  @Test func missedInstancesAreSkippedNotBackfilled() throws {
    let todo = try TodoSandbox()
    todo("add", "Stand-up notes", "due:2026-11-02", "recur:weekdays").expectSuccess()
    todo("done", "1").expectSuccess()
    // Nineteen weekdays were missed; the next instance is the first weekday not past: Monday.
    #expect(try dues(todo, "status:all") == ["2026-11-02", "2026-11-23"])
  }

  @Test func timedInstancesKeepTheirLocalTimeAcrossDaylightSaving() throws {
    let todo = try TodoSandbox()
    let zone: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-03-12T12:00:00Z"]
    todo.run(["add", "Standup", "due:2027-03-13 09:00", "recur:daily"], environment: zone).expectSuccess()
    let doneAt: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-03-13T15:00:00Z"]
    todo.run(["done", "1"], environment: doneAt).expectSuccess()
    let doneLater: [String: String?] = ["TZ": "America/New_York", "TODO_NOW": "2027-03-14T14:00:00Z"]
    todo.run(["done", "2"], environment: doneLater).expectSuccess()
    // 09:00 EST (14:00Z), then 09:00 EDT (13:00Z) twice: the clocks went forward on the 14th.
    #expect(try dues(todo, "status:all") == ["2027-03-13T14:00:00Z", "2027-03-14T13:00:00Z", "2027-03-15T13:00:00Z"])
  }

  @Test func untilEndsTheSeries() throws {
    let todo = try TodoSandbox()
    todo("add", "Advent candle", "due:2026-12-20", "recur:weekly", "until:2026-12-31").expectSuccess()
    todo("done", "1").expectSuccess()
    let last = todo("done", "2")
    last.expectSuccess()
    #expect(!last.stdout.contains("Created"), "\(last)")
    #expect(try dues(todo, "status:all") == ["2026-12-20", "2026-12-27"])
    let ended = try todo.task(2)
    #expect(!isJSONNull((ended["recur"] as? [String: Any])?["ended"]))
    #expect(todo.ids("+RECURRING", "status:all") == [])
  }

  @Test func undoOfADoneRemovesTheInstanceItCreated() throws {
    let todo = try TodoSandbox()
    todo("add", "Backups", "due:today", "recur:weekly").expectSuccess()
    let before = todo.snapshot()
    todo("add", "Other").expectSuccess()
    todo("done", "1").expectSuccess()
    let first2UUID = try todo.task(3)["uuid"] as? String
    let undo = todo("undo")
    undo.expectSuccess()
    #expect(
      undo.lines == [
        "Undid: done 1  (completed task 1; created task 3)", "Restored task 1: Backups  due:2026-11-21 recur:weekly",
        "Removed task 3",
      ])
    todo("delete", "2").expectSuccess()
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    #expect(todo.snapshot() == before)
    // Done again after the undo: the same instance, the same UUID.
    let redone = try todo("done", "1", "--json").jsonArray()
    #expect(redone.map { $0["id"] as? Int } == [1, 4])
    #expect(redone.last?["uuid"] as? String == first2UUID)
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'SELECT count(*) FROM todo WHERE status = \"pending\"'").stdout == "1\n")
  }

  @Test func twoProcessesCompletingOneInstanceMakeOneNextInstance() throws {
    let todo = try TodoSandbox()
    todo("add", "Feed the cat", "due:today", "recur:daily").expectSuccess()
    for round in 1...5 {
      let current = try #require(todo.ids("+RECURRING").first)
      let runs = (0..<4).map { _ in todo.launch(TodoSandbox.binary!, ["done", String(current)]) }.map { $0.wait() }
      for run in runs { #expect(run.status == 0, "\(run)") }
      #expect(runs.filter { $0.stdout.contains("Created task") }.count == 1, "round \(round): \(runs)")
      #expect(todo.ids("+RECURRING").count == 1, "round \(round)")
    }
    let all = try todo.run(["list", "status:all", "--json"]).jsonArray()
    #expect(all.count == 6)
    #expect(Set(all.compactMap { $0["uuid"] as? String }).count == 6)
  }

  @Test func updateChangesOneInstanceAndSeriesChangesTheRest() throws {
    let todo = try TodoSandbox()
    todo("add", "Review", "due:2026-11-23", "recur:weekly", "+work").expectSuccess()
    todo("update", "1", "pri:H").expectSuccess()
    todo("done", "1").expectSuccess()
    #expect(isJSONNull(try todo.task(2)["priority"]), "update changes only the instance")
    todo("update", "2", "--series", "pri:L", "+team", "--title", "Weekly review").expectSuccess()
    #expect(try todo.task(2)["priority"] as? String == "L")
    todo("done", "2").expectSuccess()
    let third = try todo.task(3)
    #expect(third["priority"] as? String == "L")
    #expect(third["title"] as? String == "Weekly review")
    #expect(jsonStrings(third["tags"]) == ["team", "work"])
    #expect(third["due"] as? String == "2026-12-07")
    // The rule itself: recur: on an instance changes the series.
    todo("update", "3", "recur:2w").expectSuccess()
    todo("done", "3").expectSuccess()
    #expect(try todo.task(4)["due"] as? String == "2026-12-21")
    // --series on a task that does not recur is refused.
    let plain = todo.add("Plain")
    let refused = todo("update", String(plain), "--series", "pri:H")
    #expect(refused.status == 1)
    #expect(refused.errorLines.first == "todo: error: task 5 is not recurring: --series changes the series of a recurring task")
  }

  @Test func deleteSeriesEndsItAndRecurClearStopsIt() throws {
    let todo = try TodoSandbox()
    todo("add", "Gym", "due:today", "recur:daily").expectSuccess()
    todo("done", "1").expectSuccess()
    // Deleting an instance moves the series on; --series ends it.
    todo("delete", "2").expectSuccess()
    #expect(todo.ids("+RECURRING") == [3])
    todo("delete", "3", "--series").expectSuccess()
    #expect(todo.ids() == [])
    #expect(todo.ids("+RECURRING", "status:all") == [])
    todo("add", "Read", "due:today", "recur:daily").expectSuccess()
    todo("update", "4", "recur:").expectSuccess()
    todo("done", "4").expectSuccess()
    #expect(todo.ids() == [])
  }

  @Test func recurNeedsADateAndAValidRule() throws {
    let todo = try TodoSandbox()
    let noDate = todo("add", "Someday", "recur:weekly")
    #expect(noDate.status == 2)
    #expect(
      noDate.errorLines.first == "todo: error: recur: needs a due or scheduled date to count from; give the new task one (due:fri recur:weekly)")
    let bad = todo("add", "Bad", "due:today", "recur:fortnight")
    #expect(bad.status == 2)
    #expect(bad.errorLines.first?.hasPrefix("todo: error: bad value 'fortnight' for recur:") == true, "\(bad)")
    #expect(todo.ids("status:all") == [])
    // A series from an existing task keeps its UUID; scheduled works as the anchor too.
    let plain = todo.add("Stretch", "scheduled:2026-11-22")
    let uuid = try todo.task(plain)["uuid"] as? String
    todo("update", String(plain), "recur:daily").expectSuccess()
    #expect(try todo.task(plain)["uuid"] as? String == uuid)
    todo("done", String(plain)).expectSuccess()
    #expect(try todo.task(plain + 1)["scheduled"] as? String == "2026-11-23")
  }

  @Test func showAndReopenOfAnEarlierInstance() throws {
    let todo = try TodoSandbox()
    todo("add", "Newsletter", "due:2026-11-26", "recur:weekly").expectSuccess()
    let show = todo("show", "1")
    #expect(show.stdout.contains("  Recur      weekly (every week), instance 1\n"), "\(show)")
    #expect(show.stdout.contains("  Next       2026-12-03, 2026-12-10, 2026-12-17\n"), "\(show)")
    todo("done", "1").expectSuccess()
    let reopen = todo("reopen", "1")
    #expect(reopen.status == 1)
    #expect(reopen.errorLines.first?.contains("a series has one pending instance") == true, "\(reopen)")
    #expect(todo.ids() == [2])
  }

  @Test func seriesDatesAreKeptRelativeToEachInstance() throws {
    let todo = try TodoSandbox()
    todo("add", "Bins out", "due:2026-11-23", "recur:weekly").expectSuccess()
    todo("done", "1").expectSuccess()
    // On this week's instance (due Nov 30): wait from the day before. Every later instance
    // waits from the day before its own due date, not from Nov 29.
    todo("update", "2", "--series", "wait:2026-11-29").expectSuccess()
    #expect(try todo.task(2)["wait"] as? String == "2026-11-29")
    todo("done", "2").expectSuccess()
    let third = try todo.task(3)
    #expect(third["due"] as? String == "2026-12-07")
    #expect(third["wait"] as? String == "2026-12-06")
    // --series names a done instance: the series and its current instance change, once.
    todo("update", "1", "--series", "due:due+1d").expectSuccess()
    #expect(try todo.task(3)["due"] as? String == "2026-12-08")
    #expect(try todo.task(1)["due"] as? String == "2026-11-23")
    todo("done", "3").expectSuccess()
    #expect(try todo.task(4)["due"] as? String == "2026-12-15")
    let noAnchor = todo("update", "4", "--series", "due:")
    #expect(noAnchor.status == 2)
    #expect(
      noAnchor.errorLines.first == "todo: error: a series needs a due or scheduled date to count from; to stop it, use recur: or delete --series")
  }

  @Test func twoInstancesOfOneSeriesAreNeverReopenedTogether() throws {
    let todo = try TodoSandbox()
    todo("add", "Rent", "due:today", "recur:daily").expectSuccess()
    todo("done", "1").expectSuccess()
    todo("delete", "2", "--series").expectSuccess()
    let both = todo("reopen", "1", "2")
    #expect(both.status == 1)
    #expect(both.errorLines.first == "todo: error: tasks 1 and 2 are instances of one series, which has one pending instance: reopen one of them")
    todo("reopen", "2").expectSuccess()
    // delete --series of a done instance leaves it done.
    todo("delete", "1", "--series").expectSuccess()
    #expect(try todo.task(1)["status"] as? String == "done")
    #expect(try todo.task(2)["status"] as? String == "deleted")
  }
}
