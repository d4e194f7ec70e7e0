import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every error path: its exit status, its one `todo: error: …` line (and hint) on stderr, the
/// JSON error object with `--json`, and that a failed command changes nothing.
@Suite struct EndToEndErrorTests {
  private let dateHint =
    "todo: hint: try 2026-12-01, 2026-12-01T17:00, today, tomorrow, friday, +3d, 2w, 'in 3 days', eod, eow, eom; "
    + "see 'todo help dates'"
  private let notFoundHint = "todo: hint: 'todo list status:all' shows every task with its id"

  /// A sandbox with two pending tasks (1 "Buy milk" +home, 2 "Pay rent" pri:H).
  private func twoTasks() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    #expect(todo.add("Buy", "milk", "+home") == 1)
    #expect(todo.add("Pay", "rent", "pri:H", "due:eom") == 2)
    return todo
  }

  /// Runs a command that must fail: checks the status, that stdout is empty and the exact stderr
  /// lines; then that the stored tasks and the journal are exactly as before.
  private func expectFailure(
    _ todo: TodoSandbox, _ arguments: [String], status: Int32, stderr lines: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = todo.snapshot()
    let run = todo.run(arguments)
    #expect(run.status == status, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stdout == "", "\(run)", sourceLocation: sourceLocation)
    #expect(run.errorLines == lines, "\(run)", sourceLocation: sourceLocation)
    #expect(todo.snapshot() == before, "a failed command changed the database: \(run.command)", sourceLocation: sourceLocation)
  }

  // MARK: usage errors (exit 2)

  @Test func unknownCommandSuggestsTheNearestOne() throws {
    let todo = try twoTasks()
    expectFailure(
      todo, ["lsit"], status: 2, stderr: ["todo: error: unknown command 'lsit'", "todo: hint: did you mean 'list'?"])
    expectFailure(
      todo, ["shwo", "1"], status: 2, stderr: ["todo: error: unknown command 'shwo'", "todo: hint: did you mean 'show'?"])
  }

  @Test func unknownOptionSuggestsTheNearestOne() throws {
    let todo = try twoTasks()
    let lines = ["todo: error: unknown option '--jsno'", "todo: hint: did you mean '--json'?"]
    expectFailure(todo, ["list", "--jsno"], status: 2, stderr: lines)
    expectFailure(todo, ["--jsno", "list"], status: 2, stderr: lines)
    expectFailure(todo, ["--jsno"], status: 2, stderr: lines)
    let add = todo("add", "x", "--priorty", "H")
    #expect(add.status == 2, "\(add)")
    #expect(add.errorLines.first == "todo: error: unknown option '--priorty'", "\(add)")
    #expect(add.errorLines.last == "todo: hint: did you mean '--priority'?", "\(add)")
  }

  @Test func anOptionWithoutItsValue() throws {
    let todo = try twoTasks()
    expectFailure(todo, ["list", "--limit"], status: 2, stderr: ["todo: error: option '--limit' needs a value"])
    expectFailure(todo, ["add", "x", "--due"], status: 2, stderr: ["todo: error: option '--due' needs a value"])
    expectFailure(todo, ["--db"], status: 2, stderr: ["todo: error: option '--db' needs a value"])
  }

  @Test func badValues() throws {
    let todo = try twoTasks()
    expectFailure(
      todo, ["add", "x", "pri:X"], status: 2, stderr: ["todo: error: bad value 'X' for pri: use H, M or L (high, medium, low)"])
    expectFailure(
      todo, ["add", "x", "--priority", "urgent"], status: 2,
      stderr: ["todo: error: bad value 'urgent' for --priority: use H, M or L (high, medium, low)"])
    expectFailure(
      todo, ["update", "1", "pri:X"], status: 2, stderr: ["todo: error: bad value 'X' for pri: use H, M or L (high, medium, low)"])
    expectFailure(
      todo, ["list", "--limit", "-1"], status: 2, stderr: ["todo: error: bad value '-1' for --limit: expected a whole number ≥ 1"])
    expectFailure(
      todo, ["list", "status:weird"], status: 2,
      stderr: ["todo: error: bad value 'weird' for status: use pending, done, deleted, closed or all (word 2)"])
    let sort = todo("list", "--sort", "bogus")
    #expect(sort.status == 2)
    #expect(sort.errorLines.first?.hasPrefix("todo: error: unknown sort key 'bogus'") == true, "\(sort)")
    expectFailure(
      todo, ["--color", "sometimes"], status: 2, stderr: ["todo: error: bad value 'sometimes' for --color: use auto, always or never"])
  }

  @Test func anUnreadableDateIsAUsageErrorNamingIt() throws {
    let todo = try twoTasks()
    let message = "todo: error: cannot read the date 'whenever': not a date: expected a date like 2026-12-01, today, friday, +3d, eow"
    // A due: word in add may have been meant as title text: the hint shows how to keep it.
    expectFailure(
      todo, ["add", "Call", "mum", "due:whenever"], status: 2,
      stderr: [
        message,
        "todo: hint: if 'due:whenever' is title text, put -- before the words: todo add -- Call mum due:whenever; dates: see 'todo help dates'",
      ])
    expectFailure(
      todo, ["update", "1", "due:whenever"], status: 2,
      stderr: [message, "todo: hint: if 'due:whenever' is title text, put -- before the words: todo update -- …; dates: see 'todo help dates'"])
    expectFailure(todo, ["add", "x", "--due", "whenever"], status: 2, stderr: [message, dateHint])
    expectFailure(todo, ["list", "due.before:whenever"], status: 2, stderr: [message + " (word 2 of the filter)", dateHint])
    expectFailure(todo, ["date", "whenever"], status: 2, stderr: [message, dateHint])
    let february = todo("add", "x", "due:2026-02-30")
    #expect(february.status == 2)
    #expect(february.errorLines.first?.hasPrefix("todo: error: cannot read the date '2026-02-30'") == true, "\(february)")
  }

  @Test func missingArguments() throws {
    let todo = try twoTasks()
    expectFailure(todo, ["add"], status: 2, stderr: ["todo: error: 'add' needs a title", "todo: hint: see 'todo help add'"])
    expectFailure(todo, ["add", "--"], status: 2, stderr: ["todo: error: 'add' needs a title", "todo: hint: see 'todo help add'"])
    expectFailure(
      todo, ["show"], status: 2, stderr: ["todo: error: 'show' needs the ids of the tasks to show", "todo: hint: see 'todo help show'"])
    expectFailure(
      todo, ["note", "2"], status: 2, stderr: ["todo: error: 'note' needs the note's text", "todo: hint: see 'todo help note'"])
  }

  @Test func updateWithNothingToChangeIsAUsageError() throws {
    let todo = try twoTasks()
    expectFailure(
      todo, ["update", "1"], status: 2,
      stderr: [
        "todo: error: 'update' needs new title words or attributes such as +tag, pri:H, due:friday",
        "todo: hint: see 'todo help update'",
      ])
  }

  @Test func showNeedsTaskReferencesAndSaysPrefixesNeedEightHexDigits() throws {
    let todo = try twoTasks()
    expectFailure(
      todo, ["show", "milk"], status: 2, stderr: ["todo: error: bad value 'milk' for show: expected a task id or UUID prefix"])
    let short = "todo: error: bad value 'abc1234' for show: UUID prefixes need at least 8 hex digits (ids are 1 to 7 digits without a leading zero)"
    expectFailure(todo, ["show", "abc1234"], status: 2, stderr: [short])
    expectFailure(todo, ["show", "1", "abc1234"], status: 2, stderr: [short])
    expectFailure(
      todo, ["note", "0042", "text"], status: 2,
      stderr: [
        "todo: error: bad value '0042' for note: UUID prefixes need at least 8 hex digits (ids are 1 to 7 digits without a leading zero)"
      ])
  }

  // MARK: run-time failures (exit 1)

  @Test func aTaskThatDoesNotExist() throws {
    let todo = try twoTasks()
    let lines = ["todo: error: no task 999", notFoundHint]
    expectFailure(todo, ["show", "999"], status: 1, stderr: lines)
    expectFailure(todo, ["done", "999"], status: 1, stderr: lines)
    expectFailure(todo, ["done", "1", "999"], status: 1, stderr: lines)  // all or nothing: 1 stays pending
    expectFailure(todo, ["update", "1,999", "+x"], status: 1, stderr: lines)
    expectFailure(todo, ["rm", "999"], status: 1, stderr: lines)
    expectFailure(todo, ["note", "999", "text"], status: 1, stderr: lines)
    expectFailure(
      todo, ["done", "+nothing"], status: 1,
      stderr: ["todo: error: no task matches", "todo: hint: 'todo list status:all' shows every task"])
    #expect(todo.ids() == [2, 1])
  }

  @Test func undoWithAnEmptyJournal() throws {
    let todo = try TodoSandbox()
    let lines = ["todo: error: nothing to undo", "todo: hint: the journal is empty; 'todo journal' lists what can be undone"]
    expectFailure(todo, ["undo"], status: 1, stderr: lines)
    // After undoing everything, the journal is empty again.
    todo.add("x")
    #expect(todo("undo").status == 0)
    expectFailure(todo, ["undo"], status: 1, stderr: lines)
  }

  @Test func anUnknownUUIDPrefix() throws {
    let todo = try twoTasks()
    let lines = ["todo: error: no task with UUID abcdef12…", notFoundHint]
    // (The two random UUIDs start with abcdef12 only with probability 2^-31.)
    expectFailure(todo, ["show", "abcdef12"], status: 1, stderr: lines)
    expectFailure(todo, ["done", "abcdef12"], status: 1, stderr: lines)
  }

  @Test func anAmbiguousUUIDPrefix() throws {
    try #require(TodoSandbox.hasTool("sqlite3"), "needs the sqlite3 CLI ('make test' installs it) to give two tasks one UUID prefix")
    let todo = try twoTasks()
    let sql = "UPDATE todo SET uuid = 'abcdef12-0000-4000-8000-00000000000' || id;"
    let edit = todo.shell("sqlite3 \"$TODO_DB\" \"\(sql)\"")
    #expect(edit.status == 0, "\(edit)")
    expectFailure(
      todo, ["show", "abcdef12"], status: 1, stderr: ["todo: error: UUID prefix 'abcdef12' matches 2 tasks; type more of it"])
    expectFailure(
      todo, ["done", "ABCDEF12-0000"], status: 1,
      stderr: ["todo: error: UUID prefix 'abcdef12-0000' matches 2 tasks; type more of it"])
    let exact = todo("show", "abcdef12-0000-4000-8000-000000000002", "--json")
    #expect(exact.status == 0, "\(exact)")
    #expect(try exact.jsonObject()["id"] as? Int == 2)
  }

  // MARK: the JSON error object

  @Test func withJSONTheErrorIsAJSONObjectOnStderr() throws {
    let todo = try twoTasks()
    let cases: [([String], Int32, String, String, String?)] = [
      (["lsit", "--json"], 2, "usage", "unknown command 'lsit'", "did you mean 'list'?"),
      (["--json", "list", "--jsno"], 2, "usage", "unknown option '--jsno'", "did you mean '--json'?"),
      (["add", "x", "pri:X", "--json"], 2, "usage", "bad value 'X' for pri: use H, M or L (high, medium, low)", nil),
      (["show", "999", "--json"], 1, "not_found", "no task 999", "'todo list status:all' shows every task with its id"),
      (["done", "999", "--jsonl"], 1, "not_found", "no task 999", "'todo list status:all' shows every task with its id"),
      (
        ["update", "1", "--json"], 2, "usage", "'update' needs new title words or attributes such as +tag, pri:H, due:friday",
        "see 'todo help update'"
      ),
    ]
    for (arguments, status, code, message, hint) in cases {
      let run = todo.run(arguments)
      #expect(run.status == status, "\(run)")
      #expect(run.stdout == "", "\(run)")
      #expect(run.errorLines.count == 1, "one line: \(run)")
      let object = try run.errorObject()
      #expect(Set(object.keys) == ["error"])
      let error = try #require(object["error"] as? [String: Any], "\(run)")
      #expect(Set(error.keys) == ["code", "message", "hint", "exit_status"], "\(run)")
      #expect(error["code"] as? String == code, "\(run)")
      #expect(error["message"] as? String == message, "\(run)")
      if let hint { #expect(error["hint"] as? String == hint, "\(run)") } else { #expect(isJSONNull(error["hint"]), "\(run)") }
      #expect(error["exit_status"] as? Int == Int(status), "\(run)")
    }
    let date = todo("add", "x", "due:whenever", "--json")
    #expect(date.status == 2)
    let error = try #require(try date.errorObject()["error"] as? [String: Any])
    #expect(error["code"] as? String == "usage")
    #expect((error["message"] as? String)?.contains("'whenever'") == true, "\(date)")
    let undo = try TodoSandbox()("undo", "--json")
    #expect(undo.status == 1)
    #expect((try undo.errorObject()["error"] as? [String: Any])?["code"] as? String == "nothing_to_undo", "\(undo)")
  }

  /// Each way a change can be refused has a code of its own, so that a script can tell them
  /// apart without reading the sentence.
  @Test func refusalsHaveCodesScriptsCanTellApart() throws {
    let todo = try twoTasks()
    #expect(todo("update", "1", "depends:2").status == 0)
    #expect(todo("done", "2").status == 0)
    let cases: [([String], Int32, String, String)] = [
      (["update", "2", "depends:1"], 2, "cycle", "task 2 cannot depend on task 1: that makes a cycle 2 → 1 → 2"),
      (["note", "1", "--remove", "4"], 2, "no_such_note", "task 1 has no notes; there is no note 4"),
      (["start", "2"], 1, "wrong_status", "task 2 is done: reopen it before starting it"),
      (["stop"], 1, "nothing_active", "no task is active: start one with todo start ID"),
      (["update", "1", "--series", "+x"], 1, "series", "task 1 is not recurring: --series changes the series of a recurring task"),
    ]
    for (arguments, status, code, message) in cases {
      let run = todo.run(arguments + ["--json"])
      #expect(run.status == status, "\(run)")
      let error = try #require(try run.errorObject()["error"] as? [String: Any], "\(run)")
      #expect(error["code"] as? String == code, "\(run)")
      #expect(error["message"] as? String == message, "\(run)")
    }
  }

  // MARK: the database file

  @Test func aDatabaseInAFolderThatDoesNotExist() throws {
    let todo = try twoTasks()
    let folder = todo.folder.appendingPathComponent("no/such/folder").path
    let path = folder + "/todo.db"
    let run = todo("--db", path, "add", "x")
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout == "")
    let first = run.errorLines.first ?? ""
    #expect(first.hasPrefix("todo: error: cannot use the database \(path)"), "\(run)")
    // The message should say why: the folder is missing (not just "unable to open database file").
    #expect(
      run.stderr.contains("\(todo.folder.path)/no") && (run.stderr.contains("does not exist") || run.stderr.contains("No such")),
      "the error does not say that the folder is missing:\n\(run)")
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent("no").path), "created nothing")
    let json = todo("--db", path, "add", "x", "--json")
    #expect(json.status == 1)
    #expect((try json.errorObject()["error"] as? [String: Any])?["code"] as? String == "database", "\(json)")
    // A read-only command on a database that does not exist creates nothing either.
    #expect(todo("--db", path, "list").status == 0)
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent("no").path))
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftUnchanged() throws {
    let todo = try TodoSandbox()
    let path = todo.folder.appendingPathComponent("junk.db").path
    var generator = SystemRandomNumberGenerator()
    let junk = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    #expect(FileManager.default.createFile(atPath: path, contents: junk))
    for arguments in [["add", "x"], ["list"], ["done", "1"], ["undo"], ["stats"]] {
      let run = todo.run(["--db", path] + arguments)
      #expect(run.status == 1, "\(run)")
      #expect(run.stdout == "", "\(run)")
      #expect(
        run.errorLines.first?.hasPrefix("todo: error: cannot use the database \(path): file is not a database") == true, "\(run)")
      #expect(todo.contents(of: path) == junk, "todo \(arguments) changed the file")
    }
    let siblings = try FileManager.default.contentsOfDirectory(atPath: todo.folder.path).filter { $0.hasPrefix("junk") }
    #expect(siblings == ["junk.db"], "no -wal/-shm/-journal files left next to it")
    let json = todo("--db", path, "add", "x", "--json")
    #expect((try json.errorObject()["error"] as? [String: Any])?["code"] as? String == "database", "\(json)")
    // Text, not random bytes.
    let text = todo.folder.appendingPathComponent("notes.txt").path
    #expect(FileManager.default.createFile(atPath: text, contents: Data("my shopping list\nmilk\n".utf8)))
    let run = todo("--db", text, "add", "x")
    #expect(run.status == 1, "\(run)")
    #expect(todo.contents(of: text) == Data("my shopping list\nmilk\n".utf8))
  }

  @Test func aFolderGivenAsTheDatabase() throws {
    let todo = try TodoSandbox()
    let run = todo("--db", todo.folder.path, "add", "x")
    #expect(run.status == 1, "\(run)")
    #expect(run.errorLines.first?.hasPrefix("todo: error: cannot use the database \(todo.folder.path)") == true, "\(run)")
  }

  /// As root (how the tests run here), permission bits do not stop writes: SQLite opens the
  /// 0444 file read-write and the add succeeds. What really happens is asserted, per user.
  @Test func aReadOnlyDatabaseFileAsTheCurrentUser() throws {
    let todo = try twoTasks()
    #expect(chmod(todo.databasePath, 0o444) == 0)
    let before = todo.contents(of: todo.databasePath)
    let run = todo("add", "three")
    if geteuid() == 0 {
      // Root: the write goes through (documented here, not a todo decision).
      #expect(run.status == 0, "\(run)")
      #expect(todo.ids("--sort", "id") == [1, 2, 3])
    } else {
      #expect(run.status == 1, "\(run)")
      #expect(run.errorLines.first?.hasPrefix("todo: error: ") == true, "\(run)")
      #expect(todo.contents(of: todo.databasePath) == before)
    }
  }

  /// The same with a real unprivileged user (root drops to `nobody` with setpriv): the write is
  /// refused with an error naming the file, the file is unchanged, and once the file is writable
  /// again todo works (no read-only side files left behind to break it).
  @Test(.enabled(if: geteuid() == 0 && TodoSandbox.hasTool("setpriv"), "needs root and setpriv to run as nobody"))
  func aReadOnlyDatabaseFileAsAnUnprivilegedUser() throws {
    let todo = try TodoSandbox()
    // The folder is nobody's own (a database in a folder others may write is refused).
    #expect(chown(todo.folder.path, 65534, 65534) == 0)
    let asNobody = { (arguments: [String]) -> TodoRun in
      todo.launch(
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        ["--reuid=65534", "--regid=65534", "--clear-groups", TodoSandbox.binary!.path] + arguments, shownAs: arguments
      ).wait()
    }
    let setup = asNobody(["add", "one"])
    #expect(setup.status == 0, "\(setup)")
    #expect(chmod(todo.databasePath, 0o444) == 0)
    let before = todo.contents(of: todo.databasePath)
    let list = asNobody(["list", "--json"])
    #expect(list.status == 0, "reading a read-only database works: \(list)")
    let afterRead = try FileManager.default.contentsOfDirectory(atPath: todo.folder.path).filter { $0.hasPrefix("todo.db") }
    #expect(afterRead == ["todo.db"], "a read-only command created files next to the database: \(afterRead.sorted())")
    let add = asNobody(["add", "two"])
    #expect(add.status == 1, "\(add)")
    #expect(add.stdout == "")
    #expect(add.errorLines.first?.hasPrefix("todo: error: ") == true, "\(add)")
    #expect(add.stderr.contains("read-only") || add.stderr.contains("readonly"), "\(add)")
    #expect(add.stderr.contains(todo.databasePath), "the error should name the database file:\n\(add)")
    #expect(todo.contents(of: todo.databasePath) == before, "the file is byte-for-byte unchanged")
    // Writable again: todo must work again.
    #expect(chmod(todo.databasePath, 0o644) == 0)
    let again = asNobody(["add", "three"])
    #expect(again.status == 0, "after chmod 0644 the database must be writable again:\n\(again)")
    let titles = try asNobody(["list", "--json"]).jsonArray().map { $0["title"] as? String }
    #expect(titles == ["one", "three"])
    let files = try FileManager.default.contentsOfDirectory(atPath: todo.folder.path).filter { $0.hasPrefix("todo.db") }
      .sorted()
    let modes = files.map { file -> String in
      let mode =
        (try? FileManager.default.attributesOfItem(atPath: todo.folder.appendingPathComponent(file).path))?[
          .posixPermissions] as? Int ?? 0
      return "\(file) \(String(mode, radix: 8))"
    }
    #expect(!modes.contains { $0.hasSuffix(" 444") }, "read-only side files left behind: \(modes)")
  }

  // MARK: nothing changes when a command fails

  @Test func failedCommandsChangeNothing() throws {
    let todo = try twoTasks()
    #expect(todo("note", "1", "a note").status == 0)
    let before = try todo("list", "status:all", "--json").jsonArray()
    let failing: [[String]] = [
      ["add", "x", "due:whenever"], ["add", "x", "pri:Z"], ["update", "1", "New", "title", "due:whenever"],
      ["update", "1-2", "+tag", "pri:X"], ["update", "1,999", "+tag"], ["done", "1", "999"], ["done", "1-2", "abcdef99"],
      ["rm", "2", "999"], ["reopen", "999"], ["note", "999", "x"], ["update", "1"], ["lsit"], ["add", "--jsno", "x"],
      ["update", "--where", "+home", "due:whenever"],
    ]
    for arguments in failing {
      let run = todo.run(arguments)
      #expect(run.status != 0, "\(run)")
      #expect(run.errorLines.first?.hasPrefix("todo: error: ") == true, "\(run)")
    }
    let after = try todo("list", "status:all", "--json").jsonArray()
    #expect(sameJSON(before, after), "before:\n\(canonicalJSON(before))\nafter:\n\(canonicalJSON(after))")
    let journal = try todo("journal", "--json").jsonArray()
    #expect(journal.map { $0["command"] as? String } == ["note 1 'a note'", "add Pay rent pri:H due:eom", "add Buy milk +home"])
  }
}

/// Output that cannot be written is a failure, not a silent success.
@Suite struct EndToEndOutputFailureTests {
  @Test func writingToAFullDeviceFailsWithAMessage() throws {
    let todo = try TodoSandbox()
    #expect(todo("add", "x").status == 0)
    let run = todo.shell("\"$TODO\" list > /dev/full")
    #expect(run.status == 1, "\(run)")
    #expect(run.stderr.hasPrefix("todo: error: cannot write the output: No space left on device"), "\(run)")
  }

  @Test func aClosedPipeIsNotAnError() throws {
    let todo = try TodoSandbox()
    for index in 1...50 { _ = todo("add", "task \(index)") }
    // The reader stops after one line; todo sees EPIPE on its next write and still succeeds.
    let run = todo.shell("{ \"$TODO\" list --jsonl; echo \"status=$?\" >&2; } | head -n 1 > /dev/null")
    #expect(run.stderr.contains("status=0"), "\(run)")
    #expect(!run.stderr.contains("error"), "\(run)")
  }
}
