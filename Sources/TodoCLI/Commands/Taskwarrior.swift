import TodoCore
import TodoSystem

/// An attribute of a task as `_get` and `_unique` name it: ours, and Taskwarrior's names for the
/// same (`description` is the title, `entry` the creation time, `end` the completion time).
enum TaskAttribute: String, CaseIterable, Sendable {
  case id, uuid, title, status, priority, project, tags, due, wait, scheduled, until, created, modified, completed
  case parent, depends, recur, urgency, notes

  static let aliases: [String: TaskAttribute] = [
    "description": .title, "entry": .created, "end": .completed, "annotations": .notes, "pri": .priority,
  ]

  static let spellings = allCases.map(\.rawValue) + aliases.keys.sorted()

  static func named(_ name: String) -> TaskAttribute? { TaskAttribute(rawValue: name) ?? aliases[name] }

  /// The attribute's value as text (empty when the task has none): dates as `todo show` gives
  /// them in JSON (RFC 3339 UTC, or YYYY-MM-DD for an all-day date), lists joined by commas.
  func text(of todo: Todo, urgency: Double) -> String {
    switch self {
    case .id: String(todo.id)
    case .uuid: todo.uuid
    case .title: todo.title
    case .status: todo.status.rawValue
    case .priority: todo.priority?.rawValue ?? ""
    case .project: todo.project ?? ""
    case .tags: todo.tags.joined(separator: ",")
    case .due: todo.due?.text ?? ""
    case .wait: todo.wait?.text ?? ""
    case .scheduled: todo.scheduled?.text ?? ""
    case .until: todo.until?.text ?? ""
    case .created: Timestamp.rfc3339(todo.created)
    case .modified: Timestamp.rfc3339(todo.modified)
    case .completed: todo.completed.map(Timestamp.rfc3339) ?? ""
    case .parent: todo.parentUUID ?? ""
    case .depends: todo.depends.map(\.uuid).joined(separator: ",")
    case .recur: todo.series?.rule.description ?? ""
    case .urgency: String(Double(Int((urgency * 100).rounded())) / 100)
    case .notes: todo.notes.map(\.text).joined(separator: ",")
    }
  }

  /// The values one task gives `_unique`: each tag and each dependency on its own.
  func values(of todo: Todo, urgency: Double) -> [String] {
    switch self {
    case .tags: todo.tags
    case .depends: todo.depends.map(\.uuid)
    case .notes: todo.notes.map(\.text)
    default:
      [text(of: todo, urgency: urgency)].filter { !$0.isEmpty }
    }
  }
}

/// Taskwarrior's helper commands, which scripts and completion scripts written for Taskwarrior
/// call: `count`, `ids`, `uuids`, `_ids`, `_uuids`, `_get`, `_unique`, `_projects`, `_tags`,
/// and `denotate`.
extension CommandRunner {
  /// The tasks a filter selects, counted or named.
  func selection(_ query: ListQuery, _ output: SelectionOutput) throws(CommandFailure) {
    try warnAboutCase(in: query.filter)
    let todos = try perform(TodoStore.list(query.filter, sort: [SortKey(.id)], limit: query.limit, now: now), access: .read)
    switch output {
    case .count:
      if format == .human { self.output.write("\(todos.count)\n") } else { writeJSON { $0.object { $0.field("count", todos.count) } } }
    case .ids(let oneALine):
      let ids = todos.map(\.id)
      if format != .human {
        writeJSON { json in json.array { json in for id in ids { json.value(Int(id)) } } }
      } else if oneALine {
        for id in ids { self.output.write("\(id)\n") }
      } else {
        self.output.write(Self.ranges(ids) + "\n")
      }
    case .uuids(let oneALine):
      let uuids = todos.map(\.uuid)
      if format != .human {
        writeJSON { json in json.array { json in for uuid in uuids { json.value(uuid) } } }
      } else if oneALine {
        for uuid in uuids { self.output.write(uuid + "\n") }
      } else {
        self.output.write(uuids.joined(separator: " ") + "\n")
      }
    }
  }

  /// `1-3 5 7-8`: ids in order, runs of consecutive ones as ranges (Taskwarrior's `ids`).
  static func ranges(_ ids: [Int64]) -> String {
    var parts: [String] = []
    var index = 0
    while index < ids.count {
      var end = index
      while end + 1 < ids.count, ids[end + 1] == ids[end] + 1 { end += 1 }
      parts.append(end == index ? "\(ids[index])" : "\(ids[index])-\(ids[end])")
      index = end + 1
    }
    return parts.joined(separator: " ")
  }

  /// `_get 3.due 4.title`: the values on one line, separated by a space, as Taskwarrior prints
  /// them; a task that does not exist gives an empty value (Taskwarrior's too; null in JSON).
  func get(_ references: [AttributeReference]) throws(CommandFailure) {
    var values: [String?] = []
    for reference in references {
      let todo: Todo?
      do throws(CommandFailure) {
        todo = try perform(TodoStore.tasks([reference.task]), access: .read).first
      } catch .domain(.notFound) {
        todo = nil
      }
      let attribute = TaskAttribute(rawValue: reference.attribute)!
      let score = try todo.map { todo throws(CommandFailure) in try urgency(of: todo, attribute) } ?? 0
      values.append(todo.map { attribute.text(of: $0, urgency: score) })
    }
    if format == .human {
      output.write(values.map { sanitizedForTerminal($0 ?? "") }.joined(separator: " ") + "\n")
    } else {
      writeJSON { json in json.array { json in for value in values { if let value { json.value(value) } else { json.nullValue() } } } }
    }
  }

  private func urgency(of todo: Todo, _ attribute: TaskAttribute) throws(CommandFailure) -> Double {
    guard attribute == .urgency else { return 0 }
    return try perform(TodoStore.urgencies(of: [todo], now: now, coefficients: configuration.urgency), access: .read)[todo.id] ?? 0
  }

  /// `_unique project`: each value the attribute takes among the selected tasks, once, sorted.
  func unique(_ attributeName: String, _ query: ListQuery) throws(CommandFailure) {
    let attribute = TaskAttribute(rawValue: attributeName)!
    let todos = try perform(TodoStore.list(query.filter, sort: [SortKey(.id)], now: now), access: .read)
    let scores =
      attribute == .urgency ? try perform(TodoStore.urgencies(of: todos, now: now, coefficients: configuration.urgency), access: .read) : [:]
    let values = Set(todos.flatMap { attribute.values(of: $0, urgency: scores[$0.id] ?? 0) }).sorted()
    if format == .human {
      for value in values { output.write(sanitizedForTerminal(value) + "\n") }
    } else {
      writeJSON { json in json.array { json in for value in values { json.value(value) } } }
    }
  }

  /// `_projects`, `_tags`: the names in use, one a line (tags without their `+`).
  func plainNames(tags: Bool) throws(CommandFailure) {
    let names = try perform(tags ? TodoStore.tags() : TodoStore.projects(), access: .read).map(\.name)
    if format == .human {
      for name in names { output.write(sanitizedForTerminal(name) + "\n") }
    } else {
      writeJSON { json in json.array { json in for name in names { json.value(name) } } }
    }
  }

  /// `denotate ID TEXT`: removes the note whose text is TEXT, else the one note that contains it
  /// (in any case); several that contain it are named, and nothing is removed.
  func removeNote(matching text: String, of reference: TaskReference) throws(CommandFailure) {
    let todos = try perform(TodoStore.tasks([reference]), access: .read)
    guard let todo = todos.first else { throw .domain(.notFound("task")) }
    let notes = todo.notes.map(\.text)
    let number: Int
    if let exact = notes.firstIndex(of: text) {
      number = exact + 1
    } else {
      let folded = TextSearch.folded(text)
      let containing = notes.indices.filter { TextSearch.folded(notes[$0]).contains(folded) }
      guard containing.count == 1 else {
        let reason =
          containing.isEmpty
          ? "task \(todo.id) has no note containing '\(text)'"
          : "notes \(containing.map { String($0 + 1) }.joinedText(", ")) of task \(todo.id) contain '\(text)'; give more of the text, or 'todo note \(todo.id) --remove N'"
        throw .usage(.invalid(reason))
      }
      number = containing[0] + 1
    }
    try change(
      TodoStore.changeNote(of: reference, number: number, text: nil, now: now, command: invocation.commandLine), verb: .removeNote,
      selection: nil)
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `count`, `ids`, `uuids`, `_ids`, `_uuids`: a filter, and how the tasks are given.
  mutating func selectionCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    let output: SelectionOutput =
      switch command {
      case .count: .count
      case .ids, .plainIDs: .ids(oneALine: command == .plainIDs)
      default: .uuids(oneALine: command == .plainUUIDs)
      }
    // Waiting tasks too (Taskwarrior's `ids` has them): these name what a filter selects for
    // a script, as a change would, not what a list shows.
    var query = try listQuery(tokens)
    query.filter.leavesOutWaiting = false
    return .selection(query, output)
  }

  /// `3.due` → task 3's due date (`_get`).
  static func attributeReference(_ word: String) throws(UsageError) -> AttributeReference {
    guard let dot = word.firstIndex(of: "."), let task = TaskReference(parsing: String(word[..<dot])), !task.isRange else {
      throw .badValue(option: "_get", value: word, reason: "give a task id and an attribute, like 3.due")
    }
    return AttributeReference(task: task, attribute: try attribute(String(word[word.index(after: dot)...]), command: CommandName.get.rawValue))
  }

  /// An attribute's name as `_get` and `_unique` read it (Taskwarrior's names too).
  static func attribute(_ name: String, command: String) throws(UsageError) -> String {
    let lowered = name.lowercased()
    guard let known = TaskAttribute.named(lowered) else {
      let meant = closestMatch(to: lowered, in: TaskAttribute.spellings)
      throw .badValue(
        option: command, value: name,
        reason: meant.map { "no attribute of that name; did you mean '\($0)'?" } ?? "attributes: \(TaskAttribute.spellings.joinedText(", "))")
    }
    return known.rawValue
  }

  /// Taskwarrior's `denotate ID TEXT`: the note with that text comes off.
  mutating func denotateCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    let reference = try oneReference(tokens.first, what: "the id of a task and the text of the note to remove")
    var words = tokens.dropFirst().map(\.text)
    if words.first == "--" { words.removeFirst() }
    guard !words.isEmpty else { throw .missingArgument(command: CommandName.denotate, what: "the text of the note to remove") }
    return .removeNoteMatching(reference, words.joinedText(" "))
  }
}
