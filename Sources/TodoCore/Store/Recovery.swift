import DataOperation

/// What `TodoDatabase.recover` read from a damaged database.
public struct RecoveryReport: Sendable, Equatable {
  /// One table: how many rows the copy holds, and whether reading it ran into damage (rows
  /// between where the two scans stopped could not be read).
  public struct Table: Sendable, Equatable {
    public var name: String
    public var rows: Int
    public var damaged: Bool
  }

  /// A counter SQLite keeps so that ids are not used again (AUTOINCREMENT), as the source had it.
  struct Sequence: Sendable, Equatable {
    var table: String
    var value: Int64
  }

  public var tables: [Table] = []
  /// Rows left pointing at a row that could not be read (a tag of a lost task, say), removed so
  /// that the copy is consistent.
  public var orphansRemoved = 0
  /// True when the undo journal met damage and was emptied.
  public var journalEmptied = false
  var sequences: [Sequence] = []

  public var isComplete: Bool { !tables.contains(where: \.damaged) }
}

/// Why `TodoDatabase.recover` could not finish: the damaged database could not be read at all,
/// or the copy could not be made.
public enum RecoveryFailure: Error {
  case source(TodoError)
  case copy(TodoError)
}

extension TodoDatabase {
  /// `PRAGMA integrity_check` on the database at `path`, opened without writing anything (no
  /// journal mode switch, no migration): the problems it found, empty when the file is intact.
  /// When SQLite cannot even finish the check, that is the last problem listed.
  public static func integrityProblems(path: String) throws(TodoError) -> [String] {
    let context = try openUnchanged(path: path)
    return try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      var lines: [String] = []
      do throws(DatabaseError) {
        try connection.query("PRAGMA integrity_check(100)") { row throws(DatabaseError) in
          // One row may hold several findings, a line each.
          lines += (try row.text(at: 0) ?? "").split(separator: "\n").map(String.init)
        }
      } catch .sqlite(let error) where error.primaryCode == SQLiteError.corrupt {
        lines.append("the check stopped: \(error.message)")
      }
      return lines == ["ok"] ? [] : lines
    }.mapError(TodoError.database).operate(in: context)
  }

  /// What the database holds that todo never makes: triggers (which run SQL of someone else's on
  /// every change they watch: a trigger could rewrite every task as it is saved) and views, one
  /// line each (`trigger NAME on TABLE`). SQLite's integrity check calls such a file intact.
  public static func foreignObjects(path: String) throws(TodoError) -> [String] {
    let context = try openUnchanged(path: path)
    return try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      var objects: [String] = []
      try connection.query(
        "SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('trigger', 'view') ORDER BY type, name"
      ) { row throws(DatabaseError) in
        let (type, name, table) = (try row.text(at: 0) ?? "", try row.text(at: 1) ?? "", try row.text(at: 2) ?? "")
        objects.append(type == "trigger" ? "trigger \(name) on \(table)" : "view \(name)")
      }
      return objects
    }.mapError(TodoError.database).operate(in: context)
  }

  /// Copies every row that can still be read from the database at `source` (never written to)
  /// into a new database at `target` (an empty file, or none), table by table.
  ///
  /// Each table is read forwards by its key until SQLite reports damage, then backwards from its
  /// end until it does again (as `sqlite3`'s `.dump` does); only the rows between the two points
  /// are lost. Rows that then point at a lost row (a tag of a lost task, a parent that is gone, a
  /// sync record of a lost task: the next sync brings the task back from the server instead of
  /// deleting it there) are removed or unlinked, so the copy passes the foreign key check. A
  /// damaged undo journal is emptied (undoing from a journal with holes would revert part of a
  /// command, or an older one over later ones), and the counters that keep ids from being reused
  /// are carried over.
  ///
  /// The copy is made at the source's schema version, then upgraded the way the file itself
  /// would have been (data migrations included); a source from a newer version is refused, as
  /// opening it would be. The copy is written without a write-ahead log, so that it is one
  /// whole file when this returns.
  public static func recover(from source: String, into target: String) throws(RecoveryFailure) -> RecoveryReport {
    let damaged: Database
    let version: Int
    do throws(TodoError) {
      damaged = try openUnchanged(path: source)
      version = try Migrator.currentVersion().mapError(TodoError.database).operate(in: damaged)
    } catch {
      throw .source(error)
    }
    do throws(TodoError) {
      let copy = try open(path: target, upgrade: false)
      return try recover(from: damaged, version: version, into: copy)
    } catch {
      throw .copy(error)
    }
  }

  private static func recover(from damaged: Database, version: Int, into copy: Database) throws(TodoError) -> RecoveryReport {
    do throws(DatabaseError) {
      // Rows are copied in any order, before the rows they point at: the keys are checked at the end.
      try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
        try connection.execute("PRAGMA foreign_keys=OFF")
      }.operate(in: copy)
      _ = try Migrator(Array(Schema.migrator.migrations.prefix(version))).migrate().operate(in: copy)
      let copied = try DataOperation<RecoveryReport, DatabaseError> { target throws(DatabaseError) in
        var report = RecoveryReport()
        let tables = try target.all(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ) { row throws(DatabaseError) in try row.text(at: 0) ?? "" }
        // The damaged file's operation runs inline, on this thread, while this one holds the
        // copy's connection (`operate` blocks until it is done): lending it there is safe.
        nonisolated(unsafe) let copyConnection = target
        for table in tables {
          let damagedRead = try DataOperation<Bool, DatabaseError> { from throws(DatabaseError) in
            try copyRows(of: table, from: from, to: copyConnection)
          }.operate(in: damaged)
          report.tables.append(.init(name: table, rows: 0, damaged: damagedRead))
        }
        report.sequences = try DataOperation<[(String, Int64)], DatabaseError> { from throws(DatabaseError) in
          do throws(DatabaseError) {
            return try from.all("SELECT name, seq FROM sqlite_sequence") { row throws(DatabaseError) in
              (try row.text(at: 0) ?? "", try row.integer(at: 1) ?? 0)
            }
          } catch .sqlite(let error) where error.primaryCode == SQLiteError.corrupt {
            return []
          }
        }.operate(in: damaged).map { RecoveryReport.Sequence(table: $0.0, value: $0.1) }
        return report
      }.transaction().operate(in: copy)
      // Upgraded as the file itself would have been, before its rows are checked.
      _ = try Schema.migrator.migrate().operate(in: copy)
      let report = try DataOperation<RecoveryReport, DatabaseError> { target throws(DatabaseError) in
        var report = copied
        report.orphansRemoved = try removeOrphans(on: target)
        if report.tables.contains(where: { $0.damaged && $0.name.hasPrefix("journal_") }) {
          try target.execute("DELETE FROM journal_change")
          try target.execute("DELETE FROM journal_entry")
          report.journalEmptied = true
        }
        for sequence in report.sequences {
          try target.execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", [.integer(sequence.value), .text(sequence.table)])
          if target.changes == 0 {
            try target.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [.text(sequence.table), .integer(sequence.value)])
          }
        }
        for index in report.tables.indices {
          let count = try target.scalar("SELECT count(*) FROM \(quoteIdentifier(report.tables[index].name))")
          if case .integer(let rows) = count { report.tables[index].rows = Int(rows) }
        }
        return report
      }.transaction().operate(in: copy)
      try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
        try connection.execute("PRAGMA foreign_keys=ON")
        let broken = try connection.all("PRAGMA foreign_key_check") { row throws(DatabaseError) in try row.text(at: 0) ?? "" }
        guard broken.isEmpty else {
          throw .sqlite(SQLiteError(extendedCode: SQLiteError.constraint, message: "the copy has rows pointing nowhere in \(broken[0])", sql: nil))
        }
      }.operate(in: copy)
      return report
    } catch {
      throw .database(error)
    }
  }

  /// Copies the rows of `table` that can be read: forwards, then backwards from the end (when
  /// the forward scan stopped at damage). True when it met damage.
  private static func copyRows(of table: String, from source: Connection, to target: Connection) throws(DatabaseError) -> Bool {
    let name = quoteIdentifier(table)
    let sourceColumns = try columns(of: table, on: source)
    guard !sourceColumns.isEmpty else { return false }  // a table the source does not have
    let targetColumns = Set(try columns(of: table, on: target).map(\.name))
    let shared = sourceColumns.filter { targetColumns.contains($0.name) }
    let list = shared.map { quoteIdentifier($0.name) }.joinedText(", ")
    let insert = "INSERT OR IGNORE INTO \(name) (\(list)) VALUES (\(Array(repeating: "?", count: shared.count).joinedText(", ")))"
    // The key to read backwards by: the rowid, or a table without one's primary key.
    let key = sourceColumns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }
    let withoutRowID = try source.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)]) == .integer(1)
    // By the table's own key both ways (unordered, SQLite may read a covering index instead, and
    // take damage there for the table's).
    func order(_ direction: String) -> String {
      withoutRowID ? key.map { quoteIdentifier($0.name) + " " + direction }.joinedText(", ") : "rowid " + direction
    }
    var damaged = false
    for sql in ["SELECT \(list) FROM \(name) ORDER BY \(order("ASC"))", "SELECT \(list) FROM \(name) ORDER BY \(order("DESC"))"] {
      do throws(DatabaseError) {
        try source.query(sql) { row throws(DatabaseError) in
          try target.execute(insert, (0..<shared.count).map { row[$0] })
        }
        // The first scan read the whole table: nothing is left for the second.
        if !damaged { return false }
      } catch .sqlite(let error) where error.primaryCode == SQLiteError.corrupt || error.primaryCode == SQLiteError.notADatabase {
        damaged = true
      }
    }
    return damaged
  }

  private struct Column {
    var name: String
    var keyPosition: Int
  }

  private static func columns(of table: String, on connection: Connection) throws(DatabaseError) -> [Column] {
    try connection.all("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { row throws(DatabaseError) in
      Column(name: try row.text(at: 0) ?? "", keyPosition: Int(try row.integer(at: 1) ?? 0))
    }
  }

  /// Removes (or unlinks) rows that point at rows the copy does not have; how many it changed.
  private static func removeOrphans(on connection: Connection) throws(DatabaseError) -> Int {
    let statements = [
      "DELETE FROM tag WHERE todo_id NOT IN (SELECT id FROM todo)",
      "DELETE FROM note WHERE todo_id NOT IN (SELECT id FROM todo)",
      "DELETE FROM dependency WHERE todo_id NOT IN (SELECT id FROM todo) OR depends_on NOT IN (SELECT id FROM todo)",
      "DELETE FROM interval WHERE todo_id NOT IN (SELECT id FROM todo)",
      "DELETE FROM extra WHERE todo_id NOT IN (SELECT id FROM todo)",
      "DELETE FROM pending_link WHERE todo_id NOT IN (SELECT id FROM todo)",
      "UPDATE todo SET parent_id = NULL WHERE parent_id IS NOT NULL AND parent_id NOT IN (SELECT id FROM todo)",
      "UPDATE todo SET series_id = NULL, series_index = NULL WHERE series_id IS NOT NULL AND series_id NOT IN (SELECT id FROM series)",
      "DELETE FROM journal_change WHERE journal_id NOT IN (SELECT id FROM journal_entry)",
      // A sync record of a lost task would make the next sync delete the task on the server.
      "DELETE FROM sync_item WHERE task_uuid NOT IN (SELECT uuid FROM todo)",
    ]
    var changed = 0
    for sql in statements {
      try connection.execute(sql)
      changed += connection.changes
    }
    return changed
  }
}
