import TodoCore

/// The formats `todo export` writes and `todo import` reads.
public enum InterchangeFormat: String, Sendable, CaseIterable {
  case json, jsonl, taskwarrior, todotxt, ical

  /// The format a file name's extension says, if any (`.json`, `.jsonl`, `.txt`, `.ics`).
  public static func byExtension(_ path: String) -> InterchangeFormat? {
    let lower = path.lowercased()
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonl }
    if lower.hasSuffix(".json") { return .json }
    if lower.hasSuffix(".txt") { return .todotxt }
    if lower.hasSuffix(".ics") { return .ical }
    return nil
  }

  /// The format the content looks like: JSON objects with `description` (and no `title`) are
  /// Taskwarrior's, other JSON ours; `BEGIN:VCALENDAR` is iCalendar; anything else todo.txt.
  public static func byContent(_ bytes: [UInt8]) -> InterchangeFormat {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    let head = String(decoding: bytes[start..<min(bytes.count, start + 4096)], as: UTF8.self)
    if head.prefix(15).uppercased() == "BEGIN:VCALENDAR" { return .ical }
    if head.hasPrefix("{") || head.hasPrefix("[") {
      let taskwarrior = head.contains("\"description\"") && !head.contains("\"title\"")
      if taskwarrior { return .taskwarrior }
      return head.hasPrefix("[") ? .json : .jsonl
    }
    return .todotxt
  }

  /// The format of a file named `name` whose first bytes are `start`: the content's when it is
  /// plainly a calendar or JSON objects (a `.txt` holding either was read as junk todo.txt
  /// lines; `.json` holds ours or Taskwarrior's), else the extension's, else the content's.
  public static func of(name: String, start: [UInt8]) -> InterchangeFormat {
    let content = byContent(start)
    guard let named = byExtension(name) else { return content }
    switch content {
    case .ical: return .ical
    case .todotxt: return named
    case .json, .jsonl, .taskwarrior:
      // A todo.txt line may start with '[' or '{' too ("{work} call Bob"): JSON only when an
      // object with a key ('{"') begins it.
      var index = start.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      func skipSpace() { while index < start.count, [0x20, 0x09, 0x0A, 0x0D].contains(start[index]) { index += 1 } }
      skipSpace()
      if index < start.count, start[index] == UInt8(ascii: "[") {
        index += 1
        skipSpace()
      }
      guard index < start.count, start[index] == UInt8(ascii: "{") else { return named }
      index += 1
      skipSpace()
      guard index < start.count, start[index] == UInt8(ascii: "\"") else { return named }
      return named == .json || named == .jsonl ? (content == .taskwarrior ? .taskwarrior : named) : content
    }
  }
}

/// `todo`'s own task objects (what `--json` prints, plus `extras`), read back losslessly.
public enum NativeJSON {
  /// The keys a task object may have; those `todo` computes (`id`, `parent_id`, `depends_ids`,
  /// `progress`, `active`, `urgency`) are read and ignored.
  static let computedKeys: Set<String> = ["id", "parent_id", "depends_ids", "progress", "active", "urgency", "dry_run", "udas"]

  /// Reads a JSON array of task objects, or JSON Lines.
  public static func records(_ bytes: [UInt8], skipping: SkippedRecords? = nil) throws(InterchangeError) -> [TaskRecord] {
    var records: [TaskRecord] = []
    try JSONReader.forEachRecord(bytes) { line, value throws(InterchangeError) in
      if let read = try record(value, line: line, skipping: skipping) { records.append(read) }
    }
    return records
  }

  /// `records(_:)` of an input read piece by piece (see `JSONReader.forEachRecord(reading:_:)`):
  /// JSON Lines are turned into tasks as they are read, without holding the whole input.
  public static func records(skipping: SkippedRecords? = nil, reading next: (_ atLeast: Int) throws(InterchangeError) -> [UInt8]?)
    throws(InterchangeError) -> [TaskRecord]
  {
    var records: [TaskRecord] = []
    try JSONReader.forEachRecord(reading: next) { line, value throws(InterchangeError) in
      if let read = try record(value, line: line, skipping: skipping) { records.append(read) }
    }
    return records
  }

  /// One value as a task; nil when it is not one and `skipping` takes the problem. (A value
  /// that is not JSON stops the reading whatever: where the next record starts is not known.)
  private static func record(_ value: JSONValue, line: Int, skipping: SkippedRecords?) throws(InterchangeError) -> TaskRecord? {
    do throws(InterchangeError) {
      return try record(value, line: line)
    } catch {
      try SkippedRecords.skip(error, in: skipping)
      return nil
    }
  }

  static func record(_ value: JSONValue, line: Int) throws(InterchangeError) -> TaskRecord {
    guard case .object(let members) = value else { throw InterchangeError(line: line, "a task must be a JSON object") }
    var fields = Fields(members: members, line: line)
    var todo = Todo()
    todo.uuid = try fields.string("uuid") ?? ""
    todo.title = try fields.string("title") ?? ""
    if let status = try fields.string("status") {
      guard let known = Status(rawValue: status) else {
        throw fields.error("unknown status '\(status)' (pending, done or deleted)")
      }
      todo.status = known
    }
    if let priority = try fields.string("priority") {
      guard let known = Priority(rawValue: priority) else { throw fields.error("unknown priority '\(priority)' (H, M or L)") }
      todo.priority = known
    }
    todo.project = try fields.string("project")
    todo.tags = try fields.strings("tags").sorted()
    todo.due = try fields.date("due")
    todo.wait = try fields.date("wait")
    todo.scheduled = try fields.date("scheduled")
    todo.until = try fields.date("until")
    for text in try fields.strings("remind") {
      guard let reminder = Reminder(stored: text) else {
        throw fields.error("\"remind\" has '\(text)', which is not a reminder (due-15min, scheduled-1h, due-1d@09:00, 2026-12-01T08:00:00Z)")
      }
      todo.reminders.append(reminder)
    }
    todo.reason = try fields.string("reason")
    guard let created = try fields.instant("created") else { throw fields.error("the task has no \"created\" time") }
    todo.created = created
    todo.modified = try fields.instant("modified") ?? created
    todo.completed = try fields.instant("completed")
    todo.parentUUID = try fields.string("parent")
    todo.depends = try fields.strings("depends").map { TaskLink(id: 0, uuid: $0, isOpen: true) }
    if let recur = fields.take("recur"), recur != .null {
      guard case .object(let recurMembers) = recur else { throw fields.error("\"recur\" must be an object or null") }
      var series = Fields(members: recurMembers, line: line)
      guard let text = try series.string("rule"), let rule = RecurrenceRule(parsing: text) else {
        throw fields.error("\"recur\" needs a rule such as \"weekly\" or \"+2w\"")
      }
      _ = try series.string("mode")
      guard let uuid = try series.string("series") else { throw fields.error("\"recur\" needs its \"series\" UUID") }
      let index = try series.integer("instance") ?? 1
      let ended = try series.instant("ended")
      try series.finish()
      todo.series = SeriesLink(id: 0, uuid: uuid, index: Int(index), rule: rule, ended: ended)
    }
    for interval in try fields.objects("intervals") {
      var span = Fields(members: interval, line: line)
      guard let start = try span.instant("start") else { throw fields.error("an interval needs its \"start\"") }
      let end = try span.instant("end")
      try span.finish()
      todo.intervals.append(WorkInterval(id: 0, started: start, stopped: end))
    }
    for note in try fields.objects("notes") {
      var item = Fields(members: note, line: line)
      var stored = Note()
      guard let created = try item.instant("created") else { throw fields.error("a note needs its \"created\" time") }
      stored.created = created
      stored.text = try item.string("text") ?? ""
      try item.finish()
      todo.notes.append(stored)
    }
    let saysExtras = members.contains { $0.key == "extras" }
    var extras: [TaskExtra] = []
    for extra in try fields.objects("extras") {
      var item = Fields(members: extra, line: line)
      guard let format = try item.string("format"), let name = try item.string("name"), let value = try item.string("value")
      else { throw fields.error("an extra needs \"format\", \"name\" and \"value\"") }
      try item.finish()
      extras.append(TaskExtra(format: format, name: name, value: value))
    }
    fields.skip(computedKeys)
    try fields.finish()
    var record = TaskRecord(todo: todo, extras: extras, line: line)
    record.keepsStoredExtras = !saysExtras
    return record
  }
}

/// Reads the members of one JSON object by key, each once, and refuses keys nobody read.
struct Fields {
  private var members: [(key: String, value: JSONValue)]
  let line: Int

  init(members: [(key: String, value: JSONValue)], line: Int) {
    self.members = members
    self.line = line
  }

  func error(_ reason: String) -> InterchangeError { InterchangeError(line: line, reason) }

  /// Removes and returns a member's value.
  mutating func take(_ key: String) -> JSONValue? {
    guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
    return members.remove(at: index).value
  }

  mutating func skip(_ keys: Set<String>) { members.removeAll { keys.contains($0.key) } }

  /// The members nobody read.
  var rest: [(key: String, value: JSONValue)] { members }

  /// A member's value, left for others to read.
  func peek(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

  mutating func finish() throws(InterchangeError) {
    if let first = members.first { throw error("unknown key \"\(first.key)\"") }
  }

  mutating func string(_ key: String) throws(InterchangeError) -> String? {
    switch take(key) {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw error("\"\(key)\" must be a string")
    }
  }

  mutating func integer(_ key: String) throws(InterchangeError) -> Int64? {
    switch take(key) {
    case nil, .null?: return nil
    case .number(let text)?:
      guard let value = Int64(text) else { throw error("\"\(key)\" must be a whole number") }
      return value
    default: throw error("\"\(key)\" must be a number")
    }
  }

  mutating func strings(_ key: String) throws(InterchangeError) -> [String] {
    switch take(key) {
    case nil, .null?: return []
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let text) = value else { throw error("\"\(key)\" must be an array of strings") }
        strings.append(text)
      }
      return strings
    default: throw error("\"\(key)\" must be an array of strings")
    }
  }

  mutating func objects(_ key: String) throws(InterchangeError) -> [[(key: String, value: JSONValue)]] {
    switch take(key) {
    case nil, .null?: return []
    case .array(let values)?:
      var objects: [[(key: String, value: JSONValue)]] = []
      for value in values {
        guard case .object(let members) = value else { throw error("\"\(key)\" must be an array of objects") }
        objects.append(members)
      }
      return objects
    default: throw error("\"\(key)\" must be an array of objects")
    }
  }

  /// An RFC 3339 time.
  mutating func instant(_ key: String) throws(InterchangeError) -> Int64? {
    guard let text = try string(key) else { return nil }
    guard let seconds = Timestamp.parseTaskTime(text) else {
      throw error("\"\(key)\" is not an RFC 3339 time (2026-11-27T17:00:00Z): '\(text)'")
    }
    return seconds
  }

  /// A day (`YYYY-MM-DD`) or an RFC 3339 time.
  mutating func date(_ key: String) throws(InterchangeError) -> TaskDate? {
    guard let text = try string(key) else { return nil }
    if let day = CalendarDay(text: text) { return .day(day) }
    guard let seconds = Timestamp.parseTaskTime(text) else {
      throw error("\"\(key)\" is neither a day (2026-11-27) nor an RFC 3339 time: '\(text)'")
    }
    return .instant(seconds)
  }
}
