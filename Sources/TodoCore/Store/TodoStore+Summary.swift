import DataOperation

/// A name with how many pending tasks and how many tasks in all carry it.
public struct NameCount: Sendable, Equatable {
  public var name: String
  public var pending: Int
  public var total: Int

  public init(name: String, pending: Int, total: Int) {
    self.name = name
    self.pending = pending
    self.total = total
  }
}

/// Counts over the whole database, for `todo stats`.
public struct Statistics: Sendable, Equatable {
  public var pending = 0
  public var done = 0
  public var deleted = 0
  public var overdue = 0
  /// Pending tasks due between now and the end of the next 7 days.
  public var dueThisWeek = 0
  public var tags = 0
  public var projects = 0
  /// Tasks completed in the last 7 days.
  public var completedLastWeek = 0
  /// When the oldest pending task was created.
  public var oldestPending: Int64?
  public var journalEntries = 0

  public init() {}
}

extension TodoStore {
  /// Every tag with its task counts (deleted tasks not counted), by name.
  ///
  /// ```swift
  /// let tags = try TodoStore.tags().operate(in: context)   // [NameCount(name: "home", pending: 2, total: 3)]
  /// ```
  public static func tags() -> DataOperation<[NameCount], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.all(
        """
        SELECT tag.name AS name, sum(todo.status = 'pending') AS pending, count(*) AS total
        FROM tag JOIN todo ON todo.id = tag.todo_id WHERE todo.status <> 'deleted'
        GROUP BY tag.name ORDER BY tag.name
        """
      ) { row throws(DatabaseError) in
        NameCount(name: try row.string("name"), pending: try row.decode("pending"), total: try row.decode("total"))
      }
    }.mapError(TodoError.init)
  }

  /// How far a project (with its sub-projects) has come: its pending tasks and all of them,
  /// deleted ones not counted. Through the index on `project`: as fast as the project is small.
  public static func projectProgress(_ name: String) -> DataOperation<NameCount, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      try connection.first(
        """
        SELECT coalesce(sum(status = 'pending'), 0) AS pending, count(*) AS total FROM todo
        WHERE (project = ?1 OR (project >= ?2 AND project < ?3)) AND status <> 'deleted'
        """, [.text(name), .text(name + "."), .text(name + "/")]
      ) { row throws(DatabaseError) in
        NameCount(name: name, pending: try row.decode("pending", as: Int.self), total: try row.decode("total", as: Int.self))
      } ?? NameCount(name: name, pending: 0, total: 0)
    }.mapError(TodoError.init)
  }

  /// Every project with its task counts; a parent counts its sub-projects' tasks too, and is
  /// listed even when no task names it directly.
  ///
  /// ```swift
  /// let projects = try TodoStore.projects().operate(in: context)   // work (3), work.q4 (1)
  /// ```
  public static func projects() -> DataOperation<[NameCount], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      let direct = try connection.all(
        """
        SELECT project, sum(status = 'pending') AS pending, count(*) AS total FROM todo
        WHERE project IS NOT NULL AND status <> 'deleted' GROUP BY project
        """
      ) { row throws(DatabaseError) in
        (try row.string("project"), try row.decode("pending", as: Int.self), try row.decode("total", as: Int.self))
      }
      var counts: [String: NameCount] = [:]
      for (project, pending, total) in direct {
        let parts = project.split(separator: ".")
        for depth in 1...parts.count {
          let name = parts.prefix(depth).joined(separator: ".")
          counts[name, default: NameCount(name: name, pending: 0, total: 0)].pending += pending
          counts[name, default: NameCount(name: name, pending: 0, total: 0)].total += total
        }
      }
      return counts.values.sorted { $0.name < $1.name }
    }.mapError(TodoError.init)
  }

  /// Counts by status, overdue and soon due, tags, projects, recent completions.
  ///
  /// ```swift
  /// let stats = try TodoStore.statistics(now: now).operate(in: context)
  /// ```
  public static func statistics(now: Int64) -> DataOperation<Statistics, TodoError> {
    // The tag and project counts are those `todo tags` and `todo projects` list, counted without
    // summing every tag's tasks as those commands do.
    zip(counts(now: now), tagCount(), projectCount()).map { counted, tags, projects in
      var stats = counted
      stats.tags = tags
      stats.projects = projects
      return stats
    }
  }

  /// How many tags `todo tags` lists: those of tasks that are not deleted.
  private static func tagCount() -> DataOperation<Int, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      Int(
        sqlValue: try connection.scalar(
          "SELECT count(DISTINCT tag.name) FROM tag JOIN todo ON todo.id = tag.todo_id WHERE todo.status <> 'deleted'")) ?? 0
    }.mapError(TodoError.init)
  }

  /// How many projects `todo projects` lists: those of tasks that are not deleted, with their parents.
  private static func projectCount() -> DataOperation<Int, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      var names = Set<Substring>()
      try connection.query("SELECT DISTINCT project FROM todo WHERE project IS NOT NULL AND status <> 'deleted'") {
        row throws(DatabaseError) in
        let project = try row.string("project")
        var end = project.endIndex
        names.insert(project[...])
        while let dot = project[..<end].lastIndex(of: ".") {
          names.insert(project[..<dot])
          end = dot
        }
      }
      return names.count
    }.mapError(TodoError.init)
  }

  private static func counts(now: Int64) -> DataOperation<Statistics, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      var stats = Statistics()
      let week: Int64 = 7 * 86_400
      // The same conditions as +OVERDUE and +DUE (all-day dates are whole days).
      let overdue = FilterTerm.virtual(.overdue).predicate(now: now)
      let dueSoon = FilterTerm.virtual(.due).predicate(now: now)
      try connection.query(
        """
        SELECT sum(status = 'pending') AS pending, sum(status = 'done') AS done, sum(status = 'deleted') AS deleted,
          sum(\(overdue.sql)) AS overdue,
          sum(\(dueSoon.sql)) AS due_this_week,
          sum(status = 'done' AND completed >= ?) AS completed_last_week,
          min(CASE WHEN status = 'pending' THEN created END) AS oldest_pending,
          (SELECT count(*) FROM journal_entry) AS journal_entries
        FROM todo
        """, overdue.arguments + dueSoon.arguments + [.integer(now - week)]
      ) { row throws(DatabaseError) in
        stats.pending = try row.decode("pending", as: Int?.self) ?? 0
        stats.done = try row.decode("done", as: Int?.self) ?? 0
        stats.deleted = try row.decode("deleted", as: Int?.self) ?? 0
        stats.overdue = try row.decode("overdue", as: Int?.self) ?? 0
        stats.dueThisWeek = try row.decode("due_this_week", as: Int?.self) ?? 0
        stats.completedLastWeek = try row.decode("completed_last_week", as: Int?.self) ?? 0
        stats.oldestPending = try row.decode("oldest_pending")
        stats.journalEntries = try row.decode("journal_entries")
      }
      return stats
    }.mapError(TodoError.init)
  }
}

extension TodoStore {
  /// For each tag and project a filter names that no task has, but that exists in another case,
  /// a warning naming the one that exists: `no tag +Chore; did you mean +chore?`. Tags and
  /// projects are case-sensitive, so `+Chore` silently matching nothing would look like a bug.
  ///
  /// ```swift
  /// try TodoStore.caseMismatches(filter).operate(in: context)  // ["no tag +Chore; did you mean +chore?"]
  /// ```
  public static func caseMismatches(_ filter: TodoFilter) -> DataOperation<[String], TodoError> {
    DataOperation { connection throws(DatabaseError) -> [String] in
      var warnings: [String] = []
      var tagNames: [String]?
      for tag in filter.includeTags + filter.excludeTags {
        guard try connection.first("SELECT 1 FROM tag WHERE name = ? LIMIT 1", [.text(tag)], { _ in true }) == nil else { continue }
        // Only when the tag is missing: then reading the names (from the index) costs little.
        if tagNames == nil {
          tagNames = try connection.all("SELECT DISTINCT name FROM tag ORDER BY name") { row throws(DatabaseError) in try row.string("name") }
        }
        let folded = tag.lowercased()
        if let other = tagNames?.first(where: { $0.lowercased() == folded }) {
          warnings.append("no tag +\(tag); did you mean +\(other)?")
        }
      }
      var projectNames: [String]?
      for project in filter.projects {
        let exists = try connection.first(
          "SELECT 1 FROM todo WHERE project = ? OR (project >= ? AND project < ?) LIMIT 1",
          [.text(project), .text(project + "."), .text(project + "/")], { _ in true })
        guard exists == nil else { continue }
        if projectNames == nil {
          projectNames = try connection.all("SELECT DISTINCT project FROM todo WHERE project IS NOT NULL ORDER BY project") {
            row throws(DatabaseError) in try row.string("project")
          }
        }
        // `Work` may be a parent in another case: `work` of `work.q4`.
        let folded = project.lowercased()
        let parts = project.split(separator: ".").count
        let candidates = (projectNames ?? []).map { $0.split(separator: ".").prefix(parts).joined(separator: ".") }
        if let other = candidates.first(where: { $0.lowercased() == folded }) {
          warnings.append("no project \(project); did you mean project:\(other)?")
        }
      }
      return warnings
    }.mapError(TodoError.init)
  }
}
