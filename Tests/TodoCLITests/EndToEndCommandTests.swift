import Foundation
import Testing

@testable import TodoCLI

/// Every command, in human and JSON form, run through the built binary. "Now" is Saturday
/// 2026-11-21 09:30 UTC (TODO_NOW), so relative dates and times are exact.
@Suite struct EndToEndCommandTests {
  /// Eight tasks covering every field: six pending, one done (7), one deleted (8).
  ///
  ///   1 Buy milk        +errand +home            due 2026-11-22 (tomorrow)
  ///   2 Pay rent        project:home  pri:H      due 2026-11-30 23:59:59 (eom)
  ///   3 Ship release    project:work.q4 pri:H    due 2026-11-27 (friday), note "Check the CHANGELOG first"
  ///   4 Write report    project:work  pri:L +office
  ///   5 Call the bank   +errand pri:M            due 2026-11-20 (overdue)
  ///   6 Fix bike        project:homework         (not inside project home)
  ///   7 Old task        done
  ///   8 Deleted task    deleted
  private func fixture() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    #expect(todo.add("Buy", "milk", "+home", "+errand", "due:tomorrow") == 1)
    #expect(todo.add("Pay", "rent", "project:home", "pri:H", "due:eom") == 2)
    #expect(todo.add("Ship", "release", "project:work.q4", "pri:H", "due:friday", "--note", "Check the CHANGELOG first") == 3)
    #expect(todo.add("Write", "report", "project:work", "pri:L", "+office") == 4)
    #expect(todo.add("Call", "the", "bank", "+errand", "pri:M", "due:2026-11-20") == 5)
    #expect(todo.add("Fix", "bike", "project:homework") == 6)
    #expect(todo.add("Old", "task") == 7)
    #expect(todo.add("Deleted", "task") == 8)
    #expect(todo("done", "7").status == 0)
    #expect(todo("rm", "8").status == 0)
    return todo
  }

  private let pendingTable = """
    ID  Pri  Due         Project   Tags         Title
     5  M    overdue 1d            errand       Call the bank
     1       tomorrow              errand home  Buy milk
     3  H    fri         work.q4                Ship release
     2  H    in 9d       home                   Pay rent
     4  L                work      office       Write report
     6                   homework               Fix bike

    """

  // MARK: add

  @Test func addPrintsTheNewIdAndWhatWasStored() throws {
    let todo = try TodoSandbox()
    let first = todo("add", "Buy", "milk", "+home", "due:tomorrow")
    #expect(first.status == 0, "\(first)")
    #expect(first.stdout == "Added task 1: Buy milk  +home due:2026-11-22\n")
    #expect(first.stderr == "")
    let second = todo("add", "Pay rent", "project:home", "pri:H", "due:eom")
    #expect(second.stdout == "Added task 2: Pay rent  project:home pri:H due:2026-11-30\n", "\(second)")
    let third = todo("add", "Ship", "it", "--note", "first note")
    #expect(third.stdout == "Added task 3: Ship it  notes:1\n", "\(third)")
  }

  @Test func addJSONIsTheTaskWithExactlyTheDocumentedKeysAndTypes() throws {
    let todo = try TodoSandbox()
    let run = todo(
      "add", "Ship", "release", "project:work.q4", "pri:H", "due:friday", "+ops", "--note", "first note", "--json")
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr == "")
    let task = try run.jsonObject()
    #expect(Set(task.keys) == taskKeys)
    #expect(task["id"] as? Int == 1)
    #expect(isUUIDv4(task["uuid"]), "uuid: \(task["uuid"] ?? "missing")")
    #expect(task["title"] as? String == "Ship release")
    #expect(task["status"] as? String == "pending")
    #expect(task["priority"] as? String == "H")
    #expect(task["project"] as? String == "work.q4")
    #expect(jsonStrings(task["tags"]) == ["ops"])
    #expect(task["due"] as? String == "2026-11-27")
    #expect(task["created"] as? String == "2026-11-21T09:30:00Z")
    #expect(task["modified"] as? String == "2026-11-21T09:30:00Z")
    #expect(isJSONNull(task["completed"]))
    #expect(isDay(task["due"]))  // friday: a whole day
    for key in ["created", "modified"] { #expect(isRFC3339UTC(task[key]), "\(key)") }
    for key in ["wait", "scheduled", "until", "reason"] { #expect(isJSONNull(task[key]), "\(key)") }
    let notes = try #require(task["notes"] as? [[String: Any]])
    #expect(notes.count == 1)
    #expect(Set(notes.first?.keys.map { $0 } ?? []) == ["created", "text"])
    #expect(notes.first?["created"] as? String == "2026-11-21T09:30:00Z")
    #expect(notes.first?["text"] as? String == "first note")
  }

  @Test func addWithoutAttributesStoresNullsAndEmptyArrays() throws {
    let todo = try TodoSandbox()
    let task = try todo("add", "Plain", "--json").jsonObject()
    #expect(Set(task.keys) == taskKeys)
    for key in ["priority", "project", "due", "completed"] { #expect(isJSONNull(task[key]), "\(key) should be null") }
    #expect(jsonStrings(task["tags"]) == [])
    #expect((task["notes"] as? [Any])?.isEmpty == true)
    // --jsonl: the same object on one line.
    let line = todo("add", "Second", "--jsonl")
    #expect(line.lines.count == 1, "\(line)")
    #expect(try line.jsonObject()["id"] as? Int == 2)
  }

  @Test func addAcceptsGNUFormAttributes() throws {
    let todo = try TodoSandbox()
    let run = todo(
      "add", "--tag", "home", "--project", "work.site", "--priority", "high", "--due", "2026-12-01T17:00", "--note",
      "a note", "Title", "words", "--json")
    #expect(run.status == 0, "\(run)")
    let task = try run.jsonObject()
    #expect(task["title"] as? String == "Title words")
    #expect(jsonStrings(task["tags"]) == ["home"])
    #expect(task["project"] as? String == "work.site")
    #expect(task["priority"] as? String == "H")
    #expect(task["due"] as? String == "2026-12-01T17:00:00Z")
    #expect((task["notes"] as? [[String: Any]])?.first?["text"] as? String == "a note")
    let medium = try todo("add", "Other", "--priority", "medium", "--tag", "a", "--tag", "b", "--json").jsonObject()
    #expect(medium["priority"] as? String == "M")
    #expect(jsonStrings(medium["tags"]) == ["a", "b"])
  }

  // MARK: list

  @Test func noCommandListAndLsPrintTheSamePendingTable() throws {
    let todo = try fixture()
    for arguments in [[], ["list"], ["ls"]] {
      let run = todo.run(arguments)
      #expect(run.status == 0, "\(run)")
      #expect(run.stdout == pendingTable, "todo \(arguments)\n\(run.stdout)")
      #expect(run.stderr == "")
    }
  }

  @Test func listOfEveryStatusAddsAStatusColumn() throws {
    let todo = try fixture()
    let run = todo("list", "status:all")
    #expect(
      run.stdout == """
        ID  Status   Pri  Due         Project   Tags         Title
         5  pending  M    overdue 1d            errand       Call the bank
         1  pending       tomorrow              errand home  Buy milk
         3  pending  H    fri         work.q4                Ship release
         2  pending  H    in 9d       home                   Pay rent
         4  pending  L                work      office       Write report
         6  pending                   homework               Fix bike
         7  done                                             Old task
         8  deleted                                          Deleted task

        """, "\(run)")
  }

  @Test func emptyListsSayWhatToDo() throws {
    let todo = try TodoSandbox()
    #expect(todo("list").stdout == "No pending tasks. Add one with: todo add TITLE\n")
    #expect(todo("list", "+nothing").stdout == "No matching tasks.\n")
    #expect(todo("list", "--json").stdout == "[]\n")
    #expect(todo("list", "--jsonl").stdout == "")
    // Reading an empty HOME creates no database.
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath))
  }

  @Test func listJSONIsAnArrayOfTasksInListOrder() throws {
    let todo = try fixture()
    let run = todo("list", "--json")
    #expect(run.status == 0, "\(run)")
    let tasks = try run.jsonArray()
    #expect(tasks.map { $0["id"] as? Int } == [5, 1, 3, 2, 4, 6])
    for task in tasks { #expect(Set(task.keys) == taskKeys) }
    let ship = try #require(tasks.first { $0["id"] as? Int == 3 })
    #expect((ship["notes"] as? [[String: Any]])?.first?["text"] as? String == "Check the CHANGELOG first")
    #expect(jsonStrings(tasks[1]["tags"]) == ["errand", "home"])
  }

  @Test func listJSONLinesIsOneCompactObjectPerLine() throws {
    let todo = try fixture()
    let run = todo("list", "--jsonl")
    #expect(run.status == 0, "\(run)")
    #expect(run.lines.count == 6)
    var ids: [Int] = []
    for line in run.lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      #expect(Set(object.keys) == taskKeys)
      ids.append(object["id"] as? Int ?? -1)
    }
    #expect(ids == [5, 1, 3, 2, 4, 6])
    // The same tasks as the array form, field for field.
    let array = try todo("list", "--json").jsonArray()
    let objects = try run.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    #expect(sameJSON(array, objects))
  }

  @Test func listFiltersByTagProjectAndPriority() throws {
    let todo = try fixture()
    #expect(todo.ids("+errand") == [5, 1])
    #expect(todo.ids("+errand", "+home") == [1])
    #expect(todo.ids("-errand") == [3, 2, 4, 6])
    #expect(todo.ids("--tag", "office") == [4])
    #expect(todo.ids("project:work") == [3, 4], "work matches work.q4 too")
    #expect(todo.ids("project:work.q4") == [3])
    #expect(todo.ids("project:home") == [2], "home must not match homework")
    #expect(todo.ids("project:home,homework") == [2, 6])
    #expect(todo.ids("project:home", "project:homework") == [], "two project terms must both hold")
    #expect(todo.ids("project:work", "project:work.q4") == [3])
    #expect(todo.ids("project:") == [5, 1])
    #expect(todo.ids("pri:H") == [3, 2])
    #expect(todo.ids("pri:H,M") == [5, 3, 2])
    #expect(todo.ids("pri:") == [1, 6])
    #expect(todo.ids("+errand", "pri:M") == [5])
    #expect(todo("list", "project:home").stdout == "ID  Pri  Due    Project  Title\n 2  H    in 9d  home     Pay rent\n")
  }

  @Test func listFiltersByStatusAndDates() throws {
    let todo = try fixture()
    #expect(todo.ids("status:pending") == [5, 1, 3, 2, 4, 6])
    #expect(todo.ids("status:done") == [7])
    #expect(todo.ids("status:deleted") == [8])
    #expect(todo.ids("status:all") == [5, 1, 3, 2, 4, 6, 7, 8])
    #expect(todo.ids("due.before:2026-11-28") == [5, 1, 3])
    #expect(todo.ids("due.after:2026-11-23") == [3, 2])
    #expect(todo.ids("due.after:2026-11-21", "due.before:friday") == [1])
    #expect(todo.ids("overdue") == [5])
    #expect(todo.ids("overdue", "pri:H") == [])
    let done = try todo("list", "status:done", "--json").jsonArray()
    #expect(done.first?["status"] as? String == "done")
    #expect(done.first?["completed"] as? String == "2026-11-21T09:30:00Z")
  }

  @Test func listSelectsIdsRangesAndListsOfAnyStatus() throws {
    let todo = try fixture()
    #expect(todo.ids("1,4") == [1, 4])
    #expect(todo.ids("2-4") == [3, 2, 4])
    #expect(todo.ids("6-8") == [6, 7, 8], "ids name tasks of any status")
    #expect(todo.ids("7") == [7])
    #expect(todo.ids("1,7-8") == [1, 7, 8])
    #expect(todo.ids("1-8", "status:pending") == [5, 1, 3, 2, 4, 6])
  }

  @Test func listMatchesFreeWordsCaseInsensitivelyInTitlesAndNotes() throws {
    let todo = try fixture()
    #expect(todo.ids("milk") == [1])
    #expect(todo.ids("MILK") == [1])
    #expect(todo.ids("bAnK") == [5])
    #expect(todo.ids("changelog") == [3], "a word in a note matches")
    #expect(todo.ids("task") == [])
    #expect(todo.ids("task", "status:all") == [7, 8])
    #expect(todo.ids("the") == [5, 3], "'Call the bank' and the note 'Check the CHANGELOG first'")
    #expect(todo.ids("the", "bank") == [5], "every word must match")
  }

  @Test func listSortsAndLimits() throws {
    let todo = try fixture()
    #expect(todo.ids("--sort", "id") == [1, 2, 3, 4, 5, 6])
    #expect(todo.ids("--sort", "-id") == [6, 5, 4, 3, 2, 1])
    #expect(todo.ids("--sort", "-id", "--limit", "2") == [6, 5])
    #expect(todo.ids("--sort", "title") == [1, 5, 6, 2, 3, 4])
    #expect(todo.ids("--sort", "-priority,id") == [2, 3, 5, 4, 1, 6])
    #expect(todo.ids("--sort", "project,id") == [2, 6, 4, 3, 1, 5], "no project sorts last")
    #expect(todo.ids("--limit", "3") == [5, 1, 3])
    #expect(todo.ids("status:all", "--sort", "-id", "--limit", "1") == [8])
  }

  @Test func colourOnlyWhenAskedForOrOnATerminal() throws {
    let todo = try fixture()
    let plain = todo("list")
    #expect(!plain.stdoutBytes.contains(0x1B), "stdout is a file: no colour")
    #expect(todo("list", "--color", "never").stdout == plain.stdout)
    #expect(todo("--no-color", "list").stdout == plain.stdout)
    let coloured = todo("list", "--color", "always")
    #expect(coloured.status == 0)
    #expect(coloured.stdout.contains("\u{1B}["), "--color always colours")
    let stripped = coloured.stdout.replacing(#/\x1B\[[0-9;]*m/#, with: "")
    #expect(stripped == plain.stdout, "colour changes no text or alignment")
    #expect(!todo("list", "--json", "--color", "always").stdoutBytes.contains(0x1B), "JSON is never coloured")
  }

  // MARK: show

  @Test func showPrintsEveryFieldAndTheNotes() throws {
    let todo = try fixture()
    let task = try todo.task(3)
    let uuid = try #require(task["uuid"] as? String)
    let run = todo("show", "3")
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stdout == """
        Task 3: Ship release
          Status     pending
          Priority   H
          Project    work.q4
          Tags       -
          Due        2026-11-27 (fri, all day)
          Wait       -
          Scheduled  -
          Until      -
          Created    2026-11-21 09:30 UTC (now)
          Modified   2026-11-21 09:30 UTC (now)
          Completed  -
          UUID       \(uuid)
        Notes
          1. 2026-11-21 09:30 UTC  Check the CHANGELOG first
        History
          2026-11-21 09:30 UTC  add Ship release project:work.q4 pri:H due:friday --note 'Check the CHANGELOG first'
            made the task

        """, "\(run)")
  }

  @Test func showJSONIsOneTaskWithNotes() throws {
    let todo = try fixture()
    let run = todo("show", "3", "--json")
    #expect(run.status == 0)
    let task = try run.jsonObject()
    #expect(Set(task.keys) == taskKeys)
    #expect(task["id"] as? Int == 3)
    #expect(task["title"] as? String == "Ship release")
    let notes = try #require(task["notes"] as? [[String: Any]])
    #expect(notes.map { $0["text"] as? String } == ["Check the CHANGELOG first"])
    // The same object as in the list.
    let listed = try #require(try todo("list", "--json").jsonArray().first { $0["id"] as? Int == 3 })
    #expect(sameJSON(task, listed))
  }

  @Test func showAcceptsAUUIDPrefix() throws {
    let todo = try fixture()
    let uuid = try #require(try todo.task(4)["uuid"] as? String)
    let prefix = String(uuid.prefix(8))
    let run = todo("show", prefix, "--json")
    #expect(run.status == 0, "\(run)")
    #expect(try run.jsonObject()["id"] as? Int == 4)
    #expect(try todo("show", uuid.uppercased(), "--json").jsonObject()["id"] as? Int == 4, "prefixes ignore case")
    #expect(todo("done", prefix).stdout.hasPrefix("Completed task 4: Write report"))
  }

  @Test func showRendersTimesInTheLocalTimeZone() throws {
    let todo = try TodoSandbox()
    todo.add("Call", "due:2026-12-01T17:00")
    let newYork = todo("show", "1", environment: ["TZ": "America/New_York"])
    #expect(newYork.lines.contains("  Due        2026-12-01 12:00 EST (in 10d)"), "\(newYork)")
    #expect(newYork.lines.contains("  Created    2026-11-21 04:30 EST (now)"), "\(newYork)")
    let utc = todo("show", "1")
    #expect(utc.lines.contains("  Due        2026-12-01 17:00 UTC (in 10d)"), "\(utc)")
    // JSON is always UTC.
    #expect(
      try todo("show", "1", "--json", environment: ["TZ": "America/New_York"]).jsonObject()["due"] as? String
        == "2026-12-01T17:00:00Z")
  }

  // MARK: update

  @Test func updateSetsTitleTagsProjectPriorityAndDue() throws {
    let todo = try fixture()
    let run = todo("update", "1", "Buy", "oat", "milk", "-home", "+shop", "project:errands", "pri:L", "due:monday")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "Updated task 1: Buy oat milk  +errand +shop project:errands pri:L due:2026-11-23\n")
    let task = try todo.task(1)
    #expect(task["title"] as? String == "Buy oat milk")
    #expect(jsonStrings(task["tags"]) == ["errand", "shop"])
    #expect(task["project"] as? String == "errands")
    #expect(task["priority"] as? String == "L")
    #expect(task["due"] as? String == "2026-11-23")
  }

  @Test func updateClearsProjectPriorityAndDue() throws {
    let todo = try fixture()
    let run = todo("update", "2", "project:", "pri:", "due:")
    #expect(run.stdout == "Updated task 2: Pay rent\n", "\(run)")
    let task = try todo.task(2)
    for key in ["project", "priority", "due"] { #expect(isJSONNull(task[key]), "\(key)") }
    #expect(task["title"] as? String == "Pay rent", "attributes alone leave the title")
  }

  @Test func updateChangesOnlyWhatItNames() throws {
    let todo = try fixture()
    let before = try todo.task(3)
    let run = todo("update", "3", "+urgent", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"])
    #expect(run.stdout == "Updated task 3: Ship release  +urgent project:work.q4 pri:H due:2026-11-27 notes:1\n")
    var after = try todo.task(3)
    #expect(after["modified"] as? String == "2026-11-21T10:00:00Z")
    #expect(jsonStrings(after["tags"]) == ["urgent"])
    after["modified"] = before["modified"]
    after["tags"] = before["tags"]
    #expect(sameJSON(before, after), "only tags and modified change")
  }

  @Test func updateTakesTheTitleAsOneArgument() throws {
    let todo = try fixture()
    let run = todo("update", "4", "--title", "Write the report +not-a-tag pri:H")
    #expect(run.status == 0, "\(run)")
    let task = try todo.task(4)
    #expect(task["title"] as? String == "Write the report +not-a-tag pri:H")
    #expect(task["priority"] as? String == "L")
  }

  @Test func updateSeveralIdsAtOnce() throws {
    let todo = try fixture()
    let run = todo("update", "1,4", "+q4")
    #expect(run.status == 0, "\(run)")
    #expect(
      run.lines == [
        "Updated task 1: Buy milk  +errand +home +q4 due:2026-11-22",
        "Updated task 4: Write report  +office +q4 project:work pri:L",
        "Updated 2 tasks; 'todo undo' reverts them together.",
      ])
    #expect(todo.ids("+q4", "--sort", "id") == [1, 4])
    let range = todo("update", "2-3", "pri:M", "--json")
    let tasks = try range.jsonArray()
    #expect(tasks.map { $0["id"] as? Int } == [2, 3])
    #expect(tasks.map { $0["priority"] as? String } == ["M", "M"])
  }

  @Test func updateWhereChangesEveryTaskTheFilterSelects() throws {
    let todo = try fixture()
    let run = todo("update", "--where", "+errand", "pri:H", "due:")
    #expect(run.status == 0, "\(run)")
    #expect(
      run.lines == [
        "Updated task 1: Buy milk  +errand +home pri:H",
        "Updated task 5: Call the bank  +errand pri:H",
        "Updated 2 tasks; 'todo undo' reverts them together.",
      ])
    #expect(todo.ids("pri:H", "--sort", "id") == [1, 2, 3, 5])
    // The filter is a full filter: only pending tasks of project work.
    let json = try todo("update", "--where", "project:work", "+work", "--json").jsonArray()
    #expect(json.map { $0["id"] as? Int } == [3, 4])
    #expect(todo.ids("+work", "--sort", "id") == [3, 4])
  }

  @Test func updateJSONIsAnArrayOfTheChangedTasks() throws {
    let todo = try fixture()
    let run = todo("update", "6", "Fix the bike", "--json")
    let tasks = try run.jsonArray()
    #expect(tasks.count == 1)
    #expect(Set(tasks[0].keys) == taskKeys)
    #expect(tasks[0]["title"] as? String == "Fix the bike")
    #expect(tasks[0]["project"] as? String == "homework")
  }

  /// Updating tasks that already are as asked says they are unchanged, and why, in terms of the
  /// update (not of a status the user never mentioned).
  @Test func updateThatChangesNothingSaysSoWithoutInventingAStatus() throws {
    let todo = try fixture()
    let run = todo("update", "2,3", "pri:H")
    #expect(run.status == 0, "\(run)")
    #expect(run.lines.count == 2, "\(run)")
    for line in run.lines {
      #expect(line.hasPrefix("Unchanged task "), "\(line)")
      #expect(!line.contains("already pending"), "'already pending' answers a question nobody asked: \(line)")
    }
    #expect(try todo("journal", "--json").jsonArray().count == 10, "nothing changed, so no new undo step")
  }

  // MARK: done, reopen, delete

  @Test func doneReopenAndDeleteOneTask() throws {
    let todo = try fixture()
    let done = todo("done", "1", environment: ["TODO_NOW": "2026-11-21T11:00:00Z"])
    #expect(done.stdout == "Completed task 1: Buy milk  +errand +home due:2026-11-22 status:done\n", "\(done)")
    var task = try todo.task(1)
    #expect(task["status"] as? String == "done")
    #expect(task["completed"] as? String == "2026-11-21T11:00:00Z")
    #expect(task["modified"] as? String == "2026-11-21T11:00:00Z")
    #expect(todo("done", "1").stdout == "Unchanged task 1: it is already done (Buy milk)\n")
    let reopen = todo("reopen", "1")
    #expect(reopen.stdout == "Reopened task 1: Buy milk  +errand +home due:2026-11-22\n", "\(reopen)")
    task = try todo.task(1)
    #expect(task["status"] as? String == "pending")
    #expect(isJSONNull(task["completed"]))
    let delete = todo("delete", "1")
    #expect(delete.stdout == "Deleted task 1: Buy milk  +errand +home due:2026-11-22 status:deleted\n")
    #expect(try todo.task(1)["status"] as? String == "deleted")
    #expect(todo.ids("status:deleted") == [1, 8])
    let rm = todo("rm", "2")
    #expect(rm.stdout == "Deleted task 2: Pay rent  project:home pri:H due:2026-11-30 status:deleted\n")
    #expect(todo.ids() == [5, 3, 4, 6])
  }

  @Test func doneARangeIsOneStep() throws {
    let todo = try TodoSandbox()
    for number in 1...8 { todo.add("task", String(number)) }
    let run = todo("done", "3-7")
    #expect(run.status == 0, "\(run)")
    #expect(
      run.lines == (3...7).map { "Completed task \($0): task \($0)  status:done" }
        + ["Completed 5 tasks; 'todo undo' reverts them together."])
    #expect(todo.ids("status:done") == [3, 4, 5, 6, 7])
    #expect(todo.ids() == [1, 2, 8])
    let journal = try todo("journal", "--json").jsonArray()
    #expect(journal.first?["command"] as? String == "done 3-7")
    #expect(journal.first?["summary"] as? String == "completed 5 tasks")
    #expect(journal.first?["task_count"] as? Int == 5)
  }

  @Test func doneDeleteAndReopenAListOfIds() throws {
    let todo = try fixture()
    let done = todo("done", "1,4", "--json")
    #expect(try done.jsonArray().map { $0["id"] as? Int } == [1, 4])
    #expect(try done.jsonArray().map { $0["status"] as? String } == ["done", "done"])
    let delete = todo("rm", "2,3", "--jsonl")
    #expect(delete.lines.count == 2, "\(delete)")
    #expect(todo.ids("status:deleted") == [3, 2, 8])
    let reopen = todo("reopen", "1-4")
    #expect(reopen.lines.last == "Reopened 4 tasks; 'todo undo' reverts them together.", "\(reopen)")
    #expect(todo.ids() == [5, 1, 3, 2, 4, 6])
  }

  @Test func doneAndDeleteByFilter() throws {
    let todo = try fixture()
    let done = todo("done", "+errand")
    #expect(
      done.lines == [
        "Completed task 1: Buy milk  +errand +home due:2026-11-22 status:done",
        "Completed task 5: Call the bank  +errand pri:M due:2026-11-20 status:done",
        "Completed 2 tasks; 'todo undo' reverts them together.",
      ], "\(done)")
    let delete = todo("delete", "project:work")
    #expect(delete.lines.last == "Deleted 2 tasks; 'todo undo' reverts them together.", "\(delete)")
    #expect(todo.ids() == [2, 6])
    #expect(todo.ids("status:done") == [5, 1, 7])
    #expect(todo.ids("status:deleted") == [3, 4, 8])
    let reopen = todo("reopen", "status:deleted", "project:work")
    #expect(reopen.status == 0, "\(reopen)")
    #expect(todo.ids("project:work") == [3, 4])
  }

  // MARK: note

  @Test func noteAddsATimestampedNote() throws {
    let todo = try fixture()
    let run = todo("note", "2", "call", "landlord", "first", environment: ["TODO_NOW": "2026-11-21T12:00:00Z"])
    #expect(run.stdout == "Noted task 2: Pay rent  project:home pri:H due:2026-11-30 notes:1\n", "\(run)")
    let json = todo("note", "2", "second: 'quoted' note", "--json", environment: ["TODO_NOW": "2026-11-21T13:00:00Z"])
    let task = try #require(try json.jsonArray().first)
    let notes = try #require(task["notes"] as? [[String: Any]])
    #expect(notes.map { $0["text"] as? String } == ["call landlord first", "second: 'quoted' note"])
    #expect(notes.map { $0["created"] as? String } == ["2026-11-21T12:00:00Z", "2026-11-21T13:00:00Z"])
    let show = todo("show", "2")
    #expect(
      Array(show.lines.drop { $0 != "Notes" }.prefix(3)) == [
        "Notes", "  1. 2026-11-21 12:00 UTC  call landlord first", "  2. 2026-11-21 13:00 UTC  second: 'quoted' note",
      ], "\(show)")
  }

  // MARK: history, tags, projects, stats

  @Test func historyListsTheJournalNewestFirst() throws {
    let todo = try TodoSandbox()
    #expect(todo("add", "Buy", "milk", "+home").status == 0)
    #expect(todo("done", "1", environment: ["TODO_NOW": "2026-11-21T10:15:00Z"]).status == 0)
    let run = todo("journal")
    #expect(
      run.stdout == """
        #  When                  Summary           Command
        2  2026-11-21 10:15 UTC  completed task 1  done 1
        1  2026-11-21 09:30 UTC  added task 1      add Buy milk +home

        """, "\(run)")
    let json = try todo("journal", "--json").jsonArray()
    #expect(json.count == 2)
    #expect(Set(json[0].keys) == ["id", "created", "command", "summary", "task_count"])
    #expect(json[0]["id"] as? Int == 2)
    #expect(json[0]["created"] as? String == "2026-11-21T10:15:00Z")
    #expect(json[0]["command"] as? String == "done 1")
    #expect(json[0]["summary"] as? String == "completed task 1")
    #expect(json[0]["task_count"] as? Int == 1)
    #expect(try todo("journal", "--limit", "1", "--json").jsonArray().map { $0["id"] as? Int } == [2])
    #expect(try TodoSandbox()("journal").stdout == "The journal is empty.\n")
  }

  @Test func tagsAndProjectsCountPendingAndAllTasks() throws {
    let todo = try fixture()
    #expect(todo("done", "5").status == 0)
    #expect(
      todo("tags").stdout == """
        Tag      Pending  All
        +errand        1    2
        +home          1    1
        +office        1    1

        """)
    #expect(
      todo("projects").stdout == """
        Project   Pending  All
        home            1    1
        homework        1    1
        work            2    2
        work.q4         1    1

        """)
    let tags = try todo("tags", "--json").jsonArray()
    #expect(
      canonicalJSON(tags)
        == #"[{"pending":1,"tag":"errand","total":2},{"pending":1,"tag":"home","total":1},"#
        + #"{"pending":1,"tag":"office","total":1}]"#)
    let projects = try todo("projects", "--json").jsonArray()
    #expect(projects.map { $0["project"] as? String } == ["home", "homework", "work", "work.q4"])
    #expect(projects.map { $0["total"] as? Int } == [1, 1, 2, 1])
    let empty = try TodoSandbox()
    #expect(empty("tags").stdout == "No tags yet.\n")
    #expect(empty("projects").stdout == "No projects yet.\n")
  }

  @Test func statsSummarisesTheDatabase() throws {
    let todo = try fixture()
    let run = todo("stats")
    #expect(
      run.stdout == """
        Pending         6
        Done            1
        Deleted         1
        Overdue         1
        Due in 7 days   2
        Done in 7 days  1
        Tags            3
        Projects        4
        Undo steps      10
        Oldest pending  2026-11-21 09:30 UTC

        """, "\(run)")
    let json = try todo("stats", "--json").jsonObject()
    #expect(
      canonicalJSON(json)
        == #"{"completed_last_7_days":1,"deleted":1,"done":1,"due_next_7_days":2,"journal_entries":10,"#
        + #""oldest_pending":"2026-11-21T09:30:00Z","overdue":1,"pending":6,"projects":4,"tags":3}"#)
  }

  /// `stats` counts the same tags and projects that `todo tags` and `todo projects` list.
  @Test func statsCountsAgreeWithTagsAndProjects() throws {
    let todo = try TodoSandbox()
    todo.add("Keep", "+home", "project:home")
    todo.add("Gone", "+gone", "project:gone")
    #expect(todo("rm", "2").status == 0)
    let tags = try todo("tags", "--json").jsonArray()
    let projects = try todo("projects", "--json").jsonArray()
    #expect(tags.map { $0["tag"] as? String } == ["home"])
    #expect(projects.map { $0["project"] as? String } == ["home"])
    let stats = try todo("stats", "--json").jsonObject()
    #expect(stats["tags"] as? Int == tags.count, "stats: \(canonicalJSON(stats))")
    #expect(stats["projects"] as? Int == projects.count, "stats: \(canonicalJSON(stats))")
  }

  // MARK: date

  @Test func dateShowsHowExpressionsAreRead() throws {
    let todo = try TodoSandbox()
    let cases: [([String], String)] = [
      (["2026-12-01"], "2026-12-01 00:00 UTC  (2026-12-01T00:00:00Z, in 9d)"),
      (["2026-12-01T17:00"], "2026-12-01 17:00 UTC  (2026-12-01T17:00:00Z, in 10d)"),
      (["2026-12-01T17:00+01:00"], "2026-12-01 16:00 UTC  (2026-12-01T16:00:00Z, in 10d)"),
      (["now"], "2026-11-21 09:30 UTC  (2026-11-21T09:30:00Z, now)"),
      (["today"], "2026-11-21 00:00 UTC  (2026-11-21T00:00:00Z, 9h ago)"),
      (["tomorrow"], "2026-11-22 00:00 UTC  (2026-11-22T00:00:00Z, in 14h)"),
      (["friday"], "2026-11-27 00:00 UTC  (2026-11-27T00:00:00Z, in 5d)"),
      (["sat"], "2026-11-28 00:00 UTC  (2026-11-28T00:00:00Z, in 6d)"),
      (["+3d"], "2026-11-24 09:30 UTC  (2026-11-24T09:30:00Z, in 3d)"),
      (["2w"], "2026-12-05 09:30 UTC  (2026-12-05T09:30:00Z, in 2w)"),
      (["in", "3", "days"], "2026-11-24 09:30 UTC  (2026-11-24T09:30:00Z, in 3d)"),
      (["in 3 days"], "2026-11-24 09:30 UTC  (2026-11-24T09:30:00Z, in 3d)"),
      (["eom"], "2026-11-30 23:59 UTC  (2026-11-30T23:59:59Z, in 9d)"),
      (["eow"], "2026-11-22 23:59 UTC  (2026-11-22T23:59:59Z, in 38h)"),
      (["eoy"], "2026-12-31 23:59 UTC  (2026-12-31T23:59:59Z, in 5w)"),
      (["tomorrow", "9am"], "2026-11-22 09:00 UTC  (2026-11-22T09:00:00Z, in 23h)"),
      (["fri 17:00"], "2026-11-27 17:00 UTC  (2026-11-27T17:00:00Z, in 6d)"),
      (["dec", "24"], "2026-12-24 00:00 UTC  (2026-12-24T00:00:00Z, in 4w)"),
      (["eom+1d"], "2026-12-01 23:59 UTC  (2026-12-01T23:59:59Z, in 10d)"),
      (["now-2h"], "2026-11-21 07:30 UTC  (2026-11-21T07:30:00Z, 2h ago)"),
    ]
    for (expression, expected) in cases {
      let run = todo.run(["date"] + expression)
      #expect(run.status == 0, "\(run)")
      #expect(run.stdout == expected + "\n", "date \(expression)")
    }
    let json = try todo("date", "+3d", "--json").jsonObject()
    #expect(
      canonicalJSON(json)
        == #"{"day":null,"expression":"+3d","local":"2026-11-24 09:30 UTC","relative":"in 3d","utc":"2026-11-24T09:30:00Z"}"#)
    // A day named without a time says which calendar day.
    #expect(try todo("date", "next month", "--json").jsonObject()["day"] as? String == "2026-12-01")
    // A date of several words is one argument to due:.
    let task = try todo("add", "x", "due:fri 17:00", "--json").jsonObject()
    #expect(task["due"] as? String == "2026-11-27T17:00:00Z")
  }

  @Test func dateHonoursTheTimeZone() throws {
    let todo = try TodoSandbox()
    let newYork: [String: String?] = ["TZ": "America/New_York"]
    #expect(
      todo("date", "2026-12-01T17:00", environment: newYork).stdout
        == "2026-12-01 17:00 EST  (2026-12-01T22:00:00Z, in 10d)\n")
    #expect(todo("date", "tomorrow", environment: newYork).stdout == "2026-11-22 00:00 EST  (2026-11-22T05:00:00Z, in 19h)\n")
    #expect(todo("date", "2026-07-01T12:00", environment: newYork).stdout.hasPrefix("2026-07-01 12:00 EDT  (2026-07-01T16:00:00Z, "))
    #expect(todo("date", "2026-12-01T17:00Z", environment: newYork).stdout.hasPrefix("2026-12-01 12:00 EST  (2026-12-01T17:00:00Z, "))
    // A due date given in New York is stored as UTC.
    let task = try todo("add", "x", "due:2026-12-01T17:00", "--json", environment: newYork).jsonObject()
    #expect(task["due"] as? String == "2026-12-01T22:00:00Z")
  }

  // MARK: help and version

  @Test func helpAndVersion() throws {
    let todo = try TodoSandbox()
    let help = todo("help")
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("todo: a command-line todo manager\n\nUsage: todo [global options] <command> [arguments]\n"))
    #expect(help.stderr == "")
    #expect(todo("--help").stdout == help.stdout)
    #expect(todo("-h").stdout == help.stdout)
    let version = todo("--version")
    #expect(version.status == 0)
    // The commit when `make` wrote it down (packaging/test-package.sh checks it is HEAD's).
    #expect(version.stdout == "todo \(Version.current)" + (Version.commit.map { " (\($0))" } ?? "") + "\n")
    #expect(version.stdout.hasPrefix("todo 0.3.0"))
    #expect(
      sameJSON(
        try todo("--version", "--json").jsonObject(),
        ["version": "0.3.0", "commit": Version.commit ?? NSNull(), "schema_version": 2] as [String: Any]))
    // No database is created by help.
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath))
  }

  @Test func helpForEachCommandMatchesItsHelpOption() throws {
    let todo = try TodoSandbox()
    let commands = [
      "add", "list", "show", "update", "done", "reopen", "delete", "note", "undo", "journal", "tags", "projects",
      "stats", "date", "calendar", "agenda", "burndown", "summary", "history", "ghistory",
    ]
    for command in commands {
      let help = todo("help", command)
      #expect(help.status == 0, "\(help)")
      #expect(help.stdout.hasPrefix("Usage: todo \(command)"), "help \(command):\n\(help.stdout)")
      let option = todo(command, "--help")
      #expect(option.status == 0, "\(option)")
      #expect(option.stdout == help.stdout, "\(command) --help")
    }
    #expect(todo("help", "ls").stdout == todo("help", "list").stdout)
    #expect(todo("help", "rm").stdout == todo("help", "delete").stdout)
    for topic in ["dates", "filters", "attributes", "output"] {
      let run = todo("help", topic)
      #expect(run.status == 0 && run.lines.count > 3, "\(run)")
    }
    #expect(todo("help", "dates").stdout.contains("in 3 days"))
  }

  // MARK: where the database lives

  @Test func theDefaultDatabaseIsUnderHomeInAPrivateFolder() throws {
    let todo = try TodoSandbox()
    let run = todo("add", "x", environment: ["TODO_DB": nil])
    #expect(run.status == 0, "\(run)")
    let folder = todo.folder.appendingPathComponent(".local/share/todo").path
    #expect(FileManager.default.fileExists(atPath: folder + "/todo.db"))
    let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
    #expect(mode == 0o700)
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath))
    #expect(todo.ids() == [], "TODO_DB is another database")
    #expect(todo("list", "--json", environment: ["TODO_DB": nil]).stdout.contains("\"title\": \"x\""))
  }

  @Test func xdgDataHomeAndTheDbOptionChooseTheDatabase() throws {
    let todo = try TodoSandbox()
    let xdg = todo.folder.appendingPathComponent("xdg").path
    #expect(todo("add", "in xdg", environment: ["TODO_DB": nil, "XDG_DATA_HOME": xdg]).status == 0)
    #expect(FileManager.default.fileExists(atPath: xdg + "/todo/todo.db"))
    let other = todo.folder.appendingPathComponent("other.db").path
    #expect(todo("--db", other, "add", "in other").status == 0)
    #expect(todo("add", "in env").status == 0)
    #expect(try todo("--db", other, "list", "--json").jsonArray().map { $0["title"] as? String } == ["in other"])
    #expect(try todo("list", "--json").jsonArray().map { $0["title"] as? String } == ["in env"])
    #expect(try todo("list", "--db", other, "--json").jsonArray().map { $0["title"] as? String } == ["in other"])
  }
}

/// Several processes writing at once: every one succeeds, nothing is lost.
@Suite struct EndToEndConcurrencyTests {
  @Test func eightProcessesAddingTwentyFiveTasksEachAllSucceed() throws {
    let todo = try TodoSandbox()
    #expect(todo("add", "first").status == 0)  // the database exists before the race
    let workers = (1...8).map { worker in
      // Each worker is one shell running 25 `todo add`s back to back and reporting any failure.
      todo.launch(
        URL(fileURLWithPath: "/bin/sh"),
        [
          "-c",
          """
          failed=0; i=1
          while [ $i -le 25 ]; do
            "$TODO" add "worker \(worker) task $i" +w\(worker) > /dev/null || { echo "exit $? on task $i" >&2; failed=1; }
            i=$((i + 1))
          done
          exit $failed
          """,
        ])
    }
    let results = workers.map { $0.wait(seconds: 120) }
    for (index, result) in results.enumerated() {
      #expect(result.status == 0, "worker \(index + 1): \(result)")
      #expect(result.stderr == "", "worker \(index + 1): \(result)")
      #expect(!result.stderr.lowercased().contains("locked"), "worker \(index + 1)")
    }
    let tasks = try todo("list", "--json").jsonArray()
    #expect(tasks.count == 201)
    let ids = tasks.compactMap { $0["id"] as? Int }
    #expect(Set(ids).count == 201, "ids are unique")
    #expect(Set(ids) == Set(1...201), "ids are 1...201 with no gaps")
    #expect(Set(tasks.compactMap { $0["uuid"] as? String }).count == 201, "uuids are unique")
    for worker in 1...8 {
      let titles = Set(tasks.filter { jsonStrings($0["tags"]) == ["w\(worker)"] }.compactMap { $0["title"] as? String })
      #expect(titles == Set((1...25).map { "worker \(worker) task \($0)" }), "worker \(worker)")
    }
    #expect(try todo("journal", "--json").jsonArray().count == 201, "one undo step per add")
  }
}
