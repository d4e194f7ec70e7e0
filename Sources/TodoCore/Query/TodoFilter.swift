import DataOperation

/// Which statuses a filter selects.
public enum StatusFilter: String, Sendable, Equatable, CaseIterable {
  case pending, done, deleted
  /// Done or deleted: what `reopen` can bring back.
  case closed
  case all
}

/// A selection of tasks: the filter grammar of `list`, `export` and the bulk commands, as a value.
/// Terms combine with AND; several projects or priorities combine with OR among themselves.
///
/// ```swift
/// var filter = TodoFilter()
/// filter.includeTags = ["home"]
/// filter.projects = ["work"]       // also work.q4
/// let tasks = try TodoStore.list(filter).operate(in: context)
/// ```
public struct TodoFilter: Sendable, Equatable {
  public var references: [TaskReference] = []
  public var includeTags: [String] = []
  public var excludeTags: [String] = []
  public var projects: [String] = []
  /// `project:` with no name: tasks without a project.
  public var withoutProject = false
  public var priorities: [Priority] = []
  /// `pri:` with no value: tasks without a priority.
  public var withoutPriority = false
  /// nil = the default: `defaultStatus`, or every status when tasks are named by id.
  public var status: StatusFilter?
  /// The status selected when none is given and no task is named by id (`reopen` looks at
  /// closed tasks, everything else at pending ones).
  public var defaultStatus = StatusFilter.pending
  /// Substrings of the title or a note, in any case and Unicode form (see `TextSearch`).
  public var words: [String] = []
  /// Further terms, all of which must hold: dates, virtual tags, `or`, `not`, parentheses.
  public var conditions: [FilterTerm] = []
  /// Leave out waiting tasks unless the filter asks about them (see `hidesWaiting`): lists do;
  /// changes do not, so that a bulk change never skips a task it names without saying so.
  public var leavesOutWaiting = false

  public init() {}

  /// This filter AND another: the tasks both select. The other's status applies only when this
  /// one names none; its projects and priorities, which this filter's own would widen (they OR
  /// among themselves), become a condition of their own. Filters of the configuration (a
  /// context, a report) narrow what was typed this way, whatever `or` either holds.
  ///
  /// ```swift
  /// typed.narrowed(by: context)   // `or +home` typed in the context +work: +work AND (… or +home)
  /// ```
  public func narrowed(by other: TodoFilter) -> TodoFilter {
    var result = self
    if !other.references.isEmpty {
      result.references = references.isEmpty ? other.references : references
    }
    if result.status == nil { result.status = other.status }
    result.includeTags += other.includeTags
    result.excludeTags += other.excludeTags
    result.words += other.words
    if !other.projects.isEmpty || other.withoutProject {
      let names: [String?] = other.projects.map { Optional($0) } + (other.withoutProject ? [nil] : [])
      if projects.isEmpty && !withoutProject {
        result.projects = other.projects
        result.withoutProject = other.withoutProject
      } else {
        result.conditions.append(names.count == 1 ? .project(names[0]) : .any(names.map { .project($0) }))
      }
    }
    if !other.priorities.isEmpty || other.withoutPriority {
      let values: [Priority?] = other.priorities.map { Optional($0) } + (other.withoutPriority ? [nil] : [])
      if priorities.isEmpty && !withoutPriority {
        result.priorities = other.priorities
        result.withoutPriority = other.withoutPriority
      } else {
        result.conditions.append(values.count == 1 ? .priority(values[0]) : .any(values.map { .priority($0) }))
      }
    }
    result.conditions += other.conditions
    result.leavesOutWaiting = leavesOutWaiting || other.leavesOutWaiting
    return result
  }

  /// True when the filter names nothing at all.
  public var isEmpty: Bool {
    var withoutDefault = self
    withoutDefault.defaultStatus = .pending
    withoutDefault.leavesOutWaiting = false
    return withoutDefault == TodoFilter()
  }

  /// True when some term other than the status narrows the selection.
  public var narrowsSelection: Bool {
    var withoutStatus = self
    withoutStatus.status = nil
    withoutStatus.words = words.filter { $0.contains(where: { !$0.isWhitespace }) }
    return !withoutStatus.isEmpty
  }

  /// The status actually applied: none assumed when tasks are named by id or a term names a
  /// status (`+DONE`).
  public var effectiveStatus: StatusFilter {
    status ?? (references.isEmpty && !conditions.contains(where: \.mentionsStatus) ? defaultStatus : .all)
  }

  /// Waiting tasks are hidden from a list of pending tasks (`leavesOutWaiting`) unless the
  /// filter asks about the wait date (`+WAITING`, `wait.any:`) or names tasks by id; so are
  /// tasks past their until date, which the next write deletes.
  public var hidesWaiting: Bool {
    leavesOutWaiting && effectiveStatus == .pending && references.isEmpty && !conditions.contains(where: \.mentionsWait)
  }

  /// The filter as a parameterised condition on the `todo` table; values are always bound.
  ///
  /// ```swift
  /// let predicate = filter.predicate(now: now)   // "todo.status = ? AND …", [.text("pending"), …]
  /// ```
  public func predicate(now: Int64) -> Predicate {
    var terms: [Predicate] = []
    switch effectiveStatus {
    case .all: break
    case .closed: terms.append(Predicate(sql: "todo.status <> ?", arguments: [.text(Status.pending.rawValue)]))
    case let status: terms.append(Predicate(sql: "todo.status = ?", arguments: [.text(status.rawValue)]))
    }
    if !references.isEmpty {
      // Starting from the first reference (not from a constant) lets SQLite use the primary key.
      terms.append(.any(references.map(Self.predicate(for:))))
    }
    var flat: [FilterTerm] = includeTags.map(FilterTerm.tag) + excludeTags.map { .not(.tag($0)) }
    let projectTerms = projects.map { FilterTerm.project($0) } + (withoutProject ? [.project(nil)] : [])
    if !projectTerms.isEmpty { flat.append(projectTerms.count == 1 ? projectTerms[0] : .any(projectTerms)) }
    var priorityTerms: [Predicate] = []
    if !priorities.isEmpty {
      let marks = Array(repeating: "?", count: priorities.count).joinedText(", ")
      priorityTerms.append(Predicate(sql: "todo.priority IN (\(marks))", arguments: priorities.map { .text($0.rawValue) }))
    }
    if withoutPriority { priorityTerms.append(Predicate(sql: "todo.priority IS NULL")) }
    if !priorityTerms.isEmpty { flat.append(.sql(.any(priorityTerms))) }
    flat += words.filter { $0.contains(where: { !$0.isWhitespace }) }.map(FilterTerm.word)
    terms += (flat + conditions).map { $0.predicate(now: now) }
    if hidesWaiting {
      let waiting = DateCondition(field: .wait, comparison: .after, value: .instant(now)).predicate(now: now)
      terms.append(Predicate(sql: "(todo.wait IS NULL OR (\(waiting.sql)) IS NOT TRUE)", arguments: waiting.arguments))
      // A task past its until date leaves the list at once; the next write deletes it.
      let expired = DateCondition(field: .until, comparison: .before, value: .instant(now)).predicate(now: now)
      terms.append(Predicate(sql: "(todo.until IS NULL OR (\(expired.sql)) IS NOT TRUE)", arguments: expired.arguments))
    }
    return .all(terms)
  }

  /// The filter with its urgency conditions (`urgency.over:5`) replaced by the tasks that meet
  /// them, scored as `next` scores them (pending tasks, waiting ones included); the same filter
  /// when it has none. Every query of a filter goes through it.
  public func resolvingUrgency(on connection: Connection, now: Int64) throws(DatabaseError) -> TodoFilter {
    guard conditions.contains(where: \.mentionsUrgency) else { return self }
    var cache: [(Urgency.Coefficients, [Int64: Double])] = []
    func score(_ coefficients: Urgency.Coefficients) throws(DatabaseError) -> [Int64: Double] {
      if let known = cache.first(where: { $0.0 == coefficients }) { return known.1 }
      var pending = TodoFilter()
      pending.status = .pending
      var scores: [Int64: Double] = [:]
      for (id, value) in try TodoStore.scores(pending, now: now, coefficients: coefficients, on: connection) { scores[id] = value }
      cache.append((coefficients, scores))
      return scores
    }
    var resolved = self
    resolved.conditions = []
    for term in conditions { resolved.conditions.append(try term.resolvingUrgency(score)) }
    return resolved
  }

  static func predicate(for reference: TaskReference) -> Predicate {
    switch reference {
    case .id(let id):
      Predicate(sql: "todo.id = ?", arguments: [.integer(id)])
    case .range(let low, let high):
      Predicate(sql: "todo.id BETWEEN ? AND ?", arguments: [.integer(low), .integer(high)])
    case .uuidPrefix(let prefix):
      Predicate(sql: "(todo.uuid >= ? AND todo.uuid < ?)", arguments: [.text(prefix), .text(prefix + "g")])
    }
  }
}

/// One key of `--sort`: a field and a direction.
///
/// ```swift
/// try SortKey.parseList("due,-priority,id")
/// ```
public struct SortKey: Sendable, Equatable {
  public enum Field: String, Sendable, CaseIterable {
    case id, due, priority, project, title, status, created, modified, completed, wait, scheduled, until
    /// A user-defined attribute (`attribute` names it).
    case attribute
  }

  public var field: Field
  public var descending: Bool
  /// The user-defined attribute of an `attribute` key.
  public var attribute: UserAttribute?

  public init(_ field: Field, descending: Bool = false) {
    self.field = field
    self.descending = descending
  }

  /// A user-defined attribute's value: numbers, dates and durations by their magnitude,
  /// strings by their text; tasks without one last.
  public init(attribute: UserAttribute, descending: Bool = false) {
    // Its name goes into the ORDER BY as it is: only a name `UserAttribute.isName` allows.
    precondition(UserAttribute.isName(attribute.name), "not an attribute name: \(attribute.name)")
    self.init(.attribute, descending: descending)
    self.attribute = attribute
  }

  /// The default order of a list: soonest due first (undated last), then most urgent, then id.
  public static let defaultOrder = [SortKey(.due), SortKey(.priority, descending: true), SortKey(.id)]

  /// The order a list really uses: the keys asked for (or `defaultOrder`), then the due date
  /// (so undated tasks come last under every sort), then the id, so that ties always break the
  /// same way.
  ///
  /// ```swift
  /// SortKey.withTieBreaks([SortKey(.project)])  // project, due, id
  /// ```
  public static func withTieBreaks(_ keys: [SortKey]) -> [SortKey] {
    var order = keys.isEmpty ? defaultOrder : keys
    for field in [Field.due, .id] where !order.contains(where: { $0.field == field }) {
      order.append(SortKey(field))
    }
    return order
  }

  /// Reads `due,-priority,id` (a leading `-` sorts descending, `+` ascending); a key may name one
  /// of `attributes` (nil: any name one could have, for a check before the attributes are known).
  /// - Throws: `TodoError.invalid` naming an unknown field.
  public static func parseList(_ text: String, attributes: [String: UserAttribute]? = [:]) throws(TodoError) -> [SortKey] {
    var keys: [SortKey] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      var name = Substring(part)
      var descending = false
      if name.hasPrefix("-") {
        descending = true
        name = name.dropFirst()
      } else if name.hasPrefix("+") {
        name = name.dropFirst()
      }
      if let attribute = attributes?[String(name)] {
        keys.append(SortKey(attribute: attribute, descending: descending))
        continue
      }
      if attributes == nil, UserAttribute.isName(String(name)), Field(rawValue: name.lowercased()) == nil {
        keys.append(SortKey(attribute: UserAttribute(name: String(name)), descending: descending))
        continue
      }
      guard let field = Field(rawValue: name.lowercased()), field != .attribute else {
        let known = (Field.allCases.filter { $0 != .attribute }.map(\.rawValue) + (attributes?.keys.sorted() ?? [])).joinedText(", ")
        throw .invalid("unknown sort key '\(part)' (known: \(known))")
      }
      keys.append(SortKey(field, descending: descending))
    }
    return keys
  }

  /// The ORDER BY term. Missing values (no due date, no priority) always sort last.
  var ordering: Ordering {
    switch field {
    case .priority:
      let rank = "CASE todo.priority WHEN 'H' THEN 3 WHEN 'M' THEN 2 WHEN 'L' THEN 1 END"
      return .expression(rank, ascending: !descending, nullsLast: true)
    case .title:
      return .expression("todo.title COLLATE NOCASE", ascending: !descending)
    case .attribute:
      // The name is letters, digits and '_' (`UserAttribute.isName`): safe inside the quotes.
      let attribute = attribute ?? UserAttribute(name: "")
      let value = attribute.kind == .string ? "json_extract(extra.value, '$')" : "todo_uda_magnitude(extra.value, '\(attribute.kind.rawValue)')"
      let sql = """
        (SELECT \(value) FROM extra WHERE extra.todo_id = todo.id AND extra.format = 'taskwarrior' AND extra.name = '\(attribute.name)')
        """
      return .expression(sql, ascending: !descending, nullsLast: true)
    default:
      return .expression("todo.\(field.rawValue)", ascending: !descending, nullsLast: true)
    }
  }
}
