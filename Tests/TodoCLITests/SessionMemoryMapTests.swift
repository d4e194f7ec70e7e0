import DataOperation
import Foundation
import Testing

@testable import TodoCLI

/// A command line run once reads its file through a memory map; a session that stays (the shell,
/// the full-screen interface) does not, so that the file's pages are not held resident while
/// it runs, and drops a connection it opened mapped.
@Suite struct SessionMemoryMapTests {
  func mapSize(_ database: Database) throws -> SQLValue {
    try DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
      try connection.scalar("PRAGMA mmap_size")
    }.operate(in: database)
  }

  @Test func aSessionThatStaysOpenReadsItsFileWithoutTheMap() throws {
    var template = Array((NSTemporaryDirectory() + "todo-map.XXXXXX").utf8CString)
    let folder = String(cString: try #require(mkdtemp(&template)))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/todo.db"
    let session = Session(environment: ["HOME": folder, "TZ": "UTC"], standardOutput: .memory(), standardError: .memory())
    _ = try session.context(path: path, readOnly: false)
    // A session that has not run a write yet keeps a dry run's connection of its own.
    let other = Session(environment: ["HOME": folder, "TZ": "UTC"], standardOutput: .memory(), standardError: .memory())
    let dryRun = try other.dryRunContext(path: path)
    #expect(try mapSize(dryRun) == .integer(8 << 20))
    other.staysOpen()
    let dryRunAgain = try other.dryRunContext(path: path)
    #expect(dryRunAgain !== dryRun, "the mapped dry run's connection is opened again")
    #expect(try mapSize(dryRunAgain) == .integer(0))

    let once = try session.context(path: path, readOnly: false)
    #expect(try mapSize(once) == .integer(8 << 20))
    session.staysOpen()
    let staying = try session.context(path: path, readOnly: true)
    #expect(staying !== once, "the mapped connection is opened again")
    #expect(try mapSize(staying) == .integer(0))
  }
}
