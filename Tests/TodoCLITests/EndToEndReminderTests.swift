import Foundation
import Testing

/// Reminders end to end: `remind:` on tasks, `todo remind` and its delivery through a command of
/// the user's (a script that appends what it is given), with the clock injected (`TODO_NOW`), and
/// the real clock for `--watch`.
@Suite struct EndToEndReminderTests {
  /// A sandbox whose reminders go to `deliver.sh`, which appends each one (a JSON line) to
  /// `delivered.jsonl`, and fails while a file `fail` is there.
  func reminderSandbox() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    let script = todo.folder.appendingPathComponent("deliver.sh").path
    try "#!/bin/sh\n[ -e \"$HOME/fail\" ] && { echo 'no network' >&2; exit 1; }\ncat >> \"$HOME/delivered.jsonl\"\n"
      .write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o700)
    todo("config", "set", "remind.notify", "command").expectSuccess()
    todo("config", "set", "remind.command", script).expectSuccess()
    return todo
  }

  /// The reminders the script was given, in order.
  func delivered(_ todo: TodoSandbox) throws -> [[String: Any]] {
    let path = todo.folder.appendingPathComponent("delivered.jsonl").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  func check(_ todo: TodoSandbox, at now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> TodoRun {
    let run = todo.run(["remind", "--check"], environment: now.map { ["TODO_NOW": $0] } ?? [:])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    return run
  }

  @Test func remindIsSetShownClearedAndFiltered() throws {
    let todo = try TodoSandbox()
    let added = todo("add", "Call", "due:2026-11-22T18:00", "remind:due-15min,due-1d@09:00", "remind:now+1h", "--json")
    #expect(added.status == 0, "\(added)")
    #expect(try added.jsonObject()["remind"] as? [String] == ["due-15min", "due-1d@09:00", "2026-11-21T10:30:00Z"])
    todo("add", "Plain").expectSuccess()
    let shown = todo("show", "1").lines
    #expect(shown.contains("  Remind     due-15min (2026-11-22 17:45 UTC, in 32h)"), "\(shown)")
    #expect(shown.contains("             due-1d@09:00 (2026-11-21 09:00 UTC, 30min ago)"), "\(shown)")
    #expect(todo.ids("+REMINDER") == [1] && todo.ids("-REMINDER") == [2])
    // A new list replaces the old; one counting from a date the task lacks says it does not ring.
    todo("update", "1", "remind:scheduled-1h").expectSuccess()
    #expect(try todo.task(1)["remind"] as? [String] == ["scheduled-1h"])
    #expect(todo("show", "1").stdout.contains("scheduled-1h (the task has no scheduled date: it does not ring)"))
    todo("update", "1", "remind:").expectSuccess()
    #expect(try todo.task(1)["remind"] as? [String] == [])
    // What is not a reminder is refused, and nothing is added.
    let bad = todo("add", "Dentist", "remind:tomorrow")
    #expect(bad.status == 2 && bad.stderr.contains("'tomorrow' is a whole day; give it a time of day: tomorrow@9:00"), "\(bad)")
    let typo = todo("update", "1", "remind:due-15m")
    #expect(typo.status == 2 && typo.stderr.contains("'15m' is not a duration"), "\(typo)")
    #expect(todo.ids("status:all") == [1, 2])
    // The list of what is to come, and the first of it for a status bar.
    todo("update", "2", "remind:2026-11-21T12:00,2026-11-21T11:00").expectSuccess()
    let list = todo("remind").lines
    #expect(list.count == 3 && list[1].hasPrefix("2026-11-21 11:00 UTC") && list[2].contains("12:00"), "\(list)")
    #expect(todo("remind", "--next").stdout == "2026-11-21 11:00 UTC Plain (task 2)\n")
    #expect(try todo("remind", "--next", "--json").jsonObject()["at"] as? String == "2026-11-21T11:00:00Z")
    #expect(todo("remind", "project:none-such").stdout.hasPrefix("No reminders to come."))
    // Filters on when they ring.
    #expect(todo.ids("remind.before:2026-11-21T11:30") == [2] && todo.ids("remind.before:2026-11-21T11:00") == [])
    #expect(todo.ids("remind.after:2026-11-21T11:30") == [2] && todo.ids("remind.after:today") == [])
    #expect(todo.ids("remind.by:today") == [2] && todo.ids("remind.none:") == [1] && todo.ids("remind:") == [1])
    #expect(todo.ids("remind.any:") == [2])
    let unknown = todo("list", "remind.on:today")
    #expect(unknown.status == 2 && unknown.stderr.contains("reminders are filtered by when they ring"), "\(unknown)")
  }

  @Test func aCheckDeliversEachReminderOnceThroughTheCommand() throws {
    let todo = try reminderSandbox()
    todo("add", "Call", "due:2026-11-21T10:00", "remind:due-15min").expectSuccess()
    todo("add", "Pay", "project:home", "remind:2026-11-21T09:00").expectSuccess()
    todo("add", "Old", "remind:2026-11-19T09:00").expectSuccess()
    let first = check(todo)
    #expect(first.lines == ["Delivered 1 reminder: task 2", "1 reminder older than remind.missed.limit was recorded without being shown"])
    var got = try delivered(todo)
    #expect(got.count == 1)
    #expect(got[0]["id"] as? Int == 2 && got[0]["title"] as? String == "Pay" && got[0]["project"] as? String == "home")
    #expect(got[0]["at"] as? String == "2026-11-21T09:00:00Z" && got[0]["missed"] as? Bool == true)
    #expect((got[0]["summary"] as? String) == "Missed: Pay")
    // Nothing again; the next at its time, on time.
    #expect(check(todo).stdout.isEmpty)
    #expect(try delivered(todo).count == 1)
    check(todo, at: "2026-11-21T09:46:00Z")
    got = try delivered(todo)
    #expect(got.count == 2 && got[1]["id"] as? Int == 1 && got[1]["missed"] as? Bool == false)
    let states = try todo("remind", "--all", "--json").jsonArray().map { "\($0["id"] as? Int ?? 0) \($0["state"] as? String ?? "")" }
    #expect(states == ["3 skipped", "2 late", "1 shown"])
    #expect(todo("remind").stdout.hasPrefix("No reminders to come."))
    // --dry-run says what would be delivered, and records nothing.
    todo("add", "Soon", "remind:2026-11-21T10:00").expectSuccess()
    let dry = todo("remind", "--check", "--dry-run", environment: ["TODO_NOW": "2026-11-21T10:01:00Z"])
    #expect(dry.stdout == "Would deliver 1 reminder: task 4\n", "\(dry)")
    check(todo, at: "2026-11-21T10:01:00Z")
    #expect(try delivered(todo).count == 3)
  }

  @Test func quietHoursHoldRemindersUntilTheyEnd() throws {
    let todo = try reminderSandbox()
    todo("config", "set", "remind.quiet", "22:00-07:00").expectSuccess()
    todo("add", "Night", "remind:2026-11-21T23:00").expectSuccess()
    let held = check(todo, at: "2026-11-21T23:30:00Z")
    #expect(held.stdout == "1 reminder held until 2026-11-22 07:00 UTC (remind.quiet 22:00-07:00)\n", "\(held)")
    #expect(try delivered(todo).isEmpty)
    check(todo, at: "2026-11-22T07:00:30Z")
    let got = try delivered(todo)
    #expect(got.count == 1 && got[0]["missed"] as? Bool == false)
    let bad = todo("remind", "--check", "-c", "remind.quiet=late")
    #expect(bad.status == 2 && bad.stderr.contains("remind.quiet is 'late'"), "\(bad)")
  }

  @Test func twoChecksAtOnceNeverDoubleAReminder() throws {
    let todo = try reminderSandbox()
    var lines: [String] = []
    for index in 1...24 {
      lines.append(
        #"{"uuid":"00000000-0000-4000-8000-0000000000\#(index < 10 ? "0" : "")\#(index)","title":"T\#(index)","status":"pending","created":"2026-11-20T00:00:00Z","remind":["2026-11-21T09:2\#(index % 10):00Z"]}"#
      )
    }
    todo("import", "-", "--format", "jsonl", stdin: lines.joined(separator: "\n")).expectSuccess()
    let runs = (0..<4).map { _ in todo.launch(TodoSandbox.binary!, ["remind", "--check"]) }
    for run in runs {
      let done = run.wait(seconds: 120)
      #expect(done.status == 0, "\(done)")
    }
    let ids = try delivered(todo).map { $0["id"] as? Int ?? 0 }
    #expect(ids.count == 24 && Set(ids).count == 24, "\(ids.sorted())")
  }

  @Test func aDeliveryThatFailsIsTriedAgainAtTheNextCheck() throws {
    let todo = try reminderSandbox()
    todo("add", "Call", "remind:2026-11-21T09:29").expectSuccess()
    FileManager.default.createFile(atPath: todo.folder.appendingPathComponent("fail").path, contents: nil)
    let failed = todo("remind", "--check")
    #expect(failed.status == 1, "\(failed)")
    #expect(failed.stderr.contains("remind.command failed (exit 1): no network"), "\(failed)")
    #expect(failed.stderr.contains("1 reminder will be tried again at the next check"), "\(failed)")
    try FileManager.default.removeItem(at: todo.folder.appendingPathComponent("fail"))
    check(todo)
    #expect(try delivered(todo).map { $0["id"] as? Int } == [1])
  }

  @Test func snoozeRingsAgainAndDismissSilences() throws {
    let todo = try reminderSandbox()
    todo("add", "Call", "remind:2026-11-21T09:29").expectSuccess()
    todo("add", "Other", "remind:2026-11-21T09:00,2026-11-21T12:00").expectSuccess()
    todo("remind", "dismiss", "2").expectSuccess()
    check(todo)
    #expect(try delivered(todo).map { $0["id"] as? Int } == [1])
    let snoozed = todo("remind", "snooze", "1", "20min")
    #expect(snoozed.status == 0, "\(snoozed)")
    #expect(try todo.task(1)["remind"] as? [String] == ["2026-11-21T09:29:00Z", "snooze@2026-11-21T09:50:00Z"])
    #expect(check(todo, at: "2026-11-21T09:49:00Z").stdout.isEmpty)
    check(todo, at: "2026-11-21T09:50:00Z")
    #expect(try delivered(todo).map { $0["id"] as? Int } == [1, 1])
    // A snooze is an undo step; dismiss before the time: the next one will not ring.
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["remind"] as? [String] == ["2026-11-21T09:29:00Z"])
    #expect(todo("remind", "dismiss", "2").stdout == "Dismissed the reminder of task 2 at 2026-11-21 12:00 UTC\n")
    check(todo, at: "2026-11-21T12:01:00Z")
    #expect(try delivered(todo).count == 2)
    let bad = todo("remind", "snooze", "1", "15m")
    #expect(bad.status == 2 && bad.stderr.contains("give a duration"), "\(bad)")
  }

  @Test func watchDeliversWhatAnotherProcessAddsAtOnce() throws {
    let todo = try reminderSandbox()
    todo.environment["TODO_NOW"] = nil
    // A database first, so that the watch has a file to look at from the start.
    todo("add", "Later", "remind:now+1d").expectSuccess()
    let watch = todo.launch(TodoSandbox.binary!, ["remind", "--watch"])
    defer {
      if let process = watch.process, process.isRunning { kill(process.processIdentifier, SIGTERM) }
      _ = watch.wait(seconds: 20)
    }
    var deadline = Date().addingTimeInterval(30)
    while Date() < deadline, (try? String(contentsOfFile: watch.outputPath, encoding: .utf8))?.contains("Watching") != true { usleep(50_000) }
    todo("add", "Ping", "remind:now").expectSuccess()
    deadline = Date().addingTimeInterval(30)
    while Date() < deadline, (try delivered(todo)).isEmpty { usleep(100_000) }
    let got = try delivered(todo)
    #expect(got.map { $0["title"] as? String } == ["Ping"], "\(got)")
    // The watch says so once the delivery is done (just after the command took it).
    var output = ""
    deadline = Date().addingTimeInterval(30)
    repeat {
      output = (try? String(contentsOfFile: watch.outputPath, encoding: .utf8)) ?? ""
      if output.contains("delivered the reminder of task 2") { break }
      usleep(50_000)
    } while Date() < deadline
    #expect(output.contains("delivered the reminder of task 2"), "\(output)")
  }

  @Test func installWritesUnitsSystemdAcceptsAndUninstallLeavesNothing() throws {
    let todo = try TodoSandbox()
    let config = todo.folder.appendingPathComponent("config").path
    todo.environment["XDG_CONFIG_HOME"] = config
    let units = config + "/systemd/user"
    let dry = todo("remind", "--install", "--dry-run")
    #expect(dry.status == 0 && dry.stdout.contains("Would write") && !FileManager.default.fileExists(atPath: units), "\(dry)")
    let installed = todo("remind", "--install")
    #expect(installed.status == 0, "\(installed)")
    #expect(installed.stdout.contains("systemctl --user daemon-reload && systemctl --user enable --now todo-remind.timer"))
    let service = try String(contentsOfFile: units + "/todo-remind.service", encoding: .utf8)
    #expect(service.contains("ExecStart=\(TodoSandbox.binary!.resolvingSymlinksInPath().path) remind --check"), "\(service)")
    #expect(service.contains("Environment=TODO_DB=\(todo.databasePath)"), "\(service)")
    #expect(service.contains("Environment=XDG_CONFIG_HOME=\(config)"), "\(service)")
    let timer = try String(contentsOfFile: units + "/todo-remind.timer", encoding: .utf8)
    #expect(timer.contains("OnCalendar=*-*-* *:*:00") && timer.contains("Persistent=true"))
    if TodoSandbox.hasTool("systemd-analyze") {
      let runtime = todo.folder.appendingPathComponent("run").path
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let verify = todo.shell(
        "systemd-analyze --user verify \"$XDG_CONFIG_HOME/systemd/user/todo-remind.service\" \"$XDG_CONFIG_HOME/systemd/user/todo-remind.timer\" 2>&1",
        environment: ["XDG_RUNTIME_DIR": runtime])
      #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify)")
    }
    // Again: ours are rewritten; a unit of that name todo did not write is left alone.
    todo("remind", "--install").expectSuccess()
    try "[Timer]\nOnCalendar=daily\n".write(toFile: units + "/todo-remind.timer", atomically: true, encoding: .utf8)
    let refused = todo("remind", "--install")
    #expect(refused.status == 1 && refused.stderr.contains("was not written by todo"), "\(refused)")
    #expect(try String(contentsOfFile: units + "/todo-remind.timer", encoding: .utf8) == "[Timer]\nOnCalendar=daily\n")
    try FileManager.default.removeItem(atPath: units + "/todo-remind.timer")
    // Enabled (the link systemctl makes), then removed: nothing is left.
    try FileManager.default.createDirectory(atPath: units + "/timers.target.wants", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: units + "/timers.target.wants/todo-remind.timer", withDestinationPath: units + "/todo-remind.timer")
    let removed = todo("remind", "--uninstall")
    #expect(removed.status == 0 && removed.stdout.contains("Removed \(units)/todo-remind.service"), "\(removed)")
    #expect(!FileManager.default.fileExists(atPath: config + "/systemd"), "\(removed)")
    #expect(todo("remind", "--uninstall").stdout.hasPrefix("Nothing to remove"))
    let cron = todo("remind", "--install", "--cron")
    #expect(cron.stdout.contains("* * * * * TODO_DB=\(todo.databasePath) ") && cron.stdout.contains(" remind --check"), "\(cron)")
    #expect(!FileManager.default.fileExists(atPath: config + "/systemd"))
  }

  @Test func alarmsGoOutAsVALARMsThatPythonReadsAndComeBack() throws {
    try #require(FileManager.default.fileExists(atPath: "/usr/bin/python3"))
    let todo = try TodoSandbox()
    todo("add", "Call", "due:2026-11-22T18:00", "scheduled:2026-11-22T08:00", "remind:due-15min,scheduled-1h,due-1d@09:00,2026-11-21T12:00")
      .expectSuccess()
    let file = todo.folder.appendingPathComponent("out.ics").path
    todo("export", "--format", "ical", "--output", file).expectSuccess()
    let read = todo.shell(
      """
      /usr/bin/python3 -c '
      import icalendar, sys
      cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
      for todo in cal.walk("VTODO"):
          for alarm in todo.subcomponents:
              trigger = alarm["TRIGGER"]
              print(alarm["ACTION"], trigger.params.get("RELATED", "-"), trigger.dt.isoformat() if hasattr(trigger.dt, "isoformat") else trigger.dt, alarm.get("X-TODO-REMIND", "-"))
      ' \(file)
      """)
    #expect(
      read.lines == [
        "DISPLAY END -1 day, 23:45:00 -", "DISPLAY - -1 day, 23:00:00 -", "DISPLAY - 2026-11-21T09:00:00+00:00 due-1d@09:00",
        "DISPLAY - 2026-11-21T12:00:00+00:00 -",
      ], "\(read)")
    // A VALARM another client made (python icalendar here), beside one todo does not model.
    let made = todo.shell(
      """
      /usr/bin/python3 -c '
      import icalendar, datetime
      cal = icalendar.Calendar(); cal.add("prodid", "-//python//test//"); cal.add("version", "2.0")
      todo = icalendar.Todo(); todo.add("uid", "phone-1@example.org"); todo.add("summary", "From the phone")
      todo.add("dtstamp", datetime.datetime(2026, 11, 20, tzinfo=datetime.timezone.utc))
      todo.add("due", datetime.datetime(2026, 11, 23, 17, 0, tzinfo=datetime.timezone.utc))
      alarm = icalendar.Alarm(); alarm.add("action", "DISPLAY"); alarm.add("description", "Phone reminder")
      alarm.add("trigger", datetime.timedelta(minutes=-30), parameters={"RELATED": "END"}); todo.add_component(alarm)
      mail = icalendar.Alarm(); mail.add("action", "EMAIL"); mail.add("summary", "s"); mail.add("description", "d")
      mail.add("attendee", "mailto:me@example.org"); mail.add("trigger", datetime.timedelta(hours=-2)); todo.add_component(mail)
      cal.add_component(todo); print(cal.to_ical().decode())
      '
      """)
    #expect(made.status == 0, "\(made)")
    todo("import", "-", "--format", "ical", stdin: made.stdout).expectSuccess()
    #expect(try todo.task(2)["remind"] as? [String] == ["due-30min"])
    let back = todo("export", "2", "--format", "ical").stdout
    #expect(
      back.contains("DESCRIPTION:Phone reminder\r\nTRIGGER;RELATED=END:-PT30M\r\n")
        || back.contains("TRIGGER;RELATED=END:-PT30M\r\nDESCRIPTION:Phone reminder"), "\(back)")
    #expect(back.contains("ACTION:EMAIL") && back.contains("ATTENDEE:mailto:me@example.org"), "\(back)")
    // Delivered here: the alarm says so (RFC 9074), and an import of that does not ring again.
    todo("config", "set", "remind.notify", "terminal").expectSuccess()
    #expect(check(todo, at: "2026-11-23T16:31:00Z").stdout.contains("Reminder: From the phone"))
    let acknowledged = todo("export", "2", "--format", "ical", environment: ["TODO_NOW": "2026-11-23T16:32:00Z"]).stdout
    #expect(acknowledged.contains("ACKNOWLEDGED:20261123T163100Z"), "\(acknowledged)")
    let other = try TodoSandbox()
    other("import", "-", "--format", "ical", stdin: acknowledged).expectSuccess()
    #expect(other("remind", "--check", "-c", "remind.notify=terminal", environment: ["TODO_NOW": "2026-11-23T16:40:00Z"]).stdout.isEmpty)
    #expect(try other("remind", "--all", "--json").jsonArray().first?["state"] as? String == "acknowledged")
  }

  @Test func alarmsSurviveTodomanMovingTheDueDate() throws {
    try #require(TodoSandbox.hasTool("todoman"), "make test installs todoman")
    let todo = try TodoSandbox()
    todo("add", "Call", "due:2026-11-27T17:00:00Z", "remind:due-15min,due-1d@09:00,2026-11-25T08:00").expectSuccess()
    let root = todo.folder.appendingPathComponent("calendars").path
    todo("export", "--vdir", root + "/tasks").expectSuccess()
    let config = todo.folder.appendingPathComponent("todoman.py").path
    try
      "path = \"\(root)/*\"\ndate_format = \"%Y-%m-%d\"\ntime_format = \"%H:%M\"\ndefault_list = \"tasks\"\ncache_path = \"\(todo.folder.path)/cache.sqlite3\"\ncolor = \"never\"\n"
      .write(toFile: config, atomically: true, encoding: .utf8)
    let listed = todo.shell("todoman -c \(config) --porcelain list", environment: ["TZ": "UTC"])
    let id = try #require((try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])?.first?["id"] as? Int, "\(listed)")
    let edited = todo.shell("todoman -c \(config) edit \(id) --due '2026-11-28 17:00'", environment: ["TZ": "UTC"])
    #expect(edited.status == 0, "\(edited)")
    todo("import", "--vdir", root + "/tasks", "--yes").expectSuccess()
    let task = try todo.task(1)
    #expect(task["due"] as? String == "2026-11-28T17:00:00Z")
    // The reminders moved with the date (the fixed one stays where it was).
    #expect(task["remind"] as? [String] == ["due-15min", "due-1d@09:00", "2026-11-25T08:00:00Z"], "\(task)")
    #expect(
      try todo("remind", "--json").jsonArray().map { $0["at"] as? String } == [
        "2026-11-25T08:00:00Z", "2026-11-27T09:00:00Z", "2026-11-28T16:45:00Z",
      ])
  }

  @Test func remindersTravelAsAnAttributeToTaskwarrior() throws {
    let todo = try TodoSandbox()
    todo("add", "Call", "due:2026-11-22T18:00", "remind:due-15min,2026-11-21T12:00").expectSuccess()
    let exported = todo("export", "--format", "taskwarrior").stdout
    #expect(exported.contains(#""remind":"due-15min,2026-11-21T12:00:00Z""#), "\(exported)")
    let other = try TodoSandbox()
    other("import", "-", "--format", "taskwarrior", stdin: exported).expectSuccess()
    #expect(try other.task(1)["remind"] as? [String] == ["due-15min", "2026-11-21T12:00:00Z"])
  }
}

/// A database the last release (0.3.0, schema 8) made upgrades to schema 9: its tasks take
/// reminders, and its old undo steps still undo.
@Suite struct PreviousVersionSchema8Tests {
  @Test func aDatabaseOfTheLastReleaseUpgradesAndTakesReminders() throws {
    let todo = try TodoSandbox()
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-0.3.0.db")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
    #expect(todo.ids("status:all").count == 8)
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA user_version; PRAGMA integrity_check'").stdout == "9\nok\n")
    #expect(
      todo.shell("sqlite3 \"$TODO_DB\" \"SELECT name FROM sqlite_master WHERE name IN ('reminder_delivery', 'todo_with_reminders') ORDER BY name\"")
        .stdout
        == "reminder_delivery\ntodo_with_reminders\n")
    #expect(try todo.task(1)["remind"] as? [String] == [])
    todo("update", "2", "remind:due-1d@09:00").expectSuccess()
    #expect(try todo.task(2)["remind"] as? [String] == ["due-1d@09:00"])
    todo("undo").expectSuccess()
    // The release's own last step (update 1 pri:H), from a snapshot without reminders.
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["priority"] as? String == "M")
    #expect(try todo.task(2)["remind"] as? [String] == [])
  }
}

/// Reminders through `todo sync` and a real Radicale: the alarm on the server, delivered once
/// however many machines check, and an alarm a phone sets ringing here.
@Suite struct EndToEndReminderSyncTests {
  @Test func aReminderRingsOnceAcrossTwoMachinesAndAPhonesAlarmRingsHere() throws {
    let server = try RadicaleServer()
    try server.makeCollection("tasks")
    let helper = EndToEndReminderTests()
    let a = try helper.reminderSandbox()
    let b = try helper.reminderSandbox()
    for todo in [a, b] {
      let setup = todo("sync", "--setup", server.url("/alice/tasks/"), "--user", "alice", "--password-command", "echo secret")
      #expect(setup.status == 0, "\(setup)")
    }
    func sync(_ todo: TodoSandbox, at now: String) {
      let run = todo.run(["sync"], environment: ["TODO_NOW": now])
      #expect(run.status == 0, "\(run)")
    }
    a("add", "Call", "due:2026-11-21T10:00", "remind:due-15min").expectSuccess()
    sync(a, at: "2026-11-21T09:31:00Z")
    sync(b, at: "2026-11-21T09:32:00Z")
    #expect(try b.task(1)["remind"] as? [String] == ["due-15min"])
    let item = try #require(server.items("tasks").first.map(server.get))
    #expect(item.contains("BEGIN:VALARM") && item.contains("TRIGGER;RELATED=END:-PT15M"), "\(item)")
    // A delivers; the phone renames the task meanwhile; the delivery travels all the same, and B
    // has nothing left to deliver.
    helper.check(a, at: "2026-11-21T09:46:00Z")
    #expect(try helper.delivered(a).count == 1)
    let href = try #require(server.items("tasks").first)
    let renamed = server.get(href).replacingOccurrences(of: "SUMMARY:Call", with: "SUMMARY:Call the dentist")
    server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", renamed, "-o", "/dev/null", server.url(href)])
    sync(a, at: "2026-11-21T09:47:00Z")
    let merged = server.get(href)
    #expect(merged.contains("ACKNOWLEDGED:20261121T094600Z") && merged.contains("SUMMARY:Call the dentist"), "\(merged)")
    sync(b, at: "2026-11-21T09:48:00Z")
    #expect(helper.check(b, at: "2026-11-21T09:49:00Z").stdout.isEmpty)
    #expect(try helper.delivered(b).isEmpty)
    #expect(try b("remind", "--all", "--json").jsonArray().first?["state"] as? String == "acknowledged")
    // An alarm a phone made rings here, once.
    let phone =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-9@example.org",
        "DTSTAMP:20261121T090000Z", "LAST-MODIFIED:20261121T090000Z", "SUMMARY:Set on the phone", "BEGIN:VALARM", "ACTION:DISPLAY",
        "TRIGGER;VALUE=DATE-TIME:20261121T120000Z", "DESCRIPTION:Reminder", "END:VALARM", "END:VTODO", "END:VCALENDAR",
      ].joined(separator: "\r\n") + "\r\n"
    let put = server.curl([
      "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", phone, "-w", "%{http_code}", server.url("/alice/tasks/phone-9.ics"),
    ])
    #expect(put.output.hasPrefix("2"), "\(put)")
    sync(b, at: "2026-11-21T11:00:00Z")
    helper.check(b, at: "2026-11-21T12:00:30Z")
    #expect(try helper.delivered(b).map { $0["title"] as? String } == ["Set on the phone"])
    // Written back to the server as the phone wrote it, with the delivery added.
    sync(b, at: "2026-11-21T12:01:00Z")
    let back = server.get("/alice/tasks/phone-9.ics")
    #expect(back.contains("DESCRIPTION:Reminder") && back.contains("ACKNOWLEDGED:20261121T120030Z"), "\(back)")
    // A reminder at a time of day goes out as the instant it rings at; when the date moves on the
    // other machine, the instant on the server moves with it.
    a("add", "Dentist", "due:2026-11-25T10:00", "remind:due-1d@09:00").expectSuccess()
    sync(a, at: "2026-11-21T12:02:00Z")
    sync(b, at: "2026-11-21T12:03:00Z")
    func id(_ todo: TodoSandbox, titled title: String) throws -> Int {
      try #require(try todo("list", "--json").jsonArray().first { $0["title"] as? String == title }?["id"] as? Int)
    }
    let dentist = try id(b, titled: "Dentist")
    b("update", String(dentist), "due:2026-11-27T10:00", environment: ["TODO_NOW": "2026-11-21T12:04:00Z"]).expectSuccess()
    let pushed = b.run(["sync"], environment: ["TODO_NOW": "2026-11-21T12:05:00Z"])
    #expect(pushed.status == 0 && pushed.stdout.contains("1 sent"), "\(pushed)")
    let moved = try #require(server.items("tasks").map(server.get).first { $0.contains("SUMMARY:Dentist") })
    #expect(
      moved.contains("TRIGGER;VALUE=DATE-TIME:20261126T090000Z") && moved.contains("X-TODO-REMIND;X-TODO-AT=20261126T090000Z:due-1d@09:00"),
      "\(moved)")
    sync(a, at: "2026-11-21T12:06:00Z")
    #expect(try a.task(try id(a, titled: "Dentist"))["remind"] as? [String] == ["due-1d@09:00"])
  }
}
