import DataOperation

/// How `timesheet` groups its totals.
public enum TimesheetGrouping: String, Sendable, Equatable, CaseIterable {
  case task, day, week, project
}

/// Time worked, totalled by task, day, week or project.
public struct Timesheet: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    /// The task's id, the day or week (`2026-11-16`, the Monday), or the project (empty: none).
    public var key: String
    /// For a task: its title.
    public var title: String?
    public var seconds: Int64
    /// The tasks worked on in it, in id order.
    public var taskIDs: [Int64]
  }

  public var grouping: TimesheetGrouping
  public var since: Int64?
  public var until: Int64?
  public var rows: [Row]
  public var totalSeconds: Int64 { rows.reduce(0) { $0 + $1.seconds } }
}

extension TodoStore {
  /// Totals the work intervals of the tasks a filter selects, cut to `since`…`until` (a running
  /// interval counts until now). Days and weeks are local; an interval across midnight is split.
  ///
  /// ```swift
  /// let sheet = try TodoStore.timesheet(filter, since: monday, until: nil, by: .day, now: now).operate(in: context)
  /// ```
  public static func timesheet(_ filter: TodoFilter, since: Int64?, until: Int64?, by grouping: TimesheetGrouping, now: Int64)
    -> DataOperation<Timesheet, TodoError>
  {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { timesheet($0, since: since, until: until, by: grouping, now: now) } }
    let predicate = filter.predicate(now: now)
    let end = min(until ?? now, now)
    let start = since ?? Int64.min
    return DataOperation { connection throws(DatabaseError) in
      var totals: [String: (title: String?, seconds: Int64, tasks: Set<Int64>, order: Int64)] = [:]
      func add(_ key: String, _ title: String?, _ seconds: Int64, _ task: Int64, order: Int64) {
        var entry = totals[key] ?? (title, 0, [], order)
        entry.seconds += seconds
        entry.tasks.insert(task)
        totals[key] = entry
      }
      try connection.query(
        """
        SELECT todo.id, todo.title, todo.project, interval.started, coalesce(interval.stopped, ?)
        FROM interval JOIN todo ON todo.id = interval.todo_id
        WHERE interval.started < ? AND coalesce(interval.stopped, ?) > ? AND (\(predicate.sql))
        ORDER BY interval.started, interval.id
        """, [.integer(now), .integer(end), .integer(now), .integer(start)] + predicate.arguments
      ) { row throws(DatabaseError) in
        let id = try row.integer(at: 0) ?? 0
        let from = max(try row.integer(at: 3) ?? 0, start)
        let to = min(try row.integer(at: 4) ?? 0, end)
        guard to > from else { return }
        switch grouping {
        case .task: add(String(id), try row.text(at: 1), to - from, id, order: id)
        case .project: add(try row.text(at: 2) ?? "", nil, to - from, id, order: 0)
        case .day, .week:
          // Cut at each local midnight (or Monday's).
          var cursor = from
          while cursor < to {
            var day = CalendarDay.local(cursor)
            if grouping == .week { day = Week.start(of: day) }
            let next = grouping == .week ? day.adding(days: 7).start : day.adding(days: 1).start
            let piece = min(to, max(next, cursor + 1))
            add(day.description, nil, piece - cursor, id, order: day.dayNumber)
            cursor = piece
          }
        }
      }
      let rows = totals.sorted { left, right in
        left.value.order != right.value.order ? left.value.order < right.value.order : left.key < right.key
      }.map { Timesheet.Row(key: $0.key, title: $0.value.title, seconds: $0.value.seconds, taskIDs: $0.value.tasks.sorted()) }
      return Timesheet(grouping: grouping, since: since, until: until, rows: rows)
    }.mapError(TodoError.init)
  }
}
