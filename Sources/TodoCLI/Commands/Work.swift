import DataOperation
import TodoCore
import TodoSystem

/// The commands of "what next" and of work: `next`, `why`, `tree`, `timesheet` and `purge`.
extension CommandRunner {
  /// An urgency as Taskwarrior shows it in lists: one decimal.
  static func urgencyText(_ score: Double) -> String {
    let tenths = (score * 10).rounded() / 10
    return tenths == tenths.rounded(.towardZero) ? "\(Int(tenths)).0" : "\(tenths)"
  }

  /// `todo why ID`: each term of the task's urgency, its factor, coefficient and contribution.
  func why(_ reference: TaskReference) throws(CommandFailure) {
    let todo = try perform(TodoStore.task(reference), access: .read)
    let coefficients = session.configuration.urgency
    let attributes = coefficients.attributeNames.isEmpty ? [:] : try perform(TodoStore.userAttributes(of: [todo.id]), access: .read)
    let terms = Urgency.terms(
      of: todo, userAttributes: Urgency.attributeTexts(attributes[todo.id] ?? []), now: now, coefficients: coefficients)
    let total = terms.reduce(0) { $0 + $1.contribution }
    switch format {
    case .human:
      output.write("Task \(todo.id): \(sanitizedForTerminal(todo.title))\n")
      guard todo.status == .pending else {
        output.write("It is \(todo.status.rawValue): only pending tasks have an urgency.\n")
        return
      }
      func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
      }
      var rows = terms.map { term in
        [
          Table.Cell(term.name), Table.Cell(term.reason), Table.Cell(number(term.factor)), Table.Cell("×"),
          Table.Cell(number(term.coefficient)), Table.Cell("="),
          Table.Cell((term.contribution >= 0 ? "+" : "") + number(term.contribution), style: term.contribution < 0 ? .red : nil),
        ]
      }
      rows.append([Table.Cell("urgency", style: .bold), "", "", "", "", "=", Table.Cell(number(total), style: .bold)])
      render(
        Table(
          columns: [
            Table.Column(header: "Term"), Table.Column(header: "Because", flexible: true),
            Table.Column(header: "Factor", alignment: .right), Table.Column(header: ""),
            Table.Column(header: "Coefficient", alignment: .right), Table.Column(header: ""),
            Table.Column(header: "Adds", alignment: .right),
          ], rows: rows))
      output.write("Urgency is the sum of each term's factor (0 to 1) times its coefficient; see 'man todo', URGENCY.\n")
    case .json, .jsonLines:
      // To three decimals, as `next` and the reports print urgency: the same task, the same number.
      func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
      writeJSON { json in
        json.object { json in
          json.field("id", Int(todo.id))
          json.field("urgency", round(total))
          json.key("terms")
          json.array { json in
            for term in terms {
              json.object { json in
                json.field("name", term.name)
                json.field("reason", term.reason)
                json.field("factor", round(term.factor))
                json.field("coefficient", term.coefficient)
                json.field("contribution", round(term.contribution))
              }
            }
          }
        }
      }
    }
  }

  /// `todo tree [FILTER]` and `list --tree`: the selected tasks with their subtasks drawn under
  /// them. A selected subtask whose parent is not selected starts a tree of its own.
  func tree(_ query: ListQuery) throws(CommandFailure) {
    let todos = try perform(TodoStore.list(query.filter, sort: query.sort, limit: query.limit, now: now), access: .read)
    if format != .human {
      writeJSONList(todos) { $0.task($1) }
      return
    }
    guard !todos.isEmpty else {
      output.write(query.filter.isEmpty ? "No pending tasks. Add one with: todo add TITLE\n" : "No matching tasks.\n")
      return
    }
    for line in TaskTree(todos: todos, text: text).lines() { output.write(line + "\n") }
  }

  /// `todo timesheet`: time worked per task, day, week or project.
  func timesheet(_ query: TimesheetQuery) throws(CommandFailure) {
    let sheet = try perform(
      TodoStore.timesheet(query.filter, since: query.since, until: query.until, by: query.grouping, now: now), access: .read)
    switch format {
    case .human:
      guard !sheet.rows.isEmpty else {
        output.write("No time recorded\(query.since != nil || query.until != nil ? " in that period" : ""). Start a task with: todo start ID\n")
        return
      }
      let heading: String =
        switch sheet.grouping {
        case .task: "Task"
        case .day: "Day"
        case .week: "Week of"
        case .project: "Project"
        }
      var columns = [Table.Column(header: heading, alignment: sheet.grouping == .task ? .right : .left)]
      if sheet.grouping == .task { columns.append(Table.Column(header: "Title", flexible: true)) }
      columns.append(Table.Column(header: "Time", alignment: .right))
      if sheet.grouping != .task { columns.append(Table.Column(header: "Tasks", flexible: true)) }
      var rows = sheet.rows.map { row -> [Table.Cell] in
        var cells = [Table.Cell(sheet.grouping == .project && row.key.isEmpty ? "(none)" : row.key)]
        if sheet.grouping == .task { cells.append(Table.Cell(row.title ?? "")) }
        cells.append(Table.Cell(Timestamp.duration(row.seconds)))
        if sheet.grouping != .task { cells.append(Table.Cell(row.taskIDs.map(String.init).joinedText(", "), style: .dim)) }
        return cells
      }
      var total = [Table.Cell("Total", style: .bold)]
      if sheet.grouping == .task { total.append("") }
      total.append(Table.Cell(Timestamp.duration(sheet.totalSeconds), style: .bold))
      if sheet.grouping != .task { total.append("") }
      rows.append(total)
      render(Table(columns: columns, rows: rows))
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("by", sheet.grouping.rawValue)
          json.field("since", sheet.since.map(Timestamp.rfc3339))
          json.field("until", sheet.until.map(Timestamp.rfc3339))
          json.key("rows")
          json.array { json in
            for row in sheet.rows {
              json.object { json in
                json.field("key", row.key)
                if sheet.grouping == .task { json.field("title", row.title) }
                json.field("seconds", Int(row.seconds))
                json.key("task_ids")
                json.array { json in for id in row.taskIDs { json.value(Int(id)) } }
              }
            }
          }
          json.field("total_seconds", Int(sheet.totalSeconds))
        }
      }
    }
  }

  /// `todo purge`: removes deleted tasks for good, after a question on a terminal; elsewhere
  /// only with `--yes` (it cannot be undone).
  func purge(_ filter: TodoFilter) throws(CommandFailure) {
    let dryRun = invocation.options.dryRun
    let operation = TodoStore.purge(filter, now: now)
    if !dryRun && !invocation.options.assumeYes {
      guard session.inputIsTerminal else {
        throw .usage(.invalid("purge removes tasks for good and cannot be undone: give --yes to confirm it"))
      }
      let preview = try perform(operation, access: .preview)
      let question = Confirmation.question(verb: .purge, tasks: preview.tasks)
      guard session.ask("This cannot be undone.\n" + question) else { throw .cancelled("nothing was changed") }
    }
    let report = try perform(operation, access: dryRun ? .dryRun : .write)
    switch format {
    case .human:
      for todo in report.tasks {
        output.write("\(dryRun ? "Would purge" : "Purged") task \(todo.id): \(sanitizedForTerminal(todo.title))\n")
      }
      output.write(
        dryRun
          ? "Dry run: nothing was changed.\n" : "Purged \(report.tasks.count) task\(report.tasks.count == 1 ? "" : "s"); this cannot be undone.\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.key("purged_ids")
          json.array { json in for todo in report.tasks { json.value(Int(todo.id)) } }
          if dryRun { json.field("dry_run", true) }
        }
      }
    }
  }
}

/// Tasks drawn as trees: each subtask under its parent with box-drawing characters, in the
/// order they were listed.
///
/// ```
/// 1 Plan the trip (1/3)
/// ├─ 2 Book flights
/// │  └─ 4 Compare prices
/// └─ 3 Reserve a hotel ✓
/// ```
struct TaskTree {
  let todos: [Todo]
  let text: TaskText

  func lines() -> [String] {
    let selected = Set(todos.map(\.id))
    var children: [Int64: [Todo]] = [:]
    var roots: [Todo] = []
    for todo in todos {
      if let parent = todo.parentID, selected.contains(parent) {
        children[parent, default: []].append(todo)
      } else {
        roots.append(todo)
      }
    }
    var lines: [String] = []
    func draw(_ todo: Todo, prefix: String, branch: String) {
      lines.append(prefix + branch + label(todo))
      let kids = children[todo.id] ?? []
      let below = prefix + (branch == "├─ " ? "│  " : branch.isEmpty ? "" : "   ")
      for (index, child) in kids.enumerated() {
        draw(child, prefix: below, branch: index == kids.count - 1 ? "└─ " : "├─ ")
      }
    }
    for root in roots { draw(root, prefix: "", branch: "") }
    return lines
  }

  /// `12 Plan the trip (2/5)  due fri`, with ✓ for a done task and ✗ for a deleted one.
  private func label(_ todo: Todo) -> String {
    var label = text.styled(String(todo.id), .dim) + " " + sanitizedForTerminal(todo.title)
    if let progress = todo.progress { label += " (\(progress.done)/\(progress.total))" }
    switch todo.status {
    case .done: label += " " + text.styled("✓", .green)
    case .deleted: label += " " + text.styled("✗", .gray)
    case .pending: if let due = todo.due { label += "  " + text.styled("due " + text.relative(due, past: .overdue), .dim) }
    }
    return label
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `timesheet [FILTER] [--since DATE] [--until DATE] [--by task|day|week|project]`: every
  /// status unless the filter names one.
  mutating func timesheetQuery(_ tokens: [Token]) throws(UsageError) -> TimesheetQuery {
    var query = TimesheetQuery()
    var words: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--since", let value): query.since = try date(value).sortInstant
      case .option("--until", let value):
        // An all-day until counts the whole day.
        switch try date(value) {
        case .day(let day): query.until = day.adding(days: 1).start
        case .instant(let instant): query.until = instant
        }
      case .option("--by", let value):
        guard let grouping = TimesheetGrouping(rawValue: value.lowercased()) else {
          throw .badValue(option: "--by", value: value, reason: "use task, day, week or project")
        }
        query.grouping = grouping
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash): words.append(FilterWord(word, plain: afterDoubleDash, at: reader.position))
      }
    }
    query.filter = try filter(words)
    query.filter.defaultStatus = .all
    return query
  }
}
