import Foundation
import Testing

/// The configuration file, `todo config`, `-c`, the environment, contexts and reports, through
/// the real binary. The sandbox's clock is Saturday 2026-11-21 09:30 UTC.
@Suite struct EndToEndConfigTests {
  @discardableResult
  func write(_ text: String, in todo: TodoSandbox) throws -> String {
    let folder = todo.folder.appendingPathComponent(".config/todo")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("config").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func read(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(missing)"
  }

  @Test func aBadLineNamesTheFileLineAndKeyAndNothingRuns() throws {
    let todo = try TodoSandbox()
    todo.add("Keep me")
    let before = todo.snapshot()
    /// The state, read with the configuration file moved aside.
    func snapshot(_ path: String) throws -> String {
      try FileManager.default.moveItem(atPath: path, toPath: path + ".aside")
      defer { try? FileManager.default.moveItem(atPath: path + ".aside", toPath: path) }
      return todo.snapshot()
    }
    let path = try write("# settings\nweek.start = monday\n\n[color]\ntoday = yelow\n", in: todo)
    let run = todo("add", "Not me")
    #expect(run.status == 1)
    #expect(
      run.stderr.hasPrefix("todo: error: the configuration file \(path), line 5 (color.today): 'yelow' is not a style (did you mean 'yellow'?)"))
    #expect(try snapshot(path) == before)
    try write("week.start = monday\nwekk.start = sunday\n", in: todo)
    let unknown = todo("list", "--json")
    #expect(unknown.status == 1)
    let error = try unknown.errorObject()["error"] as? [String: Any]
    #expect(error?["code"] as? String == "configuration")
    #expect(
      (error?["message"] as? String)?.contains("line 2 (wekk.start): 'wekk.start' is not a configuration key (did you mean 'week.start'?)") == true)
    try write("this is not a setting\n", in: todo)
    #expect(todo("undo").stderr.contains("line 1: expected 'key = value'"))
    // Help and the version need no configuration.
    #expect(todo("--version").status == 0 && todo("help", "config").status == 0 && todo("add", "--help").status == 0)
    #expect(try snapshot(path) == before)
  }

  @Test func configSetKeepsCommentsAndOrderAndGetUnsetAndListAgree() throws {
    let todo = try TodoSandbox()
    let path = try write("# mine\nweek.start = sunday   \n\n[color]\n# quiet\noverdue = red\n", in: todo)
    todo("config", "set", "color.today", "bold", "yellow").expectSuccess()
    todo("config", "set", "week.start", "monday").expectSuccess()
    todo("config", "set", "report.short.columns", "id,title").expectSuccess()
    #expect(
      read(path) == "# mine\nweek.start = monday\n\n[color]\n# quiet\noverdue = red\ntoday = bold yellow\n\n[report.short]\ncolumns = id,title\n")
    #expect(todo("config", "get", "color.today").stdout == "bold yellow\n")
    #expect(todo("config", "get", "date.format").stdout == "%Y-%m-%d\n")
    let listed = try todo("config", "--json").jsonArray()
    let today = listed.first { $0["key"] as? String == "color.today" }
    #expect(today?["origin"] as? String == "file" && today?["line"] as? Int == 7 && today?["default"] as? String == "yellow")
    #expect(listed.first { $0["key"] as? String == "report.short.columns" }?["value"] as? String == "id,title")
    let human = todo("config").lines
    #expect(human.contains { $0.hasPrefix("color.today") && $0.hasSuffix("file:7") })
    #expect(human.contains { $0.hasPrefix("week.start") && $0.contains("monday") && $0.hasSuffix("file:2") })
    // A bad value or key changes nothing.
    let bad = todo("config", "set", "week.start", "someday")
    #expect(bad.status == 2 && bad.stderr.contains("expected one of monday, sunday"))
    #expect(todo("config", "set", "colour.today", "red").stderr.contains("did you mean 'color.today'?"))
    todo("config", "unset", "color.today").expectSuccess()
    #expect(todo("config", "unset", "color.today").stdout == "color.today was not set in the file\n")
    #expect(read(path) == "# mine\nweek.start = monday\n\n[color]\n# quiet\noverdue = red\n\n[report.short]\ncolumns = id,title\n")
    #expect(todo("--dry-run", "config", "set", "hooks", "off").status == 0)
    #expect(!read(path).contains("hooks"))
  }

  @Test func commandLineBeatsEnvironmentBeatsFile() throws {
    let todo = try TodoSandbox()
    todo.add("Low", "project:a")
    todo.add("Due soon", "due:tomorrow")
    todo.add("Third")
    try write("[report.next]\nlimit = 3\n[urgency]\nproject = 100\n", in: todo)
    #expect(todo("next", "--json").stdout.contains("Low"))
    #expect(try todo("next", "--json").jsonArray().map { $0["id"] as? Int } == [1, 2, 3])
    let environment = ["TODO_URGENCY_PROJECT": "0"]
    #expect(try todo("next", "--json", environment: environment).jsonArray().map { $0["id"] as? Int } == [2, 1, 3])
    let both = todo("-c", "urgency.project=50", "-c", "report.next.limit=1", "next", "--json", environment: environment)
    #expect(try both.jsonArray().map { $0["id"] as? Int } == [1])
    let origin = try todo("config", "get", "urgency.project", "--json", environment: environment).jsonObject()
    #expect(origin["origin"] as? String == "environment" && origin["variable"] as? String == "TODO_URGENCY_PROJECT")
    #expect(try todo("-c", "urgency.project=1", "config", "get", "urgency.project", "--json").jsonObject()["origin"] as? String == "command line")
    let badOverride = todo("--config", "urgency.project", "list")
    #expect(badOverride.status == 2 && badOverride.stderr.contains("write it key=value"))
    let badEnvironment = todo("list", environment: ["TODO_WEEK_START": "friday"])
    #expect(badEnvironment.status == 1 && badEnvironment.stderr.contains("TODO_WEEK_START (week.start)"))
    // Another file: TODO_CONFIG.
    let other = todo.folder.appendingPathComponent("other.conf").path
    try "default.command = next\n".write(toFile: other, atomically: true, encoding: .utf8)
    #expect(todo(environment: ["TODO_CONFIG": other]).lines.first?.hasPrefix("ID  Urg") == true)
    #expect(todo().lines.first?.hasPrefix("ID  Urg") == false)
  }

  @Test func theWeekStartsOnTheConfiguredDay() throws {
    let todo = try TodoSandbox()
    // Saturday 2026-11-21: the week began on Monday the 16th, or on Sunday the 15th.
    #expect(try todo("date", "sow", "--json").jsonObject()["day"] as? String == "2026-11-16")
    #expect(try todo("-c", "week.start=sunday", "date", "sow", "--json").jsonObject()["day"] as? String == "2026-11-15")
    #expect(try todo("date", "eow", "--json", environment: ["TODO_WEEK_START": "sunday"]).jsonObject()["day"] as? String == "2026-11-21")
    todo.add("Sunday task", "due:2026-11-15")
    todo.add("Monday task", "due:2026-11-16")
    #expect(todo.ids("+WEEK") == [2])
    #expect(try todo("-c", "week.start=sunday", "list", "+WEEK", "--json").jsonArray().map { $0["id"] as? Int } == [1, 2])
  }

  @Test func datesShowInTheConfiguredFormat() throws {
    let todo = try TodoSandbox()
    todo.add("Ship", "due:2026-11-27")
    let run = todo("-c", "date.format=%a %e %b %Y", "show", "1")
    #expect(run.lines.contains("  Due        Fri 27 Nov 2026 (fri, all day)"))
    #expect(todo("-c", "date.format=%d/%m/%Y", "update", "1", "+x").stdout == "Updated task 1: Ship  +x due:27/11/2026\n")
    // JSON keeps ISO 8601.
    #expect(try todo("-c", "date.format=%d/%m/%Y", "show", "1", "--json").jsonObject()["due"] as? String == "2026-11-27")
  }

  @Test func aContextFiltersListsAndReportsAndGivesNewTasksItsTagsAndProject() throws {
    let todo = try TodoSandbox()
    todo.add("Write report", "+work", "project:acme")
    todo.add("Buy milk", "+home")
    todo.add("Call Bob", "+work")
    #expect(todo("context", "define", "work", "+work", "project:acme").stdout == "Defined context work: +work project:acme\n")
    let refused = todo("context", "play")
    #expect(refused.status == 2 && refused.stderr.contains("there is no context 'play'"))
    #expect(todo("context", "work").stdout == "Context work is active: +work project:acme\n")
    #expect(todo("context").stdout == "Context work: +work project:acme\n")
    #expect(todo.ids() == [1])
    #expect(try todo("next", "--json").jsonArray().map { $0["id"] as? Int } == [1])
    #expect(todo.ids("status:all") == [1])
    // Tasks named by id, and changes, are not limited by the context.
    #expect(try todo.task(2)["title"] as? String == "Buy milk")
    #expect(todo("add", "Plan Q4").stdout == "Added task 4: Plan Q4  +work project:acme\n")
    #expect(todo("add", "Lunch", "project:food").stdout == "Added task 5: Lunch  +work project:food\n")
    #expect(todo("-c", "context=", "add", "Nap").stdout == "Added task 6: Nap\n")
    let listed = try todo("context", "list", "--json").jsonArray()
    #expect(listed.count == 1 && listed[0]["active"] as? Bool == true)
    #expect(todo("context", "none").stdout == "No context is active.\n")
    #expect(todo.ids() == [1, 2, 3, 4, 5, 6])
    todo("context", "work").expectSuccess()
    #expect(todo("context", "delete", "work").stdout == "Deleted context work; no context is active now\n")
    #expect(todo.ids().count == 6)
    #expect(todo("context", "define", "none", "+x").status == 2)
    // A context with `or` binds as one term.
    todo("context", "define", "either", "+home", "or", "project:food").expectSuccess()
    todo("context", "either").expectSuccess()
    #expect(todo.ids("--sort", "id") == [2, 5])
    #expect(todo.ids("Milk") == [2])
    #expect(todo.ids("Lunch") == [5])
  }

  @Test func aCustomReportShowsItsColumnsInItsOrder() throws {
    let todo = try TodoSandbox()
    todo.add("Write report", "+work", "project:acme", "pri:H", "due:2026-11-24")
    todo.add("Buy milk", "+home")
    todo.add("Call Bob", "+work", "project:acme", "due:2026-11-22")
    todo("note", "3", "about the invoice").expectSuccess()
    try write(
      """
      [report.acme]
      description = the acme project
      columns = id, due, title, notes, tags
      labels = #, When, What, N, Tags
      sort = -due
      filter = project:acme
      limit = 5
      """, in: todo)
    let run = todo("acme")
    #expect(
      run.lines == [
        "#  When      What          N  Tags",
        "1  tue       Write report     work",
        "3  tomorrow  Call Bob      1  work",
      ])
    #expect(todo("acme", "pri:H").lines.count == 2)
    #expect(try todo("acme", "--json").jsonArray().map { $0["id"] as? Int } == [1, 3])
    #expect(try todo("acme", "--limit", "1", "--json").jsonArray().count == 1)
    // The built-in reports are defined the same way.
    #expect(todo("-c", "report.list.columns=id,title", "list").lines == ["ID  Title", " 3  Call Bob", " 1  Write report", " 2  Buy milk"])
    #expect(todo("-c", "report.next.filter=+home", "next").lines.count == 2)
    // A report's labels must match its columns.
    let mismatch = todo("-c", "report.acme.labels=a,b", "acme")
    #expect(mismatch.status == 2 && mismatch.stderr.contains("2 labels for 5 columns"))
  }
}

/// What a review of the configuration found, kept found.
@Suite struct EndToEndConfigEdgeTests {
  let helper = EndToEndConfigTests()

  @Test func typedOrCannotEscapeTheContextOrTheReport() throws {
    let todo = try TodoSandbox()
    todo.add("Work", "+work")
    todo.add("Home", "+home")
    todo.add("Blocked home", "+home")
    todo.add("Later", "wait:2026-12-24")
    todo("update", "3", "depends:1").expectSuccess()
    #expect(try todo("next", "+x", "or", "+home", "--json").jsonArray().map { $0["id"] as? Int } == [2])
    #expect(try todo("waiting", "+x", "or", "+home", "--json").jsonArray().isEmpty)
    todo("context", "define", "work", "+work").expectSuccess()
    todo("context", "work").expectSuccess()
    #expect(todo.ids("+x", "or", "+home") == [])
    #expect(todo.ids("+home", "or", "+work") == [1])
    // Ids in a configured filter are refused (ids change meaning as tasks come and go).
    let ids = todo("context", "define", "some", "1,2")
    #expect(ids.status == 2 && ids.stderr.contains("cannot name tasks by id"))
  }

  @Test func aFileWithCRLFOrAByteOrderMarkReads() throws {
    let todo = try TodoSandbox()
    try helper.write("\u{FEFF}# mine\r\nweek.start = sunday\r\n[color]\r\ntoday = red\r\n", in: todo)
    #expect(todo("config", "get", "week.start").stdout == "sunday\n")
    #expect(todo("config", "get", "color.today").stdout == "red\n")
  }

  @Test func aConfigurationThatDoesNotReadCanBeRepairedWithTodo() throws {
    let todo = try TodoSandbox()
    let path = try helper.write("context = gone\n", in: todo)
    #expect(todo("list").status == 1)
    todo("context", "none").expectSuccess()
    #expect(helper.read(path) == "")
    #expect(todo("list").status == 0)
  }

  @Test func aChangeMustReadWithoutThisRunsOverrides() throws {
    let todo = try TodoSandbox()
    let path = try helper.write("# mine\n", in: todo)
    let run = todo("-c", "context.tmp=+x", "context", "tmp")
    #expect(run.status == 2 && run.stderr.contains("there is no context 'tmp' in the configuration file"))
    let set = todo("-c", "context.tmp=+x", "config", "set", "context", "tmp")
    #expect(set.status == 2 && set.stderr.contains("would not read after that change"))
    #expect(helper.read(path) == "# mine\n")
  }

  @Test func quotedWordsStayOneWordAndReportsWithOnlyLabelsWork() throws {
    let todo = try TodoSandbox()
    todo.add("beta one")
    todo.add("one beta two")
    todo("config", "set", "context.phrase", "beta one").expectSuccess()
    #expect(todo("config", "get", "context.phrase").stdout == "'beta one'\n")
    #expect(try todo("list", "--json", "--", "beta one").jsonArray().map { $0["id"] as? Int } == [1])
    #expect(try todo("-c", "context=phrase", "list", "--json").jsonArray().map { $0["id"] as? Int } == [1])
    let labels = todo("-c", "report.x.labels=N,S,P,D,Pr,T,What", "x")
    labels.expectSuccess()
    #expect(labels.lines.first?.hasSuffix("What") == true)
    // `-c` not followed by key=value is the tag c removed.
    todo("update", "1", "+c").expectSuccess()
    todo("update", "1", "-c").expectSuccess()
    #expect(try todo.task(1)["tags"] as? [String] == [])
    // The default command only shows.
    let bad = todo("-c", "default.command=done 1")
    #expect(bad.status == 2 && bad.stderr.contains("the default command only shows them"))
  }

  @Test func theShellReadsTheConfigurationAtEachCommandUnderItsOverrides() throws {
    let todo = try TodoSandbox()
    let script = "date sow --jsonl\nconfig set week.start sunday\ndate sow --jsonl\n"
    let run = todo("shell", stdin: script)
    run.expectSuccess()
    let days = run.lines.compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["day"] as? String
    }
    #expect(days == ["2026-11-16", "2026-11-15"])
    // `-c` before `shell` holds for every command in it.
    let pinned = todo("-c", "week.start=monday", "shell", stdin: "date sow --jsonl\n")
    #expect(pinned.stdout.contains("2026-11-16"))
  }
}
