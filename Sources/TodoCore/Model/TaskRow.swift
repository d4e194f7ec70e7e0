import DataOperation

#if canImport(Glibc)
import Glibc
#endif

/// What a list table shows of a task: no UUID, no notes, and the tags as one space-separated
/// text in name order. A million-row list reads these instead of whole tasks, so that each row
/// costs no tag array, no UUID string and no second query.
///
/// ```swift
/// let row = TaskRow(todo)
/// row.tagText  // "home urgent"
/// ```
public struct TaskRow: Sendable, Equatable {
  public var id: Int64
  public var title: String
  public var status: Status
  public var priority: Priority?
  public var project: String?
  public var due: TaskDate?
  public var created: Int64
  public var modified: Int64
  public var completed: Int64?
  /// The tags in name order, separated by one space; empty when there are none.
  public var tagText: String
  /// How many of its subtasks are done, of how many; nil without subtasks.
  public var progress: Progress?

  public init(_ todo: Todo) {
    id = todo.id
    title = todo.title
    status = todo.status
    priority = todo.priority
    project = todo.project
    due = todo.due
    created = todo.created
    modified = todo.modified
    completed = todo.completed
    tagText = todo.tags.sorted().joinedText(" ")
    progress = todo.progress
  }

  /// The columns `init(selected:)` reads, in its order; the times (created, modified,
  /// completed) only when `times`: a list shows them only when sorted by one.
  /// With `progress`, the counts of each task's subtasks follow (only asked when some task has
  /// subtasks).
  static func selectColumns(times: Bool, progress: Bool = false) -> String {
    """
    SELECT todo.id, todo.title, todo.status, todo.priority, todo.project, todo.due, todo.due_day,
      (SELECT group_concat(name, ' ') FROM tag WHERE tag.todo_id = todo.id) AS tags\(times ? ", todo.created, todo.modified, todo.completed" : "")\(progress ? ", \(progressColumns)" : "") FROM todo
    """
  }

  private static let progressColumns = """
    (SELECT count(*) FROM todo AS child INDEXED BY todo_by_parent WHERE child.parent_id = todo.id AND child.status = 'done'),
    (SELECT count(*) FROM todo AS child INDEXED BY todo_by_parent WHERE child.parent_id = todo.id AND child.status != 'deleted')
    """

  /// Whether a list in this order shows a time column, and so reads the times.
  public static func showsTimes(sortedBy sort: [SortKey]) -> Bool {
    sort.contains { [.created, .modified, .completed].contains($0.field) }
  }

  /// Decodes the rows of one query of `selectColumns(times:)`, sharing a project or tag text
  /// equal to the previous row's rather than copying it again (a list of one project repeats it
  /// on every row).
  struct Decoder {
    let times: Bool
    let progress: Bool
    private var project: String?
    private var tags = ""

    init(times: Bool, progress: Bool = false) {
      self.times = times
      self.progress = progress
    }

    mutating func decode(_ row: Row) throws(DatabaseError) -> TaskRow {
      var task = try TaskRow(selected: row, times: times, project: project, tags: tags)
      if progress {
        let first: Int32 = times ? 11 : 8
        let total = Int(try row.integer(at: first + 1) ?? 0)
        if total > 0 { task.progress = Progress(done: Int(try row.integer(at: first) ?? 0), total: total) }
      }
      project = task.project
      tags = task.tagText
      return task
    }
  }

  /// Decodes a row of `selectColumns(times:)` by position; without the times they are 0 and nil.
  private init(selected row: Row, times: Bool, project previousProject: String?, tags previousTags: String)
    throws(DatabaseError)
  {
    id = try row.integer(at: 0) ?? 0
    title = try row.text(at: 1) ?? ""
    status = try Status(row: row, at: 2)
    priority = try Priority.optional(row: row, at: 3)
    project = try row.withText(at: 4) { bytes in
      guard let bytes else { return nil }
      if let previousProject, Self.equals(previousProject, bytes) { return previousProject }
      return String(decoding: bytes, as: UTF8.self)
    }
    due = try Todo.date(row, at: 5)
    tagText = try row.withText(at: 7) { bytes -> String in
      guard let bytes, !bytes.isEmpty else { return "" }
      if Self.equals(previousTags, bytes) { return previousTags }
      // group_concat promises no order; the key's order is what SQLite walks here, so this is
      // only checked (byte order is the BINARY collation of the tag key).
      if Self.isInByteOrder(bytes) { return String(decoding: bytes, as: UTF8.self) }
      let names = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
      return names.sorted().joinedText(" ")
    }
    if times {
      created = try row.integer(at: 8) ?? 0
      modified = try row.integer(at: 9) ?? 0
      completed = try row.integer(at: 10)
    } else {
      created = 0
      modified = 0
      completed = nil
    }
  }

  private static func equals(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      utf8.count == bytes.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
  }

  /// Whether the space-separated words of `bytes` are in ascending byte order.
  private static func isInByteOrder(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var previous = 0..<0
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: " ") {
      let word = start..<index
      if !previous.isEmpty
        && !UnsafeBufferPointer(rebasing: bytes[previous]).lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: bytes[word]))
      {
        return false
      }
      previous = word
      start = index + 1
    }
    return true
  }
}
