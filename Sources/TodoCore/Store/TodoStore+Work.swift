import DataOperation

extension TodoStore {
  // MARK: - Time tracking

  /// Starts working on a task: a new interval from now. Other tasks being worked on go on, as in
  /// Taskwarrior; with `exclusive` (`tracking.exclusive`) they stop, in the same journal entry.
  ///
  /// ```swift
  /// try TodoStore.start(.id(3), now: now, command: "start 3").operate(in: context)
  /// ```
  public static func start(_ reference: TaskReference, now: Int64, command: String, exclusive: Bool = false)
    -> DataOperation<ChangeReport, TodoError>
  {
    var filter = TodoFilter()
    filter.references = [reference]
    return change(filter, now: now, command: command, verb: "started") { todo, _ throws(TodoError) in
      guard todo.status == .pending else {
        throw .wrongStatus("task \(todo.id) is \(todo.status.rawValue): reopen it before starting it")
      }
      if todo.isActive { return .unchanged(.alreadyActive) }
      todo.intervals.append(WorkInterval(id: 0, started: now, stopped: nil))
      return .changed
    } afterEach: { _, todo, entry, connection throws(TodoError) in
      try database { () throws(DatabaseError) in
        var effects = SideEffects()
        if exclusive {
          var running: [Int64] = []
          try connection.query("SELECT DISTINCT todo_id FROM interval WHERE stopped IS NULL AND todo_id != ?", [.integer(todo.id)]) {
            row throws(DatabaseError) in running.append(try row.integer(at: 0) ?? 0)
          }
          for other in running {
            try Journal.record(entry: entry, todoIDs: [other], on: connection)
            try connection.execute("UPDATE interval SET stopped = ? WHERE todo_id = ? AND stopped IS NULL", [.integer(now), .integer(other)])
            try connection.execute("UPDATE todo SET modified = ? WHERE id = ?", [.integer(now), .integer(other)])
            effects.changed.append(other)
          }
        }
        try connection.execute("INSERT INTO interval (todo_id, started) VALUES (?, ?)", [.integer(todo.id), .integer(now)])
        return effects
      }
    }
    .transaction()
  }

  /// Stops working on a task (nil: every task that is active).
  public static func stop(_ reference: TaskReference?, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    let selected: DataOperation<[TaskReference], TodoError> =
      reference.map { .pure([$0]) }
      ?? DataOperation { connection throws(TodoError) in
        var running: [TaskReference] = []
        try database { () throws(DatabaseError) in
          try connection.query("SELECT DISTINCT todo_id FROM interval WHERE stopped IS NULL ORDER BY todo_id", []) {
            row throws(DatabaseError) in running.append(.id(try row.integer(at: 0) ?? 0))
          }
        }
        guard !running.isEmpty else { throw .nothingActive }
        return running
      }
    return selected.flatMap { references in
      var filter = TodoFilter()
      filter.references = references
      return change(filter, now: now, command: command, verb: "stopped") { todo, _ throws(TodoError) in
        guard todo.isActive else { return .unchanged(.notActive) }
        todo.intervals[todo.intervals.count - 1].stopped = now
        return .changed
      } afterEach: { _, todo, _, connection throws(TodoError) in
        try database { () throws(DatabaseError) in
          try connection.execute("UPDATE interval SET stopped = ? WHERE todo_id = ? AND stopped IS NULL", [.integer(now), .integer(todo.id)])
        }
        return SideEffects()
      }
    }
    .transaction()
  }

  // MARK: - Notes

  /// Replaces the text of a task's note `number` (1 = the oldest, as `show` numbers them), or
  /// removes the note when `text` is nil.
  public static func changeNote(of reference: TaskReference, number: Int, text: String?, now: Int64, command: String)
    -> DataOperation<ChangeReport, TodoError>
  {
    var selection = TodoFilter()
    selection.references = [reference]
    let filter = selection
    let validated: DataOperation<Void, TodoError> = DataOperation { _ throws(TodoError) in
      if let text {
        var changes = TodoChanges()
        changes.notes = [text]
        try Validation.changes(changes)
      }
    }
    return validated.flatMap {
      change(filter, now: now, command: command, verb: text == nil ? "removed a note of" : "edited a note of") {
        todo, _ throws(TodoError) in
        guard (1...max(1, todo.notes.count)).contains(number), !todo.notes.isEmpty else {
          let has = todo.notes.isEmpty ? "has no notes" : "has \(todo.notes.count) note\(todo.notes.count == 1 ? "" : "s") (1 to \(todo.notes.count))"
          throw .noSuchNote("task \(todo.id) \(has); there is no note \(number)")
        }
        if let text {
          if todo.notes[number - 1].text == text { return .unchanged(.sameValues) }
          todo.notes[number - 1].text = text
        } else {
          todo.notes.remove(at: number - 1)
        }
        return .changed
      } afterEach: { before, _, _, connection throws(TodoError) in
        let note = before.notes[number - 1]
        try database { () throws(DatabaseError) in
          if let text {
            try connection.execute("UPDATE note SET text = ? WHERE id = ?", [.text(text), .integer(note.id)])
          } else {
            try connection.execute("DELETE FROM note WHERE id = ?", [.integer(note.id)])
          }
        }
        return SideEffects()
      }
    }
    .transaction()
  }

  // MARK: - Purge

  /// What `purge` removed.
  public struct PurgeReport: Sendable, Equatable {
    /// The tasks removed for good, as they were.
    public var tasks: [Todo]
  }

  /// Removes deleted tasks for good: their rows, tags, notes, links and times, and every undo
  /// step that touched them (an undo must not bring back what was purged, nor half of a step). Only deleted tasks: a selection naming another is refused.
  /// This cannot be undone.
  public static func purge(_ filter: TodoFilter, now: Int64) -> DataOperation<PurgeReport, TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { purge($0, now: now) } }
    var selection = filter
    selection.defaultStatus = .deleted
    let resolved: DataOperation<[Int64], TodoError> =
      selection.narrowsSelection || selection.effectiveStatus == .deleted
      ? resolve(selection, now: now) : .fail(.invalid("purge needs deleted tasks to remove"))
    return resolved.flatMap { ids in
      DataOperation { connection throws(TodoError) in
        let tasks = try database { () throws(DatabaseError) in try loadAll(ids, on: connection) }
        if let alive = tasks.first(where: { $0.status != .deleted }) {
          throw .wrongStatus("task \(alive.id) is \(alive.status.rawValue), not deleted: purge removes only deleted tasks (delete it first)")
        }
        try database { () throws(DatabaseError) in
          let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
          // Every undo step that touched a purged task goes whole: undone in part, it would leave a
          // series without its instance or a task without what it was changed with.
          try connection.execute(
            """
            DELETE FROM journal_entry WHERE id IN
              (SELECT journal_id FROM journal_change WHERE todo_id IN (SELECT value FROM json_each(?)))
            """, [list])
          try connection.execute("DELETE FROM todo WHERE id IN (SELECT value FROM json_each(?))", [list])
          try connection.execute("DELETE FROM series WHERE NOT EXISTS (SELECT 1 FROM todo WHERE todo.series_id = series.id)")
        }
        return PurgeReport(tasks: tasks)
      }
    }
    .transaction()
  }
}
