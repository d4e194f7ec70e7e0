import DataOperation

extension TodoStore {
  /// The ids of the tasks a filter selects, most urgent first (ties by id), as `next` ranks
  /// them. One query reads each task's row with its notes, the tasks it waits for and that wait
  /// for it, and whether it is being worked on, counted by SQL (only from the tables that have
  /// rows): no task is read whole, and only ids and scores are kept.
  ///
  /// ```swift
  /// let ids = try TodoStore.idsByUrgency(filter, now: now, coefficients: coefficients).operate(in: context)
  /// ```
  public static func idsByUrgency(_ filter: TodoFilter, sort: [SortKey] = [], now: Int64, coefficients: Urgency.Coefficients)
    -> DataOperation<[Int64], TodoError>
  {
    DataOperation { connection throws(DatabaseError) in
      let relations = try Relations(on: connection)
      let notes = try connection.scalar("SELECT EXISTS (SELECT 1 FROM note)") == .integer(1)
      var facts = [
        notes ? "(SELECT count(*) FROM note WHERE note.todo_id = todo.id)" : "0",
        relations.dependencies
          ? """
          (SELECT count(*) FROM dependency JOIN todo AS other ON other.id = dependency.todo_id
            WHERE dependency.depends_on = todo.id AND other.status = 'pending')
          """ : "0",
        relations.intervals
          ? "coalesce((SELECT stopped IS NULL FROM interval WHERE interval.todo_id = todo.id ORDER BY started DESC, id DESC LIMIT 1), 0)"
          : "0",
      ]
      facts.append(
        relations.dependencies
          ? """
          EXISTS (SELECT 1 FROM dependency JOIN todo AS other ON other.id = dependency.depends_on
            WHERE dependency.todo_id = todo.id AND other.status = 'pending')
          """ : "0")
      let (sql, arguments) = listQuery("\(selectTodoColumns), \(facts.joined(separator: ", ")) FROM todo", filter, sort: sort, limit: nil, now: now)
      var scores: [(id: Int64, score: Double)] = []
      let first = Todo.hasNotesIndex
      try connection.query(sql, arguments) { row throws(DatabaseError) in
        let todo = try Todo(selected: row)
        let counted = Urgency.Facts(
          notes: Int(try row.integer(at: first) ?? 0), blocking: Int(try row.integer(at: first + 1) ?? 0),
          isActive: try row.integer(at: first + 2) == 1, isBlocked: try row.integer(at: first + 3) == 1)
        scores.append((todo.id, Urgency.score(of: todo, facts: counted, now: now, coefficients: coefficients)))
      }
      scores.sort { left, right in left.score != right.score ? left.score > right.score : left.id < right.id }
      return scores.map(\.id)
    }.mapError(TodoError.init)
  }
}
