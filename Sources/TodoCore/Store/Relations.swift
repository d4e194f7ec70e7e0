import DataOperation

/// Reads what a task is linked to (its parent's UUID, dependencies, series, time intervals and
/// subtasks' progress) after its row. What no task in the database has is never looked up: one
/// query at the start says which tables have rows, so a database without subtasks, dependencies,
/// series or intervals pays nothing per task.
struct Relations {
  let dependencies: Bool
  let intervals: Bool
  let series: Bool
  let children: Bool

  init(on connection: Connection) throws(DatabaseError) {
    let found = try connection.first(
      """
      SELECT EXISTS (SELECT 1 FROM dependency), EXISTS (SELECT 1 FROM interval), EXISTS (SELECT 1 FROM series),
        EXISTS (SELECT 1 FROM todo INDEXED BY todo_by_parent WHERE parent_id IS NOT NULL)
      """, []
    ) { row throws(DatabaseError) in
      (try row.integer(at: 0) == 1, try row.integer(at: 1) == 1, try row.integer(at: 2) == 1, try row.integer(at: 3) == 1)
    }
    (dependencies, intervals, series, children) = found ?? (false, false, false, false)
  }

  /// Whether any task has anything to read.
  var any: Bool { dependencies || intervals || series || children }

  func fill(_ todo: inout Todo, on connection: Connection) throws(DatabaseError) {
    let id = SQLValue.integer(todo.id)
    if let parent = todo.parentID {
      todo.parentUUID = String(sqlValue: try connection.scalar("SELECT uuid FROM todo WHERE id = ?", [.integer(parent)]))
    }
    if series, let seriesID = todo.seriesID {
      todo.series = try connection.first("SELECT uuid, rule, ended FROM series WHERE id = ?", [.integer(seriesID)]) {
        row throws(DatabaseError) in
        let rule = try row.text(at: 1) ?? ""
        guard let parsed = RecurrenceRule(parsing: rule) else {
          throw .decoding(column: "series.rule", expected: "a recurrence rule", found: rule, sql: "")
        }
        return SeriesLink(
          id: seriesID, uuid: try row.text(at: 0) ?? "", index: todo.seriesIndex ?? 1, rule: parsed, ended: try row.integer(at: 2))
      }
    }
    if dependencies {
      todo.depends = try connection.all(
        "SELECT todo.id, todo.uuid, todo.status FROM dependency JOIN todo ON todo.id = dependency.depends_on WHERE dependency.todo_id = ? ORDER BY todo.id",
        [id]
      ) { row throws(DatabaseError) in
        TaskLink(id: try row.integer(at: 0) ?? 0, uuid: try row.text(at: 1) ?? "", isOpen: try row.text(at: 2) == "pending")
      }
      todo.blocking = try connection.all(
        """
        SELECT todo.id FROM dependency JOIN todo ON todo.id = dependency.todo_id
        WHERE dependency.depends_on = ? AND todo.status = 'pending' ORDER BY todo.id
        """, [id]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
    }
    if intervals {
      todo.intervals = try connection.all(
        "SELECT id, started, stopped FROM interval WHERE todo_id = ? ORDER BY started, id", [id]
      ) { row throws(DatabaseError) in
        WorkInterval(id: try row.integer(at: 0) ?? 0, started: try row.integer(at: 1) ?? 0, stopped: try row.integer(at: 2))
      }
    }
    if children {
      todo.progress =
        try connection.first(
          """
          SELECT count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE status != 'deleted')
          FROM todo INDEXED BY todo_by_parent WHERE parent_id = ?
          """, [id]
        ) { row throws(DatabaseError) in
          let total = Int(try row.integer(at: 1) ?? 0)
          return total == 0 ? nil : Progress(done: Int(try row.integer(at: 0) ?? 0), total: total)
        } ?? nil
    }
  }
}
