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
  /// A value the user gave is not acceptable (a usage error).
  case invalid(String)
  /// The tasks a change was confirmed for are no longer the ones it would change (another
  /// process changed them while the question waited); nothing was written.
  case selectionChanged
  /// The change cannot be made to the tasks as they are (`task 4 is not active`).
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
    if case .invalid = self { return true }
    return false
  }

  public var description: String {
    switch self {
    case .database(let error): "database: \(error)"
    case .notFound(let what): "no \(what)"
    case .ambiguous(let prefix, let count): "UUID prefix '\(prefix)' matches \(count) tasks; type more of it"
    case .noMatch: "no task matches"
    case .nothingToUndo: "nothing to undo"
    case .invalid(let reason): reason
    case .selectionChanged: "the tasks changed while the question waited, so nothing was changed"
    case .refused(let reason): reason
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
