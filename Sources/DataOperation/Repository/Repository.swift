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
  /// A repository for `E`'s table.
  public init() {}

  private var table: String { quoteIdentifier(E.tableName) }
  private var key: String { quoteIdentifier(E.primaryKey) }

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
    let sql = "SELECT * FROM \(table) WHERE \(key) = ?"
    return DataOperation { connection throws(DatabaseError) in
      guard let entity = try connection.first(sql, [.integer(id)], { row throws(DatabaseError) in try E(row: row) })
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
      var columns = Columns()
      entity.encode(to: &columns)
      var names = columns.values.map { quoteIdentifier($0.name) }
      var arguments = columns.values.map(\.value)
      if entity.id != 0 {
        names.append(key)
        arguments.append(.integer(entity.id))
      }
      let marks = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
      let sql = names.isEmpty
        ? "INSERT INTO \(table) DEFAULT VALUES"
        : "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(marks))"
      try connection.execute(sql, arguments)
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
      var columns = Columns()
      entity.encode(to: &columns)
      guard !columns.values.isEmpty else { return entity }
      let assignments = columns.values.map { "\(quoteIdentifier($0.name)) = ?" }.joined(separator: ", ")
      let sql = "UPDATE \(table) SET \(assignments) WHERE \(key) = ?"
      try connection.execute(sql, columns.values.map(\.value) + [.integer(entity.id)])
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
