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
  public static func merge(
    collection: String, vdir: Vdir, now: Int64, force: Bool, apply: Bool, command: String, carried: Bool = true,
    exclusiveClocks: Bool = false
  ) -> DataOperation<SyncReport, TodoError> {
    DataOperation { connection throws(TodoError) -> SyncReport in
      var report = SyncReport()
      let listing: [String: String]
      switch vdir.list() {
      case .success(let found): listing = found
      case .failure(let problem): throw .refused("cannot read the vdir \(vdir.folder): \(problem.reason)")
      }
      let loaded = try loadItems(collection, on: connection)
      var items = loaded
      if carried {
        for (file, item) in items where !item.previous.isEmpty { items[file]?.previous = "" }
      }
      var all = TodoFilter()
      all.defaultStatus = .all
      let localRecords = try TodoStore.records(all, now: now).run(connection)
      var localByUUID: [String: TaskRecord] = [:]
      for record in localRecords { localByUUID[record.todo.uuid] = record }
      let here = Set(localByUUID.keys)
      let writer = ICalendar.Writer(localRecords)

      var imports: [TaskRecord] = []
      /// Files to write after the import (task UUID by file name).
      var writes: [String: String] = [:]
      /// Items whose file changed on the other side and needs no write: their new base.
      var newBase: [String: [UInt8]] = [:]
      var removing: Set<String> = []
      /// Tasks whose item the server deleted while they were deleted here too: rebased.
      var alreadyDeleted: [String] = []
      var localDeletions = 0
      var remoteDeletions = 0
      var knownTasks: Set<String> = []

      func parse(_ bytes: [UInt8], file: String) -> Result<TaskRecord, SkippedFile> {
        do throws(InterchangeError) {
          let records = try ICalendar.records(bytes, now: now)
          guard records.count == 1 else {
            return .failure(SkippedFile(file: file, reason: "it holds \(records.count) to-dos, and a vdir item holds one"))
          }
          var record = records[0]
          record.source = file
          record.extras.removeAll { $0.format == "ical" && $0.name == "file" }
          // An item that cannot be stored is skipped, not fatal to the rest (its task is known, so
          // no second item gets its UID).
          if let problem = TodoStore.problem(in: record) {
            return .failure(SkippedFile(file: file, reason: problem, taskUUID: record.todo.uuid))
          }
          return .success(record)
        } catch {
          return .failure(SkippedFile(file: file, reason: "\(error)"))
        }
      }

      /// The item, or nil with the file reported as skipped.
      // Reminders the other side delivered (ACKNOWLEDGED): recorded here whatever the merge keeps.
      var acknowledged: [(uuid: String, fire: Int64, at: Int64)] = []
      func parsedOrSkipped(_ bytes: [UInt8], file: String) -> TaskRecord? {
        switch parse(bytes, file: file) {
        case .success(let record):
          acknowledged += record.acknowledged.map { (record.todo.uuid, $0.key, $0.value) }
          return record
        case .failure(let skipped):
          report.skipped.append(skipped)
          if let uuid = skipped.taskUUID { knownTasks.insert(uuid) }
          return nil
        }
      }

      // Items synced before.
      for file in items.keys.sorted() {
        guard var item = items[file] else { continue }
        knownTasks.insert(item.taskUUID)
        // The base is parsed only when a merge needs it (a file changed there, or a task deleted here).
        var parsedBase: TaskRecord??
        func baseRecord() -> TaskRecord? {
          if let parsedBase { return parsedBase }
          let record: TaskRecord? = if case .success(let record) = parse(Array(item.base.utf8), file: file) { record } else { nil }
          parsedBase = .some(record)
          return record
        }
        guard let local = localByUUID[item.taskUUID].map({ withDanglingLinks($0, known: here) }) else {
          // Purged here (it was deleted first): its item goes too, unless the server changed it
          // since (an edit beats a delete: it is read again as a new item).
          items[file] = nil
          if let stamp = listing[file] {
            if stamp != item.etag, case .success(let bytes) = vdir.read(file), hash(bytes) != item.hash {
              knownTasks.remove(item.taskUUID)
              continue
            }
            removing.insert(file)
            report.pendingHere += 1
            if !item.removed { localDeletions += 1 }
          }
          continue
        }
        let localChanged = localByUUID[item.taskUUID].map { hash(writer.file($0)) } != item.rendered
        let deletedHere = local.todo.status == .deleted && baseRecord().map { $0.todo.status != .deleted } ?? false
        guard let stamp = listing[file] else {
          // Deleted on the other side (a change in the vdir, for --status, the first time).
          if !item.removed { report.pendingThere += 1 }
          if item.removed {
            if localChanged && local.todo.status != .deleted {
              writes[file] = item.taskUUID
              report.restored.append(item.taskUUID)
            }
          } else if localChanged && local.todo.status != .deleted {
            writes[file] = item.taskUUID
            report.restored.append(item.taskUUID)
            report.warnings.append(
              "task \(item.taskUUID) (\(local.todo.title)) was deleted on the server and changed here; the change wins and it is sent again")
          } else {
            remoteDeletions += 1
            item.removed = true
            items[file] = item
            if local.todo.status == .deleted { alreadyDeleted.append(item.taskUUID) }
            if local.todo.status != .deleted {
              var deleted = local
              deleted.todo.status = .deleted
              deleted.todo.completed = now
              deleted.todo.modified = max(now, local.todo.modified)
              imports.append(deleted)
              report.deleted.append(item.taskUUID)
            }
          }
          continue
        }
        if item.removed {
          // The file is back (restored on the server): read it as a new item.
          item.removed = false
          item.etag = ""
          item.hash = ""
        }
        var remoteBytes: [UInt8]?
        if stamp != item.etag {
          switch vdir.read(file) {
          case .success(let bytes): remoteBytes = bytes
          case .failure(let problem):
            report.skipped.append(SkippedFile(file: file, reason: problem.reason))
            continue
          }
        }
        if let bytes = remoteBytes, hash(bytes) != item.hash {
          guard let remote = parsedOrSkipped(bytes, file: file) else { continue }
          report.pendingThere += 1
          if remote.todo.uuid != item.taskUUID {
            report.skipped.append(SkippedFile(file: file, reason: "its UID changed to \(uid(of: remote)); it is left alone"))
            continue
          }
          if remote.todo.status == .deleted && baseRecord().map({ $0.todo.status != .deleted }) ?? false { remoteDeletions += 1 }
          if deletedHere { localDeletions += 1 }
          let outcome = FieldMerge.merge(base: baseRecord(), local: local, remote: remote)
          report.conflicts += outcome.conflicts
          report.warnings += outcome.warnings
          if !FieldMerge.sameFields(outcome.record, local) {
            imports.append(outcome.record)
            report.updated.append(item.taskUUID)
          }
          // A delivery here goes out even when the other side changed the task too.
          if !FieldMerge.sameFields(outcome.record, remote) || !FieldMerge.sameAcknowledgements(outcome.record, remote) {
            writes[file] = item.taskUUID
          } else {
            newBase[file] = bytes
          }
          item.etag = stamp
          item.hash = hash(bytes)
          items[file] = item
          continue
        }
        if remoteBytes != nil {
          item.etag = stamp
          items[file] = item
        }
        if localChanged {
          report.pendingHere += 1
          if deletedHere { localDeletions += 1 }
          writes[file] = item.taskUUID
        }
      }

      // Files new in the vdir.
      var taken = Set(listing.keys)
      for file in listing.keys.sorted() where items[file] == nil && !removing.contains(file) {
        let bytes: [UInt8]
        switch vdir.read(file) {
        case .success(let read): bytes = read
        case .failure(let problem):
          report.skipped.append(SkippedFile(file: file, reason: problem.reason))
          continue
        }
        guard let remote = parsedOrSkipped(bytes, file: file) else { continue }
        report.pendingThere += 1
        let uuid = remote.todo.uuid
        guard !knownTasks.contains(uuid) else {
          let other = items.values.first { $0.taskUUID == uuid }?.file ?? "another file"
          report.skipped.append(SkippedFile(file: file, reason: "task \(uuid) is already in \(other)"))
          continue
        }
        knownTasks.insert(uuid)
        let stamp = listing[file] ?? ""
        items[file] = SyncItem(
          file: file, uid: uid(of: remote), taskUUID: uuid, etag: stamp, hash: hash(bytes), rendered: "",
          base: String(decoding: bytes, as: UTF8.self), previous: "", removed: false)
        if let local = localByUUID[uuid].map({ withDanglingLinks($0, known: here) }) {
          // Made on both sides on their own (the same recurring instance, say): merged with no base.
          let outcome = FieldMerge.merge(base: nil, local: local, remote: remote)
          report.conflicts += outcome.conflicts
          if !FieldMerge.sameFields(outcome.record, local) {
            imports.append(outcome.record)
            report.updated.append(uuid)
          }
          if !FieldMerge.sameFields(outcome.record, remote) { writes[file] = uuid } else { newBase[file] = bytes }
        } else {
          imports.append(remote)
          report.added.append(uuid)
          newBase[file] = bytes
        }
      }

      // Tasks never synced: each gets a file (deleted ones stay here).
      for record in localRecords where !knownTasks.contains(record.todo.uuid) && record.todo.status != .deleted {
        report.pendingHere += 1
        var name = writer.fileName(record)
        if taken.contains(name) { name = record.todo.uuid + ".ics" }
        var suffix = 2
        while taken.contains(name) {
          name = record.todo.uuid + "-\(suffix).ics"
          suffix += 1
        }
        taken.insert(name)
        writes[name] = record.todo.uuid
        items[name] = SyncItem(
          file: name, uid: uid(of: record), taskUUID: record.todo.uuid, etag: "", hash: "", rendered: "", base: "",
          previous: "", removed: false)
      }

      var importIndex: [String: Int] = [:]
      for (index, record) in imports.enumerated() { importIndex[record.todo.uuid] = index }

      // Tasks here whose items name a task that arrives now (kept RELATED-TO lines) are linked to it.
      let arriving = Set(report.added)
      if !arriving.isEmpty {
        for local in localRecords {
          let links = ICalendar.relatedLinks(local).filter { arriving.contains($0.target) && $0.unlinked(local.todo) }
          guard !links.isEmpty else { continue }
          let index = importIndex[local.todo.uuid]
          let record = linked(index.map { imports[$0] } ?? withDanglingLinks(local, known: here), links)
          if let index {
            imports[index] = record
          } else {
            importIndex[record.todo.uuid] = imports.count
            imports.append(record)
          }
        }
      }

      // Each task's file, once every item is known (the items do not change hands from here on).
      var fileOf: [String: String] = [:]
      for (file, item) in items { fileOf[item.taskUUID] = file }

      // With one clock at a time (`exclusiveClocks`): started on two machines, the earlier clock
      // stops when the later one started.
      var running: [(uuid: String, started: Int64)] = []
      for record in localRecords where exclusiveClocks && importIndex[record.todo.uuid] == nil && record.todo.isActive {
        running.append((record.todo.uuid, record.todo.intervals.last?.started ?? 0))
      }
      for record in imports where exclusiveClocks && record.todo.isActive {
        running.append((record.todo.uuid, record.todo.intervals.last?.started ?? 0))
      }
      if running.count > 1, let latest = running.max(by: { ($0.started, $0.uuid) < ($1.started, $1.uuid) }) {
        for clock in running where clock.uuid != latest.uuid {
          guard var record = importIndex[clock.uuid].map({ imports[$0] }) ?? localByUUID[clock.uuid] else { continue }
          let last = record.todo.intervals.count - 1
          record.todo.intervals[last].stopped = max(record.todo.intervals[last].started, latest.started)
          record.todo.modified = max(record.todo.modified, now)
          if let index = importIndex[clock.uuid] {
            imports[index] = record
          } else {
            importIndex[clock.uuid] = imports.count
            imports.append(record)
            report.updated.append(clock.uuid)
          }
          if let file = fileOf[clock.uuid] {
            writes[file] = clock.uuid
            newBase[file] = nil
          }
          report.warnings.append(
            "task \(clock.uuid) (\(record.todo.title)) and task \(latest.uuid) were both started; its clock stops when the other's started")
        }
      }

      // A sync that would delete most of either side waits for --force. `--status` (nothing
      // applied) says so and goes on to count the rest.
      let synced = loaded.values.filter { !$0.removed }.count
      for (count, place) in [(localDeletions, "on the server"), (remoteDeletions, "here")] where count > 1 && count * 2 > synced && !force {
        guard apply else {
          report.warnings.append(
            "a sync now would delete \(count) of \(synced) tasks \(place), so todo sync refuses it without --force "
              + "(if that is what you want: todo sync --force)")
          continue
        }
        throw .refused(
          "this sync would delete \(count) of \(synced) tasks \(place); nothing was changed (if that is what you want: todo sync --force)")
      }
      report.items = items.values.filter { !$0.removed }.count
      report.written = writes.keys.sorted()
      report.removed = removing.sorted()
      guard apply else { return report }

      // Apply: the tasks first (one undo step), then the files, then the state.
      if !acknowledged.isEmpty { try TodoStore.acknowledge(acknowledged).run(connection) }
      if !imports.isEmpty {
        // Links to items that are not here stay RELATED-TO lines (they cannot be linked).
        let known = here.union(imports.map(\.todo.uuid))
        let records = imports.map { withoutDanglingLinks($0, known: known) }
        let imported = try TodoStore.importRecords(records, now: now, command: command, replacingChanged: true).run(connection)
        report.warnings += imported.warnings
        // A link dropped to break a cycle is a change here: it is sent.
        for uuid in imported.unlinked {
          guard let file = items.first(where: { $0.value.taskUUID == uuid && !$0.value.removed })?.key else { continue }
          writes[file] = uuid
          newBase[file] = nil
        }
      }
      let finalRecords = imports.isEmpty ? localRecords : try TodoStore.records(all, now: now).run(connection)
      var finalByUUID: [String: TaskRecord] = [:]
      for record in finalRecords { finalByUUID[record.todo.uuid] = record }
      let finalWriter = ICalendar.Writer(finalRecords)
      var written: [String] = []
      for (file, uuid) in writes.sorted(by: { $0.key < $1.key }) {
        guard let record = finalByUUID[uuid], var item = items[file] else { continue }
        let bytes = finalWriter.file(record)
        let old: [UInt8]? = if case .success(let read) = vdir.read(file) { read } else { nil }
        if old == bytes {
          // Already there (a crash after writing it, before the state was saved).
        } else if let problem = vdir.write(bytes, to: file) {
          throw .refused("cannot write \(vdir.folder)/\(file): \(problem); nothing was changed")
        } else {
          written.append(file)
        }
        // What vdirsyncer last carried is what this write replaced (kept from the first write
        // until vdirsyncer runs).
        if item.previous.isEmpty, let old, old != bytes { item.previous = String(decoding: old, as: UTF8.self) }
        item.base = String(decoding: bytes, as: UTF8.self)
        item.hash = hash(bytes)
        item.etag = vdir.stamp(file) ?? ""
        item.rendered = item.hash
        item.removed = false
        items[file] = item
      }
      report.written = written
      for (file, bytes) in newBase where writes[file] == nil {
        guard var item = items[file], let record = finalByUUID[item.taskUUID] else { continue }
        item.base = String(decoding: bytes, as: UTF8.self)
        item.previous = ""
        item.rendered = hash(finalWriter.file(record))
        items[file] = item
      }
      // A task the merge changed here whose file needed no write: its rendering moved.
      for uuid in report.updated {
        guard let file = fileOf[uuid], newBase[file] == nil, writes[file] == nil,
          let record = finalByUUID[uuid], var item = items[file]
        else { continue }
        item.rendered = hash(finalWriter.file(record))
        items[file] = item
      }
      // Deleted here because the server deleted its item: the deleted task is the new base, so
      // the item restored on the server later restores it here.
      for uuid in report.deleted + alreadyDeleted {
        guard let file = fileOf[uuid], let record = finalByUUID[uuid],
          var item = items[file]
        else { continue }
        let bytes = finalWriter.file(record)
        item.rendered = hash(bytes)
        item.base = String(decoding: bytes, as: UTF8.self)
        item.previous = ""
        items[file] = item
      }
      for file in report.removed {
        if let problem = vdir.remove(file) {
          throw .refused("cannot remove \(vdir.folder)/\(file): \(problem); nothing was changed")
        }
      }
      if !written.isEmpty || !removing.isEmpty { vdir.flush() }
      try saveItems(items, over: loaded, collection: collection, conflicts: report.conflicts, now: now, on: connection)
      return report
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
          throw .refused("cannot read the \(name) copy: \(error)")
        }
        guard records.count == 1 else { throw .refused("the \(name) copy holds \(records.count) to-dos, not one") }
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
      if case let (text, previous, _)? = row, !text.isEmpty {
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
        guard case .integer(let count) = try connection.scalar(
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
