import DataOperation

/// The periods a history or a burndown counts in.
public enum ChartPeriod: String, Sendable, Equatable, CaseIterable {
  case daily, weekly, monthly, annual

  /// The first day of the period that holds `day` (a week starts on `Week.firstWeekday`).
  public func start(of day: CalendarDay) -> CalendarDay {
    switch self {
    case .daily: day
    case .weekly: Week.start(of: day)
    case .monthly: CalendarDay(year: day.year, month: day.month, day: 1)
    case .annual: CalendarDay(year: day.year, month: 1, day: 1)
    }
  }

  /// The first day of the next period, from the first day of one.
  public func next(after start: CalendarDay) -> CalendarDay {
    switch self {
    case .daily: start.adding(days: 1)
    case .weekly: start.adding(days: 7)
    case .monthly:
      start.month == 12 ? CalendarDay(year: start.year + 1, month: 1, day: 1) : CalendarDay(year: start.year, month: start.month + 1, day: 1)
    case .annual: CalendarDay(year: start.year + 1, month: 1, day: 1)
    }
  }
}

/// Consecutive local periods and the instants they start at: an instant finds its period by a
/// binary search, so counting 100k tasks asks the C library for no local time.
public struct PeriodRange: Sendable, Equatable {
  public let period: ChartPeriod
  /// The first day of each period, in order.
  public let days: [CalendarDay]
  /// The instant each period starts, then the instant the last one ends.
  public let bounds: [Int64]

  /// The periods from the one that holds `first` to the one that holds `last`.
  public init(_ period: ChartPeriod, from first: CalendarDay, through last: CalendarDay) {
    self.period = period
    var days: [CalendarDay] = []
    var day = period.start(of: first)
    let end = period.start(of: last)
    while day <= end {
      days.append(day)
      day = period.next(after: day)
    }
    self.days = days
    bounds = days.map(\.start) + [day.start]
  }

  /// The `count` periods that end with the one holding `day`.
  public init(_ period: ChartPeriod, count: Int, endingWith day: CalendarDay) {
    var first = period.start(of: day)
    for _ in 1..<max(count, 1) {
      // One day back is in the period before.
      first = period.start(of: first.adding(days: -1))
    }
    self.init(period, from: first, through: day)
  }

  /// The number of periods.
  public var count: Int { days.count }

  /// The period an instant falls in; nil before the first or after the last.
  public func index(of instant: Int64) -> Int? {
    guard let first = bounds.first, let last = bounds.last, instant >= first, instant < last else { return nil }
    return firstBound(after: instant) - 1
  }

  /// The index of the first bound later than `instant` (`bounds.count` when none is).
  func firstBound(after instant: Int64) -> Int {
    var low = 0
    var high = bounds.count
    while low < high {
      let middle = (low + high) / 2
      if bounds[middle] > instant { high = middle } else { low = middle + 1 }
    }
    return low
  }
}

/// Tasks added, completed and deleted in each period (`todo history`, `todo ghistory`).
public struct ActivityHistory: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    /// The period's first day.
    public var start: CalendarDay
    public var added = 0
    public var completed = 0
    public var deleted = 0
  }

  public var period: ChartPeriod
  /// The periods that saw something, oldest first.
  public var rows: [Row]
}

/// How many tasks were pending, active and done at the end of each period (`todo burndown`).
public struct Burndown: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    public var start: CalendarDay
    /// Pending and not being worked on, being worked on, done; at the period's end (or now).
    public var pending = 0
    public var active = 0
    public var done = 0
  }

  public var period: ChartPeriod
  public var rows: [Row]
  /// Tasks added, done and deleted from the first period's start until now.
  public var added = 0
  public var completed = 0
  public var deleted = 0
  /// Days from the first period's start until now.
  public var days = 0.0
  /// Pending now (active ones included).
  public var pendingNow: Int { rows.last.map { $0.pending + $0.active } ?? 0 }

  /// When the pending tasks would all be done, at the rates of the chart's range (tasks done or
  /// deleted a day, less tasks added a day); nil when they do not converge.
  public func estimatedCompletion(now: Int64) -> Int64? {
    guard days > 0 else { return nil }
    let net = Double(completed + deleted - added) / days
    guard net > 0 else { return nil }
    let seconds = Double(pendingNow) / net * 86_400
    guard seconds < 1e11 else { return nil }
    return now + Int64(seconds)
  }
}

/// A project's progress (`todo summary`): its tasks and its sub-projects'.
public struct ProjectSummary: Sendable, Equatable {
  /// The whole name (`home.garden`); empty for tasks without a project.
  public var name: String
  public var pending = 0
  public var done = 0
  /// The pending tasks' ages added up, in seconds.
  public var pendingAge: Int64 = 0

  /// The average age of the pending tasks, in seconds.
  public var averageAge: Int64 { pending == 0 ? 0 : pendingAge / Int64(pending) }
  /// Done of pending and done, in percent (rounded down, as Taskwarrior prints it).
  public var percentDone: Int { pending + done == 0 ? 0 : done * 100 / (pending + done) }
}

/// A pending task with a due or scheduled date (`todo calendar`, `todo agenda`).
public struct DatedTask: Sendable, Equatable {
  public var id: Int64
  public var title: String
  public var due: TaskDate?
  public var scheduled: TaskDate?
  /// Being worked on now.
  public var active: Bool
}

extension TodoStore {
  /// Tasks added, completed and deleted per period, for the tasks a filter selects (every status
  /// unless it names one). A deleted task counts when it was last changed, as it has no end time.
  public static func activity(_ filter: TodoFilter, by period: ChartPeriod, now: Int64) -> DataOperation<ActivityHistory, TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { activity($0, by: period, now: now) } }
    var filter = filter
    filter.defaultStatus = .all
    let predicate = filter.predicate(now: now)
    return DataOperation { connection throws(DatabaseError) in
      // (kind, instant): 0 added, 1 completed, 2 deleted.
      var events: [(Int, Int64)] = []
      var earliest = now
      var latest = now
      func add(_ kind: Int, _ instant: Int64) {
        events.append((kind, instant))
        earliest = min(earliest, instant)
        latest = max(latest, instant)
      }
      try connection.query(
        "SELECT todo.created, todo.status, coalesce(todo.completed, todo.modified), todo.modified FROM todo WHERE \(predicate.sql)",
        predicate.arguments
      ) { row throws(DatabaseError) in
        let created = try row.integer(at: 0) ?? 0
        add(0, created)
        // A deleted task counts as deleted when it was (last changed), done or not before, as
        // Taskwarrior sets its end when it deletes.
        switch try row.text(at: 1) {
        case "done": add(1, try row.integer(at: 2) ?? created)
        case "deleted": add(2, try row.integer(at: 3) ?? created)
        default: break
        }
      }
      guard !events.isEmpty else { return ActivityHistory(period: period, rows: []) }
      // Every event's period, the earliest (an imported task may end before it began) to the latest.
      let range = PeriodRange(period, from: CalendarDay.local(max(earliest, 0)), through: CalendarDay.local(latest))
      var rows = range.days.map { ActivityHistory.Row(start: $0) }
      for (kind, instant) in events {
        guard let index = range.index(of: instant) else { continue }
        switch kind {
        case 0: rows[index].added += 1
        case 1: rows[index].completed += 1
        default: rows[index].deleted += 1
        }
      }
      return ActivityHistory(period: period, rows: rows.filter { $0.added + $0.completed + $0.deleted > 0 })
    }.mapError(TodoError.init)
  }

  /// Pending, active and done tasks at the end of each of the `count` periods up to now, for
  /// the tasks a filter selects; deleted tasks count as pending until they were deleted.
  public static func burndown(_ filter: TodoFilter, by period: ChartPeriod, count: Int, now: Int64)
    -> DataOperation<Burndown, TodoError>
  {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { burndown($0, by: period, count: count, now: now) } }
    var filter = filter
    filter.defaultStatus = .all
    let predicate = filter.predicate(now: now)
    return DataOperation { connection throws(DatabaseError) in
      // From the period of the earliest task on, at most `count` periods.
      let earliest = try connection.scalar("SELECT min(todo.created) FROM todo WHERE \(predicate.sql)", predicate.arguments)
      let today = CalendarDay.local(now)
      var shown = count
      if case .integer(let first) = earliest, first <= now {
        shown = min(count, PeriodRange(period, from: CalendarDay.local(first), through: today).count)
      }
      let range = PeriodRange(period, count: shown, endingWith: today)
      let size = range.count
      // Differences: a task open from period a to b adds one at a and takes one at b.
      var open = [Int](repeating: 0, count: size + 1)
      var active = [Int](repeating: 0, count: size + 1)
      var done = [Int](repeating: 0, count: size + 1)
      var result = Burndown(period: period, rows: [])
      let start = range.bounds[0]
      // The period whose end is the first later than an instant: from it on, the instant has passed.
      func from(_ instant: Int64) -> Int { max(range.firstBound(after: instant) - 1, 0) }
      var closed: [Int64: Int64] = [:]
      try connection.query(
        """
        SELECT todo.id, todo.created, todo.status, CASE todo.status WHEN 'pending' THEN NULL
          ELSE coalesce(todo.completed, todo.modified) END, todo.modified FROM todo WHERE \(predicate.sql)
        """, predicate.arguments
      ) { row throws(DatabaseError) in
        let created = try row.integer(at: 1) ?? 0
        let end = try row.integer(at: 3)
        let opened = from(created)
        let shut = end.map(from) ?? size
        if opened < shut {
          open[opened] += 1
          open[shut] -= 1
        }
        if created >= start { result.added += 1 }
        // A deleted task leaves the chart when it was done (if it was) or deleted.
        if let end {
          closed[try row.integer(at: 0) ?? 0] = end
          if try row.text(at: 2) == "done" {
            done[max(shut, opened)] += 1
            if end >= start { result.completed += 1 }
          } else if try row.integer(at: 4) ?? end >= start {
            result.deleted += 1
          }
        }
      }
      try connection.query(
        "SELECT interval.todo_id, interval.started, interval.stopped FROM interval JOIN todo ON todo.id = interval.todo_id WHERE \(predicate.sql)",
        predicate.arguments
      ) { row throws(DatabaseError) in
        let started = try row.integer(at: 1) ?? 0
        var stopped = try row.integer(at: 2)
        if let end = closed[try row.integer(at: 0) ?? 0] { stopped = min(stopped ?? end, end) }
        let first = from(started)
        let last = stopped.map(from) ?? size
        if first < last {
          active[first] += 1
          active[last] -= 1
        }
      }
      var running = (open: 0, active: 0, done: 0)
      for index in 0..<size {
        running.open += open[index]
        running.active += active[index]
        running.done += done[index]
        let working = min(running.active, running.open)
        result.rows.append(Burndown.Row(start: range.days[index], pending: running.open - working, active: working, done: running.done))
      }
      // At least a day: rates over a few hours would claim a day's worth.
      result.days = max(Double(now - start) / 86_400, 1)
      return result
    }.mapError(TodoError.init)
  }

  /// Each project with pending tasks among those a filter selects, with its sub-projects'
  /// tasks counted in; deleted tasks are not counted. Tasks without a project come first
  /// (name ""), then the projects by name.
  public static func summary(_ filter: TodoFilter, now: Int64) -> DataOperation<[ProjectSummary], TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { summary($0, now: now) } }
    var filter = filter
    filter.defaultStatus = .all
    let predicate = filter.predicate(now: now)
    return DataOperation { connection throws(DatabaseError) in
      var totals: [String: ProjectSummary] = [:]
      try connection.query(
        """
        SELECT coalesce(todo.project, ''), sum(todo.status = 'pending'), sum(todo.status = 'done'),
          sum(CASE WHEN todo.status = 'pending' THEN max(? - todo.created, 0) ELSE 0 END)
        FROM todo WHERE todo.status <> 'deleted' AND (\(predicate.sql)) GROUP BY 1
        """, [.integer(now)] + predicate.arguments
      ) { row throws(DatabaseError) in
        let project = try row.text(at: 0) ?? ""
        let pending = Int(try row.integer(at: 1) ?? 0)
        let done = Int(try row.integer(at: 2) ?? 0)
        let age = try row.integer(at: 3) ?? 0
        let parts = project.split(separator: ".")
        let names = parts.isEmpty ? [""] : (1...parts.count).map { parts.prefix($0).joined(separator: ".") }
        for name in names {
          totals[name, default: ProjectSummary(name: name)].pending += pending
          totals[name, default: ProjectSummary(name: name)].done += done
          totals[name, default: ProjectSummary(name: name)].pendingAge += age
        }
      }
      // By name part by part, so that a project's sub-projects come right after it
      // (`home`, `home.garden`, `home-office`).
      return totals.values.filter { $0.pending > 0 }.sorted {
        $0.name.split(separator: ".").lexicographicallyPrecedes($1.name.split(separator: "."))
      }
    }.mapError(TodoError.init)
  }

  /// The pending tasks a filter selects that are due or scheduled in `from..<to` (instants),
  /// and, with `overdue`, those due before now; by date, then id. An all-day date is stored as
  /// the start of its day where it was set: a caller asking for days gives two days more either
  /// side (time zones are at most 26 hours apart) and keeps the days it wants.
  public static func datedTasks(_ filter: TodoFilter, from: Int64, to: Int64, overdue: Bool, now: Int64)
    -> DataOperation<[DatedTask], TodoError>
  {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { datedTasks($0, from: from, to: to, overdue: overdue, now: now) } }
    var filter = filter
    filter.defaultStatus = .pending
    let predicate = filter.predicate(now: now)
    return DataOperation { connection throws(DatabaseError) in
      // The few running intervals, once, rather than a look-up for every task.
      var active = Set<Int64>()
      try connection.query("SELECT todo_id FROM interval WHERE stopped IS NULL") { row throws(DatabaseError) in
        active.insert(try row.integer(at: 0) ?? 0)
      }
      return try connection.all(
        """
        SELECT todo.id, todo.title, todo.due, todo.due_day, todo.scheduled, todo.scheduled_day
        FROM todo WHERE todo.status = 'pending' AND ((todo.due >= ?1 AND todo.due < ?2)
          OR (todo.scheduled >= ?1 AND todo.scheduled < ?2) OR (?3 AND todo.due < ?4)) AND (\(predicate.sql))
        ORDER BY min(coalesce(todo.due, todo.scheduled), coalesce(todo.scheduled, todo.due)), todo.id
        """, [.integer(from), .integer(to), .integer(overdue ? 1 : 0), .integer(now)] + predicate.arguments
      ) { row throws(DatabaseError) in
        let id = try row.integer(at: 0) ?? 0
        return DatedTask(
          id: id, title: try row.text(at: 1) ?? "", due: try Todo.date(row, at: 2), scheduled: try Todo.date(row, at: 4),
          active: active.contains(id))
      }
    }.mapError(TodoError.init)
  }
}
