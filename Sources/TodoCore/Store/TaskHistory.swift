import DataOperation

/// One command in a task's own history, read from the undo journal: when it ran, what was typed,
/// and what it changed in the task.
public struct TaskHistoryEntry: Sendable, Equatable {
  public var time: Int64
  public var command: String
  /// What changed, field by field; nil: the command made the task.
  public var changes: [FieldDifference]?
}

/// One field a command changed: its name (`priority`, `due`, `tags`) and its values as text,
/// nil when it had none (dates as JSON writes them, tags and dependencies as lists).
public struct FieldDifference: Sendable, Equatable {
  public var field: String
  public var old: String?
  public var new: String?
}

extension TodoStore {
  /// The fields a history compares, and how each is read from a journal snapshot (`s`).
  private static let historyFields: [(name: String, sql: String)] = [
    ("title", "s ->> 'title'"), ("status", "s ->> 'status'"), ("priority", "s ->> 'priority'"),
    ("project", "s ->> 'project'"),
    ("due", "coalesce(s ->> 'due_day', s ->> 'due')"), ("wait", "coalesce(s ->> 'wait_day', s ->> 'wait')"),
    ("scheduled", "coalesce(s ->> 'scheduled_day', s ->> 'scheduled')"), ("until", "coalesce(s ->> 'until_day', s ->> 'until')"),
    ("tags", "(SELECT group_concat('+' || value, ' ') FROM json_each(s -> 'tags'))"),
    ("depends", "(SELECT group_concat(value, ',') FROM json_each(s -> 'depends'))"),
    ("parent", "s ->> 'parent_id'"), ("notes", "json_array_length(s -> 'notes')"),
    // User-defined attributes (and Taskwarrior's others a task keeps), as NAME:VALUE words.
    (
      "udas",
      """
      (SELECT group_concat(word, ' ') FROM (
         SELECT (value ->> 1) || ':' || (CASE WHEN json_valid(value ->> 2) THEN json_extract(value ->> 2, '$') ELSE value ->> 2 END) AS word
         FROM json_each(s -> 'extras') WHERE value ->> 0 = 'taskwarrior' ORDER BY word))
      """
    ),
  ]

  /// The commands that changed a task, oldest first, as far back as the journal goes: each
  /// entry's change is the task's state before it against its state before the next (or now).
  /// Through the journal's index by task (schema 7).
  public static func history(ofTask id: Int64) -> DataOperation<[TaskHistoryEntry], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      let columns = historyFields.map { "\($0.sql) AS \"\($0.name)\"" }.joined(separator: ", ")
      let states = try connection.all(
        """
        WITH states (k, created, command, s) AS (
          SELECT entry.id, entry.created, entry.command, change.before
          FROM journal_change AS change JOIN journal_entry AS entry ON entry.id = change.journal_id
          WHERE change.todo_id = ?1
          UNION ALL
          SELECT 9223372036854775807, NULL, NULL, \(Journal.snapshot) FROM todo WHERE todo.id = ?1
        )
        SELECT created, command, s IS NULL AS made, \(columns) FROM states ORDER BY k
        """, [.integer(id)]
      ) { row throws(DatabaseError) in
        let values = try historyFields.map { field throws(DatabaseError) in try Self.historyText(row, field.name) }
        return (
          time: try row.decode("created", as: Int64?.self), command: try row.decode("command", as: String?.self),
          made: try row.decode("made", as: Int.self) == 1, values: values
        )
      }
      var entries: [TaskHistoryEntry] = []
      for (state, next) in zip(states, states.dropFirst()) {
        guard let time = state.time, let command = state.command else { continue }
        if state.made {
          entries.append(TaskHistoryEntry(time: time, command: command, changes: nil))
          continue
        }
        let changes = historyFields.indices.compactMap { index in
          state.values[index] == next.values[index]
            ? nil : FieldDifference(field: historyFields[index].name, old: state.values[index], new: next.values[index])
        }
        entries.append(TaskHistoryEntry(time: time, command: command, changes: changes))
      }
      return entries
    }.mapError(TodoError.init)
  }

  /// A field of a history row as text: an instant as RFC 3339, a day as it is, a number as digits.
  private static func historyText(_ row: Row, _ name: String) throws(DatabaseError) -> String? {
    switch try row.value(name) {
    case .null: return nil
    case .integer(let number):
      return ["due", "wait", "scheduled", "until"].contains(name) ? Timestamp.rfc3339(number) : String(number)
    case .real(let number): return String(number)
    case .text(let text): return text
    case .blob: return nil
    }
  }
}
