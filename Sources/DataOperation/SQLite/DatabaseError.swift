/// Every way an operation of this module can fail.
///
/// ```swift
/// do throws(DatabaseError) { try repository.object(id: 7).operate(in: context) }
/// catch .notFound(let table, let key) { print("no \(table) \(key)") }
/// ```
public enum DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// SQLite refused a statement.
  case sqlite(SQLiteError)
  /// A row that was asked for by its key does not exist.
  case notFound(table: String, key: String)
  /// A column held a value of a type the reader did not expect (or the column is missing).
  case decoding(column: String, expected: String, found: String, sql: String)
  /// The database was written by a newer program: its schema version is above what this one knows.
  case schemaTooNew(found: Int, supported: Int)
  /// The file is an SQLite database of another program: it has tables but no schema version.
  case foreignDatabase(tables: Int)

  /// The text for a person.
  public var description: String {
    switch self {
    case .sqlite(let error):
      return error.description
    case .notFound(let table, let key):
      return "no \(table) with key \(key)"
    case .decoding(let column, let expected, let found, let sql):
      return "column '\(column)' holds \(found) where \(expected) was expected, in \"\(sql)\""
    case .schemaTooNew(let found, let supported):
      return "the database has schema version \(found), newer than the \(supported) this program knows;"
        + " use a newer version of the program"
    case .foreignDatabase(let tables):
      return "the file is an SQLite database of another program (\(tables) table\(tables == 1 ? "" : "s"), no schema version); it was left unchanged"
    }
  }
}

/// An error type that can carry a `DatabaseError`, so that transactions and repository operations
/// compose with a domain's own failure type.
///
/// ```swift
/// enum AppError: DatabaseErrorConvertible {
///   case database(DatabaseError)
///   init(_ error: DatabaseError) { self = .database(error) }
/// }
/// ```
public protocol DatabaseErrorConvertible: Error {
  /// Wraps a database failure.
  init(_ databaseError: DatabaseError)
}

extension DatabaseError: DatabaseErrorConvertible {
  /// A `DatabaseError` carries itself.
  public init(_ databaseError: DatabaseError) { self = databaseError }
}
