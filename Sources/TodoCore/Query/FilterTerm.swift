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

  public func predicate(now: Int64) -> Predicate {
    let column = "todo.\(field.rawValue)"
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
      return .sql(Predicate(sql: """
        todo.id IN (SELECT dependency.todo_id FROM dependency JOIN todo AS target ON target.id = dependency.depends_on
                    WHERE target.status = 'pending')
        """))
    case .blocking:
      return .sql(Predicate(sql: """
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
    case .pending: return pending
    case .done: return .status(.done)
    case .deleted: return .status(.deleted)
    }
  }
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
  case all([FilterTerm])
  case any([FilterTerm])
  case not(FilterTerm)
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
    case .all(let terms): return .all(terms.map { $0.predicate(now: now) })
    case .any(let terms):
      return .any(terms.map { $0.predicate(now: now) })
    case .not(.tag(let name)):
      return Predicate(sql: "todo.id NOT IN (SELECT todo_id FROM tag WHERE name = ?)", arguments: [.text(name)])
    case .not(let term):
      // `IS NOT TRUE`: a comparison with a missing date is NULL, and NOT NULL would drop the task.
      let inner = term.predicate(now: now)
      return Predicate(sql: "(\(inner.sql)) IS NOT TRUE", arguments: inner.arguments)
    case .sql(let predicate): return predicate
    }
  }

  /// Whether any part of the term is about the wait date (then waiting tasks are not hidden).
  var mentionsWait: Bool { contains { term in
    switch term {
    case .date(let condition): condition.field == .wait
    case .virtual(let tag): tag == .waiting || tag == .ready
    default: false
    }
  } }

  /// Whether any part of the term names a status (then no status is assumed).
  var mentionsStatus: Bool { contains { term in
    switch term {
    case .status: true
    case .virtual(let tag): [.pending, .done, .deleted].contains(tag)
    default: false
    }
  } }

  private func contains(_ test: (FilterTerm) -> Bool) -> Bool {
    if test(self) { return true }
    switch self {
    case .all(let terms), .any(let terms): return terms.contains { $0.contains(test) }
    case .not(let term): return term.contains(test)
    default: return false
    }
  }
}
