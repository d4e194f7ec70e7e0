import Foundation
import Testing

/// A database written by todo 0.1.0 (commit 22b6dc2, made with its own binary: five tasks with
/// tags, a project, priorities, due dates, a note, a done and a deleted task, and eight journal
/// entries) is opened by this version with every task and every undo step intact.
@Suite struct PreviousVersionTests {
  private func sandboxWithFixture() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/made-by-0.1.0.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    return todo
  }

  @Test func everyTaskOfA010DatabaseIsReadAsItWasWritten() throws {
    let todo = try sandboxWithFixture()
    let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
    #expect(tasks.map { $0["title"] as? String } == ["Buy milk", "Pay rent", "Café 日本 🎉", "Old task", "Gone"])
    #expect(tasks.map { $0["status"] as? String } == ["pending", "pending", "pending", "done", "deleted"])
    #expect(tasks.map { $0["priority"] as? String } == ["M", "H", "L", nil, nil])
    #expect(tasks.map { $0["project"] as? String } == [nil, "home", "work.q4", nil, nil])
    #expect(jsonStrings(tasks[0]["tags"]) == ["errand", "home"])
    #expect(tasks[0]["due"] as? String == "2026-11-22")  // midnight: an all-day date since version 2
    #expect(tasks[1]["due"] as? String == "2026-11-30")  // 23:59:59 (eom): the day
    #expect((tasks[1]["notes"] as? [[String: Any]])?.first?["text"] as? String == "landlord wants it by the 1st")
    #expect(tasks[3]["completed"] as? String == "2026-11-21T09:30:00Z")
    #expect(Set(tasks.compactMap { $0["uuid"] as? String }).count == 5)
    let history = try todo("journal", "--json").jsonArray()
    #expect(history.count == 8)
    #expect(history.first?["command"] as? String == "update 1 pri:M")
  }

  /// `todo recover` of a file of every earlier schema gives what upgrading the file gives (data
  /// migrations included: 0.1.0's midnight due dates become days), and leaves the file as it was.
  @Test(arguments: ["made-by-0.1.0.db", "made-by-schema-2.db", "made-by-schema-3.db", "made-by-schema-4.db", "made-by-schema-5.db"])
  func recoveringAnOlderFileGivesWhatUpgradingItGives(_ name: String) throws {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    let upgraded = try TodoSandbox()
    try FileManager.default.copyItem(atPath: fixture.path, toPath: upgraded.databasePath)
    let recovered = try TodoSandbox()
    try FileManager.default.copyItem(atPath: fixture.path, toPath: recovered.databasePath)
    let before = recovered.contents(of: recovered.databasePath)
    let copy = recovered.folder.appendingPathComponent("copy.db").path
    let run = recovered("recover", copy)
    #expect(run.status == 0 && run.stdout.contains("Every row was read"), "\(run)")
    #expect(recovered.contents(of: recovered.databasePath) == before, "recover changed \(name)")
    for arguments in [["export", "--format", "jsonl"], ["journal", "--json"]] {
      #expect(recovered.run(["--db", copy] + arguments).stdout == upgraded.run(arguments).stdout, "\(name): \(arguments)")
    }
    #expect(recovered("--db", copy, "undo").status == 0)
    #expect(recovered.shell("stat -c %a '\(copy)'").stdout == "600\n", "the copy is private")
  }

  @Test func itsJournalStillUndoesAndNewChangesWork() throws {
    let todo = try sandboxWithFixture()
    // The newest entries, written by 0.1.0, undo as they did.
    #expect(todo("undo").status == 0)
    let first = try todo.task(1)
    #expect(isJSONNull(first["priority"]), "it had no priority before update 1 pri:M")
    // The journal's snapshots were upgraded with the tasks: the due date comes back as a day.
    #expect(first["due"] as? String == "2026-11-22")
    #expect(todo("undo").status == 0)
    #expect(try todo.task(5)["status"] as? String == "pending")
    // A change by this version, and its undo, on the old file.
    #expect(todo("update", "2", "+rent", "--note", "paid").status == 0)
    #expect(todo("undo").status == 0)
    let rent = try todo.task(2)
    #expect(jsonStrings(rent["tags"]) == [])
    #expect((rent["notes"] as? [Any])?.count == 1)
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA integrity_check;'").stdout == "ok\n")
  }

  /// A database written at schema version 2 (commit 7c5f658, with its own binary: four tasks
  /// with all-day and timed dates, wait, scheduled, until, a note, a done and a deleted task,
  /// and seven journal entries) upgrades to version 3 in place: every task and undo step intact,
  /// and the new links, series and times work on it.
  @Test func aSchema2DatabaseUpgradesInPlaceAndItsJournalStillUndoes() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-2.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
    #expect(tasks.map { $0["title"] as? String } == ["Water the plants", "Write report", "Call mum", "Old errand"])
    #expect(tasks.map { $0["status"] as? String } == ["pending", "pending", "deleted", "done"])
    #expect(tasks[0]["due"] as? String == "2026-11-23")
    #expect(tasks[1]["due"] as? String == "2026-11-25T17:00:00Z")
    #expect(tasks[1]["wait"] as? String == "2026-11-24")
    #expect(tasks[1]["until"] as? String == "2026-12-31")
    #expect(jsonStrings(tasks[1]["tags"]) == ["urgent"])
    #expect(tasks.allSatisfy { isJSONNull($0["recur"]) && isJSONNull($0["parent"]) && ($0["intervals"] as? [Any])?.isEmpty == true })
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version'").stdout == "9\n")
    // The old journal undoes: update 2 +urgent, then delete 3.
    #expect(todo("journal", "--json").jsonArrayCount == 7)
    todo("undo").expectSuccess()
    #expect(jsonStrings(try todo.task(2)["tags"]) == [])
    todo("undo").expectSuccess()
    #expect(try todo.task(3)["status"] as? String == "pending")
    // New features on the upgraded file, and their undo.
    todo("update", "1", "recur:weekly", "parent:2").expectSuccess()
    todo("start", "2").expectSuccess()
    todo("done", "1").expectSuccess()
    #expect(try todo.task(5)["due"] as? String == "2026-11-30")
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    #expect(isJSONNull(try todo.task(1)["recur"]))
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'SELECT count(*) FROM series; PRAGMA integrity_check;'").stdout == "0\nok\n")
  }
  /// A database written by the previous version (schema 3, made by 7c5f658's successor bc19d80:
  /// a task with a note, a weekly series with one instance done, a subtask that depends on it
  /// and whose clock runs, six journal entries) upgrades to version 4 in place: every field and
  /// undo step intact, and an import with extras works on it and undoes.
  @Test func aSchema3DatabaseUpgradesInPlaceAndItsJournalStillUndoes() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-3.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
    #expect(tasks.map { $0["title"] as? String } == ["Schema three task", "Weekly", "Sub", "Weekly"])
    #expect(tasks.map { $0["status"] as? String } == ["pending", "done", "pending", "pending"])
    #expect((tasks[0]["notes"] as? [[String: Any]])?.first?["text"] as? String == "old note")
    #expect(tasks[2]["parent_id"] as? Int == 1 && tasks[2]["depends_ids"] as? [Int] == [2] && tasks[2]["active"] as? Bool == true)
    #expect((tasks[3]["recur"] as? [String: Any])?["instance"] as? Int == 2)
    let tw = #"{"uuid":"aaaaaaaa-1111-4111-8111-111111111111","description":"From TW","status":"pending","entry":"20261120T100000Z","estimate":3}"#
    todo("import", "-", "--format", "taskwarrior", stdin: tw + "\n").expectSuccess()
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version'").stdout == "9\n")
    let exported = todo("export", "--format", "taskwarrior", "From")
    #expect(exported.stdout.contains(#""estimate":3"#), "\(exported)")
    // Task 1 updated from Taskwarrior with a field of its own, then undone: back as it was.
    let uuid = try #require(tasks[0]["uuid"] as? String)
    let update =
      #"{"uuid":"\#(uuid)","description":"Renamed by TW","status":"pending","entry":"20261121T093000Z","modified":"20261122T100000Z","ticket":"T-1"}"#
    todo("import", "-", "--format", "taskwarrior", stdin: update + "\n").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Renamed by TW")
    #expect(todo("journal", "--json").jsonArrayCount == 8)
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Schema three task")
    #expect(jsonStrings(try todo.task(1)["tags"]) == ["old"])
    #expect(!todo("export", "--format", "taskwarrior", "1").stdout.contains("T-1"))
    #expect(todo("journal", "--json").jsonArrayCount == 7)
    todo("undo").expectSuccess()
    #expect(todo.ids("status:all").count == 4)
    // The old steps still undo: done 2 (and the instance it created), then start 3.
    todo("undo").expectSuccess()
    #expect(todo.ids("status:all", "--sort", "id") == [1, 2, 3])
    #expect(try todo.task(2)["status"] as? String == "pending")
    todo("undo").expectSuccess()
    #expect(try todo.task(3)["active"] as? Bool == false)
  }
}

/// A database written by the previous version (schema 5, made by a57e84e's binary: a task with a
/// tag, a project and a note, one being worked on, a weekly series, a done task, seven journal
/// entries) upgrades to version 6 in place: every task as it was, the running clock still running,
/// and now a second task can be started beside it; the old journal still undoes.
@Suite struct PreviousVersionSchema5Tests {
  @Test func aSchema5DatabaseUpgradesInPlaceAndLetsTwoTasksBeActive() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-5.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
    #expect(tasks.map { $0["title"] as? String } == ["Schema five task", "Running one", "Weekly review", "Done one"])
    #expect(tasks.map { $0["status"] as? String } == ["pending", "pending", "pending", "done"])
    #expect(tasks[0]["project"] as? String == "house" && tasks[0]["tags"] as? [String] == ["home"])
    #expect((tasks[0]["notes"] as? [[String: Any]])?.first?["text"] as? String == "A note from schema five")
    #expect(tasks[1]["active"] as? Bool == true)
    #expect((tasks[2]["recur"] as? [String: Any])?["rule"] as? String == "weekly")
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version; PRAGMA integrity_check'").stdout == "9\nok\n")
    todo("start", "1").expectSuccess()
    #expect(todo.ids("+ACTIVE") == [1, 2])
    todo("undo").expectSuccess()
    // The old journal: the note of schema five's last command comes off.
    todo("undo").expectSuccess()
    #expect((try todo.task(1)["notes"] as? [Any])?.isEmpty == true)
    #expect(todo.ids("+ACTIVE") == [2])
  }
}

/// A database written by the previous version (schema 6, made by this change's binary before
/// its migration, as 4202a6c writes it: a task added, updated three times, noted, and a second
/// task added and done: seven journal entries) upgrades to version 7 in place: the journal gains
/// its index by task, `show` lists each task's history from the old journal, and it still undoes.
@Suite struct PreviousVersionSchema6Tests {
  @Test func aSchema6DatabaseUpgradesAndShowsEachTasksHistory() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-6.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    let history = todo("info", "1").lines.drop { $0 != "History" }
    #expect(
      Array(history) == [
        "History",
        "  2026-11-20 09:00 UTC  add Schema six task +home project:house", "    made the task",
        "  2026-11-20 10:00 UTC  update 1 pri:H due:2026-11-30", "    priority: - → H; due: - → 2026-11-30",
        "  2026-11-20 11:00 UTC  update 1 /six/6/", "    title: Schema six task → Schema 6 task",
        "  2026-11-20 12:00 UTC  note 1 A note from schema six", "    notes: 0 → 1",
        "  2026-11-20 14:00 UTC  update 1 -home +house pri:M", "    priority: H → M; tags: +home → +house",
      ])
    #expect(todo("show", "2").lines.suffix(2) == ["  2026-11-20 13:00 UTC  done 2", "    status: pending → done"])
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version; PRAGMA integrity_check'").stdout == "9\nok\n")
    #expect(
      todo.shell("sqlite3 \"$TODO_DB\" \"SELECT name FROM sqlite_master WHERE name = 'journal_change_by_todo'\"").stdout == "journal_change_by_todo\n"
    )
    // The old journal still undoes, and a change made now joins the history.
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["priority"] as? String == "H")
    todo("update", "1", "pri:L").expectSuccess()
    #expect(todo("show", "1").lines.last == "    priority: H → L")
    #expect(todo("show", "1", "--json").stdout.contains("History") == false)
  }
}

/// A database the schema-7 binary made (dd90299: a weekly series whose first instance is done and
/// second pending, and a plain task) upgrades to version 8, where a series may hold several
/// pending instances: a Taskwarrior file that brings an older pending one of it keeps it there.
@Suite struct PreviousVersionSchema7Tests {
  @Test func aSchema7DatabaseUpgradesAndItsSeriesTakesSeveralPendingInstances() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-7.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    #expect(try todo("list", "status:all", "--sort", "id", "--json").jsonArray().map { $0["status"] as? String } == ["done", "pending", "pending"])
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version; PRAGMA integrity_check'").stdout == "9\nok\n")
    #expect(todo.shell("sqlite3 \"$TODO_DB\" \"SELECT count(*) FROM sqlite_master WHERE name = 'todo_one_pending_per_series'\"").stdout == "0\n")
    #expect(
      todo.shell("sqlite3 \"$TODO_DB\" \"SELECT name FROM sqlite_master WHERE name LIKE 'pending_link%' ORDER BY name\"").stdout
        == "pending_link\npending_link_by_uuid\n")
    let series = try #require((try todo.task(2)["recur"] as? [String: Any])?["series"] as? String)
    // An instance Taskwarrior made for a period between (number 5, pending) joins the series.
    let instance =
      #"[{"uuid":"eeeeeeee-1111-4111-8111-111111111111","description":"Water the plants","status":"pending","entry":"20261121T000000Z","due":"20261211T000000Z","parent":"\#(series)","imask":4,"recur":"weekly","rtype":"periodic"}]"#
    let run = todo("import", "-", "--format", "taskwarrior", stdin: instance)
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(todo.ids("+RECURRING") == [2, 4])
    #expect(try (todo.task(4)["recur"] as? [String: Any])?["instance"] as? Int == 5)
    // The old journal still undoes, the import first.
    todo("undo").expectSuccess()
    #expect(todo.ids("+RECURRING") == [2])
    todo("undo").expectSuccess()
    #expect(todo.ids("status:all", "Plain") == [])
  }
}

/// A database written by the previous version (schema 4, made by 0094d08's binary: a task with a
/// note, one imported from a phone's .ics with its foreign UID and an Apple sort order, a done
/// task, five journal entries) upgrades to version 5 in place, and syncs to a real Radicale with
/// the phone task's UID and kept property intact.
@Suite struct PreviousVersionSyncTests {
  @Test func aSchema4DatabaseUpgradesInPlaceAndSyncs() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-4.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
    #expect(tasks.map { $0["title"] as? String } == ["Schema four task", "From the phone", "Done one"])
    #expect(tasks.map { $0["status"] as? String } == ["pending", "pending", "done"])
    #expect(todo("journal", "--json").jsonArrayCount == 5)
    let server = try RadicaleServer()
    try server.makeCollection("tasks")
    todo("sync", "--setup", server.url("/alice/tasks/")).expectSuccess()
    todo("sync").expectSuccess()
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version; PRAGMA integrity_check'").stdout == "9\nok\n")
    #expect(server.items("tasks").count == 3)
    let phone = try #require(server.items("tasks").map(server.get).first { $0.contains("UID:phone-1@example.org") })
    #expect(phone.contains("X-APPLE-SORT-ORDER:42") && phone.contains("SUMMARY:From the phone"), "\(phone)")
    // The old journal still undoes (done 3), and the undo is sent by the next sync.
    todo("undo").expectSuccess()
    todo("sync").expectSuccess()
    let done = try #require(server.items("tasks").map(server.get).first { $0.contains("SUMMARY:Done one") })
    #expect(done.contains("STATUS:NEEDS-ACTION"), "\(done)")
  }
}

extension TodoRun {
  /// How many elements the JSON array on stdout has (-1 when it is not one).
  var jsonArrayCount: Int { ((try? JSONSerialization.jsonObject(with: stdoutBytes)) as? [Any])?.count ?? -1 }

}
