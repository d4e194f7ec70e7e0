/// One step of a schema's history.
///
/// ```swift
/// let first = Migration(version: 1, sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// ```
public struct Migration: Sendable {
  /// The schema version after this step (1 for the first).
  public let version: Int
  let operation: DataOperation<Void, DatabaseError>

  /// A step that runs an SQL script.
  public init(version: Int, sql: String) {
    self.version = version
    self.operation = DataOperation { connection throws(DatabaseError) in try connection.executeScript(sql) }
  }

  /// A step that runs arbitrary work (data moves, backfills).
  public init(version: Int, _ operation: DataOperation<Void, DatabaseError>) {
    self.version = version
    self.operation = operation
  }
}

/// Brings a database's schema up to date, keyed on `PRAGMA user_version`.
///
/// Each step runs in its own transaction together with the version bump, so a crash leaves the
/// database at a whole version. A database whose version is newer than the last step is refused
/// with `DatabaseError.schemaTooNew` and left untouched; an up-to-date one is not written at all.
///
/// ```swift
/// let migrator = Migrator([Migration(version: 1, sql: "CREATE TABLE book (id INTEGER PRIMARY KEY)")])
/// try migrator.migrate().operate(in: context)
/// ```
public struct Migrator: Sendable {
  /// The steps, in version order.
  public let migrations: [Migration]

  /// A migrator for steps numbered 1, 2, 3… in order.
  public init(_ migrations: [Migration]) {
    precondition(
      migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version },
      "migrations must be numbered 1, 2, 3… in order")
    self.migrations = migrations
  }

  /// The version the last step reaches.
  public var latestVersion: Int { migrations.count }

  /// Reads the database's schema version.
  ///
  /// ```swift
  /// let version = try Migrator.currentVersion().operate(in: context)
  /// ```
  public static func currentVersion() -> DataOperation<Int, DatabaseError> {
    DataOperation { connection throws(DatabaseError) in
      Int(sqlValue: try connection.scalar("PRAGMA user_version")) ?? 0
    }
  }

  /// Runs the missing steps; returns the version reached.
  ///
  /// ```swift
  /// let version = try migrator.migrate().operate(in: context)   // 3
  /// ```
  public func migrate() -> DataOperation<Int, DatabaseError> {
    let migrations = self.migrations
    let latest = latestVersion
    return Migrator.currentVersion().flatMap { version in
      if version == latest { return .pure(version) }
      if version > latest { return .fail(.schemaTooNew(found: version, supported: latest)) }
      return DataOperation { connection throws(DatabaseError) in
        while true {
          let reached = try DataOperation<Int, DatabaseError> { connection throws(DatabaseError) in
            // Read again inside the write lock: another process may have migrated meanwhile.
            let current = Int(sqlValue: try connection.scalar("PRAGMA user_version")) ?? 0
            if current > latest { throw .schemaTooNew(found: current, supported: latest) }
            guard current < latest else { return current }
            try migrations[current].operation.run(connection)
            try connection.executeScript("PRAGMA user_version = \(current + 1)")
            return current + 1
          }.transaction().run(connection)
          if reached == latest { return reached }
        }
      }
    }
  }
}
