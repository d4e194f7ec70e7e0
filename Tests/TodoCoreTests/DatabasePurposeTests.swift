import DataOperation
import Foundation
import Testing
import TodoCore

/// `TodoDatabase.open(for:)`: what each purpose does to a file that is there, or is not.
@Suite struct DatabasePurposeTests {
  let folder: String

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-purpose-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  func count(_ database: Database) throws -> Int {
    try TodoStore.list(select { $0.status = .all }, sort: [], now: storeNow).operate(in: database).count
  }

  @Test func readingAndDryRunsOfAMissingFileCreateNothing() throws {
    let path = folder + "/missing/todo.db"
    for purpose in [TodoDatabase.Purpose.read, .dryRun] {
      let opened = try TodoDatabase.open(for: purpose, path: path, isDefault: true)
      #expect(try count(opened.database) == 0)
      #expect(!opened.keepsOpen, "an empty stand-in is not kept for the next command")
      #expect(!exists(folder + "/missing"), "\(purpose) made the folder")
    }
    #expect(throws: TodoDatabase.OpenFailure.self) { try TodoDatabase.open(for: .completion, path: path, isDefault: true) }
    #expect(!exists(folder + "/missing"))
  }

  @Test func aWriteCreatesTheDefaultFolderAndAPrivateFile() throws {
    let path = folder + "/made/todo.db"
    let opened = try TodoDatabase.open(for: .write, path: path, isDefault: true)
    #expect(opened.keepsOpen && !opened.readOnlyFile)
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    #expect(mode == 0o600)
    // A path that is not the default one gets no folder made for it.
    #expect(throws: TodoDatabase.OpenFailure.self) { try TodoDatabase.open(for: .write, path: folder + "/other/todo.db", isDefault: false) }
    #expect(!exists(folder + "/other"))
  }

  /// A command's file is read through a memory map of its first 8 MiB (the kernel's pages, no
  /// copy: a list of 10k tasks took 23% fewer page faults). A file opened to be read as it is
  /// (completion, `check`, `recover`: maybe damaged) is not: a read error there must stay an
  /// error, not a SIGBUS.
  @Test func aCommandsFileIsReadThroughAMemoryMapAndADamagedOnesIsNot() throws {
    let path = folder + "/mapped.db"
    _ = try TodoDatabase.open(for: .write, path: path, isDefault: false)
    func mapSize(_ database: Database) throws -> SQLValue {
      try DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
        try connection.scalar("PRAGMA mmap_size")
      }.operate(in: database)
    }
    for purpose in [TodoDatabase.Purpose.read, .write, .dryRun, .completion] {
      let opened = try TodoDatabase.open(for: purpose, path: path, isDefault: false)
      #expect(try mapSize(opened.database) == .integer(purpose == .completion ? 0 : 8 << 20), "\(purpose)")
    }
    #expect(try mapSize(TodoDatabase.openUnchanged(path: path)) == .integer(0))
  }

  @Test func aFolderIsRefusedForEveryPurpose() throws {
    for purpose in [TodoDatabase.Purpose.read, .write, .dryRun] {
      do {
        _ = try TodoDatabase.open(for: purpose, path: folder, isDefault: false)
        Issue.record("\(purpose) opened a folder")
      } catch {
        guard case .unusable(_, let reason) = error else { Issue.record("\(purpose): \(error)"); continue }
        #expect(reason.hasPrefix("it is a directory"))
      }
    }
  }
}
