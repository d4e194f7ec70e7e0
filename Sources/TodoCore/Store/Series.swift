import DataOperation

/// A recurring task: its rule and its template, the fields each new instance starts from (title,
/// priority, project, tags, and the dates of the series' first instance, from which every later
/// instance's dates follow). Its instances are tasks; at most one of them is pending.
struct Series: Entity {
  var id: Int64 = 0
  var uuid = ""
  var rule = RecurrenceRule(unit: .day)
  /// Title, priority, project, tags, due, wait, scheduled and until (the series' end).
  var template = Todo()
  /// When the series ended; nil while it goes on.
  var ended: Int64?
  var created: Int64 = 0
  var modified: Int64 = 0

  init() {}

  init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    uuid = try row.decode("uuid")
    let text: String = try row.decode("rule")
    guard let parsed = RecurrenceRule(parsing: text) else {
      throw .decoding(column: "rule", expected: "a recurrence rule", found: text, sql: "")
    }
    rule = parsed
    template.title = try row.decode("title")
    template.priority = try row.decode("priority")
    template.project = try row.decode("project")
    let tags: String = try row.decode("tags")
    template.tags = tags.split(separator: " ").map(String.init).sorted()
    template.due = try Todo.date(row, "due")
    template.wait = try Todo.date(row, "wait")
    template.scheduled = try Todo.date(row, "scheduled")
    template.until = try Todo.date(row, "until")
    ended = try row.decode("ended")
    created = try row.decode("created")
    modified = try row.decode("modified")
  }

  func encode(to columns: inout Columns) {
    columns["uuid"] = uuid
    columns["rule"] = rule.description
    columns["title"] = template.title
    columns["priority"] = template.priority
    columns["project"] = template.project
    // Space-separated, as `selectTodo` reads a task's tags: a tag holds no white space.
    columns["tags"] = template.tags.sorted().joinedText(" ")
    columns["due"] = template.due?.sortInstant
    columns["due_day"] = template.due?.dayText
    columns["wait"] = template.wait?.sortInstant
    columns["wait_day"] = template.wait?.dayText
    columns["scheduled"] = template.scheduled?.sortInstant
    columns["scheduled_day"] = template.scheduled?.dayText
    columns["until"] = template.until?.sortInstant
    columns["until_day"] = template.until?.dayText
    columns["ended"] = ended
    columns["created"] = created
    columns["modified"] = modified
  }

  /// The date the schedule counts from: the due date, else the scheduled one.
  var start: TaskDate? { template.due ?? template.scheduled }

  /// The dates of the instance whose anchor (due, else scheduled) is `anchor`: each template date
  /// moved by the days from the template's anchor to it, so wait and scheduled keep their offsets
  /// (an instant keeps its local time of day). Until is the series' end and stays as it is.
  func dates(at anchor: TaskDate) -> (due: TaskDate?, wait: TaskDate?, scheduled: TaskDate?) {
    guard let start else { return (nil, nil, nil) }
    let days = RecurrenceRule.days(from: start, to: anchor)
    func moved(_ date: TaskDate?) -> TaskDate? { date.map { RecurrenceRule.shifted($0, days: days) } }
    return (template.due == nil ? nil : anchor, moved(template.wait), template.due == nil ? anchor : moved(template.scheduled))
  }

  /// The next anchor dates after an instance, up to `count` of them, as the schedule stands now
  /// (for `show`; after-completion series have no fixed dates).
  func upcoming(after instance: Todo, count: Int, now: Int64) -> [TaskDate] {
    guard !rule.afterCompletion, ended == nil, let start, var previous = (template.due == nil ? instance.scheduled : instance.due)
    else { return [] }
    var dates: [TaskDate] = []
    // Shown as they will come: from the instance's own date on, never the past.
    let from = max(now, previous.sortInstant)
    while dates.count < count {
      guard let next = rule.next(after: previous, start: start, completed: from, now: from) else { break }
      if let until = template.until, RecurrenceRule.isAfter(next, until) { break }
      dates.append(next)
      previous = next
    }
    return dates
  }
}

extension TodoStore {
  static let seriesTable = Repository<Series>()

  /// Makes `todo` (already stored, changed as the command asked) the first instance of a new
  /// series with `rule`, its template taken from the task. A new task (`add`) gets the derived
  /// UUID of instance 1; a task that becomes a series keeps its own.
  static func startSeries(
    for todo: Todo, rule: RecurrenceRule, now: Int64, newTask: Bool, seriesUUID: String? = nil, on connection: Connection
  )
    throws(TodoError) -> Todo
  {
    guard todo.due != nil || todo.scheduled != nil else {
      let task = newTask ? "the new task" : "task \(todo.id)"
      throw .invalid("recur: needs a due or scheduled date to count from; give \(task) one (due:fri recur:weekly)")
    }
    guard todo.status == .pending else { throw .wrongStatus("task \(todo.id) is \(todo.status.rawValue): only a pending task can start a series") }
    let series = try database { () throws(DatabaseError) in
      try seriesTable.add { series in
        series.uuid = seriesUUID ?? UUIDGenerator.make()
        series.rule = rule
        series.template = todo
        series.created = now
        series.modified = now
      }.run(connection)
    }
    var instance = todo
    instance.seriesID = series.id
    instance.seriesIndex = 1
    if newTask, let uuid = UUIDGenerator.instance(1, of: series.uuid) { instance.uuid = uuid }
    try database { () throws(DatabaseError) in _ = try todos.update(instance, from: todo).run(connection) }
    return instance
  }

  /// After `closed` (an instance just completed or deleted at `now`) creates the series' next
  /// instance, with the derived UUID of its number: only after the series' latest instance, never
  /// two copies of one instance. Ends the series instead when its next date is after its until.
  /// Returns the new task's id, if one was made. The command's journal already holds the closed
  /// instance's snapshot, which holds the series as it was.
  static func advanceSeries(after closed: Todo, now: Int64, entry: JournalEntry, on connection: Connection)
    throws(DatabaseError) -> Int64?
  {
    guard let seriesID = closed.seriesID else { return nil }
    var series = try seriesTable.object(id: seriesID).run(connection)
    guard series.ended == nil, let start = series.start else { return nil }
    // Only the series' latest instance brings the next: an older one (Taskwarrior's overdue
    // series have one pending instance a missed period) closes with nothing after it.
    let later =
      Int(
        sqlValue: try connection.scalar(
          "SELECT count(*) FROM todo WHERE series_id = ? AND series_index > ?",
          [.integer(seriesID), .integer(Int64(closed.seriesIndex ?? 1))])) ?? 0
    if later > 0 {
      // An older instance closed: the series goes on after its latest when none is pending any
      // more (the latest was closed first).
      let pending =
        Int(
          sqlValue: try connection.scalar(
            "SELECT count(*) FROM todo WHERE series_id = ? AND status = 'pending'", [.integer(seriesID)])) ?? 0
      guard pending == 0,
        let latest = try connection.first(
          "SELECT * FROM todo WHERE series_id = ? ORDER BY series_index DESC LIMIT 1", [.integer(seriesID)],
          { row throws(DatabaseError) in try Todo(row: row) }),
        latest.id != closed.id, (latest.seriesIndex ?? 0) > (closed.seriesIndex ?? 0)
      else { return nil }
      return try advanceSeries(after: latest, now: now, entry: entry, on: connection)
    }
    let index = (closed.seriesIndex ?? 1) + 1
    guard let uuid = UUIDGenerator.instance(index, of: series.uuid) else { return nil }
    let taken = Int(sqlValue: try connection.scalar("SELECT count(*) FROM todo WHERE uuid = ?", [.text(uuid)])) ?? 0
    guard taken == 0 else { return nil }
    let previous = (series.template.due == nil ? closed.scheduled : closed.due) ?? start
    let anchor = series.rule.next(after: previous, start: start, completed: closed.completed ?? now, now: now)
    let dates = anchor.map { series.dates(at: $0) }
    // The series ends when its next date is after its until, or after 9999-12-31 (the last day
    // a task may hold: the end is noted on the instance that was closed).
    let pastLastDay = dates.map { [$0.due, $0.wait, $0.scheduled].contains { $0.map { !$0.isRepresentable } ?? false } } ?? true
    guard let anchor, let dates, !pastLastDay, !(series.template.until.map { RecurrenceRule.isAfter(anchor, $0) } ?? false) else {
      series.ended = now
      series.modified = now
      _ = try seriesTable.update(series).run(connection)
      if pastLastDay {
        _ = try notes.add { note in
          note.todoID = closed.id
          note.created = now
          note.text = "The series ended: its next date would be after 9999-12-31, the last day a task can hold."
        }.run(connection)
      }
      return nil
    }
    let template = series.template
    let next = try todos.add { todo in
      todo.uuid = uuid
      todo.title = template.title
      todo.priority = template.priority
      todo.project = template.project
      todo.tags = template.tags
      todo.due = dates.due
      todo.wait = dates.wait
      todo.scheduled = dates.scheduled
      todo.until = template.until
      todo.parentID = closed.parentID
      todo.seriesID = seriesID
      todo.seriesIndex = index
      // Reminders that count from the instance's dates go on with it; one at a fixed time was
      // for the instance closed.
      todo.reminders = closed.reminders.filter(\.isRelative)
      todo.created = now
      todo.modified = now
    }.run(connection)
    try Journal.recordCreated(entry: entry, todoID: next.id, on: connection)
    try writeTags(template.tags, of: next.id, replacing: false, on: connection)
    // Taskwarrior's attributes (user-defined ones among them) go on to the next instance, as
    // Taskwarrior copies its template's to each instance.
    try connection.execute(
      "INSERT INTO extra (todo_id, format, name, value) SELECT ?, format, name, value FROM extra WHERE todo_id = ? AND format = 'taskwarrior'",
      [.integer(next.id), .integer(closed.id)])
    return next.id
  }

  /// Ends a series: no instance comes after the current one.
  static func endSeries(_ id: Int64, now: Int64, on connection: Connection) throws(DatabaseError) {
    try connection.execute("UPDATE series SET ended = ?, modified = ? WHERE id = ? AND ended IS NULL", [.integer(now), .integer(now), .integer(id)])
  }

  /// Changes a series' rule.
  static func changeRule(of id: Int64, to rule: RecurrenceRule, now: Int64, on connection: Connection) throws(TodoError) {
    try database { () throws(DatabaseError) in
      var series = try seriesTable.object(id: id).run(connection)
      series.rule = rule
      series.modified = now
      _ = try seriesTable.update(series).run(connection)
    }
  }

  /// Applies a change to a series' template (`update --series`), given the instance it was
  /// made on before and after the change. Title, priority, project and tags change as on a task.
  /// A date is the instance's new date moved back into the template's frame (the series' first
  /// dates), by the days between the template's anchor and the instance's: `wait:fri` on this
  /// week's instance is a wait the same distance before each instance's due. Until is the series'
  /// end and is taken as it is.
  static func changeSeries(
    _ id: Int64, _ changes: TodoChanges, instance: (before: Todo, after: Todo), now: Int64, on connection: Connection
  ) throws(TodoError) {
    var series = try database { () throws(DatabaseError) in try seriesTable.object(id: id).run(connection) }
    var template = series.template
    let frame: Int64 = {
      guard let start = series.start, let anchor = template.due == nil ? instance.before.scheduled : instance.before.due
      else { return 0 }
      return RecurrenceRule.days(from: start, to: anchor)
    }()
    var plain = changes
    plain.due = nil
    plain.wait = nil
    plain.scheduled = nil
    plain.until = nil
    template.id = 0
    try plain.apply(to: &template, now: now)
    func back(_ date: TaskDate?) -> TaskDate? { date.map { RecurrenceRule.shifted($0, days: -frame) } }
    if changes.due != nil { template.due = back(instance.after.due) }
    if changes.wait != nil { template.wait = back(instance.after.wait) }
    if changes.scheduled != nil { template.scheduled = back(instance.after.scheduled) }
    if changes.until != nil { template.until = instance.after.until }
    guard template.due != nil || template.scheduled != nil else {
      throw .invalid("a series needs a due or scheduled date to count from; to stop it, use recur: or delete --series")
    }
    series.template = template
    series.modified = now
    try database { () throws(DatabaseError) in _ = try seriesTable.update(series).run(connection) }
  }

  /// Each task's series' latest pending instance in its place (the task itself when its series has
  /// none, or it has no series), without repeats: `update --series` changes the series and its
  /// current instance.
  static func currentInstances(of ids: [Int64], on connection: Connection) throws(TodoError) -> [Int64] {
    let list = SQLValue.text("[" + ids.map(String.init).joinedText(",") + "]")
    let mapped = try database { () throws(DatabaseError) in
      try connection.all(
        """
        SELECT coalesce((SELECT current.id FROM todo AS current
                         WHERE current.series_id = todo.series_id AND current.status = 'pending'
                         ORDER BY current.series_index DESC LIMIT 1), todo.id)
        FROM todo WHERE todo.id IN (SELECT value FROM json_each(?))
        """, [list]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
    }
    return Array(Set(mapped)).sorted()
  }

  /// The next dates of a task's series, for `show`.
  public static func upcomingDates(of todo: Todo, count: Int, now: Int64) -> DataOperation<[TaskDate], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      guard let id = todo.seriesID else { return [] }
      return try seriesTable.object(id: id).run(connection).upcoming(after: todo, count: count, now: now)
    }.mapError(TodoError.init)
  }
}

/// A series as an export that has a place for it writes it (Taskwarrior's `recurring` template):
/// its rule, its template (the title, priority, project, tags and dates of its first instance),
/// when it ended, and the status of each of its instances that is stored, by number.
public struct SeriesTemplate: Sendable, Equatable {
  public var uuid: String
  public var rule: RecurrenceRule
  public var template: Todo
  public var ended: Int64?
  public var created: Int64
  public var modified: Int64
  /// The status of each stored instance, by its number (from 1).
  public var instances: [Int: Status]
  /// The due date of the latest instance (the highest number).
  public var latestDue: TaskDate?
  /// The latest instance's Taskwarrior attributes (user-defined ones), which a template carries
  /// to the instances Taskwarrior makes of it.
  public var extras: [TaskExtra] = []

  public init(
    uuid: String, rule: RecurrenceRule, template: Todo, ended: Int64? = nil, created: Int64, modified: Int64,
    instances: [Int: Status] = [:], latestDue: TaskDate? = nil
  ) {
    self.uuid = uuid
    self.rule = rule
    self.template = template
    self.ended = ended
    self.created = created
    self.modified = modified
    self.instances = instances
    self.latestDue = latestDue
  }
}

extension TodoStore {
  /// The series the records' tasks are instances of, in the order they first appear, each with
  /// the status of every instance stored.
  public static func seriesTemplates(of records: [TaskRecord]) -> DataOperation<[SeriesTemplate], TodoError> {
    var seen: Set<String> = []
    let uuids = records.compactMap { record in record.todo.series.flatMap { seen.insert($0.uuid).inserted ? $0.uuid : nil } }
    return DataOperation { connection throws(DatabaseError) in
      var templates: [SeriesTemplate] = []
      // Few: a query or two each, by the unique index on the series' UUID and todo_by_series.
      for uuid in uuids {
        guard
          let series = try connection.first(
            "SELECT * FROM series WHERE uuid = ?", [.text(uuid)], { row throws(DatabaseError) in try Series(row: row) })
        else { continue }
        var instances: [Int: Status] = [:]
        var latestDue: TaskDate?
        var latestID: Int64 = 0
        try connection.query(
          "SELECT * FROM todo WHERE series_id = ? AND series_index IS NOT NULL ORDER BY series_index", [.integer(series.id)]
        ) { row throws(DatabaseError) in
          let todo = try Todo(row: row)
          instances[todo.seriesIndex ?? 0] = todo.status
          latestDue = todo.due
          latestID = todo.id
        }
        var template = SeriesTemplate(
          uuid: series.uuid, rule: series.rule, template: series.template, ended: series.ended, created: series.created,
          modified: series.modified, instances: instances, latestDue: latestDue)
        template.extras = (try loadExtras(of: [latestID], on: connection)[latestID] ?? []).filter { $0.format == "taskwarrior" }
        templates.append(template)
      }
      return templates
    }.mapError(TodoError.init)
  }
}
