import Testing
import TodoCore

@testable import TodoInterchange

@Suite struct JSONReaderTests {
  @Test func readsArraysObjectsAndLinesWithTheirLineNumbers() throws {
    let lines = try JSONReader.records(Array("{\"a\":1}\n\n{\"b\":[true,null,\"x\\u00e9\\ud83d\\ude00\"]}\n".utf8))
    #expect(lines.map(\.line) == [1, 3])
    #expect(lines[1].value["b"] == .array([.bool(true), .null, .string("xé😀")]))
    let array = try JSONReader.records(Array("[\n {\"a\": 1},\n {\"a\": 2.50}\n]".utf8))
    #expect(array.map(\.line) == [2, 3])
    #expect(array[1].value["a"] == .number("2.50"))
    #expect(try JSONReader.records(Array(" [ ] ".utf8)).isEmpty)
  }

  @Test func malformedInputNamesItsLine() {
    let cases: [(String, Int, String)] = [
      ("{\"a\":1}\n{\"a\":}", 2, "unexpected '}'"),
      ("{\"a\":\"open\n\"}", 1, "not closed on its line"),
      ("[1,2", 1, "needs ',' or ']'"),
      ("{\"a\" 1}", 1, "needs ':'"),
      ("\"\\ud800\"", 1, "unpaired surrogate"),
      (String(repeating: "[", count: 300), 1, "nested more than 256"),
      ("[1] x", 1, "text after the end"),
    ]
    for (text, line, reason) in cases {
      let error = #expect(throws: InterchangeError.self) { try JSONReader.records(Array(text.utf8)) }
      #expect(error?.line == line, "\(text)")
      #expect(error?.reason.contains(reason) == true, "\(text): \(error?.reason ?? "no error")")
    }
    // Invalid UTF-8 inside a string.
    #expect(throws: InterchangeError.self) { try JSONReader.records([0x22, 0xFF, 0x22]) }
  }

  /// Reading piece by piece (`forEachRecord(reading:)`, what an import of JSON Lines does) gives
  /// the values, line numbers and errors that reading the whole input gives, wherever the pieces
  /// are cut: inside numbers, strings, UTF-8 sequences, escapes and surrogate pairs, between
  /// values, after a byte order mark.
  @Test func readingInPiecesGivesWhatReadingWholeGives() {
    let inputs = [
      "{\"a\":1}\n\n{\"b\":[true,null,\"x\\u00e9\\ud83d\\ude00 é🎉\"]}\n",
      "\u{FEFF}{\"n\": 12345678901234}\n{\"n\": -0.5e10}\n  \n{\"n\": 7}",
      "{\n  \"pretty\": [\n    1,\n    2\n  ]\n}\n{\n  \"second\": \"x\"\n}\n",
      "[\n {\"a\": 1},\n {\"a\": 2.50}\n]",
      "", "   \n  ", "12 34\n56",
      "{\"a\":1}\n{\"a\":}\n{\"a\":3}", "{\"a\":1}\n{\"a\":\"open\n\"}", "{\"a\":1}\n\n\n{\"a\" 1}",
      "{\"a\":1}\n\"\\ud800\"", "{\"a\":1} x", "{\"a\":1}\n{\"b\":tru}", "{\"a\":1}\n{\"b\":",
      "      \n\n\t  [ {\"a\": 1} ]", "\u{FEFF}   \n   {\"a\": 1}", "{\"s\":\"\\ud83d\\ude00\\ud83d\\ude00\"}\n{\"t\":\"\\u00e9\"}",
      // Top-level arrays, read element by element: whole, empty, cut anywhere, and wrong.
      "[\n  {\"a\": 123456},\n  {\"b\": [1, 2, {\"c\": \"x\"}]},\n  \"é🎉\",\n  -0.5e10\n]\n", "[]", " [ \n ] \n",
      "[1,2", "[1] x", "[", "[,]", "[1 2]", "[1,]", "[{\"a\":}]", "[\n1,\n2\n]\n[3]", "[" + String(repeating: "[", count: 300),
    ]
    func whole(_ bytes: [UInt8]) -> String {
      var seen: [String] = []
      do throws(InterchangeError) {
        try JSONReader.forEachRecord(bytes) { line, value throws(InterchangeError) in seen.append("\(line): \(value.text)") }
      } catch {
        seen.append("error \(error)")
      }
      return seen.joined(separator: " | ")
    }
    for input in inputs {
      let bytes = Array(input.utf8)
      let expected = whole(bytes)
      for size in [1, 2, 3, 5, 8, 13, 64, 1 << 20] {
        var offset = 0
        var seen: [String] = []
        do throws(InterchangeError) {
          try JSONReader.forEachRecord(reading: { _ in
            guard offset < bytes.count else { return nil }
            let piece = Array(bytes[offset..<min(offset + size, bytes.count)])
            offset += piece.count
            return piece
          }) { line, value throws(InterchangeError) in seen.append("\(line): \(value.text)") }
        } catch {
          seen.append("error \(error)")
        }
        #expect(seen.joined(separator: " | ") == expected, "\(input.debugDescription) in pieces of \(size)")
      }
    }
    // An empty piece ends the input, as nil does.
    var pieces: [[UInt8]] = [Array("{\"a\":1}\n".utf8), []]
    var values = 0
    #expect(throws: Never.self) {
      try JSONReader.forEachRecord(reading: { _ in pieces.isEmpty ? nil : pieces.removeFirst() }) { _, _ throws(InterchangeError) in values += 1 }
    }
    #expect(values == 1)
    // A malformed line early in an endless input fails at once: the rest is not read first.
    var requests = 0
    let error = #expect(throws: InterchangeError.self) {
      try JSONReader.forEachRecord(reading: { atLeast in
        requests += 1
        if requests > 8 { return nil }  // (endless but for this: a reader that waits for the end stops here)
        return requests == 1 ? Array("{\"a\":1}\n{\"a\":}\n".utf8) : Array(repeating: UInt8(ascii: "\n"), count: atLeast)
      }) { _, _ throws(InterchangeError) in }
    }
    #expect(error?.line == 2 && requests <= 2, "\(String(describing: error)) after \(requests) requests")
    // The malformed value is named by its line, after the good ones were read.
    #expect(whole(Array("{\"a\":1}\n{\"a\":}\n{\"a\":3}".utf8)).hasPrefix("1: {\"a\":1} | error line 2:"))
  }

  @Test func valuesWriteBackAsTheyCame() throws {
    let text = #"{"b":[1,2.000000,"x\"y\n"],"a":{"z":null,"t":true}}"#
    let value = try #require(try JSONReader.records(Array(text.utf8)).first?.value)
    #expect(value.text == text)
  }

  @Test func taskwarriorTimesAndRules() {
    #expect(Taskwarrior.parseTime("20261127T170000Z") == Timestamp.parseRFC3339("2026-11-27T17:00:00Z"))
    #expect(Taskwarrior.formatTime(1_795_798_800) == "20261127T170000Z")
    #expect(Taskwarrior.parseTime("2026112T170000Z") == nil)
    #expect(Taskwarrior.taskwarriorRule(RecurrenceRule(unit: .week, count: 2)) == "2w")
  }

  @Test func todoTxtLinesReadAsTheFormatSays() throws {
    let done = try TodoTxt.record("x 2026-11-22 2026-11-20 File taxes +Home @desk pri:C", line: 1)
    #expect(done.todo.status == .done && done.todo.priority == .low && done.todo.project == "Home")
    #expect(done.todo.tags == ["desk"] && done.todo.title == "File taxes")
    let lower = try TodoTxt.record("(b) not a priority", line: 1)
    #expect(lower.todo.priority == nil && lower.todo.title == "(b) not a priority")
    let strict = try TodoTxt.record("Pay rent rec:+1m due:2026-12-01", line: 1)
    #expect(strict.todo.series?.rule == RecurrenceRule(unit: .month, count: 1, afterCompletion: false))
    // `x` without a date (todo.txt-cli's own tests have `x done`): done, its time left to the import.
    let undated = try TodoTxt.record("x notadate task", line: 4)
    #expect(undated.todo.status == .done && undated.todo.completed == nil && undated.todo.title == "notadate task")
    #expect(throws: InterchangeError.self) { try TodoTxt.record("task due:tomorrow", line: 4) }
    // A line without a UUID gets the same one every time.
    #expect(try TodoTxt.record("Same", line: 1).todo.uuid == (try TodoTxt.record("Same", line: 9).todo.uuid))
  }

  @Test func todoTxtLinesMadeFromTasksReadBackTheSame() throws {
    var todo = Todo()
    todo.uuid = "0b7f6c52-9d8e-4f0a-8b1c-2d3e4f5a6b7c"
    todo.title = "Stand-up"
    todo.project = "work"
    todo.tags = ["office"]
    todo.priority = .medium
    todo.created = 1_795_600_000
    todo.modified = todo.created
    todo.due = .day(try #require(CalendarDay(text: "2026-11-30")))
    for rule in [RecurrenceRule(unit: .weekday), RecurrenceRule(unit: .month, count: 2, afterCompletion: true)] {
      todo.series = SeriesLink(id: 0, uuid: "series", index: 1, rule: rule, ended: nil)
      let line = TodoTxt.line(TaskRecord(todo: todo))
      #expect(line.hasPrefix("(B) 2026-11-"), "\(line)")
      let back = try TodoTxt.record(line, line: 1).todo
      #expect(back.title == todo.title && back.project == todo.project && back.tags == todo.tags, "\(line)")
      #expect(back.priority == .medium && back.due == todo.due && back.uuid == todo.uuid, "\(line)")
      #expect(back.series?.rule == rule, "\(line)")
    }
    // The same line twice without a UUID is two tasks, each time the file is read.
    let twice = try TodoTxt.records(Array("x 2026-11-20 Water plants\nx 2026-11-20 Water plants\n".utf8))
    #expect(Set(twice.map(\.todo.uuid)).count == 2)
    #expect(
      try TodoTxt.records(Array("x 2026-11-20 Water plants\nx 2026-11-20 Water plants\n".utf8)).map(\.todo.uuid)
        == twice.map(\.todo.uuid))
  }

  @Test func taskwarriorRecurrenceSpellingsRead() throws {
    for (spelling, rule) in [
      ("weekly", RecurrenceRule(unit: .week)), ("2wk", RecurrenceRule(unit: .week, count: 2)),
      ("P1W", RecurrenceRule(unit: .week)), ("P3D", RecurrenceRule(unit: .day, count: 3)), ("1mo", RecurrenceRule(unit: .month)),
    ] {
      let json = #"{"uuid":"a","description":"d","status":"pending","recur":"\#(spelling)","due":"20261127T000000Z"}"#
      let record = try #require(try Taskwarrior.records(Array(json.utf8), now: 0).first)
      #expect(record.todo.series?.rule == rule, "\(spelling)")
    }
    let bad = #"{"uuid":"a","description":"d","status":"pending","recur":"sometimes","due":"20261127T000000Z"}"#
    let error = #expect(throws: InterchangeError.self) { try Taskwarrior.records(Array(bad.utf8), now: 0) }
    #expect(error?.reason.contains("'sometimes'") == true)
  }

  @Test func taskwarriorExportKeepsWhatTaskwarriorHasNoKeyFor() throws {
    var todo = Todo()
    todo.uuid = "aaaaaaaa-1111-4111-8111-111111111111"
    todo.title = "Water the plants"
    todo.status = .done
    todo.created = 1_795_000_000
    todo.modified = 1_795_100_000
    todo.completed = 1_795_100_000
    todo.reason = "expired"
    todo.parentUUID = "bbbbbbbb-2222-4222-8222-222222222222"
    todo.series = SeriesLink(
      id: 0, uuid: "cccccccc-3333-4333-8333-333333333333", index: 3, rule: RecurrenceRule(parsing: "+1w")!, ended: 1_795_200_000)
    let line = Taskwarrior.line(TaskRecord(todo: todo, extras: [], line: 0))
    #expect(line.contains(#""todo_rule":"+1w""#), "\(line)")
    let back = try #require(try Taskwarrior.records(Array(line.utf8), now: 0).first)
    #expect(back.todo.parentUUID == todo.parentUUID)
    #expect(back.todo.series == todo.series)
    #expect(back.todo.reason == "expired")
    #expect(back.extras.isEmpty, "\(back.extras)")

    // A pending instance with a due date: Taskwarrior's own `parent`, `imask`, `recur` and `rtype`
    // are written too (without a due date Taskwarrior refuses `recur`), and the instance keeps its
    // number on the way back.
    todo.status = .pending
    todo.completed = nil
    todo.series?.ended = nil
    #expect(!Taskwarrior.line(TaskRecord(todo: todo, extras: [], line: 0)).contains(#""recur""#))
    todo.due = .instant(1_795_300_000)
    let pending = Taskwarrior.line(TaskRecord(todo: todo, extras: [], line: 0))
    for member in [#""recur":"weekly""#, #""parent":"cccccccc-3333-4333-8333-333333333333""#, #""imask":2"#, #""rtype":"periodic""#] {
      #expect(pending.contains(member), "\(pending)")
    }
    #expect(try Taskwarrior.records(Array(pending.utf8), now: 0).first?.todo.series == todo.series)
  }

  @Test func aSeriesGoesOutAsTaskwarriorsTemplateAndComesBackAsItsTemplate() throws {
    var template = Todo()
    template.title = "Pay rent"
    template.project = "home"
    template.tags = ["bills"]
    template.due = .day(CalendarDay(year: 2026, month: 1, day: 31))
    template.wait = .day(CalendarDay(year: 2026, month: 1, day: 28))
    let series = SeriesTemplate(
      uuid: "cccccccc-3333-4333-8333-333333333333", rule: RecurrenceRule(unit: .month, count: 3), template: template,
      created: 1_790_000_000, modified: 1_790_000_100, instances: [1: .done, 3: .pending],
      latestDue: .day(CalendarDay(year: 2026, month: 7, day: 31)))
    let line = Taskwarrior.templateLine(series)
    for member in [
      #""status":"recurring""#, #""recur":"quarterly""#, #""rtype":"periodic""#, #""mask":"+X-""#, #""due":"20260131T000000Z""#,
      #""wait":"20260128T000000Z""#,
    ] {
      #expect(line.contains(member), "\(line)")
    }
    // The latest instance's place in the schedule: periods todo skipped are in the mask.
    var skipped = series
    skipped.latestDue = .day(CalendarDay(year: 2027, month: 1, day: 31))
    #expect(Taskwarrior.templateLine(skipped).contains(#""mask":"+X-XX""#))
    var ended = series
    ended.ended = 1_790_000_200
    #expect(Taskwarrior.templateLine(ended).contains(#""status":"deleted""#))

    var instance = Todo()
    instance.uuid = "dddddddd-3333-4333-8333-333333333333"
    instance.title = "Pay rent"
    instance.due = .day(CalendarDay(year: 2026, month: 7, day: 31))
    instance.series = SeriesLink(id: 0, uuid: series.uuid, index: 3, rule: series.rule, ended: nil)
    let document = Taskwarrior.document([TaskRecord(todo: instance)], templates: [series])
    let back = try Taskwarrior.records(Array(document.utf8), now: 0)
    #expect(back.map(\.isSeriesTemplate) == [true, false])
    #expect(back[0].todo.uuid == series.uuid && back[0].todo.due == template.due && back[0].todo.wait == template.wait)
    #expect(back[0].todo.series?.rule == series.rule)
    #expect(back[1].todo.series?.index == 3 && back[1].todo.series?.uuid == series.uuid)
  }

  @Test func taskwarriorsRecurWordsForMonthsAreCalendarMonths() throws {
    // Taskwarrior 2.6 counts `3mo` as 90 days and `5m`, `P5M`, `quarterly` as calendar months.
    for (word, rule) in [("5m", "5mo"), ("P5M", "5mo"), ("bimonthly", "2mo"), ("semiannual", "6mo"), ("biannual", "2y")] {
      let line = #"{"uuid":"aaaaaaaa-1111-4111-8111-111111111111","description":"d","status":"pending","due":"20260101T000000Z","recur":"\#(word)"}"#
      #expect(try Taskwarrior.records(Array(line.utf8), now: 0).first?.todo.series?.rule == RecurrenceRule(parsing: rule), "\(word)")
    }
    for (rule, word) in [("3mo", "quarterly"), ("5mo", "P5M"), ("2y", "biannual"), ("3y", "P36M"), ("2w", "2w")] {
      #expect(Taskwarrior.taskwarriorRule(RecurrenceRule(parsing: rule)!) == word)
    }
  }

  @Test func taskwarriorsTodoKeysAreChecked() {
    let start = #"{"uuid":"aaaaaaaa-1111-4111-8111-111111111111","description":"d","status":"pending","#
    for (keys, complaint) in [
      (#""todo_series":"not-a-uuid","todo_rule":"weekly""#, "\"todo_series\" is not a UUID"),
      (#""todo_series":"cccccccc-3333-4333-8333-333333333333","todo_rule":"weekly","todo_instance":0"#, "\"todo_instance\""),
      (#""todo_series":"cccccccc-3333-4333-8333-333333333333","todo_rule":"sometimes""#, "'sometimes'"),
      (#""todo_series":"cccccccc-3333-4333-8333-333333333333""#, "needs \"todo_rule\""),
      (#""todo_rule":"weekly""#, "\"todo_rule\" needs \"todo_series\""),
      (#""todo_series":"cccccccc-3333-4333-8333-333333333333","todo_rule":"weekly","todo_instance":"2.5""#, "whole number"),
      (#""todo_parent":"12""#, "\"todo_parent\" is not a UUID"),
    ] {
      let error = #expect(throws: InterchangeError.self) { try Taskwarrior.records(Array((start + keys + "}").utf8), now: 0) }
      #expect(error?.reason.contains(complaint) == true, "\(keys): \(error?.reason ?? "no error")")
    }
  }

  /// What Taskwarrior makes of todo's export: the pending instance becomes a template whose
  /// children copy its attributes, numbers come back as `3.000000`, and the user may have
  /// changed `recur` or reopened a task there.
  @Test func todoKeysThatWentThroughTaskwarriorAreReadAsTaskwarriorLeftThem() throws {
    let series = "cccccccc-3333-4333-8333-333333333333"
    let template = "aaaaaaaa-1111-4111-8111-111111111111"
    let own = #""todo_series":"\#(series)","todo_instance":"3.000000","todo_rule":"+1w","todo_reason":"expired""#
    let file = """
      [{"uuid":"\(template)","description":"Water","status":"recurring","recur":"weekly","due":"20261101T000000Z",\(own)},
      {"uuid":"dddddddd-1111-4111-8111-111111111111","description":"Water","status":"pending","parent":"\(template)","imask":0,"recur":"weekly","due":"20261101T000000Z",\(own)},
      {"uuid":"eeeeeeee-1111-4111-8111-111111111111","description":"Water","status":"completed","parent":"\(template)","imask":1,"recur":"weekly","due":"20261108T000000Z","end":"20261108T000000Z",\(own)}]
      """
    let records = try Taskwarrior.records(Array(file.utf8), now: 0)
    // The template is not a task of its own; its children are instances 3 and 4 of todo's series.
    #expect(records.map(\.todo.series?.index) == [3, 4])
    #expect(records.allSatisfy { $0.todo.series?.uuid == series && $0.todo.series?.rule.description == "+1w" })
    // The reason holds for the closed task only.
    #expect(records.map(\.todo.reason) == [nil, "expired"])

    // A template alone is the task todo wrote, with its UUID; `recur` changed there wins.
    let alone = #"{"uuid":"\#(template)","description":"Water","status":"recurring","recur":"monthly","due":"20261101T000000Z",\#(own)}"#
    let record = try #require(try Taskwarrior.records(Array(alone.utf8), now: 0).first)
    #expect(record.todo.uuid == template)
    #expect(record.todo.series?.rule.description == "monthly")
    #expect(record.todo.series?.index == 3)

    // An older version stored todo_* keys as extras: they are not written twice.
    var todo = record.todo
    todo.reason = nil
    let line = Taskwarrior.line(TaskRecord(todo: todo, extras: [TaskExtra(format: "taskwarrior", name: "todo_series", value: "\"x\"")], line: 0))
    #expect(line.split(separator: "todo_series\"", omittingEmptySubsequences: false).count == 2, "\(line)")
  }
}
