import Foundation
import Testing

/// `export` and `import` through the real binary, and with the real Taskwarrior and todo.txt-cli
/// (installed by `make test`'s dependencies).
@Suite struct EndToEndInterchangeTests {
  /// Tasks with every kind of field: priority, project, tags, dates, a note, a subtask with a
  /// dependency and a running clock, and a weekly series with one done instance.
  private func populated() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    todo("add", "Buy milk", "+shop", "project:home.kitchen", "due:fri", "pri:H", "wait:thu").expectSuccess()
    todo("add", "Water plants", "due:tomorrow", "recur:weekly").expectSuccess()
    todo("note", "1", "semi-skimmed, \"two\" bottles").expectSuccess()
    todo("add", "Child", "parent:1", "depends:2", "due:2026-12-01T17:00:00Z").expectSuccess()
    todo("start", "3").expectSuccess()
    todo("done", "2").expectSuccess()
    return todo
  }

  /// The task objects of a JSON Lines export without the ids this database gave them.
  private func withoutIDs(_ jsonl: String) throws -> [String] {
    try TodoRun.lines(of: jsonl).map { line in
      var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for key in ["id", "parent_id", "depends_ids"] { object.removeValue(forKey: key) }
      return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
  }

  @Test func jsonExportThenImportIntoAnEmptyDatabaseReproducesEveryField() throws {
    let todo = try populated()
    let exported = todo("export", "--format", "jsonl")
    exported.expectSuccess()
    #expect(exported.lines.count == 4)
    let file = todo.folder.appendingPathComponent("all.jsonl").path
    todo("export", "--output", file).expectSuccess()
    #expect(try String(contentsOfFile: file, encoding: .utf8) == exported.stdout)

    let other = try TodoSandbox()
    let imported = other("import", file)
    imported.expectSuccess()
    #expect(imported.lines == ["Imported 4 tasks from \(file) (jsonl): 4 added, 0 updated, 0 unchanged, 0 skipped."])
    let again = other("export", "--format", "jsonl")
    #expect(try withoutIDs(again.stdout) == (try withoutIDs(exported.stdout)))
    // Re-importing the same file changes nothing and leaves no undo step.
    let twice = other("import", file)
    #expect(twice.lines == ["Imported 4 tasks from \(file) (jsonl): 0 added, 0 updated, 4 unchanged, 0 skipped."])
    // One undo step removes the whole import.
    other("undo").expectSuccess()
    #expect(other("list", "status:all", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  @Test func aNewerCopyUpdatesAnOlderOneIsSkippedAndDryRunWritesNothing() throws {
    let todo = try TodoSandbox()
    todo("add", "Original title").expectSuccess()
    let object = try todo.task(1)
    let uuid = try #require(object["uuid"] as? String)
    let newer = #"{"uuid":"\#(uuid)","title":"Newer title","status":"pending","created":"2026-11-21T09:30:00Z","modified":"2026-11-22T10:00:00Z"}"#
    let older = #"{"uuid":"\#(uuid)","title":"Older title","status":"pending","created":"2026-11-21T09:30:00Z","modified":"2026-01-01T00:00:00Z"}"#
    let dry = todo("import", "-", "--dry-run", stdin: newer + "\n")
    dry.expectSuccess()
    #expect(dry.lines.first?.hasPrefix("Would import 1 task from standard input") == true, "\(dry)")
    #expect(try todo.task(1)["title"] as? String == "Original title")
    todo("import", "-", stdin: newer + "\n").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Newer title")
    let skipped = todo("import", "-", "--json", stdin: older + "\n")
    skipped.expectSuccess()
    let report = try #require(try JSONSerialization.jsonObject(with: skipped.stdoutBytes) as? [String: Any])
    #expect(report["skipped"] as? [Int] == [1])
    #expect(try todo.task(1)["title"] as? String == "Newer title")
  }

  /// JSON Lines larger than the pieces an import reads (the first 8 KiB, then 1 MiB at a time):
  /// every task arrives, from a file and from a pipe, and an error past the first piece still
  /// names its line and imports nothing.
  @Test func aLargeImportReadInPiecesLosesNoTaskAtTheSeams() throws {
    let todo = try TodoSandbox()
    let count = 2_600
    let lines = (1...count).map { number in
      let uuid = String(format: "00000000-0000-4000-8000-%012d", number)
      let title = "Task \(number) " + String(repeating: "é", count: 200 + number % 97)
      return #"{"uuid":"\#(uuid)","title":"\#(title)","tags":["t\#(number % 5)"],"created":"2026-11-21T09:30:00Z"}"#
    }
    let file = todo.folder.appendingPathComponent("large.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    #expect((try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0) > 1_100_000)
    func titles(_ sandbox: TodoSandbox) throws -> [String] {
      try TodoRun.lines(of: sandbox("export", "--format", "jsonl").stdout).map { line in
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return "\(object["uuid"] ?? "") \(object["title"] ?? "") \(object["tags"] ?? "")"
      }.sorted()
    }
    todo("import", file, "--yes").expectSuccess()
    let expected = lines.map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
      return "\(object["uuid"] ?? "") \(object["title"] ?? "") \(object["tags"] ?? "")"
    }.sorted()
    #expect(try titles(todo) == expected)
    let piped = try TodoSandbox()
    piped("import", "-", "--yes", stdin: try String(contentsOfFile: file, encoding: .utf8)).expectSuccess()
    #expect(try titles(piped) == expected)
    // A bad line after the first mebibyte.
    var bad = lines
    bad[2_400] = #"{"uuid":"bad","title":"x","created":"never"}"#
    try (bad.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let empty = try TodoSandbox()
    let failed = empty("import", file, "--yes", "--strict")
    #expect(failed.status == 1 && failed.stderr.contains("line 2401: \"created\" is not an RFC 3339 time"), "\(failed)")
    #expect(empty("list", "status:all", "--jsonl").stdout.isEmpty)
  }

  /// A recurring task marked `x` in todo.txt and imported again is done, and its series goes on to
  /// the next instance as `todo done` makes it; importing the file once more changes nothing, and
  /// one undo takes back both. Other formats bring their own next instance: a JSON copy closed
  /// elsewhere makes none here.
  @Test func aSeriesInstanceClosedInAnImportedFileBringsItsNextInstance() throws {
    let todo = try TodoSandbox()
    todo("add", "Water plants", "due:2026-11-22", "recur:1w").expectSuccess()
    let line = todo("export", "--format", "todotxt").stdout
    #expect(line.contains("rec:+1w"), "\(line)")
    let file = todo.folder.appendingPathComponent("todo.txt").path
    try ("x 2026-11-22 " + line).write(toFile: file, atomically: true, encoding: .utf8)
    let imported = todo("import", file)
    imported.expectSuccess()
    #expect(imported.stdout.contains("A series without a pending instance went on to the next one: task 2."), "\(imported)")
    #expect(try todo.task(1)["status"] as? String == "done")
    let next = try todo.task(2)
    #expect(next["status"] as? String == "pending" && next["due"] as? String == "2026-11-29" && next["recur"] is [String: Any], "\(next)")
    #expect(next["title"] as? String == "Water plants")
    let again = todo("import", file, "--json")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any], "\(again)")
    #expect((report["next_instances"] as? [Any])?.isEmpty == true && (report["unchanged"] as? [Any])?.count == 1, "\(again)")
    #expect(todo.ids("status:all") == [1, 2])
    todo("undo").expectSuccess()
    #expect(todo.ids("status:all") == [1])
    #expect(try todo.task(1)["status"] as? String == "pending")
    // A JSON copy closed elsewhere (later than the task here was changed): no instance is made
    // here, since the other side's export carries its own next one.
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(todo("export", "--format", "jsonl").stdout.utf8)) as? [String: Any])
    object["status"] = "done"
    object["completed"] = "2026-11-22T08:00:00Z"
    object["modified"] = "2030-01-01T00:00:00Z"
    let closed = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    let json = todo("import", "-", "--format", "jsonl", stdin: closed + "\n")
    #expect(json.status == 0 && !json.stdout.contains("next instance"), "\(json)")
    #expect(try todo("list", "--json").jsonArray().isEmpty)
    #expect(try todo.task(1)["status"] as? String == "done")
    // Simpletask and the rec add-on make the next occurrence themselves, copying the line (its
    // `uuid:` too) with the next due date: that copy is the next, a new task, and no second is made.
    let other = try TodoSandbox()
    other("add", "Feed cat", "due:2026-11-22", "recur:1d").expectSuccess()
    let catLine = other("export", "--format", "todotxt").stdout
    let copy = catLine.replacingOccurrences(of: "due:2026-11-22", with: "due:2026-11-23")
    let catFile = other.folder.appendingPathComponent("todo.txt").path
    try ("x 2026-11-22 " + catLine + copy).write(toFile: catFile, atomically: true, encoding: .utf8)
    let both = other("import", catFile, "--yes")
    #expect(both.status == 0 && !both.stdout.contains("next instance") && both.stdout.contains("1 added, 1 updated"), "\(both)")
    let cats = try other("list", "--json").jsonArray()
    #expect(cats.count == 1 && cats.first?["due"] as? String == "2026-11-23" && cats.first?["recur"] is [String: Any], "\(cats)")
    #expect(try other.task(1)["status"] as? String == "done")
    // Written back, the copy names its own UUID, and the file reads back as it stands.
    let written = other("export", "--format", "todotxt").stdout
    #expect(Set(TodoRun.lines(of: written).compactMap { $0.split(separator: " ").first { $0.hasPrefix("uuid:") } }).count == 2, "\(written)")
    let reimport = other("import", catFile, "--yes")
    #expect(reimport.status == 0 && reimport.stdout.contains("0 added, 0 updated, 2 unchanged"), "\(reimport)")
  }

  /// `rec:` edited in todo.txt and imported again changes the series' rule (the next instance
  /// comes by the new one); undo puts the old rule back.
  @Test func aRecurrenceEditedInTodoTxtChangesTheSeries() throws {
    let todo = try TodoSandbox()
    todo("add", "Water plants", "due:2026-11-22", "recur:1w").expectSuccess()
    let line = todo("export", "--format", "todotxt").stdout
    let file = todo.folder.appendingPathComponent("todo.txt").path
    try line.replacingOccurrences(of: "rec:+1w", with: "rec:+2w").write(toFile: file, atomically: true, encoding: .utf8)
    let imported = todo("import", file)
    #expect(imported.status == 0 && imported.stdout.contains("1 updated"), "\(imported)")
    #expect(todo("show", "1").stdout.contains("2w"), "\(todo("show", "1"))")
    todo("done", "1").expectSuccess()
    #expect(try todo.task(2)["due"] as? String == "2026-12-06")
    todo("undo").expectSuccess()
    todo("undo").expectSuccess()
    todo("done", "1").expectSuccess()
    #expect(try todo.task(3)["due"] as? String == "2026-11-29", "the old rule came back with undo")
  }

  /// With --strict, one bad record refuses the whole input; without it, a record that does not
  /// read (or cannot be stored) costs that record, with a warning naming its line, and the rest
  /// is imported. Input that is not JSON at all is refused either way.
  @Test func malformedInputFailsWithItsLineAndWritesNothing() throws {
    let good = #"{"uuid":"11111111-1111-4111-8111-111111111111","title":"Fine","created":"2026-11-21T09:30:00Z"}"#
    let cases: [(input: String, expected: String, recordLevel: Bool)] = [
      (good + "\n{\"uuid\":\"x\",\"title\":\"a\",\"created\":\"not a time\"}\n", "line 2: \"created\" is not an RFC 3339 time", true),
      (good + "\n\n{\"uuid\": \"y\", \"title\": \"b\"", "line 3: ", false),
      (
        "[" + good + ",\n{\"uuid\":\"z\",\"title\":\"c\",\"status\":\"waiting\",\"created\":\"2026-11-21T09:30:00Z\"}]",
        "line 2: unknown status 'waiting'", true
      ),
      (good + "\n{\"uuid\":\"w\",\"title\":\"  \",\"created\":\"2026-11-21T09:30:00Z\"}\n", "line 2: ", true),
      ("\u{1}\u{2}binary\u{0}junk", "cannot import", false),
    ]
    for (input, expected, recordLevel) in cases {
      let todo = try TodoSandbox()
      todo("add", "Keep me").expectSuccess()
      let file = todo.folder.appendingPathComponent("bad.jsonl").path
      try input.write(toFile: file, atomically: true, encoding: .utf8)
      let run = todo("import", file, "--format", "jsonl", "--strict")
      #expect(run.status == 1, "\(run)")
      #expect(run.stderr.contains(expected), "\(run)")
      #expect(run.stderr.contains("nothing was imported"), "\(run)")
      #expect(todo.ids("status:all") == [1])
      let lenient = todo("import", file, "--format", "jsonl")
      if recordLevel {
        #expect(lenient.status == 0, "\(lenient)")
        #expect(lenient.errorLines.first?.hasPrefix("todo: warning: \(file) \(expected)") == true, "\(lenient)")
        #expect(lenient.errorLines.first?.hasSuffix("; left out") == true, "\(lenient)")
        #expect(lenient.stdout.hasSuffix("; 1 left out: see above.\n"), "\(lenient)")
        #expect(todo.ids("status:all") == [1, 2])
      } else {
        #expect(lenient.status == 1, "\(lenient)")
        #expect(todo.ids("status:all") == [1])
      }
    }
    let todo = try TodoSandbox()
    // A file of another format than the one given never crashes either.
    let text = todo.folder.appendingPathComponent("tasks.txt").path
    try "(A) Call Mom +Family\n".write(toFile: text, atomically: true, encoding: .utf8)
    let wrong = todo("import", text, "--format", "taskwarrior")
    #expect(wrong.status == 1 && wrong.stderr.contains("line 1"), "\(wrong)")
  }

  @Test func exportToAFileReplacesItWholeKeepsItsModeAndRefusesAFolder() throws {
    let todo = try populated()
    let out = todo.folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let run = todo("export", "--output", out.path)
    #expect(run.status == 1 && run.stderr.contains("it is a directory"), "\(run)")
    // Over an existing, longer file with mode 0640: replaced whole, mode kept, no temporary left.
    let file = out.appendingPathComponent("tasks.txt").path
    try String(repeating: "old line\n", count: 1000).write(toFile: file, atomically: false, encoding: .utf8)
    chmod(file, 0o640)
    todo("export", "--output", file).expectSuccess()
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!written.contains("old line") && TodoRun.lines(of: written).count == 4)
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o640)
    // A new file is private: the tasks are.
    let fresh = out.appendingPathComponent("new.json").path
    todo("export", "--output", fresh).expectSuccess()
    #expect(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int == 0o600)
    let left = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".tmp") }
    #expect(left.isEmpty)
  }

  @Test func exportOfNothingIsEmptyAndImportWaitsForNoTerminal() throws {
    let todo = try TodoSandbox()
    let json = todo("export", "--format", "json")
    json.expectSuccess()
    #expect(json.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    let none = todo("export", "--format", "todotxt", "+nosuchtag")
    none.expectSuccess()
    #expect(none.stdout.isEmpty)
    // Standard input a terminal (script(1) gives the command one): import does not sit waiting.
    let onTerminal = todo.shell("timeout 10 script -qec \"$TODO import\" /dev/null < /dev/null")
    #expect(onTerminal.status == 2, "\(onTerminal)")
    #expect(onTerminal.stdout.contains("import reads a file, or tasks piped in"), "\(onTerminal)")
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath), "nothing was written")
  }

  @Test func recordsThatBreakTheDatabasesRulesFailWithTheirLine() throws {
    let todo = try TodoSandbox()
    let twoActive = """
      {"uuid":"11111111-1111-4111-8111-111111111111","title":"A","created":"2026-11-21T09:30:00Z","intervals":[{"start":"2026-11-21T09:00:00Z","end":null}]}
      {"uuid":"22222222-2222-4222-8222-222222222222","title":"B","created":"2026-11-21T09:30:00Z","intervals":[{"start":"2026-11-21T09:10:00Z","end":null}]}
      """
    // Two active tasks are two active tasks (Taskwarrior allows any number); one task with two
    // clocks running is not.
    let active = todo("import", "-", "--format", "jsonl", "--strict", stdin: twoActive + "\n")
    #expect(active.status == 0, "\(active)")
    #expect(todo.ids("+ACTIVE") == [1, 2])
    let twoClocks =
      #"{"uuid":"55555555-5555-4555-8555-555555555555","title":"E","created":"2026-11-21T09:30:00Z","intervals":[{"start":"2026-11-21T09:00:00Z","end":null},{"start":"2026-11-21T09:05:00Z","end":null}]}"#
    let clocks = todo("import", "-", "--format", "jsonl", "--strict", stdin: twoClocks + "\n")
    #expect(
      clocks.status == 1
        && clocks.stderr.contains("line 1: task 55555555-5555-4555-8555-555555555555 has more than one time interval that has not ended"), "\(clocks)"
    )
    let backwards =
      #"{"uuid":"33333333-3333-4333-8333-333333333333","title":"C","created":"2026-11-21T09:30:00Z","intervals":[{"start":"2026-11-21T09:00:00Z","end":"2026-11-21T08:00:00Z"}]}"#
    let reversed = todo("import", "-", "--format", "jsonl", "--strict", stdin: backwards + "\n")
    #expect(
      reversed.status == 1
        && reversed.stderr.contains("line 1: task 33333333-3333-4333-8333-333333333333 has a time interval that ends before it starts"), "\(reversed)"
    )
    // A task active in the file while another is active here: both are.
    todo("add", "Running").expectSuccess()
    todo("start", "3").expectSuccess()
    let one =
      #"{"uuid":"44444444-4444-4444-8444-444444444444","title":"D","created":"2026-11-21T09:30:00Z","intervals":[{"start":"2026-11-21T09:00:00Z","end":null}]}"#
    let busy = todo("import", "-", "--format", "jsonl", "--strict", stdin: one + "\n")
    #expect(busy.status == 0, "\(busy)")
    #expect(todo.ids("+ACTIVE") == [1, 2, 3, 4])
  }

  @Test func jsonWithoutExtrasKeepsTheStoredOnes() throws {
    let todo = try TodoSandbox()
    let tw =
      #"[{"uuid":"aaaaaaaa-1111-4111-8111-111111111111","description":"From TW","status":"pending","entry":"20261120T100000Z","modified":"20261120T100000Z","ticket":"ABC-1"}]"#
    todo("import", "-", "--format", "taskwarrior", stdin: tw).expectSuccess()
    // Edited `list --json` output, which has no extras: the ticket stays.
    var object = try todo.task(1)
    object["title"] = "Renamed"
    object["modified"] = "2026-11-22T10:00:00Z"
    let edited = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    todo("import", "-", "--format", "jsonl", stdin: edited + "\n").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Renamed")
    #expect(todo("export", "--format", "taskwarrior").stdout.contains(#""ticket":"ABC-1""#))
  }

  @Test func taskwarriorsSeveralPendingInstancesOfASeriesStayInIt() throws {
    let todo = try TodoSandbox()
    let parent = "bbbbbbbb-1111-4111-8111-111111111111"
    let tasks = """
      [{"uuid":"\(parent)","description":"Review","status":"recurring","recur":"weekly","due":"20261101T000000Z","entry":"20261101T000000Z","mask":"--"},
      {"uuid":"cccccccc-1111-4111-8111-111111111111","description":"Review","status":"pending","parent":"\(parent)","imask":0,"recur":"weekly","due":"20261101T000000Z","entry":"20261101T000000Z"},
      {"uuid":"dddddddd-1111-4111-8111-111111111111","description":"Review","status":"pending","parent":"\(parent)","imask":1,"recur":"weekly","due":"20261108T000000Z","entry":"20261101T000000Z"},
      {"uuid":"eeeeeeee-1111-4111-8111-111111111111","description":"Review","status":"completed","parent":"\(parent)","imask":2,"recur":"weekly","due":"20261115T000000Z","entry":"20261101T000000Z","end":"20261114T000000Z"}]
      """
    let run = todo("import", "-", "--format", "taskwarrior", stdin: tasks)
    run.expectSuccess()
    #expect(run.stderr.isEmpty, "\(run)")
    #expect(todo.ids("+RECURRING") == [1, 2])
    #expect(try (todo.task(1)["recur"] as? [String: Any])?["instance"] as? Int == 1)
    #expect(try (todo.task(2)["recur"] as? [String: Any])?["instance"] as? Int == 2)
    // Closing an older one while another is pending makes nothing; closing the last pending
    // one brings the instance after the latest (number 3, done in Taskwarrior).
    todo("done", "1").expectSuccess()
    #expect(todo.ids("+RECURRING") == [2])
    todo("delete", "2", "--yes").expectSuccess()
    #expect(todo.ids("+RECURRING") == [4])
    #expect(try (todo.task(4)["recur"] as? [String: Any])?["instance"] as? Int == 4)
  }

  // MARK: Taskwarrior

  /// The real `task`, with the UDAs these tests use.
  private func taskwarrior(_ todo: TodoSandbox, _ name: String, _ arguments: String) -> TodoRun {
    todo.taskwarrior(name, arguments, rc: ["uda.estimate.type=numeric", "uda.ticket.type=string"])
  }

  @Test func taskwarriorExportImportsAndGoesBackIntoAFreshTaskwarrior() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try TodoSandbox()
    for command in [
      "add Plain task",
      "add Web thing project:work.web +frontend +urgent priority:H due:2030-01-15",
      "add Waiting task wait:2030-01-01 scheduled:2029-12-01",
      "add Blocked task depends:1",
      "add UDA task estimate:3 ticket:ABC-1",
      "1 annotate First note",
      "add Weekly review recur:weekly due:2030-01-06",
      "add To be done",
      "7 done",
    ] {
      taskwarrior(todo, "tw1", "rc.recurrence.limit=1 " + command).expectSuccess()
    }
    let exported = taskwarrior(todo, "tw1", "export")
    exported.expectSuccess()
    let file = todo.folder.appendingPathComponent("tw.json").path
    try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let imported = todo("import", file)
    imported.expectSuccess()
    #expect(imported.stdout.contains("(taskwarrior)"), "\(imported)")
    let web = try #require(todo.ids("Web").first)
    let webTask = try todo.task(web)
    #expect(webTask["project"] as? String == "work.web")
    #expect(webTask["tags"] as? [String] == ["frontend", "urgent"])
    #expect(webTask["priority"] as? String == "H")
    #expect(webTask["due"] as? String == "2030-01-15")
    let blocked = try todo.task(try #require(todo.ids("Blocked").first))
    #expect((blocked["depends"] as? [String])?.count == 1)
    let plain = try todo.task(try #require(todo.ids("Plain").first))
    #expect((plain["notes"] as? [[String: Any]])?.first?["text"] as? String == "First note")
    #expect(todo.ids("+RECURRING").count == 1)

    // Back out, into a fresh Taskwarrior: every field it had is there, the UDAs included.
    let back = todo.folder.appendingPathComponent("back.json").path
    todo("export", "--format", "taskwarrior", "--output", back).expectSuccess()
    taskwarrior(todo, "tw2", "import \(back)").expectSuccess()
    let original = try taskObjects(exported.stdout)
    let again = try taskObjects(taskwarrior(todo, "tw2", "export").stdout)
    #expect(Set(original.keys) == Set(again.keys))
    for (uuid, task) in original {
      let other = try #require(again[uuid], "task \(uuid) did not come back")
      for key in [
        "description", "status", "project", "tags", "priority", "due", "wait", "scheduled", "entry", "end", "estimate", "ticket",
        "depends", "parent", "imask", "mask", "recur",
      ] {
        // Taskwarrior itself writes a numeric attribute back as 3.000000 once imported.
        if let number = task[key] as? NSNumber, let again = other[key] as? NSNumber {
          #expect(number.doubleValue == again.doubleValue, "\(key) of \(uuid)")
        } else {
          #expect(String(describing: task[key]) == String(describing: other[key]), "\(key) of \(uuid)")
        }
      }
      #expect(
        (task["annotations"] as? [[String: Any]])?.map { $0["description"] as? String }
          == (other["annotations"] as? [[String: Any]])?.map { $0["description"] as? String })
    }
  }

  /// What Taskwarrior has no key for (subtask parents, series, their rule in todo's words) goes
  /// out as todo's own attributes: back into todo whole, and kept by a real Taskwarrior.
  @Test func ourTaskwarriorExportKeepsSubtasksAndSeries() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try TodoSandbox()
    todo("add", "Move house").expectSuccess()
    todo("add", "Pack books", "parent:1").expectSuccess()
    todo("add", "Water plants", "recur:+1w", "due:tomorrow").expectSuccess()
    todo("done", "3").expectSuccess()
    let file = todo.folder.appendingPathComponent("tw.json").path
    todo("export", "--format", "taskwarrior", "--output", file).expectSuccess()

    // Into a fresh todo: every link as it was.
    let other = try TodoSandbox()
    other("import", file).expectSuccess()
    func links(_ sandbox: TodoSandbox) throws -> [String: String] {
      let run = sandbox("list", "status:all", "--json")
      run.expectSuccess()
      let tasks = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
      return Dictionary(
        uniqueKeysWithValues: tasks.map { task in
          let recur = task["recur"] as? [String: Any]
          let link = [task["parent"], recur?["series"], recur?["instance"], recur?["rule"], task["status"]]
            .map { $0.map { "\($0)" } ?? "-" }.joined(separator: " ")
          return (task["uuid"] as? String ?? "", link)
        })
    }
    let before = try links(todo)
    #expect(before.count == 4)
    #expect(before.values.filter { $0.contains("+1w") }.count == 2, "\(before)")
    #expect(try links(other) == before)

    // Through Taskwarrior: it keeps the subtask's link as an attribute of its own.
    taskwarrior(todo, "tw", "import \(file)").expectSuccess()
    let again = try taskObjects(taskwarrior(todo, "tw", "export").stdout)
    let child = try todo.task(2)
    let parent = try todo.task(1)
    #expect(again[child["uuid"] as? String ?? ""]?["todo_parent"] as? String == parent["uuid"] as? String)
    // And back into todo: Taskwarrior turned the pending instance into a template with a child
    // of a new UUID, and wrote the numbers as `2.000000`; the links are the same as before.
    let third = try TodoSandbox()
    let back = todo.folder.appendingPathComponent("back.json").path
    try taskwarrior(todo, "tw", "export").stdout.write(toFile: back, atomically: true, encoding: .utf8)
    third("import", back).expectSuccess()
    #expect(try links(third).values.sorted() == before.values.sorted())
  }

  private func taskObjects(_ text: String) throws -> [String: [String: Any]] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    return Dictionary(uniqueKeysWithValues: array.compactMap { task in (task["uuid"] as? String).map { ($0, task) } })
  }

  // MARK: todo.txt

  @Test func todoTxtFromTheRealToolImportsAndOurExportReadsBackThere() throws {
    let todo = try TodoSandbox()
    let file = todo.folder.appendingPathComponent("todo.txt").path
    try """
    (A) 2026-11-20 Call Mom +Family @phone due:2026-12-01
    (B) 2026-11-20 Write report +Work @office t:2026-11-30
    (D) 2026-11-20 Secret gift idea +Family h:1
    2026-11-20 Water plants @home rec:1w due:2026-11-25
    x 2026-11-22 2026-11-20 File taxes +Home @desk pri:C

    """.write(toFile: file, atomically: true, encoding: .utf8)
    let imported = todo("import", file)
    imported.expectSuccess()
    #expect(imported.lines == ["Imported 5 tasks from \(file) (todotxt): 5 added, 0 updated, 0 unchanged, 0 skipped."])
    let call = try todo.task(1)
    #expect(call["title"] as? String == "Call Mom")
    #expect(call["priority"] as? String == "H")
    #expect(call["project"] as? String == "Family")
    #expect(call["tags"] as? [String] == ["phone"])
    #expect(call["due"] as? String == "2026-12-01")
    #expect(try todo.task(2)["wait"] as? String == "2026-11-30")
    #expect(try todo.task(3)["priority"] is NSNull)
    #expect(try (todo.task(4)["recur"] as? [String: Any])?["rule"] as? String == "+1w")
    #expect(try todo.task(5)["status"] as? String == "done")
    #expect(try todo.task(5)["priority"] as? String == "L")
    // The same file again: nothing new.
    #expect(todo("import", file).lines.first?.contains("0 added, 0 updated, 5 unchanged") == true)
    // Unchanged tasks go back byte for byte; a changed one is written from its fields.
    todo("update", "2", "pri:L").expectSuccess()
    let exported = todo("export", "--format", "todotxt", "status:pending")
    exported.expectSuccess()
    // Every line names its task (uuid:), unless --no-ids.
    #expect(exported.lines.contains { $0.hasPrefix("(A) 2026-11-20 Call Mom +Family @phone due:2026-12-01 uuid:") })
    #expect(exported.lines.contains { $0.hasPrefix("(D) 2026-11-20 Secret gift idea +Family h:1 uuid:") })
    let bare = todo("export", "--format", "todotxt", "status:pending", "--no-ids")
    #expect(bare.lines.contains("(A) 2026-11-20 Call Mom +Family @phone due:2026-12-01") && !bare.stdout.contains("uuid:"), "\(bare)")
    #expect(todo("export", "--no-ids").status == 2)
    #expect(exported.lines.contains { $0.hasPrefix("(C) 2026-11-20 +Work Write report @office t:2026-11-30 uuid:") })

    try #require(TodoSandbox.hasTool("todo-txt"), "make test installs todotxt-cli")
    let folder = todo.folder.appendingPathComponent("txt").path
    try FileManager.default.createDirectory(atPath: folder + "/actions", withIntermediateDirectories: true)
    try exported.stdout.write(toFile: folder + "/todo.txt", atomically: true, encoding: .utf8)
    try
      "export TODO_DIR=\(folder)\nexport TODO_FILE=\(folder)/todo.txt\nexport DONE_FILE=\(folder)/done.txt\nexport REPORT_FILE=\(folder)/report.txt\nexport TODO_ACTIONS_DIR=\(folder)/actions\n"
      .write(toFile: folder + "/config", atomically: true, encoding: .utf8)
    let listed = todo.shell(
      "HOME=\(folder) TODOTXT_VERBOSE=0 TODOTXT_SORT_COMMAND=cat todo-txt -d \(folder)/config -p lsp A",
      environment: [:])
    listed.expectSuccess()
    let listedLines: [String] = listed.lines.map { line in String((line.split(separator: " ", maxSplits: 1).last ?? "").prefix(53)) }
    #expect(listedLines == ["(A) 2026-11-20 Call Mom +Family @phone due:2026-12-01"])
    let projects = todo.shell("HOME=\(folder) TODOTXT_VERBOSE=0 todo-txt -d \(folder)/config -p lsprj", environment: [:])
    #expect(projects.lines == ["+Family", "+Work"])
  }
}
