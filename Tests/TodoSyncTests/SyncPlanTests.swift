import DataOperation
import Foundation
import Testing
import TodoCore

@testable import TodoSync

/// The merge of a vdir with the database, without vdirsyncer or a server: an in-memory database
/// and a temporary folder of `.ics` files, as vdirsyncer leaves them.
@Suite struct SyncPlanTests {
  /// 2026-11-21T09:30:00Z.
  let now: Int64 = 1_795_253_400

  /// A fresh database and an empty vdir, removed when the test ends.
  final class Fixture {
    let context: Database
    let folder: String
    let vdir: Vdir

    init() throws {
      context = try TodoDatabase.open(path: ":memory:")
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-syncplan-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      vdir = Vdir(folder: folder)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".ics") }.sorted() }

    func text(_ file: String) -> String { (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? "" }

    func write(_ text: String, to file: String) throws {
      try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
    }

    func tasks(now: Int64) throws -> [Todo] {
      var all = TodoFilter()
      all.status = .all
      return try TodoStore.list(all, sort: [SortKey(.id)], now: now).operate(in: context)
    }
  }

  /// A to-do as a phone's app writes it.
  func item(uid: String, summary: String, modified: String = "20261121T080000Z", status: String = "NEEDS-ACTION", extra: String = "")
    -> String
  {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Phone//Tasks//EN\r
    BEGIN:VTODO\r
    UID:\(uid)\r
    DTSTAMP:\(modified)\r
    CREATED:20261120T080000Z\r
    LAST-MODIFIED:\(modified)\r
    SUMMARY:\(summary)\r
    STATUS:\(status)\r
    \(extra)END:VTODO\r
    END:VCALENDAR\r

    """
  }

  func merge(_ fixture: Fixture, at time: Int64? = nil, force: Bool = false, apply: Bool = true) throws(TodoError) -> SyncReport {
    try SyncEngine.merge(collection: "tasks", vdir: fixture.vdir, now: time ?? now, force: force, apply: apply, command: "sync")
      .operate(in: fixture.context)
  }

  @Test func aTaskHereGetsAFileAndAFileThereATask() throws {
    let fixture = try Fixture()
    _ = try TodoStore.add(TodoChanges(title: "Buy milk"), now: now, command: "add").operate(in: fixture.context)
    let uid = "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93"
    try fixture.write(item(uid: uid, summary: "Call Bob"), to: "phone.ics")
    // --status: what would happen, nothing written.
    let status = try merge(fixture, apply: false)
    #expect(status.added == [uid] && status.pendingHere == 1 && status.pendingThere == 1, "\(status)")
    #expect(status.written.count == 1 && fixture.files == ["phone.ics"])
    #expect(try fixture.tasks(now: now).map(\.title) == ["Buy milk"])
    // Applied: both sides hold both.
    let report = try merge(fixture)
    #expect(report.added == [uid] && report.written.count == 1 && report.items == 2, "\(report)")
    #expect(fixture.files.count == 2)
    #expect(try fixture.tasks(now: now).map(\.title) == ["Buy milk", "Call Bob"])
    let mine = try #require(fixture.files.first { $0 != "phone.ics" })
    #expect(fixture.text(mine).contains("SUMMARY:Buy milk"))
    // Again: nothing to do.
    let again = try merge(fixture)
    #expect(again.added.isEmpty && again.updated.isEmpty && again.written.isEmpty && again.pendingHere == 0 && again.pendingThere == 0)
  }

  @Test func aTaskChangedOnBothSidesMergesFieldByField() throws {
    let fixture = try Fixture()
    let uid = "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93"
    try fixture.write(item(uid: uid, summary: "Call Bob"), to: "phone.ics")
    _ = try merge(fixture)
    // The phone renames it; here it gets a priority.
    try fixture.write(item(uid: uid, summary: "Call Bob about the roof", modified: "20261121T090000Z"), to: "phone.ics")
    var changes = TodoChanges()
    changes.priority = .set(.high)
    var one = TodoFilter()
    one.references = [.id(1)]
    _ = try TodoStore.update(one, changes, now: now, command: "update").operate(in: fixture.context)
    let report = try merge(fixture, at: now + 60)
    #expect(report.updated == [uid] && report.written == ["phone.ics"] && report.conflicts.isEmpty, "\(report)")
    let task = try #require(try fixture.tasks(now: now).first)
    #expect(task.title == "Call Bob about the roof" && task.priority == .high)
    #expect(fixture.text("phone.ics").contains("SUMMARY:Call Bob about the roof") && fixture.text("phone.ics").contains("PRIORITY:1"))
  }

  @Test func aFileDeletedThereDeletesItsTaskButMostOfThemWaitForForce() throws {
    let fixture = try Fixture()
    let uids = ["5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e91", "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e92", "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93"]
    for (index, uid) in uids.enumerated() { try fixture.write(item(uid: uid, summary: "Task \(index)"), to: "t\(index).ics") }
    _ = try merge(fixture)
    // One of three: deleted here.
    try FileManager.default.removeItem(atPath: fixture.folder + "/t0.ics")
    let one = try merge(fixture, at: now + 60)
    #expect(one.deleted == [uids[0]], "\(one)")
    #expect(try fixture.tasks(now: now).map(\.status) == [.deleted, .pending, .pending])
    // Both that are left: refused without --force, and nothing changes; --status says so.
    try FileManager.default.removeItem(atPath: fixture.folder + "/t1.ics")
    try FileManager.default.removeItem(atPath: fixture.folder + "/t2.ics")
    #expect(throws: TodoError.self) { try merge(fixture, at: now + 120) }
    #expect(try fixture.tasks(now: now).map(\.status) == [.deleted, .pending, .pending])
    let status = try merge(fixture, at: now + 120, apply: false)
    #expect(status.warnings.contains { $0.hasPrefix("a sync now would delete 2 of 2 tasks here") }, "\(status)")
    let forced = try merge(fixture, at: now + 120, force: true)
    #expect(forced.deleted.sorted() == [uids[1], uids[2]])
    #expect(try fixture.tasks(now: now).allSatisfy { $0.status == .deleted })
  }

  @Test func aTaskChangedHereAndDeletedThereIsSentAgain() throws {
    let fixture = try Fixture()
    let uid = "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93"
    try fixture.write(item(uid: uid, summary: "Call Bob"), to: "phone.ics")
    _ = try merge(fixture)
    var changes = TodoChanges()
    changes.priority = .set(.low)
    var one = TodoFilter()
    one.references = [.id(1)]
    _ = try TodoStore.update(one, changes, now: now, command: "update").operate(in: fixture.context)
    try FileManager.default.removeItem(atPath: fixture.folder + "/phone.ics")
    let report = try merge(fixture, at: now + 60)
    #expect(report.restored == [uid] && report.written == ["phone.ics"] && report.deleted.isEmpty, "\(report)")
    #expect(report.warnings.first?.contains("was deleted on the server and changed here") == true)
    #expect(fixture.files == ["phone.ics"])
  }

  @Test func aFileThatDoesNotReadIsSkippedAndTheRestSync() throws {
    let fixture = try Fixture()
    try fixture.write("BEGIN:VCALENDAR\r\nthis is not a calendar\r\n", to: "broken.ics")
    try fixture.write(item(uid: "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93", summary: "Call Bob"), to: "phone.ics")
    let report = try merge(fixture)
    #expect(report.skipped.map(\.file) == ["broken.ics"] && report.added.count == 1, "\(report)")
    #expect(fixture.text("broken.ics") == "BEGIN:VCALENDAR\r\nthis is not a calendar\r\n")
  }

  @Test func aTaskPurgedHereTakesItsFileAway() throws {
    let fixture = try Fixture()
    _ = try TodoStore.add(TodoChanges(title: "Buy milk"), now: now, command: "add").operate(in: fixture.context)
    _ = try TodoStore.add(TodoChanges(title: "Call Bob"), now: now, command: "add").operate(in: fixture.context)
    _ = try merge(fixture)
    #expect(fixture.files.count == 2)
    var one = TodoFilter()
    one.references = [.id(1)]
    _ = try TodoStore.delete(one, now: now, command: "delete").operate(in: fixture.context)
    var deleted = TodoFilter()
    deleted.status = .deleted
    _ = try TodoStore.purge(deleted, now: now).operate(in: fixture.context)
    let report = try merge(fixture, at: now + 60)
    #expect(report.removed.count == 1 && report.items == 1, "\(report)")
    #expect(fixture.files.count == 1 && fixture.text(fixture.files[0]).contains("SUMMARY:Call Bob"))
  }

  @Test func aPreviewForHooksStoresTheTasksAndTouchesNoFile() throws {
    let fixture = try Fixture()
    _ = try TodoStore.add(TodoChanges(title: "Buy milk"), now: now, command: "add").operate(in: fixture.context)
    try fixture.write(item(uid: "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93", summary: "Call Bob"), to: "phone.ics")
    let preview = try SyncEngine.merge(collection: "tasks", vdir: fixture.vdir, now: now, force: false, apply: true, command: "sync", files: false)
      .operate(in: fixture.context)
    #expect(preview.added.count == 1 && preview.written.count == 1, "\(preview)")
    #expect(fixture.files == ["phone.ics"] && fixture.text("phone.ics").contains("SUMMARY:Call Bob"))
    #expect(try fixture.tasks(now: now).map(\.title) == ["Buy milk", "Call Bob"])
  }

  @Test func twoClocksStartedOnTwoMachinesLeaveTheLaterRunningWhenOneAtATime() throws {
    let fixture = try Fixture()
    _ = try TodoStore.add(TodoChanges(title: "Here"), now: now, command: "add").operate(in: fixture.context)
    _ = try TodoStore.start(.id(1), now: now, command: "start").operate(in: fixture.context)
    // Started there an hour later (a running interval, as todo writes it).
    let started = "20261121T103000Z"
    try fixture.write(
      item(uid: "5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93", summary: "There", status: "IN-PROCESS", extra: "X-TODO-INTERVAL:\(started)/\r\n"),
      to: "phone.ics")
    let report = try SyncEngine.merge(
      collection: "tasks", vdir: fixture.vdir, now: now + 7_200, force: false, apply: true, command: "sync", exclusiveClocks: true
    ).operate(in: fixture.context)
    #expect(report.warnings.contains { $0.contains("were both started") }, "\(report)")
    let tasks = try fixture.tasks(now: now + 7_200)
    #expect(tasks.map(\.isActive) == [false, true], "\(tasks.map(\.intervals))")
  }
}
