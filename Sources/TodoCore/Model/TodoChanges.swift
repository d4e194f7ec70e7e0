/// A change to one optional field: set a value, or clear it.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
  /// Store this value.
  case set(Value)
  /// Remove the value (the field becomes null).
  case clear
}

/// What a command asks to change on a task (or to set on a new one). Fields left nil are kept.
///
/// ```swift
/// var changes = TodoChanges(title: "Pay rent")
/// changes.addTags = ["home"]
/// changes.due = .set(deadline)
/// ```
public struct TodoChanges: Sendable, Equatable {
  /// The new title.
  public var title: String?
  /// Tags to add (names without `+`).
  public var addTags: [String] = []
  /// Tags to remove.
  public var removeTags: [String] = []
  /// Set or clear the project.
  public var project: FieldChange<String>?
  /// Set or clear the priority.
  public var priority: FieldChange<Priority>?
  /// Set or clear the due date.
  public var due: FieldChange<DateSetting>?
  /// Set or clear the wait date (hidden until then).
  public var wait: FieldChange<DateSetting>?
  /// Set or clear the scheduled date (the earliest start).
  public var scheduled: FieldChange<DateSetting>?
  /// Set or clear the until date (expires after it).
  public var until: FieldChange<DateSetting>?
  /// Notes to append, in order (`--note` may be given several times).
  public var notes: [String] = []
  /// Make the task a subtask of another, or a task of its own again.
  public var parent: FieldChange<TaskReference>?
  /// Tasks this one starts or stops waiting for (`depends:3,-5`).
  public var addDepends: [TaskReference] = []
  public var removeDepends: [TaskReference] = []
  /// Tasks that start or stop waiting for this one (`blocks:7`).
  public var addBlocks: [TaskReference] = []
  public var removeBlocks: [TaskReference] = []
  /// Make the task a series (or change its rule), or stop it repeating.
  public var recur: FieldChange<RecurrenceRule>?
  /// Notes given new text, by their number (1 = the oldest), as `show` numbers them (`edit`).
  public var editedNotes: [NoteEdit] = []
  /// Notes removed, by their number (`edit`).
  public var removedNotes: [Int] = []
  /// The UUID a new task gets, when the caller makes it (so that a preview of `add`, which
  /// hooks see, and the write agree); nil: a new random one. Only `add` reads it; it must be a
  /// lowercase UUID (checked by `Validation.changes`).
  public var uuid: String?
  /// User-defined attributes set (their stored JSON text, see `UserAttribute`) or cleared (nil),
  /// by name.
  public var attributes: [String: String?] = [:]
  /// Words added after (`append`) or before (`prepend`) the title.
  public var appendText: String?
  public var prependText: String?
  /// `/old/new/`: text replaced in the title, or else in the notes.
  public var substitution: Substitution?
  /// The task's reminders from now on (`remind:due-15min,fri@9:00`); empty clears them, nil keeps them.
  public var reminders: [Reminder]?

  public init(title: String? = nil) {
    self.title = title
  }

  /// True when nothing would change.
  public var isEmpty: Bool {
    title == nil && addTags.isEmpty && removeTags.isEmpty && project == nil && priority == nil && due == nil
      && wait == nil && scheduled == nil && until == nil && notes.isEmpty && !changesLinks && appendText == nil
      && prependText == nil && editedNotes.isEmpty && removedNotes.isEmpty && substitution == nil && attributes.isEmpty
      && reminders == nil
  }

  /// True when the change touches a parent, a dependency or a series (resolved by the store).
  public var changesLinks: Bool {
    parent != nil || !addDepends.isEmpty || !removeDepends.isEmpty || !addBlocks.isEmpty || !removeBlocks.isEmpty
      || recur != nil
  }

  /// Applies the field changes to a task (tags and notes are stored separately by the store).
  /// Dates relative to the due date (`wait:due-3d`) count from the task's due date after this
  /// change.
  /// - Throws: `TodoError.invalid` when a date counts from a due date the task does not have.
  func apply(to todo: inout Todo, now: Int64) throws(TodoError) {
    if let title { todo.title = title }
    if let appendText { todo.title += " " + appendText }
    if let prependText { todo.title = prependText + " " + todo.title }
    if let substitution { try substitution.apply(to: &todo) }
    switch project {
    case .set(let value): todo.project = value
    case .clear: todo.project = nil
    case nil: break
    }
    switch priority {
    case .set(let value): todo.priority = value
    case .clear: todo.priority = nil
    case nil: break
    }
    let oldDue = todo.due
    todo.due = try Self.resolve(due, current: todo.due, due: oldDue, now: now, id: todo.id)
    todo.wait = try Self.resolve(wait, current: todo.wait, due: todo.due, now: now, id: todo.id)
    todo.scheduled = try Self.resolve(scheduled, current: todo.scheduled, due: todo.due, now: now, id: todo.id)
    todo.until = try Self.resolve(until, current: todo.until, due: todo.due, now: now, id: todo.id)
    if let reminders { todo.reminders = reminders }
    var tags = Set(todo.tags)
    tags.subtract(removeTags)
    tags.formUnion(addTags)
    todo.tags = tags.sorted()
    guard !editedNotes.isEmpty || !removedNotes.isEmpty else { return }
    for number in editedNotes.map(\.number) + removedNotes where !(1...max(1, todo.notes.count)).contains(number) || todo.notes.isEmpty {
      throw .noSuchNote("task \(todo.id) has no note \(number)")
    }
    for edit in editedNotes { todo.notes[edit.number - 1].text = edit.text }
    for number in removedNotes.sorted(by: >) { todo.notes.remove(at: number - 1) }
  }

  /// The new value of a date field.
  private static func resolve(_ change: FieldChange<DateSetting>?, current: TaskDate?, due: TaskDate?, now: Int64, id: Int64)
    throws(TodoError) -> TaskDate?
  {
    switch change {
    case nil: return current
    case .clear: return nil
    case .set(.date(let date)): return date
    case .set(.fromDue(let text)):
      let task = id == 0 ? "the new task" : "task \(id)"
      let date: TaskDate
      do throws(DateExpressionError) {
        date = TaskDate(try DateExpressionParser(now: now, due: due).read(text))
      } catch {
        throw .invalid("cannot read the date '\(text)' for \(task): \(error.reason)")
      }
      // Checked as a typed date is (`Validation.changes`), once the due date it counts from is known.
      guard date.isRepresentable else {
        throw .invalid("'\(text)' for \(task) is \(date.text), out of range: \(Timestamp.outOfRangeReason)")
      }
      return date
    }
  }
}

/// A note given new text: its number (1 = the oldest) and the text.
public struct NoteEdit: Sendable, Equatable {
  public var number: Int
  public var text: String

  public init(number: Int, text: String) {
    self.number = number
    self.text = text
  }
}

/// The rules for names the user types.
public enum Validation {
  /// A tag is one word: no whitespace or control characters, not starting with `+` or `-`, ≤ 64 characters.
  ///
  /// ```swift
  /// try Validation.tag("home")   // ok
  /// ```
  /// - Throws: `TodoError.invalid` with the reason.
  public static func tag(_ name: String) throws(TodoError) {
    guard !name.isEmpty else { throw .invalid("a tag cannot be empty") }
    guard name.count <= 64 else { throw .invalid("tag '\(name.prefix(20))…' is longer than 64 characters") }
    guard !name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
    else { throw .invalid("tag '\(name)' contains a space or a control character") }
    guard let first = name.first, first != "+", first != "-" else {
      throw .invalid("tag '\(name)' cannot start with '+' or '-'")
    }
  }

  /// A project is dot-separated non-empty parts without whitespace, ≤ 128 characters.
  ///
  /// ```swift
  /// try Validation.project("work.q4")
  /// ```
  /// - Throws: `TodoError.invalid` with the reason.
  public static func project(_ name: String) throws(TodoError) {
    guard !name.isEmpty else { throw .invalid("a project name cannot be empty") }
    guard name.count <= 128 else { throw .invalid("project name is longer than 128 characters") }
    guard !name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
    else { throw .invalid("project '\(name)' contains a space or a control character") }
    guard !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
      throw .invalid("project '\(name)' has an empty part (write parts like work.q4)")
    }
  }

  /// A title is not empty or blank; at most 100,000 bytes.
  /// - Throws: `TodoError.invalid` with the reason.
  public static func title(_ text: String) throws(TodoError) {
    guard text.contains(where: { !$0.isWhitespace }) else { throw .invalid("a task needs a title") }
    guard text.utf8.count <= 100_000 else { throw .invalid("the title is longer than 100,000 bytes") }
  }

  /// Checks every name a change carries.
  /// - Throws: `TodoError.invalid` for the first bad one.
  public static func changes(_ changes: TodoChanges) throws(TodoError) {
    if let title = changes.title { try Validation.title(title) }
    for tag in changes.addTags + changes.removeTags { try Validation.tag(tag) }
    // A tag of that name made before virtual tags existed can still be removed.
    for tag in changes.addTags where VirtualTag(rawValue: tag) != nil {
      throw .invalid("+\(tag) is a virtual tag: todo works it out from the task, so it cannot be added")
    }
    if case .set(let project) = changes.project { try Validation.project(project) }
    for name in changes.attributes.keys where !UserAttribute.isName(name) {
      throw .invalid("'\(name)' cannot be a user-defined attribute: \(UserAttribute.nameRule)")
    }
    for (name, change) in [("due", changes.due), ("wait", changes.wait), ("scheduled", changes.scheduled), ("until", changes.until)] {
      if case .set(.date(let date))? = change, !date.isRepresentable {
        throw .invalid("\(name) \(date.text) is out of range: \(Timestamp.outOfRangeReason)")
      }
    }
    if let uuid = changes.uuid, !UUIDGenerator.isUUID(uuid) {
      throw .invalid("'\(uuid)' is not a UUID (8-4-4-4-12 lowercase hex digits)")
    }
    for note in changes.notes + changes.editedNotes.map(\.text) {
      guard note.contains(where: { !$0.isWhitespace }) else { throw .invalid("a note cannot be empty") }
      guard note.utf8.count <= 100_000 else { throw .invalid("the note is longer than 100,000 bytes") }
    }
  }
}

/// Taskwarrior's `/old/new/` (`/old/new/g`: every occurrence): the text replaced in the title
/// when the title has it, else in the first note that has it (every note with `g`). The text
/// is compared as typed (case included), not as a pattern.
public struct Substitution: Sendable, Equatable {
  public var old: String
  public var new: String
  public var everywhere: Bool

  public init(old: String, new: String, everywhere: Bool) {
    self.old = old
    self.new = new
    self.everywhere = everywhere
  }

  /// - Throws: `TodoError.invalid` when neither the title nor a note has the text, or the
  ///   title would be left empty.
  func apply(to todo: inout Todo) throws(TodoError) {
    if todo.title.contains(old) {
      todo.title = replaced(in: todo.title)
      guard todo.title.contains(where: { !$0.isWhitespace }) else {
        throw .invalid("task \(todo.id): replacing '\(old)' would leave the title empty")
      }
      return
    }
    let having = todo.notes.indices.filter { todo.notes[$0].text.contains(old) }
    guard let first = having.first else {
      throw .invalid("task \(todo.id) has no '\(old)' in its title or notes (the text is compared as typed, case included)")
    }
    for index in everywhere ? having : [first] { todo.notes[index].text = replaced(in: todo.notes[index].text) }
  }

  private func replaced(in text: String) -> String {
    text.replacing(old, with: new, maxReplacements: everywhere ? .max : 1)
  }
}
