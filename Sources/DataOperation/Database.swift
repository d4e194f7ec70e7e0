import CSQLite
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Owns one SQLite connection and runs operations on it one at a time.
///
/// The role `NSManagedObjectContext.performAndWait` plays in Core Data: operations on a context run
/// one at a time, each holding the context's lock (a recursive mutex) for its whole run. An
/// operation that runs another one on the same context from inside (a nested `operate(in:)`) runs
/// inline instead of deadlocking. Only the same context is
/// detected: an operation on A that waits for one on B that waits for one on A deadlocks, so do
/// not nest across contexts in a cycle.
///
/// ```swift
/// let context = try Database(path: "/tmp/todo.db")
/// let count = try Repository<Book>().count().operate(in: context)
/// ```
public final class Database: @unchecked Sendable {
  // @unchecked: `connection` is only touched while holding `lock`, which `perform` guarantees.
  private let connection: Connection
  /// A recursive mutex (not a serial dispatch queue: `DispatchQueue.sync` is generic and not
  /// inlinable, so each result type it returned had its metadata built at run time, about 100k
  /// instructions per command).
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  /// The serial queue `performAsync` submits to, made on first use (guarded by `asyncLock`, never
  /// by `lock`: submitting must not wait for a running operation).
  private var asyncQueue: DispatchQueue?
  private let asyncLock: UnsafeMutablePointer<pthread_mutex_t>
  /// The path the context was opened with (`:memory:` for an in-memory database).
  public let path: String

  /// How a database is opened.
  public struct Options: Sendable {
    /// How long a write waits for another process's lock before failing, in milliseconds.
    public var busyTimeout: Int32 = 5_000
    /// Create the file when it does not exist.
    public var create = true
    /// Open read-only (no journal-mode change either).
    public var readOnly = false
    /// Switch a file database to WAL journaling on open. Turn it off to inspect a file before
    /// deciding to change it, then call `Database.enableWAL()`.
    public var wal = true
    /// With `readOnly`: treat the file as unchangeable (SQLite's `immutable=1`): no locks and no
    /// `-wal`/`-shm` files are created next to it. Only for files nobody can be writing.
    public var immutable = false
    /// How much of a file database SQLite reads through a memory map (`PRAGMA mmap_size`), in
    /// bytes; 0 (SQLite's default) reads every page with a system call into its own page cache.
    /// Mapped pages are the kernel's own cache, shared with other processes and with no copy;
    /// writes still go through the journal. An I/O error while reading a mapped page is a
    /// SIGBUS rather than an error SQLite returns (SQLite's "Memory-Mapped I/O").
    public var mmapSize: Int64 = 0

    /// The defaults: create, read-write, 5 s busy timeout.
    ///
    /// ```swift
    /// var options = Database.Options(); options.readOnly = true
    /// ```
    public init() {}
  }

  /// Opens (and by default creates) a database file with WAL, a busy timeout, foreign keys on and
  /// extended result codes.
  ///
  /// ```swift
  /// let context = try Database(path: "todo.db")
  /// ```
  /// - Throws: `DatabaseError.sqlite` when the file cannot be opened or is not a database.
  public init(path: String, options: Options = Options()) throws(DatabaseError) {
    _ = sqliteConfigured
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    flags |= options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
    if options.create && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
    if path == ":memory:" { flags |= SQLITE_OPEN_MEMORY }
    var handle: OpaquePointer?
    var location = path
    if options.readOnly && options.immutable {
      flags |= SQLITE_OPEN_URI
      location = "file:" + Self.percentEncoded(path) + "?immutable=1"
    }
    let code = sqlite3_open_v2(location, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error = Connection.error(code: code, handle: handle, sql: nil)
      if let handle { sqlite3_close_v2(handle) }
      throw .sqlite(
        SQLiteError(
          extendedCode: error.extendedCode, message: "\(error.message): \(path)", sql: nil, systemErrorNumber: error.systemErrorNumber))
    }
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, options.busyTimeout)
    let connection = Connection(handle: handle)
    if options.mmapSize > 0 && path != ":memory:" {
      try connection.execute("PRAGMA mmap_size=\(options.mmapSize)")
    }
    // Reading the schema first turns "not a database" and "corrupt" into an error at open time.
    _ = try connection.scalar("SELECT count(*) FROM sqlite_schema")
    if options.wal && !options.readOnly && path != ":memory:" {
      try Self.switchToWAL(connection)
    }
    try connection.execute("PRAGMA foreign_keys=ON")
    self.connection = connection
    self.path = path
    self.lock = Self.mutex(recursive: true)
    self.asyncLock = Self.mutex(recursive: false)
  }

  deinit {
    for mutex in [lock, asyncLock] {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }
  }

  private static func mutex(recursive: Bool) -> UnsafeMutablePointer<pthread_mutex_t> {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    return mutex
  }

  private static func switchToWAL(_ connection: Connection) throws(DatabaseError) {
    let mode = try connection.scalar("PRAGMA journal_mode=WAL")
    if mode != .text("wal") {
      throw .sqlite(
        SQLiteError(extendedCode: SQLITE_ERROR, message: "could not switch to WAL mode", sql: "PRAGMA journal_mode=WAL"))
    }
  }

  /// Switches a file database to WAL journaling (a no-op when it already is one, or in memory).
  ///
  /// ```swift
  /// var options = Database.Options(); options.wal = false
  /// let context = try Database(path: path, options: options)
  /// // … check the file is ours …
  /// try Database.enableWAL().operate(in: context)
  /// ```
  public static func enableWAL() -> DataOperation<Void, DatabaseError> {
    DataOperation { connection throws(DatabaseError) in
      // A file switched once stays in WAL mode: then there is nothing to do.
      let mode = try connection.scalar("PRAGMA journal_mode")
      guard mode != .text("memory"), mode != .text("wal") else { return }
      try switchToWAL(connection)
    }
  }

  /// Escapes the characters a `file:` URI gives meaning to.
  private static func percentEncoded(_ path: String) -> String {
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7F...:
        let hex = Array("0123456789ABCDEF")
        encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
      default:
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return encoded
  }

  /// Opens a fresh private in-memory database (for tests and scratch work).
  ///
  /// ```swift
  /// let context = try Database.inMemory()
  /// ```
  /// - Throws: `DatabaseError.sqlite` when SQLite cannot allocate it.
  public static func inMemory() throws(DatabaseError) -> Database {
    try Database(path: ":memory:")
  }

  /// Lends the connection to `body` under the context's lock, blocking the caller while another
  /// thread holds it; runs inline when this thread already does (a nested operation).
  func perform<Value, Failure: Error>(_ body: (Connection) throws(Failure) -> Value) throws(Failure) -> Value {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return try body(connection)
  }

  /// Lends the connection to `body` on a serial queue of the context's, without blocking the
  /// caller. Asynchronous operations run in the order they were submitted; a blocking `operate`
  /// from another thread may run before one submitted earlier (they share the lock, not a queue).
  func performAsync(_ body: @escaping @Sendable (Connection) -> Void) {
    pthread_mutex_lock(asyncLock)
    let queue = asyncQueue ?? DispatchQueue(label: "DataOperation.Database")
    asyncQueue = queue
    pthread_mutex_unlock(asyncLock)
    queue.async { [self] in perform(body) }
  }
}

/// Process-wide SQLite settings, applied once before the first connection opens: memory
/// statistics off (nothing here reads them; they cost a mutex per allocation).
private let sqliteConfigured: Void = {
  _ = csqlite_disable_memory_statistics()
}()

/// The former name of `Database`, from before the user's contexts (`todo context`) made the
/// word mean two things.
@available(*, deprecated, renamed: "Database")
public typealias Context = Database
