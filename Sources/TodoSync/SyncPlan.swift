import DataOperation
import TodoCore
import TodoInterchange

/// One merge of a vdir with the database, worked out before anything is written: made from the
/// vdir's listing (and the files it reads), the items as the last sync left them and the tasks
/// here, phase by phase, each a function of its own; then `apply` writes it (the tasks, the
/// files, the state). `SyncEngine.merge` is the two in one transaction.
///
/// ```swift
/// var plan = SyncPlan(vdir: vdir, listing: listing, items: items, localRecords: records, now: now)
/// try plan.checkDeletions(force: false, apply: true)
/// try plan.apply(collection: "tasks", command: "sync", on: connection)
/// ```
struct SyncPlan {
  // MARK: What the plan is made from

  let vdir: Vdir
  /// The vdir's files and their stamps, as listed when the sync began.
  let listing: [String: String]
  /// The items as the last sync left them.
  let loaded: [String: SyncItem]
  /// Every task here, as records.
  let localRecords: [TaskRecord]
  let localByUUID: [String: TaskRecord]
  /// The UUIDs of the tasks here.
  let here: Set<String>
  let writer: ICalendar.Writer
  let now: Int64

  // MARK: What the merge decides

  var report = SyncReport()
  /// The items as they will be (file name → item).
  var items: [String: SyncItem]
  /// The tasks to store here (imported, replacing changed ones).
  var imports: [TaskRecord] = []
  /// Each import's place in `imports`, by task UUID.
  var importIndex: [String: Int] = [:]
  /// Files to write after the import (task UUID by file name).
  var writes: [String: String] = [:]
  /// Items whose file changed on the other side and needs no write: their new base.
  var newBase: [String: [UInt8]] = [:]
  /// Files to remove (their tasks were purged here).
  var removing: Set<String> = []
  /// Tasks whose item the server deleted while they were deleted here too: rebased.
  var alreadyDeleted: [String] = []
  /// Tasks deleted here, and there, by this sync (the `--force` rule counts them).
  var localDeletions = 0
  var remoteDeletions = 0
  /// Tasks an item already names (a second item with the same task is skipped).
  var knownTasks: Set<String> = []
  /// Reminders the other side delivered (ACKNOWLEDGED): recorded here whatever the merge keeps.
  var acknowledged: [(uuid: String, fire: Int64, at: Int64)] = []
  /// Each task's file, once every item is known.
  var fileOf: [String: String] = [:]

  /// The plan: every phase run in order. `carried`: vdirsyncer has just run, so every earlier
  /// write reached the server and no `previous` base is needed any more. `exclusiveClocks`
  /// (`tracking.exclusive`): clocks started on two machines leave the later one running.
  init(
    vdir: Vdir, listing: [String: String], items loaded: [String: SyncItem], localRecords: [TaskRecord], now: Int64,
    carried: Bool = true, exclusiveClocks: Bool = false
  ) {
    self.vdir = vdir
    self.listing = listing
    self.loaded = loaded
    self.localRecords = localRecords
    var byUUID: [String: TaskRecord] = [:]
    for record in localRecords { byUUID[record.todo.uuid] = record }
    localByUUID = byUUID
    here = Set(byUUID.keys)
    writer = ICalendar.Writer(localRecords)
    self.now = now
    items = loaded
    if carried {
      for (file, item) in items where !item.previous.isEmpty { items[file]?.previous = "" }
    }
    for file in items.keys.sorted() { mergeSyncedItem(file) }
    readNewFiles()
    fileNeverSyncedTasks()
    for (index, record) in imports.enumerated() { importIndex[record.todo.uuid] = index }
    linkArrivals()
    for (file, item) in items { fileOf[item.taskUUID] = file }
    if exclusiveClocks { stopEarlierClocks() }
    report.items = items.values.filter { !$0.removed }.count
    report.written = writes.keys.sorted()
    report.removed = removing.sorted()
  }

  // MARK: Reading items

  /// A file's one to-do, or why it is skipped.
  func parse(_ bytes: [UInt8], file: String) -> Result<TaskRecord, SkippedFile> { Self.parse(bytes, file: file, now: now) }

  static func parse(_ bytes: [UInt8], file: String, now: Int64) -> Result<TaskRecord, SkippedFile> {
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
  mutating func parsedOrSkipped(_ bytes: [UInt8], file: String) -> TaskRecord? {
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

  // MARK: Phase 1: items synced before

  /// One item the last sync left: its task purged here, its file deleted there, changed there
  /// (merged field by field), or changed only here (written).
  mutating func mergeSyncedItem(_ file: String) {
    guard var item = items[file] else { return }
    knownTasks.insert(item.taskUUID)
    // The base is parsed only when a merge needs it (a file changed there, or a task deleted here).
    var parsedBase: TaskRecord??
    let (base, now) = (item.base, self.now)
    func baseRecord() -> TaskRecord? {
      if let parsedBase { return parsedBase }
      let record: TaskRecord? = if case .success(let record) = Self.parse(Array(base.utf8), file: file, now: now) { record } else { nil }
      parsedBase = .some(record)
      return record
    }
    guard let local = localByUUID[item.taskUUID].map({ SyncEngine.withDanglingLinks($0, known: here) }) else {
      purgedHere(file, item)
      return
    }
    let localChanged = localByUUID[item.taskUUID].map { SyncEngine.hash(writer.file($0)) } != item.rendered
    let deletedHere = local.todo.status == .deleted && baseRecord().map { $0.todo.status != .deleted } ?? false
    guard let stamp = listing[file] else {
      deletedThere(file, item, local: local, localChanged: localChanged)
      return
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
        return
      }
    }
    if let bytes = remoteBytes, SyncEngine.hash(bytes) != item.hash {
      changedThere(file, item, bytes: bytes, stamp: stamp, local: local, base: baseRecord(), deletedHere: deletedHere)
      return
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

  /// Purged here (it was deleted first): its item goes too, unless the server changed it since
  /// (an edit beats a delete: it is read again as a new item).
  private mutating func purgedHere(_ file: String, _ item: SyncItem) {
    items[file] = nil
    guard let stamp = listing[file] else { return }
    if stamp != item.etag, case .success(let bytes) = vdir.read(file), SyncEngine.hash(bytes) != item.hash {
      knownTasks.remove(item.taskUUID)
      return
    }
    removing.insert(file)
    report.pendingHere += 1
    if !item.removed { localDeletions += 1 }
  }

  /// Deleted on the other side (a change in the vdir, for --status, the first time): deleted
  /// here, unless it changed here since (then it is sent again).
  private mutating func deletedThere(_ file: String, _ item: SyncItem, local: TaskRecord, localChanged: Bool) {
    var item = item
    if !item.removed { report.pendingThere += 1 }
    if localChanged && local.todo.status != .deleted {
      writes[file] = item.taskUUID
      report.restored.append(item.taskUUID)
      if !item.removed {
        report.warnings.append(
          "task \(item.taskUUID) (\(local.todo.title)) was deleted on the server and changed here; the change wins and it is sent again")
      }
      return
    }
    guard !item.removed else { return }
    remoteDeletions += 1
    item.removed = true
    items[file] = item
    if local.todo.status == .deleted {
      alreadyDeleted.append(item.taskUUID)
      return
    }
    var deleted = local
    deleted.todo.status = .deleted
    deleted.todo.completed = now
    deleted.todo.modified = max(now, local.todo.modified)
    imports.append(deleted)
    report.deleted.append(item.taskUUID)
  }

  /// Changed on the other side: merged with the task here against the last synced copy; the
  /// merge is stored here when it differs from the task, written there when it differs from
  /// the file.
  private mutating func changedThere(
    _ file: String, _ item: SyncItem, bytes: [UInt8], stamp: String, local: TaskRecord, base: TaskRecord?, deletedHere: Bool
  ) {
    var item = item
    guard let remote = parsedOrSkipped(bytes, file: file) else { return }
    report.pendingThere += 1
    if remote.todo.uuid != item.taskUUID {
      report.skipped.append(SkippedFile(file: file, reason: "its UID changed to \(SyncEngine.uid(of: remote)); it is left alone"))
      return
    }
    if remote.todo.status == .deleted && base.map({ $0.todo.status != .deleted }) ?? false { remoteDeletions += 1 }
    if deletedHere { localDeletions += 1 }
    let outcome = FieldMerge.merge(base: base, local: local, remote: remote)
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
    item.hash = SyncEngine.hash(bytes)
    items[file] = item
  }

  // MARK: Phase 2: files new in the vdir

  /// Each file no item knows: a new task here, or one made on both sides (merged with no base).
  mutating func readNewFiles() {
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
      items[file] = SyncItem(
        file: file, uid: SyncEngine.uid(of: remote), taskUUID: uuid, etag: listing[file] ?? "", hash: SyncEngine.hash(bytes),
        rendered: "", base: String(decoding: bytes, as: UTF8.self), previous: "", removed: false)
      if let local = localByUUID[uuid].map({ SyncEngine.withDanglingLinks($0, known: here) }) {
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
  }

  // MARK: Phase 3: tasks never synced

  /// Each task no item names gets a file of its own (deleted ones stay here).
  mutating func fileNeverSyncedTasks() {
    var taken = Set(listing.keys)
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
        file: name, uid: SyncEngine.uid(of: record), taskUUID: record.todo.uuid, etag: "", hash: "", rendered: "", base: "",
        previous: "", removed: false)
    }
  }

  // MARK: Phase 4: links to tasks that arrive now

  /// Tasks here whose items name a task that arrives now (kept RELATED-TO lines) are linked to it.
  mutating func linkArrivals() {
    let arriving = Set(report.added)
    guard !arriving.isEmpty else { return }
    for local in localRecords {
      let links = ICalendar.relatedLinks(local).filter { arriving.contains($0.target) && $0.unlinked(local.todo) }
      guard !links.isEmpty else { continue }
      let index = importIndex[local.todo.uuid]
      let record = SyncEngine.linked(index.map { imports[$0] } ?? SyncEngine.withDanglingLinks(local, known: here), links)
      stage(record, at: index)
    }
  }

  /// Puts a record among the imports: in its place, or last.
  private mutating func stage(_ record: TaskRecord, at index: Int?) {
    if let index {
      imports[index] = record
    } else {
      importIndex[record.todo.uuid] = imports.count
      imports.append(record)
    }
  }

  // MARK: Phase 5: one clock at a time

  /// With one clock at a time (`tracking.exclusive`): started on two machines, the earlier clock
  /// stops when the later one started.
  mutating func stopEarlierClocks() {
    var running: [(uuid: String, started: Int64)] = []
    for record in localRecords where importIndex[record.todo.uuid] == nil && record.todo.isActive {
      running.append((record.todo.uuid, record.todo.intervals.last?.started ?? 0))
    }
    for record in imports where record.todo.isActive {
      running.append((record.todo.uuid, record.todo.intervals.last?.started ?? 0))
    }
    guard running.count > 1, let latest = running.max(by: { ($0.started, $0.uuid) < ($1.started, $1.uuid) }) else { return }
    for clock in running where clock.uuid != latest.uuid {
      let index = importIndex[clock.uuid]
      guard var record = index.map({ imports[$0] }) ?? localByUUID[clock.uuid] else { continue }
      let last = record.todo.intervals.count - 1
      record.todo.intervals[last].stopped = max(record.todo.intervals[last].started, latest.started)
      record.todo.modified = max(record.todo.modified, now)
      if index == nil { report.updated.append(clock.uuid) }
      stage(record, at: index)
      if let file = fileOf[clock.uuid] {
        writes[file] = clock.uuid
        newBase[file] = nil
      }
      report.warnings.append(
        "task \(clock.uuid) (\(record.todo.title)) and task \(latest.uuid) were both started; its clock stops when the other's started")
    }
  }

  // MARK: The --force rule

  /// A sync that would delete most of either side waits for `--force`. `--status` (nothing
  /// applied) says so in a warning and goes on.
  ///
  /// - Throws: `TodoError.refused` saying how many tasks it would delete, and where.
  mutating func checkDeletions(force: Bool, apply: Bool) throws(TodoError) {
    let synced = loaded.values.filter { !$0.removed }.count
    for (count, place) in [(localDeletions, "on the server"), (remoteDeletions, "here")] where count > 1 && count * 2 > synced && !force {
      guard apply else {
        report.warnings.append(
          "a sync now would delete \(count) of \(synced) tasks \(place), so todo sync refuses it without --force "
            + "(if that is what you want: todo sync --force)")
        continue
      }
      throw .needsForce(
        "this sync would delete \(count) of \(synced) tasks \(place); nothing was changed (if that is what you want: todo sync --force)")
    }
  }

  // MARK: Apply

  /// Writes the plan: the tasks first (one undo step), then the files, then the state.
  ///
  /// - Throws: `TodoError.refused` when a file cannot be written or removed (the transaction
  ///   then changes nothing).
  /// With `files` false, only the tasks are stored (a preview, which is rolled back: what hooks
  /// see before the sync is written).
  mutating func apply(collection: String, command: String, files: Bool = true, on connection: Connection) throws(TodoError) {
    if !acknowledged.isEmpty { try TodoStore.acknowledge(acknowledged).run(connection) }
    try storeImports(command: command, on: connection)
    guard files else { return }
    var all = TodoFilter()
    all.defaultStatus = .all
    let finalRecords = imports.isEmpty ? localRecords : try TodoStore.records(all, now: now).run(connection)
    var finalByUUID: [String: TaskRecord] = [:]
    for record in finalRecords { finalByUUID[record.todo.uuid] = record }
    let finalWriter = ICalendar.Writer(finalRecords)
    try writeFiles(finalByUUID, finalWriter)
    rebase(finalByUUID, finalWriter)
    for file in report.removed {
      if let problem = vdir.remove(file) {
        throw .vdir("cannot remove \(vdir.folder)/\(file): \(problem); nothing was changed")
      }
    }
    if !report.written.isEmpty || !removing.isEmpty { vdir.flush() }
    try SyncEngine.saveItems(items, over: loaded, collection: collection, conflicts: report.conflicts, now: now, on: connection)
  }

  /// Stores the imports here (replacing changed tasks); a link dropped to break a cycle is a
  /// change here, which is sent.
  private mutating func storeImports(command: String, on connection: Connection) throws(TodoError) {
    guard !imports.isEmpty else { return }
    // Links to items that are not here stay RELATED-TO lines (they cannot be linked).
    let known = here.union(imports.map(\.todo.uuid))
    let records = imports.map { SyncEngine.withoutDanglingLinks($0, known: known) }
    let imported = try TodoStore.importRecords(records, now: now, command: command, replacingChanged: true).run(connection)
    report.warnings += imported.warnings
    for uuid in imported.unlinked {
      guard let file = items.first(where: { $0.value.taskUUID == uuid && !$0.value.removed })?.key else { continue }
      writes[file] = uuid
      newBase[file] = nil
    }
  }

  /// Writes each file to write (one already as it should be is left, as after a crash), and
  /// makes what it wrote the item's base.
  private mutating func writeFiles(_ finalByUUID: [String: TaskRecord], _ finalWriter: ICalendar.Writer) throws(TodoError) {
    var written: [String] = []
    for (file, uuid) in writes.sorted(by: { $0.key < $1.key }) {
      guard let record = finalByUUID[uuid], var item = items[file] else { continue }
      let bytes = finalWriter.file(record)
      let old: [UInt8]? = if case .success(let read) = vdir.read(file) { read } else { nil }
      if old == bytes {
        // Already there (a crash after writing it, before the state was saved).
      } else if let problem = vdir.write(bytes, to: file) {
        throw .vdir("cannot write \(vdir.folder)/\(file): \(problem); nothing was changed")
      } else {
        written.append(file)
      }
      // What vdirsyncer last carried is what this write replaced (kept from the first write
      // until vdirsyncer runs).
      if item.previous.isEmpty, let old, old != bytes { item.previous = String(decoding: old, as: UTF8.self) }
      item.base = String(decoding: bytes, as: UTF8.self)
      item.hash = SyncEngine.hash(bytes)
      item.etag = vdir.stamp(file) ?? ""
      item.rendered = item.hash
      item.removed = false
      items[file] = item
    }
    report.written = written
  }

  /// The items whose file was not written: their new base (changed there), their rendering (the
  /// merge changed the task here), or the deleted task as base (deleted there, so that the item
  /// restored on the server later restores it here).
  private mutating func rebase(_ finalByUUID: [String: TaskRecord], _ finalWriter: ICalendar.Writer) {
    for (file, bytes) in newBase where writes[file] == nil {
      guard var item = items[file], let record = finalByUUID[item.taskUUID] else { continue }
      item.base = String(decoding: bytes, as: UTF8.self)
      item.previous = ""
      item.rendered = SyncEngine.hash(finalWriter.file(record))
      items[file] = item
    }
    for uuid in report.updated {
      guard let file = fileOf[uuid], newBase[file] == nil, writes[file] == nil, let record = finalByUUID[uuid], var item = items[file]
      else { continue }
      item.rendered = SyncEngine.hash(finalWriter.file(record))
      items[file] = item
    }
    for uuid in report.deleted + alreadyDeleted {
      guard let file = fileOf[uuid], let record = finalByUUID[uuid], var item = items[file] else { continue }
      let bytes = finalWriter.file(record)
      item.rendered = SyncEngine.hash(bytes)
      item.base = String(decoding: bytes, as: UTF8.self)
      item.previous = ""
      items[file] = item
    }
  }
}
