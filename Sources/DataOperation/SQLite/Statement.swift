import CSQLite

/// A prepared statement, owned by its `Connection` (which caches it by SQL text).
///
/// Never leaves the closure that lent it; not `Sendable`.
final class Statement {
  let handle: OpaquePointer
  let sql: String
  /// True while a query is stepping through it, so that a nested use of the same SQL prepares a
  /// fresh statement instead of resetting the one in use.
  @exclusivity(unchecked) var isBusy = false
  /// The result columns' names, read once; a linear search of a dozen short names is faster
  /// than hashing the name for a dictionary.
  private var columnNames: [String]?
  /// How many `?` parameters the statement has.
  let parameterCount: Int

  init(handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
    self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
  }

  deinit { sqlite3_finalize(handle) }

  var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The index of a result column by name (case-sensitive, as SQL names it), built once.
  func index(ofColumn name: String) -> Int32? {
    if columnNames == nil {
      columnNames = (0..<columnCount).map { index in sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "" }
    }
    // The first column of that name, as SQLite resolves `SELECT a.x, b.x`.
    return columnNames?.firstIndex(of: name).map(Int32.init)
  }

  /// Binds every parameter by position. The statement is always reset when it is lent (every
  /// run resets it on the way out), and every parameter is bound, so nothing is left to clear.
  func bind(_ arguments: some Collection<SQLValue>, connection: OpaquePointer) throws(DatabaseError) {
    let expected = parameterCount
    guard arguments.count == expected else {
      throw .sqlite(
        SQLiteError(
          extendedCode: SQLITE_RANGE,
          message: "the statement takes \(expected) arguments, \(arguments.count) were given",
          sql: sql))
    }
    for (offset, value) in arguments.enumerated() {
      try bind(value, at: Int32(offset + 1), connection: connection)
    }
  }

  /// Clears earlier bindings and binds values by name (`:name`, `@name`, `$name`).
  func bind(named arguments: [String: SQLValue], connection: OpaquePointer) throws(DatabaseError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let count = sqlite3_bind_parameter_count(handle)
    var used = 0
    for index in 1..<(count + 1) {
      guard let cName = sqlite3_bind_parameter_name(handle, index) else { continue }
      let name = String(cString: cName)
      guard let value = arguments[String(name.dropFirst())] ?? arguments[name] else {
        throw .sqlite(
          SQLiteError(extendedCode: SQLITE_RANGE, message: "no value for parameter \(name)", sql: sql))
      }
      used += 1
      try bind(value, at: index, connection: connection)
    }
    guard used == arguments.count else {
      throw .sqlite(
        SQLiteError(
          extendedCode: SQLITE_RANGE, message: "some named arguments match no parameter", sql: sql))
    }
  }

  private func bind(_ value: SQLValue, at index: Int32, connection: OpaquePointer) throws(DatabaseError) {
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, index)
    case .integer(let int):
      code = sqlite3_bind_int64(handle, index, int)
    case .real(let double):
      code = sqlite3_bind_double(handle, index, double)
    case .text(var text):
      code = text.withUTF8 { bytes in
        guard let base = bytes.baseAddress, bytes.count > 0 else {
          // A nil pointer would bind NULL: an empty string must stay an empty string.
          return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
          sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_transient())
        }
      }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress, raw.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return sqlite3_bind_blob(handle, index, base, Int32(raw.count), csqlite_transient())
      }
    }
    guard code == SQLITE_OK else {
      throw .sqlite(Connection.error(code: code, handle: connection, sql: sql))
    }
  }

  /// The value of a column of the current row.
  func value(at index: Int32) -> SQLValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT:
      return .text(text(at: index))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
    default:
      return .null
    }
  }

  /// The text of a column, read by length so an embedded NUL cannot cut it short.
  func text(at index: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }
}
