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
  /// Tasks the command made besides: the next instance of a series whose instance it closed.
  public var created: [Todo] = []
  /// Other tasks the command changed on the way: the task `start` stopped, the tasks `blocks:`
  /// named.
  public var others: [Todo] = []
  /// Changed tasks that were waiting (hidden until their wait date) and are not now: their
  /// wait date was cleared or moved into the past.
  public var unwaited: [Int64] = []

  public init(
    tasks: [Todo], unchanged: [UnchangedTask] = [], summary: String = "", expired: [Todo] = [], created: [Todo] = [], others: [Todo] = []
  ) {
    self.tasks = tasks
    self.unchanged = unchanged
    self.summary = summary
    self.expired = expired
    self.created = created
    self.others = others
  }
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
    /// `start` of the task being worked on.
    case alreadyActive
    /// `stop` of a task not being worked on.
    case notActive
  }

  public var task: Todo
  public var reason: Reason
}

/// What an edit did to one task.
enum EditOutcome {
  case changed
  case unchanged(UnchangedTask.Reason)
}

/// What a change did beyond the tasks it edited: tasks it created (a series' next instance) and
/// other tasks it changed (the task `blocks:` names, the task `start` stopped), each already in
/// the command's journal entry.
struct SideEffects {
  var created: [Int64] = []
  var changed: [Int64] = []

  static func + (left: SideEffects, right: SideEffects) -> SideEffects {
    SideEffects(created: left.created + right.created, changed: left.changed + right.changed)
  }
}

extension TodoStore {
  /// Creates a task. Its id is the next never-used integer; a UUID is generated.
  ///
  /// ```swift
  /// var changes = TodoChanges(title: "Pay rent"); changes.addTags = ["home"]
  /// let report = try TodoStore.add(changes, now: now, command: "add Pay rent +home").operate(in: context)
  /// ```
  public static func add(_ changes: TodoChanges, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    add(changes, now: now, command: command, done: false, copying: nil)
  }

  /// Creates a task; `done`: one already completed (`log`); `copying`: a copy of another task
  /// (`duplicate`: its title, priority, project, tags, dates, parent and dependencies; not its
  /// notes, times, series or status), with `changes` applied to the copy.
  public static func add(_ changes: TodoChanges, now: Int64, command: String, done: Bool, copying source: TaskReference?)
    -> DataOperation<ChangeReport, TodoError>
  {
    let original: DataOperation<Todo?, TodoError> = source.map { task($0).map { Optional($0) } } ?? .pure(nil)
    let drafted: DataOperation<(Todo, ResolvedLinks), TodoError> = original.flatMap { original in
      DataOperation { connection throws(TodoError) in
        guard changes.title != nil || original != nil else { throw .invalid("a task needs a title") }
        try Validation.changes(changes)
        var draft = Todo()
        if let original {
          draft.title = original.title
          draft.priority = original.priority
          draft.project = original.project
          draft.tags = original.tags
          draft.due = original.due
          draft.wait = original.wait
          draft.scheduled = original.scheduled
          draft.until = original.until
          draft.parentID = original.parentID
          draft.depends = original.depends
          draft.reminders = original.reminders.filter { !$0.isSnooze }
        }
        try changes.apply(to: &draft, now: now)
        try Validation.title(draft.title)
        let links = changes.changesLinks ? try resolveLinks(changes, on: connection) : ResolvedLinks()
        try applyLinks(links, to: &draft)
        if done {
          if changes.recur != nil { throw .invalid("a task logged as done cannot start a series: add it, then complete it") }
          draft.status = .done
          draft.completed = now
        }
        return (draft, links)
      }
    }
    // The task first: its id is in the journal entry's summary, which is then written once.
    return
      drafted
      .flatMap { draft, links in
        todos.add { todo in
          todo = draft
          todo.uuid = changes.uuid ?? UUIDGenerator.make()
          todo.created = now
          todo.modified = now
        }
        .mapError(TodoError.init)
        .map { ($0, links) }
      }
      .flatMap { todo, links in
        let verb = done ? "logged" : "added"
        return Journal.begin(command: command, now: now, summary: "\(verb) task \(todo.id)").flatMap { entry in
          DataOperation { connection throws(TodoError) in
            try database { () throws(DatabaseError) in
              try Journal.recordCreated(entry: entry, todoID: todo.id, on: connection)
              try writeTags(todo.tags, of: todo.id, replacing: false, on: connection)
              try addNotes(changes.notes, to: todo.id, now: now, on: connection)
              try writeAttributes(changes.attributes, of: todo.id, on: connection)
            }
            var changedOthers: [Int64] = []
            if !todo.depends.isEmpty || !links.addBlocks.isEmpty || todo.parentID != nil {
              var before = todo
              before.depends = []
              changedOthers = try writeLinks(from: before, to: todo, links, entry: entry, now: now, on: connection)
            }
            if case .set(let rule) = changes.recur {
              // A UUID given for the new task makes its series' UUID too (and so its first
              // instance's): a preview and the write then agree.
              let seriesUUID = changes.uuid.map { UUIDGenerator.nameBased(Array("todo series of \($0)".utf8)) }
              _ = try startSeries(for: todo, rule: rule, now: now, newTask: true, seriesUUID: seriesUUID, on: connection)
            }
            return try database { () throws(DatabaseError) in
              // The new task itself is left for the next command, even with a past `until`.
              let expired = try expire(entry: entry, now: now, sparing: [todo.id], on: connection)
              let linked = changes.changesLinks || source != nil
              // One task by its key (a list of one through json_each costs an add a tenth more).
              let stored = try load(todo.id, relations: linked, on: connection)
              let others = try loadAll(changedOthers, on: connection)
              return ChangeReport(
                tasks: [stored], unchanged: [], summary: "\(verb) task \(todo.id)", expired: expired, others: others)
            }
          }
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
  public static func update(_ filter: TodoFilter, _ changes: TodoChanges, now: Int64, command: String, series: Bool = false)
    -> DataOperation<ChangeReport, TodoError>
  {
    update(filter, changes, now: now, command: command, verb: "updated", series: series)
  }

  /// `series`: change each task's series too (its template, so every later instance), not only
  /// the instance.
  private static func update(
    _ filter: TodoFilter, _ changes: TodoChanges, now: Int64, command: String, verb: String, series: Bool = false
  ) -> DataOperation<ChangeReport, TodoError> {
    let validated: DataOperation<ResolvedLinks, TodoError> = DataOperation { connection throws(TodoError) in
      guard !changes.isEmpty else { throw .invalid("nothing to change: give new title words or attributes") }
      try Validation.changes(changes)
      return changes.changesLinks ? try resolveLinks(changes, on: connection) : ResolvedLinks()
    }
    return validated.flatMap { links in
      change(
        filter, now: now, command: command, verb: verb,
        expand: { ids, connection throws(TodoError) in
          series ? try currentInstances(of: ids, on: connection) : ids
        }
      ) { todo, connection throws(TodoError) in
        let before = todo
        if series && todo.seriesID == nil {
          throw .series("task \(todo.id) is not recurring: --series changes the series of a recurring task")
        }
        try changes.apply(to: &todo, now: now)
        try Validation.title(todo.title)
        try applyLinks(links, to: &todo)
        var recurs = false
        switch changes.recur {
        case .set(let rule): recurs = todo.series?.rule != rule || todo.seriesID == nil || todo.series?.ended != nil
        case .clear:
          recurs = todo.seriesID != nil
          todo.seriesID = nil
          todo.seriesIndex = nil
        case nil: break
        }
        // `parent:` on a task whose only parent is a kept RELATED-TO line (to a task that is not
        // here) removes that line.
        var dropsKeptParent = false
        if links.parent == .clear && before.parentID == nil {
          dropsKeptParent =
            try database { () throws(DatabaseError) in
              try connection.first(
                "SELECT 1 FROM extra WHERE todo_id = ? AND format = 'ical' AND name = 'related'", [.integer(todo.id)]
              ) { _ throws(DatabaseError) in true }
            } ?? false
        }
        let attributesChange = try database { () throws(DatabaseError) in
          // Kept links (to tasks not here) that `parent:` or `depends:-UUID` removes.
          var droppedKept = false
          if links.parent == .clear {
            droppedKept =
              try connection.first(
                "SELECT 1 FROM pending_link WHERE todo_id = ? AND kind = 'parent'", [.integer(todo.id)]
              ) { _ throws(DatabaseError) in true } ?? false
          }
          for uuid in links.removePendingDepends where !droppedKept {
            droppedKept =
              try connection.first(
                "SELECT 1 FROM pending_link WHERE todo_id = ? AND kind = 'depends' AND uuid = ?", [.integer(todo.id), .text(uuid)]
              ) { _ throws(DatabaseError) in true } ?? false
          }
          let attributesChange = try changesAttributes(changes.attributes, of: todo.id, on: connection)
          return attributesChange || droppedKept
        }
        let changed =
          todo != before || !changes.notes.isEmpty || recurs || !links.addBlocks.isEmpty || !links.removeBlocks.isEmpty
          || dropsKeptParent || attributesChange
        if (dropsKeptParent || attributesChange) && todo == before { todo.modified = max(now, todo.modified) }
        return changed ? .changed : .unchanged(.sameValues)
      } afterEach: { before, todo, entry, connection throws(TodoError) in
        try database { () throws(DatabaseError) in
          for edit in changes.editedNotes where before.notes[edit.number - 1].text != edit.text {
            try connection.execute(
              "UPDATE note SET text = ? WHERE id = ?", [.text(edit.text), .integer(before.notes[edit.number - 1].id)])
          }
          for number in changes.removedNotes {
            try connection.execute("DELETE FROM note WHERE id = ?", [.integer(before.notes[number - 1].id)])
          }
          // Notes a substitution changed (`/old/new/`), in place.
          if changes.substitution != nil {
            for (note, old) in zip(todo.notes, before.notes) where note.text != old.text {
              try connection.execute("UPDATE note SET text = ? WHERE id = ?", [.text(note.text), .integer(old.id)])
            }
          }
          try addNotes(changes.notes, to: todo.id, now: now, on: connection)
          try writeAttributes(changes.attributes, of: todo.id, on: connection)
          if links.parent == .clear {
            try connection.execute("DELETE FROM pending_link WHERE todo_id = ? AND kind = 'parent'", [.integer(todo.id)])
          }
          for uuid in links.removePendingDepends {
            try connection.execute(
              "DELETE FROM pending_link WHERE todo_id = ? AND kind = 'depends' AND uuid = ?", [.integer(todo.id), .text(uuid)])
          }
        }
        var effects = SideEffects()
        if changes.changesLinks {
          effects.changed = try writeLinks(from: before, to: todo, links, entry: entry, now: now, on: connection)
        }
        switch changes.recur {
        case .set(let rule):
          if let id = todo.seriesID, todo.series?.ended == nil {
            try changeRule(of: id, to: rule, now: now, on: connection)
          } else {
            var plain = todo
            plain.seriesID = nil
            plain.seriesIndex = nil
            if todo.seriesID != nil {
              try database { () throws(DatabaseError) in _ = try todos.update(plain, from: todo).run(connection) }
            }
            _ = try startSeries(for: plain, rule: rule, now: now, newTask: false, on: connection)
          }
        case .clear:
          if let id = before.seriesID { try database { () throws(DatabaseError) in try endSeries(id, now: now, on: connection) } }
        case nil: break
        }
        if series, let id = todo.seriesID {
          try changeSeries(id, changes, instance: (before, todo), now: now, on: connection)
        }
        return effects
      }
    }
    .transaction()
  }

  /// Sets (or, for nil, clears) user-defined attributes of a task (see `UserAttribute`).
  static func writeAttributes(_ attributes: [String: String?], of id: Int64, on connection: Connection) throws(DatabaseError) {
    for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
      if let value {
        try connection.execute(
          "INSERT OR REPLACE INTO extra (todo_id, format, name, value) VALUES (?, 'taskwarrior', ?, ?)",
          [.integer(id), .text(name), .text(value)])
      } else {
        try connection.execute("DELETE FROM extra WHERE todo_id = ? AND format = 'taskwarrior' AND name = ?", [.integer(id), .text(name)])
      }
    }
  }

  /// Whether setting `attributes` changes what a task holds.
  static func changesAttributes(_ attributes: [String: String?], of id: Int64, on connection: Connection) throws(DatabaseError) -> Bool {
    for (name, value) in attributes {
      let stored = try connection.first(
        "SELECT value FROM extra WHERE todo_id = ? AND format = 'taskwarrior' AND name = ?", [.integer(id), .text(name)]
      ) { row throws(DatabaseError) in try row.text(at: 0) }
      if (stored ?? nil) != value { return true }
    }
    return false
  }

  /// Appends notes to a task, in order.
  private static func addNotes(_ texts: [String], to id: Int64, now: Int64, on connection: Connection) throws(DatabaseError) {
    for text in texts {
      _ = try notes.add {
        $0.todoID = id; $0.created = now; $0.text = text
      }.run(connection)
    }
  }

  /// Marks tasks done (`completed` = now). A task being worked on stops. A series' current
  /// instance makes the next one. Parents with open subtasks are refused (`openSubtasks`) unless
  /// `withSubtasks`, which completes the subtasks too.
  public static func complete(_ filter: TodoFilter, now: Int64, command: String, withSubtasks: Bool = false)
    -> DataOperation<ChangeReport, TodoError>
  {
    setStatus(.done, filter, now: now, command: command, verb: "completed", withSubtasks: withSubtasks)
  }

  /// Marks tasks pending again (clears `completed`); also brings back deleted tasks.
  public static func reopen(_ filter: TodoFilter, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    var selection = filter
    selection.defaultStatus = .closed
    return setStatus(.pending, selection, now: now, command: command, verb: "reopened")
  }

  /// Marks tasks deleted. They stay in the database (and the journal), so `undo` or `reopen`
  /// brings them back. `series`: end each task's series too (its pending instance is deleted and
  /// no other follows).
  public static func delete(
    _ filter: TodoFilter, now: Int64, command: String, withSubtasks: Bool = false, series: Bool = false
  ) -> DataOperation<ChangeReport, TodoError> {
    setStatus(.deleted, filter, now: now, command: command, verb: "deleted", withSubtasks: withSubtasks, endSeries: series)
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

  private static func setStatus(
    _ status: Status, _ filter: TodoFilter, now: Int64, command: String, verb: String, withSubtasks: Bool = false,
    endSeries ending: Bool = false
  ) -> DataOperation<ChangeReport, TodoError> {
    change(
      filter, now: now, command: command, verb: verb,
      expand: { ids, connection throws(TodoError) in
        var selected = ids
        if ending { selected = try pendingInstances(ofSeriesOf: selected, on: connection) }
        guard status != .pending else {
          try refuseTwoInstancesOfOneSeries(selected, on: connection)
          return selected
        }
        return try withOpenSubtasks(selected, include: withSubtasks, on: connection)
      }
    ) { todo, connection throws(TodoError) in
      // Ending a series leaves its closed instances as they are (a done one stays done).
      if ending && todo.status != .pending {
        return todo.seriesID != nil ? .changed : .unchanged(.alreadyInStatus(todo.status))
      }
      guard todo.status != status else { return .unchanged(.alreadyInStatus(status)) }
      // A deleted task is not completed by a range or filter that happens to include it.
      if status == .done && todo.status == .deleted { return .unchanged(.deleted) }
      if status == .pending, let series = todo.seriesID {
        let current = try database { () throws(DatabaseError) in
          try connection.first(
            "SELECT id FROM todo WHERE series_id = ? AND status = 'pending' AND id != ?", [.integer(series), .integer(todo.id)]
          ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
        }
        if let current {
          throw .series(
            "task \(todo.id) is an earlier instance of a series whose current instance is task \(current); "
              + "a series has one pending instance: complete or delete task \(current) first (or undo)")
        }
      }
      todo.status = status
      // Closed by a command, not by its `until`.
      todo.reason = nil
      // Done sets the completion time and reopening clears it; deleting keeps it.
      switch status {
      case .done: todo.completed = now
      case .pending: todo.completed = nil
      case .deleted: break
      }
      if status != .pending, todo.isActive { todo.intervals[todo.intervals.count - 1].stopped = now }
      return .changed
    } afterEach: { before, todo, entry, connection throws(TodoError) in
      try database { () throws(DatabaseError) in
        var effects = SideEffects()
        if before.isActive && !todo.isActive {
          try connection.execute("UPDATE interval SET stopped = ? WHERE todo_id = ? AND stopped IS NULL", [.integer(now), .integer(todo.id)])
        }
        guard let series = todo.seriesID, status != .pending else { return effects }
        if ending {
          try endSeries(series, now: now, on: connection)
        } else if before.status == .pending, let next = try advanceSeries(after: todo, now: now, entry: entry, on: connection) {
          effects.created.append(next)
        }
        return effects
      }
    }
    .transaction()
  }

  /// Reopening two instances of one series would make two pending: refused, naming them.
  private static func refuseTwoInstancesOfOneSeries(_ ids: [Int64], on connection: Connection) throws(TodoError) {
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    let pair = try database { () throws(DatabaseError) in
      try connection.first(
        """
        SELECT min(id), max(id) FROM todo WHERE id IN (SELECT value FROM json_each(?)) AND series_id IS NOT NULL
        GROUP BY series_id HAVING count(*) > 1 LIMIT 1
        """, [list]
      ) { row throws(DatabaseError) in (try row.integer(at: 0) ?? 0, try row.integer(at: 1) ?? 0) }
    }
    if let (first, second) = pair {
      throw .series(
        "tasks \(first) and \(second) are instances of one series, which has one pending instance: reopen one of them")
    }
  }

  /// The pending instances of the series of these tasks, with the tasks (`delete --series`).
  private static func pendingInstances(ofSeriesOf ids: [Int64], on connection: Connection) throws(TodoError) -> [Int64] {
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    let more = try database { () throws(DatabaseError) in
      try connection.all(
        """
        SELECT id FROM todo WHERE status = 'pending' AND series_id IN
          (SELECT series_id FROM todo WHERE id IN (SELECT value FROM json_each(?)) AND series_id IS NOT NULL)
        """, [list]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
    }
    return Array(Set(ids + more)).sorted()
  }

  /// The selection with the open subtasks (at any depth) of its tasks; `openSubtasks` when there
  /// are some and `include` is false.
  private static func withOpenSubtasks(_ ids: [Int64], include: Bool, on connection: Connection) throws(TodoError) -> [Int64] {
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    var found: [(id: Int64, root: Int64)] = []
    try database { () throws(DatabaseError) in
      guard Int(sqlValue: try connection.scalar("SELECT EXISTS (SELECT 1 FROM todo INDEXED BY todo_by_parent WHERE parent_id IS NOT NULL)")) == 1
      else { return }
      try connection.query(
        """
        WITH RECURSIVE below(id, root) AS (
          SELECT id, parent_id FROM todo WHERE parent_id IN (SELECT value FROM json_each(?1))
          UNION SELECT todo.id, below.root FROM todo JOIN below ON todo.parent_id = below.id)
        SELECT below.id, below.root FROM below JOIN todo ON todo.id = below.id
        WHERE todo.status = 'pending' AND below.id NOT IN (SELECT value FROM json_each(?1)) ORDER BY below.id
        """, [list]
      ) { row throws(DatabaseError) in found.append((try row.integer(at: 0) ?? 0, try row.integer(at: 1) ?? 0)) }
    }
    guard !found.isEmpty else { return ids }
    guard include else {
      throw .openSubtasks(parents: Array(Set(found.map(\.root))).sorted(), subtasks: Array(Set(found.map(\.id))).sorted())
    }
    return Array(Set(ids + found.map(\.id))).sorted()
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
  /// resolves the selection (which `expand` may widen: subtasks, a series' instance), loads the
  /// tasks, lets `edit` change each (or say why it stays as it is), journals the changed ones
  /// before writing them, writes each and runs `afterEach` (which journals what else it changes
  /// before changing it), and writes one journal entry for them all. With no change at all, no
  /// journal entry is written.
  static func change(
    _ filter: TodoFilter, now: Int64, command: String, verb: String,
    expand: @escaping @Sendable ([Int64], Connection) throws(TodoError) -> [Int64] = { ids, _ in ids },
    edit: @escaping @Sendable (inout Todo, Connection) throws(TodoError) -> EditOutcome,
    afterEach: @escaping @Sendable (_ before: Todo, _ after: Todo, JournalEntry, Connection) throws(TodoError) -> SideEffects
  ) -> DataOperation<ChangeReport, TodoError> {
    Journal.begin(command: command, now: now).flatMap { entry in
      resolveForChange(filter, now: now)
        .flatMap { ids in
          // The tasks the command selected are its own to change, whatever their until date.
          DataOperation { connection throws(TodoError) in
            let selected = try expand(ids, connection)
            return (selected, try database { () throws(DatabaseError) in try expire(entry: entry, now: now, sparing: selected, on: connection) })
          }
        }
        .flatMap { ids, expired in
          DataOperation { connection throws(TodoError) -> ChangeReport in
            // Set-based where the work allows: every task read in one query, every journal snapshot
            // written in one statement (before any change), every changed task read back in one query.
            var edited: [(before: Todo, after: Todo)] = []
            var unchanged: [UnchangedTask] = []
            for original in try database({ () throws(DatabaseError) in try loadAll(ids, on: connection) }) {
              var todo = original
              if case .unchanged(let reason) = try edit(&todo, connection) {
                unchanged.append(UnchangedTask(task: todo, reason: reason))
                continue
              }
              todo.modified = now
              edited.append((original, todo))
            }
            let changedIDs = edited.map(\.after.id)
            try database { () throws(DatabaseError) in try Journal.record(entry: entry, todoIDs: changedIDs, on: connection) }
            var effects = SideEffects()
            for (before, todo) in edited {
              try database { () throws(DatabaseError) in
                _ = try todos.update(todo, from: before).run(connection)
                try updateTags(from: before.tags, to: todo.tags, of: todo.id, on: connection)
                // A priority set here replaces one another program had of its own (Taskwarrior's
                // A, todo.txt's D), which would otherwise come back once this one is cleared.
                if before.priority != todo.priority {
                  try connection.execute(
                    "DELETE FROM extra WHERE todo_id = ? AND name = 'priority' AND format IN ('taskwarrior', 'todotxt')", [.integer(todo.id)])
                }
              }
              effects = effects + (try afterEach(before, todo, entry, connection))
            }
            return try database { () throws(DatabaseError) in
              let changed = try loadAll(changedIDs, on: connection)
              let others = try loadAll(Array(Set(effects.changed).subtracting(changedIDs)).sorted(), on: connection)
              let created = try loadAll(effects.created, on: connection)
              let noun = changed.count == 1 ? "task \(changed[0].id)" : "\(changed.count) tasks"
              var summary = "\(verb) \(noun)"
              if !created.isEmpty { summary += "; created " + (created.count == 1 ? "task \(created[0].id)" : "\(created.count) tasks") }
              if !expired.isEmpty { summary += "; " + expiredSummary(expired) }
              var report = ChangeReport(
                tasks: changed, unchanged: unchanged, summary: summary, expired: expired, created: created, others: others)
              report.unwaited = edited.filter { $0.before.isWaiting(now: now) && $0.after.status == .pending && !$0.after.isWaiting(now: now) }
                .map(\.after.id)
              return report
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
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    try connection.execute(
      "UPDATE todo SET status = 'deleted', end_reason = 'expired', modified = ? WHERE id IN (SELECT value FROM json_each(?))",
      [.integer(now), list])
    // Its time stops, and its series (whose until it was) ends.
    try connection.execute(
      "UPDATE interval SET stopped = ? WHERE stopped IS NULL AND todo_id IN (SELECT value FROM json_each(?))", [.integer(now), list])
    try connection.execute(
      """
      UPDATE series SET ended = ?1, modified = ?1 WHERE ended IS NULL
        AND id IN (SELECT series_id FROM todo WHERE id IN (SELECT value FROM json_each(?2)))
      """, [.integer(now), list])
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

  /// The newest journal entry's id (0 when the journal is empty).
  public static func lastJournalEntryID() -> DataOperation<Int64, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.first("SELECT coalesce(max(id), 0) FROM journal_entry", []) { row throws(DatabaseError) in
        try row.integer(at: 0) ?? 0
      } ?? 0
    }
    .mapError(TodoError.init)
  }

  /// Folds every journal entry newer than `entry` into it, so that one `undo` reverts them all:
  /// the changes hooks asked for, written right after the command they belong to (in its
  /// transaction). Each task keeps its state from before `entry`. Nothing happens when no entry
  /// is newer (the hooks' changes changed nothing).
  public static func foldJournalEntries(into entry: Int64) -> DataOperation<Void, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      let newer = try connection.all(
        "SELECT id FROM journal_entry WHERE id > ? ORDER BY id", [.integer(entry)]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
      for id in newer {
        try connection.execute(
          """
          INSERT OR IGNORE INTO journal_change (journal_id, todo_id, sequence, before)
          SELECT ?2, todo_id, (SELECT coalesce(max(sequence) + 1, 0) FROM journal_change WHERE journal_id = ?2) + sequence, before
          FROM journal_change WHERE journal_id = ?1
          """, [.integer(id), .integer(entry)])
        try connection.execute("DELETE FROM journal_entry WHERE id = ?", [.integer(id)])
      }
    }
    .mapError(TodoError.init)
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
