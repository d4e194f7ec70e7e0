import DataOperation

/// Keeps SQLite's planner statistics (`sqlite_stat1`) in step with the number of tasks, so that
/// a filter such as `+tag project:x` starts from its most selective index instead of walking
/// every pending task. Without statistics SQLite guesses, and at a million tasks it guesses
/// wrong by several times.
///
/// The check costs two look-ups and runs at the end of every command that writes, inside its
/// transaction (never during a read). `ANALYZE` itself runs only when there are at least
/// `threshold` tasks and none were analysed yet, or the tasks have doubled since: its cost (0.6 s
/// at a million tasks) is paid once per doubling, a constant share of the writes that made them.
/// It reads the whole of the task and tag tables: a sample (`analysis_limit`) reads only the
/// first entries of each index, which share one status, and misleads the planner badly.
///
/// ```swift
/// try TodoStore.add(changes, now: now, command: "add …").flatMap { report in
///   PlannerStatistics.refresh().map { report }
/// }.transaction().operate(in: context)
/// ```
public enum PlannerStatistics {
  /// Fewer tasks than this are planned well without statistics.
  public static let threshold: Int64 = 1_000

  /// Runs ANALYZE when the statistics are missing or stale (see the type's summary).
  public static func refresh() -> DataOperation<Void, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      // The highest id counts every task ever added: a cheap upper bound of the row count.
      let tasks = Int64(sqlValue: try connection.scalar("SELECT max(id) FROM todo")) ?? 0
      guard tasks >= threshold else { return }
      // sqlite_stat1 exists once ANALYZE has run: until then the look-up fails, as "no statistics".
      let stat = try? connection.first(
        "SELECT stat FROM sqlite_stat1 WHERE tbl = 'todo' AND idx = 'todo_by_status_due'", [],
        { row throws(DatabaseError) in try row.string("stat") })
      // The first number of an index's statistics is the number of rows it had.
      if let stat = stat ?? nil, let counted = Int64(stat.prefix { $0 != " " }), tasks <= counted * 2 { return }
      try connection.executeScript("PRAGMA analysis_limit = 0; ANALYZE todo; ANALYZE tag;")
    }.mapError(TodoError.init)
  }
}
