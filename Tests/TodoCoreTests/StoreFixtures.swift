import DataOperation
import TodoCore

/// A fixed "now" for store tests: 2026-11-21T09:30:00Z.
let storeNow: Int64 = 1_795_253_400

/// A fresh migrated in-memory todo database.
func makeTodoContext() throws -> Database {
  try TodoDatabase.open(path: ":memory:")
}

/// Adds a task built by `configure`, as the command line would.
@discardableResult
func addTask(
  _ title: String, in context: Database, at time: Int64 = storeNow, _ configure: (inout TodoChanges) -> Void = { _ in }
) throws -> Todo {
  var changes = TodoChanges(title: title)
  configure(&changes)
  return try TodoStore.add(changes, now: time, command: "add \(title)").operate(in: context).tasks[0]
}

func select(_ configure: (inout TodoFilter) -> Void) -> TodoFilter {
  var filter = TodoFilter()
  configure(&filter)
  return filter
}

func ids(_ references: TaskReference...) -> TodoFilter {
  select { $0.references = references }
}

/// Every task in every status, by id, as the database holds them.
func snapshot(_ context: Database) throws -> [Todo] {
  try TodoStore.list(select { $0.status = .all }, sort: [SortKey(.id)], now: storeNow).operate(in: context)
}
