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
  @exclusivity(unchecked) private var columnNames: [String] = []
  @exclusivity(unchecked) private var hasColumnNames = false
  /// Where the next name is looked for first: just after the last one found. A decoder reads
  /// the columns of `SELECT *` in table order, so this finds each at once (and an equal short
  /// name compares as one word; a different one costs a full string comparison).
  @exclusivity(unchecked) private var nextGuess = 0
  /// False when two result columns share a name (`SELECT a.x, b.x`): then the guess is not used,
  /// since the first column of the name must win, as SQLite resolves it.
  @exclusivity(unchecked) private var namesAreDistinct = true
  /// SQLite's count of the statement's re-preparations when the names were read (see
  /// `forgetStaleColumnNames`).
  @exclusivity(unchecked) private var namesPreparation: Int32 = 0
  /// How many `?` parameters the statement has.
  let parameterCount: Int
  /// A slot of `TextSlots.size` bytes per parameter, where short text is copied to be bound
  /// without SQLite copying it again (see `bindText`); nil for a statement without parameters.
  let textSlots: TextSlots?

  init(handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
    self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
    textSlots = parameterCount == 0 ? nil : TextSlots(count: parameterCount)
  }

  deinit {
    // SQLite may point into the slots until the statement is finalized: finalize first.
    sqlite3_finalize(handle)
    textSlots?.base.deallocate()
  }

  /// Forgets the column names read earlier when SQLite has prepared the statement again since:
  /// another connection changed the schema, and `SELECT *` may now have other columns, in
  /// another order. Called once per run, after its first step (where SQLite re-prepares).
  @inline(__always)
  func forgetStaleColumnNames() {
    guard hasColumnNames, sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) != namesPreparation else { return }
    columnNames = []
    hasColumnNames = false
    namesAreDistinct = true
    nextGuess = 0
  }

  var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The index of a result column by name (case-sensitive, as SQL names it), built once.
  /// The guess is checked inline (a decoder calls this once per column per row); the rest is
  /// out of line.
  @inline(__always)
  func index(ofColumn name: String) -> Int32? {
    // After the last column, the next row starts again at the first.
    let guess = nextGuess < columnNames.count ? nextGuess : 0
    if namesAreDistinct && guess < columnNames.count && columnNames[guess] == name {
      nextGuess = guess + 1
      return Int32(guess)
    }
    return searchIndex(ofColumn: name)
  }

  @inline(never)
  private func searchIndex(ofColumn name: String) -> Int32? {
    if !hasColumnNames {
      columnNames = (0..<columnCount).map { index in sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "" }
      namesAreDistinct = Set(columnNames).count == columnNames.count
      namesPreparation = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
      hasColumnNames = true
    }
    guard let index = columnNames.firstIndex(of: name) else { return nil }
    nextGuess = index + 1
    return Int32(index)
  }

  /// Binds every parameter by position. The statement is always reset when it is lent (every
  /// run resets it on the way out), and every parameter is bound, so nothing is left to clear.
  func bind(_ arguments: some Collection<SQLValue>, connection: OpaquePointer) throws(DatabaseError) {
    try checkArgumentCount(arguments.count)
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

  /// Refuses a number of arguments other than the statement's parameters (a missing one would
  /// be a silent NULL). The comparison is inline; the error is built out of line.
  @inline(__always)
  func checkArgumentCount(_ count: Int) throws(DatabaseError) {
    guard count == parameterCount else { throw argumentCountError(count) }
  }

  @inline(never)
  private func argumentCountError(_ count: Int) -> DatabaseError {
    .sqlite(
      SQLiteError(
        extendedCode: SQLITE_RANGE, message: "the statement takes \(parameterCount) arguments, \(count) were given", sql: sql))
  }

  /// Binds one value at a 1-based parameter position.
  func bind(_ value: SQLValue, at index: Int32, connection: OpaquePointer) throws(DatabaseError) {
    let code = bindValue(value, at: index, to: handle, slots: textSlots)
    guard code == SQLITE_OK else {
      throw .sqlite(Connection.error(code: code, handle: connection, sql: sql))
    }
  }
}

/// Binds one value at a 1-based parameter position of a statement handle; SQLite's result code.
/// A free function, not a static method: calling that would first fetch the class's metadata.
func bindValue(_ value: SQLValue, at index: Int32, to handle: OpaquePointer, slots: TextSlots?) -> Int32 {
  let code: Int32
  switch value {
  case .null:
    code = sqlite3_bind_null(handle, index)
  case .integer(let int):
    code = sqlite3_bind_int64(handle, index, int)
  case .real(let double):
    code = sqlite3_bind_double(handle, index, double)
  case .text(let text):
    code = bindText(text, at: index, to: handle, slots: slots)
  case .blob(let bytes):
    code = bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress, raw.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
      return sqlite3_bind_blob(handle, index, base, Int32(raw.count), csqlite_transient())
    }
  }
  return code
}

extension Statement {
  /// A column of the current row as SQLite's value object: one API call, after which its type
  /// and contents are read by plain accessors (each `sqlite3_column_*` call would go through
  /// SQLite's API entry and exit again). The value is SQLite's "unprotected" kind, which its
  /// documentation allows to read only without other threads on the connection: a connection
  /// is only ever used by one thread at a time (its `Database` serializes it). It is valid until
  /// the statement steps or resets.
  @inline(__always)
  func cell(_ index: Int32) -> OpaquePointer {
    // Never nil: an index out of range or a statement not on a row gives SQLite's NULL value.
    sqlite3_column_value(handle, index)
  }

  /// The value of a column of the current row.
  func value(at index: Int32) -> SQLValue { sqlValue(of: cell(index)) }
}

/// Where short text is bound from. SQLite's usual way, `SQLITE_TRANSIENT`, has it allocate a
/// copy of every bound string and free it again; text of at most `size` bytes is instead copied
/// into the statement's own slot for that parameter and bound as `SQLITE_STATIC`, SQLite reading
/// it in place. That is sound because a slot outlives every use SQLite can make of it: it belongs
/// to one parameter of one statement, lives until the statement is finalized, and is only
/// overwritten when that parameter is bound again.
///
/// Binding again replaces the old value, so SQLite never reads the slot's new bytes as the old
/// value, as long as the binding succeeds. It fails (SQLITE_MISUSE) on a statement that has
/// stepped and not been reset; every run here resets its statement on the way out, and a
/// statement caught mid-step (`sqlite3_stmt_busy`) is given a copy instead, in case that ever
/// stops being so. A parameter number outside the statement's is left to SQLite to refuse.
struct TextSlots {
  static let size = 128
  let base: UnsafeMutablePointer<UInt8>
  /// How many parameters (slots) there are.
  let count: Int

  init(count: Int) {
    self.count = count
    base = .allocate(capacity: count * Self.size)
  }
}

/// Binds a string's UTF-8 bytes (from the parameter's slot when they fit, else copied by
/// SQLite); SQLite's result code.
@inline(__always)
func bindText(_ text: String, at index: Int32, to handle: OpaquePointer, slots: TextSlots?) -> Int32 {
  var text = text
  return text.withUTF8 { bytes in
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      // A nil pointer would bind NULL: an empty string must stay an empty string.
      return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
    }
    if let slots, bytes.count <= TextSlots.size, index >= 1, Int(index) <= slots.count, sqlite3_stmt_busy(handle) == 0 {
      let slot = slots.base + Int(index - 1) * TextSlots.size
      slot.update(from: base, count: bytes.count)
      return slot.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
        sqlite3_bind_text(handle, index, chars, Int32(bytes.count), nil)
      }
    }
    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
      sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_transient())
    }
  }
}

/// The SQLValue of one of SQLite's values (free functions, like `bindValue`).
@inline(__always)
func sqlValue(of cell: OpaquePointer) -> SQLValue {
  switch sqlite3_value_type(cell) {
  case SQLITE_INTEGER:
    return .integer(sqlite3_value_int64(cell))
  case SQLITE_FLOAT:
    return .real(sqlite3_value_double(cell))
  case SQLITE_TEXT:
    return .text(valueText(of: cell))
  case SQLITE_BLOB:
    guard let pointer = sqlite3_value_blob(cell) else { return .blob([]) }
    let count = Int(sqlite3_value_bytes(cell))
    guard count > 0 else { return .blob([]) }
    return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
  default:
    return .null
  }
}

/// The text of a value, read by length so an embedded NUL cannot cut it short (its text first,
/// then its length in bytes, as SQLite asks).
@inline(__always)
func valueText(of cell: OpaquePointer) -> String {
  guard let pointer = sqlite3_value_text(cell) else { return "" }
  let count = Int(sqlite3_value_bytes(cell))
  return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
}
