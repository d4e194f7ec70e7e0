import DataOperation

/// What another program stored with a task that `todo` has no field for (see `Schema.version4`).
public struct TaskExtra: Sendable, Equatable, Hashable {
  /// `taskwarrior`, `todotxt` or `ical`.
  public var format: String
  public var name: String
  public var value: String

  public init(format: String, name: String, value: String) {
    self.format = format
    self.name = name
    self.value = value
  }
}

/// A task as it travels between `todo` and other programs: the task (with its notes, intervals,
/// parent, dependencies and series given by UUID) and what other programs keep with it.
///
/// On import `todo.id` is ignored; `todo.parentUUID`, the UUIDs in `todo.depends` and
/// `todo.series` (its UUID, instance number and rule) say how it links to other tasks.
public struct TaskRecord: Sendable, Equatable {
  public var todo: Todo
  /// Sorted by format and name.
  public var extras: [TaskExtra]
  /// Where the record starts in its file (1-based), for errors; 0 when it is not from a file.
  public var line: Int
  /// The file it came from when an import reads several (a vdir's `.ics` files), for errors.
  public var source = ""
  /// The record carries only what todo.txt can say (title, status, priority, project, tags, due,
  /// wait, the day it was completed): an existing task keeps everything else (its series and
  /// creation time too), and is updated whenever those differ (todo.txt has no modification times).
  public var partial: Bool
  /// The input said nothing about extras (JSON without an `extras` key, such as edited `list
  /// --json` output): an existing task keeps its own.
  public var keepsStoredExtras = false
  /// Not a task but the template of the series `todo.series` names (Taskwarrior's `recurring`
  /// parent): its title, priority, project, tags and dates (those of the series' first instance),
  /// its rule, creation and modification times, and `series.ended` when it was deleted. An import
  /// makes or updates the series from it; it is never a task of its own.
  public var isSeriesTemplate = false
  /// Reminders already delivered or acknowledged: the instant each was for → when (iCalendar's
  /// `ACKNOWLEDGED`). An import records them, so a reminder a phone showed does not ring here.
  public var acknowledged: [Int64: Int64] = [:]

  public init(todo: Todo = Todo(), extras: [TaskExtra] = [], line: Int = 0, partial: Bool = false) {
    self.todo = todo
    self.extras = extras
    self.line = line
    self.partial = partial
  }

  /// Where the record is, for errors: `line 4`, or `work/a.ics line 4`.
  public var place: String {
    let at = line > 0 ? "line \(line)" : ""
    return source.isEmpty ? at : at.isEmpty ? source : source + " " + at
  }

  /// `stored` with the fields a partial record carries taken from this one.
  func merged(into stored: TaskRecord) -> TaskRecord {
    var merged = stored
    // Still a partial record: what comes after the merge (a series advanced or its rule changed
    // by a todo.txt line) asks.
    merged.partial = true
    let incoming = todo
    merged.todo.title = incoming.title
    merged.todo.status = incoming.status
    merged.todo.priority = incoming.priority
    merged.todo.project = incoming.project
    merged.todo.tags = incoming.tags
    merged.todo.due = incoming.due
    merged.todo.wait = incoming.wait
    // `rec:` edited in todo.txt: the series takes the new rule (a line without `rec:` leaves
    // the series as it is: todo.txt is no place to end one).
    if let rule = incoming.series?.rule, merged.todo.series != nil { merged.todo.series?.rule = rule }
    if incoming.status == .pending {
      merged.todo.completed = nil
    } else if incoming.completed == nil {
      // Done without a date (todo.txt's `x` alone): when it was done, if the stored task says.
      merged.todo.completed = stored.todo.status == .pending ? nil : stored.todo.completed
    } else if stored.todo.completed.map(CalendarDay.local) != incoming.completed.map(CalendarDay.local) {
      merged.todo.completed = incoming.completed
    }
    let formats = Set(extras.map(\.format))
    merged.extras = stored.extras.filter { !formats.contains($0.format) } + extras
    // The line as it came back from an export of ours, which added ` uuid:` to it: the same line.
    if let incomingLine = extras.first(where: { $0.format == "todotxt" && $0.name == "line" })?.value,
      let storedLine = stored.extras.first(where: { $0.format == "todotxt" && $0.name == "line" })?.value,
      !storedLine.contains("uuid:"), incomingLine == storedLine.trimmingTrailingBlanks + " uuid:" + stored.todo.uuid,
      let index = merged.extras.firstIndex(where: { $0.format == "todotxt" && $0.name == "line" })
    {
      merged.extras[index].value = storedLine
    }
    return merged
  }

  /// The same task in every field an import writes (ids, progress and blocking aside).
  func sameContent(as other: TaskRecord) -> Bool {
    func comparable(_ record: TaskRecord) -> [String] {
      let todo = record.todo
      return [
        todo.uuid, todo.title, todo.status.rawValue, todo.priority?.rawValue ?? "", todo.project ?? "",
        todo.tags.sorted().joinedText(" "), todo.due?.text ?? "", todo.wait?.text ?? "", todo.scheduled?.text ?? "",
        todo.until?.text ?? "", todo.reason ?? "", String(todo.created), String(todo.modified),
        todo.completed.map(String.init) ?? "", todo.parentUUID ?? "",
        todo.depends.map(\.uuid).sorted().joinedText(","),
        todo.notes.map { "\($0.created) \($0.text)" }.joinedText("\n"),
        todo.intervals.map { "\($0.started)-\($0.stopped.map(String.init) ?? "")" }.joinedText(","),
        todo.series.map { "\($0.uuid) \($0.index) \($0.rule.description)" } ?? "",
        todo.reminders.map(\.text).joinedText(","),
        // An iCalendar SEQUENCE (revisions another program saw) and the task's file in a vdir are
        // not the task's content.
        record.extras.filter { !($0.format == "ical" && ($0.name == "sequence" || $0.name == "file")) }
          .sorted { ($0.format, $0.name) < ($1.format, $1.name) }
          .map { "\($0.format)\u{1}\($0.name)\u{1}\($0.value)" }.joinedText("\u{2}"),
      ]
    }
    return comparable(self) == comparable(other)
  }
}

/// What an import did, task by task (ids in the order of the input).
public struct ImportReport: Sendable, Equatable {
  /// New tasks.
  public var added: [Int64] = []
  /// Tasks whose incoming copy was newer (`modified`) and different.
  public var updated: [Int64] = []
  /// Tasks the incoming copy matches exactly.
  public var unchanged: [Int64] = []
  /// Tasks whose incoming copy differs but is not newer: kept as they are.
  public var skipped: [Int64] = []
  /// Links that could not be made (a dependency or parent that is in neither the input nor the
  /// database), one sentence each.
  public var warnings: [String] = []
  /// The next instances of series whose pending instance the input closed (made as `done` makes
  /// them; not among the input's tasks).
  public var nextInstances: [Int64] = []
  /// Tasks here that an import linked to a task it added (a subtask that came before its
  /// parent, a dependency kept by UUID), by id.
  public var linked: [Int64] = []
  /// The UUIDs of tasks a sync's merge took a link from, to break a cycle (see `importRecords`):
  /// their new state has to be sent back.
  public var unlinked: [String] = []
  /// The records left out because they cannot be stored (an import that is not `strict`), each
  /// as its place and the reason (`line 4: a task needs a title`).
  public var rejected: [String] = []
  public var summary = ""

  public init() {}

  /// Added and updated: the tasks of the input the import wrote.
  public var changedCount: Int { added.count + updated.count }
}

extension TodoStore {
  /// Every task a filter selects, in id order, as records to export (with notes, links, series,
  /// intervals and extras).
  public static func records(_ filter: TodoFilter, now: Int64) -> DataOperation<[TaskRecord], TodoError> {
    if filter.comparesUrgency { return resolvingUrgency(filter, now: now) { records($0, now: now) } }
    let matching = resolve(filter, now: now)
    return DataOperation { connection throws(TodoError) in
      // A filter that matches nothing exports nothing (an empty file), rather than failing.
      let ids: [Int64]
      do throws(TodoError) { ids = try matching.run(connection) } catch .noMatch { ids = [] }
      return try database { () throws(DatabaseError) in
        var todos = try loadAll(ids, on: connection)
        let extras = try loadExtras(of: ids, on: connection)
        try addPendingLinks(to: &todos, on: connection)
        let delivered = try loadDeliveries(of: todos.filter { !$0.reminders.isEmpty }.map(\.uuid), on: connection)
        return todos.map { todo in
          var record = TaskRecord(todo: todo, extras: extras[todo.id] ?? [])
          record.acknowledged = delivered[todo.uuid] ?? [:]
          return record
        }
      }
    }
  }

  /// The iCalendar UIDs of the tasks that `records` link to (parents, dependencies) but that are
  /// not among them, by task UUID, for those read from iCalendar with a UID of their own: an
  /// export of some tasks names a linked task outside them as the phone knows it.
  public static func icalUIDsOfLinkedTasks(outside records: [TaskRecord]) -> DataOperation<[String: String], TodoError> {
    let inside = Set(records.map(\.todo.uuid))
    var outside: Set<String> = []
    for record in records {
      for uuid in [record.todo.parentUUID].compactMap({ $0 }) + record.todo.depends.map(\.uuid) where !inside.contains(uuid) {
        outside.insert(uuid)
      }
    }
    let uuids = outside.sorted()
    return DataOperation { connection throws(TodoError) in
      try database { () throws(DatabaseError) in
        var uids: [String: String] = [:]
        // Few: a query each, by the unique index on uuid and the extra's key.
        for uuid in uuids {
          let uid = try connection.first(
            """
            SELECT extra.value FROM todo JOIN extra ON extra.todo_id = todo.id AND extra.format = 'ical' AND extra.name = 'uid'
            WHERE todo.uuid = ?
            """, [.text(uuid)]
          ) { row throws(DatabaseError) in try row.text(at: 0) }
          if let uid = uid ?? nil { uids[uuid] = uid }
        }
        return uids
      }
    }
  }

  /// The links each task keeps by UUID (to a task that is not here), by task id: the parent's
  /// UUID and the dependencies' (for `show`).
  public static func keptLinks(of ids: [Int64]) -> DataOperation<[Int64: (parent: String?, depends: [String])], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      guard !ids.isEmpty else { return [:] }
      var links: [Int64: (parent: String?, depends: [String])] = [:]
      try connection.query(
        "SELECT todo_id, kind, uuid FROM pending_link WHERE todo_id IN (SELECT value FROM json_each(?)) ORDER BY todo_id, kind, uuid",
        [.text("[" + ids.map(String.init).joinedText(",") + "]")]
      ) { row throws(DatabaseError) in
        let id = try row.integer(at: 0) ?? 0
        let uuid = try row.text(at: 2) ?? ""
        var entry = links[id] ?? (nil, [])
        if try row.text(at: 1) == "parent" { entry.parent = uuid } else { entry.depends.append(uuid) }
        links[id] = entry
      }
      return links
    }.mapError(TodoError.init)
  }

  /// The links kept by UUID (see `link`), as the links they are in an export: the parent's UUID,
  /// a dependency's. (Not in lists and `show`, where a link is to a task that is here.)
  static func addPendingLinks(to todos: inout [Todo], on connection: Connection) throws(DatabaseError) {
    guard Int(sqlValue: try connection.scalar("SELECT EXISTS (SELECT 1 FROM pending_link)")) == 1 else { return }
    var indexOf: [Int64: Int] = [:]
    for (index, todo) in todos.enumerated() { indexOf[todo.id] = index }
    try connection.query("SELECT todo_id, kind, uuid FROM pending_link ORDER BY todo_id, kind, uuid") { row throws(DatabaseError) in
      guard let index = indexOf[try row.integer(at: 0) ?? 0], let uuid = try row.text(at: 2) else { return }
      if try row.text(at: 1) == "parent" {
        if todos[index].parentUUID == nil { todos[index].parentUUID = uuid }
      } else if !todos[index].depends.contains(where: { $0.uuid == uuid }) {
        todos[index].depends.append(TaskLink(id: 0, uuid: uuid, isOpen: true))
      }
    }
  }

  /// For `TodoTxt.matches`: which of `uuids` are tasks here, and the UUIDs and imported todo.txt
  /// lines of the other tasks that have one.
  public static func todoTxtLines(among uuids: [String])
    -> DataOperation<(known: Set<String>, others: [(uuid: String, line: String)]), TodoError>
  {
    DataOperation { connection throws(DatabaseError) in
      let list = SQLValue.text("[" + uuids.map { "\"\($0)\"" }.joinedText(",") + "]")
      let known = try connection.all("SELECT uuid FROM todo WHERE uuid IN (SELECT value FROM json_each(?))", [list]) {
        row throws(DatabaseError) in try row.text(at: 0) ?? ""
      }
      let others = try connection.all(
        """
        SELECT todo.uuid, extra.value FROM extra JOIN todo ON todo.id = extra.todo_id
        WHERE extra.format = 'todotxt' AND extra.name = 'line' AND todo.uuid NOT IN (SELECT value FROM json_each(?))
        ORDER BY todo.id
        """, [list]
      ) { row throws(DatabaseError) in (uuid: try row.text(at: 0) ?? "", line: try row.text(at: 1) ?? "") }
      return (Set(known), others)
    }.mapError(TodoError.init)
  }

  /// The extras of tasks, by task id, each task's sorted by format and name.
  static func loadExtras(of ids: [Int64], on connection: Connection) throws(DatabaseError) -> [Int64: [TaskExtra]] {
    guard !ids.isEmpty else { return [:] }
    var extras: [Int64: [TaskExtra]] = [:]
    try connection.query(
      """
      SELECT todo_id, format, name, value FROM extra
      WHERE todo_id IN (SELECT value FROM json_each(?)) ORDER BY todo_id, format, name
      """, [.text("[" + ids.map(String.init).joinedText(",") + "]")]
    ) { row throws(DatabaseError) in
      let extra = TaskExtra(
        format: try row.text(at: 1) ?? "", name: try row.text(at: 2) ?? "", value: try row.text(at: 3) ?? "")
      extras[try row.integer(at: 0) ?? 0, default: []].append(extra)
    }
    return extras
  }

  /// Imports tasks in one transaction and one undo step. A task whose UUID is new is added with
  /// its UUID, times, notes and intervals; one that exists is updated only when the incoming copy
  /// is newer (`modified`) and different, else counted unchanged (identical) or skipped (older).
  /// Parents and dependencies are linked by UUID once every task is in; a series is found by
  /// its UUID or started with the incoming rule.
  ///
  /// ```swift
  /// let report = try TodoStore.importRecords(records, now: now, command: "import tasks.json").operate(in: context)
  /// ```
  /// - Throws: `TodoError.invalid` naming the record's line for a task that cannot be stored (an
  ///   empty title, a bad tag, a UUID given twice, a dependency cycle) when `strict`; nothing is
  ///   written then. Not `strict`, such a record is left out and named in `ImportReport.rejected`,
  ///   and a cycle of links is broken as a sync's merge breaks it.
  ///
  /// `replacingChanged` (a sync's merge, whose records already hold what both sides changed):
  /// a record that differs from the stored task replaces it whatever its `modified`; and links
  /// that close a cycle (each machine added one half of it) are dropped with a warning rather
  /// than refused, since a refusal would stop every later sync too. The link dropped is the
  /// cycle's greatest by its tasks' UUIDs: every machine that meets the cycle drops the same
  /// one, whatever it had synced before (a rule that spared a machine's own or older links would
  /// let two machines that both met the cycle each drop the other's link, and lose both).
  public static func importRecords(
    _ records: [TaskRecord], now: Int64, command: String, replacingChanged: Bool = false, strict: Bool = true
  ) -> DataOperation<ImportReport, TodoError> {
    Journal.begin(command: command, now: now).flatMap { entry in
      DataOperation { connection throws(TodoError) -> ImportReport in
        var report = ImportReport()
        let (templates, tasks) = splitTemplates(records)
        let records = try validate(tasks, strict: strict, rejected: &report.rejected)
        var idOf: [String: Int64] = [:]
        var written: [(record: TaskRecord, id: Int64)] = []
        // Series instances the input closes (see below).
        var closedInstances: [Todo] = []
        for record in records {
          // Deliveries another device made: recorded whatever becomes of the task (not an undo step).
          try acknowledge(record.acknowledged.sorted { $0.key < $1.key }.map { (record.todo.uuid, $0.key, $0.value) }).run(connection)
          let existing = try database { () throws(DatabaseError) in
            try connection.first("SELECT id FROM todo WHERE uuid = ?", [.text(record.todo.uuid)]) {
              row throws(DatabaseError) in try row.integer(at: 0) ?? 0
            }
          }
          if let id = existing {
            idOf[record.todo.uuid] = id
            let stored = try database { () throws(DatabaseError) in try storedRecord(id, on: connection) }
            var record = record
            if record.keepsStoredExtras { record.extras = stored.extras }
            if let warning = try staleSeriesLine(record, stored: stored.todo, id: id, on: connection) {
              report.warnings.append(warning)
              report.skipped.append(id)
              continue
            }
            if record.partial {
              record = record.merged(into: stored)
              if record.todo.status != .pending && record.todo.completed == nil { record.todo.completed = now }
              record.todo.modified = stored.sameContent(as: record) ? stored.todo.modified : max(now, stored.todo.modified + 1)
            }
            try keepVdirBookkeeping(&record, stored: stored, id: id, on: connection)
            if stored.sameContent(as: record) {
              report.unchanged.append(id)
            } else if replacingChanged || record.todo.modified > stored.todo.modified {
              try database { () throws(DatabaseError) in
                try Journal.record(entry: entry, todoIDs: [id], on: connection)
                try write(record, over: stored.todo, on: connection)
              }
              if !replacingChanged, let instance = closedInstance(record, stored: stored.todo) { closedInstances.append(instance) }
              report.updated.append(id)
              written.append((record, id))
            } else {
              report.skipped.append(id)
            }
          } else {
            let record = completed(record, now: now)
            let id = try database { () throws(DatabaseError) in
              let id = try write(record, over: nil, on: connection)
              try Journal.recordCreated(entry: entry, todoID: id, on: connection)
              return id
            }
            idOf[record.todo.uuid] = id
            report.added.append(id)
            // Linking and series need only the new tasks that have links or a series.
            if record.todo.parentUUID != nil || !record.todo.depends.isEmpty || record.todo.series != nil {
              written.append((record, id))
            }
          }
        }
        // A cycle of links is broken (one link dropped, with a warning) rather than refused in a
        // sync's merge, and in an import that takes what it can.
        let breaking =
          replacingChanged || !strict
          ? CycleBreaking(entry: entry, now: now, with: replacingChanged ? "the other side's links" : "the other links") : nil
        try link(written, idOf: idOf, report: &report, breakingCycles: breaking, on: connection)
        try resolvePendingLinks(to: report.added, entry: entry, report: &report, on: connection)
        try joinSeries(written, templates: templates, on: connection)
        report.nextInstances += try nextInstances(of: templates, now: now, entry: entry, on: connection)
        // A series instance a todo.txt line marks done (`x`, in a text editor or todo.txt-cli)
        // brings the series' next instance, as `todo done` does, with the derived UUID of its
        // number; not when the series has ended (`advanceSeries` checks). Unless the file brings
        // a next one of its own: Simpletask and todo.txt's rec add-on add the next occurrence
        // themselves, as a new recurring line of the same title; making ours too would leave two.
        // Only todo.txt: a calendar or another todo that closes an instance sends its own next one
        // (todoman clones the item; our exports carry the next instance), a phone's deletion or
        // CANCELLED is no completion, and a Taskwarrior export has its next child already.
        if !closedInstances.isEmpty {
          report.nextInstances += try nextInstances(
            closing: closedInstances, records: records, added: Set(report.added), idOf: idOf, now: now, entry: entry, on: connection)
        }
        let counts = [
          (report.added.count, "added"), (report.updated.count, "updated"), (report.unchanged.count, "unchanged"),
          (report.skipped.count, "skipped"),
        ]
        report.summary =
          "imported \(records.count) task\(records.count == 1 ? "" : "s"): "
          + counts.map { "\($0.0) \($0.1)" }.joinedText(", ")
        return report
      }
      .flatMap { report in
        // An import that changed nothing leaves no undo step.
        guard report.changedCount > 0 else {
          return DataOperation { connection throws(TodoError) in
            try database { () throws(DatabaseError) in
              try connection.execute("DELETE FROM journal_entry WHERE id = ?", [.integer(entry.id)])
            }
            return report
          }
        }
        return Journal.finish(entry, summary: report.summary).map { _ in report }
      }
    }
    .transaction()
  }

  /// The series instance a record closes, as it is closed: only a todo.txt line marked `x`
  /// (see `importRecords`); every other source of a closed instance brings its own next one, or
  /// means something else by closing it.
  private static func closedInstance(_ record: TaskRecord, stored: Todo) -> Todo? {
    guard record.partial, stored.status == .pending, record.todo.status == .done, stored.seriesID != nil else { return nil }
    var instance = stored
    instance.status = .done
    instance.completed = record.todo.completed
    instance.due = record.todo.due
    instance.wait = record.todo.wait
    return instance
  }

  /// A record of a task that is not here yet as it is stored: a partial one (a todo.txt line)
  /// gets what the line leaves out (a completion and creation time, and a scheduled day for a
  /// series with no date).
  private static func completed(_ record: TaskRecord, now: Int64) -> TaskRecord {
    var record = record
    if record.partial && record.todo.status != .pending && record.todo.completed == nil { record.todo.completed = now }
    if record.partial, record.todo.series != nil, record.todo.due == nil, record.todo.scheduled == nil {
      record.todo.scheduled = .day(CalendarDay.local(now))
    }
    if record.partial && record.todo.created == 0 {
      record.todo.created = now
      record.todo.modified = max(now, record.todo.completed ?? now)
    }
    return record
  }

  /// Bookkeeping of a vdir, not the task's content (`sameContent` leaves it out): the name of the
  /// task's file is the task's for good (only a vdir import, which reads it, sets it), and
  /// SEQUENCE keeps the highest number seen. Recorded even when the task itself is kept as it is,
  /// outside the undo journal (undo has no content of it to restore).
  private static func keepVdirBookkeeping(_ record: inout TaskRecord, stored: TaskRecord, id: Int64, on connection: Connection)
    throws(TodoError)
  {
    for name in ["file", "sequence"] {
      let storedExtra = stored.extras.first { $0.format == "ical" && $0.name == name }
      guard let incoming = record.extras.first(where: { $0.format == "ical" && $0.name == name }) else {
        if let storedExtra { record.extras.append(storedExtra) }
        continue
      }
      if name == "sequence", let storedExtra, Self.sequenceNumber(storedExtra.value) > Self.sequenceNumber(incoming.value) {
        record.extras.removeAll { $0 == incoming }
        record.extras.append(storedExtra)
        continue
      }
      if incoming != storedExtra {
        try database { () throws(DatabaseError) in
          try connection.execute(
            "INSERT OR REPLACE INTO extra (todo_id, format, name, value) VALUES (?, 'ical', ?, ?)",
            [.integer(id), .text(name), .text(incoming.value)])
        }
      }
    }
    record.extras.sort { ($0.format, $0.name) < ($1.format, $1.name) }
  }

  /// The next instances of the series whose instances todo.txt lines closed (see
  /// `importRecords`), leaving out a series the file brings a new pending line of the same
  /// title for (Simpletask's and the rec add-on's own next occurrence).
  private static func nextInstances(
    closing closed: [Todo], records: [TaskRecord], added: Set<Int64>, idOf: [String: Int64], now: Int64, entry: JournalEntry,
    on connection: Connection
  ) throws(TodoError) -> [Int64] {
    let addedTitles = Set(
      records.filter { $0.todo.status == .pending && $0.todo.series != nil && added.contains(idOf[$0.todo.uuid] ?? -1) }.map(\.todo.title))
    var next: [Int64] = []
    for instance in closed where !addedTitles.contains(instance.title) {
      let made = try database { () throws(DatabaseError) in try advanceSeries(after: instance, now: now, entry: entry, on: connection) }
      if let made { next.append(made) }
    }
    return next
  }

  /// Why one record cannot be stored on its own (a bad title, tag or project, a done task without
  /// a completion time, a link to itself, a time interval ending before it starts, an unknown
  /// extra format), or nil. A sync skips such an item; an import leaves it out (or, `strict`,
  /// refuses the whole input).
  public static func problem(in record: TaskRecord) -> String? {
    let todo = record.todo
    do {
      try Validation.title(todo.title)
      for tag in todo.tags { try Validation.tag(tag) }
      if let project = todo.project { try Validation.project(project) }
    } catch {
      return "\(error.description) (task \(todo.uuid))"
    }
    if let field = unrepresentableDate(in: record) {
      return "task \(todo.uuid): \(field) is out of range: \(Timestamp.outOfRangeReason)"
    }
    // A deleted task keeps the completion time it had (none, if it was deleted while pending).
    // todo.txt's `x` without a date is done when the import says (see `importRecords`).
    if todo.status == .done && todo.completed == nil && !record.partial {
      return "task \(todo.uuid) is done but has no completion time"
    }
    if todo.depends.contains(where: { $0.uuid == todo.uuid }) || todo.parentUUID == todo.uuid {
      return "task \(todo.uuid) cannot depend on itself or be its own parent"
    }
    for interval in todo.intervals {
      if let stopped = interval.stopped, stopped < interval.started {
        return "task \(todo.uuid) has a time interval that ends before it starts"
      }
    }
    if let extra = record.extras.first(where: { !["taskwarrior", "todotxt", "ical"].contains($0.format) }) {
      return "extra format '\(extra.format)' is not one of taskwarrior, todotxt, ical"
    }
    return nil
  }

  /// Why a todo.txt line is older than its task here, or nil: the line is still pending for a
  /// series instance closed here whose series has gone on to its next instance (reopening it
  /// would make two pending instances of the series). Such a line is left as it is.
  private static func staleSeriesLine(_ record: TaskRecord, stored: Todo, id: Int64, on connection: Connection) throws(TodoError)
    -> String?
  {
    guard record.partial, record.todo.status == .pending, stored.status != .pending, let series = stored.seriesID else { return nil }
    let next = try database { () throws(DatabaseError) in
      try connection.first(
        "SELECT id FROM todo WHERE series_id = ? AND status = 'pending' AND id != ?", [.integer(series), .integer(id)]
      ) { row throws(DatabaseError) in try row.integer(at: 0) ?? 0 }
    }
    guard let next else { return nil }
    let place = record.place.isEmpty ? "" : record.place + ": "
    return "\(place)task \(id) is \(stored.status.rawValue) here and its series went on to task \(next); the line is older, and is left as it is"
  }

  /// The name of the first date of a record outside `Timestamp.representable` (every format's
  /// reader checks its own, so this is the last guard of the store, whatever the source).
  public static func unrepresentableDate(in record: TaskRecord) -> String? {
    let todo = record.todo
    let dates: [(String, TaskDate?)] = [("due", todo.due), ("wait", todo.wait), ("scheduled", todo.scheduled), ("until", todo.until)]
    if let (name, _) = dates.first(where: { $0.1.map { !$0.isRepresentable } ?? false }) { return name }
    let instants: [(String, Int64?)] =
      [("created", todo.created), ("modified", todo.modified), ("completed", todo.completed), ("series end", todo.series?.ended)]
      + todo.intervals.flatMap { [("a time interval's start", $0.started), ("a time interval's end", $0.stopped)] }
      + todo.notes.map { ("a note's time", $0.created) }
    return instants.first { $0.1.map { !Timestamp.representable.contains($0) } ?? false }?.0
  }

  /// The records that can be stored. A record that cannot is refused, naming its line: `strict`,
  /// by throwing (nothing is imported); otherwise it is left out and named in `rejected`.
  private static func validate(_ records: [TaskRecord], strict: Bool, rejected: inout [String]) throws(TodoError) -> [TaskRecord] {
    var lineOf: [String: String] = [:]
    // The indices left out: the records are copied only when there are some (an import of 100k
    // tasks holds them once).
    var leftOut: Set<Int> = []
    for (index, record) in records.enumerated() {
      let todo = record.todo
      var reason: String?
      if todo.uuid.isEmpty {
        reason = "the task has no UUID"
      } else if let first = lineOf[todo.uuid] {
        reason = "UUID \(todo.uuid) is given twice (also at \(first)); give each task once"
      } else if let problem = problem(in: record) {
        reason = problem
      } else if todo.intervals.count(where: { $0.stopped == nil }) > 1 {
        reason = "task \(todo.uuid) has more than one time interval that has not ended"
      }
      guard let reason else {
        lineOf[todo.uuid] = record.place
        continue
      }
      let placed = record.place.isEmpty ? reason : "\(record.place): \(reason)"
      if strict { throw .invalid(placed) }
      rejected.append(placed)
      leftOut.insert(index)
    }
    guard !leftOut.isEmpty else { return records }
    return records.enumerated().filter { !leftOut.contains($0.offset) }.map(\.element)
  }

  /// Writes a record's row, tags, notes, intervals and extras (links and series come after every
  /// task is in). Returns the task's id.
  @discardableResult
  private static func write(_ record: TaskRecord, over stored: Todo?, on connection: Connection) throws(DatabaseError)
    -> Int64
  {
    var row = record.todo
    row.parentID = stored?.parentID
    row.seriesID = stored?.seriesID
    row.seriesIndex = stored?.seriesIndex
    let id: Int64
    if let stored {
      row.id = stored.id
      _ = try todos.update(row, from: stored).run(connection)
      id = stored.id
      for table in ["note", "interval", "extra"] {
        try connection.execute("DELETE FROM \(table) WHERE todo_id = ?", [.integer(id)])
      }
      try updateTags(from: stored.tags, to: row.tags, of: id, on: connection)
    } else {
      let draft = row
      id = try todos.add { todo in
        todo = draft
        todo.id = 0
      }.run(connection).id
      try writeTags(row.tags, of: id, replacing: false, on: connection)
    }
    for note in row.notes {
      try connection.execute(
        "INSERT INTO note (todo_id, created, text) VALUES (?, ?, ?)", [.integer(id), .integer(note.created), .text(note.text)])
    }
    for interval in row.intervals {
      try connection.execute(
        "INSERT INTO interval (todo_id, started, stopped) VALUES (?, ?, ?)",
        [.integer(id), .integer(interval.started), interval.stopped.map(SQLValue.integer) ?? .null])
    }
    for extra in record.extras {
      try connection.execute(
        "INSERT OR REPLACE INTO extra (todo_id, format, name, value) VALUES (?, ?, ?, ?)",
        [.integer(id), .text(extra.format), .text(extra.name), .text(extra.value)])
    }
    return id
  }

  /// The number of an `ical`/`sequence` extra (`3@1795253400`: SEQUENCE 3, read when the task's
  /// modified time was 1795253400).
  public static func sequenceNumber(_ value: String) -> Int { Int(value.prefix { $0 != "@" }) ?? 0 }

  /// How a sync's merge breaks the cycles its links make (see `importRecords`).
  private struct CycleBreaking {
    /// The merge's journal entry: the tasks it takes a link from are recorded in it.
    let entry: JournalEntry
    let now: Int64
    /// What the links closed the cycle with, for the warning: a sync's other side's links, or
    /// (an import) the other links.
    let with: String
  }

  /// The UUID of a stored task.
  private static func uuidOf(_ id: Int64, on connection: Connection) throws(TodoError) -> String {
    try database { () throws(DatabaseError) in
      try connection.first("SELECT uuid FROM todo WHERE id = ?", [.integer(id)]) { row throws(DatabaseError) in try row.text(at: 0) ?? "" }
    } ?? ""
  }

  /// Sets the parents and dependencies of the written tasks by UUID; refuses a cycle, or with
  /// `breakingCycles` drops one of its links.
  private static func link(
    _ written: [(record: TaskRecord, id: Int64)], idOf: [String: Int64], report: inout ImportReport,
    breakingCycles: CycleBreaking? = nil, on connection: Connection
  ) throws(TodoError) {
    func id(of uuid: String) throws(TodoError) -> Int64? {
      if let known = idOf[uuid] { return known }
      return try database { () throws(DatabaseError) in
        try connection.first("SELECT id FROM todo WHERE uuid = ?", [.text(uuid)]) { row throws(DatabaseError) in
          try row.integer(at: 0) ?? 0
        }
      }
    }
    let added = Set(report.added)
    for (record, taskID) in written {
      // A new task without links has none to write (most of a large import).
      if added.contains(taskID) && record.todo.parentUUID == nil && record.todo.depends.isEmpty { continue }
      // A link to a task that is not here (yet) is kept by its UUID: exported as it came, and
      // made when that task is imported (a subtask synced before its parent).
      var parent: Int64?
      var pending: [(kind: String, uuid: String)] = []
      if let uuid = record.todo.parentUUID {
        parent = try id(of: uuid)
        if parent == nil {
          pending.append(("parent", uuid))
          report.warnings.append("task \(taskID): its parent \(uuid) is not here; the link is kept, and made when that task is imported")
        }
      }
      var targets: [Int64] = []
      for link in record.todo.depends {
        if let target = try id(of: link.uuid) {
          targets.append(target)
        } else {
          pending.append(("depends", link.uuid))
          report.warnings.append(
            "task \(taskID): it depends on \(link.uuid), which is not here; the link is kept, and made when that task is imported")
        }
      }
      try database { () throws(DatabaseError) in
        try connection.execute("UPDATE todo SET parent_id = ? WHERE id = ?", [parent.map(SQLValue.integer) ?? .null, .integer(taskID)])
        try connection.execute("DELETE FROM dependency WHERE todo_id = ?", [.integer(taskID)])
        for target in Set(targets) {
          try connection.execute("INSERT INTO dependency (todo_id, depends_on) VALUES (?, ?)", [.integer(taskID), .integer(target)])
        }
        if !added.contains(taskID) { try connection.execute("DELETE FROM pending_link WHERE todo_id = ?", [.integer(taskID)]) }
        for link in pending {
          try connection.execute(
            "INSERT OR IGNORE INTO pending_link (todo_id, kind, uuid) VALUES (?, ?, ?)", [.integer(taskID), .text(link.kind), .text(link.uuid)])
        }
      }
    }
    for (record, taskID) in written where !record.todo.depends.isEmpty {
      while let cycle = try dependencyCycle(through: taskID, on: connection) {
        let path = cycle.map { "task \($0)" }.joinedText(" → ")
        guard let breakingCycles else { throw .cycle("\(record.place): the dependencies form a cycle (\(path)); nothing was imported") }
        // Every machine drops the same link of the cycle (the greatest by its tasks' UUIDs),
        // whichever of them sees it first, so that they end with the same links.
        var links: [(from: Int64, to: Int64, fromUUID: String, toUUID: String)] = []
        for (from, to) in zip(cycle, cycle.dropFirst()) {
          links.append((from, to, try uuidOf(from, on: connection), try uuidOf(to, on: connection)))
        }
        guard let dropped = links.max(by: { ($0.fromUUID, $0.toUUID) < ($1.fromUUID, $1.toUUID) }) else { break }
        report.unlinked.append(dropped.fromUUID)
        // Undo puts the link back with the rest of the sync.
        try database { () throws(DatabaseError) in
          try Journal.record(entry: breakingCycles.entry, todoIDs: [dropped.from], on: connection)
          try connection.execute("DELETE FROM dependency WHERE todo_id = ? AND depends_on = ?", [.integer(dropped.from), .integer(dropped.to)])
          try connection.execute("UPDATE todo SET modified = max(modified, ?) WHERE id = ?", [.integer(breakingCycles.now), .integer(dropped.from)])
        }
        report.warnings.append(
          "task \(dropped.from) no longer waits for task \(dropped.to): with \(breakingCycles.with) it made a cycle (\(path))")
      }
    }
    for (record, taskID) in written where record.todo.parentUUID != nil {
      if let chain = try parentCycle(of: taskID, on: connection) {
        let path = chain.map { "task \($0)" }.joinedText(" → ")
        guard let breakingCycles else { throw .cycle("\(record.place): the parents form a cycle (\(path)); nothing was imported") }
        // As with dependencies, every machine frees the same task: the greatest by UUID.
        var children: [(id: Int64, parent: Int64, uuid: String, parentUUID: String)] = []
        for (child, parent) in zip(chain, chain.dropFirst()) {
          children.append((child, parent, try uuidOf(child, on: connection), try uuidOf(parent, on: connection)))
        }
        guard let freed = children.max(by: { $0.uuid < $1.uuid }) else { continue }
        report.unlinked.append(freed.uuid)
        try database { () throws(DatabaseError) in
          try Journal.record(entry: breakingCycles.entry, todoIDs: [freed.id], on: connection)
          try connection.execute("UPDATE todo SET parent_id = NULL WHERE id = ?", [.integer(freed.id)])
          try connection.execute("UPDATE todo SET modified = max(modified, ?) WHERE id = ?", [.integer(breakingCycles.now), .integer(freed.id)])
        }
        report.warnings.append(
          "task \(freed.id) is no longer a subtask of task \(freed.parent): with \(breakingCycles.with) it made a cycle (\(path))")
      }
    }
  }

  /// Makes the links kept by UUID (see `link`) to the tasks just added: a subtask that came
  /// before its parent becomes its subtask, a dependency on a task outside an earlier file is
  /// made. One that would close a cycle stays kept, with a warning.
  private static func resolvePendingLinks(
    to added: [Int64], entry: JournalEntry, report: inout ImportReport, on connection: Connection
  ) throws(TodoError) {
    guard !added.isEmpty else { return }
    // Few or none: the links still waiting, joined to the tasks now here.
    let found = try database { () throws(DatabaseError) in
      try connection.all(
        """
        SELECT pending_link.todo_id, pending_link.kind, pending_link.uuid, todo.id FROM pending_link
        JOIN todo ON todo.uuid = pending_link.uuid
        """
      ) { row throws(DatabaseError) in
        (from: try row.integer(at: 0) ?? 0, kind: try row.text(at: 1) ?? "", uuid: try row.text(at: 2) ?? "", to: try row.integer(at: 3) ?? 0)
      }
    }
    for link in found {
      let parent = link.kind == "parent"
      try database { () throws(DatabaseError) in
        try Journal.record(entry: entry, todoIDs: [link.from], on: connection)
        if parent {
          try connection.execute("UPDATE todo SET parent_id = ? WHERE id = ? AND parent_id IS NULL", [.integer(link.to), .integer(link.from)])
        } else {
          try connection.execute("INSERT OR IGNORE INTO dependency (todo_id, depends_on) VALUES (?, ?)", [.integer(link.from), .integer(link.to)])
        }
      }
      let cycle = try parent ? parentCycle(of: link.from, on: connection) != nil : dependencyCycle(through: link.from, on: connection) != nil
      try database { () throws(DatabaseError) in
        if cycle {
          if parent {
            try connection.execute("UPDATE todo SET parent_id = NULL WHERE id = ? AND parent_id = ?", [.integer(link.from), .integer(link.to)])
          } else {
            try connection.execute("DELETE FROM dependency WHERE todo_id = ? AND depends_on = ?", [.integer(link.from), .integer(link.to)])
          }
        } else {
          try connection.execute(
            "DELETE FROM pending_link WHERE todo_id = ? AND kind = ? AND uuid = ?", [.integer(link.from), .text(link.kind), .text(link.uuid)])
        }
      }
      if cycle {
        report.warnings.append("task \(link.from): its \(parent ? "parent" : "dependency") task \(link.to) would make a cycle; the link stays kept")
      } else {
        report.linked.append(link.from)
      }
    }
  }

  /// Puts written tasks that carry a series into it: the series with that UUID, or a new one with
  /// the record's rule and, as its template, the template the input brings (Taskwarrior's
  /// `recurring` parent) or else the task itself, its dates moved back to those of the series'
  /// first instance. A template newer than the series' replaces its rule, template and end.
  private static func joinSeries(
    _ written: [(record: TaskRecord, id: Int64)], templates: [String: TaskRecord], on connection: Connection
  ) throws(TodoError) {
    for (record, taskID) in written {
      guard let link = record.todo.series else { continue }
      try database { () throws(DatabaseError) in
        var series = try connection.first("SELECT * FROM series WHERE uuid = ?", [.text(link.uuid)]) {
          row throws(DatabaseError) in try Series(row: row)
        }
        let template = templates[link.uuid]
        if series == nil {
          series = try seriesTable.add { series in
            series.uuid = link.uuid
            series.rule = template?.todo.series?.rule ?? link.rule
            series.template = template?.todo ?? firstInstance(from: record.todo, index: link.index, rule: link.rule)
            series.ended = template?.todo.series?.ended ?? link.ended
            series.created = template?.todo.created ?? record.todo.created
            series.modified = template?.todo.modified ?? record.todo.modified
          }.run(connection)
        } else if var known = series, let template, let rule = template.todo.series?.rule, template.todo.modified > known.modified {
          known.rule = rule
          known.template = template.todo
          known.ended = template.todo.series?.ended
          known.modified = template.todo.modified
          series = try seriesTable.update(known).run(connection)
        } else if record.partial, var known = series, known.rule != link.rule, record.todo.modified > known.modified {
          // `rec:` edited in a todo.txt line (a partial record of a task here, journaled with
          // its series before it was written). Other formats' copies carry the task's time, not
          // the rule's: one newer for any reason would revert a rule changed here.
          known.rule = link.rule
          known.modified = record.todo.modified
          series = try seriesTable.update(known).run(connection)
        }
        try connection.execute(
          "UPDATE todo SET series_id = ?, series_index = ? WHERE id = ?",
          [.integer(series?.id ?? 0), .integer(Int64(link.index)), .integer(taskID)])
      }
    }
  }

  /// A series' template made from its instance number `index`: the instance's dates moved back
  /// `index - 1` steps of a schedule (an after-completion or weekday rule keeps them), so that
  /// the schedule counts from the series' first instance, as Taskwarrior's template does.
  static func firstInstance(from instance: Todo, index: Int, rule: RecurrenceRule) -> Todo {
    var template = instance
    guard index > 1, !rule.afterCompletion, rule.unit != .weekday else { return template }
    func back(_ date: TaskDate?) -> TaskDate? {
      guard let date else { return nil }
      let moved = rule.advance(date, steps: -(index - 1))
      return moved.isRepresentable ? moved : date
    }
    template.due = back(instance.due)
    template.wait = back(instance.wait)
    template.scheduled = back(instance.scheduled)
    return template
  }

  /// Series templates (Taskwarrior's), by series UUID, and the other records. The records are
  /// copied only when there are templates (an import of 10k tasks held them twice at its peak).
  private static func splitTemplates(_ records: [TaskRecord]) -> (templates: [String: TaskRecord], tasks: [TaskRecord]) {
    guard records.contains(where: \.isSeriesTemplate) else { return ([:], records) }
    let templates = Dictionary(
      records.filter(\.isSeriesTemplate).compactMap { record in record.todo.series.map { ($0.uuid, record) } },
      uniquingKeysWith: { _, later in later })
    return (templates, records.filter { !$0.isSeriesTemplate })
  }

  /// A stored task as an import compares it: with its extras, and its links kept by UUID as an
  /// export writes them (so the same copy is unchanged).
  private static func storedRecord(_ id: Int64, on connection: Connection) throws(DatabaseError) -> TaskRecord {
    var todos = [try load(id, on: connection)]
    try addPendingLinks(to: &todos, on: connection)
    return TaskRecord(todo: todos[0], extras: try loadExtras(of: [id], on: connection)[id] ?? [])
  }

  /// A series whose template the input brings and that goes on has its next instance: a
  /// Taskwarrior export of a series whose latest instance was completed there has none yet
  /// (Taskwarrior makes it at its next command). The ids of those made.
  private static func nextInstances(of templates: [String: TaskRecord], now: Int64, entry: JournalEntry, on connection: Connection)
    throws(TodoError) -> [Int64]
  {
    var made: [Int64] = []
    for uuid in templates.keys.sorted() {
      if let next = try nextInstanceIfNone(ofSeries: uuid, now: now, entry: entry, on: connection) { made.append(next) }
    }
    return made
  }

  /// Makes the next instance of the series `uuid` when it goes on and none of its instances is
  /// pending, after its latest one.
  private static func nextInstanceIfNone(ofSeries uuid: String, now: Int64, entry: JournalEntry, on connection: Connection)
    throws(TodoError) -> Int64?
  {
    try database { () throws(DatabaseError) in
      let latest = try connection.first(
        """
        SELECT todo.* FROM todo JOIN series ON series.id = todo.series_id
        WHERE series.uuid = ? AND series.ended IS NULL
          AND NOT EXISTS (SELECT 1 FROM todo AS other WHERE other.series_id = series.id AND other.status = 'pending')
        ORDER BY todo.series_index DESC LIMIT 1
        """, [.text(uuid)]
      ) { row throws(DatabaseError) in try Todo(row: row) }
      guard let latest else { return nil }
      return try advanceSeries(after: latest, now: now, entry: entry, on: connection)
    }
  }
}

extension String {
  /// Without the spaces and tabs at its end.
  var trimmingTrailingBlanks: String {
    var text = Substring(self)
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return String(text)
  }
}

/// UUIDs for records that come without one.
public enum RecordUUID {
  /// A name-based (version 5) UUID of `name`: the same text always gives the same UUID, so a
  /// file without UUIDs (todo.txt) imported twice updates the same tasks instead of adding copies.
  public static func named(_ name: String) -> String { UUIDGenerator.nameBased(Array("todo.record:".utf8) + Array(name.utf8)) }

  /// The UUID of instance `index` of a series (see `UUIDGenerator.instance`).
  public static func instance(_ index: Int, of series: String) -> String? { UUIDGenerator.instance(index, of: series) }
}
