import Testing
import TodoCore

@testable import TodoSync

/// The three-way field merge, on records (no files, no database).
@Suite struct FieldMergeTests {
  private func record(_ title: String = "Task", modified: Int64 = 100, change: (inout Todo) -> Void = { _ in }) -> TaskRecord {
    var todo = Todo()
    todo.uuid = "11111111-1111-4111-8111-111111111111"
    todo.title = title
    todo.created = 10
    todo.modified = modified
    todo.tags = ["base"]
    change(&todo)
    return TaskRecord(todo: todo)
  }

  @Test func aFieldChangedOnOneSideTakesThatSide() {
    let base = record()
    let local = record(modified: 200) { $0.priority = .high }
    let remote = record("Renamed", modified: 150)
    let outcome = FieldMerge.merge(base: base, local: local, remote: remote)
    #expect(outcome.record.todo.title == "Renamed")
    #expect(outcome.record.todo.priority == .high)
    #expect(outcome.record.todo.modified == 200)
    #expect(outcome.conflicts.isEmpty)
  }

  @Test func aFieldChangedOnBothSidesTakesTheLaterAndRecordsTheOther() {
    let base = record()
    let earlier = record("Local", modified: 200)
    let later = record("Remote", modified: 300)
    let outcome = FieldMerge.merge(base: base, local: earlier, remote: later)
    #expect(outcome.record.todo.title == "Remote")
    #expect(outcome.conflicts == [SyncConflict(taskUUID: base.todo.uuid, field: "title", kept: "Remote", lost: "Local", keptSide: .remote)])
    // The other way round, and on a tie, this side wins.
    #expect(FieldMerge.merge(base: base, local: later, remote: earlier).record.todo.title == "Remote")
    #expect(FieldMerge.merge(base: base, local: record("A", modified: 5), remote: record("B", modified: 5)).record.todo.title == "A")
    // Both changed it to the same value: no conflict.
    #expect(FieldMerge.merge(base: base, local: later, remote: record("Remote", modified: 250)).conflicts.isEmpty)
  }

  @Test func tagsMergeAsASetKeepingAdditionsAndRemovalsOfBothSides() {
    let base = record { $0.tags = ["a", "b", "c"] }
    let local = record { $0.tags = ["a", "b", "local"] }  // removed c
    let remote = record { $0.tags = ["b", "c", "remote"] }  // removed a
    #expect(FieldMerge.merge(base: base, local: local, remote: remote).record.todo.tags == ["b", "local", "remote"])
    // Without a base: the union.
    #expect(FieldMerge.merge(base: nil, local: local, remote: remote).record.todo.tags == ["a", "b", "c", "local", "remote"])
  }

  @Test func anEditBeatsADelete() {
    let base = record()
    let deleted = record(modified: 300) {
      $0.status = .deleted
      $0.completed = 300
    }
    let edited = record(modified: 200) { $0.priority = .low }
    for (local, remote) in [(deleted, edited), (edited, deleted)] {
      let outcome = FieldMerge.merge(base: base, local: local, remote: remote)
      #expect(outcome.record.todo.status == .pending)
      #expect(outcome.record.todo.completed == nil)
      #expect(outcome.record.todo.priority == .low)
      #expect(outcome.warnings.count == 1)
    }
    // A delete with no edit on the other side stays.
    #expect(FieldMerge.merge(base: base, local: base, remote: deleted).record.todo.status == .deleted)
  }

  /// The RELATED-TO lines an item was read with are bookkeeping: a copy without them (this
  /// database's) is not an edit, so a deletion on the other side stays.
  @Test func keptLinkLinesAreNotAnEdit() {
    var base = record()
    base.extras = [TaskExtra(format: "ical", name: "related", value: "RELATED-TO;RELTYPE=PARENT:x@example.org")]
    let deleted = record(modified: 300) {
      $0.status = .deleted
      $0.completed = 300
    }
    let outcome = FieldMerge.merge(base: base, local: deleted, remote: base)
    #expect(outcome.record.todo.status == .deleted)
    #expect(outcome.warnings.isEmpty)
    #expect(outcome.record.extras == base.extras, "the server's lines are kept")
  }

  @Test func otherProgramsFieldsMergeOneByOne() {
    let base = record()
    var local = record()
    local.extras = [TaskExtra(format: "ical", name: "properties", value: "X-APPLE-SORT-ORDER:1")]
    var remote = record()
    remote.extras = [TaskExtra(format: "taskwarrior", name: "estimate", value: "3")]
    let merged = FieldMerge.merge(base: base, local: local, remote: remote).record
    #expect(merged.extras.map(\.name) == ["properties", "estimate"])
    // Removed on one side, unchanged on the other: removed.
    let removed = FieldMerge.merge(base: local, local: local, remote: base).record
    #expect(removed.extras.isEmpty)
  }

  @Test func sameFieldsIgnoresTimesAndBookkeeping() {
    var one = record(modified: 1)
    var other = record(modified: 2)
    one.extras = [TaskExtra(format: "ical", name: "sequence", value: "3@1")]
    other.todo.created = 99
    #expect(FieldMerge.sameFields(one, other))
    other.todo.tags.append("x")
    #expect(!FieldMerge.sameFields(one, other))
  }
}
