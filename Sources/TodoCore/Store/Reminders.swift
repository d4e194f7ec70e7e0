import DataOperation
import TodoSystem

/// What became of a reminder whose time came (a row of `reminder_delivery`).
public enum ReminderOutcome: String, Sendable, CaseIterable {
  /// Delivered at its time (or when quiet hours ended).
  case shown
  /// Delivered late: its time passed while nothing checked (the machine was off, asleep).
  case late
  /// Its time passed longer ago than `remind.missed.limit`: recorded, not shown.
  case skipped
  /// Dismissed or snoozed by the user before or after it rang.
  case dismissed
  /// Acknowledged on another device (an iCalendar `ACKNOWLEDGED` that came in by sync or import).
  case acknowledged
}

/// A reminder of a pending task at the instant it rings, with what became of it, if anything.
public struct ScheduledReminder: Sendable, Equatable {
  public var task: Todo
  public var reminder: Reminder
  /// When it rings.
  public var fire: Int64
  /// Its delivery, once its time came: what became of it, and when.
  public var outcome: ReminderOutcome?
  public var decided: Int64?

  /// Its time has come and nothing was done about it yet.
  public func isWaiting(now: Int64) -> Bool { outcome == nil && fire <= now }
}

/// When reminders are held back (`remind.quiet = 22:00-07:00`): minutes after local midnight,
/// the end excluded; a range over midnight wraps.
public struct QuietHours: Sendable, Equatable {
  public var start: Int
  public var end: Int

  public init(start: Int, end: Int) {
    self.start = start
    self.end = end
  }

  /// Reads `22:00-07:00` (also `22-7`, `10pm-7am`); nil for another shape or an empty range.
  public init?(parsing text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
    guard parts.count == 2 else { return nil }
    func clock(_ word: String) -> Int? { Reminder.clock(word) ?? Int(word).flatMap { (0...24).contains($0) ? $0 % 24 * 60 : nil } }
    guard let start = clock(parts[0]), let end = clock(parts[1]), start != end else { return nil }
    self.init(start: start, end: end)
  }

  /// Whether `instant` falls in quiet hours (local time).
  public func contains(_ instant: Int64) -> Bool {
    guard let fields = LocalTime.fields(instant) else { return false }
    let minute = fields.hour * 60 + fields.minute
    return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
  }

  /// The end of the quiet hours `instant` falls in (nil when it is not in them).
  public func end(after instant: Int64) -> Int64? {
    guard contains(instant) else { return nil }
    var day = CalendarDay.local(instant)
    if let fields = LocalTime.fields(instant), fields.hour * 60 + fields.minute >= end { day = day.adding(days: 1) }
    return Timestamp.wallClock(year: day.year, month: day.month, day: day.day, hour: end / 60, minute: end % 60, second: 0)
  }

  public var text: String { Reminder.clockText(start) + "-" + Reminder.clockText(end) }
}

/// How `todo remind --check` treats reminders whose time has come.
public struct ReminderPolicy: Sendable, Equatable {
  /// A reminder whose time passed longer ago than this is recorded, not shown (`remind.missed.limit`).
  public var missedLimit: Int64 = 86_400
  /// Delivered later than this after its time, it is shown as missed.
  public var lateAfter: Int64 = 600
  /// Nothing is delivered in these hours; what came due is delivered when they end.
  public var quiet: QuietHours?

  public init() {}

  /// What a check at `now` does with a reminder whose time has come: nil holds it (quiet hours).
  public func outcome(fire: Int64, now: Int64) -> ReminderOutcome? {
    if fire < now - missedLimit { return .skipped }
    if let quiet, quiet.contains(now) { return nil }
    guard now - fire > lateAfter else { return .shown }
    // Held by quiet hours that have just ended: on time for a reminder that waited for them.
    if let quiet, quiet.contains(fire), let end = quiet.end(after: fire), end <= now, now - end <= lateAfter { return .shown }
    return .late
  }
}

extension TodoStore {
  /// The reminders of pending tasks (those `filter` selects, when given), each at the instant it
  /// rings, in that order, with their deliveries. A reminder counting from a date the task does not
  /// have is left out.
  public static func reminders(of ids: [Int64]? = nil) -> DataOperation<[ScheduledReminder], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      var tasks: [Todo] = []
      let pending = "\(selectTodoWithoutNotes) WHERE todo.remind IS NOT NULL AND todo.status = 'pending'"
      if let ids {
        let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
        try connection.query(pending + " AND todo.id IN (SELECT value FROM json_each(?))", [list]) { row throws(DatabaseError) in
          tasks.append(try Todo(selected: row))
        }
      } else {
        try connection.query(pending, []) { row throws(DatabaseError) in tasks.append(try Todo(selected: row)) }
      }
      guard !tasks.isEmpty else { return [] }
      var deliveries: [String: [Int64: (ReminderOutcome, Int64)]] = [:]
      let uuids = SQLValue.text("[" + tasks.map { "\"\($0.uuid)\"" }.joinedText(",") + "]")
      try connection.query(
        "SELECT task_uuid, fire, outcome, delivered FROM reminder_delivery WHERE task_uuid IN (SELECT value FROM json_each(?))", [uuids]
      ) { row throws(DatabaseError) in
        let outcome = ReminderOutcome(rawValue: try row.text(at: 2) ?? "") ?? .shown
        deliveries[try row.text(at: 0) ?? "", default: [:]][try row.integer(at: 1) ?? 0] = (outcome, try row.integer(at: 3) ?? 0)
      }
      var scheduled: [ScheduledReminder] = []
      for task in tasks {
        for reminder in task.reminders {
          guard let fire = reminder.fire(due: task.due, scheduled: task.scheduled) else { continue }
          let delivery = deliveries[task.uuid]?[fire]
          scheduled.append(ScheduledReminder(task: task, reminder: reminder, fire: fire, outcome: delivery?.0, decided: delivery?.1))
        }
      }
      return scheduled.sorted { ($0.fire, $0.task.id) < ($1.fire, $1.task.id) }
    }.mapError(TodoError.init)
  }

  /// The reminders of the pending tasks a filter selects (none when it selects none).
  public static func reminders(matching filter: TodoFilter, now: Int64) -> DataOperation<[ScheduledReminder], TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { reminders(matching: $0, now: now) } }
    let matching = resolve(filter, now: now)
    return DataOperation { connection throws(TodoError) in
      let ids: [Int64]
      do throws(TodoError) { ids = try matching.run(connection) } catch .noMatch { ids = [] }
      return ids.isEmpty ? [] : try reminders(of: ids).run(connection)
    }
  }

  /// Records what becomes of the reminders whose time has come by `now` (see
  /// `ReminderPolicy.outcome`) and returns those this call recorded, to be delivered: a reminder
  /// another check already recorded is not among them, so two checks never deliver one twice.
  public static func claimReminders(now: Int64, policy: ReminderPolicy) -> DataOperation<[ScheduledReminder], TodoError> {
    reminders().flatMap { all in
      DataOperation { connection throws(DatabaseError) in
        var claimed: [ScheduledReminder] = []
        var seen = Set<String>()
        for item in all where item.isWaiting(now: now) {
          guard let outcome = policy.outcome(fire: item.fire, now: now) else { continue }
          // Two reminders of a task at one instant ring once.
          guard seen.insert("\(item.task.uuid) \(item.fire)").inserted else { continue }
          if let recorded = try record(item, outcome, at: now, on: connection) { claimed.append(recorded) }
        }
        return claimed
      }.mapError(TodoError.init)
    }
  }

  /// `todo remind snooze`: the task rings again at `until`, a snooze of its own that replaces an
  /// earlier one (an undo step, as any change). What rang already is not touched.
  public static func snooze(_ reference: TaskReference, until: Int64, now: Int64, command: String) -> DataOperation<ChangeReport, TodoError> {
    task(reference).flatMap { task in
      guard task.status == .pending else {
        return .fail(.wrongStatus("task \(task.id) is \(task.status.rawValue): only a pending task is reminded of"))
      }
      var changes = TodoChanges()
      changes.reminders = task.reminders.filter { !$0.isSnooze } + [Reminder(.at(until), isSnooze: true)]
      var filter = TodoFilter()
      filter.references = [.id(task.id)]
      return update(filter, changes, now: now, command: command)
    }
  }

  /// `todo remind dismiss`: for each task, the reminders whose time has come and that were not
  /// delivered, or else its next one, will not ring. Returns those dismissed.
  public static func dismiss(_ references: [TaskReference], now: Int64) -> DataOperation<[ScheduledReminder], TodoError> {
    tasks(references).flatMap { tasks in
      reminders(of: tasks.map(\.id)).flatMap { items in
        var chosen: [ScheduledReminder] = []
        for task in tasks {
          let open = items.filter { $0.task.id == task.id && $0.outcome == nil }
          let due = open.filter { $0.fire <= now }
          chosen += due.isEmpty ? Array(open.prefix(1)) : due
        }
        return decide(chosen, .dismissed, now: now)
      }
    }
  }

  /// When a watch looks again after `now`: the next reminder's time, the end of quiet hours that
  /// hold some, and at least every minute (the clock or the zone may change under it).
  public static func nextWake(after now: Int64, policy: ReminderPolicy) -> DataOperation<Int64, TodoError> {
    reminders().map { all in
      let open = all.filter { $0.outcome == nil }
      var wake = now + 60
      if let next = open.first(where: { $0.fire > now }) { wake = min(wake, next.fire) }
      if open.contains(where: { $0.fire <= now }), let end = policy.quiet?.end(after: now) { wake = min(wake, end) }
      return wake
    }
  }

  /// Forgets deliveries (a notification that could not be shown): the next check tries again.
  public static func releaseReminders(_ items: [ScheduledReminder]) -> DataOperation<Void, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      for item in items {
        try connection.execute(
          "DELETE FROM reminder_delivery WHERE task_uuid = ? AND fire = ? AND delivered = ?",
          [.text(item.task.uuid), .integer(item.fire), .integer(item.decided ?? 0)])
      }
    }.mapError(TodoError.init)
  }

  /// Records reminders as dismissed (or acknowledged elsewhere) at `now`; those already decided
  /// keep what they had. Returns those it recorded.
  public static func decide(_ items: [ScheduledReminder], _ outcome: ReminderOutcome, now: Int64) -> DataOperation<[ScheduledReminder], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      var decided: [ScheduledReminder] = []
      for item in items {
        if let recorded = try record(item, outcome, at: now, on: connection) { decided.append(recorded) }
      }
      return decided
    }.mapError(TodoError.init)
  }

  /// Records what became of a reminder, unless something already was: the reminder as recorded,
  /// or nil when another check (or a dismissal) got there first.
  private static func record(_ item: ScheduledReminder, _ outcome: ReminderOutcome, at now: Int64, on connection: Connection)
    throws(DatabaseError) -> ScheduledReminder?
  {
    try connection.execute(
      "INSERT OR IGNORE INTO reminder_delivery (task_uuid, fire, delivered, outcome) VALUES (?, ?, ?, ?)",
      [.text(item.task.uuid), .integer(item.fire), .integer(now), .text(outcome.rawValue)])
    guard connection.changes == 1 else { return nil }
    var recorded = item
    recorded.outcome = outcome
    recorded.decided = now
    return recorded
  }

  /// Records deliveries another device made (iCalendar's `ACKNOWLEDGED`): task UUID, instant.
  public static func acknowledge(_ acknowledged: [(uuid: String, fire: Int64, at: Int64)]) -> DataOperation<Void, TodoError> {
    DataOperation { connection throws(DatabaseError) in
      for item in acknowledged {
        try connection.execute(
          "INSERT OR IGNORE INTO reminder_delivery (task_uuid, fire, delivered, outcome) VALUES (?, ?, ?, 'acknowledged')",
          [.text(item.uuid), .integer(item.fire), .integer(item.at)])
      }
    }.mapError(TodoError.init)
  }

  /// The deliveries recorded for tasks, by UUID: instant it was for → when it was decided (for
  /// iCalendar's `ACKNOWLEDGED`).
  public static func deliveries(of uuids: [String]) -> DataOperation<[String: [Int64: Int64]], TodoError> {
    DataOperation { connection throws(DatabaseError) in try loadDeliveries(of: uuids, on: connection) }.mapError(TodoError.init)
  }

  static func loadDeliveries(of uuids: [String], on connection: Connection) throws(DatabaseError) -> [String: [Int64: Int64]] {
    var found: [String: [Int64: Int64]] = [:]
    guard !uuids.isEmpty else { return found }
    let list = SQLValue.text("[" + uuids.map { "\"\($0)\"" }.joinedText(",") + "]")
    try connection.query(
      "SELECT task_uuid, fire, delivered FROM reminder_delivery WHERE task_uuid IN (SELECT value FROM json_each(?))", [list]
    ) { row throws(DatabaseError) in
      found[try row.text(at: 0) ?? "", default: [:]][try row.integer(at: 1) ?? 0] = try row.integer(at: 2) ?? 0
    }
    return found
  }
}

extension Reminder {
  /// The SQL functions `todo_reminder_first(remind, due, due_day, scheduled, scheduled_day)` and
  /// `todo_reminder_last(…)`: the earliest and latest instant a task's reminders ring at (NULL
  /// for none), for `remind.before:`, `remind.after:` and `remind.by:` in filters.
  static let define = DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
    func fires(_ arguments: [SQLValue]) -> [Int64] {
      guard case .text(let stored) = arguments[0] else { return [] }
      func date(_ instant: SQLValue, _ day: SQLValue) -> TaskDate? {
        guard case .integer(let seconds) = instant else { return nil }
        if case .text(let text) = day, let parsed = CalendarDay(text: text) { return .day(parsed) }
        return .instant(seconds)
      }
      let due = date(arguments[1], arguments[2]), scheduled = date(arguments[3], arguments[4])
      return Reminder.list(stored: stored).compactMap { $0.fire(due: due, scheduled: scheduled) }
    }
    // Not deterministic: a reminder at a time of day is read in the zone of the moment.
    try connection.defineFunction("todo_reminder_first", argumentCount: 5, deterministic: false) { arguments in
      fires(arguments).min().map(SQLValue.integer) ?? .null
    }
    try connection.defineFunction("todo_reminder_last", argumentCount: 5, deterministic: false) { arguments in
      fires(arguments).max().map(SQLValue.integer) ?? .null
    }
  }

  /// The filter term of `remind.before:`, `remind.after:`, `remind.by:` (a reminder rings
  /// before, after, or by the date: a day counts whole).
  public static func term(_ comparison: DateComparison, _ date: TaskDate) -> FilterTerm {
    let arguments = "todo.remind, todo.due, todo.due_day, todo.scheduled, todo.scheduled_day"
    let start: Int64, end: Int64
    switch date {
    case .instant(let instant): (start, end) = (instant, instant)
    case .day(let day): (start, end) = (day.start, day.adding(days: 1).start - 1)
    }
    switch comparison {
    case .before: return .sql(Predicate(sql: "todo_reminder_first(\(arguments)) < ?", arguments: [.integer(start)]))
    case .after: return .sql(Predicate(sql: "todo_reminder_last(\(arguments)) > ?", arguments: [.integer(end)]))
    case .by: return .sql(Predicate(sql: "todo_reminder_first(\(arguments)) <= ?", arguments: [.integer(end)]))
    // Not offered by the filter parser (a middle reminder on the day is not seen): the first or
    // the last on it.
    case .on:
      return .sql(
        Predicate(
          sql: "(todo_reminder_first(\(arguments)) BETWEEN ?1 AND ?2 OR todo_reminder_last(\(arguments)) BETWEEN ?1 AND ?2)",
          arguments: [.integer(start), .integer(end)]))
    case .any: return VirtualTag.reminder.term(now: 0)
    case .none: return .not(VirtualTag.reminder.term(now: 0))
    }
  }
}
