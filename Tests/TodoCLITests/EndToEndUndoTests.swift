import Foundation
import Testing

/// `undo` reverts the whole last command, exactly; repeated undo walks back; ids are never reused.
/// Each step runs at a different TODO_NOW so a restored `modified` time is checked too.
@Suite struct EndToEndUndoTests {
  private func at(_ time: String) -> [String: String?] { ["TODO_NOW": "2026-11-21T\(time):00Z"] }

  @Test func aBulkDoneIsUndoneInOneStep() throws {
    let todo = try TodoSandbox()
    for number in 1...8 { todo.add("task", String(number)) }
    let before = try todo("list", "status:all", "--json").jsonArray()
    #expect(todo("done", "3-7", environment: at("10:00")).status == 0)
    #expect(todo.ids("status:done") == [3, 4, 5, 6, 7])
    let undo = todo("undo", environment: at("10:05"))
    #expect(undo.status == 0, "\(undo)")
    #expect(undo.lines == ["Undid: done 3-7  (completed 5 tasks)"] + (3...7).map { "Restored task \($0): task \($0)" })
    #expect(undo.lines.filter { $0.hasPrefix("Undid") }.count == 1, "one undo step")
    #expect(todo.ids("status:done") == [])
    #expect(todo.ids() == [1, 2, 3, 4, 5, 6, 7, 8])
    let after = try todo("list", "status:all", "--json").jsonArray()
    #expect(sameJSON(before, after), "exactly as before, modified and completed included")
    // The journal is back to the eight adds.
    #expect(try todo("journal", "--json").jsonArray().map { $0["summary"] as? String } == (1...8).reversed().map { "added task \($0)" })
  }

  @Test func undoOfAddRemovesTheTask() throws {
    let todo = try TodoSandbox()
    todo.add("keep")
    todo.add("Buy", "milk", "+home", "--note", "a note")
    let undo = todo("undo")
    #expect(undo.lines == ["Undid: add Buy milk +home --note 'a note'  (added task 2)", "Removed task 2"], "\(undo)")
    #expect(todo.ids("status:all") == [1])
    let show = todo("show", "2")
    #expect(show.status == 1, "\(show)")
    #expect(show.errorLines.first == "todo: error: no task 2")
    #expect(try todo("tags", "--json").jsonArray().isEmpty, "its tags went with it")
  }

  @Test func undoOfDeleteRestoresTheTaskExactly() throws {
    let todo = try TodoSandbox()
    todo.add("Pay", "rent", "+home", "+bills", "project:home", "pri:H", "due:2026-12-01", "--note", "landlord")
    todo.add("other")
    let before = try todo.task(1)
    let delete = todo("rm", "1", environment: at("11:00"))
    #expect(delete.status == 0)
    #expect(try todo.task(1)["status"] as? String == "deleted")
    let undo = todo("undo", environment: at("11:30"))
    #expect(
      undo.lines == [
        "Undid: rm 1  (deleted task 1)", "Restored task 1: Pay rent  +bills +home project:home pri:H due:2026-12-01 notes:1",
      ], "\(undo)")
    let after = try todo.task(1)
    #expect(sameJSON(before, after), "before: \(canonicalJSON(before))\nafter:  \(canonicalJSON(after))")
    #expect(todo.ids() == [1, 2])
  }

  @Test func undoOfUpdateRestoresEveryFieldExactly() throws {
    let todo = try TodoSandbox()
    todo.add("Pay", "rent", "+home", "+bills", "project:home", "pri:M", "due:2026-12-01", "--note", "original note")
    let before = try todo.task(1)
    let update = todo(
      "update", "1", "Pay", "the", "rent", "-bills", "+urgent", "project:flat", "pri:H", "due:friday", "--note", "second",
      environment: at("10:00"))
    #expect(update.status == 0, "\(update)")
    let changed = try todo.task(1)
    #expect(changed["title"] as? String == "Pay the rent")
    #expect((changed["notes"] as? [Any])?.count == 2)
    let undo = todo("undo", "--json", environment: at("10:30"))
    #expect(undo.status == 0, "\(undo)")
    let after = try todo.task(1)
    #expect(sameJSON(before, after), "before: \(canonicalJSON(before))\nafter:  \(canonicalJSON(after))")
    // The JSON form: what was undone, the tasks as restored, the ids removed.
    let report = try undo.jsonObject()
    #expect(Set(report.keys) == ["undone", "tasks", "removed_ids"])
    let entry = try #require(report["undone"] as? [String: Any])
    #expect(entry["command"] as? String == "update 1 Pay the rent -bills +urgent project:flat pri:H due:friday --note second")
    #expect(entry["summary"] as? String == "updated task 1")
    #expect(entry["created"] as? String == "2026-11-21T10:00:00Z")
    #expect(entry["task_count"] as? Int == 1)
    let tasks = try #require(report["tasks"] as? [[String: Any]])
    #expect(tasks.count == 1)
    #expect(sameJSON(tasks[0], before))
    #expect((report["removed_ids"] as? [Int]) == [])
  }

  @Test func undoOfABulkUpdateByFilterRestoresEachTask() throws {
    let todo = try TodoSandbox()
    todo.add("a", "+errand", "pri:L")
    todo.add("b", "+errand", "due:2026-12-24")
    todo.add("c", "+other")
    let before = try todo("list", "status:all", "--json").jsonArray()
    #expect(todo("update", "--where", "+errand", "pri:H", "due:", "+bulk", environment: at("12:00")).status == 0)
    let undo = todo("undo")
    #expect(undo.lines.first == "Undid: update --where +errand pri:H due: +bulk  (updated 2 tasks)", "\(undo)")
    #expect(sameJSON(before, try todo("list", "status:all", "--json").jsonArray()))
  }

  @Test func undoOfNoteRemovesTheNote() throws {
    let todo = try TodoSandbox()
    todo.add("task", "--note", "first")
    let before = try todo.task(1)
    #expect(todo("note", "1", "second", environment: at("12:00")).status == 0)
    #expect(todo("undo").lines.first == "Undid: note 1 second  (noted task 1)")
    #expect(sameJSON(before, try todo.task(1)))
  }

  @Test func repeatedUndoWalksBack() throws {
    let todo = try TodoSandbox()
    todo.add("one")
    todo.add("two")
    #expect(todo("update", "1", "pri:H", environment: at("10:00")).status == 0)
    #expect(todo("done", "2", environment: at("10:10")).status == 0)
    #expect(todo("rm", "1", environment: at("10:20")).status == 0)
    let expected = [
      "Undid: rm 1  (deleted task 1)", "Undid: done 2  (completed task 2)", "Undid: update 1 pri:H  (updated task 1)",
      "Undid: add two  (added task 2)", "Undid: add one  (added task 1)",
    ]
    var states: [[Int]] = []
    for line in expected {
      let undo = todo("undo")
      #expect(undo.status == 0, "\(undo)")
      #expect(undo.lines.first == line, "\(undo)")
      states.append(todo.ids("status:all", "--sort", "id"))
    }
    #expect(states == [[1, 2], [1, 2], [1, 2], [1], []])
    let last = todo("undo")
    #expect(last.status == 1)
    #expect(last.errorLines.first == "todo: error: nothing to undo")
    #expect(try todo("journal", "--json").jsonArray().isEmpty)
  }

  @Test func idsStayStableAndAreNeverReused() throws {
    let todo = try TodoSandbox()
    for title in ["one", "two", "three"] { todo.add(title) }
    let uuids = try (1...3).map { try todo.task($0)["uuid"] as? String }
    #expect(todo("rm", "2").status == 0)
    #expect(todo.ids() == [1, 3], "deleting 2 does not renumber 3")
    #expect(todo("undo").status == 0)
    #expect(todo.ids() == [1, 2, 3])
    #expect(try (1...3).map { try todo.task($0)["uuid"] as? String } == uuids, "UUIDs survive delete and undo")
    // A new task after a delete and its undo takes a new id.
    #expect(todo.add("four") == 4)
    // Undoing an add frees nothing: the next task still takes a new id.
    #expect(todo("undo").lines == ["Undid: add four  (added task 4)", "Removed task 4"])
    #expect(todo.add("five") == 5)
    #expect(todo("undo").status == 0)
    #expect(todo("undo").status == 0)  // the undone delete left the journal: this undoes "add three"
    #expect(todo.add("six") == 6)
    #expect(todo.ids("status:all", "--sort", "id") == [1, 2, 6])
    let show = todo("show", "3")
    #expect(show.status == 1, "an undone add stays gone: \(show)")
  }
}
