import DataOperation
import Foundation
import Testing
import TodoCore

/// A database that cannot grow (SQLite's `max_page_count`, the way it runs out of room short of
/// a full disk): a write that needs a page more fails as `SQLITE_FULL`, recognised as a full disk,
/// and leaves every task as it was, in the file too. (EndToEndDiskFullTests fill a real file
/// system under the binary.)
@Suite struct DatabaseFullTests {
  func setPageLimit(_ context: Database, toCurrentPlus extra: Int64) throws -> Int64 {
    try DataOperation<Int64, DatabaseError> { connection throws(DatabaseError) in
      guard case .integer(let pages) = try connection.scalar("PRAGMA page_count") else { return -1 }
      try connection.execute("PRAGMA max_page_count = \(pages + extra)")
      return pages
    }.operate(in: context)
  }

  func integrity(_ context: Database) throws -> String {
    try DataOperation<String, DatabaseError> { connection throws(DatabaseError) in
      guard case .text(let text) = try connection.scalar("PRAGMA integrity_check") else { return "?" }
      return text
    }.operate(in: context)
  }

  @Test func aWriteTheDatabaseHasNoRoomForFailsAsDiskFullAndChangesNothing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-full-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("todo.db").path
    let context = try TodoDatabase.open(path: path)
    for index in 1...5 { try addTask("Task \(index)", in: context) { $0.addTags = ["kept"] } }
    let before = try snapshot(context)
    let pages = try setPageLimit(context, toCurrentPlus: 3)
    #expect(pages > 0)

    // A title of 60 KB needs some 15 overflow pages, more than the 3 the file may still grow by.
    var failure: TodoError?
    do {
      try addTask(String(repeating: "x", count: 60_000), in: context) { $0.addTags = ["new"] }
    } catch {
      failure = error as? TodoError
    }
    guard case .database(.sqlite(let error)) = failure else {
      Issue.record("expected an SQLite failure, got \(String(describing: failure))")
      return
    }
    #expect(error.primaryCode == SQLiteError.full, "\(error)")
    #expect(error.isDiskFull)
    // Nothing of the failed command is there; the database still reads and passes its check.
    #expect(try snapshot(context) == before)
    #expect(try integrity(context) == "ok")
    // A small change still fits: the limit refused the large one, not every write.
    var high = TodoChanges()
    high.priority = .set(.high)
    _ = try TodoStore.update(select { $0.includeTags = ["kept"] }, high, now: storeNow, command: "update").operate(in: context)

    // Opened again, without the limit (it lasts as long as the connection): everything is there,
    // and the database grows again.
    let reopened = try TodoDatabase.open(path: path)
    let after = try snapshot(reopened)
    #expect(after.map(\.title) == before.map(\.title))
    #expect(after.allSatisfy { $0.priority == .high })
    try addTask(String(repeating: "y", count: 60_000), in: reopened)
    #expect(try snapshot(reopened).count == before.count + 1)
    #expect(try integrity(reopened) == "ok")
  }
}
