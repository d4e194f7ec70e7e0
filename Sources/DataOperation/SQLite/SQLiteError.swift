import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by SQLite: the extended result code, SQLite's message and the SQL that failed.
///
/// The bound values are never part of the error, so an error message cannot leak a user's data
/// into logs.
///
/// ```swift
/// catch .sqlite(let error) where error.extendedCode == SQLiteError.constraintUnique { … }
/// ```
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code (for example 2067, `SQLITE_CONSTRAINT_UNIQUE`).
  public let extendedCode: Int32
  /// SQLite's own message, as `sqlite3_errmsg` returned it.
  public let message: String
  /// The SQL statement that failed, if any (never with its bound values).
  public let sql: String?
  /// The operating system's error number behind an I/O failure (`sqlite3_system_errno`), or 0.
  public let systemErrorNumber: Int32

  /// Creates an error from its parts.
  ///
  /// ```swift
  /// let error = SQLiteError(extendedCode: 5, message: "database is locked", sql: "BEGIN IMMEDIATE")
  /// ```
  public init(extendedCode: Int32, message: String, sql: String?, systemErrorNumber: Int32 = 0) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
    self.systemErrorNumber = systemErrorNumber
  }

  /// Whether the file system is out of space (or over a quota): `SQLITE_FULL`, or an I/O error
  /// whose system error is `ENOSPC` or `EDQUOT` (creating the `-shm` file of a WAL database on
  /// a full disk fails so).
  public var isDiskFull: Bool {
    primaryCode == Self.full || (primaryCode == Self.ioError && [ENOSPC, EDQUOT].contains(systemErrorNumber))
  }

  /// The primary result code: the low byte of the extended code (`SQLITE_CONSTRAINT` is 19).
  ///
  /// ```swift
  /// error.primaryCode == SQLiteError.constraint
  /// ```
  public var primaryCode: Int32 { extendedCode & 0xFF }

  /// `SQLITE_BUSY`: another connection holds a lock longer than the busy timeout.
  public static let busy: Int32 = 5
  /// `SQLITE_READONLY`: the database cannot be written.
  public static let readOnly: Int32 = 8
  /// `SQLITE_READONLY_DIRECTORY` (8 | 6 << 8): the folder of the database cannot be written, so
  /// its journal files cannot be made.
  public static let readOnlyDirectory: Int32 = 1544
  /// `SQLITE_CORRUPT`: the database file is malformed.
  public static let corrupt: Int32 = 11
  /// `SQLITE_IOERR`: the operating system reported an I/O error.
  public static let ioError: Int32 = 10
  /// `SQLITE_FULL`: a write failed because the disk is full.
  public static let full: Int32 = 13
  /// `SQLITE_CANTOPEN`: the file could not be opened.
  public static let cannotOpen: Int32 = 14
  /// `SQLITE_CONSTRAINT`: a constraint failed.
  public static let constraint: Int32 = 19
  /// `SQLITE_NOTADB`: the file is not a database.
  public static let notADatabase: Int32 = 26
  /// `SQLITE_CONSTRAINT_UNIQUE` (19 | 8 << 8): a UNIQUE constraint failed.
  public static let constraintUnique: Int32 = 2067
  /// `SQLITE_CONSTRAINT_FOREIGNKEY` (19 | 3 << 8): a foreign key constraint failed.
  public static let constraintForeignKey: Int32 = 787

  /// The text for a person: SQLite's message, the code and its name, and the statement.
  public var description: String {
    var text = "\(message) (SQLite code \(extendedCode)"
    if let name = sqlite3_errstr(extendedCode) { text += ": \(String(cString: name))" }
    text += ")"
    if let sql { text += " in \"\(sql)\"" }
    return text
  }
}
