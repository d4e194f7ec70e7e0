import DataOperation

/// A date field a filter can compare.
public enum DateField: String, Sendable, Equatable, CaseIterable {
  case due, wait, scheduled, until, created, modified, completed

  /// Whether the field can hold an all-day date (a `…_day` column); the times of a task's life
  /// (created, modified, completed) are always instants.
  public var hasDays: Bool {
    switch self {
    case .due, .wait, .scheduled, .until: true
    case .created, .modified, .completed: false
    }
  }
}

/// How a date filter compares: `due:` (the same day, or the same instant), `due.by:` (at or
/// before), `due.before:`, `due.after:`, `due.none:`, `due.any:`.
public enum DateComparison: String, Sendable, Equatable, CaseIterable {
  case on, by, before, after, none, any
}

/// One comparison of a task's date with a date from the command line.
///
/// An all-day date on a task is its whole day: it is before an instant once the day has ended
/// by then, after it when the day starts after it, and by it when the day has started. A day in
/// the filter is a whole day too: `due.before:fri` is before Friday starts, `due.by:fri` is until
/// Friday ends, `due:fri` is any time on Friday. Days are local days of the process's `TZ`.
///
/// ```swift
/// DateCondition(field: .due, comparison: .by, value: .day(sunday)).predicate(now: now)
/// ```
public struct DateCondition: Sendable, Equatable {
  public var field: DateField
  public var comparison: DateComparison
  /// The date compared with; nil for `none` and `any`.
  public var value: TaskDate?

  public init(field: DateField, comparison: DateComparison, value: TaskDate? = nil) {
    self.field = field
    self.comparison = comparison
    self.value = value
  }

  /// More than the widest gap between the stored instant of an all-day date (its start where it
  /// was written) and its start where the user is now: zones are within ±14 h of UTC. A range on
  /// the instant column widened by this lets SQLite use the index; the exact test follows.
  static let margin: Int64 = 2 * 86_400

  public func predicate(now: Int64) -> Predicate { predicate(now: now, column: "todo.\(field.rawValue)") }

  /// The condition on another column holding the same kind of date (the start of a running
  /// interval, for `start.before:`).
  func predicate(now: Int64, column: String) -> Predicate {
    switch comparison {
    case .none: return Predicate(sql: "\(column) IS NULL")
    case .any: return Predicate(sql: "\(column) IS NOT NULL")
    default: break
    }
    guard let value else { return Predicate(sql: "\(column) IS NOT NULL") }
    // The instants that bound the comparison for a timed date, and the day for an all-day one.
    let dayColumn = "todo.\(field.rawValue)_day"
    switch value {
    case .day(let day):
      let start = day.start
      let end = day.adding(days: 1).start
      let text = SQLValue.text(day.description)
      switch comparison {
      case .before: return split(column, dayColumn, coarse: "< ?", start + Self.margin, timed: "< ?", [.integer(start)], day: "< ?", text)
      case .by: return split(column, dayColumn, coarse: "< ?", end + Self.margin, timed: "< ?", [.integer(end)], day: "<= ?", text)
      case .after: return split(column, dayColumn, coarse: "> ?", start - Self.margin, timed: ">= ?", [.integer(end)], day: "> ?", text)
      default:
        return split(
          column, dayColumn, coarse: "BETWEEN ? AND ?", start - Self.margin, end + Self.margin,
          timed: ">= ? AND \(column) < ?", [.integer(start), .integer(end)], day: "= ?", text)
      }
    case .instant(let instant):
      let text = SQLValue.text(CalendarDay.local(instant).description)
      switch comparison {
      case .before: return split(column, dayColumn, coarse: "< ?", instant + Self.margin, timed: "< ?", [.integer(instant)], day: "< ?", text)
      case .by: return split(column, dayColumn, coarse: "< ?", instant + Self.margin, timed: "<= ?", [.integer(instant)], day: "<= ?", text)
      case .after: return split(column, dayColumn, coarse: "> ?", instant - Self.margin, timed: "> ?", [.integer(instant)], day: "> ?", text)
      default:
        // An all-day date is never one instant.
        if !field.hasDays { return Predicate(sql: "\(column) = ?", arguments: [.integer(instant)]) }
        return Predicate(sql: "\(column) = ? AND \(dayColumn) IS NULL", arguments: [.integer(instant)])
      }
    }
  }

  /// `column coarse` (a range the index can use), then the exact test: `column timed` for a timed
  /// date, `dayColumn day` for an all-day one. Fields without days need only the timed test.
  private func split(
    _ column: String, _ dayColumn: String, coarse: String, _ bounds: Int64..., timed: String, _ timedArguments: [SQLValue],
    day: String, _ dayArgument: SQLValue
  ) -> Predicate {
    guard field.hasDays else { return Predicate(sql: "\(column) \(timed)", arguments: timedArguments) }
    return Predicate(
      sql: "\(column) \(coarse) AND CASE WHEN \(dayColumn) IS NULL THEN \(column) \(timed) ELSE \(dayColumn) \(day) END",
      arguments: bounds.map { .integer($0) } + timedArguments + [dayArgument])
  }
}

/// The virtual tags: conditions written like tags, in capitals (`+OVERDUE`, `-WAITING`).
public enum VirtualTag: String, Sendable, Equatable, CaseIterable {
  /// Pending and due before now (an all-day due once its day has ended).
  case overdue = "OVERDUE"
  /// Due today, tomorrow, this (ISO) week, this month.
  case today = "TODAY", tomorrow = "TOMORROW", week = "WEEK", month = "MONTH"
  /// Pending, not overdue, due within the next 7 days.
  case due = "DUE"
  /// Pending with a wait date still ahead: hidden from lists.
  case waiting = "WAITING"
  /// Pending, not waiting, and scheduled (if at all) no later than now.
  case ready = "READY"
  /// Has a scheduled date, an until date, tags, notes, a project, a priority.
  case scheduled = "SCHEDULED", until = "UNTIL", tagged = "TAGGED", noted = "NOTED", project = "PROJECT"
  case priority = "PRIORITY"
  /// The task's status.
  case pending = "PENDING", done = "DONE", deleted = "DELETED"
  /// An instance of a series that goes on.
  case recurring = "RECURRING"
  /// Waits for a pending task; a pending task waits for it.
  case blocked = "BLOCKED", blocking = "BLOCKING"
  /// Has subtasks (not counting deleted ones); is a subtask.
  case parent = "PARENT", child = "CHILD"
  /// Being worked on now (`todo start`).
  case active = "ACTIVE"
  /// Taskwarrior's names: has notes (annotations); done; waits for no pending task.
  case annotated = "ANNOTATED", completed = "COMPLETED", unblocked = "UNBLOCKED"
  /// Due yesterday, today (as TODAY), this quarter, this year.
  case yesterday = "YESTERDAY", dueToday = "DUETODAY", quarter = "QUARTER", year = "YEAR"
  /// An instance of a series (ended or not); a series' template, which is never a task here.
  case instance = "INSTANCE", template = "TEMPLATE"
  /// The task added last.
  case latest = "LATEST"
  /// Has a value of a user-defined attribute (a UDA, defined or kept from an import); has one
  /// that the configuration does not define (an orphan, as Taskwarrior calls them: see
  /// `orphans(defined:)`; alone, `ORPHAN` is the same as `UDA`).
  case uda = "UDA", orphan = "ORPHAN"
  /// Has a reminder (`remind:`).
  case reminder = "REMINDER"

  /// `+ORPHAN`: a value of a user-defined attribute not among `defined`.
  public static func orphans(defined: [String]) -> FilterTerm {
    .sql(
      Predicate(
        sql: """
          EXISTS (SELECT 1 FROM extra WHERE extra.todo_id = todo.id AND extra.format = 'taskwarrior'
                  AND extra.name NOT IN ('project', 'priority', 'recur', 'mask', 'imask', 'start', 'until', 'urgency', 'id')
                  AND extra.name NOT IN (SELECT value FROM json_each(?)))
          """, arguments: [.text(JSONText.array(defined.sorted()))]))
  }

  /// The condition, for tasks as of `now`.
  func term(now: Int64) -> FilterTerm {
    let today = CalendarDay.local(now)
    let pending = FilterTerm.status(.pending)
    func on(_ field: DateField, from first: CalendarDay, to last: CalendarDay) -> FilterTerm {
      .all([
        .date(DateCondition(field: field, comparison: .after, value: .day(first.adding(days: -1)))),
        .date(DateCondition(field: field, comparison: .by, value: .day(last))),
      ])
    }
    switch self {
    case .overdue: return .all([pending, .date(DateCondition(field: .due, comparison: .before, value: .instant(now)))])
    case .today: return .date(DateCondition(field: .due, comparison: .on, value: .day(today)))
    case .tomorrow: return .date(DateCondition(field: .due, comparison: .on, value: .day(today.adding(days: 1))))
    case .week:
      let first = Week.start(of: today)
      return on(.due, from: first, to: first.adding(days: 6))
    case .month:
      let first = CalendarDay(year: today.year, month: today.month, day: 1)
      let last = CalendarDay(year: today.year, month: today.month, day: Civil.daysIn(month: today.month, year: today.year))
      return on(.due, from: first, to: last)
    case .due:
      return .all([
        pending, .not(.date(DateCondition(field: .due, comparison: .before, value: .instant(now)))),
        .date(DateCondition(field: .due, comparison: .by, value: .instant(now + 7 * 86_400))),
      ])
    case .waiting: return .all([pending, .date(DateCondition(field: .wait, comparison: .after, value: .instant(now)))])
    case .ready:
      return .all([
        pending, .not(.date(DateCondition(field: .wait, comparison: .after, value: .instant(now)))),
        .not(.date(DateCondition(field: .scheduled, comparison: .after, value: .instant(now)))),
        .not(VirtualTag.blocked.term(now: now)),
      ])
    case .recurring:
      return .sql(Predicate(sql: "todo.series_id IN (SELECT id FROM series WHERE ended IS NULL)"))
    case .blocked:
      return .sql(
        Predicate(
          sql: """
            todo.id IN (SELECT dependency.todo_id FROM dependency JOIN todo AS target ON target.id = dependency.depends_on
                        WHERE target.status = 'pending')
            """))
    case .blocking:
      return .sql(
        Predicate(
          sql: """
            todo.id IN (SELECT dependency.depends_on FROM dependency JOIN todo AS waiting ON waiting.id = dependency.todo_id
                        WHERE waiting.status = 'pending')
            """))
    case .parent:
      return .sql(Predicate(sql: "todo.id IN (SELECT parent_id FROM todo AS child WHERE child.parent_id IS NOT NULL AND child.status != 'deleted')"))
    case .child: return .sql(Predicate(sql: "todo.parent_id IS NOT NULL"))
    case .active: return .sql(Predicate(sql: "todo.id IN (SELECT todo_id FROM interval WHERE stopped IS NULL)"))
    case .scheduled: return .date(DateCondition(field: .scheduled, comparison: .any))
    case .until: return .date(DateCondition(field: .until, comparison: .any))
    case .tagged: return .sql(Predicate(sql: "EXISTS (SELECT 1 FROM tag WHERE tag.todo_id = todo.id)"))
    case .noted: return .sql(Predicate(sql: "EXISTS (SELECT 1 FROM note WHERE note.todo_id = todo.id)"))
    case .project: return .sql(Predicate(sql: "todo.project IS NOT NULL"))
    case .priority: return .sql(Predicate(sql: "todo.priority IS NOT NULL"))
    case .annotated: return VirtualTag.noted.term(now: now)
    case .completed: return .status(.done)
    case .unblocked: return .not(VirtualTag.blocked.term(now: now))
    case .yesterday: return .date(DateCondition(field: .due, comparison: .on, value: .day(today.adding(days: -1))))
    case .dueToday: return VirtualTag.today.term(now: now)
    case .quarter:
      let firstMonth = (today.month - 1) / 3 * 3 + 1
      let lastMonth = firstMonth + 2
      return on(
        .due, from: CalendarDay(year: today.year, month: firstMonth, day: 1),
        to: CalendarDay(year: today.year, month: lastMonth, day: Civil.daysIn(month: lastMonth, year: today.year)))
    case .year:
      return on(.due, from: CalendarDay(year: today.year, month: 1, day: 1), to: CalendarDay(year: today.year, month: 12, day: 31))
    case .instance: return .linked(.series, to: [])
    case .template: return .sql(Predicate(sql: "0"))
    case .latest: return .sql(Predicate(sql: "todo.id = (SELECT max(id) FROM todo)"))
    case .uda, .orphan:
      return .sql(
        Predicate(
          sql: """
            EXISTS (SELECT 1 FROM extra WHERE extra.todo_id = todo.id AND extra.format = 'taskwarrior'
                    AND extra.name NOT IN ('project', 'priority', 'recur', 'mask', 'imask', 'start', 'until', 'urgency', 'id'))
            """))
    case .reminder: return .sql(Predicate(sql: "todo.remind IS NOT NULL"))
    case .pending: return pending
    case .done: return .status(.done)
    case .deleted: return .status(.deleted)
    }
  }
}

/// `urgency.over:5`, `urgency.under:2`, `urgency:4.5`: a task's urgency, with these
/// coefficients, compared with a number.
public struct UrgencyCondition: Sendable, Equatable {
  public enum Comparison: String, Sendable, Equatable {
    case over, under, equal
  }

  public var comparison: Comparison
  public var value: Double
  public var coefficients: Urgency.Coefficients

  public init(_ comparison: Comparison, _ value: Double, coefficients: Urgency.Coefficients) {
    self.comparison = comparison
    self.value = value
    self.coefficients = coefficients
  }

  /// Whether a score meets the condition; `equal` compares as `why` shows a score (two decimals).
  public func holds(_ score: Double) -> Bool {
    switch comparison {
    case .over: score > value
    case .under: score < value
    case .equal: (score * 100).rounded() == (value * 100).rounded()
    }
  }
}

/// A link between tasks a filter can ask about.
public enum LinkKind: Sendable, Equatable {
  case depends, parent, series
}

/// The text a regular expression is matched against.
public enum TextColumn: Sendable, Equatable {
  case title, project
  /// The title, or any of the notes.
  case titleOrNotes
}

/// One term of a filter's boolean structure: `+home`, `project:work`, `due.by:fri`, `+OVERDUE`,
/// search words, and `and`/`or`/`not` over them.
///
/// ```swift
/// let term = FilterTerm.any([.tag("home"), .project("work")])   // ( +home or project:work )
/// ```
public indirect enum FilterTerm: Sendable, Equatable {
  case tag(String)
  /// The project or one of its sub-projects; nil: no project.
  case project(String?)
  /// nil: no priority.
  case priority(Priority?)
  case status(Status)
  case date(DateCondition)
  case virtual(VirtualTag)
  /// The title contains the text (any case, any Unicode form).
  case titleHas(String)
  /// The title or a note contains the text.
  case word(String)
  /// The text matches the POSIX extended regular expression (`/re/`, `project.startswith:x`).
  case matches(String, ignoringCase: Bool, in: TextColumn)
  /// The UUID starts with the text (lower-case hex and dashes).
  case uuidStarts(String)
  /// Waits for, or is a subtask of, one of the tasks (ids); with none: has any such link. A
  /// series link has no ids: it is an instance of a series.
  case linked(LinkKind, to: [Int64])
  /// An instance of a series with this rule (its canonical text: `weekly`, `2w`).
  case seriesRule(String)
  case all([FilterTerm])
  case any([FilterTerm])
  case not(FilterTerm)
  /// The task's urgency compared with a number (`urgency.over:5`); closed tasks have none (0).
  /// Run through `TodoFilter.resolvingUrgency` first, which scores the tasks.
  case urgency(UrgencyCondition)
  /// The task is being worked on, since a time compared as a date (`start.before:9:00`), or
  /// at all (`start.any:`, nil).
  case started(DateCondition?)
  /// Ready-made SQL (for virtual tags).
  case sql(Predicate)

  /// The term as a parameterised condition on `todo`: never NULL, so that `not` is exact.
  public func predicate(now: Int64) -> Predicate {
    switch self {
    case .tag(let name):
      return Predicate(sql: "todo.id IN (SELECT todo_id FROM tag WHERE name = ?)", arguments: [.text(name)])
    case .project(let name?):
      // The range 'work.' ..< 'work/' holds exactly the sub-projects and can use the index.
      return Predicate(
        sql: "(todo.project = ? OR (todo.project >= ? AND todo.project < ?))",
        arguments: [.text(name), .text(name + "."), .text(name + "/")])
    case .project(nil): return Predicate(sql: "todo.project IS NULL")
    case .priority(let priority?): return Predicate(sql: "todo.priority = ?", arguments: [.text(priority.rawValue)])
    case .priority(nil): return Predicate(sql: "todo.priority IS NULL")
    case .status(let status): return Predicate(sql: "todo.status = ?", arguments: [.text(status.rawValue)])
    case .date(let condition): return condition.predicate(now: now)
    case .virtual(let tag): return tag.term(now: now).predicate(now: now)
    case .titleHas(let text):
      return Predicate(sql: "todo_contains(todo.title, ?)", arguments: [.text(TextSearch.folded(text))])
    case .word(let text):
      let folded = TextSearch.folded(text)
      return Predicate(
        sql: "(todo_contains(todo.title, ?) OR todo.id IN (SELECT todo_id FROM note WHERE todo_contains(text, ?)))",
        arguments: [.text(folded), .text(folded)])
    case .matches(let pattern, let ignoringCase, let column):
      let arguments: [SQLValue] = [.text(pattern), .integer(ignoringCase ? 1 : 0)]
      switch column {
      case .title: return Predicate(sql: "todo_regexp(todo.title, ?, ?)", arguments: arguments)
      // No project: no match (0, not NULL, so that `not` is exact).
      case .project: return Predicate(sql: "coalesce(todo_regexp(todo.project, ?, ?), 0)", arguments: arguments)
      case .titleOrNotes:
        return Predicate(
          sql: "(todo_regexp(todo.title, ?, ?) OR todo.id IN (SELECT todo_id FROM note WHERE todo_regexp(text, ?, ?)))",
          arguments: arguments + arguments)
      }
    case .uuidStarts(let prefix):
      return Predicate(sql: "substr(todo.uuid, 1, ?) = ?", arguments: [.integer(Int64(prefix.utf8.count)), .text(prefix)])
    case .linked(let kind, let ids):
      let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
      let arguments = ids.map { SQLValue.integer($0) }
      switch kind {
      case .depends where ids.isEmpty: return Predicate(sql: "EXISTS (SELECT 1 FROM dependency WHERE dependency.todo_id = todo.id)")
      case .depends:
        return Predicate(sql: "todo.id IN (SELECT todo_id FROM dependency WHERE depends_on IN (\(marks)))", arguments: arguments)
      case .parent where ids.isEmpty: return Predicate(sql: "todo.parent_id IS NOT NULL")
      case .parent: return Predicate(sql: "coalesce(todo.parent_id IN (\(marks)), 0)", arguments: arguments)
      case .series: return Predicate(sql: "todo.series_id IS NOT NULL")
      }
    case .seriesRule(let rule):
      return Predicate(sql: "coalesce(todo.series_id IN (SELECT id FROM series WHERE rule = ?), 0)", arguments: [.text(rule)])
    case .all(let terms): return .all(terms.map { $0.predicate(now: now) })
    case .any(let terms):
      return .any(terms.map { $0.predicate(now: now) })
    case .not(.tag(let name)):
      return Predicate(sql: "todo.id NOT IN (SELECT todo_id FROM tag WHERE name = ?)", arguments: [.text(name)])
    case .not(let term):
      // `IS NOT TRUE`: a comparison with a missing date is NULL, and NOT NULL would drop the task.
      let inner = term.predicate(now: now)
      return Predicate(sql: "(\(inner.sql)) IS NOT TRUE", arguments: inner.arguments)
    case .urgency:
      // Not resolved: an SQL error rather than a silent answer.
      return Predicate(sql: "todo_urgency_is_not_resolved()")
    case .started(nil): return VirtualTag.active.term(now: now).predicate(now: now)
    case .started(let condition?):
      // The running interval's start as a date (an instant, as `created` is): at most one runs.
      let inner = DateCondition(field: .created, comparison: condition.comparison, value: condition.value)
        .predicate(now: now, column: "interval.started")
      return Predicate(sql: "todo.id IN (SELECT todo_id FROM interval WHERE stopped IS NULL AND \(inner.sql))", arguments: inner.arguments)
    case .sql(let predicate): return predicate
    }
  }

  /// The term with each `urgency` condition replaced by the tasks whose urgency meets it,
  /// scored by `score` (run once per set of coefficients); the same term when it has none.
  func resolvingUrgency(_ score: (Urgency.Coefficients) throws(DatabaseError) -> [Int64: Double]) throws(DatabaseError) -> FilterTerm {
    switch self {
    case .urgency(let condition):
      let scores = try score(condition.coefficients)
      let ids = scores.filter { condition.holds($0.value) }.keys.sorted()
      let chosen = "todo.id IN (SELECT value FROM json_each(?))"
      let arguments: [SQLValue] = [.text("[" + ids.map(String.init).joinedText(",") + "]")]
      // A task with no score (closed) has 0.
      if condition.holds(0) { return .sql(Predicate(sql: "(todo.status <> 'pending' OR \(chosen))", arguments: arguments)) }
      return .sql(Predicate(sql: chosen, arguments: arguments))
    case .all(let terms):
      var resolved: [FilterTerm] = []
      for term in terms { resolved.append(try term.resolvingUrgency(score)) }
      return .all(resolved)
    case .any(let terms):
      var resolved: [FilterTerm] = []
      for term in terms { resolved.append(try term.resolvingUrgency(score)) }
      return .any(resolved)
    case .not(let term): return .not(try term.resolvingUrgency(score))
    default: return self
    }
  }

  /// Whether any part of the term compares urgency.
  var mentionsUrgency: Bool { contains { if case .urgency = $0 { true } else { false } } }

  /// Whether any part of the term is about the wait date (then waiting tasks are not hidden).
  var mentionsWait: Bool {
    contains { term in
      switch term {
      case .date(let condition): condition.field == .wait
      case .virtual(let tag): tag == .waiting || tag == .ready
      default: false
      }
    }
  }

  /// Whether any part of the term names a status (then no status is assumed).
  var mentionsStatus: Bool {
    contains { term in
      switch term {
      case .status: true
      case .virtual(let tag): [.pending, .done, .deleted, .completed].contains(tag)
      default: false
      }
    }
  }

  private func contains(_ test: (FilterTerm) -> Bool) -> Bool {
    if test(self) { return true }
    switch self {
    case .all(let terms), .any(let terms): return terms.contains { $0.contains(test) }
    case .not(let term): return term.contains(test)
    default: return false
    }
  }
}
