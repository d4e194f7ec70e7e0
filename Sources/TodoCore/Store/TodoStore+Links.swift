import DataOperation

/// The tasks a change's `parent:`, `depends:` and `blocks:` name, as ids.
struct ResolvedLinks: Sendable {
  var parent: FieldChange<Int64>?
  var addDepends: [Int64] = []
  var removeDepends: [Int64] = []
  var addBlocks: [Int64] = []
  var removeBlocks: [Int64] = []
  /// Dependencies to drop that are kept by UUID (to a task that is not here; see `pending_link`).
  var removePendingDepends: [String] = []
}

extension TodoStore {
  /// Resolves the tasks a change links to; each reference must name exactly one task.
  static func resolveLinks(_ changes: TodoChanges, on connection: Connection) throws(TodoError) -> ResolvedLinks {
    func one(_ reference: TaskReference) throws(TodoError) -> Int64 {
      if case .range = reference { throw .invalid("'\(reference)' names several tasks; a link needs one task id") }
      var filter = TodoFilter()
      filter.references = [reference]
      return try resolve(filter, now: 0).run(connection)[0]
    }
    func all(_ references: [TaskReference]) throws(TodoError) -> [Int64] {
      var ids: [Int64] = []
      for reference in references { ids.append(try one(reference)) }
      return ids
    }
    var links = ResolvedLinks()
    switch changes.parent {
    case .set(let reference): links.parent = .set(try one(reference))
    case .clear: links.parent = .clear
    case nil: break
    }
    links.addDepends = try all(changes.addDepends)
    // `depends:-UUID` of a dependency kept by UUID (its task is not here): that kept link.
    var removable: [TaskReference] = []
    for reference in changes.removeDepends {
      if case .uuidPrefix(let prefix) = reference, prefix.count == 36,
        try database({ () throws(DatabaseError) in
          try connection.first("SELECT 1 FROM pending_link WHERE kind = 'depends' AND uuid = ?", [.text(prefix.lowercased())]) {
            _ throws(DatabaseError) in true
          }
        }) == true,
        try database({ () throws(DatabaseError) in
          try connection.first("SELECT 1 FROM todo WHERE uuid = ?", [.text(prefix.lowercased())]) { _ throws(DatabaseError) in true }
        }) == nil
      {
        links.removePendingDepends.append(prefix.lowercased())
      } else {
        removable.append(reference)
      }
    }
    links.removeDepends = try all(removable)
    links.addBlocks = try all(changes.addBlocks)
    links.removeBlocks = try all(changes.removeBlocks)
    return links
  }

  /// Sets the parent and the dependencies a change asks for on a task (in memory; `writeLinks`
  /// stores them). A task cannot be its own parent or wait for itself.
  static func applyLinks(_ links: ResolvedLinks, to todo: inout Todo) throws(TodoError) {
    let name = todo.id == 0 ? "the new task" : "task \(todo.id)"
    switch links.parent {
    case .set(let id):
      guard id != todo.id else { throw .invalid("\(name) cannot be its own parent") }
      todo.parentID = id
    case .clear: todo.parentID = nil
    case nil: break
    }
    var ids = todo.depends.map(\.id)
    ids.removeAll { links.removeDepends.contains($0) }
    for id in links.addDepends where !ids.contains(id) {
      guard id != todo.id else { throw .invalid("\(name) cannot depend on itself") }
      ids.append(id)
    }
    for id in links.addBlocks where id == todo.id { throw .invalid("\(name) cannot block itself") }
    if ids != todo.depends.map(\.id) {
      let known = Dictionary(todo.depends.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      todo.depends = ids.sorted().map { known[$0] ?? TaskLink(id: $0, uuid: "", isOpen: true) }
    }
  }

  /// Stores a task's dependencies and the `blocks:` it names (journaling each other task before
  /// changing it), then refuses any cycle it made, naming it. Returns the other tasks changed.
  static func writeLinks(
    from before: Todo, to todo: Todo, _ links: ResolvedLinks, entry: JournalEntry, now: Int64, on connection: Connection
  ) throws(TodoError) -> [Int64] {
    let id = SQLValue.integer(todo.id)
    let old = Set(before.depends.map(\.id))
    let new = Set(todo.depends.map(\.id))
    var others: [Int64] = []
    try database { () throws(DatabaseError) in
      // The links as another program wrote them (iCalendar's RELATED-TO lines, kept for links to
      // tasks that are not here) give way once the links are changed here.
      if links.parent != nil || !links.removeDepends.isEmpty {
        try connection.execute("DELETE FROM extra WHERE todo_id = ? AND format = 'ical' AND name = 'related'", [id])
      }
      for target in old.subtracting(new).sorted() {
        try connection.execute("DELETE FROM dependency WHERE todo_id = ? AND depends_on = ?", [id, .integer(target)])
      }
      for target in new.subtracting(old).sorted() {
        try connection.execute("INSERT OR IGNORE INTO dependency (todo_id, depends_on) VALUES (?, ?)", [id, .integer(target)])
      }
      for (targets, adding) in [(links.addBlocks, true), (links.removeBlocks, false)] {
        for target in targets {
          let exists =
            Int(
              sqlValue: try connection.scalar(
                "SELECT count(*) FROM dependency WHERE todo_id = ? AND depends_on = ?", [.integer(target), id])) == 1
          guard exists != adding else { continue }
          try Journal.record(entry: entry, todoIDs: [target], on: connection)
          try connection.execute(
            adding ? "INSERT INTO dependency (todo_id, depends_on) VALUES (?, ?)" : "DELETE FROM dependency WHERE todo_id = ? AND depends_on = ?",
            [.integer(target), id])
          try connection.execute("UPDATE todo SET modified = ? WHERE id = ?", [.integer(now), .integer(target)])
          others.append(target)
        }
      }
    }
    if !new.subtracting(old).isEmpty, let cycle = try dependencyCycle(through: todo.id, on: connection) {
      throw .cycle("task \(todo.id) cannot depend on task \(cycle[1]): that makes a cycle \(cycle.map(String.init).joinedText(" → "))")
    }
    for target in links.addBlocks {
      if let cycle = try dependencyCycle(through: target, on: connection) {
        throw .cycle("task \(todo.id) cannot block task \(target): that makes a cycle \(cycle.map(String.init).joinedText(" → "))")
      }
    }
    if let parent = todo.parentID, parent != before.parentID, let chain = try parentCycle(of: todo.id, on: connection) {
      throw .cycle(
        "task \(parent) cannot be the parent of task \(todo.id): that makes a cycle \(chain.map(String.init).joinedText(" → "))")
    }
    return others
  }

  /// The chain of parents from a task up to itself (`[3, 5, 3]`), if its parents loop back to it.
  static func parentCycle(of task: Int64, on connection: Connection) throws(TodoError) -> [Int64]? {
    var chain: [Int64] = [task]
    var current = task
    while let next = try database({ () throws(DatabaseError) in
      try connection.first("SELECT parent_id FROM todo WHERE id = ? AND parent_id IS NOT NULL", [.integer(current)]) {
        row throws(DatabaseError) in try row.integer(at: 0) ?? 0
      }
    }) {
      chain.append(next)
      if next == task { return chain }
      // A loop above the task (left by older data) is not this task's cycle.
      guard chain.count < 10_000, !chain.dropLast().contains(next) else { return nil }
      current = next
    }
    return nil
  }

  /// A path of dependencies from a task back to itself (`[3, 5, 3]`), if there is one: a search
  /// from the task along what each task waits for, keeping the first way each task was reached.
  static func dependencyCycle(through start: Int64, on connection: Connection) throws(TodoError) -> [Int64]? {
    var reachedFrom: [Int64: Int64] = [:]
    var queue: [Int64] = [start]
    var index = 0
    while index < queue.count {
      let current = queue[index]
      index += 1
      let targets = try database { () throws(DatabaseError) in
        try connection.all("SELECT depends_on FROM dependency WHERE todo_id = ? ORDER BY depends_on", [.integer(current)]) {
          row throws(DatabaseError) in try row.integer(at: 0) ?? 0
        }
      }
      for target in targets {
        if target == start {
          var path = [start]
          var step: Int64? = current
          while let node = step, node != start {
            path.append(node)
            step = reachedFrom[node]
          }
          let middle: [Int64] = path[1...].reversed()
          return [start] + middle + [start]
        }
        if reachedFrom[target] == nil {
          reachedFrom[target] = current
          queue.append(target)
        }
      }
    }
    return nil
  }
}
