import DataOperation

/// Every way a todo operation can fail. The command line renders these once, at the top.
///
/// ```swift
/// catch .notFound(let what) { print("no \(what)") }
/// ```
public enum TodoError: Error, Equatable, Sendable, DatabaseErrorConvertible, CustomStringConvertible {
  /// The database refused (locked past the timeout, read-only, corrupt, too new…).
  case database(DatabaseError)
  /// A task named by id or UUID does not exist (`"task 42"`).
  case notFound(String)
  /// A UUID prefix matches several tasks.
  case ambiguous(prefix: String, count: Int)
  /// The selection matched no task.
  case noMatch
  /// The journal is empty.
  case nothingToUndo
  /// A value the user gave is not acceptable (a usage error): a tag, a date, a title.
  case invalid(String)
  /// Links that would make a cycle: a task depending on, blocking or parenting itself through
  /// others (a usage error).
  case cycle(String)
  /// A note number the task does not have (a usage error).
  case noSuchNote(String)
  /// The tasks a change was confirmed for are no longer the ones it would change (another
  /// process changed them while the question waited); nothing was written.
  case selectionChanged
  /// The task's status does not allow the change: starting a done task, purging a pending one,
  /// a reminder for a closed task.
  case wrongStatus(String)
  /// A series' rule stands against the change: `--series` on a task that does not recur, two
  /// pending instances of one series.
  case series(String)
  /// `stop` with no id while no task is being worked on.
  case nothingActive
  /// A sync would delete most tasks on one side; `--force` lets it.
  case needsForce(String)
  /// The sync's vdir (its folder of files) cannot be read or written.
  case vdir(String)
  /// The change cannot be made to the tasks as they are now (another command changed the task
  /// while it was edited).
  case refused(String)
  /// Completing or deleting parents whose subtasks are still open: `withSubtasks` would close
  /// them too (`--yes`, or a yes on a terminal).
  case openSubtasks(parents: [Int64], subtasks: [Int64])

  public init(_ databaseError: DatabaseError) {
    if case .notFound(let table, let key) = databaseError, table == Todo.tableName {
      self = .notFound("task \(key)")
    } else {
      self = .database(databaseError)
    }
  }

  /// True for mistakes in what the user typed (exit status 2), false for run-time failures (1).
  public var isUsageError: Bool {
    switch self {
    case .invalid, .cycle, .noSuchNote: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .database(let error): "database: \(error)"
    case .notFound(let what): "no \(what)"
    case .ambiguous(let prefix, let count): "UUID prefix '\(prefix)' matches \(count) tasks; type more of it"
    case .noMatch: "no task matches"
    case .nothingToUndo: "nothing to undo"
    case .invalid(let reason), .cycle(let reason), .noSuchNote(let reason): reason
    case .selectionChanged: "the tasks changed while the question waited, so nothing was changed"
    case .wrongStatus(let reason), .series(let reason), .needsForce(let reason), .vdir(let reason), .refused(let reason): reason
    case .nothingActive: "no task is active: start one with todo start ID"
    case .openSubtasks(let parents, let subtasks):
      "\(parents.count == 1 ? "task \(parents[0]) has" : "tasks \(Self.list(parents)) have") \(subtasks.count) open subtask\(subtasks.count == 1 ? "" : "s") "
        + "(\(Self.list(subtasks))); give --yes to close \(subtasks.count == 1 ? "it" : "them") too, or close \(subtasks.count == 1 ? "it" : "them") first"
    }
  }

  /// `3, 5, 8` (at most 10, then `…`).
  static func list(_ ids: [Int64]) -> String {
    ids.prefix(10).map(String.init).joinedText(", ") + (ids.count > 10 ? ", …" : "")
  }
}
