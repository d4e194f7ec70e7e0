/// A description of work to do with a database connection: a value that can be composed with
/// `map`, `flatMap`, `zip` and `sequence`, and run later, serialized, on a `Database`.
///
/// `Failure` is the typed error the work can fail with; `Never` for work that cannot fail. One type
/// with typed throws plays the roles of the seeds' `FunctionalDataOperation` and `ResultFDO`:
/// `DataOperation<Element, Never>` is the infallible operation, and `flatMap` composes fallible
/// steps without any nested `Result`.
///
/// ```swift
/// let titles = DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
///   try connection.all("SELECT title FROM book ORDER BY id") { row throws(DatabaseError) in try row.string("title") }
/// }
/// let count = try titles.map(\.count).operate(in: context)
/// ```
///
/// The `Connection` lent to the closure must not be returned or stored: it belongs to the
/// context's queue. (Swift cannot yet express that; an operation returning its connection
/// compiles, and using it later is a data race.)
public struct DataOperation<Element, Failure: Error>: Sendable {
  private let body: @Sendable (Connection) throws(Failure) -> Element

  /// Wraps a closure that does the work with a connection.
  ///
  /// ```swift
  /// let now = DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
  ///   try connection.scalar("SELECT unixepoch()")
  /// }
  /// ```
  public init(_ body: @escaping @Sendable (Connection) throws(Failure) -> Element) {
    self.body = body
  }

  /// Runs the work on a connection that is already lent, inside another operation of this
  /// package (TodoCore composes its steps this way). Package-only so that code outside can run
  /// an operation only through `operate(in:)` or `operateAsync(in:)`, as the seeds intend.
  package func run(_ connection: Connection) throws(Failure) -> Element {
    try body(connection)
  }

  /// Runs the operation on the context's queue and waits for its result (the seeds' `operate`).
  ///
  /// Called from inside another operation on the same context, it runs inline.
  ///
  /// ```swift
  /// let books = try Repository<Book>().fetch().operate(in: context)
  /// ```
  /// - Throws: `Failure`.
  public func operate(in context: Database) throws(Failure) -> Element {
    try context.perform { connection throws(Failure) in try body(connection) }
  }
}

extension DataOperation where Element: Sendable {
  /// Runs the operation on the context's queue without blocking the caller's thread.
  ///
  /// ```swift
  /// let books = try await Repository<Book>().fetch().operateAsync(in: context)
  /// ```
  /// - Throws: `Failure`.
  public func operateAsync(in context: Database) async throws(Failure) -> Element {
    let body = self.body
    let result: Result<Element, Failure> = await withCheckedContinuation { continuation in
      context.performAsync { connection in
        continuation.resume(returning: Result { () throws(Failure) -> Element in try body(connection) })
      }
    }
    return try result.get()
  }

  /// An operation that produces `value` without touching the database (the monad's `pure`/`return`).
  ///
  /// ```swift
  /// let three = DataOperation<Int, Never>.pure(3)
  /// ```
  public static func pure(_ value: Element) -> Self {
    Self { _ in value }
  }
}

extension DataOperation {
  /// An operation that fails with `error` without touching the database.
  ///
  /// ```swift
  /// let missing = DataOperation<Book, DatabaseError>.fail(.notFound(table: "book", key: "9"))
  /// ```
  public static func fail(_ error: Failure) -> Self {
    Self { _ throws(Failure) in throw error }
  }
}
