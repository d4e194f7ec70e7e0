import Testing
import TodoCore

@testable import TodoInterchange

@Suite struct ICalendarTests {
  private func calendar(_ lines: [String]) -> [UInt8] {
    Array((["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joinedText("").utf8)
  }

  private func one(_ lines: [String]) throws -> TaskRecord {
    let records = try ICalendar.records(calendar(["BEGIN:VTODO"] + lines + ["END:VTODO"]), now: 1_000)
    return try #require(records.first)
  }

  private func written(_ record: TaskRecord) -> String {
    String(decoding: ICalendar.Writer([record]).file(record), as: UTF8.self)
  }

  @Test func longLinesFoldAt75OctetsNeverInsideACharacterAndReadBack() throws {
    var record = TaskRecord()
    record.todo.uuid = "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c"
    record.todo.title = String(repeating: "Grüße 日本語テキスト ✓, a; b\\ ", count: 12)
    record.todo.created = 1_795_000_000
    record.todo.modified = 1_795_000_000
    let bytes = ICalendar.Writer([record]).file(record)
    // Every physical line: at most 75 octets before CRLF, valid UTF-8 on its own.
    var start = 0
    var physical = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      #expect(bytes[index - 1] == 0x0D)
      let line = Array(bytes[start..<(index - 1)])
      #expect(line.count <= 75)
      #expect(String(validating: line, as: UTF8.self) != nil)
      start = index + 1
      physical += 1
    }
    #expect(physical >= 20)
    let back = try #require(try ICalendar.records(bytes, now: 0).first)
    #expect(back.todo.title == record.todo.title)
    // The same task gives the same bytes.
    #expect(ICalendar.Writer([record]).file(record) == bytes)
  }

  /// The fold falls exactly where RFC 5545 puts it: after 75 octets (74 on a continuation line,
  /// after its space), before a character that would pass them, wherever a property's name,
  /// parameters and value meet. Checked byte for byte against folding the whole line character
  /// by character.
  @Test func foldsFallExactlyAfter75OctetsWhereverThePiecesOfALineMeet() {
    func folded(_ line: String) -> [UInt8] {
      var bytes: [UInt8] = []
      var octets = 0
      for character in line.unicodeScalars {
        let encoded = Array(String(character).utf8)
        if octets + encoded.count > 75 {
          bytes += [0x0D, 0x0A, 0x20]
          octets = 1
        }
        bytes += encoded
        octets += encoded.count
      }
      return bytes + [0x0D, 0x0A]
    }
    for padding in 0..<12 {
      let name = "X-" + String(repeating: "N", count: 60 + padding)
      let value = String(repeating: "v", count: padding) + "é🎉日本" + String(repeating: "a", count: 70) + "🎉" + String(repeating: "b", count: 80)
      let parameter = "p" + String(repeating: "ü", count: padding) + ";q"
      var writer = ContentWriter()
      writer.property(name, value)
      writer.property(name, [("X-P", parameter), ("Y", "z")], value)
      writer.line(value)
      let expected =
        folded(name + ":" + value) + folded(name + ";X-P=\"" + parameter + "\";Y=z:" + value) + folded(value)
      #expect(writer.bytes == expected, "padding \(padding)")
    }
  }

  @Test func textEscapesRoundTrip() throws {
    let record = try one(["UID:a@b", #"SUMMARY:One\, two\; three \\ four\nfive"#, "DTSTAMP:20261101T120000Z"])
    #expect(record.todo.title == "One, two; three \\ four\nfive")
    #expect(written(record).contains(#"SUMMARY:One\, two\; three \\ four\nfive"#))
    #expect(ICalendarText.list(#"home,errands\, misc,,x"#) == ["home", "errands, misc", "", "x"])
  }

  @Test func todomansFilesReadAndItsPriorityIsWrittenBack() throws {
    let record = try one([
      "CREATED;VALUE=DATE-TIME:20261122T215356Z", "DTSTAMP;VALUE=DATE-TIME:20261122T215356Z", "DUE;VALUE=DATE:20261127",
      "LAST-MODIFIED;VALUE=DATE-TIME:20261122T215400Z", "LOCATION:Office\\, room 3", "PRIORITY:4", "SEQUENCE:1",
      "STATUS:NEEDS-ACTION", "SUMMARY:Plain task", "UID:01dc24e58db74672b4946b5544aca3fc@vm",
    ])
    #expect(record.todo.priority == .high)
    #expect(record.todo.due == .day(CalendarDay(year: 2026, month: 11, day: 27)))
    #expect(record.todo.created == Timestamp.parseRFC3339("2026-11-22T21:53:56Z"))
    #expect(record.todo.modified == Timestamp.parseRFC3339("2026-11-22T21:54:00Z"))
    #expect(record.todo.uuid == ICalendar.uuid(forUID: "01dc24e58db74672b4946b5544aca3fc@vm"))
    let text = written(record)
    for line in ["UID:01dc24e58db74672b4946b5544aca3fc@vm", "PRIORITY:4", "LOCATION:Office\\, room 3", "SEQUENCE:1", "DUE;VALUE=DATE:20261127"] {
      #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
    }
    // Changed here: the canonical number, and SEQUENCE one more.
    var changed = record
    changed.todo.priority = .low
    changed.todo.modified += 60
    #expect(written(changed).contains("PRIORITY:9\r\n"))
    #expect(written(changed).contains("SEQUENCE:2\r\n"))
    // A UUID written in capitals is the same task, and keeps its spelling.
    let apple = try one(["UID:3F2C8E0A-1B7D-4C7E-9A51-0D6F4F1E2B3C", "SUMMARY:x", "DTSTAMP:20261101T120000Z"])
    #expect(apple.todo.uuid == "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c")
    #expect(written(apple).contains("UID:3F2C8E0A-1B7D-4C7E-9A51-0D6F4F1E2B3C\r\n"))
  }

  @Test func anUnknownZoneNamesItsLine() throws {
    // Times in real zones are read in a process of their own (EndToEndICalendarTests): reading
    // one sets TZ for the call, which tests running side by side must not see.
    let unknown = #expect(throws: InterchangeError.self) {
      try ICalendar.records(self.calendar(["BEGIN:VTODO", "UID:z", "SUMMARY:x", "DUE;TZID=Mars/Olympus:20261201T170000", "END:VTODO"]), now: 0)
    }
    #expect(unknown?.line == 7 && unknown?.reason.contains("Mars/Olympus") == true, "\(String(describing: unknown))")
  }

  @Test func changedOccurrencesStayWithTheirToDo() throws {
    let records = try ICalendar.records(
      calendar([
        "BEGIN:VTODO", "UID:r", "SUMMARY:Weekly", "DTSTAMP:20261101T120000Z", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY", "END:VTODO",
        "BEGIN:VTODO", "UID:r", "RECURRENCE-ID;VALUE=DATE:20261204", "SUMMARY:Moved", "DUE;VALUE=DATE:20261205", "END:VTODO",
      ]), now: 0)
    #expect(records.count == 1)
    let text = written(try #require(records.first))
    // Written back after its to-do, as a sibling.
    #expect(text.contains("END:VTODO\r\nBEGIN:VTODO\r\nUID:r\r\nRECURRENCE-ID;VALUE=DATE:20261204\r\nSUMMARY:Moved\r\n"), "\(text)")
    #expect(text.hasSuffix("DUE;VALUE=DATE:20261205\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"), "\(text)")
    #expect(try ICalendar.records(Array(text.utf8), now: 0).count == 1)
  }

  @Test func whatCannotBeModelledIsKeptToTheLetter() throws {
    // An RRULE of an undated to-do, a COMPLETED time on an open one.
    let record = try one([
      "UID:k", "SUMMARY:k", "DTSTAMP:20261101T120000Z", "RRULE:FREQ=WEEKLY;WKST=SU", "STATUS:NEEDS-ACTION", "COMPLETED:20261102T120000Z",
    ])
    #expect(record.todo.status == .pending && record.todo.series == nil)
    let text = written(record)
    #expect(text.contains("RRULE:FREQ=WEEKLY;WKST=SU\r\n") && text.contains("COMPLETED:20261102T120000Z\r\n"), "\(text)")
    // Our own fields never come from an X-TODO-EXTRA.
    let error = #expect(throws: InterchangeError.self) {
      try self.one(["UID:e", "SUMMARY:e", "X-TODO-EXTRA;X-TODO-FORMAT=ical;X-TODO-NAME=file:../../.profile.ics"])
    }
    #expect(error?.reason.contains("cannot carry format 'ical'") == true)
  }

  @Test func fileNamesStayInsideTheFolder() throws {
    func name(_ uid: String?, file: String? = nil) -> String {
      var record = TaskRecord()
      record.todo.uuid = "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c"
      if let uid { record.extras.append(TaskExtra(format: "ical", name: "uid", value: uid)) }
      if let file { record.extras.append(TaskExtra(format: "ical", name: "file", value: file)) }
      return ICalendar.Writer([record]).fileName(record)
    }
    #expect(name("abc@host") == "abc@host.ics")
    #expect(name("../../etc/x") == "_._.._etc_x.ics")
    #expect(name(".hidden") == "_hidden.ics")
    #expect(name(String(repeating: "u", count: 300)) == "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c.ics")
    #expect(name(nil, file: "kept name.ics") == "kept name.ics")
    #expect(name(nil, file: "../../.profile.ics") == "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c.ics")
    #expect(name(nil, file: ".x.ics") == "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c.ics")
    // Lines kept from elsewhere never end the to-do early.
    var record = TaskRecord()
    record.todo.uuid = "3f2c8e0a-1b7d-4c7e-9a51-0d6f4f1e2b3c"
    record.todo.title = "t"
    record.extras = [TaskExtra(format: "ical", name: "properties", value: "X-A:1\nEND:VTODO\nEND:VCALENDAR\nX-B:2")]
    let text = String(decoding: ICalendar.Writer([record]).file(record), as: UTF8.self)
    #expect(text.split(separator: "\r\n").filter { $0 == "END:VTODO" }.count == 1 && text.contains("X-B:2\r\n"))
    record.extras = [TaskExtra(format: "ical", name: "properties", value: "BEGIN:VALARM\nTRIGGER:-PT1H")]
    let closed = String(decoding: ICalendar.Writer([record]).file(record), as: UTF8.self)
    #expect(closed.contains("TRIGGER:-PT1H\r\nEND:VALARM\r\nEND:VTODO\r\n"), "\(closed)")
    // An empty UID is no UID.
    let empty = try one(["UID:", "SUMMARY:e", "DTSTAMP:20261101T120000Z"])
    #expect(!empty.extras.contains { $0.name == "uid" })
  }

  @Test func propertiesTodoDoesNotModelAreKeptAndWrittenBack() throws {
    let record = try one([
      "UID:keep@example.com", "SUMMARY:Keep", "DTSTAMP:20261101T120000Z", "X-FOO;X-PARAM=bar:some unknown value",
      "X-APPLE-SORT-ORDER:123", "CATEGORIES:home,errands\\, misc", "CATEGORIES:Home Office", "RRULE:FREQ=WEEKLY;COUNT=3",
      "DUE;VALUE=DATE:20261127", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM",
    ])
    // Categories that cannot be tags (a space in them) are kept, not changed.
    #expect(record.todo.tags == ["home"])
    #expect(record.todo.series == nil)
    let text = written(record)
    for line in [
      "X-FOO;X-PARAM=bar:some unknown value", "X-APPLE-SORT-ORDER:123", "RRULE:FREQ=WEEKLY;COUNT=3", "BEGIN:VALARM",
      // Two CATEGORIES lines go back as two, while the tags are as they gave them.
      "TRIGGER:-PT15M", "END:VALARM", "CATEGORIES:home,errands\\, misc\r\nCATEGORIES:Home Office",
    ] {
      #expect(text.contains(line + "\r\n"), "\(line) in \(text)")
    }
    // Read again, the same task.
    let again = try #require(try ICalendar.records(Array(text.utf8), now: 0).first)
    #expect(again.todo == record.todo)
    // (Plus the SEQUENCE the file now has.)
    #expect(again.extras.filter { $0.name != "sequence" } == record.extras)
  }

  @Test func rulesTodoCanRepeatBecomeASeries() throws {
    let cases: [(String, RecurrenceRule?)] = [
      ("FREQ=DAILY", RecurrenceRule(unit: .day)), ("FREQ=WEEKLY;INTERVAL=2", RecurrenceRule(unit: .week, count: 2)),
      ("FREQ=MONTHLY;INTERVAL=3;WKST=MO", RecurrenceRule(unit: .month, count: 3)), ("FREQ=YEARLY", RecurrenceRule(unit: .year)),
      ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", RecurrenceRule(unit: .weekday)), ("FREQ=DAILY;BYDAY=FR,MO,TU,WE,TH", RecurrenceRule(unit: .weekday)),
      ("FREQ=WEEKLY;COUNT=3", nil), ("FREQ=MONTHLY;BYMONTHDAY=-1", nil), ("FREQ=HOURLY", nil), ("FREQ=WEEKLY;BYDAY=MO", nil),
    ]
    for (text, rule) in cases {
      #expect(ICalendar.rule(text) == rule, "\(text)")
      if let rule { #expect(ICalendar.rule(ICalendar.rruleText(rule)) == rule) }
    }
    let series = try one(["UID:s", "SUMMARY:s", "DTSTAMP:20261101T120000Z", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;INTERVAL=2"])
    #expect(series.todo.series?.rule == RecurrenceRule(unit: .week, count: 2))
    // Without a date to count from, the rule stays as it was, and the task is a plain one.
    let undated = try one(["UID:u", "SUMMARY:u", "DTSTAMP:20261101T120000Z", "RRULE:FREQ=DAILY"])
    #expect(undated.todo.series == nil)
    #expect(written(undated).contains("RRULE:FREQ=DAILY\r\n"))
  }

  @Test func textAddedToTheDescriptionElsewhereBecomesANote() throws {
    let base = ["UID:n", "SUMMARY:n", "CREATED:20261101T120000Z", "LAST-MODIFIED:20261105T120000Z"]
    let notes = [
      "X-TODO-NOTE;X-TODO-CREATED=20261102T120000Z:first", "X-TODO-NOTE;X-TODO-CREATED=20261103T120000Z:second",
    ]
    let same = try one(base + notes + ["DESCRIPTION:first\\n\\nsecond"])
    #expect(same.todo.notes.map(\.text) == ["first", "second"])
    #expect(same.todo.notes.map(\.created) == [Taskwarrior.parseTime("20261102T120000Z"), Taskwarrior.parseTime("20261103T120000Z")])
    let added = try one(base + notes + ["DESCRIPTION:first\\n\\nsecond\\nthird from the phone"])
    #expect(added.todo.notes.map(\.text) == ["first", "second", "third from the phone"])
    #expect(added.todo.notes.last?.created == Taskwarrior.parseTime("20261105T120000Z"))
    let rewritten = try one(base + notes + ["DESCRIPTION:all new"])
    #expect(rewritten.todo.notes.map(\.text) == ["all new"])
    let removed = try one(base + notes)
    #expect(removed.todo.notes.isEmpty)
    let foreign = try one(base + ["DESCRIPTION:from elsewhere"])
    #expect(foreign.todo.notes.map(\.created) == [Taskwarrior.parseTime("20261101T120000Z")])
  }

  @Test func statusesAndTheirTimes() throws {
    let done = try one(["UID:d", "SUMMARY:d", "DTSTAMP:20261101T120000Z", "STATUS:COMPLETED", "COMPLETED:20261102T120000Z", "PERCENT-COMPLETE:100"])
    #expect(done.todo.status == .done && done.todo.completed == Taskwarrior.parseTime("20261102T120000Z"))
    #expect(!done.extras.contains { $0.name == "properties" })
    let cancelled = try one(["UID:c", "SUMMARY:c", "DTSTAMP:20261101T120000Z", "STATUS:CANCELLED"])
    #expect(cancelled.todo.status == .deleted && cancelled.todo.completed == nil)
    let working = try one(["UID:w", "SUMMARY:w", "DTSTAMP:20261101T120000Z", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:50"])
    #expect(working.todo.status == .pending)
    let text = written(working)
    #expect(text.contains("STATUS:IN-PROCESS\r\n") && text.contains("PERCENT-COMPLETE:50\r\n"))
    let noStatus = try one(["UID:n", "SUMMARY:n", "DTSTAMP:20261101T120000Z", "COMPLETED:20261102T120000Z"])
    #expect(noStatus.todo.status == .done)
  }

  @Test func malformedFilesNameTheirLine() {
    let cases: [([String], Int, String)] = [
      (["BEGIN:VTODO", "SUMMARY:x"], 6, "END:VCALENDAR where END:VTODO"),
      (["BEGIN:VTODO", "SUMMARY:x", "END:VALARM"], 6, "END:VALARM where END:VTODO"),
      (["BEGIN:VTODO", "SUMMARY:x", "DUE:2026-11-27", "END:VTODO"], 6, "DUE is not a date"),
      (["BEGIN:VTODO", "SUMMARY:x", "STATUS:WAITING", "END:VTODO"], 6, "STATUS 'WAITING'"),
      (["BEGIN:VTODO", "SUMMARY x", "END:VTODO"], 5, "needs ':'"),
      (["BEGIN:VTODO", "PRIORITY:high", "END:VTODO"], 5, "PRIORITY is a number"),
      (["BEGIN:VTODO", "DUE;TZID=\"Europe/Berlin:20261127T170000", "END:VTODO"], 5, "no closing quote"),
    ]
    for (lines, line, reason) in cases {
      let error = #expect(throws: InterchangeError.self) { try ICalendar.records(self.calendar(lines), now: 0) }
      #expect(error?.line == line, "\(lines)")
      #expect(error?.reason.contains(reason) == true, "\(lines): \(error?.reason ?? "no error")")
    }
    #expect(throws: InterchangeError.self) { try ICalendar.records(Array("SUMMARY:x\r\n".utf8), now: 0) }
    #expect(throws: InterchangeError.self) { try ICalendar.records([0x42, 0x45, 0xFF, 0x3A, 0x0A], now: 0) }
    // Folded lines (a space or a tab), LF line ends and a byte-order mark read fine.
    let folded = try? ICalendar.records(
      [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:f\nSUMMARY:Fol\n ded\n\ttoo\nEND:VTODO\nEND:VCALENDAR\n".utf8), now: 0)
    #expect(folded?.first?.todo.title == "Foldedtoo")
  }
}
