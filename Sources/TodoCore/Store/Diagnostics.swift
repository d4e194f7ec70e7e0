import DataOperation

/// What a bug report needs to know about a database (`todo diag`).
public struct DatabaseDiagnostics: Sendable, Equatable {
  /// The SQLite library's version (`3.40.1`).
  public var sqliteVersion: String
  /// The schema version of the database as read, and the one this program makes.
  public var schemaVersion: Int
  public var latestSchemaVersion: Int
  public var tasks: Int
  public var pending: Int
  public var journalEntries: Int
}

extension TodoStore {
  /// The SQLite version, the schema version and the number of tasks and undo steps.
  public static func diagnostics() -> DataOperation<DatabaseDiagnostics, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.first(
        """
        SELECT sqlite_version(), (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM todo),
          (SELECT count(*) FROM todo WHERE status = 'pending'), (SELECT count(*) FROM journal_entry)
        """, []
      ) { row throws(DatabaseError) in
        DatabaseDiagnostics(
          sqliteVersion: try row.text(at: 0) ?? "", schemaVersion: Int(try row.integer(at: 1) ?? 0),
          latestSchemaVersion: Schema.migrator.latestVersion, tasks: Int(try row.integer(at: 2) ?? 0),
          pending: Int(try row.integer(at: 3) ?? 0), journalEntries: Int(try row.integer(at: 4) ?? 0))
      }
        ?? DatabaseDiagnostics(
          sqliteVersion: "", schemaVersion: 0, latestSchemaVersion: Schema.migrator.latestVersion, tasks: 0, pending: 0, journalEntries: 0)
    }.mapError(TodoError.init)
  }
}
