import Foundation
import Testing

/// Every date from every source is checked against what a task may hold (1970-01-01 to
/// 9999-12-31T23:59:59Z) before any arithmetic: epoch seconds past Int64's reach neither crash an
/// import or a hook nor make a recurrence loop with the write lock held, and a series ends at
/// 9999-12-31 instead of storing a year-10000 date no importer would take back.
@Suite struct EndToEndDateRangeTests {
  private func write(_ text: String, to name: String, in todo: TodoSandbox) throws -> String {
    let path = todo.folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private static let uuid = "11111111-1111-4111-8111-111111111111"

  @Test(arguments: [
    ("due", "\"9223372036854775807\"", "'9223372036854775807'"),
    ("wait", "\"-9223372036854775807\"", "'-9223372036854775807'"),
    ("entry", "\"-9223372036854775807\"", "'-9223372036854775807'"),
    ("due", "-9223372036854775807", "-9223372036854775807"),
    ("until", "\"100000101T000000Z\"", "'100000101T000000Z'"),
    ("scheduled", "\"10000-01-01T00:00:00Z\"", "'10000-01-01T00:00:00Z'"),
    ("due", "\"9999-12-31T23:00:00-05:00\"", "'9999-12-31T23:00:00-05:00'"),
  ])
  func aTaskwarriorDateOutOfRangeIsRefusedWithItsLineAndField(field: String, value: String, shown: String) throws {
    let todo = try TodoSandbox()
    todo.add("Kept")
    let before = todo.snapshot()
    // The field under test, with an entry and a due date (which a recurrence needs) unless it is one of them.
    var fields = ["\"\(field)\":\(value)"]
    if field != "entry" { fields.append("\"entry\":\"20260101T000000Z\"") }
    if field != "due" { fields.append("\"due\":\"20261201T000000Z\"") }
    let path = try write(
      """
      [
      {"uuid":"22222222-2222-4222-8222-222222222222","description":"fine","status":"pending","entry":"20260101T000000Z"},
      {"uuid":"\(Self.uuid)","description":"huge","status":"pending","recur":"weekly",\(fields.joined(separator: ","))}
      ]
      """,
      to: "tw.json", in: todo)
    let run = todo("import", path, "--format", "taskwarrior", "--strict")
    #expect(run.status == 1, "\(run)")
    let time = value.hasPrefix("\"") ? " (20261127T170000Z)" : ""
    #expect(
      run.errorLines == [
        "todo: error: cannot import \(path) as taskwarrior: line 3: \"\(field)\" is not a time\(time) in the years 1970 to 9999: "
          + "\(shown); nothing was imported"
      ], "\(run)")
    #expect(todo.snapshot() == before)
    // Without --strict, that record is left out and the other imported.
    let lenient = todo("import", path, "--format", "taskwarrior")
    #expect(lenient.status == 0 && lenient.errorLines.first?.hasSuffix("; left out") == true, "\(lenient)")
    #expect(todo("list", "--json").stdout.contains("\"fine\""))
  }

  @Test func ourOwnJSONAndICalendarRefuseAYearPast9999() throws {
    let todo = try TodoSandbox()
    let json = try write(
      #"[{"uuid":"\#(Self.uuid)","title":"t","status":"pending","created":"2026-01-01T00:00:00Z","due":"9999-12-31T23:30:00-01:00"}]"#,
      to: "t.json", in: todo)
    let fromJSON = todo("import", json)
    #expect(fromJSON.status == 1, "\(fromJSON)")
    #expect(fromJSON.stderr.contains("\"due\" is neither a day (2026-11-27) nor an RFC 3339 time: '9999-12-31T23:30:00-01:00'"), "\(fromJSON)")
    let ics = try write(
      """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:test\r
      BEGIN:VTODO\r
      UID:x\r
      SUMMARY:t\r
      DUE;TZID=America/New_York:99991231T230000\r
      END:VTODO\r
      END:VCALENDAR\r

      """, to: "t.ics", in: todo)
    // A time that does not read costs that property, not the to-do: its line is kept as it came
    // (never a date), with a warning; all or nothing (--strict) refuses the file.
    let strict = todo("import", ics, "--strict")
    #expect(strict.status == 1, "\(strict)")
    #expect(strict.stderr.contains("DUE is not a date or time (20261127, 20261127T170000Z): '99991231T230000'"), "\(strict)")
    #expect(todo("list", "--json").stdout == "[]\n")
    let fromICS = todo("import", ics)
    #expect(fromICS.status == 0, "\(fromICS)")
    #expect(
      fromICS.stderr.contains("line 7: DUE is not a date or time (20261127, 20261127T170000Z): '99991231T230000'; the line is kept as it is"),
      "\(fromICS)")
    #expect(isJSONNull(try todo.task(1)["due"]))
    #expect(todo("export", "--format", "ical").stdout.contains("DUE;TZID=America/New_York:99991231T230000\r\n"))
  }

  @Test func aHookAnswerWithADateOutOfRangeIsRefusedNotACrash() throws {
    let todo = try TodoSandbox()
    let folder = todo.folder.appendingPathComponent(".config/todo/hooks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let hook = folder.appendingPathComponent("on-add-far").path
    try """
    #!/usr/bin/env python3
    import json, sys
    task = json.loads(sys.stdin.readline())
    task["wait"] = "-9223372036854775807"
    print(json.dumps(task))
    """.write(toFile: hook, atomically: true, encoding: .utf8)
    chmod(hook, 0o700)
    let run = todo("add", "hooked")
    #expect(run.status == 1, "\(run)")
    #expect(run.stderr.contains("\"wait\" is not a time (20261127T170000Z) in the years 1970 to 9999: '-9223372036854775807'"), "\(run)")
    #expect(todo("--no-hooks", "list", "--json").stdout == "[]\n")
  }

  /// 9999-12-31T23:00 at UTC-5 is already the year 10000 in UTC: the date reader refuses it where
  /// that is the local year too, and the store's check where the local day is still in 9999.
  @Test(arguments: [
    ("UTC", "todo: error: cannot read the date '9999-12-31T23:00:00-05:00': out of range: dates must be in the years 1970 to 9999"),
    ("America/New_York", "todo: error: due 10000-01-01T04:00:00Z is out of range: dates must be in the years 1970 to 9999"),
  ])
  func aDateGivenWithAWesternOffsetPast9999IsRefused(zone: String, message: String) throws {
    let todo = try TodoSandbox()
    let run = todo.run(["add", "w", "due:9999-12-31T23:00:00-05:00"], environment: ["TZ": zone])
    #expect(run.status == 2, "\(run)")
    #expect(run.errorLines.first == message, "\(run)")
    #expect(todo("list", "--json").stdout == "[]\n")
  }

  @Test(arguments: ["due:9999-12-31", "due:9999-12-31T12:00"])
  func aSeriesEndsAtTheLastDayAndItsExportImportsAgain(due: String) throws {
    let todo = try TodoSandbox()
    todo("add", "Last", due, "recur:daily")
    let done = todo("done", "1")
    #expect(done.status == 0, "\(done)")
    #expect(todo("list", "--json").stdout == "[]\n", "no instance past 9999")
    let shown = try todo.task(1)
    let notes = (shown["notes"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
    #expect(notes == ["The series ended: its next date would be after 9999-12-31, the last day a task can hold."])
    #expect((shown["recur"] as? [String: Any])?["ended"] is String, "\(shown)")
    for format in ["json", "taskwarrior", "ical", "todotxt"] {
      let exported = todo.folder.appendingPathComponent("out-\(format)").path
      #expect(todo("export", "--format", format, "--output", exported).status == 0)
      let again = todo("--db", todo.folder.appendingPathComponent("\(format).db").path, "import", exported, "--format", format)
      #expect(again.status == 0, "\(format): \(again)")
    }
    // Undo gives the instance back, pending, without the note, and the series goes on.
    #expect(todo("undo").status == 0)
    #expect(todo.ids("status:pending") == [1])
    let undone = try todo.task(1)
    #expect((undone["notes"] as? [Any])?.isEmpty == true, "\(undone)")
    #expect(isJSONNull((undone["recur"] as? [String: Any])?["ended"]), "\(undone)")
  }

  /// A date counted from the due date (`wait:due+4h`) is checked once it is worked out: the
  /// western zone's 9999-12-31T18:00 plus 4 hours is the year 10000 in UTC.
  @Test func aDateCountedFromTheDueDateIsCheckedToo() throws {
    let todo = try TodoSandbox()
    let run = todo.run(["add", "x", "due:9999-12-31T18:00", "wait:due+4h"], environment: ["TZ": "America/New_York"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.errorLines.first
        == "todo: error: 'due+4h' for the new task is 10000-01-01T03:00:00Z, out of range: dates must be in the years 1970 to 9999",
      "\(run)")
    #expect(todo("list", "--json").stdout == "[]\n")
  }

  @Test func aDatabaseWrittenBeforeTheChecksNeitherHangsNorCrashes() throws {
    let todo = try TodoSandbox()
    todo("add", "Weekly", "due:2026-12-01", "recur:weekly")
    todo("add", "Old", "due:2026-12-01")
    let planted = todo.shell(
      "sqlite3 \"$TODO_DB\" 'UPDATE todo SET due = 9223372036854775807, due_day = NULL WHERE id = 1; "
        + "UPDATE todo SET created = -9223372036854775807 WHERE id = 2;'")
    try #require(planted.status == 0, "\(planted)")
    for arguments in [["next"], ["list"], ["show", "1"], ["done", "1"], ["why", "2"]] {
      let run = todo.run(arguments)
      #expect(run.status == 0 || run.status == 1, "\(arguments): \(run)")
    }
    // The series with its impossible date ended instead of looping.
    #expect(todo.ids("status:pending") == [2])
  }
}
