import DataOperation
import Glibc
import Testing

@testable import TodoCore

@Suite struct TodoStoreTests {
  @Test func addStoresEveryFieldAndAssignsAUUID() throws {
    let context = try makeTodoContext()
    let task = try addTask("Pay rent", in: context) {
      $0.addTags = ["home", "bills", "home"]
      $0.project = .set("home.flat")
      $0.priority = .set(.high)
      $0.due = .set(.date(.instant(storeNow + 3600)))
      $0.notes = ["IBAN in the drawer"]
    }
    #expect(task.id == 1)
    #expect(task.title == "Pay rent")
    #expect(task.tags == ["bills", "home"])
    #expect(task.project == "home.flat")
    #expect(task.priority == .high)
    #expect(task.due == .instant(storeNow + 3600))
    #expect(task.created == storeNow && task.modified == storeNow && task.completed == nil)
    #expect(task.notes.map(\.text) == ["IBAN in the drawer"])
    #expect(task.uuid.count == 36 && task.uuid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    #expect(try TodoStore.task(.id(1)).operate(in: context) == task)
  }

  @Test func addRefusesBadNamesAndStoresNothing() throws {
    let context = try makeTodoContext()
    #expect(throws: TodoError.invalid("tag 'two words' contains a space or a control character")) {
      try addTask("x", in: context) { $0.addTags = ["two words"] }
    }
    #expect(throws: TodoError.invalid("project 'work..q4' has an empty part (write parts like work.q4)")) {
      try addTask("x", in: context) { $0.project = .set("work..q4") }
    }
    #expect(throws: TodoError.invalid("a task needs a title")) { try addTask("   ", in: context) }
    #expect(try snapshot(context).isEmpty)
    #expect(try TodoStore.history().operate(in: context).isEmpty)
  }

  @Test func idsAreNeverReusedEvenAfterUndoingAnAdd() throws {
    let context = try makeTodoContext()
    try addTask("one", in: context)
    try addTask("two", in: context)
    _ = try TodoStore.undo().operate(in: context)
    #expect(try addTask("three", in: context).id == 3)
  }

  @Test func updateChangesOnlyWhatItNames() throws {
    let context = try makeTodoContext()
    let original = try addTask("Old title", in: context) {
      $0.addTags = ["a", "b"]
      $0.project = .set("p")
      $0.priority = .set(.low)
      $0.due = .set(.date(.instant(storeNow)))
    }
    var changes = TodoChanges(title: "New title")
    changes.addTags = ["c"]
    changes.removeTags = ["a"]
    changes.priority = .clear
    changes.due = .set(.date(.instant(storeNow + 60)))
    let report = try TodoStore.update(ids(.id(1)), changes, now: storeNow + 10, command: "update 1").operate(in: context)
    let updated = report.tasks[0]
    #expect(updated.title == "New title")
    #expect(updated.tags == ["b", "c"])
    #expect(updated.project == "p")
    #expect(updated.priority == nil)
    #expect(updated.due == .instant(storeNow + 60))
    #expect(updated.modified == storeNow + 10 && updated.created == original.created)
    #expect(report.summary == "updated task 1")
  }

  @Test func statusChangesSetAndClearCompletion() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context)
    let done = try TodoStore.complete(ids(.id(1)), now: storeNow + 5, command: "done 1").operate(in: context)
    #expect(done.tasks[0].status == .done && done.tasks[0].completed == storeNow + 5)
    let again = try TodoStore.complete(ids(.id(1)), now: storeNow + 6, command: "done 1").operate(in: context)
    #expect(again.tasks.isEmpty && again.unchanged == [UnchangedTask(task: done.tasks[0], reason: .alreadyInStatus(.done))])
    let reopened = try TodoStore.reopen(ids(.id(1)), now: storeNow + 7, command: "reopen 1").operate(in: context)
    #expect(reopened.tasks[0].status == .pending && reopened.tasks[0].completed == nil)
    let deleted = try TodoStore.delete(ids(.id(1)), now: storeNow + 8, command: "delete 1").operate(in: context)
    #expect(deleted.tasks[0].status == .deleted)
    #expect(try TodoStore.list(TodoFilter(), now: storeNow).operate(in: context).isEmpty)
    // The no-op `done` left no journal entry: add, done, reopen, delete.
    #expect(try TodoStore.history().operate(in: context).map(\.command) == ["delete 1", "reopen 1", "done 1", "add a"])
  }

  @Test func unknownIdsPrefixesAndEmptySelectionsAreReported() throws {
    let context = try makeTodoContext()
    let first = try addTask("a", in: context)
    try addTask("b", in: context)
    #expect(throws: TodoError.notFound("task 9")) { try TodoStore.complete(ids(.id(9)), now: storeNow, command: "done 9").operate(in: context) }
    #expect(throws: TodoError.notFound("task in 5-8")) { try TodoStore.complete(ids(.range(5, 8)), now: storeNow, command: "x").operate(in: context) }
    #expect(throws: TodoError.noMatch) {
      try TodoStore.complete(select { $0.includeTags = ["nothing"] }, now: storeNow, command: "x").operate(in: context)
    }
    let prefix = String(first.uuid.prefix(8))
    #expect(try TodoStore.task(.uuidPrefix(prefix)).operate(in: context).id == 1)
    #expect(throws: TodoError.notFound("task with UUID ffffffff…")) {
      try TodoStore.task(.uuidPrefix(first.uuid.hasPrefix("ffffffff") ? "eeeeeeee" : "ffffffff")).operate(in: context)
    }
    // A mix of a good and a bad id changes nothing.
    #expect(throws: TodoError.notFound("task 9")) {
      try TodoStore.complete(ids(.id(1), .id(9)), now: storeNow, command: "done 1,9").operate(in: context)
    }
    #expect(try TodoStore.task(.id(1)).operate(in: context).status == .pending)
  }

  @Test func anAmbiguousUUIDPrefixIsRefused() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context)
    try addTask("b", in: context)
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.execute("UPDATE todo SET uuid = 'abcdef01-0000-4000-8000-00000000000' || id")
    }.operate(in: context)
    #expect(throws: TodoError.ambiguous(prefix: "abcdef01", count: 2)) { try TodoStore.task(.uuidPrefix("abcdef01")).operate(in: context) }
  }

  @Test func tagsProjectsAndStatisticsCount() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context) {
      $0.addTags = ["home"]; $0.project = .set("work.q4"); $0.due = .set(.date(.instant(storeNow - 10)))
    }
    try addTask("b", in: context) {
      $0.addTags = ["home", "x"]; $0.project = .set("work")
    }
    try addTask("c", in: context) { $0.addTags = ["x"] }
    _ = try TodoStore.complete(ids(.id(2)), now: storeNow, command: "done 2").operate(in: context)
    _ = try TodoStore.delete(ids(.id(3)), now: storeNow, command: "delete 3").operate(in: context)
    #expect(try TodoStore.tags().operate(in: context) == [NameCount(name: "home", pending: 1, total: 2), NameCount(name: "x", pending: 0, total: 1)])
    #expect(
      try TodoStore.projects().operate(in: context) == [
        NameCount(name: "work", pending: 1, total: 2), NameCount(name: "work.q4", pending: 1, total: 1),
      ])
    let stats = try TodoStore.statistics(now: storeNow).operate(in: context)
    #expect(stats.pending == 1 && stats.done == 1 && stats.deleted == 1 && stats.overdue == 1)
    #expect(stats.completedLastWeek == 1 && stats.tags == 2 && stats.projects == 2 && stats.journalEntries == 5)
    #expect(stats.oldestPending == storeNow)
  }

  @Test func aNewerSchemaIsRefusedWithoutChangingTheFile() throws {
    let context = try makeTodoContext()
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.executeScript("PRAGMA user_version = 99")
    }.operate(in: context)
    #expect(throws: DatabaseError.schemaTooNew(found: 99, supported: Schema.migrator.latestVersion)) {
      try Schema.migrator.migrate().operate(in: context)
    }
  }

  @Test func aChangeNeedsASelectionThatNarrowsSomethingAndChangesNothingOtherwise() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context)
    try addTask("b", in: context)
    let reason = "a change needs task ids or a filter that selects tasks (+tag, project:x, words…), not only a status"
    #expect(throws: TodoError.invalid(reason)) { try TodoStore.delete(TodoFilter(), now: storeNow, command: "rm").operate(in: context) }
    #expect(throws: TodoError.invalid(reason)) {
      try TodoStore.complete(select { $0.status = .all }, now: storeNow, command: "done status:all").operate(in: context)
    }
    var changes = TodoChanges()
    changes.priority = .set(.low)
    #expect(throws: TodoError.invalid(reason)) { try TodoStore.update(TodoFilter(), changes, now: storeNow, command: "update").operate(in: context) }
    // A blank word narrows nothing either: it never becomes LIKE '%%'.
    #expect(throws: TodoError.invalid(reason)) {
      try TodoStore.delete(select { $0.words = ["  "] }, now: storeNow, command: "rm ' '").operate(in: context)
    }
    #expect(try TodoStore.list(TodoFilter(), now: storeNow).operate(in: context).count == 2)
  }

  @Test func deletingADoneTaskKeepsItsCompletionTime() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context)
    _ = try TodoStore.complete(ids(.id(1)), now: storeNow + 5, command: "done 1").operate(in: context)
    let deleted = try TodoStore.delete(ids(.id(1)), now: storeNow + 9, command: "rm 1").operate(in: context)
    #expect(deleted.tasks[0].status == .deleted && deleted.tasks[0].completed == storeNow + 5)
    let reopened = try TodoStore.reopen(ids(.id(1)), now: storeNow + 10, command: "reopen 1").operate(in: context)
    #expect(reopened.tasks[0].completed == nil)
  }

  @Test func aListOperationCanRunTwice() throws {
    let context = try makeTodoContext()
    try addTask("one", in: context)
    try addTask("two", in: context)
    let list = TodoStore.list(TodoFilter(), now: storeNow)
    #expect(try list.operate(in: context).map(\.title) == ["one", "two"])
    #expect(try list.operate(in: context).map(\.title) == ["one", "two"])
  }

  /// The rows a list table reads carry the same fields as the whole tasks, tags in name order,
  /// and the times only when the order uses one.
  @Test func listRowsCarryWhatTheTasksHold() throws {
    let context = try makeTodoContext()
    try addTask("Pay rent", in: context) {
      $0.addTags = ["zeta", "home", "bills", "Émile", "a"]
      $0.project = .set("home.flat")
      $0.priority = .set(.low)
      $0.due = .set(.date(.instant(storeNow + 3600)))
    }
    try addTask("Plain", in: context, at: storeNow + 10)
    try addTask("Closed", in: context, at: storeNow + 20) { $0.addTags = ["x"] }
    _ = try TodoStore.complete(ids(.id(3)), now: storeNow + 30, command: "done 3").operate(in: context)
    // Rows in a row with the same project and tags (shared by the decoder), then different ones.
    for title in ["Same one", "Same two"] {
      try addTask(title, in: context, at: storeNow + 40) {
        $0.addTags = ["x", "y"]
        $0.project = .set("home.flat")
      }
    }
    try addTask("Other", in: context, at: storeNow + 50) {
      $0.addTags = ["x"]
      $0.project = .set("home")
    }
    final class Rows: @unchecked Sendable { var rows: [TaskRow] = [] }
    for sort in [[], [SortKey(.created, descending: true)], [SortKey(.completed)]] {
      let filter = select { $0.status = .all }
      let expected = try TodoStore.list(filter, sort: sort, now: storeNow).operate(in: context).map { todo in
        var row = TaskRow(todo)
        if !TaskRow.showsTimes(sortedBy: sort) { (row.created, row.modified, row.completed) = (0, 0, nil) }
        return row
      }
      let collected = Rows()
      let count = try TodoStore.forEachRow(filter, sort: sort, limit: nil, now: storeNow) { collected.rows.append($0) }
        .operate(in: context)
      #expect(count == 6)
      #expect(collected.rows == expected)
    }
    #expect(TaskRow(try TodoStore.task(.id(1)).operate(in: context)).tagText == "a bills home zeta Émile")
  }

  @Test func anotherProgramsDatabaseIsRefusedAndLeftUnchanged() throws {
    let path = "/tmp/todo-foreign-\(UInt64.random(in: 0...UInt64.max)).db"
    defer { _ = unlink(path) }
    do {
      let foreign = try Database(
        path: path,
        options: {
          var o = Database.Options(); o.wal = false; return o
        }())
      try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
        try connection.executeScript("CREATE TABLE foo (x); INSERT INTO foo VALUES (1);")
      }.operate(in: foreign)
    }
    #expect(throws: TodoError.database(.foreignDatabase(tables: 1))) { try TodoDatabase.open(path: path) }
    let check = try Database(
      path: path,
      options: {
        var o = Database.Options(); o.wal = false; o.readOnly = true; return o
      }())
    let state = try DataOperation<[SQLValue], DatabaseError> { connection throws(DatabaseError) in
      [try connection.scalar("PRAGMA journal_mode"), try connection.scalar("SELECT count(*) FROM sqlite_schema")]
    }.operate(in: check)
    #expect(state == [.text("delete"), .integer(1)])  // not switched to WAL, no todo tables
  }
}

@Suite struct VirtualTagNameTests {
  /// A tag named like a virtual tag cannot be added; one made before virtual tags existed can
  /// still be removed.
  @Test func virtualTagNamesCanBeRemovedButNotAdded() throws {
    var adding = TodoChanges()
    adding.addTags = ["TODAY"]
    #expect(throws: TodoError.self) { try Validation.changes(adding) }
    var removing = TodoChanges()
    removing.removeTags = ["TODAY"]
    try Validation.changes(removing)
  }
}

@Suite struct UrgencyRankingTests {
  /// The ranking from one query's counts is the ranking of the tasks read whole, on tasks with
  /// notes, dependencies both ways, a running and a stopped interval, tags, priorities and dates.
  @Test func rankingByCountsIsRankingOfWholeTasks() throws {
    let context = try makeTodoContext()
    for index in 1...40 {
      try addTask("Task \(index)", in: context, at: storeNow - Int64(index) * 86_400) { changes in
        if index % 3 == 0 { changes.addTags = ["next"] }
        if index % 4 == 0 { changes.addTags += ["home", "errand", "x"] }
        if index % 5 == 0 { changes.priority = .set(index % 2 == 0 ? .high : .low) }
        if index % 6 == 0 { changes.project = .set("work") }
        if index % 7 == 0 { changes.due = .set(.date(.day(CalendarDay(year: 2026, month: 11, day: 10 + index % 20)))) }
        if index > 10 && index % 9 == 0 { changes.addDepends = [.id(Int64(index - 1)), .id(Int64(index - 2))] }
      }
    }
    for (id, count) in [(2, 1), (4, 2), (8, 3), (16, 4)] {
      for note in 0..<count {
        _ = try TodoStore.addNote(to: .id(Int64(id)), text: "Note \(note)", now: storeNow, command: "note").operate(in: context)
      }
    }
    _ = try TodoStore.start(.id(12), now: storeNow - 600, command: "start").operate(in: context)
    _ = try TodoStore.start(.id(13), now: storeNow - 500, command: "start").operate(in: context)
    _ = try TodoStore.stop(.id(13), now: storeNow - 100, command: "stop").operate(in: context)
    _ = try TodoStore.complete(ids(.id(17)), now: storeNow, command: "done").operate(in: context)
    var coefficients = Urgency.Coefficients()
    coefficients.userTags = ["home": 2.5]
    let filter = select { $0.status = .pending }
    let whole = try TodoStore.list(filter, now: storeNow).operate(in: context)
      .map { ($0.id, Urgency.score(of: $0, now: storeNow, coefficients: coefficients)) }
      .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
    let counted = try TodoStore.idsByUrgency(filter, now: storeNow, coefficients: coefficients).operate(in: context)
    #expect(counted == whole)
    #expect(Set(counted).count == 39)
  }
}

@Suite struct PendingTagTests {
  @Test func countsOnlyPendingTasks() throws {
    let context = try makeTodoContext()
    try addTask("one", in: context) { $0.addTags = ["home", "phone"] }
    try addTask("two", in: context) { $0.addTags = ["home"] }
    try addTask("three", in: context) { $0.addTags = ["phone", "gone"] }
    _ = try TodoStore.complete(ids(.id(3)), now: storeNow, command: "done").operate(in: context)
    let counts = try TodoStore.pendingTags().operate(in: context)
    #expect(counts == [NameCount(name: "home", pending: 2, total: 2), NameCount(name: "phone", pending: 1, total: 1)])
  }
}
