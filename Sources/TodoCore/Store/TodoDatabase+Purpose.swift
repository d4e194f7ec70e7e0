import DataOperation
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// How a command's database file is opened, by what it is opened for: the one place that decides
/// which files are refused, when a missing file is read as an empty database in memory, when a
/// file is read immutable, and when it is created (private to its owner). A front end finds the
/// path (from its options and environment) and may keep what this opens for its next command.
extension TodoDatabase {
  /// What a database is opened for.
  public enum Purpose: Sendable, Equatable {
    /// A command that only reads: a missing file reads as an empty database (nothing is
    /// created); a file this user may not write is read as it is.
    case read
    /// A command that writes: the file (and, for the default path, its folder) is created and
    /// upgraded.
    case write
    /// A dry run: the file exactly as it is, not switched to WAL nor upgraded (the operation
    /// upgrades it inside its rolled-back transaction); a missing file reads as an empty one.
    case dryRun
    /// Completion: an existing file as it is, never created, upgraded or switched to WAL.
    case completion
  }

  /// Why a database could not be opened.
  public enum OpenFailure: Error, Sendable {
    /// There is no database to open (`completion` without a file).
    case missing
    /// The default path's folder cannot be made (the sentence says why).
    case folder(String)
    /// The file cannot be used, for a reason found before SQLite opened it (a folder, a link
    /// another user planted, a read-only file for a write).
    case unusable(path: String, reason: String)
    /// SQLite or the schema refused it (locked, damaged, not a todo database, too new).
    case database(path: String, DatabaseError)
    /// Any other failure of the core's.
    case domain(TodoError)
  }

  /// A database opened for a purpose.
  public struct Opened {
    public let database: Database
    /// Whether the file can serve the session's next commands: not a stand-in in memory, nor an
    /// immutable view (right only while nothing writes the file).
    public let keepsOpen: Bool
    /// Whether the file was opened read-only (this user may not write it, or the disk is full):
    /// a command that writes must open it again, and gets the reason it cannot.
    public let readOnlyFile: Bool
  }

  /// Opens the database at `path` for `purpose`; `isDefault`: the path is the default one, whose
  /// folder may be created; `mapped` false reads it without the memory map (`mappedBytes`), for
  /// a session that stays open.
  public static func open(for purpose: Purpose, path: String, isDefault: Bool, mapped: Bool = true) throws(OpenFailure) -> Opened {
    switch purpose {
    case .completion:
      guard FileSystem.exists(path), !FileSystem.isDirectory(path) else { throw .missing }
      try refuseUnusable(path)
      // Read-only makes no change, but on a WAL database SQLite still creates -wal and -shm
      // files, which may then outlive a chmod or belong to the wrong user: see `openUnchanged`.
      do throws(TodoError) {
        return Opened(database: try openUnchanged(path: path), keepsOpen: true, readOnlyFile: true)
      } catch {
        throw failure(error, path: path)
      }
    case .dryRun:
      try refuseUnusable(path)
      guard FileSystem.exists(path) else { return try inMemory(shownAs: path) }
      guard FileSystem.isWritable(path) else {
        throw .unusable(path: path, reason: "the file is read-only, so it cannot be changed (chmod u+w makes it writable)")
      }
      return Opened(
        database: try opened(path, readOnly: false, immutable: false, upgrade: false, mapped: mapped), keepsOpen: true, readOnlyFile: false)
    case .read, .write:
      return try openFile(path, readOnly: purpose == .read, isDefault: isDefault, mapped: mapped)
    }
  }

  /// The file for a command that reads or writes.
  private static func openFile(_ path: String, readOnly: Bool, isDefault: Bool, mapped: Bool) throws(OpenFailure) -> Opened {
    try refuseUnusable(path)
    if readOnly && !FileSystem.exists(path) { return try inMemory(shownAs: path) }
    if isDefault, let problem = FileSystem.createParentFolders(of: path) { throw .folder(problem) }
    let folder = FileSystem.folder(of: path)
    guard FileSystem.exists(folder) else {
      throw .unusable(path: path, reason: "the folder \(folder) does not exist")
    }
    var readOnlyFile = false
    var immutable = false
    if FileSystem.exists(path) && !FileSystem.isWritable(path) {
      // Opening it read-write would leave journal files behind that outlive a later chmod.
      guard readOnly else {
        throw .unusable(path: path, reason: "the file is read-only, so it cannot be changed (chmod u+w makes it writable)")
      }
      readOnlyFile = true
      // Without a write-ahead log in use, read it as immutable: no -wal/-shm files are created
      // to outlive a later chmod. With one (its owner is writing), read it the normal way.
      immutable = hasNoLog(path)
    } else {
      // A new database is private to its owner (SQLite would create it 0644).
      FileSystem.createPrivateFile(path)
    }
    let database: Database
    do throws(OpenFailure) {
      database = try opened(path, readOnly: readOnlyFile, immutable: immutable, mapped: mapped)
    } catch .database(_, .sqlite(let error))
      where readOnly && (error.isDiskFull || error.extendedCode == SQLiteError.readOnlyDirectory) && logIsEmpty(path)
    {
      // A full disk, or a folder this user may not write, leaves no way to make the -shm file a
      // WAL database needs even to read: the file is read as it is (see `logIsEmpty`).
      return Opened(database: try opened(path, readOnly: true, immutable: true, mapped: mapped), keepsOpen: false, readOnlyFile: true)
    }
    return Opened(database: database, keepsOpen: !immutable, readOnlyFile: readOnlyFile)
  }

  /// An empty database in memory, for reading a file that does not exist yet: nothing is created.
  private static func inMemory(shownAs path: String) throws(OpenFailure) -> Opened {
    Opened(database: try opened(":memory:", readOnly: false, immutable: false, shownAs: path), keepsOpen: false, readOnlyFile: false)
  }

  /// Refuses a database path that is a folder, a link another user planted, a file (or journal
  /// file) another user owns, or a file in a folder others may write (`FileSystem.databaseTarget`).
  private static func refuseUnusable(_ path: String) throws(OpenFailure) {
    if FileSystem.isDirectory(path) {
      throw .unusable(path: path, reason: "it is a directory; give a file path")
    }
    if case .failure(let problem) = FileSystem.databaseTarget(path) {
      throw .unusable(path: path, reason: problem.reason)
    }
  }

  /// Opens the file, taking turns with other processes opening it. Their first steps on a new
  /// file (the switch to WAL, the first migration) can meet each other's locks where SQLite
  /// answers "busy" at once rather than wait (waiting there could deadlock): four shells started
  /// together on a new file lost their first lines so (CI, under load). A busy open is tried
  /// again every 2 ms, for up to 5 seconds, the time a write waits for a lock.
  private static func opened(
    _ path: String, readOnly: Bool, immutable: Bool, upgrade: Bool = true, mapped: Bool = true, shownAs shown: String? = nil
  ) throws(OpenFailure) -> Database {
    var giveUp: Double?
    while true {
      do throws(TodoError) {
        return try open(path: path, readOnly: readOnly, immutable: immutable, upgrade: upgrade, mapped: mapped)
      } catch .database(.sqlite(let error)) where error.primaryCode == SQLiteError.busy {
        let now = ChildProcess.monotonicSeconds()
        let deadline = giveUp ?? now + 5
        giveUp = deadline
        guard now < deadline else { throw failure(.database(.sqlite(error)), path: shown ?? path) }
        usleep(2_000)
      } catch {
        throw failure(error, path: shown ?? path)
      }
    }
  }

  private static func failure(_ error: TodoError, path: String) -> OpenFailure {
    if case .database(let error) = error { return .database(path: path, error) }
    return .domain(error)
  }
}

extension TodoDatabase {
  /// How a command's one operation runs: its transaction, and what comes with it.
  public enum Transaction: Sendable, Equatable {
    /// A snapshot that blocks no writer.
    case read
    /// The write lock taken up front, the planner's statistics kept fresh, committed.
    case write
    /// What would happen, rolled back: on a file not upgraded (a dry run), the operation upgrades
    /// it first inside the transaction. `writes`: the write lock is taken up front (a change's
    /// preview, or a dry run of one), so that the write that follows sees the same tasks.
    case rolledBack(writes: Bool)
  }

  /// Runs a command's one operation as one transaction on `database`. TodoStore's mutations are
  /// atomic on their own as well (for other callers); inside this one they become a savepoint, a
  /// negligible cost.
  public static func run<Value: Sendable>(
    _ operation: DataOperation<Value, TodoError>, _ transaction: Transaction, in database: Database
  ) throws(TodoError) -> Value {
    switch transaction {
    case .read: return try operation.transaction(.deferred).operate(in: database)
    case .write:
      // The planner's statistics are kept fresh in the transaction of a write, never in a read.
      return try operation.flatMap { value in PlannerStatistics.refresh().map { value } }.transaction(.immediate).operate(in: database)
    case .rolledBack(let writes): return try upgraded(operation).rolledBack(writes ? .immediate : .deferred).operate(in: database)
    }
  }
}
