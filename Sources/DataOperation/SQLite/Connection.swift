import CSQLite

/// The SQLite connection: the one type that holds the `sqlite3*` handle.
///
/// A `Database` owns it and lends it to operations, one at a time; it is not `Sendable` and never
/// leaves the closure it is lent to. Statements are prepared once per SQL text and reused.
///
/// ```swift
/// let insert = DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
///   try connection.execute("INSERT INTO book (title) VALUES (?)", [.text("Dune")])
/// }
/// ```
public final class Connection {
  let handle: OpaquePointer
  // The statement caches and `Statement.isBusy` are read on every statement run; a connection
  // is only ever used by one thread at a time (its context's queue), so their accesses skip the
  // run-time exclusivity check (a sixth of the data layer's own cost per insert).
  @exclusivity(unchecked) private var statements: [String: Statement] = [:]
  /// The last few statements lent, newest last (see `statement(for:)`).
  @exclusivity(unchecked) private var recentStatements: [Statement] = []
  private static let recentLimit = 4
  /// The statement lent last and its SQL, checked before anything else: a loop runs the same
  /// statement again and again, and the same string compares as one word.
  @exclusivity(unchecked) private var lastSQL = ""
  @exclusivity(unchecked) private var lastStatement: Statement?

  /// How many prepared statements the cache keeps before it starts again.
  static let statementCacheLimit = 64
  /// How many transactions (outermost plus savepoints) are open on this connection.
  public internal(set) var transactionDepth = 0

  init(handle: OpaquePointer) {
    self.handle = handle
  }

  deinit {
    statements.removeAll()
    recentStatements.removeAll()
    lastStatement = nil
    sqlite3_close_v2(handle)
  }

  static func error(code: Int32, handle: OpaquePointer?, sql: String?) -> SQLiteError {
    let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
    // Use SQLite's message for the code we got; sqlite3_errmsg may describe a later call.
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    let useExtended = (extended & 0xFF) == (code & 0xFF) ? extended : code
    let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
    return SQLiteError(extendedCode: useExtended, message: message, sql: sql, systemErrorNumber: systemError)
  }

  private func failure(_ code: Int32, _ sql: String?) -> DatabaseError {
    .sqlite(Connection.error(code: code, handle: handle, sql: sql))
  }

  /// A cached prepared statement for `sql`, or a fresh one when the cached one is in use.
  private func statement(for sql: String) throws(DatabaseError) -> Statement {
    if sql == lastSQL, let last = lastStatement, !last.isBusy { return last }
    let statement = try cachedOrNewStatement(for: sql)
    lastSQL = sql
    lastStatement = statement
    return statement
  }

  private func cachedOrNewStatement(for sql: String) throws(DatabaseError) -> Statement {
    // The statements used last, checked before the dictionary: a loop runs the same few again
    // and again, and comparing a string with itself is a pointer check, not a hash.
    // The length is compared first: different SQL of another length costs no string comparison.
    let length = sql.utf8.count
    for recent in recentStatements where recent.sql.utf8.count == length && recent.sql == sql && !recent.isBusy {
      return recent
    }
    if let cached = statements[sql], !cached.isBusy {
      remember(cached)
      return cached
    }
    var pointer: OpaquePointer?
    let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
    guard code == SQLITE_OK, let pointer else {
      if let pointer { sqlite3_finalize(pointer) }
      throw failure(code, sql)
    }
    let statement = Statement(handle: pointer, sql: sql)
    if statements.count >= Self.statementCacheLimit {
      // Filters make many shapes of SQL; a long session must not keep every one of them.
      statements = statements.filter { $0.value.isBusy }
      recentStatements = recentStatements.filter(\.isBusy)
    }
    if statements[sql] == nil { statements[sql] = statement }
    remember(statement)
    return statement
  }

  /// Keeps `statement` among the few checked first.
  private func remember(_ statement: Statement) {
    if recentStatements.count == Self.recentLimit { recentStatements.removeFirst() }
    recentStatements.append(statement)
  }

  private func step<Failure: Error>(
    _ statement: Statement, wrap: (DatabaseError) -> Failure, _ body: (Row) throws(Failure) -> Void
  ) throws(Failure) {
    statement.isBusy = true
    defer {
      sqlite3_reset(statement.handle)
      statement.isBusy = false
    }
    var isFirstRow = true
    while true {
      let code = sqlite3_step(statement.handle)
      if code == SQLITE_ROW {
        if isFirstRow {
          statement.forgetStaleColumnNames()
          isFirstRow = false
        }
        try body(Row(statement: statement))
      } else if code == SQLITE_DONE {
        return
      } else {
        throw wrap(failure(code, statement.sql))
      }
    }
  }

  /// Runs a statement that returns no rows (a write) to its end. Rows it does return are stepped
  /// over, unread.
  private func run(_ statement: Statement) throws(DatabaseError) {
    statement.isBusy = true
    defer {
      sqlite3_reset(statement.handle)
      statement.isBusy = false
    }
    var code = sqlite3_step(statement.handle)
    while code == SQLITE_ROW { code = sqlite3_step(statement.handle) }
    guard code == SQLITE_DONE else { throw failure(code, statement.sql) }
  }

  /// Runs one statement that returns no rows, with arguments bound by position.
  ///
  /// ```swift
  /// try connection.execute("UPDATE book SET title = ? WHERE id = ?", [.text("Emma"), .integer(1)])
  /// ```
  /// - Throws: `DatabaseError.sqlite` with the extended code, message and SQL.
  public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws(DatabaseError) {
    let statement = try statement(for: sql)
    try statement.bind(arguments, connection: handle)
    try run(statement)
  }

  /// Runs one statement that returns no rows, binding the values of `columns` by position and
  /// then `key`, if any, without copying them into an array first (the repository's writes).
  func execute(_ sql: String, columns: Columns, key: SQLValue?) throws(DatabaseError) {
    let statement = try statement(for: sql)
    if let key {
      try statement.bind(columns.values.lazy.map(\.value) + CollectionOfOne(key), connection: handle)
    } else {
      try statement.bind(columns.values.lazy.map(\.value), connection: handle)
    }
    try run(statement)
  }

  /// Runs a write whose parameters are `names`, in order, and then `key` if any: `encode`
  /// sets the columns, each bound into the statement as it is set (no array, no copy). Returns
  /// false, having run nothing, when `encode` wrote other columns than `names` (the caller then
  /// collects them and builds the SQL for what was written).
  /// - Throws: `DatabaseError` when a value cannot be bound or the statement fails.
  func executeBinding(
    _ sql: String, expecting names: [String], key: Int64?, _ encode: (inout Columns) -> Void
  ) throws(DatabaseError) -> Bool {
    let statement = try statement(for: sql)
    try statement.checkArgumentCount(names.count + (key == nil ? 0 : 1))
    var columns = Columns(binding: statement, expecting: names)
    statement.isBusy = true
    encode(&columns)
    statement.isBusy = false
    guard columns.isExpectedShape else { return false }
    guard columns.bindingFailure == SQLITE_OK else { throw failure(columns.bindingFailure, sql) }
    if let key { try statement.bind(.integer(key), at: Int32(names.count + 1), connection: handle) }
    try run(statement)
    return true
  }

  /// Runs one statement that returns no rows, with arguments bound by name.
  ///
  /// ```swift
  /// try connection.execute("DELETE FROM book WHERE id = :id", named: ["id": .integer(3)])
  /// ```
  /// - Throws: `DatabaseError.sqlite`.
  public func execute(_ sql: String, named arguments: [String: SQLValue]) throws(DatabaseError) {
    let statement = try statement(for: sql)
    try statement.bind(named: arguments, connection: handle)
    try run(statement)
  }

  /// Runs several `;`-separated statements without arguments (schema scripts), uncached.
  ///
  /// ```swift
  /// try connection.executeScript("CREATE TABLE a (x); CREATE TABLE b (y);")
  /// ```
  /// - Throws: `DatabaseError.sqlite`.
  public func executeScript(_ sql: String) throws(DatabaseError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if let message { sqlite3_free(message) }
    guard code == SQLITE_OK else { throw failure(code, sql) }
  }

  /// Steps through the rows of a query, lending each row to `body`.
  ///
  /// ```swift
  /// try connection.query("SELECT title FROM book WHERE year > ?", [.integer(1900)]) { row throws(DatabaseError) in
  ///   print(try row.string("title"))
  /// }
  /// ```
  /// - Throws: `DatabaseError.sqlite`, or whatever `body` throws.
  public func query(
    _ sql: String, _ arguments: [SQLValue] = [], _ body: (Row) throws(DatabaseError) -> Void
  ) throws(DatabaseError) {
    let statement = try statement(for: sql)
    try statement.bind(arguments, connection: handle)
    try step(statement, wrap: { (error: DatabaseError) in error }, body)
  }

  /// Steps through the rows of a query with a domain's own failure type.
  ///
  /// ```swift
  /// try connection.query("SELECT * FROM todo", [], failure: AppError.self) { row throws(AppError) in … }
  /// ```
  /// - Throws: `Failure`, wrapping SQLite's failures through `DatabaseErrorConvertible`.
  public func query<Failure: DatabaseErrorConvertible>(
    _ sql: String, _ arguments: [SQLValue] = [], failure: Failure.Type,
    _ body: (Row) throws(Failure) -> Void
  ) throws(Failure) {
    let statement: Statement
    do {
      statement = try self.statement(for: sql)
      try statement.bind(arguments, connection: handle)
    } catch {
      throw Failure(error)
    }
    try step(statement, wrap: { Failure($0) }, body)
  }

  /// Every row of a query, decoded by `decode`.
  ///
  /// ```swift
  /// let titles = try connection.all("SELECT title FROM book") { row throws(DatabaseError) in try row.string("title") }
  /// ```
  /// - Throws: `DatabaseError`.
  public func all<Value>(
    _ sql: String, _ arguments: [SQLValue] = [], _ decode: (Row) throws(DatabaseError) -> Value
  ) throws(DatabaseError) -> [Value] {
    var values: [Value] = []
    try query(sql, arguments) { row throws(DatabaseError) in values.append(try decode(row)) }
    return values
  }

  /// The first row of a query decoded by `decode`, or nil when there is none.
  ///
  /// ```swift
  /// let book = try connection.first("SELECT * FROM book WHERE id = ?", [.integer(1)], Book.init(row:))
  /// ```
  /// - Throws: `DatabaseError`.
  public func first<Value>(
    _ sql: String, _ arguments: [SQLValue] = [], _ decode: (Row) throws(DatabaseError) -> Value
  ) throws(DatabaseError) -> Value? {
    try first(sql, binding: arguments, decode)
  }

  /// `first(_:_:_:)` with the arguments in any collection (`CollectionOfOne(.integer(id))` for a
  /// look-up by key, which needs no array).
  func first<Value>(
    _ sql: String, binding arguments: some Collection<SQLValue>, _ decode: (Row) throws(DatabaseError) -> Value
  ) throws(DatabaseError) -> Value? {
    let statement = try statement(for: sql)
    try statement.bind(arguments, connection: handle)
    statement.isBusy = true
    defer {
      sqlite3_reset(statement.handle)
      statement.isBusy = false
    }
    // Only the first row is wanted: step once, not through the whole result.
    let code = sqlite3_step(statement.handle)
    if code == SQLITE_ROW {
      statement.forgetStaleColumnNames()
      return try decode(Row(statement: statement))
    }
    if code == SQLITE_DONE { return nil }
    throw failure(code, sql)
  }

  /// The first column of the first row, or `.null` when there is no row.
  ///
  /// ```swift
  /// let count = try connection.scalar("SELECT count(*) FROM book")   // .integer(3)
  /// ```
  /// - Throws: `DatabaseError`.
  public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(DatabaseError) -> SQLValue {
    try first(sql, arguments) { row in row[0] } ?? .null
  }

  /// The rowid of the last row inserted on this connection.
  public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The number of rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// True when no transaction is open (SQLite's autocommit mode).
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
