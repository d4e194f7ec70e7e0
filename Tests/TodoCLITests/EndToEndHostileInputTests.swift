import Foundation
import TestSupport
import Testing

/// Input meant to break things (issue 14, "bad input"), through the real binary: each gets a
/// clear error and changes nothing, or is stored faithfully; nothing is ever run or crashes.
@Suite struct EndToEndHostileInputTests {
  /// Runs `arguments`, expecting `status` and an error naming `words`, and the stored state unchanged.
  func expectRefused(
    _ todo: TodoSandbox, _ arguments: [String], status: Int32, _ words: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = todo.snapshot()
    let run = todo.run(arguments)
    #expect(run.status == status, "\(run)", sourceLocation: sourceLocation)
    #expect(run.errorLines.first?.hasPrefix("todo: error: ") == true, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stderr.contains(words), "\(run)", sourceLocation: sourceLocation)
    #expect(run.stdout == "", "\(run)", sourceLocation: sourceLocation)
    #expect(todo.snapshot() == before, "\(arguments) changed something", sourceLocation: sourceLocation)
  }

  @Test func idsPastInt64AndBlankTitlesAreUsageErrors() throws {
    let todo = try TodoSandbox()
    todo.add("Keep")
    expectRefused(todo, ["done", "99999999999999999999"], status: 2, "bad value '99999999999999999999' for task id")
    expectRefused(todo, ["done", "1-99999999999999999999"], status: 2, "bad value '1-99999999999999999999' for task id")
    expectRefused(todo, ["delete", "9223372036854775808"], status: 2, "bad value '9223372036854775808'")
    expectRefused(todo, ["show", "9223372036854775808"], status: 2, "bad value '9223372036854775808' for show")
    expectRefused(todo, ["add", "   "], status: 2, "a task needs a title")
    expectRefused(todo, ["add", "--", " \t "], status: 2, "a task needs a title")
    expectRefused(todo, ["update", "1", "--title", "  "], status: 2, "a task needs a title")
  }

  @Test func aBackwardsRangeMeansTheSameTasksAsForwards() throws {
    let todo = try TodoSandbox()
    for title in ["One", "Two", "Three", "Four"] { todo.add(title) }
    // `3-1` names tasks 1 to 3, as `1-3` does, and the change echoes each one.
    let run = todo("done", "3-1")
    run.expectSuccess()
    #expect(
      run.lines == [
        "Completed task 1: One  status:done", "Completed task 2: Two  status:done", "Completed task 3: Three  status:done",
        "Completed 3 tasks; 'todo undo' reverts them together.",
      ])
    #expect(todo.ids() == [4])
  }

  @Test func textThatLooksLikeFormatsShellOrSQLIsStoredVerbatimAndNeverRun() throws {
    let todo = try TodoSandbox()
    let marker = todo.folder.appendingPathComponent("RAN").path
    let titles = [
      "%s%s%s%n%x %p %@ %1$s %%",
      "$(touch \(marker)) and `touch \(marker)` and ${HOME}",
      "; touch \(marker); echo 'x' | sh",
      "'; DROP TABLE todo; -- \" OR 1=1",
      "{{7*7}} \\(x) \\u0041 \\n",
    ]
    for title in titles {
      let added = todo("add", "--json", "--", title)
      added.expectSuccess()
      #expect(try added.jsonObject()["title"] as? String == title)
      #expect(todo("note", "1", "--", title).status == 0)
    }
    // Through the shell's own word splitting too: the words are text, never a command.
    let shell = todo("shell", stdin: "add Shell line $(touch \(marker)) `touch \(marker)`\n")
    shell.expectSuccess()
    let stored = try todo("list", "--json").jsonArray().compactMap { $0["title"] as? String }
    #expect(stored == titles + ["Shell line $(touch \(marker)) `touch \(marker)`"])
    let notes = try todo.task(1)["notes"] as? [[String: Any]] ?? []
    #expect(notes.compactMap { $0["text"] as? String } == titles)
    // The human table prints them as they are.
    let table = todo("list")
    for title in titles { #expect(table.stdout.contains(title), "\(table)") }
    #expect(!FileManager.default.fileExists(atPath: marker), "a title was run as a command")
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'SELECT count(*) FROM todo'").stdout == "6\n")
  }

  @Test func binaryJunkInEveryImportFormatIsRefusedWithItsLine() throws {
    let todo = try TodoSandbox()
    todo.add("Keep")
    // 64 KiB of random bytes with no NUL among them, seeded so a failure can be replayed.
    var random = SeededGenerator(seed: 14)
    let junk = Data((0..<65_536).map { _ in UInt8(1 + random.next(below: 255)) })
    let file = todo.folder.appendingPathComponent("junk.bin")
    try junk.write(to: file)
    for format in ["json", "jsonl", "taskwarrior", "todotxt", "ical"] {
      expectRefused(todo, ["import", file.path, "--format", format, "--yes"], status: 1, "line ")
    }
    // Printable junk that is valid UTF-8 but no calendar, no JSON.
    let text = String((0..<4_000).map { _ in Character(UnicodeScalar(UInt8(33 + random.next(below: 94)))) })
    try text.write(to: file, atomically: true, encoding: .utf8)
    for format in ["json", "jsonl", "taskwarrior", "ical"] {
      expectRefused(todo, ["import", file.path, "--format", format, "--yes"], status: 1, "line 1")
    }
  }

  @Test func aHundredMegabyteLineInAnImportIsRefusedWithItsLine() throws {
    let todo = try TodoSandbox()
    todo.add("Keep")
    // Each file written in pieces, one at a time (three 100 MB strings at once weigh on the
    // tests running beside this one).
    let cases: [(name: String, head: String, tail: String, line: String)] = [
      ("big.txt", "", "\n", "line 1: the line is longer than 1,000,000 bytes"),
      ("big.jsonl", #"{"title":""#, "\"}\n", "line 1:"),
      (
        "big.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:", "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
        "line 3: the title is longer than 100,000 bytes"
      ),
    ]
    let piece = Data(repeating: UInt8(ascii: "x"), count: 1_000_000)
    for (name, head, tail, line) in cases {
      let file = todo.folder.appendingPathComponent(name)
      FileManager.default.createFile(atPath: file.path, contents: Data(head.utf8))
      let handle = try FileHandle(forWritingTo: file)
      try handle.seekToEnd()
      for _ in 0..<100 { try handle.write(contentsOf: piece) }
      try handle.write(contentsOf: Data(tail.utf8))
      try handle.close()
      defer { try? FileManager.default.removeItem(at: file) }
      expectRefused(todo, ["import", file.path, "--yes"], status: 1, line)
    }
  }

  @Test func hostileHookOutputIsRefusedAndShownHarmlessly() throws {
    let todo = try TodoSandbox()
    todo.add("Keep")
    let folder = todo.folder.appendingPathComponent(".config/todo/hooks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let hook = folder.appendingPathComponent("on-add.hostile").path
    try #"""
    #!/bin/sh
    read task
    case "$task" in
      *garbage*) printf 'not json at all {{{\n' ;;
      *bytes*) printf '\377\376\001{"x":\n' ;;
      *huge*) head -c 20000000 /dev/zero | tr '\0' 'a'; echo ;;
      *escape*) printf '\033]0;owned\007\033[2J\033[31mred {"a"\n'; exit 4 ;;
      *types*) echo '{"uuid": 5, "description": []}' ;;
      *control*) printf '{"description":"a\001b"}\n' ;;
    esac
    """#.write(toFile: hook, atomically: true, encoding: .utf8)
    chmod(hook, 0o700)
    for word in ["garbage", "bytes", "huge", "types", "control"] {
      expectRefused(todo, ["add", "task", word], status: 1, "nothing was changed")
    }
    // A hook's message reaches the terminal with its control characters made visible: it cannot
    // retitle the window, clear the screen or colour what follows.
    let before = todo.snapshot()
    let escape = todo("add", "task", "escape")
    #expect(escape.status == 1)
    #expect(escape.stderr.contains("refused the command (exit status 4)"), "\(escape)")
    #expect(!escape.stderrBytes.contains(0x1B) && !escape.stderrBytes.contains(0x07), "\(escape)")
    #expect(todo.snapshot() == before)
    #expect(todo.ids() == [1])
  }

  @Test(arguments: [SIGINT, SIGTERM]) func anExportStoppedWhileWritingItsFileFinishesTheFileAndLeavesNoTemporaryFile(signal: Int32) throws {
    let todo = try TodoSandbox()
    #expect(todo("add", "first").status == 0)
    let insert = """
      WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO todo (id, uuid, title, status, created, modified)
      SELECT i, printf('%08x-0000-4000-8000-%012x', i, i), 'task ' || i, 'pending', 0, 0 FROM n;
      """
    try #require(todo.shell("sqlite3 \"$TODO_DB\" \"\(insert)\"").status == 0)
    let out = todo.folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let file = out.appendingPathComponent("tasks.jsonl")
    let old = "old\n"
    todo("export", "--format", "jsonl", "--output", file.path).expectSuccess()
    let complete = try Data(contentsOf: file)
    // Each round stops the export while its temporary file is in the folder (frozen with SIGSTOP
    // the moment the file shows, signalled, let go): the stop waits until the file is renamed into
    // place, then ends todo as usual (128 + its number).
    var caught = 0
    for _ in 0..<8 {
      try old.write(to: file, atomically: false, encoding: .utf8)
      let run = todo.launch(TodoSandbox.binary!, ["export", "--format", "jsonl", "--output", file.path])
      var sawTemporary = false
      let deadline = Date().addingTimeInterval(30)
      while let process = run.process, process.isRunning, !sawTemporary, Date() < deadline {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        if names.contains(where: { $0.hasSuffix(".tmp") }) {
          // Frozen first, so that the signal surely comes while the file is there.
          kill(process.processIdentifier, SIGSTOP)
          let frozen = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
          sawTemporary = frozen.contains(where: { $0.hasSuffix(".tmp") })
          // Renamed already: let it finish unsignalled.
          if sawTemporary { kill(process.processIdentifier, signal) }
          kill(process.processIdentifier, SIGCONT)
          if !sawTemporary { break }
        }
        usleep(200)
      }
      let result = run.wait()
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["tasks.jsonl"], "a temporary file was left")
      // (Compared first: a failed #expect on two 3 MB values would diff them for ever.)
      let whole = try Data(contentsOf: file) == complete
      if sawTemporary {
        caught += 1
        #expect(result.status == 128 + signal, "\(result)")
        #expect(whole, "the file is not the whole export")
      } else {
        #expect(result.status == 0 && whole, "\(result)")
      }
    }
    #expect(caught >= 2, "the temporary file was seen in only \(caught) of 8 runs")
  }
}
