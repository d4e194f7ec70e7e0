import DataOperation

#if canImport(Glibc)
import Glibc
#endif

/// Where a task is in its life.
public enum Status: String, Sendable, CaseIterable, SQLValueConvertible {
  case pending, done, deleted

  /// Reads a status from its stored bytes without making a string (lists read one per task).
  init?(utf8 bytes: UnsafeBufferPointer<UInt8>?) {
    guard let bytes, let first = bytes.first else { return nil }
    switch (first, bytes.count) {
    case (UInt8(ascii: "p"), 7) where Self.matches(bytes, "pending"): self = .pending
    case (UInt8(ascii: "d"), 4) where Self.matches(bytes, "done"): self = .done
    case (UInt8(ascii: "d"), 7) where Self.matches(bytes, "deleted"): self = .deleted
    default: return nil
    }
  }

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    bytes.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
  }

  /// The status in a column, straight from its bytes; anything unexpected goes through
  /// `decode`, whose error names the column and the value.
  init(row: Row, at index: Int32) throws(DatabaseError) {
    if let known = try row.withText(at: index, Status.init(utf8:)) { self = known } else { self = try row.decode(at: index) }
  }

  public var sqlValue: SQLValue { .text(rawValue) }
  public init?(sqlValue: SQLValue) {
    guard case .text(let text) = sqlValue, let status = Status(rawValue: text) else { return nil }
    self = status
  }
}

/// How urgent a task is: high, medium or low.
public enum Priority: String, Sendable, CaseIterable, Comparable, SQLValueConvertible {
  /// Reads a stored priority (`H`, `M`, `L`) from its bytes without making a string.
  init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count == 1 else { return nil }
    switch bytes[0] {
    case UInt8(ascii: "H"): self = .high
    case UInt8(ascii: "M"): self = .medium
    case UInt8(ascii: "L"): self = .low
    default: return nil
    }
  }

  case high = "H", medium = "M", low = "L"

  /// The priority in a column (nil for NULL), straight from its bytes; anything unexpected goes
  /// through `decode`, whose error names the column and the value.
  static func optional(row: Row, at index: Int32) throws(DatabaseError) -> Priority? {
    switch try row.withText(at: index, { bytes in bytes.map(Priority.init(utf8:)) }) {
    case .some(.some(let known)): known
    case .some(.none): try row.decode(at: index)
    case .none: nil
    }
  }

  /// Reads `H`/`M`/`L` or `high`/`medium`/`low` (any case).
  ///
  /// ```swift
  /// Priority(parsing: "high") == .high
  /// ```
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "h", "high": self = .high
    case "m", "medium", "med": self = .medium
    case "l", "low": self = .low
    default: return nil
    }
  }

  /// Larger is more urgent (for sorting).
  public var rank: Int {
    switch self {
    case .high: 3
    case .medium: 2
    case .low: 1
    }
  }

  public static func < (left: Priority, right: Priority) -> Bool { left.rank < right.rank }

  public var sqlValue: SQLValue { .text(rawValue) }
  public init?(sqlValue: SQLValue) {
    guard case .text(let text) = sqlValue, let priority = Priority(rawValue: text) else { return nil }
    self = priority
  }
}

/// A timestamped note on a task.
public struct Note: Entity, Equatable {
  public var id: Int64 = 0
  public var todoID: Int64 = 0
  /// When the note was written, seconds since the epoch (UTC).
  public var created: Int64 = 0
  public var text = ""

  public init() {}

  public init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    todoID = try row.decode("todo_id")
    created = try row.decode("created")
    text = try row.decode("text")
  }

  public func encode(to columns: inout Columns) {
    columns["todo_id"] = todoID
    columns["created"] = created
    columns["text"] = text
  }
}

/// A task: the domain's main entity, stored in the `todo` table (its tags in `tag`, its notes in
/// `note`). Times are seconds since the epoch, UTC.
///
/// As an `Entity` it covers the `todo` row only: `Repository<Todo>` reads tasks with empty `tags`
/// and `notes` and writes neither. Read and change whole tasks through `TodoStore`, which loads
/// and stores tags and notes with the row.
///
/// ```swift
/// let task = try TodoStore.add(TodoChanges(title: "Buy milk"), now: now).operate(in: context)
/// ```
public struct Todo: Entity, Equatable {
  /// Stable for the task's whole life and never reused.
  public var id: Int64 = 0
  public var uuid = ""
  public var title = ""
  public var status = Status.pending
  public var priority: Priority?
  /// A dotted hierarchy: `work.q4` is inside `work`.
  public var project: String?
  /// Sorted, without duplicates.
  public var tags: [String] = []
  /// When the task is due: an instant, or a whole day (see `TaskDate`).
  public var due: TaskDate?
  /// Hidden from lists (`+WAITING`) until then.
  public var wait: TaskDate?
  /// The earliest time to start: the task is `+READY` only from then.
  public var scheduled: TaskDate?
  /// The task expires after this: the next command that writes deletes it (reason `expired`).
  public var until: TaskDate?
  /// Why a task was closed other than by a command: `expired` (its `until` passed).
  public var reason: String?
  public var created: Int64 = 0
  public var modified: Int64 = 0
  public var completed: Int64?
  /// Oldest first.
  public var notes: [Note] = []
  /// The task this one is a subtask of.
  public var parentID: Int64?
  /// The series this task is an instance of, and its number there (stored columns).
  public var seriesID: Int64?
  public var seriesIndex: Int?
  /// When to tell the user about the task (`remind:`), in the order given.
  public var reminders: [Reminder] = []

  // Read with the task (see `Relations`), never written through the row.
  /// The parent's UUID.
  public var parentUUID: String?
  /// The tasks this one waits for, in id order.
  public var depends: [TaskLink] = []
  /// The pending tasks that wait for this one, in id order.
  public var blocking: [Int64] = []
  /// The series, its rule and this instance's number.
  public var series: SeriesLink?
  /// The times the task was worked on, oldest first; the last one is running when it has no end.
  public var intervals: [WorkInterval] = []
  /// Its subtasks: how many are done of how many (deleted ones left out); nil without subtasks.
  public var progress: Progress?

  public init() {}

  /// Waits for a task that is still pending.
  public var isBlocked: Bool { depends.contains(where: \.isOpen) }
  /// Being worked on now: its last interval is still running.
  public var isActive: Bool { intervals.last.map { $0.stopped == nil } ?? false }

  /// Pending with a wait date still ahead: hidden from lists until then.
  public func isWaiting(now: Int64) -> Bool {
    guard status == .pending, let wait else { return false }
    return !wait.isPast(now: now) && wait.sortInstant > now
  }

  /// Decodes the columns of `todo`; `tags` too when the query selected them as a space-separated
  /// `tags` column (notes are loaded separately).
  public init(row: Row) throws(DatabaseError) {
    id = try row.decode("id")
    uuid = try row.decode("uuid")
    title = try row.string("title")
    status = try row.decode("status")
    priority = try row.decode("priority")
    project = try row.decode("project")
    due = try Self.date(row, "due")
    wait = try Self.date(row, "wait")
    scheduled = try Self.date(row, "scheduled")
    until = try Self.date(row, "until")
    reason = try row.decode("end_reason")
    created = try row.decode("created")
    modified = try row.decode("modified")
    completed = try row.decode("completed")
    parentID = try row.decode("parent_id")
    seriesID = try row.decode("series_id")
    seriesIndex = try row.decode("series_index")
    if row.hasColumn("remind") { reminders = Reminder.list(stored: try row.decode("remind")) }
    if row.hasColumn("tags"), case .text(let joined) = try row.value("tags") {
      tags = joined.split(separator: " ").map(String.init).sorted()
    }
  }

  /// A date stored in the columns `name` (its instant) and `name_day`.
  static func date(_ row: Row, _ name: String) throws(DatabaseError) -> TaskDate? {
    let instant: Int64? = try row.decode(name)
    let day: String? = try row.decode(name + "_day")
    guard let instant else { return nil }
    guard let day else { return .instant(instant) }
    guard let parsed = CalendarDay(text: day) else {
      throw .decoding(column: name + "_day", expected: "a date YYYY-MM-DD", found: day, sql: "")
    }
    return .day(parsed)
  }

  /// A date stored in two columns from `index` on (the instant, then the day), by position.
  static func date(_ row: Row, at index: Int32) throws(DatabaseError) -> TaskDate? {
    guard let instant = try row.integer(at: index) else { return nil }
    let read = try row.withText(at: index + 1) { bytes -> TaskDate? in
      guard let bytes else { return .instant(instant) }
      return CalendarDay(utf8: bytes).map(TaskDate.day)
    }
    guard let read else {
      throw .decoding(column: "column \(index + 1)", expected: "a date YYYY-MM-DD", found: try row.text(at: index + 1) ?? "", sql: "")
    }
    return read
  }

  /// The position of `has_notes` in a row of `TodoStore.selectTodo`.
  static let hasNotesIndex: Int32 = 23

  /// Decodes a row of `TodoStore.selectTodo` by position (no column name is looked up: lists of
  /// a million tasks read every row through here).
  init(selected row: Row) throws(DatabaseError) {
    id = try row.integer(at: 0) ?? 0
    uuid = try row.text(at: 1) ?? ""
    title = try row.text(at: 2) ?? ""
    status = try Status(row: row, at: 3)
    priority = try Priority.optional(row: row, at: 4)
    project = try row.text(at: 5)
    due = try Self.date(row, at: 6)
    wait = try Self.date(row, at: 8)
    scheduled = try Self.date(row, at: 10)
    until = try Self.date(row, at: 12)
    reason = try row.text(at: 14)
    created = try row.integer(at: 15) ?? 0
    modified = try row.integer(at: 16) ?? 0
    completed = try row.integer(at: 17)
    // Tags come space-separated and already in name order (see `selectTodo`).
    tags = try row.withText(at: 18) { bytes in
      guard let bytes else { return [] }
      var names: [String] = []
      var start = 0
      for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: " ") {
        if index > start { names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
        start = index + 1
      }
      // The key's order is how SQLite walks the tag table here, but group_concat promises no
      // order: sort when it ever differs (checking is one pass, and tags compare as sets).
      if !zip(names, names.dropFirst()).allSatisfy({ $0 < $1 }) { names.sort() }
      return names
    }
    parentID = try row.integer(at: 19)
    seriesID = try row.integer(at: 20)
    seriesIndex = try row.integer(at: 21).map { Int($0) }
    if let stored = try row.text(at: 22) { reminders = Reminder.list(stored: stored) }
  }

  public func encode(to columns: inout Columns) {
    columns["uuid"] = uuid
    columns["title"] = title
    columns["status"] = status
    columns["priority"] = priority
    columns["project"] = project
    columns["due"] = due?.sortInstant
    columns["due_day"] = due?.dayText
    columns["wait"] = wait?.sortInstant
    columns["wait_day"] = wait?.dayText
    columns["scheduled"] = scheduled?.sortInstant
    columns["scheduled_day"] = scheduled?.dayText
    columns["until"] = until?.sortInstant
    columns["until_day"] = until?.dayText
    columns["end_reason"] = reason
    columns["created"] = created
    columns["modified"] = modified
    columns["completed"] = completed
    columns["parent_id"] = parentID
    columns["series_id"] = seriesID
    columns["series_index"] = seriesIndex.map(Int64.init)
    columns["remind"] = Reminder.stored(reminders)
  }
}

/// Another task a task points to: its id, UUID, and whether it is still pending.
public struct TaskLink: Sendable, Equatable {
  public var id: Int64
  public var uuid: String
  public var isOpen: Bool

  public init(id: Int64, uuid: String, isOpen: Bool) {
    self.id = id
    self.uuid = uuid
    self.isOpen = isOpen
  }
}

/// A time a task was worked on (`start` … `stop`); `stopped` is nil while it runs.
public struct WorkInterval: Sendable, Equatable {
  public var id: Int64
  public var started: Int64
  public var stopped: Int64?

  public init(id: Int64, started: Int64, stopped: Int64?) {
    self.id = id
    self.started = started
    self.stopped = stopped
  }

  /// Its length in seconds, a running one counted until `now`.
  public func seconds(now: Int64) -> Int64 { max(0, (stopped ?? now) - started) }
}

/// How many of a task's subtasks are done, of how many (deleted ones left out).
public struct Progress: Sendable, Equatable {
  public var done: Int
  public var total: Int

  public init(done: Int, total: Int) {
    self.done = done
    self.total = total
  }
}
