import CSQLite

/// The current row of a query, lent to the closure that reads it.
///
/// A `Row` is only valid inside that closure: copy the values out, never the row (it is not
/// `Sendable`, and reading it after the closure returns reads whatever row the statement is on).
///
/// ```swift
/// try connection.query("SELECT id, title FROM book") { row throws(DatabaseError) in
///   titles.append(try row.decode("title", as: String.self))
/// }
/// ```
public struct Row {
  let statement: Statement

  init(statement: Statement) { self.statement = statement }

  /// The number of columns.
  public var count: Int { Int(statement.columnCount) }

  /// The raw value of a column by position (0-based).
  ///
  /// ```swift
  /// let first = row[0]
  /// ```
  public subscript(index: Int) -> SQLValue { statement.value(at: Int32(index)) }

  /// True when the result has a column of this name.
  ///
  /// ```swift
  /// if row.hasColumn("tags") { … }
  /// ```
  public func hasColumn(_ name: String) -> Bool { statement.index(ofColumn: name) != nil }

  /// The raw value of a column by name.
  ///
  /// ```swift
  /// let value = try row.value("title")   // .text("Buy milk")
  /// ```
  /// - Throws: `DatabaseError.decoding` when the result has no such column.
  @inline(__always)
  public func value(_ column: String) throws(DatabaseError) -> SQLValue {
    guard let index = statement.index(ofColumn: column) else {
      throw .decoding(column: column, expected: "a column", found: "no such column", sql: statement.sql)
    }
    return statement.value(at: index)
  }

  /// Decodes a column by name into a Swift type, naming the column when it cannot.
  ///
  /// ```swift
  /// let due = try row.decode("due", as: Int64?.self)
  /// let title: String = try row.decode("title")
  /// ```
  /// - Throws: `DatabaseError.decoding` naming the column, the expected and the found type.
  public func decode<Value: SQLValueConvertible>(_ column: String, as type: Value.Type = Value.self)
    throws(DatabaseError) -> Value
  {
    let raw = statement.value(at: try index(named: column, expected: "\(Value.self)"))
    guard let value = Value(sqlValue: raw) else {
      throw .decoding(column: column, expected: "\(Value.self)", found: raw.typeName, sql: statement.sql)
    }
    return value
  }

  // MARK: - The common types by name, without the generic path

  // Overloads for the types entities read most. Swift picks a non-generic overload over the
  // generic one, so `let id: Int64 = try row.decode("id")` lands here: the value is read with
  // SQLite's typed accessors, and no `SQLValue` is made only to be taken apart again.

  /// `decode(_:as:)` for `Int64`.
  public func decode(_ column: String, as type: Int64.Type = Int64.self) throws(DatabaseError) -> Int64 {
    let cell = try cell(named: column, expected: "Int64")
    guard sqlite3_value_type(cell) == SQLITE_INTEGER else { throw mismatch(column, cell, expected: "Int64") }
    return sqlite3_value_int64(cell)
  }

  /// `decode(_:as:)` for `Int64?`.
  public func decode(_ column: String, as type: Int64?.Type = Int64?.self) throws(DatabaseError) -> Int64? {
    let cell = try cell(named: column, expected: "Optional<Int64>")
    switch sqlite3_value_type(cell) {
    case SQLITE_INTEGER: return sqlite3_value_int64(cell)
    case SQLITE_NULL: return nil
    default: throw mismatch(column, cell, expected: "Optional<Int64>")
    }
  }

  /// `decode(_:as:)` for `String`: the same as `string(_:)`.
  public func decode(_ column: String, as type: String.Type = String.self) throws(DatabaseError) -> String {
    try string(column)
  }

  /// `decode(_:as:)` for `String?`.
  public func decode(_ column: String, as type: String?.Type = String?.self) throws(DatabaseError) -> String? {
    let cell = try cell(named: column, expected: "Optional<String>")
    switch sqlite3_value_type(cell) {
    case SQLITE_TEXT: return valueText(of: cell)
    case SQLITE_NULL: return nil
    default: throw mismatch(column, cell, expected: "Optional<String>")
    }
  }

  /// The value of a column by name, or the error naming it when the result has no such column.
  /// The look-up is inline; the error is built out of line, keeping the decoders small.
  @inline(__always)
  private func cell(named column: String, expected: String) throws(DatabaseError) -> OpaquePointer {
    statement.cell(try index(named: column, expected: expected))
  }

  @inline(__always)
  private func index(named column: String, expected: String) throws(DatabaseError) -> Int32 {
    guard let index = statement.index(ofColumn: column) else { throw missing(column, expected: expected) }
    return index
  }

  @inline(never)
  private func missing(_ column: String, expected: String) -> DatabaseError {
    .decoding(column: column, expected: expected, found: "no such column", sql: statement.sql)
  }

  @inline(never)
  private func mismatch(_ column: String, _ cell: OpaquePointer, expected: String) -> DatabaseError {
    .decoding(column: column, expected: expected, found: sqlValue(of: cell).typeName, sql: statement.sql)
  }

  /// Reads a TEXT column straight from SQLite's buffer (the fast path for large lists).
  ///
  /// ```swift
  /// let title = try row.string("title")
  /// ```
  /// - Throws: `DatabaseError.decoding` when the column is missing or not TEXT.
  public func string(_ column: String) throws(DatabaseError) -> String {
    let cell = try cell(named: column, expected: "String")
    guard sqlite3_value_type(cell) == SQLITE_TEXT else { throw mismatch(column, cell, expected: "String") }
    return valueText(of: cell)
  }

  // MARK: - By position

  /// The column at `index` (0-based, in SELECT order) decoded as `Value`, for queries that
  /// list their columns: no name is looked up. The error still names the column.
  ///
  /// ```swift
  /// let title: String = try row.decode(at: 2)
  /// ```
  /// - Throws: `DatabaseError.decoding` naming the column when its value has another type.
  public func decode<Value: SQLValueConvertible>(at index: Int32, as type: Value.Type = Value.self) throws(DatabaseError)
    -> Value
  {
    let raw = statement.value(at: index)
    guard let value = Value(sqlValue: raw) else {
      throw .decoding(column: columnName(at: index), expected: "\(Value.self)", found: raw.typeName, sql: statement.sql)
    }
    return value
  }

  /// The integer at `index`; `nil` when it is NULL.
  /// - Throws: `DatabaseError.decoding` when it is another type.
  public func integer(at index: Int32) throws(DatabaseError) -> Int64? {
    let cell = statement.cell(index)
    switch sqlite3_value_type(cell) {
    case SQLITE_INTEGER: return sqlite3_value_int64(cell)
    case SQLITE_NULL: return nil
    default: throw mismatch(at: index, expected: "Int64")
    }
  }

  /// The text at `index`; `nil` when it is NULL.
  /// - Throws: `DatabaseError.decoding` when it is another type.
  public func text(at index: Int32) throws(DatabaseError) -> String? {
    let cell = statement.cell(index)
    switch sqlite3_value_type(cell) {
    case SQLITE_TEXT: return valueText(of: cell)
    case SQLITE_NULL: return nil
    default: throw mismatch(at: index, expected: "String")
    }
  }

  /// Lends the UTF-8 bytes of the text at `index` to `body` (nil for NULL), without making a
  /// String: for values that are compared or split rather than kept. The bytes are valid only
  /// inside `body`.
  /// - Throws: `DatabaseError.decoding` when the value is neither text nor NULL.
  public func withText<Value>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> Value) throws(DatabaseError) -> Value {
    let cell = statement.cell(index)
    switch sqlite3_value_type(cell) {
    case SQLITE_TEXT:
      let pointer = sqlite3_value_text(cell)
      let count = Int(sqlite3_value_bytes(cell))
      return body(UnsafeBufferPointer(start: pointer, count: count))
    case SQLITE_NULL: return body(nil)
    default: throw mismatch(at: index, expected: "String")
    }
  }

  private func mismatch(at index: Int32, expected: String) -> DatabaseError {
    .decoding(column: columnName(at: index), expected: expected, found: statement.value(at: index).typeName, sql: statement.sql)
  }

  private func columnName(at index: Int32) -> String {
    sqlite3_column_name(statement.handle, index).map { String(cString: $0) } ?? "column \(index)"
  }
}
