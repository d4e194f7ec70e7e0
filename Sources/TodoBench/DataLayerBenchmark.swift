import CSQLite
import DataOperation

#if canImport(Glibc)
import Glibc
#endif

/// The data layer against the SQLite C API, in one process on the same kind of file: COUNT
/// inserts in one transaction, and COUNT point reads by primary key, each decoded into a struct.
/// Each side runs `rounds` times, alternating which goes first. The ratio is the median of each
/// round's ratio (the two sides of a round run back to back, so a slow spell of the machine
/// lands on both); the times printed are each side's median.
struct DataLayerBenchmark {
  let count: Int
  var rounds = 21

  /// One row of the benchmark table, an entity for the repository side.
  struct Item: Entity, Equatable {
    var id: Int64 = 0
    var name = ""
    var amount: Int64 = 0
    var note: String?

    init() {}

    init(row: Row) throws(DatabaseError) {
      id = try row.decode("id")
      name = try row.string("name")
      amount = try row.decode("amount")
      note = try row.decode("note")
    }

    func encode(to columns: inout Columns) {
      columns["name"] = name
      columns["amount"] = amount
      columns["note"] = note
    }
  }

  static let schema = "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount INTEGER NOT NULL, note TEXT)"

  func run() throws {
    var times: [String: [Double]] = [:]
    for round in 0..<rounds {
      let folder = "/tmp/todo-bench-\(getpid())-\(round)"
      mkdir(folder, 0o700)
      defer {
        for file in ["ops.db", "ops.db-wal", "ops.db-shm", "c.db", "c.db-wal", "c.db-shm"] { unlink(folder + "/" + file) }
        rmdir(folder)
      }
      // Alternate which side goes first, so neither always gets the warmer cache.
      let sides = round % 2 == 0 ? ["ops", "c"] : ["c", "ops"]
      for side in sides {
        let path = "\(folder)/\(side).db"
        if side == "ops" {
          let (insert, read) = try operations(path: path)
          times["ops insert", default: []].append(insert)
          times["ops read", default: []].append(read)
        } else {
          let (insert, read) = try cAPI(path: path)
          times["c insert", default: []].append(insert)
          times["c read", default: []].append(read)
        }
      }
    }
    func median(_ key: String) -> Double {
      let sorted = times[key, default: [0]].sorted()
      return sorted[sorted.count / 2]
    }
    func pairedRatio(_ kind: String) -> Double {
      let ratios = zip(times["ops \(kind)", default: []], times["c \(kind)", default: []]).map { $0 / $1 }.sorted()
      return ratios.isEmpty ? 0 : ratios[ratios.count / 2]
    }
    print("workload\tcount\tdataoperation_s\tc_api_s\tratio")
    for kind in ["insert", "read"] {
      print("\(kind)\t\(count)\t\(format(median("ops \(kind)")))\t\(format(median("c \(kind)")))\t\(format(pairedRatio(kind)))")
    }
  }

  private func format(_ value: Double) -> String {
    let scaled = (value * 10_000).rounded() / 10_000
    return String(describing: scaled)
  }

  /// Inserts through `Repository.add`, reads through `Repository.object(id:)`.
  private func operations(path: String) throws -> (Double, Double) {
    let context = try Context(path: path)
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      try connection.executeScript(Self.schema)
    }.operate(in: context)
    let items = Repository<Item>()
    let count = self.count
    let insertStart = Self.seconds()
    try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
      for index in 0..<count {
        _ = try items.add { item in
          item.name = "item \(index)"
          item.amount = Int64(index)
          item.note = index % 2 == 0 ? "even" : nil
        }.run(connection)
      }
    }.transaction().operate(in: context)
    let insertTime = Self.seconds() - insertStart
    let readStart = Self.seconds()
    let total = try DataOperation<Int64, DatabaseError> { connection throws(DatabaseError) in
      var sum: Int64 = 0
      var id: Int64 = 1
      for _ in 0..<count {
        sum &+= try items.object(id: id).run(connection).amount
        id = id * 7_919 % Int64(count) + 1
      }
      return sum
    }.transaction(.deferred).operate(in: context)
    let readTime = Self.seconds() - readStart
    guard total > 0 else { throw BenchError.failed("the reads found nothing") }
    return (insertTime, readTime)
  }

  /// The same work written directly on the C API: one prepared statement each, bound and stepped.
  private func cAPI(path: String) throws -> (Double, Double) {
    var handle: OpaquePointer?
    // The flags `Context` opens with: the connection's own mutex is off on both sides (each side
    // uses its connection from one thread), so neither pays a lock per call that the other does not.
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let db = handle
    else { throw BenchError.failed("cannot open \(path)") }
    defer { sqlite3_close_v2(db) }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; " + Self.schema, nil, nil, nil)
    let insertStart = Self.seconds()
    sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
    var insert: OpaquePointer?
    sqlite3_prepare_v2(db, "INSERT INTO item (name, amount, note) VALUES (?, ?, ?)", -1, &insert, nil)
    for index in 0..<count {
      let name = "item \(index)"
      sqlite3_bind_text(insert, 1, name, -1, csqlite_transient())
      sqlite3_bind_int64(insert, 2, Int64(index))
      if index % 2 == 0 { sqlite3_bind_text(insert, 3, "even", -1, csqlite_transient()) } else { sqlite3_bind_null(insert, 3) }
      guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError.failed("insert failed") }
      sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    sqlite3_exec(db, "COMMIT", nil, nil, nil)
    let insertTime = Self.seconds() - insertStart
    let readStart = Self.seconds()
    sqlite3_exec(db, "BEGIN DEFERRED", nil, nil, nil)
    var select: OpaquePointer?
    sqlite3_prepare_v2(db, "SELECT * FROM item WHERE id = ?", -1, &select, nil)
    var sum: Int64 = 0
    var id: Int64 = 1
    for _ in 0..<count {
      sqlite3_bind_int64(select, 1, id)
      guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError.failed("read failed") }
      var item = Item()
      item.id = sqlite3_column_int64(select, 0)
      item.name = String(cString: sqlite3_column_text(select, 1))
      item.amount = sqlite3_column_int64(select, 2)
      item.note = sqlite3_column_type(select, 3) == SQLITE_NULL ? nil : String(cString: sqlite3_column_text(select, 3))
      sum &+= item.amount
      sqlite3_reset(select)
      id = id * 7_919 % Int64(count) + 1
    }
    sqlite3_finalize(select)
    sqlite3_exec(db, "COMMIT", nil, nil, nil)
    let readTime = Self.seconds() - readStart
    guard sum > 0 else { throw BenchError.failed("the reads found nothing") }
    return (insertTime, readTime)
  }

  static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
