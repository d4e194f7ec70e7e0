import Foundation
import Testing

/// Dependencies, subtasks, time tracking, `next`/`why` and the small commands, through the real
/// binary. The sandbox's clock is Saturday 2026-11-21 09:30 UTC.
@Suite struct EndToEndStructureTests {
  // MARK: dependencies

  @Test func dependsAndBlocksAreStoredByUUIDAndShownByID() throws {
    let todo = try TodoSandbox()
    for title in ["Buy paint", "Buy brushes", "Paint the wall", "Hang pictures"] { todo.add(title) }
    todo("update", "3", "depends:1,2").expectSuccess()
    let blocks = todo("update", "3", "blocks:4")
    blocks.expectSuccess()
    #expect(
      blocks.lines == [
        "Updated task 3: Paint the wall  depends:1,2", "Updated task 4: Hang pictures  depends:3",
      ])
    let wall = try todo.task(3)
    #expect(wall["depends_ids"] as? [Int] == [1, 2])
    #expect(jsonStrings(wall["depends"]) == [try todo.task(1)["uuid"] as? String ?? "", try todo.task(2)["uuid"] as? String ?? ""])
    #expect(todo.ids("+BLOCKED", "--sort", "id") == [3, 4])
    #expect(todo.ids("+BLOCKING", "--sort", "id") == [1, 2, 3])
    #expect(todo.ids("+READY", "--sort", "id") == [1, 2])
    todo("update", "3", "depends:-2").expectSuccess()
    #expect(try todo.task(3)["depends_ids"] as? [Int] == [1])
    todo("done", "1").expectSuccess()
    #expect(todo.ids("+READY", "--sort", "id") == [2, 3])
    // Undo brings the dependency back.
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    #expect(try todo.task(3)["depends_ids"] as? [Int] == [1, 2])
    todo("undo").expectSuccess()
    #expect(try todo.task(4)["depends_ids"] as? [Int] == [])
  }

  @Test func cyclesAreRefusedWithTheCycleNamed() throws {
    let todo = try TodoSandbox()
    for title in ["A", "B", "C"] { todo.add(title) }
    todo("update", "1", "depends:2").expectSuccess()
    todo("update", "2", "depends:3").expectSuccess()
    let before = todo.snapshot()
    let cycle = todo("update", "3", "depends:1")
    #expect(cycle.status == 2)
    #expect(cycle.errorLines == ["todo: error: task 3 cannot depend on task 1: that makes a cycle 3 → 1 → 2 → 3"])
    let blocks = todo("update", "1", "blocks:3")
    #expect(blocks.errorLines == ["todo: error: task 1 cannot block task 3: that makes a cycle 3 → 1 → 2 → 3"])
    let selfDependency = todo("update", "2", "depends:2")
    #expect(selfDependency.errorLines == ["todo: error: task 2 cannot depend on itself"])
    let parentCycle = todo("update", "1", "parent:1")
    #expect(parentCycle.errorLines == ["todo: error: task 1 cannot be its own parent"])
    todo("update", "2", "parent:1").expectSuccess()
    let before2 = todo.snapshot()
    let ancestors = todo("update", "1", "parent:2")
    #expect(ancestors.errorLines == ["todo: error: task 2 cannot be the parent of task 1: that makes a cycle 1 → 2 → 1"])
    #expect(todo.snapshot() == before2)
    todo("undo").expectSuccess()
    #expect(todo.snapshot() == before)
    let missing = todo("update", "1", "depends:9")
    #expect(missing.status == 1)
    #expect(missing.errorLines.first == "todo: error: no task 9")
  }

  @Test func completingABlockedTaskWarnsAndAsksOnATerminal() throws {
    let todo = try TodoSandbox()
    todo.add("Get the key")
    todo.add("Open the door", "depends:1")
    let done = todo("done", "2")
    done.expectSuccess()
    #expect(done.errorLines == ["todo: warning: task 2 still waits for task 1 (pending)"])
    todo("undo").expectSuccess()
    // util-linux's script (Debian's essential bsdutils) gives the process a terminal.
    try #require(TodoSandbox.hasTool("script"), "script(1) is needed to give todo a terminal")
    let asked = todo.shell("printf 'n\\n' | script -qec \"$TODO done 2\" /dev/null")
    #expect(asked.stdout.contains("task 2 still waits for task 1 (pending)"), "\(asked)")
    #expect(asked.stdout.contains("Complete 1 tasks? [y/N]"), "\(asked)")
    #expect(todo.ids() == [1, 2])
  }

  // MARK: subtasks

  @Test func treeDrawsSubtasksWithProgress() throws {
    let todo = try TodoSandbox()
    todo.add("Plan the trip")
    todo.add("Book flights", "parent:1")
    todo.add("Reserve a hotel", "--parent", "1")
    todo.add("Compare prices", "parent:2")
    todo.add("Unrelated")
    todo("done", "3").expectSuccess()
    let tree = todo("tree", "status:all", "--sort", "id")
    tree.expectSuccess()
    #expect(
      tree.stdout == """
        1 Plan the trip (1/2)
        ├─ 2 Book flights (0/1)
        │  └─ 4 Compare prices
        └─ 3 Reserve a hotel ✓
        5 Unrelated

        """)
    #expect(
      todo("list", "--tree", "--sort", "id").stdout == """
        1 Plan the trip (1/2)
        └─ 2 Book flights (0/1)
           └─ 4 Compare prices
        5 Unrelated

        """)
    let list = todo("list", "--sort", "id")
    #expect(list.lines[1].hasSuffix("Plan the trip (1/2)"), "\(list)")
    let parent = try todo.task(1)
    #expect((parent["progress"] as? [String: Any])?["done"] as? Int == 1)
    #expect((parent["progress"] as? [String: Any])?["total"] as? Int == 2)
    #expect(try todo.task(4)["parent_id"] as? Int == 2)
    #expect(try todo.task(4)["parent"] as? String == (try todo.task(2)["uuid"] as? String))
    #expect(todo.ids("+PARENT", "--sort", "id") == [1, 2])
    #expect(todo.ids("+CHILD", "--sort", "id") == [2, 4])
    #expect(todo("show", "1").stdout.contains("  Subtasks   1 of 2 done\n"))
  }

  @Test func closingAParentWithOpenSubtasksNeedsYesAndIsOneUndoStep() throws {
    let todo = try TodoSandbox()
    todo.add("Move house")
    todo.add("Pack", "parent:1")
    todo.add("Label boxes", "parent:2")
    let before = todo.snapshot()
    let refused = todo("done", "1")
    #expect(refused.status == 1)
    #expect(refused.errorLines.first == "todo: error: task 1 has 2 open subtasks (2, 3); give --yes to close them too, or close them first")
    #expect(todo.snapshot() == before)
    let done = todo("done", "1", "--yes")
    done.expectSuccess()
    #expect(todo.ids("status:done", "--sort", "id") == [1, 2, 3])
    todo("undo").expectSuccess()
    #expect(todo.snapshot() == before)
    todo("delete", "2", "--yes").expectSuccess()
    #expect(todo.ids("--sort", "id") == [1])
    // Closing the subtasks first needs no --yes.
    todo("undo").expectSuccess()
    todo("done", "3").expectSuccess()
    todo("done", "2").expectSuccess()
    todo("done", "1").expectSuccess()
  }

  // MARK: time tracking

  @Test func startStopIntervalsAndTimesheetTotals() throws {
    let todo = try TodoSandbox()
    todo.add("Write report", "project:work")
    todo.add("Review code", "project:work")
    todo.add("Call plumber")
    func at(_ time: String) -> [String: String?] { ["TODO_NOW": time] }
    todo.run(["start", "1"], environment: at("2026-11-20T09:00:00Z")).expectSuccess()
    // With tracking.exclusive, starting another stops the first.
    let switched = todo.run(["-c", "tracking.exclusive=yes", "start", "2"], environment: at("2026-11-20T10:30:00Z"))
    switched.expectSuccess()
    #expect(
      switched.lines == [
        "Started task 2: Review code  project:work active", "Stopped task 1: Write report  project:work",
      ])
    #expect(todo.ids("+ACTIVE") == [2])
    todo.run(["stop"], environment: at("2026-11-20T11:00:00Z")).expectSuccess()
    // Across midnight: split between the days.
    todo.run(["start", "3"], environment: at("2026-11-20T23:00:00Z")).expectSuccess()
    todo.run(["done", "3"], environment: at("2026-11-21T00:15:00Z")).expectSuccess()
    #expect(todo.ids("+ACTIVE") == [])
    let task3 = try todo.task(3)
    #expect(task3["active"] as? Bool == false)
    #expect((task3["intervals"] as? [[String: Any]])?.first?["end"] as? String == "2026-11-21T00:15:00Z")
    let byTask = try todo("timesheet", "--json").jsonObject()
    #expect((byTask["rows"] as? [[String: Any]])?.map { $0["seconds"] as? Int } == [5400, 1800, 4500])
    #expect(byTask["total_seconds"] as? Int == 11700)
    let byDay = try todo("timesheet", "--by", "day", "--json").jsonObject()
    #expect((byDay["rows"] as? [[String: Any]])?.map { $0["key"] as? String } == ["2026-11-20", "2026-11-21"])
    #expect((byDay["rows"] as? [[String: Any]])?.map { $0["seconds"] as? Int } == [10800, 900])
    let byProject = try todo("timesheet", "--by", "project", "--since", "2026-11-20", "--until", "2026-11-20", "--json").jsonObject()
    #expect((byProject["rows"] as? [[String: Any]])?.map { $0["key"] as? String } == ["", "work"])
    #expect((byProject["rows"] as? [[String: Any]])?.map { $0["seconds"] as? Int } == [3600, 7200])
    let human = todo("timesheet", "project:work")
    #expect(
      human.lines.map { $0.split(separator: " ").joined(separator: " ") } == [
        "Task Title Time", "1 Write report 1h 30m", "2 Review code 30m", "Total 2h 00m",
      ], "\(human)")
    #expect(todo("show", "1").stdout.contains("Time  1h 30m\n"))
    // Undo of a start brings back the stopped interval as it was.
    todo.run(["start", "1"], environment: at("2026-11-21T09:00:00Z")).expectSuccess()
    todo("undo").expectSuccess()
    #expect(todo.ids("+ACTIVE") == [])
    #expect((try todo.task(1)["intervals"] as? [Any])?.count == 1)
    let notActive = todo("stop")
    #expect(notActive.status == 1)
    #expect(notActive.errorLines.first == "todo: error: no task is active: start one with todo start ID")
    let closed = todo("start", "3")
    #expect(closed.errorLines.first == "todo: error: task 3 is done: reopen it before starting it")
  }

  /// Several tasks may be active, as in Taskwarrior: start keeps the others running, stop with no
  /// id stops them all (one undo step), and the timesheet counts each task's own time.
  @Test func severalTasksMayBeActiveAtOnce() throws {
    let todo = try TodoSandbox()
    todo.add("Write report")
    todo.add("Listen to the call")
    func at(_ time: String) -> [String: String?] { ["TODO_NOW": time] }
    todo.run(["start", "1"], environment: at("2026-11-20T09:00:00Z")).expectSuccess()
    let second = todo.run(["start", "2"], environment: at("2026-11-20T09:30:00Z"))
    #expect(second.lines == ["Started task 2: Listen to the call  active"], "\(second)")
    #expect(todo.ids("+ACTIVE") == [1, 2])
    let stopped = todo.run(["stop"], environment: at("2026-11-20T10:00:00Z"))
    #expect(
      stopped.lines == [
        "Stopped task 1: Write report", "Stopped task 2: Listen to the call", "Stopped 2 tasks; 'todo undo' reverts them together.",
      ], "\(stopped)")
    #expect(todo.ids("+ACTIVE") == [])
    let sheet = try todo("timesheet", "--json").jsonObject()
    #expect((sheet["rows"] as? [[String: Any]])?.map { $0["seconds"] as? Int } == [3600, 1800], "\(sheet)")
    todo("undo").expectSuccess()
    #expect(todo.ids("+ACTIVE") == [1, 2])
    // stop ID stops that one only.
    todo.run(["stop", "2"], environment: at("2026-11-20T10:05:00Z")).expectSuccess()
    #expect(todo.ids("+ACTIVE") == [1])
  }

  // MARK: next and why

  @Test func nextRanksByUrgencyAndWhyExplainsIt() throws {
    let todo = try TodoSandbox()
    todo.add("Low chore", "pri:L")  // 1.8
    todo.add("Due in a week", "due:2026-11-28")  // due in 6.6d → (−6.6+14)×0.8/21+0.2 = 0.482… × 12
    todo.add("Tagged next", "+next")  // 15 + 0.8
    todo.add("Blocked", "pri:H", "depends:1")  // not listed
    todo.add("Waiting", "pri:H", "wait:2026-12-01")  // not listed
    let next = try todo("next", "--json").jsonArray()
    // Task 1 blocks task 4: 8 + 1.8 puts it above the task due in a week.
    #expect(next.map { $0["id"] as? Int } == [3, 1, 2])
    let urgencies = next.compactMap { $0["urgency"] as? Double }
    #expect(abs(urgencies[0] - 15.8) < 0.001)
    #expect(abs(urgencies[1] - 9.8) < 0.001)
    // 2026-11-28 starts 6 d 14.5 h after now: (14 − 6.604…) × 0.8 / 21 + 0.2 = 0.4817…; × 12 = 5.781
    #expect(abs(urgencies[2] - 5.781) < 0.001)
    let why = todo("why", "1")
    why.expectSuccess()
    #expect(
      why.lines.map { $0.split(separator: " ").joined(separator: " ") } == [
        "Task 1: Low chore", "Term Because Factor Coefficient Adds", "blocking 1 task waits for it 1 × 8 = +8",
        "priority pri:L 1 × 1.8 = +1.8", "urgency = 9.8",
        "Urgency is the sum of each term's factor (0 to 1) times its coefficient; see 'man todo', URGENCY.",
      ], "\(why)")
    let whyJSON = try todo("why", "1", "--json").jsonObject()
    #expect((whyJSON["terms"] as? [[String: Any]])?.map { $0["name"] as? String } == ["blocking", "priority"])
    // `why` gives the number `next` gives (three decimals), and its terms to the same precision.
    let dueSoon = try todo("why", "2", "--json").jsonObject()
    #expect(dueSoon["urgency"] as? Double == urgencies[2], "\(dueSoon)")
    let contribution = (dueSoon["terms"] as? [[String: Any]])?.first?["contribution"] as? Double
    #expect(contribution == urgencies[2], "\(dueSoon)")
  }

  // MARK: small commands

  @Test func appendPrependDuplicateAndLog() throws {
    let todo = try TodoSandbox()
    todo.add("Call mum", "+family", "due:2026-11-25", "--note", "about christmas")
    todo("append", "1", "about", "the", "trip").expectSuccess()
    todo("prepend", "1", "Sunday:").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Sunday: Call mum about the trip")
    let copy = todo("duplicate", "1", "due:2026-12-02", "--json")
    copy.expectSuccess()
    let duplicated = try copy.jsonObject()
    #expect(duplicated["id"] as? Int == 2)
    #expect(duplicated["title"] as? String == "Sunday: Call mum about the trip")
    #expect(jsonStrings(duplicated["tags"]) == ["family"])
    #expect(duplicated["due"] as? String == "2026-12-02")
    #expect((duplicated["notes"] as? [Any])?.isEmpty == true)
    #expect(duplicated["uuid"] as? String != (try todo.task(1)["uuid"] as? String))
    let log = todo("log", "Took out the bins", "+home")
    #expect(log.stdout == "Logged task 3: Took out the bins  +home status:done\n", "\(log)")
    let logged = try todo.task(3)
    #expect(logged["status"] as? String == "done")
    #expect(logged["completed"] as? String == TodoSandbox.now)
    // Each is one undo step.
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Call mum about the trip")
    let empty = todo("append", "1")
    #expect(empty.status == 2)
    #expect(empty.errorLines.first == "todo: error: 'append' needs the words to add to the title")
  }

  @Test func notesCanBeEditedAndRemoved() throws {
    let todo = try TodoSandbox()
    todo.add("Pay rent", "--note", "first", "--note", "second")
    todo("note", "1", "--edit", "2", "second, edited").expectSuccess()
    #expect(try (todo.task(1)["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["first", "second, edited"])
    todo("note", "1", "--remove", "1").expectSuccess()
    #expect(try (todo.task(1)["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["second, edited"])
    let missing = todo("note", "1", "--remove", "5")
    #expect(missing.status == 2)
    #expect(missing.errorLines.first == "todo: error: task 1 has 1 note (1 to 1); there is no note 5")
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    #expect(try (todo.task(1)["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["first", "second"])
  }

  @Test func purgeRemovesDeletedTasksForGoodAndOnlyThem() throws {
    let todo = try TodoSandbox()
    todo.add("Keep")
    todo.add("Gone", "+old")
    todo.add("Also gone")
    todo("delete", "2", "3").expectSuccess()
    let unconfirmed = todo("purge")
    #expect(unconfirmed.status == 2)
    #expect(unconfirmed.errorLines.first == "todo: error: purge removes tasks for good and cannot be undone: give --yes to confirm it")
    let alive = todo("purge", "1", "--yes")
    #expect(alive.status == 1)
    #expect(alive.errorLines.first == "todo: error: task 1 is pending, not deleted: purge removes only deleted tasks (delete it first)")
    let purge = todo("purge", "+old", "--yes")
    purge.expectSuccess()
    #expect(purge.lines == ["Purged task 2: Gone", "Purged 1 task; this cannot be undone."])
    #expect(todo.ids("status:all", "--sort", "id") == [1, 3])
    // Every undo step that touched task 2 is gone (the add, and the delete of 2 and 3): undo now
    // reverts the add of task 3.
    #expect(try todo("journal", "--json").jsonArray().map { $0["command"] as? String } == ["add 'Also gone'", "add Keep"])
    let undo = todo("undo")
    undo.expectSuccess()
    #expect(undo.lines == ["Undid: add 'Also gone'  (added task 3)", "Removed task 3"])
  }

  @Test func reviewedEdgesOfTheSmallCommands() throws {
    let todo = try TodoSandbox()
    todo.add("Buy")
    todo.add("Sell")
    // Only the first word names tasks.
    todo("append", "1", "2", "more").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Buy 2 more")
    #expect(try todo.task(2)["title"] as? String == "Sell")
    // A note needs one task.
    #expect(todo("note", "1-2", "--remove", "1").status == 2)
    // A copy can lose its parent and dependencies.
    todo.add("Child", "parent:1", "depends:2")
    let copy = try todo("duplicate", "3", "parent:", "depends:-2", "--json").jsonObject()
    #expect(isJSONNull(copy["parent_id"]))
    #expect(copy["depends_ids"] as? [Int] == [])
    #expect(copy["title"] as? String == "Child")
  }

  @Test func expiryStopsTheClockAndPurgeDropsWholeUndoSteps() throws {
    let todo = try TodoSandbox()
    todo.add("Offer", "until:2026-11-21T10:00")
    todo("start", "1").expectSuccess()
    todo.run(["add", "Later"], environment: ["TODO_NOW": "2026-11-21T11:00:00Z"]).expectSuccess()
    let offer = try todo.task(1)
    #expect(offer["status"] as? String == "deleted")
    #expect(offer["active"] as? Bool == false)
    #expect((offer["intervals"] as? [[String: Any]])?.first?["end"] as? String == "2026-11-21T11:00:00Z")
    // The add that expired task 1 also added task 2: purging 1 drops that whole step (and the
    // others that touched task 1), leaving task 2 as it is.
    todo("purge", "1", "--yes").expectSuccess()
    #expect(todo("journal", "--json").jsonArrayCount == 0)
    #expect(todo("undo").errorLines.first == "todo: error: nothing to undo")
    #expect(todo.ids("status:all") == [2])
  }
}
