import CSQLite

extension Connection {
  /// A scalar SQL function written in Swift: takes the call's arguments, returns its value.
  public typealias Function = ([SQLValue]) -> SQLValue

  /// Defines (or replaces) the SQL function `name` on this connection, so that SQL can call
  /// Swift: `SELECT * FROM todo WHERE folded_contains(title, ?)`. Arguments arrive as `SQLValue`s
  /// and the returned value is the call's result.
  ///
  /// A deterministic function always gives the same result for the same arguments, which lets
  /// SQLite use it in indexes and evaluate it once per constant argument.
  ///
  /// ```swift
  /// try connection.defineFunction("reverse", argumentCount: 1) { arguments in
  ///   guard case .text(let text) = arguments[0] else { return .null }
  ///   return .text(String(text.reversed()))
  /// }
  /// ```
  /// - Throws: `DatabaseError.sqlite` when SQLite refuses the definition (a bad name or count).
  public func defineFunction(
    _ name: String, argumentCount: Int32, deterministic: Bool = true, _ body: @escaping Function
  ) throws(DatabaseError) {
    let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
    let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    let code = sqlite3_create_function_v2(
      handle, name, argumentCount, flags, box,
      { context, count, values in
        let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(Int(count))
        for index in 0..<Int(count) { arguments.append(SQLValue(reading: values![index])) }
        box.body(arguments).setResult(of: context)
      },
      nil, nil,
      { pointer in pointer.map { Unmanaged<FunctionBox>.fromOpaque($0).release() } })
    // On failure SQLite has already called the destructor, which released the box.
    guard code == SQLITE_OK else { throw .sqlite(Connection.error(code: code, handle: handle, sql: nil)) }
  }
}

/// Keeps a Swift function alive for as long as SQLite holds it.
private final class FunctionBox {
  let body: Connection.Function

  init(_ body: @escaping Connection.Function) {
    self.body = body
  }
}

extension SQLValue {
  /// The value of an SQL function's argument.
  fileprivate init(reading value: OpaquePointer?) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_value_bytes(value))
      guard let bytes = sqlite3_value_text(value) else {
        self = .text("")
        return
      }
      self = .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      guard count > 0, let bytes = sqlite3_value_blob(value) else {
        self = .blob([])
        return
      }
      self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: self = .null
    }
  }

  /// Makes this value the result of an SQL function call.
  fileprivate func setResult(of context: OpaquePointer?) {
    switch self {
    case .null: sqlite3_result_null(context)
    case .integer(let value): sqlite3_result_int64(context, value)
    case .real(let value): sqlite3_result_double(context, value)
    case .text(let value): sqlite3_result_text(context, value, Int32(value.utf8.count), csqlite_transient())
    case .blob(let bytes):
      bytes.withUnsafeBytes { buffer in
        sqlite3_result_blob(context, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
      }
    }
  }
}
