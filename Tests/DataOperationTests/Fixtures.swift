import DataOperation
import Foundation
import TestSupport

/// A book: the first entity of the tests, with a table name derived from the type.
struct Book: Entity, Equatable {
  var id: Int64 = 0
  var title = ""
  var year: Int?
  var authorID: Int64?

  init() {}

  init(id: Int64 = 0, title: String, year: Int? = nil, authorID: Int64? = nil) {
    self.id = id
    self.title = title
    self.year = year
    self.authorID = authorID
  }

  init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    title = try row.decode("title")
    year = try row.decode("year")
    authorID = try row.decode("author_id")
  }

  func encode(to columns: inout Columns) {
    columns["title"] = title
    columns["year"] = year
    columns["author_id"] = authorID
  }
}

/// An author: the second entity, with an overridden table name.
struct Author: Entity, Equatable {
  static var tableName: String { "writers" }
  var id: Int64 = 0
  var name = ""

  init() {}

  init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    name = try row.decode("name")
  }

  func encode(to columns: inout Columns) {
    columns["name"] = name
  }
}

let schema = Migrator([
  Migration(
    version: 1,
    sql: """
      CREATE TABLE writers (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);
      CREATE TABLE book (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL,
        year INTEGER,
        author_id INTEGER REFERENCES writers(id)
      );
      """),
  Migration(version: 2, sql: "CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, value INTEGER NOT NULL);"),
])

/// A fresh in-memory database with the test schema.
func makeContext() throws -> Database {
  let context = try Database.inMemory()
  _ = try schema.migrate().operate(in: context)
  return context
}

/// A temporary folder removed when the value is released.
final class TemporaryFolder {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "dataoperation-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Appends a value to the log table and returns it: an operation with a visible effect.
func logged(_ value: Int) -> DataOperation<Int, DatabaseError> {
  DataOperation { connection throws(DatabaseError) in
    try connection.execute("INSERT INTO log (value) VALUES (?)", [.integer(Int64(value))])
    return value
  }
}

/// The log table's values in insertion order.
let logValues = DataOperation<[Int], DatabaseError> { connection throws(DatabaseError) in
  try connection.all("SELECT value FROM log ORDER BY id") { row throws(DatabaseError) in try row.decode("value", as: Int.self) }
}
