import DataOperation
import TodoCore
import TodoInterchange

/// What one merge of a vdir into the database did (and, for `--status`, what it would do).
public struct SyncReport: Sendable, Equatable {
  /// Tasks that came from the vdir and were new here, by UUID.
  public var added: [String] = []
  /// Tasks changed here by the merge, by UUID.
  public var updated: [String] = []
  /// Tasks deleted here because their file was deleted on the other side.
  public var deleted: [String] = []
  /// Files written (new tasks and changed ones), by name.
  public var written: [String] = []
  /// Files removed (their tasks were purged here).
  public var removed: [String] = []
  /// Tasks changed here and deleted on the other side: their files are written again.
  public var restored: [String] = []
  public var conflicts: [SyncConflict] = []
  /// Files that could not be read or parsed: named, left alone, reported.
  public var skipped: [SkippedFile] = []
  public var warnings: [String] = []
  /// Tasks with local changes not yet in the vdir (for `--status`).
  public var pendingHere = 0
  /// Files new, changed or removed in the vdir since the last sync (for `--status`).
  public var pendingThere = 0
  /// Items in the collection after the merge.
  public var items = 0

  public init() {}
}

/// A file of the vdir that a sync left alone, and why.
public struct SkippedFile: Error, Sendable, Equatable {
  public var file: String
  public var reason: String
  /// The task it names, when it could be read.
  public var taskUUID: String? = nil
}

/// The sync state of one item: the task it mirrors, its file, and the item as last synced.
struct SyncItem: Sendable, Equatable {
  var file: String
  var uid: String
  var taskUUID: String
  var etag: String
  var hash: String
  var rendered: String
  var base: String
  /// The base before this side's last write: what vdirsyncer last carried both ways, until that
  /// write reaches the server (the conflict resolver's base while it has not).
  var previous: String
  var removed: Bool
}

/// Merging a vdir (one `.ics` per task) into the database and writing the database's changes
/// back to it: the heart of `todo sync`, run between two `vdirsyncer sync`s. One transaction; the
/// tasks it changes are one undo step. Files are written before the transaction commits, so a
/// crash leaves either nothing changed or files ahead of the database, which the next merge
/// reads back as remote changes that agree with it.
public enum SyncEngine {
  /// The content hash of a file (FNV-1a, 64 bits, as hex): enough to notice a change.
  static func hash(_ bytes: [UInt8]) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The UID a task's item carries.
  static func uid(of record: TaskRecord) -> String {
    record.extras.first { $0.format == "ical" && $0.name == "uid" }?.value ?? record.todo.uuid
  }

  /// Merges the vdir into the database and writes back what changed here. With `apply` false,
  /// nothing is written anywhere and the report says what would happen (`todo sync --status`).
  ///
  /// - Throws: `TodoError.refused` when the merge would delete more than half of the synced tasks
  ///   on either side (unless `force`), or a file cannot be written (nothing is changed then).
  ///
  /// `carried`: vdirsyncer has just run, so every earlier write reached the server (or went
  /// through the conflict command) and no `previous` base is needed any more.
  ///
  /// `exclusiveClocks` (`tracking.exclusive`): clocks started on two machines leave the later
  /// one running; without it, several tasks may be active, and every clock runs on.
  ///
  /// `files` false: the tasks are stored but no file or sync state is written (a preview of an
  /// applied merge, rolled back, for the hooks).
  public static func merge(
    collection: String, vdir: Vdir, now: Int64, force: Bool, apply: Bool, command: String, carried: Bool = true,
    exclusiveClocks: Bool = false, files: Bool = true
  ) -> DataOperation<SyncReport, TodoError> {
    DataOperation { connection throws(TodoError) -> SyncReport in
      let listing: [String: String]
      switch vdir.list() {
      case .success(let found): listing = found
      case .failure(let problem): throw .vdir("cannot read the vdir \(vdir.folder): \(problem.reason)")
      }
      var all = TodoFilter()
      all.defaultStatus = .all
      var plan = SyncPlan(
        vdir: vdir, listing: listing, items: try loadItems(collection, on: connection),
        localRecords: try TodoStore.records(all, now: now).run(connection), now: now, carried: carried, exclusiveClocks: exclusiveClocks)
      try plan.checkDeletions(force: force, apply: apply)
      guard apply else { return plan.report }
      try plan.apply(collection: collection, command: command, files: files, on: connection)
      return plan.report
    }
  }

  /// Three-way merge of the two copies of an item vdirsyncer found changed on both sides (`a` the
  /// vdir's, `b` the server's), against the copy of the last sync: the merged item, which
  /// `todo sync --resolve` writes into both files.
  public static func resolve(_ a: [UInt8], _ b: [UInt8], now: Int64) -> DataOperation<[UInt8], TodoError> {
    DataOperation { connection throws(TodoError) -> [UInt8] in
      func record(_ bytes: [UInt8], _ name: String) throws(TodoError) -> TaskRecord {
        let records: [TaskRecord]
        do throws(InterchangeError) {
          records = try ICalendar.records(bytes, now: now)
        } catch {
          throw .vdir("cannot read the \(name) copy: \(error)")
        }
        guard records.count == 1 else { throw .vdir("the \(name) copy holds \(records.count) to-dos, not one") }
        return records[0]
      }
      let local = try record(a, "vdir")
      let remote = try record(b, "server")
      let row = try database { () throws(DatabaseError) in
        try connection.first(
          "SELECT base, previous, collection FROM sync_item WHERE task_uuid = ? ORDER BY collection LIMIT 1",
          [.text(local.todo.uuid)]
        ) { row throws(DatabaseError) in (try row.text(at: 0) ?? "", try row.text(at: 1) ?? "", try row.text(at: 2) ?? "") }
      }
      // The copy both sides last agreed on: the base, unless the vdir's copy is this side's write
      // that has not reached the server yet (then the base before it).
      var base: TaskRecord?
      if case (let text, let previous, _)? = row, !text.isEmpty {
        base = try record(Array(text.utf8), "last synced")
        if let written = base, FieldMerge.sameFields(written, local), !previous.isEmpty {
          base = try record(Array(previous.utf8), "last synced")
        }
      }
      var outcome = FieldMerge.merge(base: base, local: local, remote: remote)
      if let collection = row?.2, !outcome.conflicts.isEmpty {
        try database { () throws(DatabaseError) in try saveConflicts(outcome.conflicts, collection: collection, now: now, on: connection) }
      }
      var all = TodoFilter()
      all.defaultStatus = .all
      // Links are written with the UIDs of the tasks they point to.
      var records = try TodoStore.records(all, now: now).run(connection).filter { $0.todo.uuid != local.todo.uuid }
      outcome.record.todo.modified = max(local.todo.modified, remote.todo.modified)
      records.append(outcome.record)
      return ICalendar.Writer(records).file(outcome.record)
    }
  }

  /// How many items of `collection` the last sync left in the vdir (those whose task was purged
  /// here not counted): a vdir with none of them was emptied by something other than todo.
  public static func syncedItemCount(collection: String) -> DataOperation<Int, TodoError> {
    DataOperation { connection throws(TodoError) in
      try database { () throws(DatabaseError) in
        guard
          case .integer(let count) = try connection.scalar(
            "SELECT count(*) FROM sync_item WHERE collection = ? AND removed = 0", [.text(collection)])
        else { return 0 }
        return Int(count)
      }
    }
  }

  /// The conflicts merges recorded, newest first.
  public static func conflicts(limit: Int) -> DataOperation<[(conflict: SyncConflict, decided: Int64)], TodoError> {
    DataOperation { connection throws(TodoError) in
      try database { () throws(DatabaseError) in
        try connection.all(
          "SELECT task_uuid, field, kept, lost, kept_side, decided FROM sync_conflict ORDER BY id DESC LIMIT ?",
          [.integer(Int64(limit))]
        ) { row throws(DatabaseError) in
          (
            SyncConflict(
              taskUUID: try row.text(at: 0) ?? "", field: try row.text(at: 1) ?? "", kept: try row.text(at: 2) ?? "",
              lost: try row.text(at: 3) ?? "", keptSide: SyncSide(rawValue: try row.text(at: 4) ?? "") ?? .local),
            try row.integer(at: 5) ?? 0
          )
        }
      }
    }
  }

  static func loadItems(_ collection: String, on connection: Connection) throws(TodoError) -> [String: SyncItem] {
    try database { () throws(DatabaseError) in
      var items: [String: SyncItem] = [:]
      try connection.query(
        "SELECT file, uid, task_uuid, etag, hash, rendered, base, previous, removed FROM sync_item WHERE collection = ?",
        [.text(collection)]
      ) { row throws(DatabaseError) in
        let item = SyncItem(
          file: try row.text(at: 0) ?? "", uid: try row.text(at: 1) ?? "", taskUUID: try row.text(at: 2) ?? "",
          etag: try row.text(at: 3) ?? "", hash: try row.text(at: 4) ?? "", rendered: try row.text(at: 5) ?? "",
          base: try row.text(at: 6) ?? "", previous: try row.text(at: 7) ?? "", removed: (try row.integer(at: 8) ?? 0) != 0)
        items[item.file] = item
      }
      return items
    }
  }

  /// Writes the items that changed since `loaded` (a sync of an unchanged collection writes none).
  static func saveItems(
    _ items: [String: SyncItem], over loaded: [String: SyncItem], collection: String, conflicts: [SyncConflict], now: Int64,
    on connection: Connection
  ) throws(TodoError) {
    try database { () throws(DatabaseError) in
      for file in loaded.keys where items[file] == nil {
        try connection.execute("DELETE FROM sync_item WHERE collection = ? AND file = ?", [.text(collection), .text(file)])
      }
      for item in items.values where loaded[item.file] != item {
        try connection.execute(
          """
          INSERT OR REPLACE INTO sync_item (collection, file, uid, task_uuid, etag, hash, rendered, base, previous, removed)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .text(collection), .text(item.file), .text(item.uid), .text(item.taskUUID), .text(item.etag), .text(item.hash),
            .text(item.rendered), .text(item.base), .text(item.previous), .integer(item.removed ? 1 : 0),
          ])
      }
      try saveConflicts(conflicts, collection: collection, now: now, on: connection)
    }
  }

  static func saveConflicts(_ conflicts: [SyncConflict], collection: String, now: Int64, on connection: Connection) throws(DatabaseError) {
    for conflict in conflicts {
      try connection.execute(
        "INSERT INTO sync_conflict (collection, task_uuid, field, kept, lost, kept_side, decided) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
          .text(collection), .text(conflict.taskUUID), .text(conflict.field), .text(conflict.kept), .text(conflict.lost),
          .text(conflict.keptSide.rawValue), .integer(now),
        ])
    }
  }

  /// A task from the database with the links its item names to items that are not here (kept as
  /// RELATED-TO lines, since they cannot be linked) put back, as the item has them: so a merge
  /// sees them unchanged.
  static func withDanglingLinks(_ record: TaskRecord, known: Set<String>) -> TaskRecord {
    linked(record, ICalendar.relatedLinks(record).filter { $0.unlinked(record.todo) && !known.contains($0.target) })
  }

  /// The task with these kept links made links.
  static func linked(_ record: TaskRecord, _ links: [ICalendar.RelatedLink]) -> TaskRecord {
    var record = record
    for link in links {
      if link.isParent {
        record.todo.parentUUID = link.target
      } else if !record.todo.depends.contains(where: { $0.uuid == link.target }) {
        record.todo.depends.append(TaskLink(id: 0, uuid: link.target, isOpen: true))
      }
    }
    return record
  }

  /// The links to tasks that are not here taken out again (their lines keep them).
  static func withoutDanglingLinks(_ record: TaskRecord, known: Set<String>) -> TaskRecord {
    var record = record
    if let parent = record.todo.parentUUID, !known.contains(parent) { record.todo.parentUUID = nil }
    record.todo.depends.removeAll { !known.contains($0.uuid) }
    return record
  }
}

/// A database error as a todo error.
func database<Value>(_ body: () throws(DatabaseError) -> Value) throws(TodoError) -> Value {
  do throws(DatabaseError) {
    return try body()
  } catch {
    throw TodoError(error)
  }
}
