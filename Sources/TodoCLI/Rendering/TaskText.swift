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

  /// The list table: id, status (when not all pending), priority, due, project, tags, title.
  func table(_ todos: [Todo]) -> Table {
    let showStatus = todos.contains { $0.status != .pending }
    var columns = [Table.Column(header: "ID", alignment: .right)]
    if showStatus { columns.append(Table.Column(header: "Status")) }
    columns += [
      Table.Column(header: "Pri"), Table.Column(header: "Due"), Table.Column(header: "Project"),
      Table.Column(header: "Tags"), Table.Column(header: "Title", flexible: true),
    ]
    let rows = todos.map { todo in
      var row = [Table.Cell(String(todo.id))]
      if showStatus {
        row.append(Table.Cell(todo.status.rawValue, style: todo.status == .done ? .green : todo.status == .deleted ? .gray : nil))
      }
      row.append(Table.Cell(todo.priority?.rawValue ?? "", style: todo.priority == .high ? .red : nil))
      row.append(dueCell(todo))
      row.append(Table.Cell(todo.project ?? "", style: .magenta))
      row.append(Table.Cell(todo.tags.joined(separator: " "), style: .cyan))
      row.append(Table.Cell(todo.title, style: todo.status == .pending ? nil : .dim))
      return row
    }
    return Table(columns: columns, rows: rows)
  }

  private func dueCell(_ todo: Todo) -> Table.Cell {
    guard let due = todo.due else { return Table.Cell("") }
    let text = Timestamp.relative(due, now: now)
    guard todo.status == .pending else { return Table.Cell(text, style: .dim) }
    if due < now { return Table.Cell(text, style: .red) }
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
