import TodoCore
import TodoInterchange

/// Which copy of an item a merge took a field from.
public enum SyncSide: String, Sendable {
  /// This database.
  case local
  /// The vdir (what the server, a phone or another machine wrote).
  case remote
}

/// A field both sides changed to different values since the last sync: the later change was
/// kept, the other is recorded (`todo sync --conflicts`).
public struct SyncConflict: Sendable, Equatable {
  public var taskUUID: String
  public var field: String
  public var kept: String
  public var lost: String
  public var keptSide: SyncSide

  public init(taskUUID: String, field: String, kept: String, lost: String, keptSide: SyncSide) {
    self.taskUUID = taskUUID
    self.field = field
    self.kept = kept
    self.lost = lost
    self.keptSide = keptSide
  }
}

/// What merging one item gave.
public struct MergeOutcome: Sendable, Equatable {
  public var record: TaskRecord
  public var conflicts: [SyncConflict] = []
  /// A deletion undone by an edit on the other side, one sentence each.
  public var warnings: [String] = []
}

/// The three-way merge of one task, field by field, against the copy both sides had at the last
/// sync (`base`). It knows nothing of files or databases.
///
/// - A field changed on one side takes that side's value; changed on both to the same value, that
///   value; to different values, the side whose task changed later (`modified`; this database on
///   a tie) wins and the other value is returned as a conflict.
/// - Tags, dependencies and notes merge as sets: what either side added or removed stays added or
///   removed. Other programs' fields (extras) merge one by one.
/// - An edit beats a delete: when one side deleted the task and the other changed anything else,
///   the task stays undeleted (with a warning).
/// - With no base (both sides made the item on their own, e.g. the same recurring instance), every
///   difference is a conflict decided by time, and sets are joined.
public enum FieldMerge {
  /// One mergeable field: its value as text (for comparing and for the conflict list) and how to
  /// copy it from one record to another.
  struct Field: Sendable {
    var name: String
    var value: @Sendable (TaskRecord) -> String
    var copy: @Sendable (inout TaskRecord, TaskRecord) -> Void
  }

  static let fields: [Field] = [
    Field(name: "title", value: { $0.todo.title }, copy: { $0.todo.title = $1.todo.title }),
    Field(
      name: "status", value: { $0.todo.status.rawValue },
      copy: {
        $0.todo.status = $1.todo.status
        $0.todo.completed = $1.todo.completed
      }),
    Field(
      name: "completed", value: { $0.todo.completed.map { Timestamp.rfc3339($0) } ?? "" },
      copy: { $0.todo.completed = $1.todo.completed }),
    Field(name: "priority", value: { $0.todo.priority?.rawValue ?? "" }, copy: { $0.todo.priority = $1.todo.priority }),
    Field(name: "project", value: { $0.todo.project ?? "" }, copy: { $0.todo.project = $1.todo.project }),
    Field(name: "due", value: { $0.todo.due?.text ?? "" }, copy: { $0.todo.due = $1.todo.due }),
    Field(name: "wait", value: { $0.todo.wait?.text ?? "" }, copy: { $0.todo.wait = $1.todo.wait }),
    Field(name: "scheduled", value: { $0.todo.scheduled?.text ?? "" }, copy: { $0.todo.scheduled = $1.todo.scheduled }),
    Field(name: "until", value: { $0.todo.until?.text ?? "" }, copy: { $0.todo.until = $1.todo.until }),
    Field(
      name: "remind", value: { $0.todo.reminders.map(\.text).joinedText(",") }, copy: { $0.todo.reminders = $1.todo.reminders }),
    Field(name: "reason", value: { $0.todo.reason ?? "" }, copy: { $0.todo.reason = $1.todo.reason }),
    Field(name: "parent", value: { $0.todo.parentUUID ?? "" }, copy: { $0.todo.parentUUID = $1.todo.parentUUID }),
    Field(
      name: "series",
      value: { $0.todo.series.map { "\($0.uuid) \($0.index) \($0.rule.description) \($0.ended.map(String.init) ?? "")" } ?? "" },
      copy: { $0.todo.series = $1.todo.series }),
    Field(
      name: "intervals",
      value: { $0.todo.intervals.map { "\($0.started)-\($0.stopped.map(String.init) ?? "")" }.joinedText(",") },
      copy: { $0.todo.intervals = $1.todo.intervals }),
  ]

  /// Extras that are a vdir's bookkeeping, not the task's content: the file name, the SEQUENCE
  /// seen, and the RELATED-TO lines as read (the links themselves are fields).
  static func isBookkeeping(_ extra: TaskExtra) -> Bool {
    extra.format == "ical" && (extra.name == "file" || extra.name == "sequence" || extra.name == "related")
  }

  /// True when two copies of a task agree in every field a merge looks at (times of creation and
  /// change, and a vdir's bookkeeping, aside).
  public static func sameFields(_ one: TaskRecord, _ other: TaskRecord) -> Bool {
    for field in fields where field.value(one) != field.value(other) { return false }
    return Set(one.todo.tags) == Set(other.todo.tags) && Set(one.todo.depends.map(\.uuid)) == Set(other.todo.depends.map(\.uuid))
      && Set(one.todo.notes.map(noteKey)) == Set(other.todo.notes.map(noteKey)) && extras(one) == extras(other)
  }

  static func noteKey(_ note: Note) -> String { "\(note.created) \(note.text)" }

  /// Whether both say the same of which of the task's current reminders were delivered (an
  /// acknowledgement of a reminder the task no longer has is no difference).
  public static func sameAcknowledgements(_ one: TaskRecord, _ other: TaskRecord) -> Bool {
    let fires = one.todo.reminders.compactMap { $0.fire(due: one.todo.due, scheduled: one.todo.scheduled) }
    return fires.allSatisfy { (one.acknowledged[$0] == nil) == (other.acknowledged[$0] == nil) }
  }

  static func extras(_ record: TaskRecord) -> [String: String] {
    var byKey: [String: String] = [:]
    for extra in record.extras where !isBookkeeping(extra) { byKey[extra.format + "\u{1}" + extra.name] = extra.value }
    return byKey
  }

  /// Merges one task. `local` and `remote` are the two copies now; `base` the copy at the last
  /// sync (nil when there is none). The result keeps the local copy's id, UUID and creation time;
  /// its `modified` is the later of the two sides'.
  public static func merge(base: TaskRecord?, local: TaskRecord, remote: TaskRecord) -> MergeOutcome {
    let uuid = local.todo.uuid
    let remoteIsLater = remote.todo.modified > local.todo.modified
    var merged = local
    // Deliveries are facts, not edits: what either side delivered stays delivered.
    merged.acknowledged.merge(remote.acknowledged) { min($0, $1) }
    var outcome = MergeOutcome(record: local)
    func conflict(_ field: String, _ localValue: String, _ remoteValue: String) -> SyncSide {
      let side: SyncSide = remoteIsLater ? .remote : .local
      outcome.conflicts.append(
        SyncConflict(
          taskUUID: uuid, field: field, kept: side == .local ? localValue : remoteValue,
          lost: side == .local ? remoteValue : localValue, keptSide: side))
      return side
    }
    // An edit beats a delete: a side that deleted the task while the other changed something else
    // loses the deletion.
    let localDeleted = local.todo.status == .deleted && base.map { $0.todo.status != .deleted } ?? false
    let remoteDeleted = remote.todo.status == .deleted && base.map { $0.todo.status != .deleted } ?? false
    var statusFrom: SyncSide?
    if let base, localDeleted != remoteDeleted {
      let editor = localDeleted ? remote : local
      var undeleted = editor
      undeleted.todo.status = base.todo.status
      undeleted.todo.completed = base.todo.completed
      if !sameFields(undeleted, base) {
        statusFrom = localDeleted ? .remote : .local
        outcome.warnings.append(
          "task \(uuid) (\(editor.todo.title)) was deleted \(localDeleted ? "here" : "on the server") and changed "
            + "\(localDeleted ? "on the server" : "here"); the change wins and the task is kept")
      }
    }
    for field in fields {
      let localValue = field.value(local)
      let remoteValue = field.value(remote)
      guard localValue != remoteValue else { continue }
      var side: SyncSide
      if field.name == "status" || field.name == "completed", let statusFrom {
        side = statusFrom
      } else if let base {
        let baseValue = field.value(base)
        if localValue == baseValue {
          side = .remote
        } else if remoteValue == baseValue {
          side = .local
        } else {
          side = conflict(field.name, localValue, remoteValue)
        }
      } else {
        side = conflict(field.name, localValue, remoteValue)
      }
      // A completion time follows its status when both changed together.
      if field.name == "completed", merged.todo.status == .pending { side = .local }
      if side == .remote { field.copy(&merged, remote) }
    }
    if merged.todo.status == .pending { merged.todo.completed = nil }
    // Sets: what either side added or removed since the base stays so.
    merged.todo.tags = mergeSet(base?.todo.tags, local.todo.tags, remote.todo.tags) { $0 }.sorted()
    let links = Dictionary(remote.todo.depends.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
      .merging(local.todo.depends.map { ($0.uuid, $0) }, uniquingKeysWith: { _, local in local })
    merged.todo.depends = mergeSet(base?.todo.depends, local.todo.depends, remote.todo.depends) { $0.uuid }
      .sorted().compactMap { links[$0] }
    let notes = Dictionary(
      (remote.todo.notes + local.todo.notes).map { (noteKey($0), $0) }, uniquingKeysWith: { _, last in last })
    merged.todo.notes = mergeSet(base?.todo.notes, local.todo.notes, remote.todo.notes, key: noteKey)
      .compactMap { notes[$0] }.sorted { ($0.created, $0.text) < ($1.created, $1.text) }
    // Other programs' fields, one by one (a missing one is an empty value).
    let baseExtras = base.map(extras) ?? [:]
    let localExtras = extras(local)
    let remoteExtras = extras(remote)
    var mergedExtras = localExtras
    for key in Set(localExtras.keys).union(remoteExtras.keys) {
      let localValue = localExtras[key] ?? ""
      let remoteValue = remoteExtras[key] ?? ""
      guard localValue != remoteValue else { continue }
      let baseValue = baseExtras[key] ?? ""
      let side: SyncSide =
        base == nil
        ? conflict("extra " + key.replacingOccurrences("\u{1}", with: "."), localValue, remoteValue)
        : localValue == baseValue
          ? .remote
          : remoteValue == baseValue
            ? .local
            : conflict("extra " + key.replacingOccurrences("\u{1}", with: "."), localValue, remoteValue)
      if side == .remote { mergedExtras[key] = remoteValue.isEmpty ? nil : remoteValue }
    }
    // Bookkeeping: this side's file name; the server's RELATED-TO lines; the higher SEQUENCE.
    var keptBookkeeping: [String: TaskExtra] = [:]
    for extra in local.extras.filter(isBookkeeping) { keptBookkeeping[extra.name] = extra }
    // The server's RELATED-TO lines, also when it has none (it removed them).
    keptBookkeeping["related"] = nil
    for extra in remote.extras.filter(isBookkeeping) {
      switch extra.name {
      case "related": keptBookkeeping[extra.name] = extra
      case "sequence":
        if keptBookkeeping[extra.name].map({ TodoStore.sequenceNumber($0.value) < TodoStore.sequenceNumber(extra.value) }) ?? true {
          keptBookkeeping[extra.name] = extra
        }
      default: if keptBookkeeping[extra.name] == nil { keptBookkeeping[extra.name] = extra }
      }
    }
    merged.extras =
      (mergedExtras.compactMap { key, value -> TaskExtra? in
        guard !value.isEmpty, let split = key.firstIndex(of: "\u{1}") else { return nil }
        return TaskExtra(format: String(key[..<split]), name: String(key[key.index(after: split)...]), value: value)
      } + keptBookkeeping.values)
      .sorted { ($0.format, $0.name) < ($1.format, $1.name) }
    merged.todo.modified = max(local.todo.modified, remote.todo.modified)
    outcome.record = merged
    return outcome
  }

  /// The keys of a set after both sides' additions and removals since `base` (nil: the union).
  static func mergeSet<Element>(_ base: [Element]?, _ local: [Element], _ remote: [Element], key: (Element) -> String)
    -> [String]
  {
    let localKeys = Set(local.map(key))
    let remoteKeys = Set(remote.map(key))
    guard let base else { return Array(localKeys.union(remoteKeys)) }
    let baseKeys = Set(base.map(key))
    let removed = baseKeys.subtracting(localKeys).union(baseKeys.subtracting(remoteKeys))
    return Array(localKeys.union(remoteKeys).subtracting(removed))
  }
}

extension String {
  /// Every `target` replaced (Foundation's `replacingOccurrences` is not used here).
  func replacingOccurrences(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
