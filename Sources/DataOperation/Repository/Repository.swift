/// The common operations on the entities of one table, each returned as an operation to compose
/// and run later (the seeds' `CoreDataRepository`).
///
/// ```swift
/// let books = Repository<Book>()
/// let dune = try books.add { $0.title = "Dune" }.transaction().operate(in: context)
/// let found = try books.fetch(where: .column("title", .like, "D%"), orderBy: [.ascending("title")], limit: 10)
///   .operate(in: context)
/// ```
public struct Repository<E: Entity>: Sendable {
  /// The SQL the repository runs, made once (every entity of a type encodes the same columns),
  /// in one shared object so that an operation captures a single reference. The class is not
  /// generic: a generic class's metadata is built at run time, checking `E: Entity` by scanning
  /// every protocol conformance in the binary (about 90k instructions, once per entity type).
  private let statements = RepositoryStatements(
    table: quoteIdentifier(E.tableName), key: quoteIdentifier(E.primaryKey), columns: Self.columnNames())
  private var table: String { statements.table }
  private var key: String { statements.key }

  /// A repository for `E`'s table.
  public init() {}

  /// The columns an empty entity encodes: those of every entity of the type.
  private static func columnNames() -> [String] {
    var encoded = Columns()
    E().encode(to: &encoded)
    return encoded.values.map(\.name)
  }

  /// The INSERT for the columns an entity encoded (with the key column when `withKey`): the
  /// prepared one when they are the usual columns (always, for an entity that encodes every
  /// column as `Entity` asks).
  private func insertSQL(for columns: Columns, withKey: Bool) -> String {
    if columns.isExpectedShape { return withKey ? statements.insertWithKey : statements.insert }
    let written = RepositoryStatements.writeSQL(table: table, key: key, columns: columns.values.map(\.name))
    return withKey ? written.1 : written.0
  }

  /// The UPDATE of every column an entity encoded (see `insertSQL`).
  private func updateSQL(for columns: Columns) -> String {
    if columns.isExpectedShape { return statements.update }
    return RepositoryStatements.writeSQL(table: table, key: key, columns: columns.values.map(\.name)).2
  }

  /// The entities that match a predicate, in an order, at most `limit` of them.
  ///
  /// ```swift
  /// let firstTen = Repository<Book>().fetch(orderBy: [.ascending("id")], limit: 10)
  /// ```
  public func fetch(
    where predicate: Predicate? = nil, orderBy ordering: [Ordering] = [], limit: Int? = nil
  ) -> DataOperation<[E], DatabaseError> {
    var sql = "SELECT * FROM \(table)"
    var arguments: [SQLValue] = []
    if let predicate {
      sql += " WHERE \(predicate.sql)"
      arguments = predicate.arguments
    }
    if !ordering.isEmpty { sql += " ORDER BY " + ordering.map(\.clause).joined(separator: ", ") }
    if let limit {
      sql += " LIMIT ?"
      arguments.append(.integer(Int64(max(0, limit))))
    }
    return DataOperation { [sql, arguments] connection throws(DatabaseError) in
      try connection.all(sql, arguments) { row throws(DatabaseError) in try E(row: row) }
    }
  }

  /// How many entities match a predicate.
  ///
  /// ```swift
  /// let total = try Repository<Book>().count().operate(in: context)
  /// ```
  public func count(where predicate: Predicate? = nil) -> DataOperation<Int, DatabaseError> {
    let sql = "SELECT count(*) FROM \(table)" + (predicate.map { " WHERE \($0.sql)" } ?? "")
    let arguments = predicate?.arguments ?? []
    return DataOperation { connection throws(DatabaseError) in
      let value = try connection.scalar(sql, arguments)
      return Int(sqlValue: value) ?? 0
    }
  }

  /// The entity with a primary key, or a `notFound` failure.
  ///
  /// ```swift
  /// let book = try Repository<Book>().object(id: 3).operate(in: context)
  /// ```
  public func object(id: Int64) -> DataOperation<E, DatabaseError> {
    let sql = statements.selectByKey
    return DataOperation { connection throws(DatabaseError) in
      guard
        let entity = try connection.first(sql, binding: CollectionOfOne(.integer(id)), { row throws(DatabaseError) in try E(row: row) })
      else { throw .notFound(table: E.tableName, key: String(id)) }
      return entity
    }
  }

  /// Inserts a new entity that `build` fills in, and returns it with its new primary key.
  ///
  /// ```swift
  /// let book = Repository<Book>().add { book in book.title = "Dune"; book.year = 1965 }
  /// ```
  public func add(_ build: @escaping @Sendable (inout E) -> Void) -> DataOperation<E, DatabaseError> {
    DataOperation { connection throws(DatabaseError) in
      var entity = E()
      build(&entity)
      let key = entity.id != 0 ? entity.id : nil
      let written = try connection.executeBinding(
        key == nil ? statements.insert : statements.insertWithKey, expecting: statements.columns, key: key
      ) { columns in entity.encode(to: &columns) }
      if !written {
        var columns = Columns(expecting: statements.columns)
        entity.encode(to: &columns)
        try connection.execute(insertSQL(for: columns, withKey: key != nil), columns: columns, key: key.map { .integer($0) })
      }
      entity.id = connection.lastInsertedRowID
      return entity
    }
  }

  /// Writes every column of an existing entity; `notFound` when no row has its key.
  ///
  /// ```swift
  /// var book = try books.object(id: 1).operate(in: context)
  /// book.title = "Emma"
  /// try books.update(book).operate(in: context)
  /// ```
  public func update(_ entity: E) -> DataOperation<E, DatabaseError> {
    DataOperation { connection throws(DatabaseError) in
      // A type without columns has nothing to write (and its row is not looked for).
      var written = false
      if !statements.columns.isEmpty {
        written = try connection.executeBinding(statements.update, expecting: statements.columns, key: entity.id) {
          columns in entity.encode(to: &columns)
        }
      }
      if !written {
        var columns = Columns(expecting: statements.columns)
        entity.encode(to: &columns)
        guard !columns.values.isEmpty else { return entity }
        try connection.execute(updateSQL(for: columns), columns: columns, key: .integer(entity.id))
      }
      guard connection.changes > 0 else { throw .notFound(table: E.tableName, key: String(entity.id)) }
      return entity
    }
  }

  /// Writes only the columns in which `entity` differs from `original` (the same row as read
  /// before). SQLite rewrites an index whenever an UPDATE names one of its columns, so a bulk
  /// change of one field must not name all of them. When no column differs nothing is written
  /// and nothing is checked (not even that the row exists).
  ///
  /// ```swift
  /// var book = try books.object(id: 1).operate(in: context)
  /// let original = book
  /// book.year = 1965
  /// try books.update(book, from: original).operate(in: context)   // UPDATE book SET "year" = ? …
  /// ```
  /// - Throws: `DatabaseError.notFound` when a column differs and no row has the entity's key.
  public func update(_ entity: E, from original: E) -> DataOperation<E, DatabaseError> {
    DataOperation { connection throws(DatabaseError) in
      var columns = Columns(expecting: statements.columns)
      entity.encode(to: &columns)
      var old = Columns(expecting: statements.columns)
      original.encode(to: &old)
      var names: [String] = []
      var arguments: [SQLValue] = []
      for (index, column) in columns.values.enumerated()
      where index >= old.values.count || old.values[index].name != column.name || old.values[index].value != column.value {
        names.append("\(quoteIdentifier(column.name)) = ?")
        arguments.append(column.value)
      }
      guard !names.isEmpty else { return entity }
      arguments.append(.integer(entity.id))
      try connection.execute("UPDATE \(table) SET \(names.joined(separator: ", ")) WHERE \(key) = ?", arguments)
      guard connection.changes > 0 else { throw .notFound(table: E.tableName, key: String(entity.id)) }
      return entity
    }
  }

  /// Deletes the entity with a primary key; `notFound` when there is none.
  ///
  /// ```swift
  /// try Repository<Book>().delete(id: 3).transaction().operate(in: context)
  /// ```
  public func delete(id: Int64) -> DataOperation<Void, DatabaseError> {
    let sql = "DELETE FROM \(table) WHERE \(key) = ?"
    return DataOperation { connection throws(DatabaseError) in
      try connection.execute(sql, [.integer(id)])
      guard connection.changes > 0 else { throw .notFound(table: E.tableName, key: String(id)) }
    }
  }
}

/// The SQL of one entity type's repository (see `Repository.statements`).
private final class RepositoryStatements: Sendable {
  /// The quoted table name and primary key column.
  let table: String
  let key: String
  let columns: [String]
  let insert: String
  let insertWithKey: String
  let update: String
  let selectByKey: String

  init(table: String, key: String, columns: [String]) {
    self.table = table
    self.key = key
    self.columns = columns
    (insert, insertWithKey, update) = Self.writeSQL(table: table, key: key, columns: columns)
    selectByKey = "SELECT * FROM \(table) WHERE \(key) = ?"
  }

  /// INSERT (without and with the key) and UPDATE statements for these columns, written with
  /// plain appends (each process builds them once, before its first write).
  static func writeSQL(table: String, key: String, columns: [String]) -> (String, String, String) {
    guard !columns.isEmpty else {
      return (
        "INSERT INTO \(table) DEFAULT VALUES", "INSERT INTO \(table) (\(key)) VALUES (?)",
        "UPDATE \(table) SET \(key) = \(key) WHERE \(key) = ?"
      )
    }
    var names = "", marks = "", assignments = ""
    for (index, column) in columns.enumerated() {
      let name = quoteIdentifier(column)
      if index > 0 {
        names += ", "
        marks += ", "
        assignments += ", "
      }
      names += name
      marks += "?"
      assignments += name
      assignments += " = ?"
    }
    return (
      "INSERT INTO \(table) (\(names)) VALUES (\(marks))",
      "INSERT INTO \(table) (\(names), \(key)) VALUES (\(marks), ?)",
      "UPDATE \(table) SET \(assignments) WHERE \(key) = ?"
    )
  }
}
