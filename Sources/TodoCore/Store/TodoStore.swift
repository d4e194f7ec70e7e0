import DataOperation

/// The todo domain's operations. Each returns a `DataOperation` built from smaller ones; the
/// command line runs exactly one per command, as one transaction.
///
/// ```swift
/// let task = try TodoStore.add(TodoChanges(title: "Buy milk"), now: now, command: "add Buy milk")
///   .operate(in: context)
/// ```
public enum TodoStore {
  static let todos = Repository<Todo>()
  static let notes = Repository<Note>()

  /// The columns of a task plus its tags (in name order: the tag table's key is todo_id, name),
  /// for every query that reads whole tasks, in the order `Todo(selected:)` reads them.
  static let selectTodo = "\(selectTodoColumns), \(hasNotesColumn) FROM todo"
  /// The same without asking whether there are notes, for readers that do not show them.
  static let selectTodoWithoutNotes = "\(selectTodoColumns) FROM todo"
  static let selectTodoColumns = """
    SELECT todo.id, todo.uuid, todo.title, todo.status, todo.priority, todo.project, todo.due, todo.due_day,
      todo.wait, todo.wait_day, todo.scheduled, todo.scheduled_day, todo.until, todo.until_day, todo.end_reason,
      todo.created, todo.modified, todo.completed, (SELECT group_concat(name, ' ') FROM tag WHERE tag.todo_id = todo.id) AS tags,
      todo.parent_id, todo.series_id, todo.series_index, todo.remind
    """
  private static let hasNotesColumn = "EXISTS (SELECT 1 FROM note WHERE note.todo_id = todo.id) AS has_notes"

  /// Reads one task with its tags and notes, by id.
  /// `relations` false: without parent, links, series, times and progress (see `loadAll`).
  static func load(_ id: Int64, relations: Bool = true, on connection: Connection) throws(DatabaseError) -> Todo {
    guard
      let (found, hasNotes) = try connection.first(
        "\(selectTodo) WHERE todo.id = ?", [.integer(id)],
        { row throws(DatabaseError) in (try Todo(selected: row), try row.integer(at: Todo.hasNotesIndex) == 1) })
    else { throw .notFound(table: Todo.tableName, key: String(id)) }
    var todo = found
    if hasNotes { todo.notes = try loadNotes(of: id, on: connection) }
    if relations { try Relations(on: connection).fill(&todo, on: connection) }
    return todo
  }

  /// Reads tasks with their tags and notes, in id order, in two queries however many there are
  /// (the ids travel as one JSON array).
  /// `relations` false: without parent, links, series, times and progress (a task just added
  /// without any has none to read).
  static func loadAll(_ ids: [Int64], relations: Bool = true, on connection: Connection) throws(DatabaseError) -> [Todo] {
    guard !ids.isEmpty else { return [] }
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    var todos: [Todo] = []
    todos.reserveCapacity(ids.count)
    var withNotes: [Int: Int64] = [:]
    try connection.query("\(selectTodo) WHERE todo.id IN (SELECT value FROM json_each(?)) ORDER BY todo.id", [list]) {
      row throws(DatabaseError) in
      let todo = try Todo(selected: row)
      if try row.integer(at: Todo.hasNotesIndex) == 1 { withNotes[todos.count] = todo.id }
      todos.append(todo)
    }
    if !withNotes.isEmpty {
      var notes: [Int64: [Note]] = [:]
      let noted = SQLValue.text("[" + withNotes.values.map(String.init).joinedText(",") + "]")
      try connection.query(
        "SELECT * FROM note WHERE todo_id IN (SELECT value FROM json_each(?)) ORDER BY todo_id, created, id", [noted]
      ) { row throws(DatabaseError) in
        let note = try Note(row: row)
        notes[note.todoID, default: []].append(note)
      }
      for (index, id) in withNotes { todos[index].notes = notes[id] ?? [] }
    }
    guard relations else { return todos }
    let linked = try Relations(on: connection)
    if linked.any {
      for index in todos.indices { try linked.fill(&todos[index], on: connection) }
    }
    return todos
  }

  static func loadNotes(of id: Int64, on connection: Connection) throws(DatabaseError) -> [Note] {
    try connection.all("SELECT * FROM note WHERE todo_id = ? ORDER BY created, id", [.integer(id)]) {
      row throws(DatabaseError) in try Note(row: row)
    }
  }

  /// Changes a task's tags from `old` to `new`: only the tags removed are deleted and only those
  /// added are inserted.
  static func updateTags(from old: [String], to new: [String], of id: Int64, on connection: Connection) throws(DatabaseError) {
    for tag in Set(old).subtracting(new).sorted() {
      try connection.execute("DELETE FROM tag WHERE todo_id = ? AND name = ?", [.integer(id), .text(tag)])
    }
    for tag in Set(new).subtracting(old).sorted() {
      try connection.execute("INSERT INTO tag (todo_id, name) VALUES (?, ?)", [.integer(id), .text(tag)])
    }
  }

  /// Replaces a task's tags (`replacing` false: a new task, which has none to delete yet).
  static func writeTags(_ tags: [String], of id: Int64, replacing: Bool = true, on connection: Connection) throws(DatabaseError) {
    if replacing { try connection.execute("DELETE FROM tag WHERE todo_id = ?", [.integer(id)]) }
    for tag in Set(tags) {
      try connection.execute("INSERT INTO tag (todo_id, name) VALUES (?, ?)", [.integer(id), .text(tag)])
    }
  }

  // MARK: - Reading

  /// Streams the tasks a filter selects, in order, to `body` (one at a time, so a large list is
  /// never held in memory). Returns how many there were. With `notes` false, tasks come without
  /// their notes (a table does not show them, and a million note look-ups cost).
  ///
  /// ```swift
  /// let count = try TodoStore.forEach(filter, sort: SortKey.defaultOrder, limit: nil, now: now) { print($0.title) }
  ///   .operate(in: context)
  /// ```
  public static func forEach(
    _ filter: TodoFilter, sort: [SortKey], limit: Int?, now: Int64, notes: Bool = true,
    _ body: @escaping @Sendable (Todo) -> Void
  ) -> DataOperation<Int, TodoError> {
    forEach(filter, sort: sort, limit: limit, now: now, notes: notes, userAttributes: false) { todo, _ in body(todo) }
  }

  /// `forEach`, each task with its user-defined attributes (name, stored JSON text) when
  /// `userAttributes` (looked up by the task's id, as it streams: a list's JSON).
  public static func forEach(
    _ filter: TodoFilter, sort: [SortKey], limit: Int?, now: Int64, notes: Bool = true, userAttributes: Bool,
    _ body: @escaping @Sendable (Todo, [(name: String, value: String)]) -> Void
  ) -> DataOperation<Int, TodoError> {
    if filter.comparesUrgency {
      return resolvingUrgency(filter, now: now) {
        forEach($0, sort: sort, limit: limit, now: now, notes: notes, userAttributes: userAttributes, body)
      }
    }
    let (sql, arguments) = listQuery(notes ? selectTodo : selectTodoWithoutNotes, filter, sort: sort, limit: limit, now: now)
    return DataOperation { [sql, arguments] connection throws(DatabaseError) in
      var count = 0
      let relations = try Relations(on: connection)
      try connection.query(sql, arguments) { row throws(DatabaseError) in
        var todo = try Todo(selected: row)
        if notes, try row.integer(at: Todo.hasNotesIndex) == 1 {
          todo.notes = try loadNotes(of: todo.id, on: connection)
        }
        if relations.any { try relations.fill(&todo, on: connection) }
        var attributes: [(name: String, value: String)] = []
        if userAttributes {
          try connection.query(
            "SELECT name, value FROM extra WHERE todo_id = ? AND format = 'taskwarrior' ORDER BY name", [.integer(todo.id)]
          ) { row throws(DatabaseError) in
            let name = try row.text(at: 0) ?? ""
            if UserAttribute.isName(name) { attributes.append((name, try row.text(at: 1) ?? "")) }
          }
        }
        count += 1
        body(todo, attributes)
      }
      return count
    }.mapError(TodoError.init)
  }

  /// `select` narrowed by a filter, in the order a list uses (ties broken), at most `limit` rows.
  static func listQuery(_ select: String, _ filter: TodoFilter, sort: [SortKey], limit: Int?, now: Int64)
    -> (String, [SQLValue])
  {
    let predicate = filter.predicate(now: now)
    var sql = "\(select) WHERE \(predicate.sql) ORDER BY "
    sql += SortKey.withTieBreaks(sort).map(\.ordering.clause).joinedText(", ")
    var arguments = predicate.arguments
    if let limit {
      sql += " LIMIT ?"
      arguments.append(.integer(Int64(max(0, limit))))
    }
    return (sql, arguments)
  }

  /// Streams what a list table shows of the tasks a filter selects (`TaskRow`), in order, to
  /// `body`. Returns how many there were. The times (created, modified, completed) are read
  /// only when the order uses one (`TaskRow.showsTimes`).
  ///
  /// ```swift
  /// let count = try TodoStore.forEachRow(filter, sort: [], limit: nil, now: now) { print($0.title) }
  ///   .operate(in: context)
  /// ```
  public static func forEachRow(
    _ filter: TodoFilter, sort: [SortKey], limit: Int?, now: Int64, _ body: @escaping @Sendable (TaskRow) -> Void
  ) -> DataOperation<Int, TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { forEachRow($0, sort: sort, limit: limit, now: now, body) } }
    // A list of done tasks shows when each was completed (StreamedTaskTable's Completed column).
    let times = TaskRow.showsTimes(sortedBy: sort) || filter.effectiveStatus == .done
    return DataOperation { connection throws(DatabaseError) in
      // Subtask counts only when some task has a parent: a list without subtasks pays nothing.
      let progress =
        try connection.scalar(
          "SELECT EXISTS (SELECT 1 FROM todo INDEXED BY todo_by_parent WHERE parent_id IS NOT NULL)") == .integer(1)
      let (sql, arguments) = listQuery(
        TaskRow.selectColumns(times: times, progress: progress), filter, sort: sort, limit: limit, now: now)
      var count = 0
      var decoder = TaskRow.Decoder(times: times, progress: progress)
      try connection.query(sql, arguments) { row throws(DatabaseError) in
        count += 1
        body(try decoder.decode(row))
      }
      return count
    }.mapError(TodoError.init)
  }

  /// The ids of the tasks a filter selects, in a list's order: what a screen that reads only
  /// its visible rows (`todo ui`) keeps of a list (8 bytes a task).
  ///
  /// ```swift
  /// let ids = try TodoStore.ids(filter, sort: [], now: now).operate(in: context)
  /// ```
  public static func ids(_ filter: TodoFilter, sort: [SortKey], limit: Int? = nil, now: Int64) -> DataOperation<[Int64], TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { ids($0, sort: sort, limit: limit, now: now) } }
    let (sql, arguments) = listQuery("SELECT todo.id FROM todo", filter, sort: sort, limit: limit, now: now)
    return DataOperation { [sql, arguments] connection throws(DatabaseError) in
      var ids: [Int64] = []
      try connection.query(sql, arguments) { row throws(DatabaseError) in ids.append(try row.integer(at: 0) ?? 0) }
      return ids
    }.mapError(TodoError.init)
  }

  /// The tasks a filter selects, in order.
  ///
  /// ```swift
  /// let tasks = try TodoStore.list(filter, now: now).operate(in: context)
  /// ```
  public static func list(_ filter: TodoFilter, sort: [SortKey] = [], limit: Int? = nil, now: Int64)
    -> DataOperation<[Todo], TodoError>
  {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { list($0, sort: sort, limit: limit, now: now) } }
    return DataOperation { connection throws(TodoError) in
      // A collector per run: the operation value can be run again, or on two contexts at once.
      let collector = Collector()
      _ = try forEach(filter, sort: sort, limit: limit, now: now) { collector.todos.append($0) }.run(connection)
      return collector.todos
    }
  }

  /// Gathers streamed tasks; only touched on the context's queue, inside one run.
  private final class Collector: @unchecked Sendable {
    var todos: [Todo] = []
  }

  /// One task by reference (an id or a UUID prefix), with its tags and notes.
  ///
  /// ```swift
  /// let task = try TodoStore.task(.id(3)).operate(in: context)
  /// ```
  public static func task(_ reference: TaskReference) -> DataOperation<Todo, TodoError> {
    var filter = TodoFilter()
    filter.references = [reference]
    // A filter of references only never looks at the time.
    return resolve(filter, now: 0).flatMap { ids in
      guard ids.count == 1 else { return .fail(.invalid("'\(reference)' names \(ids.count) tasks; give one id")) }
      return DataOperation { connection throws(DatabaseError) in try load(ids[0], on: connection) }
        .mapError(TodoError.init)
    }
  }

  /// The tasks references name (ids, ranges, UUID prefixes), each with its tags and notes, in
  /// id order; every id and prefix must exist.
  ///
  /// ```swift
  /// let tasks = try TodoStore.tasks([.id(1), .id(2)]).operate(in: context)
  /// ```
  public static func tasks(_ references: [TaskReference]) -> DataOperation<[Todo], TodoError> {
    var filter = TodoFilter()
    filter.references = references
    return resolve(filter, now: 0).flatMap { ids in
      DataOperation { connection throws(DatabaseError) in try loadAll(ids, on: connection) }.mapError(TodoError.init)
    }
  }

  /// The ids a selection names, checking that every id and UUID prefix the user typed exists
  /// (and that a prefix is unambiguous); `noMatch` when nothing is selected.
  public static func resolve(_ filter: TodoFilter, now: Int64) -> DataOperation<[Int64], TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { resolve($0, now: now) } }
    let predicate = filter.predicate(now: now)
    return DataOperation { connection throws(TodoError) in
      for reference in filter.references {
        let matching = TodoFilter.predicate(for: reference)
        let count = try database { () throws(DatabaseError) in
          Int(sqlValue: try connection.scalar("SELECT count(*) FROM todo WHERE \(matching.sql)", matching.arguments)) ?? 0
        }
        switch reference {
        case .id(let id) where count == 0: throw .notFound("task \(id)")
        case .range(let low, let high) where count == 0: throw .notFound("task in \(low)-\(high)")
        case .uuidPrefix(let prefix) where count == 0: throw .notFound("task with UUID \(prefix)…")
        case .uuidPrefix(let prefix) where count > 1: throw .ambiguous(prefix: prefix, count: count)
        default: break
        }
      }
      let ids = try database { () throws(DatabaseError) in
        try connection.all("SELECT todo.id FROM todo WHERE \(predicate.sql) ORDER BY todo.id", predicate.arguments) {
          row throws(DatabaseError) in try row.decode("id", as: Int64.self)
        }
      }
      guard !ids.isEmpty else { throw .noMatch }
      return ids
    }
  }
}

/// Runs database work inside a domain operation, wrapping its failure.
func database<Value>(_ body: () throws(DatabaseError) -> Value) throws(TodoError) -> Value {
  do throws(DatabaseError) {
    return try body()
  } catch {
    throw TodoError(error)
  }
}
