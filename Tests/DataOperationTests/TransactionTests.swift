import DataOperation
import Testing

@Suite struct TransactionTests {
  @Test func aFailureInTheMiddleOfAFlatMapChainLeavesTheDatabaseExactlyAsBefore() throws {
    let context = try makeContext()
    _ = try Repository<Book>().add { $0.title = "Before" }.transaction().operate(in: context)
    let before = try Repository<Book>().fetch(orderBy: [.ascending("id")]).operate(in: context)
    let chain = Repository<Book>().add { $0.title = "Inserted" }
      .flatMap { book in
        var changed = book
        changed.title = "Changed"
        return Repository<Book>().update(changed)
      }
      .flatMap { _ in Repository<Book>().object(id: 999) }  // fails: not found
      .flatMap { _ in Repository<Book>().add { $0.title = "Never" } }
      .transaction()
    #expect(throws: DatabaseError.notFound(table: "book", key: "999")) { try chain.operate(in: context) }
    #expect(try Repository<Book>().fetch(orderBy: [.ascending("id")]).operate(in: context) == before)
  }

  @Test func aUniqueViolationIsATypedErrorWithCode2067AndTheConstraintMessage() throws {
    let context = try makeContext()
    let add = Repository<Author>().add { $0.name = "Austen" }
    _ = try add.transaction().operate(in: context)
    do {
      _ = try add.transaction().operate(in: context)
      Issue.record("the second insert should have failed")
    } catch .sqlite(let error) {
      #expect(error.extendedCode == 2067)
      #expect(error.extendedCode == SQLiteError.constraintUnique)
      #expect(error.primaryCode == SQLiteError.constraint)
      #expect(error.message == "UNIQUE constraint failed: writers.name")
      #expect(error.sql == "INSERT INTO \"writers\" (\"name\") VALUES (?)")
      #expect(!error.description.contains("Austen"))  // bound values never appear
    } catch {
      Issue.record("unexpected error \(error)")
    }
    #expect(try Repository<Author>().count().operate(in: context) == 1)
  }

  @Test func aNestedTransactionIsASavepointThatRollsBackAlone() throws {
    let context = try makeContext()
    let inner = logged(2).flatMap { _ in DataOperation<Int, DatabaseError>.fail(.notFound(table: "t", key: "k")) }
      .transaction()
    let outer = logged(1).flatMap { _ in
      DataOperation<Int, DatabaseError> { connection throws(DatabaseError) in
        #expect(connection.transactionDepth == 1)
        // The inner failure is caught here: its savepoint rolls back, the outer work stays.
        return (try? inner.operate(in: context)) ?? 0
      }
    }.flatMap { _ in logged(3) }.transaction()
    #expect(try outer.operate(in: context) == 3)
    #expect(try logValues.operate(in: context) == [1, 3])
  }

  @Test func aRolledBackOperationReturnsItsValueAndLeavesTheDatabaseUnchanged() throws {
    let context = try makeContext()
    _ = try Repository<Book>().add { $0.title = "Kept" }.transaction().operate(in: context)
    let wouldAdd = try Repository<Book>().add { $0.title = "Dry" }.rolledBack().operate(in: context)
    #expect(wouldAdd.title == "Dry")
    #expect(wouldAdd.id == 2)
    #expect(try Repository<Book>().fetch(orderBy: [.ascending("id")]).operate(in: context).map(\.title) == ["Kept"])
    // Nested in a transaction that commits, it is a savepoint rolled back on its own.
    let outer = Repository<Book>().add { $0.title = "Outer" }
      .flatMap { _ in Repository<Book>().add { $0.title = "Inner" }.rolledBack() }
      .transaction()
    _ = try outer.operate(in: context)
    #expect(try Repository<Book>().fetch(orderBy: [.ascending("id")]).operate(in: context).map(\.title) == ["Kept", "Outer"])
  }

  @Test func anInfallibleOperationCanRunAsATransaction() throws {
    let context = try makeContext()
    let depth = DataOperation<Int, Never> { $0.transactionDepth }
    #expect(try depth.transaction().operate(in: context) == 1)
    #expect(depth.operate(in: context) == 0)
  }

  @Test func liftingFromResultAndFromAnInfallibleOperationComposesWithFlatMap() throws {
    enum AppError: DatabaseErrorConvertible, Equatable {
      case database(DatabaseError)
      case invalid(String)
      init(_ error: DatabaseError) { self = .database(error) }
    }
    let context = try makeContext()
    let parsed = DataOperation<Int, AppError>(result: .success(41))
    let infallible = DataOperation<Int, Never>.pure(1).setFailureType(to: AppError.self)
    let sum = zip(parsed, infallible).map { $0 + $1 }
      .flatMap { value in logged(value).mapError(AppError.database) }
      .transaction()
    #expect(try sum.operate(in: context) == 42)
    let failing = DataOperation<Int, AppError>(result: .failure(.invalid("bad")))
      .flatMap { logged($0).mapError(AppError.database) }
      .transaction()
    #expect(throws: AppError.invalid("bad")) { try failing.operate(in: context) }
    #expect(try logValues.operate(in: context) == [42])
  }

  @Test func anInfallibleOperationFlatMapsIntoAFallibleOne() throws {
    let context = try makeContext()
    let operation: DataOperation<Int, DatabaseError> = DataOperation<Int, Never>.pure(5).flatMap { logged($0) }
    #expect(try operation.operate(in: context) == 5)
  }

  @Test func aDeferredReadDoesNotBlockAWriterButAnImmediateOneDoes() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/locks.db"
    let reader = try Database(path: path)
    _ = try schema.migrate().operate(in: reader)
    var impatient = Database.Options()
    impatient.busyTimeout = 50
    let writer = try Database(path: path, options: impatient)
    func writeWhileReading(_ kind: TransactionKind) throws -> Bool {
      try DataOperation<Bool, DatabaseError> { connection throws(DatabaseError) in
        _ = try connection.scalar("SELECT count(*) FROM log")
        return (try? logged(1).transaction().operate(in: writer)) != nil
      }.transaction(kind).operate(in: reader)
    }
    #expect(try writeWhileReading(.deferred))
    #expect(try !writeWhileReading(.immediate))
  }
}
