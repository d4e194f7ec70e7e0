import TodoCore

/// Taskwarrior's JSON (`task export`, 2.6 and 3.x; an array or JSON Lines), read and written.
///
/// Statuses: `pending` and `waiting` → pending, `completed` → done, `deleted` → deleted; a
/// `recurring` parent (or a deleted one, with its `mask`) is the template of the series of the
/// children that name it (`parent`, `imask`: instance `imask + 1`), or, with no child in the
/// file, its own first pending instance. An export writes each series the same way (`document`). Dates are instants;
/// one at local midnight reads as an all-day date (Taskwarrior has no other way to say "a day").
/// Keys `todo` has no field for (user-defined attributes) are kept with the task, as their JSON
/// text, and written back on export.
///
/// What Taskwarrior has no key for is written as attributes of todo's own, which Taskwarrior keeps
/// (as orphaned user-defined attributes) and gives back in its export, so a round trip through
/// either program keeps them:
///
/// | key | value |
/// |---|---|
/// | `todo_parent` | the UUID of the task this one is a subtask of (Taskwarrior's `parent` means a recurrence template) |
/// | `todo_series`, `todo_instance`, `todo_rule`, `todo_series_ended` | the series, the instance's number, the rule in todo's words (`+1w` counts from completion, which `recur` cannot say), and when the series ended |
/// | `todo_reason` | why the task was closed other than by a command (`expired`) |
///
/// On import they win over what `recur`, `parent` and `imask` would make of the task, except
/// where the file shows an edit made in Taskwarrior (see `readOwnKeys`).
public enum Taskwarrior {
  /// The attributes of todo's own (see the type's summary).
  static let ownKeys: Set<String> = ["todo_parent", "todo_series", "todo_instance", "todo_rule", "todo_series_ended", "todo_reason"]

  /// `now` stands in for a missing `entry` (as `task import` does).
  public static func records(_ bytes: [UInt8], now: Int64, skipping: SkippedRecords? = nil) throws(InterchangeError) -> [TaskRecord] {
    let values = try JSONReader.records(bytes)
    // Recurring parents first: their children need their rule.
    var parents: [String: (line: Int, members: [(key: String, value: JSONValue)])] = [:]
    var childrenOf: [String: Int] = [:]
    for (line, value) in values {
      guard case .object(let members) = value else {
        try SkippedRecords.skip(InterchangeError(line: line, "a task must be a JSON object"), in: skipping)
        continue
      }
      let uuid = members.first { $0.key == "uuid" }?.value
      if isTemplate(members), case .string(let id)? = uuid { parents[id.lowercased()] = (line, members) }
      if case .string(let parent)? = members.first(where: { $0.key == "parent" })?.value {
        childrenOf[parent.lowercased(), default: 0] += 1
      }
    }
    var records: [TaskRecord] = []
    // The same UUID again is, as `task import` takes it, a change to the task given before: the
    // later copy wins, in the earlier one's place.
    var indexOf: [String: Int] = [:]
    for (line, value) in values {
      guard case .object(let members) = value else { continue }
      do throws(InterchangeError) {
        guard var record = try record(members, line: line, parents: parents, childrenOf: childrenOf, now: now) else { continue }
        // What `task import` mends, mended: a task without a UUID gets one (derived from its
        // description and entry, so that importing the file again finds the same task), and a
        // dependency on the task itself is dropped.
        if record.todo.uuid.isEmpty {
          let entry = members.first { $0.key == "entry" }?.value.text ?? ""
          record.todo.uuid = RecordUUID.named("taskwarrior:" + record.todo.title + "\n" + entry)
          SkippedRecords.notice(InterchangeError(line: line, "the task has no \"uuid\"; it gets \(record.todo.uuid)"), in: skipping)
        }
        if record.todo.depends.contains(where: { $0.uuid == record.todo.uuid }) {
          record.todo.depends.removeAll { $0.uuid == record.todo.uuid }
          SkippedRecords.notice(InterchangeError(line: line, "the task depends on itself; that dependency is dropped"), in: skipping)
        }
        if let earlier = indexOf[record.todo.uuid] {
          records[earlier] = record
        } else {
          indexOf[record.todo.uuid] = records.count
          records.append(record)
        }
      } catch {
        try SkippedRecords.skip(error, in: skipping)
      }
    }
    return records
  }

  /// A recurring template: `recurring`, or `deleted` with its `mask` (a series deleted, or past
  /// its until).
  private static func isTemplate(_ members: [(key: String, value: JSONValue)]) -> Bool {
    let status = members.first { $0.key == "status" }?.value
    return status == .string("recurring") || (status == .string("deleted") && members.contains { $0.key == "mask" })
  }

  /// One task object of `task export`'s; for a recurring template whose instances are in the
  /// file, the series' template (`isSeriesTemplate`), or nil for one Taskwarrior made of a
  /// pending instance todo wrote before it wrote templates.
  private static func record(
    _ members: [(key: String, value: JSONValue)], line: Int, parents: [String: (line: Int, members: [(key: String, value: JSONValue)])],
    childrenOf: [String: Int], now: Int64
  ) throws(InterchangeError) -> TaskRecord? {
    var fields = Fields(members: members, line: line)
    let status = try fields.string("status") ?? "pending"
    let uuid = (try fields.string("uuid"))?.lowercased()
    if let uuid, childrenOf[uuid, default: 0] > 0, isTemplate(members) {
      if case .string(let series)? = fields.peek("todo_series"), series.lowercased() != uuid { return nil }
      return try template(&fields, status: status, uuid: uuid, now: now)
    }
    var record = try task(&fields, status: status, uuid: uuid, now: now)
    // For a child of a Taskwarrior template: how many instances after the template's it is.
    var childOffset = 0
    var parentOfInstance: String?
    // The series: the parent's (for a child), or its own (a parent without children here).
    if status == "recurring" {
      guard let rule = try recurrence(fields.take("recur"), line: line) else {
        throw InterchangeError(line: line, "a recurring task needs its \"recur\"")
      }
      record.todo.status = .pending
      record.todo.series = SeriesLink(id: 0, uuid: record.todo.uuid, index: 1, rule: rule, ended: nil)
      // A template Taskwarrior made of a task todo wrote (it has todo's series): that task,
      // which keeps its UUID.
      if !members.contains(where: { $0.key == "todo_series" }) {
        record.todo.uuid = RecordUUID.instance(1, of: record.todo.uuid) ?? record.todo.uuid
      }
    } else if case .string(let parent)? = fields.take("parent") {
      let parentID = parent.lowercased()
      parentOfInstance = parentID
      let recur = fields.take("recur")
      let rule = try recurrence(recur ?? parents[parentID]?.members.first { $0.key == "recur" }?.value, line: line)
      if let rule {
        var index = 1
        if let mask = fields.take("imask") {
          switch mask {
          case .number(let text), .string(let text):
            guard let number = Double(text), number >= 0, number < 1e6 else { throw fields.error("\"imask\" is not a number") }
            index = Int(number) + 1
          default: throw fields.error("\"imask\" is not a number")
          }
        }
        record.todo.series = SeriesLink(id: 0, uuid: parentID, index: index, rule: rule, ended: nil)
        childOffset = index - 1
      }
    } else if let recur = fields.take("recur") {
      // A pending task with its own rule and no parent: Taskwarrior makes it a series too.
      if let rule = try recurrence(recur, line: line), record.todo.status == .pending {
        record.todo.series = SeriesLink(id: 0, uuid: RecordUUID.named("series:" + record.todo.uuid), index: 1, rule: rule, ended: nil)
      }
    }
    // An instance todo wrote names its series as its parent: its number is its own. Children
    // of a template Taskwarrior made of a pending instance todo wrote count from that instance.
    if case .string(let series)? = fields.peek("todo_series"), series.lowercased() == parentOfInstance { childOffset = 0 }
    try readOwnKeys(&fields, into: &record.todo, childOffset: childOffset)
    fields.skip(["recur", "imask", "mask", "rtype", "parent"])
    // Everything else is a user-defined attribute: kept as its JSON text.
    for member in fields.rest {
      record.extras.append(TaskExtra(format: "taskwarrior", name: member.key, value: member.value.text))
    }
    record.extras.sort { $0.name < $1.name }
    return record
  }

  /// A recurring template whose instances are in the file: the series' template, with the
  /// dates of its first instance (`imask` 0). A deleted one ended the series.
  private static func template(_ fields: inout Fields, status: String, uuid: String, now: Int64) throws(InterchangeError)
    -> TaskRecord
  {
    var record = try task(&fields, status: status == "deleted" ? "deleted" : "pending", uuid: uuid, now: now)
    guard var rule = try recurrence(fields.take("recur"), line: fields.line) else {
      throw fields.error("a recurring task needs its \"recur\"")
    }
    // todo's after-completion rule (`+1w`), which `recur` cannot say, unless `recur` changed.
    if let text = try fields.string("todo_rule"), let own = RecurrenceRule(parsing: text), own.unit == rule.unit, own.count == rule.count {
      rule = own
    }
    let ended = record.todo.status == .deleted ? record.todo.completed : nil
    record.todo.status = .pending
    record.todo.completed = nil
    record.todo.intervals = []
    record.todo.series = SeriesLink(id: 0, uuid: uuid, index: 1, rule: rule, ended: ended)
    record.isSeriesTemplate = true
    return record
  }

  /// Reads `todo_parent`, `todo_series`… (see the type's summary) into `todo`.
  ///
  /// A file that went through Taskwarrior differs from what todo wrote: a pending instance came
  /// back as a template with children that copied its attributes (child `imask` n is instance
  /// `todo_instance` + n), the user may have changed `recur` there (which then wins over
  /// `todo_rule`), and reopened a task (whose old `todo_reason` no longer holds).
  private static func readOwnKeys(_ fields: inout Fields, into todo: inout Todo, childOffset: Int) throws(InterchangeError) {
    if let parent = try fields.string("todo_parent") {
      guard UUIDGenerator.isUUID(parent.lowercased()) else { throw fields.error("\"todo_parent\" is not a UUID: '\(parent)'") }
      todo.parentUUID = parent.lowercased()
    }
    if let reason = try fields.string("todo_reason"), todo.status != .pending { todo.reason = reason }
    let ruleText = try fields.string("todo_rule")
    let instance = fields.take("todo_instance")
    let ended = try instant(&fields, "todo_series_ended")
    guard let series = try fields.string("todo_series") else {
      let present = [("todo_rule", ruleText != nil), ("todo_instance", instance != nil), ("todo_series_ended", ended != nil)]
      if let key = present.first(where: { $0.1 })?.0 { throw fields.error("\"\(key)\" needs \"todo_series\"") }
      return
    }
    guard UUIDGenerator.isUUID(series.lowercased()) else { throw fields.error("\"todo_series\" is not a UUID: '\(series)'") }
    var index = todo.series?.index ?? 1
    switch instance {
    case nil, .null?: break
    case .number(let text)?, .string(let text)?:
      // Taskwarrior may give a number back as `3.000000`.
      guard let number = Double(text), number >= 1, number < 1e9, number == number.rounded() else {
        throw fields.error("\"todo_instance\" is not a whole number from 1: \(text)")
      }
      index = Int(number) + childOffset
    case let other?: throw fields.error("\"todo_instance\" is not a whole number from 1: \(other.text)")
    }
    var rule = todo.series?.rule
    if let ruleText {
      guard let parsed = RecurrenceRule(parsing: ruleText) else {
        throw fields.error("\"todo_rule\" '\(ruleText)' is not a rule todo knows (weekly, 2w, +1w…)")
      }
      // `recur` changed in Taskwarrior since todo wrote the file: the new rule wins.
      if rule == nil || (rule?.unit == parsed.unit && rule?.count == parsed.count) { rule = parsed }
    }
    guard let rule else { throw fields.error("\"todo_series\" needs \"todo_rule\" or \"recur\"") }
    todo.series = SeriesLink(id: 0, uuid: series.lowercased(), index: index, rule: rule, ended: ended)
  }

  private static func task(_ fields: inout Fields, status: String, uuid: String?, now: Int64) throws(InterchangeError)
    -> TaskRecord
  {
    var todo = Todo()
    var spacedProject: String?
    // No UUID: `records` gives the task one.
    todo.uuid = uuid ?? ""
    todo.title = try fields.string("description") ?? ""
    switch status {
    case "pending", "waiting", "recurring": todo.status = .pending
    case "completed": todo.status = .done
    case "deleted": todo.status = .deleted
    default: throw fields.error("unknown status '\(status)' (pending, waiting, completed, deleted or recurring)")
    }
    // A project of Taskwarrior's may hold spaces ("Home Office"), which ours may not (a word of a
    // command line): the spaces become '_', and the name as it came is kept (as a value no
    // attribute reads: written back as "project" while the project is unchanged).
    if case .string(let project)? = fields.peek("project"), project.contains(" ") {
      _ = fields.take("project")
      todo.project = project.replacing(" ", with: "_")
      spacedProject = project
    } else {
      todo.project = try fields.string("project")
    }
    todo.tags = try listOrComma(fields.take("tags"), key: "tags", fields).sorted()
    // H, M and L are todo's priorities; another value (`uda.priority.values=A,B,C`) is kept as
    // the attribute it is, as Taskwarrior keeps it, and goes back out the same.
    if case .string(let priority)? = fields.peek("priority"), let known = Priority(rawValue: priority) {
      _ = fields.take("priority")
      todo.priority = known
    }
    todo.due = try date(&fields, "due")
    todo.wait = try date(&fields, "wait")
    todo.scheduled = try date(&fields, "scheduled")
    todo.until = try date(&fields, "until")
    // todo's reminders, as its export writes them (a `remind` of another kind stays the UDA it is).
    if case .string(let text)? = fields.peek("remind") {
      let parts = text.split(separator: ",").map(String.init)
      let read = parts.compactMap(Reminder.init(stored:))
      if !parts.isEmpty && read.count == parts.count {
        _ = fields.take("remind")
        todo.reminders = read
      }
    }
    todo.created = try instant(&fields, "entry") ?? now
    todo.modified = try instant(&fields, "modified") ?? todo.created
    let end = try instant(&fields, "end")
    if todo.status != .pending { todo.completed = end ?? todo.modified }
    if let start = try instant(&fields, "start"), todo.status == .pending {
      todo.intervals = [WorkInterval(id: 0, started: start, stopped: nil)]
    }
    for annotation in try fields.objects("annotations") {
      var item = Fields(members: annotation, line: fields.line)
      var note = Note()
      note.created = try instant(&item, "entry") ?? todo.created
      note.text = try item.string("description") ?? ""
      todo.notes.append(note)
    }
    todo.depends = try listOrComma(fields.take("depends"), key: "depends", fields).map {
      TaskLink(id: 0, uuid: $0.lowercased(), isOpen: true)
    }
    fields.skip(["id", "urgency"])
    let extras = spacedProject.map { [TaskExtra(format: "taskwarrior", name: "project", value: JSONValue.string($0).text)] } ?? []
    return TaskRecord(todo: todo, extras: extras, line: fields.line)
  }

  private static func listOrComma(_ value: JSONValue?, key: String, _ fields: Fields) throws(InterchangeError) -> [String] {
    switch value {
    case nil, .null?: return []
    case .string(let text)?: return text.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let text) = value else { throw fields.error("\"\(key)\" must hold strings") }
        strings.append(text)
      }
      return strings
    default: throw fields.error("\"\(key)\" must be an array or a comma-separated string")
    }
  }

  private static func recurrence(_ value: JSONValue?, line: Int) throws(InterchangeError) -> RecurrenceRule? {
    guard case .string(let text)? = value else { return nil }
    // Taskwarrior's spellings: `weekly`, `2wk`, `P1W`, `3d`, `1mo`, `yearly`, `5m` (months),
    // `bimonthly`, `semiannual`, `biannual`…
    var word = text.lowercased()
    let named = [
      "bimonthly": "2mo", "semiannual": "6mo", "biannual": "2y", "biyearly": "2y", "annual": "yearly", "sennight": "weekly", "fortnight": "2w",
      "biweekly": "2w",
    ]
    if let known = named[word] { word = known }
    if word.hasSuffix("m"), let count = Int(word.dropLast()) { word = "\(count)mo" }
    if word.hasPrefix("p"), let unit = word.last, let count = Int(word.dropFirst().dropLast()) {
      switch unit {
      case "d": word = "\(count)d"
      case "w": word = "\(count)w"
      case "m": word = "\(count)mo"
      case "y": word = "\(count)y"
      default: break
      }
    }
    guard let rule = RecurrenceRule(parsing: word) else {
      throw InterchangeError(line: line, "the recurrence '\(text)' is not one todo can repeat (daily, weekly, 2wk, 1mo, yearly…)")
    }
    return rule
  }

  /// `YYYYMMDDTHHMMSSZ` (or RFC 3339, or epoch seconds, which `task import` also takes).
  static func parseTime(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    if bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") {
      let iso =
        String(decoding: bytes[0..<4], as: UTF8.self) + "-" + String(decoding: bytes[4..<6], as: UTF8.self) + "-"
        + String(decoding: bytes[6..<8], as: UTF8.self) + "T" + String(decoding: bytes[9..<11], as: UTF8.self) + ":"
        + String(decoding: bytes[11..<13], as: UTF8.self) + ":" + String(decoding: bytes[13..<15], as: UTF8.self) + "Z"
      return Timestamp.parseTaskTime(iso)
    }
    // Without the Z (`20260101T090000`), as `task import` reads it: local time.
    if bytes.count == 15, bytes[8] == UInt8(ascii: "T"), let year = ICalendarText.digits(bytes, 0..<4),
      let month = ICalendarText.digits(bytes, 4..<6), let day = ICalendarText.digits(bytes, 6..<8),
      let hour = ICalendarText.digits(bytes, 9..<11), let minute = ICalendarText.digits(bytes, 11..<13),
      let second = ICalendarText.digits(bytes, 13..<15)
    {
      return Timestamp.wallClock(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second)
        .flatMap { Timestamp.representable.contains($0) ? $0 : nil }
    }
    if let seconds = Int64(text) { return Timestamp.representable.contains(seconds) ? seconds : nil }
    return Timestamp.parseTaskTime(text)
  }

  static func formatTime(_ seconds: Int64) -> String {
    let iso = Array(Timestamp.rfc3339(seconds).utf8)  // 2026-11-27T17:00:00Z
    guard iso.count == 20 else { return Timestamp.rfc3339(seconds) }
    let keep = [0, 1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 14, 15, 17, 18, 19]
    return String(decoding: keep.map { iso[$0] }, as: UTF8.self)
  }

  private static func instant(_ fields: inout Fields, _ key: String) throws(InterchangeError) -> Int64? {
    switch fields.take(key) {
    case nil, .null?: return nil
    case .string(let text)?:
      guard let seconds = parseTime(text) else {
        throw fields.error("\"\(key)\" is not a time (20261127T170000Z) in the years 1970 to 9999: '\(text)'")
      }
      return seconds
    case .number(let text)?:
      guard let seconds = Int64(text), Timestamp.representable.contains(seconds) else {
        throw fields.error("\"\(key)\" is not a time in the years 1970 to 9999: \(text)")
      }
      return seconds
    default: throw fields.error("\"\(key)\" is not a time")
    }
  }

  private static func date(_ fields: inout Fields, _ key: String) throws(InterchangeError) -> TaskDate? {
    guard let seconds = try instant(&fields, key) else { return nil }
    let day = CalendarDay.local(seconds)
    // Local midnight reads as a day, unless that day is past 9999 (9999-12-31T10:00Z at UTC+14).
    return day.year <= 9999 && day.start == seconds ? .day(day) : .instant(seconds)
  }

  /// One task as a Taskwarrior JSON object (one line, no newline).
  public static func line(_ record: TaskRecord) -> String {
    let todo = record.todo
    var members: [(key: String, value: JSONValue)] = []
    func add(_ key: String, _ text: String?) { if let text { members.append((key, .string(text))) } }
    func time(_ date: TaskDate?) -> String? { date.map { formatTime($0.sortInstant) } }
    add("uuid", todo.uuid)
    add("description", todo.title)
    add("status", ["pending": "pending", "done": "completed", "deleted": "deleted"][todo.status.rawValue])
    add("entry", formatTime(todo.created))
    add("modified", formatTime(todo.modified))
    add("end", todo.completed.map(formatTime))
    // Kept as Taskwarrior gave them while todo's own are as read from them (see `task`): a project
    // with spaces, a priority of its own (A, B, C).
    func kept(_ name: String) -> String? {
      record.extras.first { $0.format == "taskwarrior" && $0.name == name }.flatMap { extra in
        var reader = JSONReader(bytes: Array(extra.value.utf8))
        if case .string(let text)? = try? reader.value() { return text }
        return nil
      }
    }
    let keptProject = kept("project").flatMap { $0.replacing(" ", with: "_") == todo.project ? $0 : nil }
    add("project", keptProject ?? todo.project)
    add("priority", todo.priority?.rawValue)
    // The project is todo's to write (as kept, changed or cleared); a priority of Taskwarrior's own
    // only while todo has none.
    var writtenByTodo: Set<String> = todo.priority == nil ? ["project"] : ["project", "priority"]
    // A `remind` attribute of another kind, kept from Taskwarrior, gives way to todo's reminders.
    if !todo.reminders.isEmpty { writtenByTodo.insert("remind") }
    add("due", time(todo.due))
    add("wait", time(todo.wait))
    add("scheduled", time(todo.scheduled))
    add("until", time(todo.until))
    // A user-defined attribute to Taskwarrior (`uda.remind.type=string` shows it there).
    add("remind", Reminder.stored(todo.reminders))
    if todo.isActive, let start = todo.intervals.last?.started { add("start", formatTime(start)) }
    // An instance of a series with a due date, as Taskwarrior writes one: its template's UUID and
    // its place in the template's mask (see `templateLine`). Taskwarrior refuses `recur` without
    // a due date: a series that counts from scheduled dates goes out as plain tasks (todo's own
    // keys keep it a series here).
    if let series = todo.series, todo.due != nil {
      add("parent", series.uuid)
      members.append(("imask", .number(String(series.index - 1))))
      add("recur", taskwarriorRule(series.rule))
      add("rtype", "periodic")
    }
    add("todo_parent", todo.parentUUID)
    if let series = todo.series {
      add("todo_series", series.uuid)
      members.append(("todo_instance", .number(String(series.index))))
      add("todo_rule", series.rule.description)
      add("todo_series_ended", series.ended.map(formatTime))
    }
    add("todo_reason", todo.reason)
    if !todo.tags.isEmpty { members.append(("tags", .array(todo.tags.map(JSONValue.string)))) }
    if !todo.depends.isEmpty { members.append(("depends", .array(todo.depends.map { .string($0.uuid) }))) }
    if !todo.notes.isEmpty {
      // Taskwarrior needs a different second per annotation of a task.
      var used: Set<Int64> = []
      var annotations: [JSONValue] = []
      for note in todo.notes {
        var entry = note.created
        while !used.insert(entry).inserted { entry += 1 }
        annotations.append(.object([("entry", .string(formatTime(entry))), ("description", .string(note.text))]))
      }
      members.append(("annotations", .array(annotations)))
    }
    // An extra named like one of todo's own keys (stored by an older version) would write it twice.
    for extra in record.extras where extra.format == "taskwarrior" && !ownKeys.contains(extra.name) && !writtenByTodo.contains(extra.name) {
      var reader = JSONReader(bytes: Array(extra.value.utf8))
      let value = (try? reader.value()) ?? .string(extra.value)
      members.append((extra.name, value))
    }
    return JSONValue.object(members).text
  }

  /// What `task export` writes: an array, one task a line; each series' template (see
  /// `templateLine`) before the first of its instances.
  public static func document(_ records: [TaskRecord], templates: [SeriesTemplate]) -> String {
    var lines: [String] = []
    var pending = Dictionary(templates.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    for record in records {
      if let uuid = record.todo.series?.uuid, let template = pending.removeValue(forKey: uuid), template.template.due != nil {
        lines.append(templateLine(template))
      }
      lines.append(line(record))
    }
    return "[\n" + lines.joinedText(",\n") + (lines.isEmpty ? "" : "\n") + "]\n"
  }

  /// A series as Taskwarrior's template of it: `status` `recurring` (`deleted` once the series
  /// ended), the series' UUID, `recur`, `rtype`, the dates of its first instance (`wait` the same
  /// distance before `due` as on every instance) and the `mask` of its instances (`-` pending,
  /// `+` completed, `X` deleted or not stored), so that `task import` makes no instance the file
  /// already holds.
  public static func templateLine(_ series: SeriesTemplate) -> String {
    let template = series.template
    var members: [(key: String, value: JSONValue)] = []
    func add(_ key: String, _ text: String?) { if let text { members.append((key, .string(text))) } }
    func time(_ date: TaskDate?) -> String? { date.map { formatTime($0.sortInstant) } }
    add("uuid", series.uuid)
    add("description", template.title)
    add("status", series.ended == nil ? "recurring" : "deleted")
    add("entry", formatTime(series.created))
    add("modified", formatTime(series.modified))
    add("end", series.ended.map(formatTime))
    add("project", template.project)
    add("priority", template.priority?.rawValue)
    add("due", time(template.due))
    add("wait", time(template.wait))
    add("scheduled", time(template.scheduled))
    add("until", time(template.until))
    add("recur", taskwarriorRule(series.rule))
    add("rtype", "periodic")
    // As long as the instances stored, or up to the latest one's place in the schedule: todo
    // skips the periods a series missed (its next instance is the first not yet past), which
    // Taskwarrior would otherwise make one by one.
    let last = max(series.instances.keys.max() ?? 0, schedulePlace(of: series.latestDue, in: series))
    let mask = (0..<last).map { index -> Character in
      switch series.instances[index + 1] {
      case .pending?: "-"
      case .done?: "+"
      case .deleted?, nil: "X"
      }
    }
    add("mask", String(mask))
    if series.rule.afterCompletion { add("todo_rule", series.rule.description) }
    if !template.tags.isEmpty { members.append(("tags", .array(template.tags.map(JSONValue.string)))) }
    // The attributes of Taskwarrior's own and the user's that the instances carry.
    let written = Set(members.map(\.key))
    for extra in series.extras
    where extra.format == "taskwarrior" && !ownKeys.contains(extra.name) && !written.contains(extra.name)
      && !["parent", "imask", "mask", "rtype", "recur", "status", "uuid", "entry", "end", "modified", "start"].contains(extra.name)
    {
      var reader = JSONReader(bytes: Array(extra.value.utf8))
      members.append((extra.name, (try? reader.value()) ?? .string(extra.value)))
    }
    return JSONValue.object(members).text
  }

  /// How many dates of the series' schedule, from its first, fall on or before `due` (0 without
  /// one; at most 100,000).
  static func schedulePlace(of due: TaskDate?, in series: SeriesTemplate) -> Int {
    guard let due, let start = series.template.due else { return 0 }
    var place = 0
    var date = start
    while place < 100_000, !RecurrenceRule.isAfter(date, due) {
      place += 1
      // Weekdays step one at a time (a long jump walks every day); months and years from the
      // start, so that the 31st stays the 31st.
      date = series.rule.unit == .weekday ? series.rule.advance(date, steps: 1) : series.rule.advance(start, steps: place)
    }
    return place
  }

  /// A rule in Taskwarrior's words (`weekly`, `2w`, `quarterly`, `P5M`); Taskwarrior has no
  /// "after completion" mode, so `+1w` is written as `1w`. Months and years are words Taskwarrior
  /// 2.6 counts in calendar months: its `3mo` and `3y` are 90 and 1,095 days, which drift.
  static func taskwarriorRule(_ rule: RecurrenceRule) -> String {
    switch (rule.unit, rule.count) {
    case (.weekday, _): "weekdays"
    case (.day, 1): "daily"
    case (.week, 1): "weekly"
    case (.month, 1): "monthly"
    case (.month, 2): "bimonthly"
    case (.month, 3): "quarterly"
    case (.month, 6): "semiannual"
    case (.year, 1): "yearly"
    case (.year, 2): "biannual"
    case (.day, let count): "\(count)d"
    case (.week, let count): "\(count)w"
    case (.month, let count): "P\(count)M"
    case (.year, let count): "P\(count * 12)M"
    }
  }
}
