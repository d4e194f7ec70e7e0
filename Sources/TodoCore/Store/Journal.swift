import DataOperation

/// One command in the undo journal.
public struct JournalEntry: Entity, Equatable {
  public var id: Int64 = 0
  public var created: Int64 = 0
  /// The command line as typed (`done 3-7`).
  public var command = ""
  /// What it did, for `journal` (`completed 5 tasks`).
  public var summary = ""
  /// How many tasks it changed (read from `journal_change`; not a column of its own).
  public var changeCount = 0

  public init() {}

  public init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    created = try row.decode("created")
    command = try row.decode("command")
    summary = try row.decode("summary")
    if row.hasColumn("change_count") { changeCount = try row.decode("change_count") }
  }

  public func encode(to columns: inout Columns) {
    columns["created"] = created
    columns["command"] = command
    columns["summary"] = summary
  }
}

/// The undo journal: every mutating command records, in its own transaction, each task's state
/// before it changed (as JSON built by SQLite), so `undo` can put it back exactly.
enum Journal {
  /// Starts an entry for a command; the summary is filled in by `finish`.
  /// With a `summary`, the entry is complete at once (a command that knows what it did before
  /// it records it, like `add`) and needs no `finish`.
  static func begin(command: String, now: Int64, summary: String = "") -> DataOperation<JournalEntry, TodoError> {
    Repository<JournalEntry>().add { entry in
      entry.created = now
      entry.command = command
      entry.summary = summary
    }.mapError(TodoError.init)
  }

  /// Writes the entry's summary once the command knows what it did.
  static func finish(_ entry: JournalEntry, summary: String) -> DataOperation<JournalEntry, TodoError> {
    var finished = entry
    finished.summary = summary
    return Repository<JournalEntry>().update(finished).mapError(TodoError.init)
  }

  /// The snapshot of a task (of the row `todo`) as JSON: every column, its tags and its notes.
  static let snapshot = """
    json_object(
      'id', todo.id, 'uuid', todo.uuid, 'title', todo.title, 'status', todo.status, 'priority', todo.priority,
      'project', todo.project, 'due', todo.due, 'due_day', todo.due_day, 'wait', todo.wait,
      'wait_day', todo.wait_day, 'scheduled', todo.scheduled, 'scheduled_day', todo.scheduled_day,
      'until', todo.until, 'until_day', todo.until_day, 'end_reason', todo.end_reason,
      'created', todo.created, 'modified', todo.modified, 'completed', todo.completed,
      'parent_id', todo.parent_id, 'series_id', todo.series_id, 'series_index', todo.series_index,
      'remind', todo.remind,
      'tags', json((SELECT json_group_array(name) FROM tag WHERE tag.todo_id = todo.id)),
      'notes', json((SELECT json_group_array(json_object('id', id, 'created', created, 'text', text))
                     FROM note WHERE note.todo_id = todo.id)),
      'depends', json((SELECT json_group_array(depends_on) FROM dependency WHERE dependency.todo_id = todo.id)),
      'intervals', json((SELECT json_group_array(json_object('id', id, 'started', started, 'stopped', stopped))
                         FROM interval WHERE interval.todo_id = todo.id)),
      'extras', json((SELECT json_group_array(json_array(format, name, value)) FROM extra WHERE extra.todo_id = todo.id)),
      'links', json((SELECT json_group_array(json_array(kind, uuid)) FROM pending_link WHERE pending_link.todo_id = todo.id)),
      'series', (SELECT json_object(
                   'id', id, 'uuid', uuid, 'rule', rule, 'title', title, 'priority', priority, 'project', project,
                   'tags', tags, 'due', due, 'due_day', due_day, 'wait', wait, 'wait_day', wait_day,
                   'scheduled', scheduled, 'scheduled_day', scheduled_day, 'until', until, 'until_day', until_day,
                   'ended', ended, 'created', created, 'modified', modified)
                 FROM series WHERE series.id = todo.series_id))
    """

  /// Records that the command creates a task: undo removes it.
  static func recordCreated(entry: JournalEntry, todoID: Int64, on connection: Connection) throws(DatabaseError) {
    try connection.execute(
      "INSERT OR IGNORE INTO journal_change (journal_id, todo_id, sequence, before) VALUES (?, ?, 0, NULL)",
      [.integer(entry.id), .integer(todoID)])
  }

  /// Records, in one statement, the state of tasks a command is about to change (before it
  /// writes anything). Only the first record of a task in an entry counts: that is its state
  /// before the command. `sequence` keeps the order of `todoIDs`.
  static func record(entry: JournalEntry, todoIDs: [Int64], on connection: Connection) throws(DatabaseError) {
    guard !todoIDs.isEmpty else { return }
    try connection.execute(
      """
      INSERT OR IGNORE INTO journal_change (journal_id, todo_id, sequence, before)
      SELECT ?1, todo.id, (SELECT coalesce(max(sequence) + 1, 0) FROM journal_change WHERE journal_id = ?1) + changed.key,
        \(snapshot)
      FROM json_each(?2) AS changed JOIN todo ON todo.id = changed.value
      """, [.integer(entry.id), .text("[" + todoIDs.map(String.init).joinedText(",") + "]")])
  }

  /// What `undo` did.
  struct Reverted {
    var entry: JournalEntry
    var restoredIDs: [Int64]
    var removedIDs: [Int64]
  }

  /// Reverts the newest entry and removes it from the journal.
  static func undoLast() -> DataOperation<Reverted, TodoError> {
    DataOperation { connection throws(DatabaseError) -> Reverted? in
      guard
        let entry = try connection.first(
          "SELECT * FROM journal_entry ORDER BY id DESC LIMIT 1", [], { row throws(DatabaseError) in try JournalEntry(row: row) })
      else { return nil }
      var reverted = Reverted(entry: entry, restoredIDs: [], removedIDs: [])
      try connection.query(
        "SELECT todo_id, before IS NULL AS created FROM journal_change WHERE journal_id = ? ORDER BY sequence DESC",
        [.integer(entry.id)]
      ) { row throws(DatabaseError) in
        let id = try row.integer(at: 0) ?? 0
        if try row.integer(at: 1) == 1 { reverted.removedIDs.append(id) } else { reverted.restoredIDs.append(id) }
      }
      reverted.entry.changeCount = reverted.restoredIDs.count + reverted.removedIDs.count
      // Every task of the entry at once: the tasks are independent of each other.
      for statement in restoreStatements { try connection.execute(statement, [.integer(entry.id)]) }
      try connection.execute("DELETE FROM journal_entry WHERE id = ?", [.integer(entry.id)])
      reverted.restoredIDs.sort()
      reverted.removedIDs.sort()
      return reverted
    }
    .mapError(TodoError.init)
    .flatMap { reverted in
      guard let reverted else { return .fail(.nothingToUndo) }
      return .pure(reverted)
    }
  }

  /// Put every task a journal entry (`?1`) changed back exactly as its snapshot shows it (its row,
  /// tags and notes, with their ids), and remove the tasks it created (their tags and notes go
  /// with them, by the foreign keys).
  ///
  /// The tasks the entry created go first: a restored instance of a series may be pending again
  /// only once the next instance its completion created is gone (one pending instance per series).
  /// Snapshots written before version 3 have no parent, series, dependencies or intervals: those
  /// read as none. A series no task belongs to any more (its creation undone) is removed.
  private static let restoreStatements = [
    "DELETE FROM todo WHERE id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NULL)",
    """
    INSERT INTO series (id, uuid, rule, title, priority, project, tags, due, due_day, wait, wait_day, scheduled,
                        scheduled_day, until, until_day, ended, created, modified)
    SELECT s ->> 'id', s ->> 'uuid', s ->> 'rule', s ->> 'title', s ->> 'priority', s ->> 'project', s ->> 'tags',
           s ->> 'due', s ->> 'due_day', s ->> 'wait', s ->> 'wait_day', s ->> 'scheduled', s ->> 'scheduled_day',
           s ->> 'until', s ->> 'until_day', s ->> 'ended', s ->> 'created', s ->> 'modified'
    FROM (SELECT before -> 'series' AS s, sequence FROM journal_change
          WHERE journal_id = ?1 AND before IS NOT NULL AND before ->> 'series' IS NOT NULL)
    WHERE true
    -- The earliest snapshot of a series (before the command changed it) is written last, and wins.
    ORDER BY sequence DESC
    ON CONFLICT (id) DO UPDATE SET
      uuid = excluded.uuid, rule = excluded.rule, title = excluded.title, priority = excluded.priority,
      project = excluded.project, tags = excluded.tags, due = excluded.due, due_day = excluded.due_day,
      wait = excluded.wait, wait_day = excluded.wait_day, scheduled = excluded.scheduled,
      scheduled_day = excluded.scheduled_day, until = excluded.until, until_day = excluded.until_day,
      ended = excluded.ended, created = excluded.created, modified = excluded.modified
    """,
    """
    INSERT INTO todo (id, uuid, title, status, priority, project, due, due_day, wait, wait_day, scheduled,
                      scheduled_day, until, until_day, end_reason, created, modified, completed,
                      parent_id, series_id, series_index, remind)
    SELECT before ->> 'id', before ->> 'uuid', before ->> 'title', before ->> 'status', before ->> 'priority',
           before ->> 'project', before ->> 'due', before ->> 'due_day', before ->> 'wait', before ->> 'wait_day',
           before ->> 'scheduled', before ->> 'scheduled_day', before ->> 'until', before ->> 'until_day',
           before ->> 'end_reason', before ->> 'created', before ->> 'modified', before ->> 'completed',
           -- A parent purged since is no parent.
           (SELECT id FROM todo WHERE id = before ->> 'parent_id'), before ->> 'series_id', before ->> 'series_index',
           -- Snapshots written before version 9 have no reminders: those read as none.
           before ->> 'remind'
    FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL AND true
    -- Closed tasks first: an instance may be pending again only once its series has no other.
    ORDER BY (before ->> 'status') = 'pending', todo_id
    ON CONFLICT (id) DO UPDATE SET
      uuid = excluded.uuid, title = excluded.title, status = excluded.status,
      priority = excluded.priority, project = excluded.project, due = excluded.due, due_day = excluded.due_day,
      wait = excluded.wait, wait_day = excluded.wait_day, scheduled = excluded.scheduled,
      scheduled_day = excluded.scheduled_day, until = excluded.until, until_day = excluded.until_day,
      end_reason = excluded.end_reason,
      created = excluded.created, modified = excluded.modified, completed = excluded.completed,
      parent_id = excluded.parent_id, series_id = excluded.series_id, series_index = excluded.series_index,
      remind = excluded.remind
    """,
    "DELETE FROM tag WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT INTO tag (todo_id, name)
    SELECT change.todo_id, tag.value FROM journal_change AS change, json_each(change.before, '$.tags') AS tag
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL
    """,
    "DELETE FROM note WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT INTO note (id, todo_id, created, text)
    SELECT note.value ->> 'id', change.todo_id, note.value ->> 'created', note.value ->> 'text'
    FROM journal_change AS change, json_each(change.before, '$.notes') AS note
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL
    """,
    "DELETE FROM dependency WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT OR IGNORE INTO dependency (todo_id, depends_on)
    SELECT change.todo_id, target.value FROM journal_change AS change, json_each(change.before, '$.depends') AS target
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL AND target.value IN (SELECT id FROM todo)
    """,
    "DELETE FROM interval WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT INTO interval (id, todo_id, started, stopped)
    SELECT span.value ->> 'id', change.todo_id, span.value ->> 'started', span.value ->> 'stopped'
    FROM journal_change AS change, json_each(change.before, '$.intervals') AS span
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL
    """,
    // Snapshots written before version 4 have no extras: those read as none.
    "DELETE FROM extra WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT INTO extra (todo_id, format, name, value)
    SELECT change.todo_id, item.value ->> 0, item.value ->> 1, item.value ->> 2
    FROM journal_change AS change, json_each(change.before, '$.extras') AS item
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL
    """,
    // Snapshots written before version 8 have no pending links: those read as none.
    "DELETE FROM pending_link WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = ?1 AND before IS NOT NULL)",
    """
    INSERT OR IGNORE INTO pending_link (todo_id, kind, uuid)
    SELECT change.todo_id, link.value ->> 0, link.value ->> 1
    FROM journal_change AS change, json_each(change.before, '$.links') AS link
    WHERE change.journal_id = ?1 AND change.before IS NOT NULL
    """,
    "DELETE FROM series WHERE ?1 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM todo WHERE todo.series_id = series.id)",
  ]

  /// The newest entries first, with how many tasks each changed.
  static func history(limit: Int?) -> DataOperation<[JournalEntry], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.all(
        """
        SELECT journal_entry.*, (SELECT count(*) FROM journal_change WHERE journal_id = journal_entry.id) AS change_count
        FROM journal_entry ORDER BY id DESC LIMIT ?
        """, [.integer(Int64(limit ?? -1))]
      ) { row throws(DatabaseError) in try JournalEntry(row: row) }
    }.mapError(TodoError.init)
  }
}
