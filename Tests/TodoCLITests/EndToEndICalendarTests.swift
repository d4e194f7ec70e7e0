import Foundation
import Testing

/// iCalendar export and import through the real binary: one `.ics`, a vdir, and the real todoman
/// and Python's `icalendar` (installed by `make test`'s dependencies).
@Suite struct EndToEndICalendarTests {
  /// Every kind of field: priority, project, tags, all-day and timed dates, wait and until, notes,
  /// a subtask with a dependency and a running clock, a weekly series with a done instance, a
  /// deleted task, and a title that needs escaping and folding.
  private func populated() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    todo("add", "Buy milk, eggs; bread", "+shop", "project:home.kitchen", "due:fri", "pri:H", "wait:thu", "until:2027-01-01")
      .expectSuccess()
    todo("add", "Water plants", "due:tomorrow", "scheduled:today", "recur:weekly").expectSuccess()
    todo("note", "1", "semi-skimmed\nor oat").expectSuccess()
    todo("note", "1", "second note").expectSuccess()
    todo("add", "Child", "parent:1", "depends:2", "due:2026-12-01T17:00:00Z", "+Ünïcödé").expectSuccess()
    todo("start", "3").expectSuccess()
    todo("done", "2").expectSuccess()
    todo("add", String(repeating: "Grüße aus 日本 ", count: 8), "pri:L").expectSuccess()
    todo("add", "Gone", "+x").expectSuccess()
    todo("delete", "6", "--yes").expectSuccess()
    return todo
  }

  /// The task objects of a JSON Lines export without the ids this database gave them.
  private func withoutIDs(_ jsonl: String) throws -> [String] {
    try TodoRun.lines(of: jsonl).map { line in
      var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for key in ["id", "parent_id", "depends_ids", "extras"] { object.removeValue(forKey: key) }
      return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
  }

  @Test func icsExportThenImportIntoAnEmptyDatabaseReproducesEveryField() throws {
    let todo = try populated()
    let file = todo.folder.appendingPathComponent("all.ics").path
    todo("export", "--output", file).expectSuccess()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(bytes.starts(with: Array("BEGIN:VCALENDAR\r\n".utf8)))
    let other = try TodoSandbox()
    let imported = other("import", file)
    imported.expectSuccess()
    #expect(imported.lines == ["Imported 6 tasks from \(file) (ical): 6 added, 0 updated, 0 unchanged, 0 skipped."])
    #expect(try withoutIDs(other("export", "--format", "jsonl").stdout) == (try withoutIDs(todo("export", "--format", "jsonl").stdout)))
    // Written again, the same bytes; imported again, nothing changes and no undo step is left.
    other("export", "--output", file + ".again.ics").expectSuccess()
    let again = try Data(contentsOf: URL(fileURLWithPath: file + ".again.ics"))
    #expect(again == bytes, "\(String(decoding: again, as: UTF8.self))\n----\n\(String(decoding: bytes, as: UTF8.self))")
    #expect(other("import", file).lines.first?.contains("0 added, 0 updated, 6 unchanged, 0 skipped") == true)
    other("undo").expectSuccess()
    #expect(other("list", "status:all", "--json").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    // From standard input, found by its content.
    let piped = try TodoSandbox()
    piped("import", "-", stdin: String(decoding: bytes, as: UTF8.self)).expectSuccess()
    #expect(try piped.task(1)["title"] as? String == "Buy milk, eggs; bread")
  }

  @Test func timesInAZoneAndFloatingTimesRead() throws {
    let todo = try TodoSandbox()
    let calendar = """
      BEGIN:VCALENDAR\r
      BEGIN:VTODO\r
      UID:berlin\r
      SUMMARY:Berlin summer\r
      DUE;TZID=Europe/Berlin:20260701T170000\r
      END:VTODO\r
      BEGIN:VTODO\r
      UID:mozilla\r
      SUMMARY:Berlin winter\r
      DUE;TZID=/mozilla.org/20070129_1/Europe/Berlin:20261201T170000\r
      END:VTODO\r
      BEGIN:VTODO\r
      UID:deep\r
      SUMMARY:Buenos Aires\r
      DUE;TZID=/freeassociation.sourceforge.net/America/Argentina/Buenos_Aires:20261201T170000\r
      END:VTODO\r
      BEGIN:VTODO\r
      UID:floating\r
      SUMMARY:Floating\r
      DUE:20261201T170000\r
      END:VTODO\r
      END:VCALENDAR\r

      """
    todo("import", "-", stdin: calendar, environment: ["TZ": "America/New_York"]).expectSuccess()
    #expect(try todo.task(1)["due"] as? String == "2026-07-01T15:00:00Z")
    #expect(try todo.task(2)["due"] as? String == "2026-12-01T16:00:00Z")
    #expect(try todo.task(3)["due"] as? String == "2026-12-01T20:00:00Z")
    // Floating: the local time here (New York, EST).
    #expect(try todo.task(4)["due"] as? String == "2026-12-01T22:00:00Z")
  }

  /// A zone no database knows, defined by the calendar's own VTIMEZONE: Outlook's display names
  /// (yearly rules from 1601), a southern-hemisphere zone (summer across the new year), a US-style
  /// second-Sunday rule on both sides of its change, and a fixed offset without rules. (Each was
  /// refused, and with it the whole file.)
  @Test func zonesTheCalendarDefinesItselfRead() throws {
    let todo = try TodoSandbox()
    func zone(_ id: String, standard: (String, String, String, String?), daylight: (String, String, String, String?)?) -> String {
      func part(_ name: String, _ values: (String, String, String, String?)) -> String {
        "BEGIN:\(name)\r\nDTSTART:\(values.0)\r\nTZOFFSETFROM:\(values.1)\r\nTZOFFSETTO:\(values.2)\r\n"
          + (values.3.map { "RRULE:\($0)\r\n" } ?? "") + "END:\(name)\r\n"
      }
      return "BEGIN:VTIMEZONE\r\nTZID:\(id)\r\n" + part("STANDARD", standard) + (daylight.map { part("DAYLIGHT", $0) } ?? "")
        + "END:VTIMEZONE\r\n"
    }
    func item(_ uid: String, _ zone: String, _ time: String) -> String {
      "BEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\nDUE;TZID=\"\(zone)\":\(time)\r\nEND:VTODO\r\n"
    }
    let outlook = "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna"
    let calendar =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
      + zone(
        outlook, standard: ("16010101T030000", "+0200", "+0100", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"),
        daylight: ("16010101T020000", "+0100", "+0200", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"))
      + zone(
        "Custom Sydney", standard: ("20080406T030000", "+1100", "+1000", "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"),
        daylight: ("20081005T020000", "+1000", "+1100", "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU"))
      + zone(
        "Custom Eastern", standard: ("20071104T020000", "-0400", "-0500", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
        daylight: ("20070311T020000", "-0500", "-0400", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
      + zone("Custom India", standard: ("19700101T000000", "+0530", "+0530", nil), daylight: nil)
      + item("summer", outlook, "20260701T170000") + item("winter", outlook, "20261201T170000")
      + item("southern-winter", "Custom Sydney", "20260701T170000") + item("southern-summer", "Custom Sydney", "20261201T170000")
      + item("before-change", "Custom Eastern", "20260308T013000") + item("after-change", "Custom Eastern", "20260308T033000")
      + item("fixed", "Custom India", "20261201T170000")
      // The days before the last Sundays of March (29th) and October (25th) 2026.
      + item("eve-of-summer", outlook, "20260328T120000") + item("eve-of-winter", outlook, "20261024T120000")
      // The hour the clocks go back happens twice: its first occurrence (summer time).
      + item("twice", outlook, "20261025T023000")
      // A zone that kept summer time until a rule ended (UNTIL, in UTC) in 2014, then standard
      // time only, from an onset twelve years back.
      + "BEGIN:VTIMEZONE\r\nTZID:Custom Ended\r\n"
      + "BEGIN:DAYLIGHT\r\nDTSTART:19960331T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
      + "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20140330T010000Z\r\nEND:DAYLIGHT\r\n"
      + "BEGIN:STANDARD\r\nDTSTART:19961027T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
      + "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20131027T010000Z\r\nEND:STANDARD\r\n"
      + "BEGIN:STANDARD\r\nDTSTART:20141026T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
      + "END:VTIMEZONE\r\n"
      + item("last-summer", "Custom Ended", "20140601T120000") + item("years-later", "Custom Ended", "20260601T120000")
      + "END:VCALENDAR\r\n"
    todo("import", "-", stdin: calendar, environment: ["TZ": "UTC"]).expectSuccess()
    let expected = [
      "2026-07-01T15:00:00Z", "2026-12-01T16:00:00Z", "2026-07-01T07:00:00Z", "2026-12-01T06:00:00Z",
      "2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z", "2026-12-01T11:30:00Z", "2026-03-28T11:00:00Z", "2026-10-24T10:00:00Z",
      "2026-10-25T00:30:00Z", "2014-06-01T10:00:00Z", "2026-06-01T11:00:00Z",
    ]
    for (index, due) in expected.enumerated() {
      #expect(try todo.task(index + 1)["due"] as? String == due, "task \(index + 1)")
    }
    // The same times through the zone database agree (Europe/Berlin, Australia/Sydney, America/New_York).
    let known = [
      ("Europe/Berlin", "20260701T170000"), ("Europe/Berlin", "20261201T170000"), ("Australia/Sydney", "20260701T170000"),
      ("Australia/Sydney", "20261201T170000"), ("America/New_York", "20260308T013000"), ("America/New_York", "20260308T033000"),
      ("Asia/Kolkata", "20261201T170000"), ("Europe/Berlin", "20260328T120000"), ("Europe/Berlin", "20261024T120000"),
      ("Europe/Berlin", "20261025T023000"),
    ]
    let check = try TodoSandbox()
    check(
      "import", "-",
      stdin: "BEGIN:VCALENDAR\r\n" + known.enumerated().map { item("z\($0.offset)", $0.element.0, $0.element.1) }.joined()
        + "END:VCALENDAR\r\n"
    ).expectSuccess()
    for index in known.indices {
      #expect(try check.task(index + 1)["due"] as? String == expected[index], "\(known[index])")
    }
    // A zone with a rule todo cannot follow is not guessed at: the file is refused, naming it.
    let monthly =
      "BEGIN:VCALENDAR\r\n" + zone("Odd", standard: ("20200101T000000", "+0100", "+0200", "FREQ=MONTHLY"), daylight: nil)
      + item("odd", "Odd", "20260101T120000") + "END:VCALENDAR\r\n"
    let refused = check("import", "--strict", "-", stdin: monthly)
    #expect(refused.status == 1 && refused.stderr.contains("time zone 'Odd' is not known here"), "\(refused)")
  }

  /// Outlook and Exchange name zones as Windows does (`TZID:W. Europe Standard Time`, quoted or
  /// not): each is the IANA zone CLDR maps it to, summer time included. (It was refused, and with
  /// it the whole file.)
  @Test func outlooksWindowsZoneNamesRead() throws {
    let todo = try TodoSandbox()
    let calendar = """
      BEGIN:VCALENDAR\r
      PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
      BEGIN:VTIMEZONE\r
      TZID:W. Europe Standard Time\r
      END:VTIMEZONE\r
      BEGIN:VTODO\r
      UID:outlook-1\r
      SUMMARY:Berlin summer\r
      DUE;TZID=W. Europe Standard Time:20260701T170000\r
      END:VTODO\r
      BEGIN:VTODO\r
      UID:outlook-2\r
      SUMMARY:Los Angeles winter\r
      DUE;TZID="Pacific Standard Time":20261201T090000\r
      END:VTODO\r
      BEGIN:VTODO\r
      UID:outlook-3\r
      SUMMARY:India\r
      DTSTART;TZID=India Standard Time:20261201T093000\r
      DUE;TZID=UTC-11:20261201T010000\r
      END:VTODO\r
      END:VCALENDAR\r

      """
    todo("import", "-", stdin: calendar).expectSuccess()
    #expect(try todo.task(1)["due"] as? String == "2026-07-01T15:00:00Z")
    #expect(try todo.task(2)["due"] as? String == "2026-12-01T17:00:00Z")
    #expect(try todo.task(3)["scheduled"] as? String == "2026-12-01T04:00:00Z")
    #expect(try todo.task(3)["due"] as? String == "2026-12-01T12:00:00Z")
    // A name neither IANA nor Windows knows is still refused, naming it.
    let unknown = todo("import", "--strict", "-", stdin: calendar.replacingOccurrences(of: "India Standard Time", with: "Narnia Standard Time"))
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("time zone 'Narnia Standard Time' is not known here"), "\(unknown)")
  }

  @Test func aTodoTxtRoundTripKeepsWhatTheVdirGaveATask() throws {
    let todo = try TodoSandbox()
    let folder = todo.folder.appendingPathComponent("vdir").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:abc@phone\r\nSUMMARY:From the phone\r\nSEQUENCE:3\r\nLAST-MODIFIED:20261101T120000Z\r\nPRIORITY:4\r\nLOCATION:Home\r\nBEGIN:VALARM\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
      .write(toFile: folder + "/phone-item.ics", atomically: true, encoding: .utf8)
    todo("import", "--vdir", folder).expectSuccess()
    let txt = todo.folder.appendingPathComponent("t.txt").path
    todo("export", "--output", txt).expectSuccess()
    // (The first import of a todo.txt line records the line with the task.)
    #expect(todo("import", txt).lines.first?.contains("0 added, 1 updated") == true)
    #expect(todo("import", txt).lines.first?.contains("0 added, 0 updated, 1 unchanged") == true)
    // A change here: the same file, SEQUENCE one more, everything from the phone still there.
    todo("update", "1", "pri:M").expectSuccess()
    todo("export", "--vdir", folder).expectSuccess()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["phone-item.ics"])
    let text = try String(contentsOfFile: folder + "/phone-item.ics", encoding: .utf8)
    for line in ["UID:abc@phone", "SEQUENCE:4", "PRIORITY:5", "LOCATION:Home", "TRIGGER:-PT15M"] {
      #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
    }
    // Read back, SEQUENCE 4 is kept; another change makes it 5.
    todo("import", "--vdir", folder).expectSuccess()
    todo("update", "1", "pri:L", environment: ["TODO_NOW": "2026-11-22T09:30:00Z"]).expectSuccess()
    todo("export", "--vdir", folder).expectSuccess()
    #expect(try String(contentsOfFile: folder + "/phone-item.ics", encoding: .utf8).contains("SEQUENCE:5\r\n"))
    // A vdir file with two to-dos is refused (each task is written back to a file of its own).
    try "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:a\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:b\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
      .write(toFile: folder + "/both.ics", atomically: true, encoding: .utf8)
    let refused = todo("import", "--strict", "--vdir", folder)
    #expect(refused.status == 1 && refused.stderr.contains("both.ics holds 2 to-dos"), "\(refused)")
  }

  @Test func aFileNameFromJSONCannotLeaveTheFolder() throws {
    let todo = try TodoSandbox()
    let object =
      #"{"uuid":"11111111-1111-4111-8111-111111111111","title":"Sneaky","created":"2026-11-21T09:30:00Z","extras":[{"format":"ical","name":"file","value":"../escaped.ics"}]}"#
    todo("import", "-", stdin: object + "\n").expectSuccess()
    let folder = todo.folder.appendingPathComponent("sub/vdir").path
    todo("export", "--vdir", folder).expectSuccess()
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent("sub/escaped.ics").path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["11111111-1111-4111-8111-111111111111.ics"])
  }

  @Test func aTaskDeletedWhilePendingRoundTripsThroughJSONToo() throws {
    // Deleting keeps the completion time a task had: none for one deleted while pending.
    let todo = try TodoSandbox()
    todo("add", "Gone").expectSuccess()
    todo("delete", "1", "--yes").expectSuccess()
    let other = try TodoSandbox()
    other("import", "-", stdin: todo("export", "--format", "jsonl").stdout).expectSuccess()
    #expect(try other.task(1)["status"] as? String == "deleted")
    #expect(try other.task(1)["completed"] is NSNull)
  }

  /// An export of some tasks names a linked task outside them by the UID it was read with (a
  /// phone's UID is not our UUID), in one calendar and in a vdir, for links made here too.
  @Test func aFilteredExportNamesLinkedTasksOutsideItByTheirOwnUIDs() throws {
    let todo = try TodoSandbox()
    let file = todo.folder.appendingPathComponent("phone.ics").path
    try """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//phone//EN
    BEGIN:VTODO
    UID:parent-from-phone@example.org
    SUMMARY:Parent
    END:VTODO
    BEGIN:VTODO
    UID:blocker-from-phone@example.org
    SUMMARY:Blocker
    END:VTODO
    BEGIN:VTODO
    UID:child-from-phone@example.org
    SUMMARY:Child
    CATEGORIES:only
    END:VTODO
    END:VCALENDAR

    """.write(toFile: file, atomically: true, encoding: .utf8)
    todo("import", file).expectSuccess()
    // Linked here, not on the phone: the child's item has no RELATED-TO line of its own to keep.
    todo("update", "3", "parent:1", "depends:2").expectSuccess()
    let shown = todo("list", "+only", "--jsonl").stdout
    #expect(shown.contains("\"parent_id\":1") && shown.contains("\"depends_ids\":[2]"), "\(shown)")
    let calendar = todo("export", "+only", "--format", "ical")
    calendar.expectSuccess()
    let folder = todo.folder.appendingPathComponent("vdir").path
    todo("export", "+only", "--vdir", folder).expectSuccess()
    let written = try String(contentsOfFile: folder + "/child-from-phone@example.org.ics", encoding: .utf8)
    for text in [calendar.stdout, written] {
      #expect(text.contains("RELATED-TO;RELTYPE=PARENT:parent-from-phone@example.org\r\n"), "\(text)")
      #expect(text.contains("RELATED-TO;RELTYPE=DEPENDS-ON:blocker-from-phone@example.org\r\n"), "\(text)")
      #expect(text.components(separatedBy: "BEGIN:VTODO").count == 2, "\(text)")
    }
  }

  @Test func malformedCalendarsFailWithTheirLineAndWriteNothing() throws {
    let todo = try TodoSandbox()
    todo("add", "Keep me").expectSuccess()
    let file = todo.folder.appendingPathComponent("bad.ics").path
    try
      "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:First\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:Second\r\nDUE:tomorrow\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
      .write(toFile: file, atomically: true, encoding: .utf8)
    let failed = todo("import", "--strict", file)
    #expect(failed.status == 1)
    #expect(failed.stderr.contains("cannot import \(file) as ical: line 9: DUE is not a date or time"), "\(failed)")
    #expect(todo("list", "status:all", "--json").stdout.components(separatedBy: "\"uuid\"").count == 2)
    // A file that says it is a calendar and is something else.
    let junk = todo("import", "--format", "ical", "-", stdin: "{\"title\": \"json\"}\n")
    #expect(junk.status == 1 && junk.stderr.contains("line 1"), "\(junk)")
  }

  @Test func aVdirHoldsOneFileATaskWritesOnlyWhatChangedAndReadsBack() throws {
    let todo = try populated()
    let folder = todo.folder.appendingPathComponent("cal/tasks").path
    let first = todo("export", "--vdir", folder)
    first.expectSuccess()
    #expect(first.stderr.contains("6 written, 0 unchanged"), "\(first)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(names.count == 6 && names.allSatisfy { $0.hasSuffix(".ics") })
    #expect(todo("export", "--vdir", folder).stderr.contains("0 written, 6 unchanged"))
    todo("update", "1", "pri:M").expectSuccess()
    #expect(todo("export", "--vdir", folder).stderr.contains("1 written, 5 unchanged"))
    // Another machine reads the folder (in file-name order): the same tasks, each remembering its file.
    let other = try TodoSandbox()
    other("import", "--vdir", folder).expectSuccess()
    #expect(
      try withoutIDs(other("export", "--format", "jsonl").stdout).sorted() == (try withoutIDs(todo("export", "--format", "jsonl").stdout).sorted()))
    let otherFolder = other.folder.appendingPathComponent("mirror").path
    other("export", "--vdir", otherFolder).expectSuccess()
    #expect(try FileManager.default.contentsOfDirectory(atPath: otherFolder).sorted() == names)
    for name in names {
      #expect(try Data(contentsOf: URL(fileURLWithPath: otherFolder + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }
    #expect(todo("export", "--vdir", folder, "--format", "json").status == 2)
  }

  @Test func everyFileWeWriteParsesWithPythonsIcalendar() throws {
    let todo = try populated()
    let file = todo.folder.appendingPathComponent("all.ics").path
    todo("export", "--output", file).expectSuccess()
    let script = """
      import icalendar, sys
      calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
      for item in calendar.walk('VTODO'):
          categories = item.get('CATEGORIES')
          print('|'.join([str(item['SUMMARY']), str(item['STATUS']), str(item.get('PRIORITY', '')),
                          item['DUE'].to_ical().decode() if 'DUE' in item else '',
                          ','.join(str(c) for c in categories.cats) if categories else '']))
      """
    try script.write(toFile: todo.folder.appendingPathComponent("read.py").path, atomically: true, encoding: .utf8)
    let parsed = todo.shell("/usr/bin/python3 \(todo.folder.path)/read.py \(file)")
    #expect(parsed.status == 0, "\(parsed)")
    #expect(parsed.lines.contains("Buy milk, eggs; bread|NEEDS-ACTION|1|20261127|shop"), "\(parsed)")
    #expect(parsed.lines.contains("Child|IN-PROCESS||20261201T170000Z|Ünïcödé"), "\(parsed)")
    #expect(parsed.lines.contains(String(repeating: "Grüße aus 日本 ", count: 8) + "|NEEDS-ACTION|9||"), "\(parsed)")
    #expect(parsed.lines.contains("Gone|CANCELLED|||x"), "\(parsed)")
  }

  // MARK: todoman

  /// Runs the real todoman on one list folder of `root`.
  private func todoman(_ todo: TodoSandbox, root: String, _ arguments: String) -> TodoRun {
    let config = todo.folder.appendingPathComponent("todoman.py").path
    let script = """
      test -f \(config) || printf 'path = "\(root)/*"\\ndate_format = "%%Y-%%m-%%d"\\ntime_format = "%%H:%%M"\\ndefault_list = "tasks"\\ndefault_due = 0\\ncache_path = "\(todo.folder.path)/todoman-cache.sqlite3"\\ncolor = "never"\\n' > \(config)
      todoman -c \(config) \(arguments)
      """
    return todo.shell(script, environment: ["TZ": "UTC"])
  }

  @Test func todomanReadsOurVdirAndWeReadWhatTodomanWrites() throws {
    try #require(TodoSandbox.hasTool("todoman"), "make test installs todoman")
    let todo = try TodoSandbox()
    todo("add", "Allday task", "due:2026-11-27", "pri:H", "+home", "+errands").expectSuccess()
    todo("add", "Timed task", "due:2026-11-27T17:00:00Z", "pri:M").expectSuccess()
    todo("add", "Low task", "pri:L").expectSuccess()
    todo("add", "Finished", "+home").expectSuccess()
    todo("done", "4").expectSuccess()
    let root = todo.folder.appendingPathComponent("calendars").path
    todo("export", "--vdir", root + "/tasks").expectSuccess()

    // todoman sees our titles, dates, priorities and categories.
    let listed = todoman(todo, root: root, "--porcelain list --status ANY")
    #expect(listed.status == 0, "\(listed)")
    let items = try #require(try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])
    let bySummary = Dictionary(uniqueKeysWithValues: items.map { ($0["summary"] as? String ?? "", $0) })
    #expect(bySummary.count == 4)
    #expect(bySummary["Allday task"]?["due"] as? Int == 1_795_737_600)
    #expect(bySummary["Allday task"]?["priority"] as? Int == 1)
    #expect(bySummary["Timed task"]?["due"] as? Int == 1_795_798_800)
    #expect(bySummary["Timed task"]?["priority"] as? Int == 5)
    #expect(bySummary["Low task"]?["priority"] as? Int == 9)
    #expect(bySummary["Finished"]?["completed"] as? Bool == true)
    let errands = todoman(todo, root: root, "--porcelain list --category errands")
    #expect(
      (try? JSONSerialization.jsonObject(with: errands.stdoutBytes) as? [[String: Any]])?.map { $0["summary"] as? String } == ["Allday task"],
      "\(errands)")

    // todoman adds a task, completes one, and edits another; we import the folder.
    #expect(todoman(todo, root: root, "new -l tasks --priority high --due 2026-12-24 'From todoman'").status == 0)
    let ids = Dictionary(uniqueKeysWithValues: items.map { ($0["summary"] as? String ?? "", $0["id"] as? Int ?? 0) })
    #expect(todoman(todo, root: root, "done \(ids["Low task"] ?? 0)").status == 0)
    #expect(todoman(todo, root: root, "edit \(ids["Timed task"] ?? 0) --due '2026-11-28 09:30'").status == 0)
    let imported = todo("import", "--vdir", root + "/tasks", "--yes")
    imported.expectSuccess()
    #expect(imported.lines.first?.contains("1 added, 2 updated, 2 unchanged") == true, "\(imported)")
    let added = try todo.task(5)
    #expect(added["title"] as? String == "From todoman")
    #expect(added["priority"] as? String == "H")
    #expect(added["due"] as? String == "2026-12-24")
    #expect(try todo.task(3)["status"] as? String == "done")
    #expect(try todo.task(2)["due"] as? String == "2026-11-28T09:30:00Z")
    // todoman's task goes back to its own file, with its own UID and priority number.
    todo("export", "--vdir", root + "/tasks").expectSuccess()
    let files = try FileManager.default.contentsOfDirectory(atPath: root + "/tasks")
    #expect(files.count == 5, "\(files)")
    let theirs = try #require(files.first { $0.contains("@") })
    let text = try String(contentsOfFile: root + "/tasks/" + theirs, encoding: .utf8)
    #expect(text.contains("UID:" + theirs.dropLast(4) + "\r\n") && text.contains("PRIORITY:4\r\n"), "\(text)")
    let again = todoman(todo, root: root, "--porcelain list --status ANY")
    #expect((try? JSONSerialization.jsonObject(with: again.stdoutBytes) as? [[String: Any]])?.count == 5, "\(again)")
  }
}
