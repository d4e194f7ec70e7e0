import TodoCore

/// The human forms of tasks: one-line echoes of changes, the list table and `show`.
struct TaskText {
  let now: Int64
  let color: Bool

  func styled(_ text: String, _ style: TextStyle) -> String {
    style.apply(to: text, colorEnabled: color)
  }

  /// `Buy milk  +home project:work pri:H due:2026-11-27 00:00 CET` — everything that was stored.
  func summary(_ todo: Todo) -> String {
    var parts = [sanitizedForTerminal(todo.title)]
    var attributes: [String] = todo.tags.map { styled("+" + $0, .cyan) }
    if let project = todo.project { attributes.append(styled("project:" + project, .magenta)) }
    if let priority = todo.priority { attributes.append("pri:" + priority.rawValue) }
    if let due = todo.due { attributes.append("due:" + Timestamp.localDescription(due)) }
    if todo.status != .pending { attributes.append("status:" + todo.status.rawValue) }
    if !todo.notes.isEmpty { attributes.append("notes:\(todo.notes.count)") }
    if !attributes.isEmpty { parts.append(attributes.joined(separator: " ")) }
    return parts.joined(separator: "  ")
  }

  /// The list table: id, status (when not all pending), priority, due, project, tags, title;
  /// sorting by when tasks were completed, created or modified adds that column.
  ///
  /// When the table is too wide, project and tags are cut and then left out before the title
  /// gets narrow; due, priority and status go only after them.
  func table(_ todos: [Todo], sort: [SortKey] = []) -> Table {
    let showStatus = todos.contains { $0.status != .pending }
    var columns = [Table.Column(header: "ID", alignment: .right)]
    if showStatus { columns.append(Table.Column(header: "Status", shrink: .drop)) }
    columns += [Table.Column(header: "Pri", shrink: .drop), Table.Column(header: "Due", shrink: .drop)]
    let timeColumns = Self.timeColumns(for: sort)
    for (header, _) in timeColumns { columns.append(Table.Column(header: header, shrink: .drop)) }
    columns += [
      Table.Column(header: "Project", shrink: .truncateThenDrop), Table.Column(header: "Tags", shrink: .truncateThenDrop),
      Table.Column(header: "Title", flexible: true),
    ]
    let rows = todos.map { todo in
      var row = [Table.Cell(String(todo.id))]
      if showStatus {
        row.append(Table.Cell(todo.status.rawValue, style: todo.status == .done ? .green : todo.status == .deleted ? .gray : nil))
      }
      row.append(Table.Cell(todo.priority?.rawValue ?? "", style: Self.style(of: todo.priority)))
      row.append(dueCell(todo))
      for (_, time) in timeColumns {
        row.append(Table.Cell(time(todo).map { Timestamp.relative($0, now: now, past: .ago) } ?? "", style: .dim))
      }
      row.append(Table.Cell(todo.project ?? "", style: .magenta))
      row.append(Table.Cell(todo.tags.joined(separator: " "), style: .cyan))
      row.append(Table.Cell(todo.title, style: todo.status == .pending ? nil : .dim))
      return row
    }
    return Table(columns: columns, rows: rows)
  }

  /// The columns a sort by a time adds: Completed, Created, Modified.
  private static func timeColumns(for sort: [SortKey]) -> [(String, @Sendable (Todo) -> Int64?)] {
    var columns: [(String, @Sendable (Todo) -> Int64?)] = []
    for key in sort {
      switch key.field {
      case .completed: columns.append(("Completed", { $0.completed }))
      case .created: columns.append(("Created", { $0.created }))
      case .modified: columns.append(("Modified", { $0.modified }))
      default: break
      }
    }
    return columns
  }

  /// H stands out (bold), L recedes (dim), M is plain: three priorities, three looks, none of
  /// them the red of an overdue task.
  static func style(of priority: Priority?) -> TextStyle? {
    switch priority {
    case .high: .bold
    case .low: .dim
    default: nil
    }
  }

  /// Overdue in bold red, due today in yellow; a done or deleted task is never overdue: its due
  /// date is only a date in the past ("36h ago").
  private func dueCell(_ todo: Todo) -> Table.Cell {
    guard let due = todo.due else { return Table.Cell("") }
    guard todo.status == .pending else {
      return Table.Cell(Timestamp.relative(due, now: now, past: .ago), style: .dim)
    }
    let text = Timestamp.relative(due, now: now)
    if due < now { return Table.Cell(text, style: .alarm) }
    if due - now < 86_400 { return Table.Cell(text, style: .yellow) }
    return Table.Cell(text)
  }

  /// Every field of one task, then its notes.
  func details(_ todo: Todo) -> [String] {
    func time(_ value: Int64?, past: Timestamp.PastStyle = .ago) -> String {
      guard let value else { return "-" }
      return "\(Timestamp.localDescription(value)) (\(Timestamp.relative(value, now: now, past: past)))"
    }
    var lines = ["\(styled("Task \(todo.id)", .bold)): \(sanitizedForTerminal(todo.title))"]
    let fields: [(String, String)] = [
      ("Status", todo.status.rawValue),
      ("Priority", todo.priority.map { "\($0.rawValue)" } ?? "-"),
      ("Project", todo.project ?? "-"),
      ("Tags", todo.tags.isEmpty ? "-" : todo.tags.map { "+" + $0 }.joined(separator: " ")),
      ("Due", time(todo.due, past: todo.status == .pending ? .overdue : .ago)),
      ("Created", time(todo.created)),
      ("Modified", time(todo.modified)),
      ("Completed", time(todo.completed)),
      ("UUID", todo.uuid),
    ]
    for (name, value) in fields {
      lines.append("  " + styled(name.padding(toWidth: 10), .dim) + " " + value)
    }
    if !todo.notes.isEmpty {
      lines.append(styled("Notes", .bold))
      for note in todo.notes {
        lines.append("  " + styled(Timestamp.localDescription(note.created), .dim) + "  " + sanitizedForTerminal(note.text))
      }
    }
    return lines
  }
}

extension String {
  /// Pads with spaces on the right to a display width.
  func padding(toWidth width: Int) -> String {
    let missing = width - displayWidth(of: self)
    return missing > 0 ? self + String(repeating: " ", count: missing) : self
  }
}
