import TodoCore

/// Reports: `list`, `next`, `waiting` and the configuration's own, each a filter, columns, an
/// order and a limit (see `ReportDefinition`).
extension CommandRunner {
  /// The report a list query names, as configured.
  func definition(of query: ListQuery) -> ReportDefinition {
    if let definition = configuration.report(query.report) { return definition }
    // Only a report the configuration no longer reads (checked when it was read) gets here.
    return try! ReportDefinition(name: "list") { ReportDefinition.builtIn["list"]?[$0] ?? "" }
  }

  /// `todo list`, `todo waiting`, `todo NAME`: the streamed list table when the report has the
  /// list's columns, else the report's own table.
  func showReport(_ query: ListQuery) throws(CommandFailure) {
    // `todo list` as built in: straight to the streamed table, no report looked up.
    if configuration.isPlainList(query.report) { return try list(query) }
    let definition = definition(of: query)
    if definition.drawsAsList {
      try list(query)
    } else {
      try report(query, definition)
    }
  }

  /// A report with its own columns, or ranked by urgency: ranked by one query, and only the
  /// tasks shown read whole (a report in another order reads every selected task, then cuts).
  func report(_ query: ListQuery, _ definition: ReportDefinition) throws(CommandFailure) {
    try warnAboutCase(in: query.filter)
    // A `--sort` typed after a report ranked by urgency orders it instead.
    let byUrgency = definition.byUrgency && query.sort.isEmpty
    let showsUrgency = byUrgency || definition.columns.contains(.urgency)
    let coefficients = configuration.urgency
    let total: Int
    let shown: [(Todo, Double)]
    if byUrgency {
      // Ranked from one query's columns; only the tasks shown are read whole.
      let limit = query.limit ?? Int.max
      let (count, todos) = try perform(
        TodoStore.idsByUrgency(query.filter, now: now, coefficients: coefficients).flatMap { ranked in
          let first = Array(ranked.prefix(limit))
          return TodoStore.tasks(ids: first).map { tasks in
            let byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { one, _ in one })
            return (ranked.count, first.compactMap { byID[$0] })
          }
        }, access: .read)
      total = count
      let scores = try perform(TodoStore.urgencies(of: todos, now: now, coefficients: coefficients), access: .read)
      shown = todos.map { ($0, scores[$0.id] ?? 0) }
    } else {
      let todos = try perform(TodoStore.list(query.filter, sort: query.sort, now: now), access: .read)
      total = todos.count
      let first = Array(todos.prefix(query.limit ?? Int.max))
      let scores = showsUrgency ? try perform(TodoStore.urgencies(of: first, now: now, coefficients: coefficients), access: .read) : [:]
      shown = first.map { ($0, scores[$0.id] ?? 0) }
    }
    switch format {
    case .human:
      guard !shown.isEmpty else {
        writeNothingListed(query, definition: definition)
        return
      }
      let text = self.text
      let columns = zip(definition.columns, definition.labels).map { column, label in
        var layout = column.layout
        layout.header = label
        return layout
      }
      let progressInTitle = !definition.columns.contains(.progress)
      let attributes = try attributeValues(of: shown.map(\.0), for: definition.columns)
      render(
        Table(
          columns: columns,
          rows: shown.map { todo, score in
            definition.columns.map {
              Self.cell($0, of: todo, urgency: score, text: text, progressInTitle: progressInTitle, attributes: attributes[todo.id] ?? [:])
            }
          }))
      if total > shown.count { output.write("\(shown.count) of \(total) tasks; --limit N shows more.\n") }
    case .json, .jsonLines:
      // As list --json: once the configuration defines user-defined attributes.
      let attributes =
        configuration.userAttributes.isEmpty ? [:] : try perform(TodoStore.userAttributes(of: shown.map(\.0.id)), access: .read)
      writeJSONList(shown) { json, item in json.task(item.0, urgency: showsUrgency ? item.1 : nil, attributes: attributes[item.0.id]) }
    }
  }

  /// The values of the user-defined attributes a report's columns show, by task id and name
  /// (stored JSON text); none read when no column shows one.
  func attributeValues(of todos: [Todo], for columns: [ReportColumn]) throws(CommandFailure) -> [Int64: [String: String]] {
    guard columns.contains(where: { $0.attribute != nil }) else { return [:] }
    let read = try perform(TodoStore.userAttributes(of: todos.map(\.id)), access: .read)
    return read.mapValues { Dictionary($0.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }) }
  }

  /// What an empty list says: that there is nothing yet (nothing narrowed it: no typed terms,
  /// no context, no report filter), or that nothing matches.
  func writeNothingListed(_ query: ListQuery, definition: ReportDefinition?) {
    let bare = !query.typedTerms && configuration.activeContext == nil
    if bare && definition?.name == "next" {
      output.write("Nothing to do next. Add a task with: todo add TITLE\n")
    } else if bare && (definition?.filter ?? "").isEmpty {
      output.write("No pending tasks. Add one with: todo add TITLE\n")
    } else {
      output.write("No matching tasks.\n")
    }
  }

  /// One cell of a report's table.
  static func cell(
    _ column: ReportColumn, of todo: Todo, urgency: Double, text: TaskText, progressInTitle: Bool, attributes: [String: String] = [:]
  ) -> Table.Cell {
    func time(_ value: Int64?) -> Table.Cell {
      Table.Cell(value.map { Timestamp.relative($0, now: text.now, past: .ago) } ?? "", style: .dim)
    }
    func date(_ value: TaskDate?) -> Table.Cell {
      Table.Cell(value.map { text.relative($0, past: .ago) } ?? "")
    }
    switch column {
    case .id: return Table.Cell(String(todo.id))
    case .uuid: return Table.Cell(String(todo.uuid.prefix(8)))
    case .status:
      let style = todo.status == .done ? text.palette.done : todo.status == .deleted ? text.palette.deleted : nil
      return Table.Cell(todo.status.rawValue, style: style)
    case .priority: return Table.Cell(todo.priority?.rawValue ?? "", style: text.palette.style(of: todo.priority))
    case .due:
      let (due, style) = text.dueCell(TaskRow(todo))
      return Table.Cell(due, style: style)
    case .wait: return Table.Cell(todo.wait.map { text.describe($0) } ?? "")
    case .remaining: return date(todo.wait)
    case .scheduled: return date(todo.scheduled)
    case .until: return date(todo.until)
    case .project: return Table.Cell(todo.project ?? "", style: text.palette.project)
    case .tags: return Table.Cell(todo.tags.sorted().joinedText(" "), style: text.palette.tag)
    case .title:
      let progress = progressInTitle ? todo.progress.map { " (\($0.done)/\($0.total))" } ?? "" : ""
      return Table.Cell(todo.title + progress, style: todo.status == .pending ? nil : .dim)
    case .urgency: return Table.Cell(todo.status == .pending ? urgencyText(urgency) : "")
    case .age: return time(todo.created)
    case .progress: return Table.Cell(todo.progress.map { "\($0.done)/\($0.total)" } ?? "")
    case .active:
      let total = todo.intervals.reduce(0) { $0 + $1.seconds(now: text.now) }
      return Table.Cell(total > 0 ? Timestamp.duration(total) : "", style: todo.isActive ? text.palette.active : nil)
    case .notes: return Table.Cell(todo.notes.isEmpty ? "" : String(todo.notes.count))
    case .created: return time(todo.created)
    case .modified: return time(todo.modified)
    case .completed: return time(todo.completed)
    case .attribute(let attribute):
      let value = attributes[attribute.name].map(attribute.shown) ?? ""
      return Table.Cell(value)
    }
  }
}
