import Foundation
import Testing

/// Databases that cannot be used as they are: truncated, with a damaged page, written by a newer
/// todo, locked by another program past the busy timeout, in a folder this user may not write.
/// Each gives one clear `todo: error:` line (and a hint), exit 1, and the file byte for byte as
/// it was. (Missing folders, folders as the database, files that are not SQLite and read-only
/// files are in EndToEndErrorTests; full disks in EndToEndDiskFullTests.)
@Suite struct EndToEndBadDatabaseTests {
  /// A database of 300 tasks long enough to span many pages, closed (no -wal left).
  private func filled() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    let script = (1...300).map { "add Task \($0) " + String(repeating: "w", count: 100) }.joined(separator: "\n") + "\n"
    let run = todo("shell", stdin: script)
    try #require(run.status == 0, "\(run)")
    return todo
  }

  private static let changes: [[String]] = [["add", "More"], ["done", "1"], ["update", "2", "+x"], ["undo"]]

  /// A trigger someone slipped into the file (one that rewrites every task as it is saved)
  /// passes SQLite's integrity check; `check` names it and fails, and `recover` copies the tasks
  /// without it.
  @Test func checkNamesTriggersAndViewsTodoNeverMakes() throws {
    let todo = try TodoSandbox()
    todo.add("Mine")
    let planted = todo.shell(
      "sqlite3 \"$TODO_DB\" \"CREATE TRIGGER evil AFTER UPDATE ON todo BEGIN UPDATE todo SET title = 'pwned' WHERE id = NEW.id; END; "
        + "CREATE VIEW peek AS SELECT title FROM todo;\"")
    try #require(planted.status == 0, "\(planted)")
    let checked = todo("check")
    #expect(checked.status == 1, "\(checked)")
    #expect(
      checked.lines == [
        "The database \(todo.databasePath) is intact (SQLite's integrity check found nothing wrong).",
        "It holds triggers or views todo never makes (a trigger runs its own SQL whenever what it watches changes):",
        "  trigger evil on todo", "  view peek",
      ], "\(checked)")
    let json = try todo("check", "--json").jsonObject()
    #expect(json["ok"] as? Bool == false && json["foreign"] as? [String] == ["trigger evil on todo", "view peek"], "\(json)")
    let copy = todo.folder.appendingPathComponent("copy.db").path
    #expect(todo("recover", copy).status == 0)
    #expect(todo("--db", copy, "check").status == 0)
  }

  @Test func aTruncatedDatabaseIsDamagedAndLeftAlone() throws {
    let todo = try filled()
    #expect(truncate(todo.databasePath, 40_000) == 0)
    let before = todo.contents(of: todo.databasePath)
    for arguments in [["list"], ["stats"]] + Self.changes {
      let run = todo.run(arguments)
      #expect(run.status == 1, "\(arguments): \(run)")
      #expect(run.stdout == "", "\(arguments)")
      #expect(
        run.errorLines == [
          "todo: error: cannot use the database \(todo.databasePath): the file is damaged (SQLite: database disk image is malformed); nothing was written",
          "todo: hint: copy the file aside as it is; 'todo check' shows the damage; 'todo recover NEW.db' copies every task that can still be read into a new file",
        ], "\(arguments): \(run)")
      #expect(todo.contents(of: todo.databasePath) == before, "\(arguments) changed the file")
    }
  }

  /// A page of the task table overwritten: the commands that read it say the file is damaged.
  @Test func aDamagedPageIsReportedWithTheWayToSeeIt() throws {
    let todo = try filled()
    let leaf = todo.shell("sqlite3 '\(todo.databasePath)' \"SELECT pageno FROM dbstat WHERE name = 'todo' AND pagetype = 'leaf' LIMIT 1 OFFSET 3\"")
    let page = try #require(Int(leaf.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(leaf)")
    let handle = try #require(FileHandle(forWritingAtPath: todo.databasePath))
    try handle.seek(toOffset: UInt64((page - 1) * 4096))
    handle.write(Data([0x0D, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
    try handle.close()
    let check = todo.shell("sqlite3 '\(todo.databasePath)' 'PRAGMA integrity_check'")
    #expect(check.stdout != "ok\n", "the page is not damaged: \(check)")
    let before = todo.contents(of: todo.databasePath)
    for arguments in [["list"], ["list", "status:all"], ["update", "--where", "Task", "+x", "--yes"], ["export"]] {
      let run = todo.run(arguments)
      #expect(run.status == 1, "\(arguments): \(run)")
      #expect(
        run.errorLines.first == "todo: error: the database file is damaged (SQLite: database disk image is malformed); nothing was written",
        "\(arguments): \(run)")
      #expect(run.errorLines.dropFirst().first?.contains("'todo check' shows the damage") == true, "\(run)")
      #expect(todo.contents(of: todo.databasePath) == before, "\(arguments) changed the file")
    }
    // `check` says so; `recover` copies the rest into a new file that is whole; neither writes.
    let checked = todo("check")
    #expect(checked.status == 1 && checked.stdout.contains("is damaged") && checked.stdout.contains("  Page \(page):"), "\(checked)")
    let copy = todo.folder.appendingPathComponent("copy.db").path
    let recovered = todo("recover", copy)
    #expect(recovered.status == 0 && recovered.stdout.contains("Damage was met in todo"), "\(recovered)")
    #expect(todo.contents(of: todo.databasePath) == before, "check or recover changed the file")
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath + "-wal"), "a -wal file was left next to the damaged one")
    #expect(todo("--db", copy, "check").status == 0)
    let tasks = todo("--db", copy, "list", "--jsonl").stdout.split(separator: "\n").count
    #expect(tasks > 250 && tasks < 300, "\(tasks) of 300 tasks recovered")
    let report = todo("recover", copy + "2", "--json")
    let tables = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
    #expect(tables["complete"] as? Bool == false && tables["copy"] as? String == copy + "2", "\(report)")
    // A dry run reports the same and writes nothing, not even the copy's folder.
    let dryFolder = todo.folder.appendingPathComponent("dry").path
    let dry = todo("recover", dryFolder + "/sub/copy.db", "--dry-run")
    #expect(dry.status == 0 && dry.stdout.hasPrefix("Would recover \(tasks) tasks from") && dry.stdout.contains("nothing was written"), "\(dry)")
    #expect(!FileManager.default.fileExists(atPath: dryFolder), "a dry run made \(dryFolder)")
    let dryJSON = todo("recover", copy + "3", "--dry-run", "--json")
    let dryReport = try #require(try JSONSerialization.jsonObject(with: Data(dryJSON.stdout.utf8)) as? [String: Any], "\(dryJSON)")
    #expect(dryReport["dry_run"] as? Bool == true && dryReport["complete"] as? Bool == false, "\(dryJSON)")
    #expect(!FileManager.default.fileExists(atPath: copy + "3"))
    #expect(todo.contents(of: todo.databasePath) == before, "a dry run changed the file")
  }

  /// Damage in an index only: commands that never read it go on, `check` finds it, and
  /// `recover` copies every task with its tags and notes.
  @Test func damageOutsideWhatCommandsReadIsFoundByCheckAndRecoveredInFull() throws {
    let todo = try filled()
    for id in 1...300 where id % 3 == 0 { todo("update", String(id), "+third", "--note", "note \(id)").expectSuccess() }
    let leaf = todo.shell(
      "sqlite3 '\(todo.databasePath)' \"SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_todo_1' AND pagetype = 'leaf' LIMIT 1 OFFSET 1\"")
    let page = try #require(Int(leaf.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(leaf)")
    let expected = todo("export", "--format", "jsonl").stdout
    let handle = try #require(FileHandle(forWritingAtPath: todo.databasePath))
    try handle.seek(toOffset: UInt64((page - 1) * 4096 + 8))
    handle.write(Data(repeating: 0xFF, count: 64))
    try handle.close()
    let before = todo.contents(of: todo.databasePath)
    #expect(todo("list", "+third").stdout.contains("Task 300"), "a list that does not read the index works")
    let check = todo("check", "--json")
    #expect(check.status == 1, "\(check)")
    let found = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
    #expect(found["ok"] as? Bool == false && (found["problems"] as? [String])?.isEmpty == false, "\(check)")
    let copy = todo.folder.appendingPathComponent("copy.db").path
    let recovered = todo("recover", copy)
    #expect(recovered.status == 0 && recovered.stdout.contains("Recovered 300 tasks") && recovered.stdout.contains("complete"), "\(recovered)")
    #expect(todo("--db", copy, "export", "--format", "jsonl").stdout == expected)
    #expect(todo.contents(of: todo.databasePath) == before)
  }

  /// A damaged undo journal: the copy keeps every task and starts with an empty journal, since
  /// undoing from one with holes could revert part of a command.
  @Test func aDamagedJournalIsEmptiedInTheCopy() throws {
    let todo = try filled()
    let leaf = todo.shell(
      "sqlite3 '\(todo.databasePath)' \"SELECT pageno FROM dbstat WHERE name = 'journal_entry' AND pagetype = 'leaf' LIMIT 1 OFFSET 1\"")
    let page = try #require(Int(leaf.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(leaf)")
    let expected = todo("export", "--format", "jsonl").stdout
    let handle = try #require(FileHandle(forWritingAtPath: todo.databasePath))
    try handle.seek(toOffset: UInt64((page - 1) * 4096))
    handle.write(Data([0x0D, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
    try handle.close()
    let copy = todo.folder.appendingPathComponent("copy.db").path
    let recovered = todo("recover", copy, "--json")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(recovered.stdout.utf8)) as? [String: Any], "\(recovered)")
    #expect(report["journal_emptied"] as? Bool == true && report["complete"] as? Bool == false, "\(recovered)")
    #expect(todo("--db", copy, "export", "--format", "jsonl").stdout == expected)
    #expect(todo("--db", copy, "journal", "--jsonl").stdout.isEmpty)
    #expect(todo("--db", copy, "undo").status == 1)
    #expect(todo("--db", copy, "check").status == 0)
  }

  /// A whole database, every kind of row: the copy exports the same and undoes the same.
  @Test func recoveringAnIntactDatabaseCopiesEveryKindOfRow() throws {
    let todo = try TodoSandbox()
    todo("add", "Parent", "+a", "project:p.q", "due:fri", "pri:H", "--note", "first").expectSuccess()
    todo("add", "Child", "parent:1", "recur:weekly", "due:tomorrow").expectSuccess()
    todo("add", "Blocked", "depends:1", "until:2027-01-01").expectSuccess()
    todo("start", "3").expectSuccess()
    todo("done", "2").expectSuccess()
    let ics = todo.folder.appendingPathComponent("a.ics").path
    try "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:phone-1@example.org\r\nSUMMARY:From the phone\r\nX-PHONE-ORDER:3\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
      .write(toFile: ics, atomically: true, encoding: .utf8)
    todo("import", ics).expectSuccess()
    let copy = todo.folder.appendingPathComponent("sub/copy.db").path
    let recovered = todo("recover", copy)
    #expect(recovered.status == 0 && recovered.stdout.contains("Every row was read"), "\(recovered)")
    for arguments in [["export", "--format", "jsonl"], ["journal"], ["export", "--format", "ical"], ["timesheet"]] {
      #expect(todo.run(["--db", copy] + arguments).stdout == todo.run(arguments).stdout, "\(arguments)")
    }
    #expect(todo("--db", copy, "undo").status == 0)
    #expect(todo("recover", copy).status == 2, "an existing file is never overwritten")
    #expect(todo("recover").status == 2)
    #expect(todo("recover", "a", "b").status == 2)
  }

  @Test func aDatabaseOfANewerTodoIsRefusedUnchanged() throws {
    let todo = try TodoSandbox()
    todo.add("Mine")
    let version = todo.shell("sqlite3 '\(todo.databasePath)' 'PRAGMA user_version = 99'")
    try #require(version.status == 0, "\(version)")
    let before = todo.contents(of: todo.databasePath)
    for arguments in [["list"], ["add", "x"], ["--dry-run", "add", "x"]] {
      let run = todo.run(arguments)
      #expect(run.status == 1, "\(arguments): \(run)")
      #expect(
        run.errorLines == [
          "todo: error: cannot use the database \(todo.databasePath): the database has schema version 99, newer than the 9 this program knows; use a newer version of the program",
          "todo: hint: this database was written by a newer version of todo",
        ], "\(arguments): \(run)")
      #expect(todo.contents(of: todo.databasePath) == before)
    }
    // A recovery that fails leaves nothing behind: no copy, and no folder made for it.
    let made = todo.folder.appendingPathComponent("made").path
    let failed = todo.run(["recover", made + "/sub/copy.db"])
    #expect(failed.status == 1 && failed.errorLines.first?.contains("newer than the 9") == true, "\(failed)")
    #expect(!FileManager.default.fileExists(atPath: made), "the failed recovery left \(made)")
  }

  /// sqlite3 holds the write lock until the test is done (at most a minute): a change waits the
  /// 5-second busy timeout, then fails clearly; reading goes on meanwhile (WAL).
  /// (A generous limit: under AddressSanitizer, with the other tests, it takes minutes; on a
  /// loaded machine sqlite3 may take seconds to start, so the lock is waited for, not timed. The
  /// holder waits for the lock itself: without a busy timeout, its BEGIN EXCLUSIVE failed at once
  /// when it came while one of the probes below held the lock, and the lock was never taken.)
  @Test(.timeLimit(.minutes(30))) func aDatabaseLockedPastTheBusyTimeout() throws {
    // The binary: a command that waits out the busy timeout would hold up every other
    // in-process run meanwhile.
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Mine")
    let release = todo.folder.appendingPathComponent("release").path
    let holder = todo.launch(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c",
        "(echo '.timeout 30000'; echo 'BEGIN EXCLUSIVE;'; echo 'SELECT 1;'; i=0; while [ ! -e '\(release)' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done) "
          + "| sqlite3 '\(todo.databasePath)'",
      ])
    defer { FileManager.default.createFile(atPath: release, contents: nil) }
    // The lock is held once an immediate transaction with no wait is refused.
    var held = false
    for _ in 0..<600 where !held {
      held = todo.shell("sqlite3 -cmd '.timeout 0' '\(todo.databasePath)' 'BEGIN IMMEDIATE; ROLLBACK;'").status != 0
      if !held { usleep(50_000) }
    }
    try #require(held, "sqlite3 did not take the lock")
    let listed = todo("list", "--json")
    #expect(listed.status == 0, "reading works while another program writes: \(listed)")
    let started = Date()
    let run = todo("add", "Blocked")
    #expect(Date().timeIntervalSince(started) >= 4.5, "it did not wait for the lock")
    #expect(run.status == 1, "\(run)")
    #expect(
      run.errorLines == [
        "todo: error: the database is locked: another program kept it locked for longer than 5 seconds; nothing was written",
        "todo: hint: another todo (or a program using the file, such as sqlite3) is writing to it; try again",
      ], "\(run)")
    FileManager.default.createFile(atPath: release, contents: nil)
    _ = holder.wait(seconds: 70)
    #expect(todo.ids() == [1])
  }

  /// As `nobody` (root drops its rights with setpriv): a database in a folder that user may not
  /// write can be read, but not changed, and nothing appears in the folder.
  @Test(.enabled(if: geteuid() == 0 && TodoSandbox.hasTool("setpriv"), "needs root and setpriv to run as nobody"))
  func aDatabaseInAReadOnlyFolder() throws {
    let todo = try TodoSandbox()
    todo.add("Mine")
    let folder = todo.folder.appendingPathComponent("shared").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let database = folder + "/todo.db"
    try FileManager.default.copyItem(atPath: todo.databasePath, toPath: database)
    // The folder is root's and closed to others' writes; the file is nobody's.
    #expect(chmod(todo.folder.path, 0o755) == 0 && chmod(folder, 0o755) == 0)
    #expect(chown(database, 65534, 65534) == 0)
    let before = todo.contents(of: database)
    let asNobody = { (arguments: [String]) -> TodoRun in
      todo.launch(
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        ["--reuid=65534", "--regid=65534", "--clear-groups", TodoSandbox.binary!.path, "--db", database] + arguments,
        shownAs: arguments
      ).wait()
    }
    let listed = asNobody(["list", "--json"])
    #expect(listed.status == 0, "\(listed)")
    #expect(try listed.jsonArray().compactMap { $0["title"] as? String } == ["Mine"])
    let add = asNobody(["add", "Theirs"])
    #expect(add.status == 1, "\(add)")
    #expect(
      add.errorLines == [
        "todo: error: cannot use the database \(database): its folder is not writable, and SQLite keeps its journal files next to the database; nothing was written"
      ], "\(add)")
    #expect(todo.contents(of: database) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["todo.db"])
  }
}
