import DataOperation

extension TodoStore {
  /// The ids of the tasks a filter selects, most urgent first (ties by id), as `next` ranks
  /// them. One query reads the selected rows (no notes, no links); what urgency needs of notes,
  /// dependencies and intervals is counted first by one aggregate query each (only for the
  /// tables that have rows): no task is read whole, and only ids and scores are kept.
  ///
  /// ```swift
  /// let ids = try TodoStore.idsByUrgency(filter, now: now, coefficients: coefficients).operate(in: context)
  /// ```
  public static func idsByUrgency(_ filter: TodoFilter, now: Int64, coefficients: Urgency.Coefficients)
    -> DataOperation<[Int64], TodoError>
  {
    DataOperation { connection throws(DatabaseError) in
      let filter = try filter.resolvingUrgency(on: connection, now: now)
      var scores = try scores(filter, now: now, coefficients: coefficients, on: connection)
      scores.sort { left, right in left.score != right.score ? left.score > right.score : left.id < right.id }
      return scores.map(\.id)
    }.mapError(TodoError.init)
  }

  /// The urgency of tasks already read, by id: their user-defined attributes are read when a
  /// coefficient names one (`urgency.uda.client.coefficient`), nothing otherwise.
  ///
  /// ```swift
  /// let scores = try TodoStore.urgencies(of: todos, now: now, coefficients: coefficients).operate(in: context)
  /// ```
  public static func urgencies(of todos: [Todo], now: Int64, coefficients: Urgency.Coefficients)
    -> DataOperation<[Int64: Double], TodoError>
  {
    let needed = coefficients.attributeNames.isEmpty ? [] : todos.filter { $0.status == .pending }.map(\.id)
    return userAttributes(of: needed).map { attributes in
      var scores: [Int64: Double] = [:]
      for todo in todos {
        let texts = Urgency.attributeTexts(attributes[todo.id] ?? [])
        scores[todo.id] = Urgency.score(of: todo, userAttributes: texts, now: now, coefficients: coefficients)
      }
      return scores
    }
  }

  /// The tasks with these ids that exist, whole, in id order (one query however many: a
  /// ranked report reads the tasks it shows by their ids).
  ///
  /// ```swift
  /// let tasks = try TodoStore.tasks(ids: [3, 7]).operate(in: context)
  /// ```
  public static func tasks(ids: [Int64]) -> DataOperation<[Todo], TodoError> {
    DataOperation { connection throws(DatabaseError) in try loadAll(ids, on: connection) }.mapError(TodoError.init)
  }

  /// The urgency of each task a filter selects, in id order: one query reads the selected rows
  /// (no notes, no links), after one aggregate query for each relation urgency counts (only for
  /// the tables that have rows) and, when a coefficient names one, the user-defined attributes.
  static func scores(_ filter: TodoFilter, now: Int64, coefficients: Urgency.Coefficients, on connection: Connection)
    throws(DatabaseError) -> [(id: Int64, score: Double)]
  {
    let relations = try Relations(on: connection)
    let notes = try counts("SELECT todo_id, count(*) FROM note GROUP BY todo_id", on: connection)
    var blocking: [Int64: Int] = [:]
    var blocked: [Int64: Int] = [:]
    if relations.dependencies {
      blocking = try counts(
        """
        SELECT dependency.depends_on, count(*) FROM dependency JOIN todo AS other ON other.id = dependency.todo_id
        WHERE other.status = 'pending' GROUP BY dependency.depends_on
        """, on: connection)
      blocked = try counts(
        """
        SELECT dependency.todo_id, count(*) FROM dependency JOIN todo AS other ON other.id = dependency.depends_on
        WHERE other.status = 'pending' GROUP BY dependency.todo_id
        """, on: connection)
    }
    // Active: the task's last interval (by start, then id) is still running.
    let active =
      relations.intervals
      ? try counts(
        """
        SELECT running.todo_id, 1 FROM interval AS running WHERE running.stopped IS NULL AND NOT EXISTS (
          SELECT 1 FROM interval AS later WHERE later.todo_id = running.todo_id
            AND (later.started > running.started OR (later.started = running.started AND later.id > running.id)))
        """, on: connection) : [:]
    var attributes: [Int64: [String: String]] = [:]
    let names = coefficients.attributeNames
    if !names.isEmpty {
      try connection.query(
        """
        SELECT todo_id, name, value FROM extra
        WHERE format = 'taskwarrior' AND name IN (SELECT value FROM json_each(?))
        """, [.text(JSONText.array(names.sorted()))]
      ) { row throws(DatabaseError) in
        let stored = try row.text(at: 2) ?? ""
        attributes[try row.integer(at: 0) ?? 0, default: [:]][try row.text(at: 1) ?? ""] = JSONText.stringValue(stored) ?? stored
      }
    }
    // In id order (the table's own): the caller orders by score, so SQLite need not sort.
    let (sql, arguments) = listQuery(selectTodoWithoutNotes, filter, sort: [SortKey(.id)], limit: nil, now: now)
    var scores: [(id: Int64, score: Double)] = []
    try connection.query(sql, arguments) { row throws(DatabaseError) in
      let todo = try Todo(selected: row)
      let facts = Urgency.Facts(
        notes: notes[todo.id] ?? 0, blocking: blocking[todo.id] ?? 0, isActive: active[todo.id] != nil, isBlocked: blocked[todo.id] != nil,
        userAttributes: attributes[todo.id] ?? [:])
      scores.append((todo.id, Urgency.score(of: todo, facts: facts, now: now, coefficients: coefficients)))
    }
    return scores
  }

  /// The tasks with these UUIDs that exist, whole, in id order (none for none).
  public static func tasks(uuids: [String]) -> DataOperation<[Todo], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      guard !uuids.isEmpty else { return [] }
      let ids = try connection.all(
        "SELECT id FROM todo WHERE uuid IN (SELECT value FROM json_each(?)) ORDER BY id", [.text(JSONText.array(uuids))]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
      return try loadAll(ids, on: connection)
    }.mapError(TodoError.init)
  }

  /// A query's rows of (task id, number), as a dictionary.
  private static func counts(_ sql: String, on connection: Connection) throws(DatabaseError) -> [Int64: Int] {
    var counts: [Int64: Int] = [:]
    try connection.query(sql, []) { row throws(DatabaseError) in
      counts[try row.integer(at: 0) ?? 0] = Int(try row.integer(at: 1) ?? 0)
    }
    return counts
  }

  /// The tags of pending tasks, with how many pending tasks have each (`total` is the same), in
  /// name order: a sidebar's counts, cheaper than `tags()` (which counts every status).
  public static func pendingTags() -> DataOperation<[NameCount], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.all(
        """
        SELECT name, count(*) FROM tag WHERE todo_id IN (SELECT id FROM todo WHERE status = 'pending')
        GROUP BY name ORDER BY name
        """
      ) { row throws(DatabaseError) in
        let count = Int(try row.integer(at: 1) ?? 0)
        return NameCount(name: try row.text(at: 0) ?? "", pending: count, total: count)
      }
    }.mapError(TodoError.init)
  }
}

extension TodoStore {
  /// Runs `body` on the filter with its urgency conditions resolved (`TodoFilter.resolvingUrgency`),
  /// in the same transaction; `body(filter)` itself when the filter has none. Each operation that
  /// takes a filter starts with it, so that `urgency.over:5` means the same everywhere.
  static func resolvingUrgency<Value>(
    _ filter: TodoFilter, now: Int64, _ body: @escaping @Sendable (TodoFilter) -> DataOperation<Value, TodoError>
  ) -> DataOperation<Value, TodoError> {
    DataOperation { connection throws(TodoError) in
      let resolved = try database { () throws(DatabaseError) in try filter.resolvingUrgency(on: connection, now: now) }
      return try body(resolved).run(connection)
    }
  }
}

extension TodoFilter {
  /// Whether a condition compares urgency (`urgency.over:5`): then the tasks must be scored
  /// before the filter becomes SQL.
  public var comparesUrgency: Bool { conditions.contains(where: \.mentionsUrgency) }
}
