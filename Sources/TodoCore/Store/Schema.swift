import DataOperation

#if canImport(Glibc)
import Glibc
#endif

/// The database schema of todo, step by step. Never edit a released step: add a new one.
public enum Schema {
  /// Version 1: tasks, tags, notes and the undo journal, with the indexes the filters use.
  static let version1 = """
    CREATE TABLE todo (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      uuid TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'deleted')),
      priority TEXT CHECK (priority IN ('H', 'M', 'L')),
      project TEXT,
      due INTEGER,
      created INTEGER NOT NULL,
      modified INTEGER NOT NULL,
      completed INTEGER
    );
    CREATE INDEX todo_by_status_due ON todo (status, due);
    CREATE INDEX todo_by_project ON todo (project, status);
    CREATE TABLE tag (
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      PRIMARY KEY (todo_id, name)
    ) WITHOUT ROWID;
    CREATE INDEX tag_by_name ON tag (name, todo_id);
    CREATE TABLE note (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      created INTEGER NOT NULL,
      text TEXT NOT NULL
    );
    CREATE INDEX note_by_todo ON note (todo_id);
    CREATE TABLE journal_entry (
      id INTEGER PRIMARY KEY,
      created INTEGER NOT NULL,
      command TEXT NOT NULL,
      summary TEXT NOT NULL
    );
    CREATE TABLE journal_change (
      journal_id INTEGER NOT NULL REFERENCES journal_entry (id) ON DELETE CASCADE,
      todo_id INTEGER NOT NULL,
      sequence INTEGER NOT NULL,
      before TEXT,
      PRIMARY KEY (journal_id, todo_id)
    ) WITHOUT ROWID;
    """

  /// Version 2: all-day dates, and wait, scheduled and until.
  ///
  /// Each date is two columns: the instant (for an all-day date, the local start of the day when
  /// it was written: what lists sort by and what indexes range over) and, for an all-day date,
  /// the day itself as `YYYY-MM-DD` (`due_day`…), which is what it means wherever the user is.
  /// `end_reason` says why a task was closed by todo itself (`expired`: its `until` passed).
  ///
  /// Version 1 stored every due date as an instant; one at exactly local midnight or 23:59:59
  /// (what `today`, `fri`, `2026-12-24` and `eod`, `eow` … gave) was a day and becomes one,
  /// read in the time zone of the process that upgrades the file; the undo journal's snapshots
  /// are upgraded the same way, so that undoing an older step puts back a day, not an instant.
  static let version2 = """
    ALTER TABLE todo ADD COLUMN due_day TEXT;
    ALTER TABLE todo ADD COLUMN wait INTEGER;
    ALTER TABLE todo ADD COLUMN wait_day TEXT;
    ALTER TABLE todo ADD COLUMN scheduled INTEGER;
    ALTER TABLE todo ADD COLUMN scheduled_day TEXT;
    ALTER TABLE todo ADD COLUMN until INTEGER;
    ALTER TABLE todo ADD COLUMN until_day TEXT;
    ALTER TABLE todo ADD COLUMN end_reason TEXT;
    CREATE INDEX todo_by_wait ON todo (wait) WHERE wait IS NOT NULL;
    CREATE INDEX todo_by_scheduled ON todo (scheduled) WHERE scheduled IS NOT NULL;
    CREATE INDEX todo_by_until ON todo (until) WHERE until IS NOT NULL;
    UPDATE todo SET
      due_day = date(due, 'unixepoch', 'localtime'),
      due = unixepoch(date(due, 'unixepoch', 'localtime'), 'utc')
    WHERE due IS NOT NULL AND time(due, 'unixepoch', 'localtime') IN ('00:00:00', '23:59:59');
    UPDATE journal_change SET before = json_set(before,
        '$.due_day', date(before ->> 'due', 'unixepoch', 'localtime'),
        '$.due', unixepoch(date(before ->> 'due', 'unixepoch', 'localtime'), 'utc'))
    WHERE before IS NOT NULL AND before ->> 'due' IS NOT NULL
      AND time(before ->> 'due', 'unixepoch', 'localtime') IN ('00:00:00', '23:59:59');
    """

  /// Version 3: series (recurrence), subtasks, dependencies and time intervals.
  ///
  /// - A series holds its rule and its template (the fields each new instance starts from); its
  ///   instances are tasks with `series_id` and their number `series_index`. At most one instance
  ///   of a series is pending: a unique index says so, whatever process writes (until version 8).
  /// - `parent_id` makes a task a subtask; a parent that is purged leaves its children as they
  ///   are, without a parent.
  /// - `dependency` (`todo_id` waits for `depends_on`).
  /// - `interval`: the times a task was worked on; the one still running has no `stopped`, and
  ///   there is at most one such interval (one active task; from version 6, one per task).
  static let version3 = """
    CREATE TABLE series (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      uuid TEXT NOT NULL UNIQUE,
      rule TEXT NOT NULL,
      title TEXT NOT NULL,
      priority TEXT CHECK (priority IN ('H', 'M', 'L')),
      project TEXT,
      tags TEXT NOT NULL DEFAULT '',
      due INTEGER, due_day TEXT,
      wait INTEGER, wait_day TEXT,
      scheduled INTEGER, scheduled_day TEXT,
      until INTEGER, until_day TEXT,
      ended INTEGER,
      created INTEGER NOT NULL,
      modified INTEGER NOT NULL
    );
    ALTER TABLE todo ADD COLUMN parent_id INTEGER REFERENCES todo (id) ON DELETE SET NULL;
    ALTER TABLE todo ADD COLUMN series_id INTEGER;
    ALTER TABLE todo ADD COLUMN series_index INTEGER;
    CREATE INDEX todo_by_parent ON todo (parent_id) WHERE parent_id IS NOT NULL;
    CREATE INDEX todo_by_series ON todo (series_id, series_index) WHERE series_id IS NOT NULL;
    CREATE UNIQUE INDEX todo_one_pending_per_series ON todo (series_id) WHERE series_id IS NOT NULL AND status = 'pending';
    CREATE TABLE dependency (
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      depends_on INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      PRIMARY KEY (todo_id, depends_on),
      CHECK (todo_id != depends_on)
    ) WITHOUT ROWID;
    CREATE INDEX dependency_by_target ON dependency (depends_on, todo_id);
    CREATE TABLE interval (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      started INTEGER NOT NULL,
      stopped INTEGER,
      CHECK (stopped IS NULL OR stopped >= started)
    );
    CREATE INDEX interval_by_todo ON interval (todo_id, started);
    CREATE UNIQUE INDEX interval_one_running ON interval (stopped IS NULL) WHERE stopped IS NULL;
    """

  /// Version 4: what another program stored with a task that `todo` has no field for, kept so an
  /// import followed by an export gives it back: Taskwarrior's user-defined attributes (`name`:
  /// the key, `value`: its JSON text), todo.txt's other `key:value` words (`name` "words") and
  /// iCalendar's other properties and components (`name` "properties": the unfolded lines).
  static let version4 = """
    CREATE TABLE extra (
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      format TEXT NOT NULL CHECK (format IN ('taskwarrior', 'todotxt', 'ical')),
      name TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (todo_id, format, name)
    ) WITHOUT ROWID;
    """

  /// Version 5: the state of `todo sync`, per item of a synced collection (a `.ics` file of its
  /// vdir): the task it mirrors (by UUID, which never changes), the item as last synced (`base`,
  /// the file's text: the common ancestor of a three-way merge), the file's etag (modification
  /// time and size) and content hash when last seen, and a hash of the task's rendering then
  /// (`rendered`: the task changed here since when its rendering differs), the base before this
  /// side's last write (`previous`: the conflict resolver's base until the write reaches the
  /// server). `removed`: the file
  /// was deleted on the other side and the task deleted here; it comes back if edited. And the
  /// conflicts a merge decided (both sides changed a field to different values).
  static let version5 = """
    CREATE TABLE sync_item (
      collection TEXT NOT NULL,
      file TEXT NOT NULL,
      uid TEXT NOT NULL,
      task_uuid TEXT NOT NULL,
      etag TEXT NOT NULL,
      hash TEXT NOT NULL,
      rendered TEXT NOT NULL,
      base TEXT NOT NULL,
      previous TEXT NOT NULL DEFAULT '',
      removed INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (collection, file)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX sync_item_by_task ON sync_item (collection, task_uuid);
    CREATE TABLE sync_conflict (
      id INTEGER PRIMARY KEY,
      collection TEXT NOT NULL,
      task_uuid TEXT NOT NULL,
      field TEXT NOT NULL,
      kept TEXT NOT NULL,
      lost TEXT NOT NULL,
      kept_side TEXT NOT NULL CHECK (kept_side IN ('local', 'remote')),
      decided INTEGER NOT NULL
    );
    """

  /// Version 6: several tasks may be active at once, as Taskwarrior allows (two started tasks
  /// refused a whole import). The index that allowed one running interval in all becomes one
  /// that allows one running interval per task.
  static let version6 = """
    DROP INDEX interval_one_running;
    CREATE UNIQUE INDEX interval_running ON interval (todo_id) WHERE stopped IS NULL;
    """

  /// Version 7: the journal's changes by task, so that `show` lists a task's own history
  /// without reading the whole journal.
  static let version7 = """
    CREATE INDEX journal_change_by_todo ON journal_change (todo_id);
    """

  /// Version 8:
  /// - A series may have several pending instances, as Taskwarrior makes one for each period an
  ///   overdue series missed (an import kept only the newest in its series). todo itself still
  ///   makes a next instance only when the series' latest one closes.
  /// - `pending_link`: a parent or dependency an import named by a UUID that is not here yet (a
  ///   subtask synced before its parent, a Taskwarrior task that depends on one outside the
  ///   file). It is kept, exported as it came, and made a link when that task arrives.
  static let version8 = """
    DROP INDEX todo_one_pending_per_series;
    CREATE TABLE pending_link (
      todo_id INTEGER NOT NULL REFERENCES todo (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('parent', 'depends')),
      uuid TEXT NOT NULL,
      PRIMARY KEY (todo_id, kind, uuid)
    ) WITHOUT ROWID;
    CREATE INDEX pending_link_by_uuid ON pending_link (uuid);
    """

  /// Version 9: reminders.
  /// - `remind`: a task's reminders, comma-separated in their canonical spelling (`due-15min`,
  ///   `2026-12-01T08:00:00Z`; see `Reminder`), read and written with the task (so undo, copies
  ///   and exports carry them); an index finds the pending tasks that have any.
  /// - `reminder_delivery`: each reminder delivered (or dismissed, or too old to show), by the
  ///   task's UUID and the instant it was for; written by `todo remind --check` before it notifies,
  ///   so that two checks never deliver one reminder twice. Not in the undo journal: undoing a
  ///   change does not make a reminder ring again. A reminder whose time moves is a new one.
  static let version9 = """
    ALTER TABLE todo ADD COLUMN remind TEXT;
    CREATE INDEX todo_with_reminders ON todo (id) WHERE remind IS NOT NULL AND status = 'pending';
    CREATE TABLE reminder_delivery (
      task_uuid TEXT NOT NULL,
      fire INTEGER NOT NULL,
      delivered INTEGER NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('shown', 'late', 'skipped', 'dismissed', 'acknowledged')),
      PRIMARY KEY (task_uuid, fire)
    ) WITHOUT ROWID;
    """

  /// Every step, in order.
  /// The schema version this program makes (and upgrades every older database to).
  public static var latestVersion: Int { migrator.latestVersion }

  public static let migrator = Migrator([
    Migration(version: 1, sql: version1), Migration(version: 2, sql: version2), Migration(version: 3, sql: version3),
    Migration(version: 4, sql: version4), Migration(version: 5, sql: version5), Migration(version: 6, sql: version6),
    Migration(version: 7, sql: version7), Migration(version: 8, sql: version8), Migration(version: 9, sql: version9),
  ])
}

/// Opening the todo database.
public enum TodoDatabase {
  /// Opens (creating if needed) and migrates the database at `path`. Nothing is written to a file
  /// that is not a todo database (another program's SQLite file, or one from a newer todo): those
  /// are refused before the journal mode is switched to WAL.
  ///
  /// `readOnly` opens an existing file without writing anything (it must already be at the current
  /// schema version); `immutable` additionally takes no locks and creates no `-wal`/`-shm` files,
  /// for a file this user may not write and that has no write-ahead log in use.
  ///
  /// ```swift
  /// let context = try TodoDatabase.open(path: "/home/me/.local/share/todo/todo.db")
  /// ```
  /// - Throws: `TodoError.database` when the file cannot be opened, is not a todo database, or was
  ///   written by a newer version of todo.
  /// `upgrade` false leaves the file exactly as it is (no switch to WAL, no migration): for a dry
  /// run, which then runs its operation through `upgraded(_:)` inside its rolled-back transaction.
  /// `mapped` false reads every page with a system call, none through the memory map
  /// (`mappedBytes`).
  public static func open(path: String, readOnly: Bool = false, immutable: Bool = false, upgrade: Bool = true, mapped: Bool = true)
    throws(TodoError) -> Database
  {
    do throws(DatabaseError) {
      var options = Database.Options()
      options.readOnly = readOnly
      options.immutable = immutable
      options.wal = false
      options.mmapSize = mapped ? mappedBytes : 0
      let context = try Database(path: path, options: options)
      try TextSearch.define.operate(in: context)
      try RegularExpression.define.operate(in: context)
      try UserAttribute.define.operate(in: context)
      try Reminder.define.operate(in: context)
      let version = try checkOwnership.operate(in: context)
      guard upgrade else { return context }
      if !readOnly { try Database.enableWAL().operate(in: context) }
      // An up-to-date database (nearly always) needs no migration step at all.
      if version != Schema.migrator.latestVersion { _ = try Schema.migrator.migrate().operate(in: context) }
      return context
    } catch {
      throw .database(error)
    }
  }

  /// How much of a database file is read through a memory map (`Database.Options.mmapSize`),
  /// the rest with a read per page. Mapped, a page is read from the kernel's cache where it
  /// lies: no system call, no copy, and no page of SQLite's own cache to allocate and fault in.
  /// A list of 10k tasks took 347 page faults rather than 449, and its processor time went from
  /// 4.35 ms to 3.70 ms (the `sqlite3` shell's own query: 3.76 ms). The pages read count in the
  /// resident memory of the process: at 8 MiB (a file of some 16k tasks is mapped whole) a scan
  /// of a million tasks still stays within the 30 MiB `make bench` allows; a session that stays
  /// open (the shell, `todo ui`) reads without the map (`mapped`, the command line's `Session.mapsFiles`). Writes are unchanged:
  /// SQLite writes with a system call, never through the map. A read error on a mapped page
  /// (a failing disk) ends the process with SIGBUS instead of being an error SQLite returns, so
  /// a file that may be damaged is not mapped (`openUnchanged`).
  static let mappedBytes: Int64 = 8 << 20

  /// Opens the database at `path` to read it exactly as it is: read-only, not upgraded, not
  /// switched to WAL, and, when there is no write-ahead log (no `-wal` file), immutable: the file
  /// alone then holds every task, and SQLite creates no `-wal`/`-shm` files next to it (which
  /// would outlive a later chmod, or clutter a damaged file's folder). With a log (another todo
  /// has the file open, or one stopped before checkpointing), it is read the normal way, log
  /// included: a writer may move pages from the log into the file while it is read. Its pages
  /// are read with system calls, not through a memory map: `check` and `recover` read damaged
  /// files, maybe on a failing disk, where a read error must stay an error that is reported
  /// (and a recovery's partial copy removed), not a SIGBUS that ends the process.
  public static func openUnchanged(path: String) throws(TodoError) -> Database {
    try open(path: path, readOnly: true, immutable: hasNoLog(path), upgrade: false, mapped: false)
  }

  /// No write-ahead log beside the file: nobody has it open in WAL mode, and the file alone holds
  /// every task, so it can be read immutable (which creates no `-wal`/`-shm` files).
  public static func hasNoLog(_ path: String) -> Bool {
    access(path + "-wal", F_OK) != 0
  }

  /// No frames in the write-ahead log (there is none, or it is empty): the file alone holds
  /// every task. Weaker than `hasNoLog` (a reader may have the file open), for when an immutable
  /// read is the only one left (a full disk, a folder this user may not write, where SQLite
  /// cannot make the `-shm` file a WAL database needs even to read).
  public static func logIsEmpty(_ path: String) -> Bool {
    var status = stat()
    return stat(path + "-wal", &status) != 0 || status.st_size == 0
  }

  /// `operation`, run after the migrations a database opened with `upgrade: false` may still need
  /// (none when it is up to date), so that a dry run on an older database sees the current schema
  /// and, rolled back, leaves the file as it was.
  public static func upgraded<Value>(_ operation: DataOperation<Value, TodoError>) -> DataOperation<Value, TodoError> {
    Schema.migrator.migrate().mapError(TodoError.init).flatMap { _ in operation }
  }

  /// The schema version, read in one statement with the number of tables; fails, reading only,
  /// when the file is another program's database or a newer todo's.
  static let checkOwnership = versionAndTables.flatMap { version, tables in
    if version > Schema.migrator.latestVersion {
      return DataOperation<Int, DatabaseError>.fail(.schemaTooNew(found: version, supported: Schema.migrator.latestVersion))
    }
    if version == 0 && tables > 0 {
      return .fail(.foreignDatabase(tables: tables))
    }
    return .pure(version)
  }

  private static let versionAndTables = DataOperation<(Int, Int), DatabaseError> { connection throws(DatabaseError) in
    let found = try connection.first(
      "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema WHERE type = 'table')", []
    ) { row throws(DatabaseError) in (Int(try row.integer(at: 0) ?? 0), Int(try row.integer(at: 1) ?? 0)) }
    return found ?? (0, 0)
  }
}
