import DataOperation
import Testing

@Suite struct RepositoryTests {
  let books = Repository<Book>()
  let authors = Repository<Author>()

  func seeded() throws -> Database {
    let context = try makeContext()
    let austen = try authors.add { $0.name = "Austen" }.operate(in: context)
    let herbert = try authors.add { $0.name = "Herbert" }.operate(in: context)
    let rows: [(String, Int?, Int64)] = [
      ("Emma", 1815, austen.id), ("Dune", 1965, herbert.id), ("Persuasion", 1817, austen.id),
      ("Children of Dune", 1976, herbert.id), ("Undated", nil, austen.id),
    ]
    _ = try rows.map { row in
      books.add {
        $0.title = row.0; $0.year = row.1; $0.authorID = row.2
      }
    }
    .sequence().transaction().operate(in: context)
    return context
  }

  @Test func updateFromAnOriginalWritesOnlyTheColumnsThatChanged() throws {
    let context = try seeded()
    // A trigger on the title column tells whether an UPDATE named it.
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.executeScript(
        "CREATE TEMP TRIGGER title_written AFTER UPDATE OF title ON book BEGIN INSERT INTO log (value) VALUES (new.id); END;")
    }.operate(in: context)
    let original = try books.object(id: 1).operate(in: context)
    var changed = original
    changed.year = 1816
    _ = try books.update(changed, from: original).operate(in: context)
    #expect(try books.object(id: 1).operate(in: context).year == 1816)
    let logged = try DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
      try connection.scalar("SELECT count(*) FROM log")
    }.operate(in: context)
    #expect(logged == .integer(0), "the title was not changed, so it must not be written")
    var renamed = changed
    renamed.title = "Emma (1816)"
    _ = try books.update(renamed, from: changed).operate(in: context)
    #expect(try books.object(id: 1).operate(in: context) == renamed)
    let loggedAgain = try DataOperation<SQLValue, DatabaseError> { connection throws(DatabaseError) in
      try connection.scalar("SELECT count(*) FROM log")
    }.operate(in: context)
    #expect(loggedAgain == .integer(1))
    // Nothing changed: nothing written, and a missing row is still an error when something is.
    _ = try books.update(renamed, from: renamed).operate(in: context)
    var missing = renamed
    missing.id = 99
    missing.year = 2000
    #expect(throws: DatabaseError.notFound(table: "book", key: "99")) {
      try books.update(missing, from: renamed).operate(in: context)
    }
  }

  @Test func tableNamesAreDerivedFromTheTypeUnlessOverridden() {
    #expect(Book.tableName == "book")
    #expect(Author.tableName == "writers")
  }

  @Test func addAssignsIncreasingIdsAndReturnsTheStoredEntity() throws {
    let context = try makeContext()
    let first = try books.add { $0.title = "A" }.operate(in: context)
    let second = try books.add {
      $0.title = "B"; $0.year = 2001
    }.operate(in: context)
    #expect(first.id == 1 && second.id == 2)
    #expect(try books.object(id: 2).operate(in: context) == Book(id: 2, title: "B", year: 2001))
    let writer = try authors.add { $0.name = "Le Guin" }.operate(in: context)
    #expect(try authors.object(id: writer.id).operate(in: context).name == "Le Guin")
  }

  @Test func fetchFiltersSortsAndLimits() throws {
    let context = try seeded()
    let austenBooks = try books.fetch(where: .column("author_id", .equal, Int64(1)), orderBy: [.ascending("title")])
      .operate(in: context)
    #expect(austenBooks.map(\.title) == ["Emma", "Persuasion", "Undated"])
    let newestTwo = try books.fetch(orderBy: [.descending("year")], limit: 2).operate(in: context)
    #expect(newestTwo.map(\.title) == ["Children of Dune", "Dune"])
    let nullsLast = try books.fetch(orderBy: [.ascending("year", nullsLast: true)]).operate(in: context)
    #expect(nullsLast.map(\.title) == ["Emma", "Persuasion", "Dune", "Children of Dune", "Undated"])
    let combined: Predicate = .column("year", .greaterThan, 1900) && .column("title", .like, "%Dune%")
    #expect(try books.fetch(where: combined).operate(in: context).count == 2)
    #expect(try books.fetch(where: .isNull("year")).operate(in: context).map(\.title) == ["Undated"])
    #expect(try books.fetch(where: .column("id", in: [Int64(1), 3])).operate(in: context).map(\.title) == ["Emma", "Persuasion"])
    #expect(try books.count(where: !.isNull("year")).operate(in: context) == 4)
    let writers = try authors.fetch(orderBy: [.descending("name")], limit: 1).operate(in: context)
    #expect(writers.map(\.name) == ["Herbert"])
  }

  @Test func valuesThatLookLikeSQLAreBoundNotInjected() throws {
    let context = try seeded()
    let hostile = "x'; DROP TABLE book; --"
    let added = try books.add { $0.title = hostile }.operate(in: context)
    #expect(try books.fetch(where: .column("title", .equal, hostile)).operate(in: context) == [added])
    #expect(try books.count().operate(in: context) == 6)
  }

  @Test func objectWithAnUnknownIdFailsWithNotFound() throws {
    let context = try seeded()
    #expect(throws: DatabaseError.notFound(table: "book", key: "42")) { try books.object(id: 42).operate(in: context) }
    #expect(throws: DatabaseError.notFound(table: "writers", key: "9")) { try authors.object(id: 9).operate(in: context) }
  }

  @Test func updateWritesEveryColumnAndFailsForAnUnknownId() throws {
    let context = try seeded()
    var emma = try books.object(id: 1).operate(in: context)
    emma.title = "Emma (1815)"
    emma.year = nil
    _ = try books.update(emma).operate(in: context)
    #expect(try books.object(id: 1).operate(in: context) == emma)
    var ghost = emma
    ghost.id = 77
    #expect(throws: DatabaseError.notFound(table: "book", key: "77")) { try books.update(ghost).operate(in: context) }
    var herbert = try authors.object(id: 2).operate(in: context)
    herbert.name = "Frank Herbert"
    _ = try authors.update(herbert).operate(in: context)
    #expect(try authors.object(id: 2).operate(in: context).name == "Frank Herbert")
  }

  /// A book whose `encode` writes its columns in another shape than usual, chosen per value:
  /// the repository binds the usual shape straight into its prepared statement and must notice
  /// any other (a column left out, another order, a column written twice).
  struct OddBook: Entity, Equatable {
    static var tableName: String { "book" }
    enum Shape: Int { case usual, withoutYear, reordered, titleTwice }
    var id: Int64 = 0
    var title = ""
    var year: Int?
    var shape = Shape.usual

    init() {}
    init(row: Row) throws(DatabaseError) {
      id = try row.decode("id")
      title = try row.string("title")
      year = try row.decode("year")
    }

    func encode(to columns: inout Columns) {
      switch shape {
      case .usual:
        columns["title"] = title
        columns["year"] = year
        columns["author_id"] = Int64?.none
      case .withoutYear:
        columns["title"] = title
        columns["author_id"] = Int64?.none
      case .reordered:
        columns["year"] = year
        columns["author_id"] = Int64?.none
        columns["title"] = title
      case .titleTwice:
        columns["title"] = "a title that the second write replaces"
        columns["year"] = year
        columns["title"] = title
        columns["author_id"] = Int64?.none
      }
    }
  }

  @Test(arguments: [OddBook.Shape.withoutYear, .reordered, .titleTwice])
  func anEntityThatWritesAnotherShapeOfColumnsIsStoredAsWritten(shape: OddBook.Shape) throws {
    let context = try makeContext()
    let odd = Repository<OddBook>()
    // One usual add first, so the prepared statement exists and had values bound.
    let first = try odd.add {
      $0.title = "First"; $0.year = 1900
    }.operate(in: context)
    let added = try odd.add {
      $0.title = "Odd"; $0.year = 2001; $0.shape = shape
    }.operate(in: context)
    // The shape left out nothing but `year` (which then takes its default, NULL).
    let expectedYear = shape == .withoutYear ? nil : 2001
    #expect(try books.object(id: added.id).operate(in: context) == Book(id: added.id, title: "Odd", year: expectedYear))
    // A usual add after it binds every value afresh (nothing left over from the odd one).
    let after = try odd.add {
      $0.title = "After"; $0.year = 2002
    }.operate(in: context)
    #expect(try books.object(id: after.id).operate(in: context) == Book(id: after.id, title: "After", year: 2002))
    #expect(try books.object(id: first.id).operate(in: context) == Book(id: first.id, title: "First", year: 1900))

    var changed = try odd.object(id: first.id).operate(in: context)
    changed.title = "First, changed"
    changed.year = 1901
    changed.shape = shape
    _ = try odd.update(changed).operate(in: context)
    #expect(
      try books.object(id: first.id).operate(in: context)
        == Book(id: first.id, title: "First, changed", year: shape == .withoutYear ? 1900 : 1901))
    var ghost = changed
    ghost.id = 99
    #expect(throws: DatabaseError.notFound(table: "book", key: "99")) { try odd.update(ghost).operate(in: context) }
  }

  /// A book that derives its year from the title it has just written, reading it back.
  struct DerivedBook: Entity {
    static var tableName: String { "book" }
    var id: Int64 = 0
    var title = ""
    init() {}
    init(row: Row) throws(DatabaseError) {
      id = try row.decode("id")
      title = try row.string("title")
    }
    func encode(to columns: inout Columns) {
      columns["title"] = title
      let written: String? = columns["title"]
      columns["year"] = written?.count
      columns["author_id"] = Int64?.none
    }
  }

  @Test func anEntityCanReadBackAColumnItHasWritten() throws {
    let context = try makeContext()
    let derived = Repository<DerivedBook>()
    let added = try derived.add { $0.title = "Persuasion" }.operate(in: context)
    #expect(try books.object(id: added.id).operate(in: context).year == 10)
    var changed = try derived.object(id: added.id).operate(in: context)
    changed.title = "Emma"
    _ = try derived.update(changed).operate(in: context)
    #expect(try books.object(id: added.id).operate(in: context) == Book(id: added.id, title: "Emma", year: 4))
  }

  @Test func anEntityAddedWithItsOwnIdKeepsIt() throws {
    let context = try makeContext()
    let book = try books.add {
      $0.id = 40; $0.title = "Forty"; $0.year = 1940
    }.operate(in: context)
    #expect(book.id == 40)
    #expect(try books.object(id: 40).operate(in: context) == Book(id: 40, title: "Forty", year: 1940))
    #expect(throws: DatabaseError.self) {
      try books.add {
        $0.id = 40; $0.title = "Again"
      }.operate(in: context)
    }
  }

  /// A row with nothing but its key.
  struct Marker: Entity {
    var id: Int64 = 0
    init() {}
    init(row: Row) throws(DatabaseError) { id = try row.decode("id") }
    func encode(to columns: inout Columns) {}
  }

  @Test func anEntityWithoutColumnsIsAddedAndItsUpdateWritesNothing() throws {
    let context = try makeContext()
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.executeScript("CREATE TABLE marker (id INTEGER PRIMARY KEY)")
    }.operate(in: context)
    let markers = Repository<Marker>()
    let first = try markers.add { _ in }.operate(in: context)
    let keyed = try markers.add { $0.id = 9 }.operate(in: context)
    #expect([first.id, keyed.id] == [1, 9])
    #expect(try markers.count().operate(in: context) == 2)
    // Nothing to write, so nothing is written or looked for (a missing row is no error).
    var ghost = Marker()
    ghost.id = 77
    #expect(try markers.update(ghost).operate(in: context).id == 77)
    #expect(try markers.count().operate(in: context) == 2)
  }

  @Test func columnsAreFoundByNameInAnyOrderRowAfterRow() throws {
    let context = try seeded()
    let rows = try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      try connection.all("SELECT id, title, year, author_id FROM book ORDER BY id") { row throws(DatabaseError) in
        // Read in another order than selected, and not every column on every row.
        let year: Int? = try row.decode("year")
        let title = try row.string("title")
        let id: Int64 = try row.decode("id")
        let author: Int64? = id % 2 == 0 ? try row.decode("author_id") : nil
        return "\(id) \(title) \(year.map(String.init) ?? "-") \(author.map(String.init) ?? "-")"
      }
    }.operate(in: context)
    #expect(rows == ["1 Emma 1815 -", "2 Dune 1965 2", "3 Persuasion 1817 -", "4 Children of Dune 1976 2", "5 Undated - -"])
    // Two result columns of one name: the first wins, as SQLite resolves it, row after row.
    let pairs = try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      try connection.all("SELECT title AS x, year AS x FROM book WHERE year IS NOT NULL ORDER BY id LIMIT 2") { row throws(DatabaseError) in
        try row.string("x")
      }
    }.operate(in: context)
    #expect(pairs == ["Emma", "Dune"])
  }

  @Test func deleteRemovesOneRowAndFailsForAnUnknownId() throws {
    let context = try seeded()
    try books.delete(id: 2).operate(in: context)
    #expect(try books.count().operate(in: context) == 4)
    #expect(throws: DatabaseError.notFound(table: "book", key: "2")) { try books.delete(id: 2).operate(in: context) }
    // A foreign key keeps an author with books.
    do {
      try authors.delete(id: 1).operate(in: context)
      Issue.record("deleting a referenced author should fail")
    } catch .sqlite(let error) {
      #expect(error.extendedCode == SQLiteError.constraintForeignKey)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func decodingAColumnOfTheWrongTypeNamesTheColumn() throws {
    let context = try seeded()
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.execute("UPDATE book SET year = 'soon' WHERE id = 1")
    }.operate(in: context)
    do {
      _ = try books.object(id: 1).operate(in: context)
      Issue.record("decoding should fail")
    } catch .decoding(let column, let expected, let found, _) {
      #expect(column == "year")
      #expect(expected == "Optional<Int>")
      #expect(found == "TEXT")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
