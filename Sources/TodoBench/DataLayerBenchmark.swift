import CSQLite
import DataOperation

#if canImport(Glibc)
import Glibc
#endif

/// The data layer against the SQLite C API, in one process on the same kind of file: COUNT
/// inserts in one transaction, and COUNT point reads by primary key, each decoded into a struct.
///
/// The two sides run interleaved in chunks of `chunk` operations: a chunk through the
/// repository, then the same chunk on the C API (or the other way round: the order alternates),
/// each side's transaction staying open across its chunks. A slow spell of this shared machine
/// lasts longer than a chunk, so it lands on both sides instead of on whichever ran during it;
/// whole runs one after the other made the read ratio swing from 0.98 to 1.12 between runs.
/// A round times every chunk and each side's commit; its ratio is the repository's total over
/// the C API's. The ratio printed is the median of `rounds` rounds' ratios; the times printed are
/// each side's median.
struct DataLayerBenchmark {
  var count: Int
  var rounds = 21
  var chunk = 2_000

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

  /// Seconds spent by each side in one round (a class: the repository's operation fills it in
  /// from its closure, on this thread).
  private final class Times: @unchecked Sendable {
    var ops = 0.0
    var c = 0.0
    /// Inserts only: the C API binding its text without a copy (see `CSide.insert`).
    var copyFree = 0.0
    var failure: BenchError?
    var sums: (ops: Int64, c: Int64) = (0, 0)
  }

  func run() throws {
    var inserts: [Times] = []
    var reads: [Times] = []
    for round in 0..<rounds {
      let folder = "/tmp/todo-bench-\(getpid())-\(round)"
      mkdir(folder, 0o700)
      defer {
        for name in ["ops", "c", "cs"] {
          for suffix in ["", "-wal", "-shm"] { unlink(folder + "/" + name + ".db" + suffix) }
        }
        rmdir(folder)
      }
      let context = try Database(path: folder + "/ops.db")
      let c = try CSide(path: folder + "/c.db", copyFree: false)
      let copyFree = try CSide(path: folder + "/cs.db", copyFree: true)
      try DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
        try connection.executeScript(Self.schema)
      }.operate(in: context)
      // Alternate which side goes first, so neither always gets the warmer cache.
      let opsFirst = round % 2 == 0
      inserts.append(try insert(context, c, copyFree, opsFirst: opsFirst))
      reads.append(try read(context, c, opsFirst: !opsFirst))
    }
    func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    print("workload\tcount\tdataoperation_s\tc_api_s\tratio")
    for (kind, times) in [("insert", inserts), ("read", reads)] {
      let ratio = median(times.map { $0.ops / $0.c })
      print("\(kind)\t\(count)\t\(format(median(times.map(\.ops))))\t\(format(median(times.map(\.c))))\t\(format(ratio))")
    }
    let ratio = median(inserts.map { $0.ops / $0.copyFree })
    print("insert-copy-free\t\(count)\t\(format(median(inserts.map(\.ops))))\t\(format(median(inserts.map(\.copyFree))))\t\(format(ratio))")
  }

  private func format(_ value: Double) -> String {
    let scaled = (value * 10_000).rounded() / 10_000
    return String(describing: scaled)
  }

  /// The chunks of `0..<count`.
  private var chunks: [Range<Int>] {
    stride(from: 0, to: count, by: chunk).map { start in start..<min(start + chunk, count) }
  }

  /// COUNT inserts on each side, each in one transaction: through `Repository.add`, on the C
  /// API, and on the C API binding text without a copy, chunk by chunk (each chunk in another
  /// order); each side's time includes its BEGIN and COMMIT.
  private func insert(_ context: Database, _ c: CSide, _ copyFree: CSide, opsFirst: Bool) throws -> Times {
    let items = Repository<Item>()
    let times = Times()
    let chunks = self.chunks
    let begin = Self.seconds()
    // The repository's transaction is the operation's own; the C side's chunks run inside it.
    let committed = try DataOperation<Double, DatabaseError> { connection throws(DatabaseError) in
      // The repository's BEGIN ran between `begin` and here.
      var last = Self.seconds()
      times.ops += last - begin
      c.begin()
      var now = Self.seconds()
      times.c += now - last
      last = now
      copyFree.begin()
      now = Self.seconds()
      times.copyFree += now - last
      last = now
      let sides = opsFirst ? ["ops", "c", "copy-free"] : ["copy-free", "c", "ops"]
      for (number, range) in chunks.enumerated() {
        for side in sides[(number % 3)...] + sides[..<(number % 3)] {
          if side == "ops" {
            for index in range {
              _ = try items.add { item in
                item.name = Self.name(index)
                item.amount = Int64(index)
                item.note = index % 2 == 0 ? "even" : nil
              }.run(connection)
            }
            let now = Self.seconds()
            times.ops += now - last
            last = now
          } else {
            let side = side == "c" ? c : copyFree
            if times.failure == nil { times.failure = side.insert(range) }
            let now = Self.seconds()
            if side === c { times.c += now - last } else { times.copyFree += now - last }
            last = now
          }
        }
      }
      return last
    }.transaction().operate(in: context)
    // From the end of the last chunk: the repository's COMMIT.
    times.ops += Self.seconds() - committed
    if let failure = times.failure { throw failure }
    var start = Self.seconds()
    c.commit()
    times.c += Self.seconds() - start
    start = Self.seconds()
    copyFree.commit()
    times.copyFree += Self.seconds() - start
    return times
  }

  /// COUNT point reads on each side, in one read transaction each, chunk by chunk.
  private func read(_ context: Database, _ c: CSide, opsFirst: Bool) throws -> Times {
    let items = Repository<Item>()
    let times = Times()
    let chunks = self.chunks
    let count = Int64(self.count)
    let begin = Self.seconds()
    let finished = try DataOperation<Double, DatabaseError> { connection throws(DatabaseError) in
      // The repository's BEGIN ran between `begin` and here.
      var last = Self.seconds()
      times.ops += last - begin
      c.beginRead()
      let now = Self.seconds()
      times.c += now - last
      last = now
      // The same pseudo-random order of keys on both sides.
      var opsID: Int64 = 1
      var cID: Int64 = 1
      for (number, range) in chunks.enumerated() {
        for side in (number % 2 == 0) == opsFirst ? ["ops", "c"] : ["c", "ops"] {
          if side == "ops" {
            for _ in range {
              times.sums.ops &+= try items.object(id: opsID).run(connection).amount
              opsID = opsID * 7_919 % count + 1
            }
            let now = Self.seconds()
            times.ops += now - last
            last = now
          } else {
            times.sums.c &+= c.read(range.count, from: &cID, count: count)
            let now = Self.seconds()
            times.c += now - last
            last = now
          }
        }
      }
      return last
    }.transaction(.deferred).operate(in: context)
    times.ops += Self.seconds() - finished
    let start = Self.seconds()
    c.commit()
    times.c += Self.seconds() - start
    guard times.sums.ops > 0, times.sums.ops == times.sums.c else {
      throw BenchError.failed("the reads disagree: \(times.sums.ops) through the repository, \(times.sums.c) on the C API")
    }
    return times
  }

  /// The same work written directly on the C API: one prepared statement each, bound and stepped.
  private final class CSide: @unchecked Sendable {
    let db: OpaquePointer
    let insertStatement: OpaquePointer
    let selectStatement: OpaquePointer
    let copyFree: Bool

    init(path: String, copyFree: Bool) throws {
      self.copyFree = copyFree
      var handle: OpaquePointer?
      // The flags `Database` opens with: the connection's own mutex is off on both sides (each side
      // uses its connection from one thread), so neither pays a lock per call that the other does not.
      let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
      guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let db = handle
      else { throw BenchError.failed("cannot open \(path)") }
      self.db = db
      sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; " + DataLayerBenchmark.schema, nil, nil, nil)
      var insert: OpaquePointer?
      var select: OpaquePointer?
      sqlite3_prepare_v2(db, "INSERT INTO item (name, amount, note) VALUES (?, ?, ?)", -1, &insert, nil)
      sqlite3_prepare_v2(db, "SELECT * FROM item WHERE id = ?", -1, &select, nil)
      guard let insert, let select else { throw BenchError.failed("cannot prepare the C API's statements") }
      insertStatement = insert
      selectStatement = select
    }

    deinit {
      sqlite3_finalize(insertStatement)
      sqlite3_finalize(selectStatement)
      sqlite3_close_v2(db)
    }

    func begin() { sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) }
    func beginRead() { sqlite3_exec(db, "BEGIN DEFERRED", nil, nil, nil) }
    func commit() { sqlite3_exec(db, "COMMIT", nil, nil, nil) }

    /// A C string that lives as long as the program, bound without a copy.
    nonisolated(unsafe) static let even = strdup("even")!

    /// The budget's side binds text as Swift code calling the C API does (`sqlite3_bind_text`
    /// with a `String`, which Swift lends as a C string for the call only, so SQLite must copy
    /// it: SQLITE_TRANSIENT). The copy-free side, reported beside it, binds SQLITE_STATIC from
    /// a C string kept alive until the step is done: what the repository does for short text
    /// (in its statements' slots), written by hand.
    func insert(_ range: Range<Int>) -> BenchError? {
      let insert = insertStatement
      guard copyFree else {
        for index in range {
          let name = DataLayerBenchmark.name(index)
          sqlite3_bind_text(insert, 1, name, -1, csqlite_transient())
          sqlite3_bind_int64(insert, 2, Int64(index))
          if index % 2 == 0 { sqlite3_bind_text(insert, 3, "even", -1, csqlite_transient()) } else { sqlite3_bind_null(insert, 3) }
          guard sqlite3_step(insert) == SQLITE_DONE else { return BenchError.failed("insert failed") }
          sqlite3_reset(insert)
        }
        return nil
      }
      for index in range {
        let code = DataLayerBenchmark.name(index).withCString { name in
          sqlite3_bind_text(insert, 1, name, -1, nil)
          sqlite3_bind_int64(insert, 2, Int64(index))
          if index % 2 == 0 { sqlite3_bind_text(insert, 3, Self.even, -1, nil) } else { sqlite3_bind_null(insert, 3) }
          defer { sqlite3_reset(insert) }
          return sqlite3_step(insert)
        }
        guard code == SQLITE_DONE else { return BenchError.failed("insert failed") }
      }
      return nil
    }

    /// `reads` point reads from key `id` on (advanced as the repository's side advances it);
    /// the sum of the amounts read.
    func read(_ reads: Int, from id: inout Int64, count: Int64) -> Int64 {
      let select = selectStatement
      var sum: Int64 = 0
      for _ in 0..<reads {
        sqlite3_bind_int64(select, 1, id)
        guard sqlite3_step(select) == SQLITE_ROW else { return 0 }
        var item = Item()
        item.id = sqlite3_column_int64(select, 0)
        item.name = String(cString: sqlite3_column_text(select, 1))
        item.amount = sqlite3_column_int64(select, 2)
        item.note = sqlite3_column_type(select, 3) == SQLITE_NULL ? nil : String(cString: sqlite3_column_text(select, 3))
        sum &+= item.amount
        sqlite3_reset(select)
        id = id * 7_919 % count + 1
      }
      return sum
    }
  }

  /// The name of the row at `index`: the same call on both sides. Written inline, the
  /// interpolation cost the two sides differently (inside the repository's closure the compiler
  /// left it generic, calling `description` through the protocol; in the C loop it was
  /// specialised), which measured the compiler's inlining rather than the data layer.
  @inline(never)
  static func name(_ index: Int) -> String { "item \(index)" }

  static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
