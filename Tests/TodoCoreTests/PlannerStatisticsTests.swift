import DataOperation
import Testing

@testable import TodoCore

/// SQLite's planner statistics follow the number of tasks, and are good enough for the planner
/// to start a project filter from the project index.
@Suite struct PlannerStatisticsTests {
  private func statistics(_ context: Database) throws -> Int64? {
    try DataOperation<Int64?, DatabaseError> { connection throws(DatabaseError) in
      let stat = try? connection.first(
        "SELECT stat FROM sqlite_stat1 WHERE tbl = 'todo' AND idx = 'todo_by_status_due'", [],
        { row throws(DatabaseError) in try row.string("stat") })
      return (stat ?? nil).flatMap { Int64($0.prefix { $0 != " " }) }
    }.operate(in: context)
  }

  private func add(_ count: Int, to context: Database) throws {
    try DataOperation<Void, TodoError> { connection throws(TodoError) in
      for index in 0..<count {
        _ = try TodoStore.add(TodoChanges(title: "task \(index)"), now: storeNow, command: "add").run(connection)
      }
    }.transaction().operate(in: context)
  }

  @Test func statisticsAppearPastTheThresholdAndFollowWhenTheTasksDouble() throws {
    let context = try makeTodoContext()
    try add(Int(PlannerStatistics.threshold) - 1, to: context)
    try PlannerStatistics.refresh().operate(in: context)
    #expect(try statistics(context) == nil, "no statistics below the threshold")
    try add(1, to: context)
    try PlannerStatistics.refresh().operate(in: context)
    let first = try #require(try statistics(context))
    #expect(first == PlannerStatistics.threshold)
    // Not again until the tasks have doubled.
    try add(500, to: context)
    try PlannerStatistics.refresh().operate(in: context)
    #expect(try statistics(context) == first)
    try add(600, to: context)
    try PlannerStatistics.refresh().operate(in: context)
    #expect(try statistics(context) == 2_100)
  }

  @Test func withStatisticsAProjectFilterStartsFromTheProjectIndex() throws {
    let context = try makeTodoContext()
    try DataOperation<Void, TodoError> { connection throws(TodoError) in
      for index in 0..<1_200 {
        var changes = TodoChanges(title: "task \(index)")
        changes.project = .set(index % 100 == 0 ? "rare" : "common.\(index % 7)")
        _ = try TodoStore.add(changes, now: storeNow, command: "add").run(connection)
      }
    }.transaction().operate(in: context)
    try PlannerStatistics.refresh().operate(in: context)
    var filter = TodoFilter()
    filter.projects = ["rare"]
    let predicate = filter.predicate(now: storeNow)
    let plan = try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      try connection.all("EXPLAIN QUERY PLAN SELECT id FROM todo WHERE \(predicate.sql)", predicate.arguments) {
        row throws(DatabaseError) in try row.string("detail")
      }
    }.operate(in: context)
    #expect(plan.contains { $0.contains("todo_by_project") }, "plan: \(plan)")
    #expect(!plan.contains { $0.contains("todo_by_status_due") }, "plan: \(plan)")
  }
}
