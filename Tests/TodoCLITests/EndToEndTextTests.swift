import Foundation
import Testing

/// Text fidelity: whatever a title holds is stored exactly (JSON shows it byte for byte) and shown
/// faithfully (control characters escaped in human output), or refused with a reason.
@Suite struct EndToEndTextTests {
  /// Adds one task with `arguments` and returns its stored title (from `show --json`).
  private func storedTitle(_ todo: TodoSandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String?
  {
    let run = todo.run(["add"] + arguments + ["--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    let id = try run.jsonObject(sourceLocation: sourceLocation)["id"] as? Int ?? -1
    return try todo.task(id, sourceLocation: sourceLocation)["title"] as? String
  }

  @Test func quotesAreStoredAndShownVerbatim() throws {
    let todo = try TodoSandbox()
    let title = #"She said "hi" and it's fine"#
    let run = todo("add", title)
    #expect(run.stdout == "Added task 1: \(title)\n", "\(run)")
    #expect(try todo.task(1)["title"] as? String == title)
    #expect(todo("list").lines == ["ID  Title", " 1  \(title)"])
    #expect(todo("show", "1").lines.first == "Task 1: \(title)")
    // The raw JSON escapes the double quotes and nothing else.
    #expect(todo("show", "1", "--json").stdout.contains(#""title": "She said \"hi\" and it's fine""#))
  }

  @Test func sqlIsJustText() throws {
    let todo = try TodoSandbox()
    let sql = "'; DROP TABLE todo; --"
    let run = todo("add", sql, "+it's", "project:o'brien", "--note", "\"); DELETE FROM note; --")
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout == "Added task 1: \(sql)  +it's project:o'brien notes:1\n")
    todo.add("Second", "task")
    let task = try todo.task(1)
    #expect(task["title"] as? String == sql)
    #expect(jsonStrings(task["tags"]) == ["it's"])
    #expect(task["project"] as? String == "o'brien")
    #expect((task["notes"] as? [[String: Any]])?.first?["text"] as? String == "\"); DELETE FROM note; --")
    #expect(todo.ids("--sort", "id") == [1, 2], "the table is still there")
    #expect(todo.ids("'; DROP") == [1])
    #expect(todo.ids("+it's") == [1])
    #expect(todo.ids("project:o'brien") == [1])
    #expect(todo.ids("' OR '1'='1") == [], "a word is a literal substring, never SQL")
  }

  @Test func wildcardsInWordsMatchLiterally() throws {
    let todo = try TodoSandbox()
    todo.add("100% done")
    todo.add("abc")
    todo.add("a_c literally")
    #expect(todo.ids("%") == [1])
    #expect(todo.ids("a_c") == [3], "'_' is not a LIKE wildcard")
    #expect(todo.ids("a%c") == [])
  }

  @Test func emojiAndCJKAreStoredExactlyAndAligned() throws {
    let todo = try TodoSandbox()
    let japanese = "日本語のタスク"
    let emoji = "🎉 party 👨‍👩‍👧 🇫🇷 é e\u{301}"
    let first = todo("add", japanese, "project:仕事", "+家")
    #expect(first.stdout == "Added task 1: 日本語のタスク  +家 project:仕事\n", "\(first)")
    todo.add("short", "project:ab", "+x")
    todo.add(emoji, "project:abc", "+emoji")
    #expect(try todo.task(1)["title"] as? String == japanese)
    #expect(try todo.task(1)["project"] as? String == "仕事")
    #expect(jsonStrings(try todo.task(1)["tags"]) == ["家"])
    let stored = try #require(try todo.task(3)["title"] as? String)
    #expect(Array(stored.utf8) == Array(emoji.utf8), "byte for byte, no normalisation")
    // Double-width characters take two columns: the columns after them stay aligned.
    #expect(
      todo("list").stdout == """
        ID  Project  Tags   Title
         1  仕事     家     日本語のタスク
         2  ab       x      short
         3  abc      emoji  \(emoji)

        """)
    #expect(todo.ids("project:仕事") == [1])
    #expect(todo.ids("+家") == [1])
    #expect(todo.ids("タスク") == [1])
    #expect(todo.ids("👨‍👩‍👧") == [3])
  }

  @Test func wordsThatAreNotAttributesStayInTheTitle() throws {
    let todo = try TodoSandbox()
    #expect(try storedTitle(todo, "re:", "rent") == "re: rent")
    #expect(try storedTitle(todo, "re: rent") == "re: rent")
    #expect(try storedTitle(todo, "Meeting", "at", "10:30", "about", "project:", "plans") == "Meeting at 10:30 about project: plans")
    #expect(try storedTitle(todo, "Read", "http://example.com/a:b") == "Read http://example.com/a:b")
    #expect(try storedTitle(todo, "5", "+", "3", "=", "8") == "5 + 3 = 8")
    #expect(try storedTitle(todo, "Status:done", "note:", "due.before:x") == "Status:done note: due.before:x")
    let run = todo("add", "re:", "rent", "+home")
    #expect(run.stdout == "Added task 7: re: rent  +home\n", "\(run)")
  }

  @Test func wordsAfterDoubleDashAreTitleText() throws {
    let todo = try TodoSandbox()
    let run = todo("add", "--json", "--", "+notatag", "pri:H", "due:tomorrow")
    #expect(run.status == 0, "\(run)")
    let task = try run.jsonObject()
    #expect(task["title"] as? String == "+notatag pri:H due:tomorrow")
    #expect(jsonStrings(task["tags"]) == [])
    #expect(isJSONNull(task["priority"]))
    #expect(isJSONNull(task["due"]))
    #expect(todo("add", "+real", "--", "-5", "degrees:", "--json", "coat").status == 0)
    let second = try todo.task(2)
    #expect(second["title"] as? String == "-5 degrees: --json coat")
    #expect(jsonStrings(second["tags"]) == ["real"])
    // update: words after -- replace the title.
    #expect(todo("update", "1", "--", "+x", "pri:L").status == 0)
    let updated = try todo.task(1)
    #expect(updated["title"] as? String == "+x pri:L")
    #expect(jsonStrings(updated["tags"]) == [])
    #expect(isJSONNull(updated["priority"]))
    // A word starting with '-' before '--' is refused, not dropped.
    let dash = todo("add", "buy", "-milk")
    #expect(dash.status == 2, "\(dash)")
    #expect(dash.errorLines.first == "todo: error: unknown option '-milk'", "\(dash)")
  }

  @Test func controlCharactersAreStoredExactlyAndShownEscaped() throws {
    let todo = try TodoSandbox()
    let newline = "line1\nline2"
    let escape = "esc\u{1B}[31mred\u{1B}[0m"
    let others = "a\u{01}b\tc\rd\u{7F}e\u{9B}f"
    let added = todo("add", newline)
    #expect(added.stdout == "Added task 1: line1\\nline2\n", "\(added)")
    todo.add(escape)
    todo.add(others)
    #expect(try todo.task(1)["title"] as? String == newline)
    #expect(try todo.task(2)["title"] as? String == escape)
    #expect(try todo.task(3)["title"] as? String == others)
    // Raw JSON uses JSON escapes.
    let json = todo("show", "2", "--json").stdout
    #expect(json.contains(#""title": "esc\u001b[31mred\u001b[0m""#), "\(json)")
    // The table: one line per task, no raw control byte reaches the terminal.
    let list = todo("list")
    #expect(
      list.lines == [
        "ID  Title", " 1  line1\\nline2", " 2  esc\\u{1B}[31mred\\u{1B}[0m", " 3  a\\u{01}b\\tc\\rd\\u{7F}e\\u{9B}f",
      ], "\(list)")
    let controls = list.stdoutBytes.filter { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }
    #expect(controls.isEmpty, "raw control bytes in the table: \(controls)")
    #expect(!list.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "no raw C1 controls")
    #expect(todo("show", "2").lines.first == "Task 2: esc\\u{1B}[31mred\\u{1B}[0m")
    // Notes too.
    #expect(todo("note", "1", "two\nlines").status == 0)
    #expect((try todo.task(1)["notes"] as? [[String: Any]])?.first?["text"] as? String == "two\nlines")
    #expect(todo("show", "1").lines.contains { $0.hasSuffix("  two\\nlines") })
    // And in the History, the command that added it.
    #expect(todo("show", "1").lines.last(where: { $0.hasPrefix("  2026") })?.hasSuffix("  note 1 'two\\nlines'") == true)
    // And a control character in a tag is refused with a reason.
    let tag = todo("add", "x", "+a\u{1B}b")
    #expect(tag.status == 2, "\(tag)")
  }

  @Test func aHundredKilobyteTitleIsStoredExactlyAndALargerOneRefused() throws {
    let todo = try TodoSandbox()
    let limit = String(repeating: "a", count: 99_990) + "0123456789"
    #expect(limit.utf8.count == 100_000)
    let run = todo.run(["add", limit, "--json"])
    #expect(run.status == 0, "\(run.status) \(run.stderr)")
    #expect(try run.jsonObject()["title"] as? String == limit)
    #expect(try todo.task(1)["title"] as? String == limit)
    let table = todo("list")
    #expect(table.lines.count == 2)
    #expect(table.lines.allSatisfy { $0.count <= 100 }, "fitted to COLUMNS=100")
    // One byte more: refused, nothing stored.
    let before = todo.snapshot()
    let tooLong = todo.run(["add", limit + "b"])
    #expect(tooLong.status == 2, "\(tooLong.status)")
    #expect(tooLong.stdout == "")
    #expect(tooLong.errorLines == ["todo: error: the title is longer than 100,000 bytes"])
    #expect(todo.snapshot() == before)
    let update = todo.run(["update", "1", "--title", limit + "b"])
    #expect(update.status == 2)
    #expect(todo.snapshot() == before)
    // The limit counts bytes: 25,000 four-byte emoji fit, one more does not.
    let emoji = String(repeating: "🎉", count: 25_000)
    #expect(todo.run(["add", emoji]).status == 0)
    #expect(try todo.task(2)["title"] as? String == emoji)
    #expect(todo.run(["add", emoji + "a"]).status == 2)
  }

  @Test func anArgumentWithInvalidUTF8IsRefusedAndNothingStored() throws {
    let todo = try TodoSandbox()
    todo.add("existing")
    let before = todo.snapshot()
    for bytes in [#"bad\377byte"#, #"\355\240\200"#, #"ok\300\257"#, #"\200"#] {
      let run = todo.shell(#""$TODO" add "$(printf '"# + bytes + #"')""#)
      #expect(run.status == 2, "\(bytes): \(run)")
      #expect(run.stdout == "", "\(run)")
      #expect(run.errorLines == ["todo: error: an argument is not valid UTF-8; todo stores text only as UTF-8"], "\(run)")
    }
    let inTag = todo.shell(#""$TODO" add fine "+$(printf 'x\377')""#)
    #expect(inTag.status == 2, "\(inTag)")
    let inUpdate = todo.shell(#""$TODO" update 1 "$(printf 'x\377')""#)
    #expect(inUpdate.status == 2, "\(inUpdate)")
    #expect(todo.snapshot() == before)
    // Before a database exists, nothing is created either.
    let fresh = try TodoSandbox()
    #expect(fresh.shell(#""$TODO" add "$(printf '\377')""#).status == 2)
    #expect(!FileManager.default.fileExists(atPath: fresh.databasePath))
  }

  /// With --json, even this error is the JSON error object on stderr.
  @Test func invalidUTF8WithJSONGivesAJSONError() throws {
    let todo = try TodoSandbox()
    let run = todo.shell(#""$TODO" add "$(printf 'bad\377')" --json"#)
    #expect(run.status == 2, "\(run)")
    let object = try run.errorObject()
    let error = try #require(object["error"] as? [String: Any], "\(run)")
    #expect(error["code"] as? String == "usage")
    #expect(error["exit_status"] as? Int == 2)
  }

  @Test func titlesChangedByUpdateKeepTheirText() throws {
    let todo = try TodoSandbox()
    todo.add("plain")
    let title = "It's \"quoted\" — 日本 🎉 ; DROP TABLE todo"
    #expect(todo.run(["update", "1", "--title", title]).status == 0)
    #expect(try todo.task(1)["title"] as? String == title)
    #expect(todo.run(["update", "1", "re:", "rent", "+x"]).status == 0)
    #expect(try todo.task(1)["title"] as? String == "re: rent")
  }
}
