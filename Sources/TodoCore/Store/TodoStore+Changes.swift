import DataOperation

/// What a mutating command did: the tasks as they are now and a one-line summary.
public struct ChangeReport: Sendable, Equatable {
  /// The changed tasks, as stored after the change, in id order.
  public var tasks: [Todo]
  /// Tasks the command named but left as they were, and why.
  public var unchanged: [UnchangedTask]
  /// What the journal shows for the command (`completed 3 tasks`).
  public var summary: String
  /// Tasks whose `until` had passed, deleted by this command before it did its own work (in
  /// the same transaction and journal entry, so `undo` brings them back too).
  public var expired: [Todo] = []
}

/// A task a command named but did not change.
public struct UnchangedTask: Sendable, Equatable {
  /// Why the task was left as it was.
  public enum Reason: Sendable, Equatable {
    /// The change asked for values it already has.
    case sameValues
    /// It already has the status asked for.
    case alreadyInStatus(Status)
    /// `done` does not complete a deleted task: reopen it first.
    case deleted
  }

  public var task: Todo
  public var reason: Reason
}

/// What an edit did to one task.
enum EditOutcome {
  case changed
  case unchanged(UnchangedTask.Reason)
}

extension TodoStore {
  /// Creates a task. Its id is the next never-used integer; a UUID is generated.
  ///
  /// ```swift
  /// var changes = TodoChanges(title: "Pay rent"); changes.addTags = ["home"]
  /// let report = try TodoStore.add(changes, now: now, command: "add Pay rent +home").operate(in: context)
  /// ```
  public static func add(_ changes: TodoChanges, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    let drafted: DataOperation<Todo, TodoError> = DataOperation { _ throws(TodoError) in
      guard changes.title != nil else { throw .invalid("a task needs a title") }
      try Validation.changes(changes)
      var draft = Todo()
      try changes.apply(to: &draft, now: now)
      return draft
    }
    // The task first: its id is in the journal entry's summary, which is then written once.
    return drafted
      .flatMap { draft in
        todos.add { todo in
          todo = draft
          todo.uuid = UUIDGenerator.make()
          todo.created = now
          todo.modified = now
        }
        .mapError(TodoError.init)
      }
      .flatMap { todo in
        Journal.begin(command: command, now: now, summary: "added task \(todo.id)").flatMap { entry in
          DataOperation { connection throws(DatabaseError) in
            try Journal.recordCreated(entry: entry, todoID: todo.id, on: connection)
            try writeTags(todo.tags, of: todo.id, replacing: false, on: connection)
            try addNotes(changes.notes, to: todo.id, now: now, on: connection)
            // The new task itself is left for the next command, even with a past `until`.
            let expired = try expire(entry: entry, now: now, sparing: [todo.id], on: connection)
            let stored = try load(todo.id, on: connection)
            return ChangeReport(tasks: [stored], unchanged: [], summary: "added task \(stored.id)", expired: expired)
          }.mapError(TodoError.init)
          .flatMap { report in
            guard !report.expired.isEmpty else { return .pure(report) }
            return Journal.finish(entry, summary: report.summary + "; " + expiredSummary(report.expired)).map { _ in report }
          }
        }
      }
      .transaction()
  }

  /// Changes the tasks a selection names; all of them in one journal entry.
  ///
  /// ```swift
  /// var changes = TodoChanges(); changes.priority = .set(.high)
  /// try TodoStore.update(filter, changes, now: now, command: "update 3 pri:H").operate(in: context)
  /// ```
  public static func update(_ filter: TodoFilter, _ changes: TodoChanges, now: Int64, command: String)
    -> DataOperation<ChangeReport, TodoError>
  {
    update(filter, changes, now: now, command: command, verb: "updated")
  }

  private static func update(_ filter: TodoFilter, _ changes: TodoChanges, now: Int64, command: String, verb: String)
    -> DataOperation<ChangeReport, TodoError>
  {
    let validated: DataOperation<Void, TodoError> = DataOperation { _ throws(TodoError) in
      guard !changes.isEmpty else { throw .invalid("nothing to change: give new title words or attributes") }
      try Validation.changes(changes)
    }
    return validated.flatMap {
      change(filter, now: now, command: command, verb: verb) { todo throws(TodoError) in
        let before = todo
        try changes.apply(to: &todo, now: now)
        return todo != before || !changes.notes.isEmpty ? .changed : .unchanged(.sameValues)
      } afterEach: { todo, connection throws(DatabaseError) in
        try addNotes(changes.notes, to: todo.id, now: now, on: connection)
      }
    }
    .transaction()
  }

  /// Appends notes to a task, in order.
  private static func addNotes(_ texts: [String], to id: Int64, now: Int64, on connection: Connection) throws(DatabaseError) {
    for text in texts {
      _ = try notes.add { $0.todoID = id; $0.created = now; $0.text = text }.run(connection)
    }
  }

  /// Marks tasks done (`completed` = now).
  public static func complete(_ filter: TodoFilter, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    setStatus(.done, filter, now: now, command: command, verb: "completed")
  }

  /// Marks tasks pending again (clears `completed`); also brings back deleted tasks.
  public static func reopen(_ filter: TodoFilter, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    var selection = filter
    selection.defaultStatus = .closed
    return setStatus(.pending, selection, now: now, command: command, verb: "reopened")
  }

  /// Marks tasks deleted. They stay in the database (and the journal), so `undo` or `reopen` brings them back.
  public static func delete(_ filter: TodoFilter, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    setStatus(.deleted, filter, now: now, command: command, verb: "deleted")
  }

  /// Adds a timestamped note to one task.
  ///
  /// ```swift
  /// try TodoStore.addNote(to: .id(3), text: "called the landlord", now: now, command: "note 3 …").operate(in: context)
  /// ```
  public static func addNote(to reference: TaskReference, text: String, now: Int64, command: String)
    -> DataOperation<ChangeReport, TodoError>
  {
    var changes = TodoChanges()
    changes.notes = [text]
    var filter = TodoFilter()
    filter.references = [reference]
    return update(filter, changes, now: now, command: command, verb: "noted")
  }

  private static func setStatus(_ status: Status, _ filter: TodoFilter, now: Int64, command: String, verb: String)
    -> DataOperation<ChangeReport, TodoError>
  {
    change(filter, now: now, command: command, verb: verb) { todo throws(TodoError) in
      guard todo.status != status else { return .unchanged(.alreadyInStatus(status)) }
      // A deleted task is not completed by a range or filter that happens to include it.
      if status == .done && todo.status == .deleted { return .unchanged(.deleted) }
      todo.status = status
      // Closed by a command, not by its `until`.
      todo.reason = nil
      // Done sets the completion time and reopening clears it; deleting keeps it.
      switch status {
      case .done: todo.completed = now
      case .pending: todo.completed = nil
      case .deleted: break
      }
      return .changed
    } afterEach: { _, _ in }
    .transaction()
  }

  /// The ids a change applies to. A change needs a selection that narrows something: ids, tags,
  /// projects, words… never the status alone or nothing at all (`delete ''` must not delete
  /// every task).
  private static func resolveForChange(_ filter: TodoFilter, now: Int64) -> DataOperation<[Int64], TodoError> {
    guard filter.narrowsSelection else {
      return .fail(.invalid("a change needs task ids or a filter that selects tasks (+tag, project:x, words…), not only a status"))
    }
    return resolve(filter, now: now)
  }

  /// Expires the tasks whose `until` has passed (see `expire(entry:now:sparing:on:)`), then
  /// resolves the selection, loads the tasks, lets `edit` change each (or say why it stays as
  /// it is), journals the changed ones before writing them, and writes one journal entry for
  /// them all. With no change at all, no journal entry is written.
  private static func change(
    _ filter: TodoFilter, now: Int64, command: String, verb: String,
    edit: @escaping @Sendable (inout Todo) throws(TodoError) -> EditOutcome,
    afterEach: @escaping @Sendable (Todo, Connection) throws(DatabaseError) -> Void
  ) -> DataOperation<ChangeReport, TodoError> {
    Journal.begin(command: command, now: now).flatMap { entry in
      resolveForChange(filter, now: now)
        .flatMap { ids in
          // The tasks the command selected are its own to change, whatever their until date.
          DataOperation { connection throws(DatabaseError) in (ids, try expire(entry: entry, now: now, sparing: ids, on: connection)) }
            .mapError(TodoError.init)
        }
        .flatMap { ids, expired in
          DataOperation { connection throws(TodoError) -> ChangeReport in
            // Set-based where the work allows: every task read in one query, every journal snapshot
            // written in one statement (before any change), every changed task read back in one query.
            var edited: [(before: Todo, after: Todo)] = []
            var unchanged: [UnchangedTask] = []
            for original in try database({ () throws(DatabaseError) in try loadAll(ids, on: connection) }) {
              var todo = original
              if case .unchanged(let reason) = try edit(&todo) {
                unchanged.append(UnchangedTask(task: todo, reason: reason))
                continue
              }
              todo.modified = now
              edited.append((original, todo))
            }
            return try database { () throws(DatabaseError) in
              let changedIDs = edited.map(\.after.id)
              try Journal.record(entry: entry, todoIDs: changedIDs, on: connection)
              for (before, todo) in edited {
                _ = try todos.update(todo, from: before).run(connection)
                try updateTags(from: before.tags, to: todo.tags, of: todo.id, on: connection)
                try afterEach(todo, connection)
              }
              let changed = try loadAll(changedIDs, on: connection)
              let noun = changed.count == 1 ? "task \(changed[0].id)" : "\(changed.count) tasks"
              var summary = "\(verb) \(noun)"
              if !expired.isEmpty { summary += "; " + expiredSummary(expired) }
              return ChangeReport(tasks: changed, unchanged: unchanged, summary: summary, expired: expired)
            }
          }
        }
      .flatMap { report in
        if report.tasks.isEmpty && report.expired.isEmpty {
          // Nothing changed: leave no empty step in the journal.
          return Repository<JournalEntry>().delete(id: entry.id).mapError(TodoError.init).map { report }
        }
        return Journal.finish(entry, summary: report.summary).map { _ in report }
      }
    }
  }

  /// Deletes the pending tasks whose `until` has passed (a timed one once its instant is past,
  /// an all-day one once its day has ended where the user is), with reason `expired`, recorded
  /// in the command's journal entry. Runs inside every command that writes, never in a read.
  /// `sparing`: the tasks the command itself adds or changes, which are left for the next one.
  static func expire(entry: JournalEntry, now: Int64, sparing: [Int64] = [], on connection: Connection) throws(DatabaseError)
    -> [Todo]
  {
    // Candidates through the partial index on until (few tasks have one; without INDEXED BY
    // SQLite may walk every pending task on each write), then the exact test in Swift: the same
    // `isPast` that decides it everywhere else. A short statement: every add prepares it.
    let spared = Set(sparing)
    var ids: [Int64] = []
    try connection.query(
      "SELECT id, until, until_day FROM todo INDEXED BY todo_by_until WHERE until < ? AND status = 'pending' ORDER BY id",
      [.integer(now + DateCondition.margin)]
    ) { row throws(DatabaseError) in
      let id = try row.integer(at: 0) ?? 0
      if !spared.contains(id), let until = try Todo.date(row, at: 1), until.isPast(now: now) { ids.append(id) }
    }
    guard !ids.isEmpty else { return [] }
    try Journal.record(entry: entry, todoIDs: ids, on: connection)
    let list = SQLValue.text("[" + ids.map(String.init).joined(separator: ",") + "]")
    try connection.execute(
      "UPDATE todo SET status = 'deleted', end_reason = 'expired', modified = ? WHERE id IN (SELECT value FROM json_each(?))",
      [.integer(now), list])
    return try loadAll(ids, on: connection)
  }

  /// `expired task 4` or `expired 3 tasks`, for the journal.
  private static func expiredSummary(_ expired: [Todo]) -> String {
    "expired " + (expired.count == 1 ? "task \(expired[0].id)" : "\(expired.count) tasks")
  }

  /// What `undo` did.
  public struct UndoReport: Sendable, Equatable {
    /// The journal entry that was reverted.
    public var entry: JournalEntry
    /// Tasks put back as they were before that command, as they are now.
    public var restored: [Todo]
    /// Ids of tasks that command had created, now removed (their ids are never reused).
    public var removedIDs: [Int64]
  }

  /// Reverts the newest command in the journal; `nothingToUndo` when it is empty.
  ///
  /// ```swift
  /// let report = try TodoStore.undo().operate(in: context)
  /// ```
  public static func undo() -> DataOperation<UndoReport, TodoError> {
    Journal.undoLast()
      .flatMap { reverted in
        DataOperation { connection throws(DatabaseError) in
          UndoReport(
            entry: reverted.entry,
            restored: try loadAll(reverted.restoredIDs, on: connection),
            removedIDs: reverted.removedIDs)
        }.mapError(TodoError.init)
      }
      .transaction()
  }

  /// The journal, newest first.
  public static func history(limit: Int? = nil) -> DataOperation<[JournalEntry], TodoError> {
    Journal.history(limit: limit)
  }
}
