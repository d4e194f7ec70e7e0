import DataOperation
import Testing

@testable import TodoCore

/// Undo of every mutating command: the database returns exactly to its state before the command.
@Suite struct UndoTests {
  func seeded() throws -> Database {
    let context = try makeTodoContext()
    for index in 1...7 {
      try addTask("task \(index)", in: context) {
        $0.addTags = ["t\(index % 2)"]
        $0.project = .set("p\(index % 3)")
        $0.priority = index.isMultiple(of: 2) ? .set(.high) : nil
        $0.due = .set(.date(.instant(storeNow + Int64(index) * 3600)))
        $0.notes = index == 3 ? ["first note"] : []
      }
    }
    return context
  }

  /// Runs a command, checks it changed something, undoes it, and checks everything is back.
  func expectUndone<Value>(_ operation: DataOperation<Value, TodoError>, in context: Database) throws {
    let before = try snapshot(context)
    let journal = try TodoStore.history().operate(in: context)
    _ = try operation.operate(in: context)
    #expect(try snapshot(context) != before)
    let report = try TodoStore.undo().operate(in: context)
    #expect(try snapshot(context) == before)
    #expect(try TodoStore.history().operate(in: context) == journal)
    #expect(!report.entry.command.isEmpty)
  }

  @Test func undoOfAddRemovesTheTask() throws {
    let context = try seeded()
    try expectUndone(TodoStore.add(TodoChanges(title: "new"), now: storeNow, command: "add new"), in: context)
  }

  @Test func undoOfUpdateRestoresEveryField() throws {
    let context = try seeded()
    var changes = TodoChanges(title: "renamed")
    changes.addTags = ["extra"]
    changes.removeTags = ["t1"]
    changes.project = .clear
    changes.priority = .set(.low)
    changes.due = .clear
    changes.notes = ["second note"]
    try expectUndone(TodoStore.update(ids(.id(3)), changes, now: storeNow + 99, command: "update 3"), in: context)
    #expect(try TodoStore.task(.id(3)).operate(in: context).notes.map(\.text) == ["first note"])
  }

  @Test func undoOfDoneReopenDeleteAndNote() throws {
    let context = try seeded()
    try expectUndone(TodoStore.complete(ids(.id(2)), now: storeNow + 1, command: "done 2"), in: context)
    _ = try TodoStore.complete(ids(.id(2)), now: storeNow + 1, command: "done 2").operate(in: context)
    try expectUndone(TodoStore.reopen(ids(.id(2)), now: storeNow + 2, command: "reopen 2"), in: context)
    try expectUndone(TodoStore.delete(ids(.id(4)), now: storeNow + 3, command: "delete 4"), in: context)
    try expectUndone(TodoStore.addNote(to: .id(5), text: "hello", now: storeNow + 4, command: "note 5 hello"), in: context)
  }

  @Test func aBulkCommandIsUndoneInOneStep() throws {
    let context = try seeded()
    try expectUndone(TodoStore.complete(ids(.range(3, 7)), now: storeNow + 1, command: "done 3-7"), in: context)
    var changes = TodoChanges()
    changes.addTags = ["bulk"]
    try expectUndone(TodoStore.update(select { $0.includeTags = ["t1"] }, changes, now: storeNow, command: "update"), in: context)
  }

  @Test func repeatedUndoWalksBackThenReportsNothingToUndo() throws {
    let context = try makeTodoContext()
    let empty = try snapshot(context)
    try addTask("a", in: context)
    let afterAdd = try snapshot(context)
    _ = try TodoStore.complete(ids(.id(1)), now: storeNow + 1, command: "done 1").operate(in: context)
    _ = try TodoStore.undo().operate(in: context)
    #expect(try snapshot(context) == afterAdd)
    _ = try TodoStore.undo().operate(in: context)
    #expect(try snapshot(context) == empty)
    #expect(throws: TodoError.nothingToUndo) { try TodoStore.undo().operate(in: context) }
  }

  @Test func undoRestoresNotesWithTheirOriginalIds() throws {
    let context = try seeded()
    let before = try TodoStore.task(.id(3)).operate(in: context).notes
    _ = try TodoStore.delete(ids(.id(3)), now: storeNow, command: "delete 3").operate(in: context)
    _ = try TodoStore.undo().operate(in: context)
    #expect(try TodoStore.task(.id(3)).operate(in: context).notes == before)
  }

  @Test func aFailedCommandLeavesNoJournalEntryAndNoChange() throws {
    let context = try seeded()
    let before = try snapshot(context)
    let journal = try TodoStore.history().operate(in: context)
    var changes = TodoChanges()
    changes.addTags = ["x"]
    #expect(throws: TodoError.notFound("task 99")) {
      try TodoStore.update(ids(.id(1), .id(99)), changes, now: storeNow, command: "update 1,99 +x").operate(in: context)
    }
    #expect(try snapshot(context) == before)
    #expect(try TodoStore.history().operate(in: context) == journal)
  }
}
