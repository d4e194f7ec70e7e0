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
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-map-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/todo.db"
    let session = Session(environment: ["HOME": folder, "TZ": "UTC"], standardOutput: .memory(), standardError: .memory())
    let once = try session.context(path: path, readOnly: false)
    #expect(try mapSize(once) == .integer(8 << 20))
    session.staysOpen()
    let staying = try session.context(path: path, readOnly: true)
    #expect(staying !== once, "the mapped connection is opened again")
    #expect(try mapSize(staying) == .integer(0))
    #expect(try mapSize(session.dryRunContext(path: path)) == .integer(0))
  }
}
