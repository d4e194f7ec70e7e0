import DataOperation
import Foundation
import Testing

@Suite struct ConnectionTests {
  func run<Value>(_ context: Database, _ body: @escaping @Sendable (Connection) throws(DatabaseError) -> Value) throws(DatabaseError) -> Value {
    try DataOperation(body).operate(in: context)
  }

  @Test func aFileDatabaseOpensWithWALForeignKeysAndABusyTimeout() throws {
    let folder = TemporaryFolder()
    let context = try Database(path: folder.path + "/settings.db")
    let settings = try run(context) { connection throws(DatabaseError) in
      [
        try connection.scalar("PRAGMA journal_mode"), try connection.scalar("PRAGMA foreign_keys"),
        try connection.scalar("PRAGMA busy_timeout"),
      ]
    }
    #expect(settings == [.text("wal"), .integer(1), .integer(5000)])
  }

  @Test func aMemoryMapIsOffByDefaultAndSizedByTheOptions() throws {
    let folder = TemporaryFolder()
    let plain = try Database(path: folder.path + "/plain.db")
    #expect(try run(plain) { connection throws(DatabaseError) in try connection.scalar("PRAGMA mmap_size") } == .integer(0))
    var options = Database.Options()
    options.mmapSize = 1 << 20
    let mapped = try Database(path: folder.path + "/mapped.db", options: options)
    #expect(try run(mapped) { connection throws(DatabaseError) in try connection.scalar("PRAGMA mmap_size") } == .integer(1 << 20))
  }

  /// A reader with a memory map reads what another connection wrote after it opened, once the
  /// file has grown past the map's size and the writes have been moved from the log into it.
  @Test func aMappedReaderSeesAnotherConnectionsWritesAsTheFileGrows() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/grown.db"
    var options = Database.Options()
    options.mmapSize = 1 << 20
    let reader = try Database(path: path, options: options)
    let writer = try Database(path: path)
    #expect(try run(reader) { connection throws(DatabaseError) in try connection.scalar("PRAGMA mmap_size") } == .integer(1 << 20))
    try run(writer) { connection throws(DatabaseError) in
      try connection.executeScript("CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO item (body) VALUES ('first')")
    }
    #expect(try run(reader) { connection throws(DatabaseError) in try connection.scalar("SELECT group_concat(body) FROM item") } == .text("first"))
    // About 2 MB: the file outgrows the 1 MB map.
    try run(writer) { connection throws(DatabaseError) in
      try connection.executeScript(
        """
        BEGIN;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO item (body) SELECT printf('%.1000c', 'x') FROM n;
        UPDATE item SET body = 'changed' WHERE id = 1;
        COMMIT;
        """)
    }
    // Every page is moved from the log into the file (busy: 0), where the reader maps it.
    let busy = try run(writer) { connection throws(DatabaseError) in try connection.scalar("PRAGMA wal_checkpoint(TRUNCATE)") }
    #expect(busy == .integer(0))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 20)
    let seen = try run(reader) { connection throws(DatabaseError) in
      [try connection.scalar("SELECT count(*) FROM item"), try connection.scalar("SELECT body FROM item WHERE id = 1")]
    }
    #expect(seen == [.integer(2001), .text("changed")])
  }

  @Test func argumentsBindByPositionAndByName() throws {
    let context = try makeContext()
    let titles = try run(context) { connection throws(DatabaseError) in
      try connection.execute("INSERT INTO book (title, year) VALUES (?, ?)", [.text("A"), .integer(1)])
      try connection.execute("INSERT INTO book (title, year) VALUES (:title, @year)", named: ["title": .text("B"), "year": .integer(2)])
      return try connection.all("SELECT title, year FROM book ORDER BY id") { row throws(DatabaseError) in
        "\(try row.string("title"))\(try row.decode("year", as: Int.self))"
      }
    }
    #expect(titles == ["A1", "B2"])
  }

  @Test func aWrongNumberOfArgumentsIsAnErrorNotASilentNull() throws {
    let context = try makeContext()
    #expect(throws: DatabaseError.self) {
      try run(context) { connection throws(DatabaseError) in
        try connection.execute("INSERT INTO book (title, year) VALUES (?, ?)", [.text("A")])
      }
    }
  }

  @Test func textRoundTripsFaithfully() throws {
    let context = try makeContext()
    let samples = [
      "", "re: rent", "quote \" and ' and `", "nul\u{0}inside", "emoji 🎉👩‍👩‍👧", "日本語", String(repeating: "x", count: 100_000),
      "line\nbreak\ttab\u{1B}[31m",
    ]
    for sample in samples {
      let stored = try run(context) { connection throws(DatabaseError) in
        try connection.execute("INSERT INTO book (title) VALUES (?)", [.text(sample)])
        return try connection.scalar("SELECT title FROM book WHERE id = ?", [.integer(connection.lastInsertedRowID)])
      }
      #expect(stored == .text(sample))
    }
  }

  @Test func everyKindOfValueReadsBackThroughARowByNameAndByPosition() throws {
    let context = try makeContext()
    let read = try run(context) { connection throws(DatabaseError) in
      try connection.executeScript("CREATE TABLE cell (v)")
      let values: [SQLValue] = [.null, .integer(-7), .real(2.5), .text("nul\u{0}inside"), .text(""), .blob([0, 1, 0, 255]), .blob([])]
      for value in values { try connection.execute("INSERT INTO cell (v) VALUES (?)", [value]) }
      return try connection.all("SELECT v FROM cell ORDER BY rowid") { row throws(DatabaseError) in
        let byName = try row.value("v")
        #expect(row[0] == byName)
        return byName
      }
    }
    #expect(read == [.null, .integer(-7), .real(2.5), .text("nul\u{0}inside"), .text(""), .blob([0, 1, 0, 255]), .blob([])])
  }

  @Test func columnsAreFoundByNameAfterAnotherConnectionRebuildsTheTable() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/shared.db"
    let reader = try Database(path: path)
    let writer = try Database(path: path)
    try run(writer) { connection throws(DatabaseError) in
      try connection.executeScript("CREATE TABLE pair (a TEXT, b TEXT); INSERT INTO pair VALUES ('A', 'B');")
    }
    func readPair() throws -> String {
      try run(reader) { connection throws(DatabaseError) in
        try connection.first("SELECT * FROM pair") { row throws(DatabaseError) in "\(try row.string("a"))\(try row.string("b"))" } ?? ""
      }
    }
    #expect(try readPair() == "AB")
    // The same table rebuilt with its columns the other way round: the reader's cached
    // statement is prepared again by SQLite, and its column names must be read again.
    try run(writer) { connection throws(DatabaseError) in
      try connection.executeScript(
        "CREATE TABLE pair2 (b TEXT, a TEXT); INSERT INTO pair2 SELECT b, a FROM pair; DROP TABLE pair; ALTER TABLE pair2 RENAME TO pair;")
    }
    #expect(try readPair() == "AB")
  }

  @Test func anSQLErrorCarriesTheSQLAndSQLitesMessage() throws {
    let context = try makeContext()
    do {
      try run(context) { connection throws(DatabaseError) in try connection.execute("SELECT nope FROM book") }
      Issue.record("should fail")
    } catch .sqlite(let error) {
      #expect(error.primaryCode == 1)
      #expect(error.message == "no such column: nope")
      #expect(error.sql == "SELECT nope FROM book")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAtOpen() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/notes.txt"
    try Data(String(repeating: "this is not sqlite\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try Database(path: path)
      Issue.record("should fail")
    } catch .sqlite(let error) {
      #expect(error.primaryCode == SQLiteError.notADatabase)
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("this is not sqlite"))
  }

  @Test func aMissingFileIsNotCreatedWhenCreateIsOff() throws {
    let folder = TemporaryFolder()
    var options = Database.Options()
    options.create = false
    #expect(throws: DatabaseError.self) { try Database(path: folder.path + "/absent.db", options: options) }
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/absent.db"))
  }

  /// `Int64`, `Int64?`, `String` and `String?` by name have their own decoders (no `SQLValue`
  /// in between): the values, and errors naming the column, the type asked for and the one found.
  @Test func theCommonTypesDecodeByNameAndNameTheColumnWhenTheyCannot() throws {
    let context = try makeContext()
    let (values, failures) = try run(context) { connection throws(DatabaseError) in
      let sql = "SELECT 7 AS n, NULL AS none, 'text' AS t, 2.5 AS r"
      var failures: [String] = []
      func failure(_ body: (Row) throws(DatabaseError) -> Void) {
        do {
          _ = try connection.first(sql) { row throws(DatabaseError) in try body(row) }
          failures.append("none")
        } catch .decoding(let column, let expected, let found, _) {
          failures.append("\(column) \(expected) \(found)")
        } catch {
          failures.append("\(error)")
        }
      }
      let values = try connection.first(sql) { row throws(DatabaseError) -> [String] in
        let n: Int64 = try row.decode("n")
        let missing: Int64? = try row.decode("none")
        let present: Int64? = try row.decode("n")
        let t: String = try row.decode("t")
        let noText: String? = try row.decode("none")
        let someText: String? = try row.decode("t")
        return [
          "\(n)", "\(String(describing: missing))", "\(String(describing: present))", t,
          "\(String(describing: noText))", "\(String(describing: someText))",
        ]
      }
      failure { row throws(DatabaseError) in _ = try row.decode("t", as: Int64.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("none", as: Int64.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("r", as: Int64?.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("n", as: String.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("r", as: String?.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("absent", as: Int64.self) }
      failure { row throws(DatabaseError) in _ = try row.decode("absent", as: String?.self) }
      return (values, failures)
    }
    #expect(values == ["7", "nil", "Optional(7)", "text", "nil", "Optional(\"text\")"])
    #expect(
      failures == [
        "t Int64 TEXT", "none Int64 NULL", "r Optional<Int64> REAL", "n String INTEGER", "r Optional<String> REAL",
        "absent Int64 no such column", "absent Optional<String> no such column",
      ])
  }

  /// Short text is bound from a slot per parameter, without SQLite copying it (`bindText`):
  /// parameters side by side, at the slots' size and one byte over it, bound again with other
  /// lengths, and read back while a nested run of the same SQL binds other text.
  @Test func textBoundFromSlotsStaysEachParametersOwnWhileRowsAreRead() throws {
    let context = try makeContext()
    let limit = 128
    let samples = [
      ["a", "b", "c"], [String(repeating: "x", count: limit), String(repeating: "y", count: limit), "z"],
      [String(repeating: "p", count: limit + 1), "q", String(repeating: "r", count: limit - 1)],
      ["", "nul\u{0}inside", "é🎉"], ["short", String(repeating: "é", count: limit / 2 + 1), ""],
    ]
    let read = try run(context) { connection throws(DatabaseError) in
      for value in 1...2 { try connection.execute("INSERT INTO log (value) VALUES (?)", [.integer(Int64(value))]) }
      let sql = "SELECT ? AS a, value, ? AS b, ? AS c FROM log ORDER BY id"
      var read: [[String]] = []
      for sample in samples {
        try connection.query(sql, sample.map { .text($0) }) { outer throws(DatabaseError) in
          // The same SQL with other text while this one is on a row: its slots must not change.
          let other = sample.map { String($0.reversed()) + "!" }
          try connection.query(sql, other.map { .text($0) }) { inner throws(DatabaseError) in
            #expect([try inner.string("a"), try inner.string("b"), try inner.string("c")] == other)
          }
          read.append([try outer.string("a"), try outer.string("b"), try outer.string("c")])
        }
      }
      return read
    }
    #expect(read == samples.flatMap { [$0, $0] })
  }

  @Test func nestedQueriesOfTheSameSQLDoNotDisturbEachOther() throws {
    let context = try makeContext()
    let pairs = try run(context) { connection throws(DatabaseError) in
      for value in 1...3 { try connection.execute("INSERT INTO log (value) VALUES (?)", [.integer(Int64(value))]) }
      var pairs: [String] = []
      let sql = "SELECT value FROM log ORDER BY id"
      try connection.query(sql) { outer throws(DatabaseError) in
        let a = try outer.decode("value", as: Int.self)
        try connection.query(sql) { inner throws(DatabaseError) in
          pairs.append("\(a)\(try inner.decode("value", as: Int.self))")
        }
      }
      return pairs
    }
    #expect(pairs == ["11", "12", "13", "21", "22", "23", "31", "32", "33"])
  }
}

@Suite struct SQLFunctionTests {
  @Test func aSwiftFunctionCanBeCalledFromSQLWithEveryKindOfValue() throws {
    let context = try Database.inMemory()
    let echoed = try DataOperation<[SQLValue], DatabaseError> { connection throws(DatabaseError) in
      try connection.defineFunction("echo_kind", argumentCount: 1) { arguments in
        switch arguments[0] {
        case .null: .text("null")
        case .integer(let value): .integer(value * 2)
        case .real(let value): .real(value / 2)
        case .text(let value): .text(String(value.reversed()))
        case .blob(let bytes): .blob(bytes.reversed())
        }
      }
      return try connection.all(
        "SELECT echo_kind(NULL), echo_kind(21), echo_kind(3.0), echo_kind(?), echo_kind(x'0102')", [.text("café\u{0}x")]
      ) { row throws(DatabaseError) in (0..<5).map { row[$0] } }.first ?? []
    }.operate(in: context)
    #expect(echoed == [.text("null"), .integer(42), .real(1.5), .text("x\u{0}éfac"), .blob([2, 1])])
  }

  @Test func aFunctionWithTooManyArgumentsIsRefused() throws {
    let context = try Database.inMemory()
    #expect(throws: DatabaseError.self) {
      try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
        try connection.defineFunction("bad", argumentCount: 200) { _ in .null }
      }.operate(in: context)
    }
  }
}
