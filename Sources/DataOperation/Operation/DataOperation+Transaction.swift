/// How an outermost transaction takes its locks.
public enum TransactionKind: String, Sendable {
  /// `BEGIN IMMEDIATE`: takes the write lock at once (waiting up to the busy timeout), so the
  /// work never fails half-way with "database is locked". For everything that writes.
  case immediate = "IMMEDIATE"
  /// `BEGIN DEFERRED`: a consistent read snapshot that blocks no writer. For read-only work.
  case deferred = "DEFERRED"
}

extension Connection {
  /// Runs `body` in a transaction: `BEGIN … COMMIT` at the outermost level, a savepoint
  /// when one is already open. Rolls back (to the savepoint) when `body` throws, and also when
  /// it succeeds if `commit` is false (a dry run: the value, none of the writes).
  func inTransaction<Value, Failure: DatabaseErrorConvertible>(
    kind: TransactionKind, commit: Bool = true, _ body: () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let depth = transactionDepth
    let savepoint = "dataoperation_\(depth)"
    do {
      try executeScript(depth == 0 ? "BEGIN \(kind.rawValue)" : "SAVEPOINT \(savepoint)")
    } catch {
      throw Failure(error)
    }
    transactionDepth += 1
    let value: Value
    do {
      value = try body()
    } catch {
      transactionDepth -= 1
      rollBack(depth: depth, savepoint: savepoint)
      throw error
    }
    transactionDepth -= 1
    guard commit else {
      // A dry run must not report success with its changes still pending.
      if let error = rollBack(depth: depth, savepoint: savepoint) { throw Failure(error) }
      return value
    }
    do {
      try executeScript(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
    } catch {
      rollBack(depth: depth, savepoint: savepoint)
      throw Failure(error)
    }
    return value
  }

  /// Rolls back to where `depth` began; the error, if rolling back failed (after a failure the
  /// caller already has an error to report and ignores this one).
  @discardableResult
  private func rollBack(depth: Int, savepoint: String) -> DatabaseError? {
    do {
      if depth == 0 {
        // SQLite may already have rolled back on its own (e.g. SQLITE_FULL): then there is nothing to undo.
        if !isAutocommit { try executeScript("ROLLBACK") }
      } else {
        try executeScript("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
      }
      return nil
    } catch {
      return error
    }
  }
}

extension DataOperation where Failure: DatabaseErrorConvertible {
  /// Runs this operation as one transaction (the seeds' `save()`): everything it wrote is committed
  /// together, or, when it fails, nothing is. Nested inside another transaction it becomes a savepoint.
  ///
  /// `kind` matters only for the outermost transaction: `.immediate` (the default) for work that
  /// writes, `.deferred` for a read snapshot that does not block writers.
  ///
  /// ```swift
  /// try Repository<Book>().add { $0.title = "Dune" }.transaction().operate(in: context)
  /// let books = try Repository<Book>().fetch().transaction(.deferred).operate(in: context)
  /// ```
  public func transaction(_ kind: TransactionKind = .immediate) -> DataOperation<Element, Failure> {
    DataOperation { connection throws(Failure) in
      try connection.inTransaction(kind: kind) { () throws(Failure) -> Element in try self.run(connection) }
    }
  }
}

extension DataOperation where Failure: DatabaseErrorConvertible {
  /// Runs this operation in a transaction that is always rolled back: it returns what the
  /// operation would return, and the database is left exactly as it was (`--dry-run`). Nested
  /// inside another transaction it becomes a savepoint that is rolled back.
  ///
  /// ```swift
  /// let wouldAdd = try Repository<Book>().add { $0.title = "Dune" }.rolledBack().operate(in: context)
  /// // wouldAdd.id is the id the book would get; the table is unchanged
  /// ```
  public func rolledBack(_ kind: TransactionKind = .immediate) -> DataOperation<Element, Failure> {
    DataOperation { connection throws(Failure) in
      try connection.inTransaction(kind: kind, commit: false) { () throws(Failure) -> Element in try self.run(connection) }
    }
  }
}

extension DataOperation where Failure == Never {
  /// Runs an infallible operation as one transaction; beginning or committing can still fail.
  ///
  /// ```swift
  /// let result: DataOperation<Int, DatabaseError> = DataOperation<Int, Never>.pure(1).transaction()
  /// ```
  public func transaction(_ kind: TransactionKind = .immediate) -> DataOperation<Element, DatabaseError> {
    setFailureType(to: DatabaseError.self).transaction(kind)
  }
}
