import Foundation
import TestSupport
import Testing

/// A process killed in the middle of a command leaves the database consistent, with the command
/// either fully applied or not at all (DESIGN.md, reliability rules).
@Suite struct EndToEndCrashTests {
  /// Issue 14's figures: a bulk update of 5k tasks, and its undo; each case stopped 10 times.
  static let taskCount = 5000

  /// A database with many pending tasks, written straight with the sqlite3 tool for speed.
  func populated() throws -> TodoSandbox {
    let todo = try TodoSandbox(inProcess: false)
    try #require(TodoSandbox.hasTool("sqlite3"), "needs the sqlite3 CLI ('make test' installs it)")
    #expect(todo("add", "first").status == 0)
    let insert = """
      WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.taskCount))
      INSERT INTO todo (id, uuid, title, status, created, modified)
      SELECT i, printf('%08x-0000-4000-8000-%012x', i, i), 'task ' || i, 'pending', 0, 0 FROM n;
      """
    let run = todo.shell("sqlite3 \"$TODO_DB\" \"\(insert)\"")
    try #require(run.status == 0, "\(run)")
    return todo
  }

  func sqlite(_ todo: TodoSandbox, _ sql: String) -> String {
    todo.shell("sqlite3 \"$TODO_DB\" \"\(sql)\"").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The stops each case is tried with: SIGKILL (nothing can be done), and SIGINT and SIGTERM,
  /// which end todo as they end any program (130 and 143, as a shell reports them).
  static let signals: [Int32] = [SIGKILL, SIGINT, SIGTERM]

  /// How many stops must land in each case while the command runs (issue 14: at least 10).
  static let landings = 10

  /// Whether the process has the database open (its start is over, its command under way).
  func hasDatabaseOpen(_ pid: Int32, _ todo: TodoSandbox) -> Bool {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return open.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == todo.databasePath }
  }

  /// Starts `arguments` and returns once the process has the database open (or has ended).
  func launchedAndOpen(_ todo: TodoSandbox, _ arguments: [String]) -> LaunchedRun {
    let run = todo.launch(TodoSandbox.binary!, arguments)
    if let process = run.process {
      for _ in 0..<2_000 where process.isRunning && !hasDatabaseOpen(process.processIdentifier, todo) { usleep(1_000) }
    }
    return run
  }

  /// Stops the command `arguments()` makes with `signal` at random moments until `landings` stops
  /// have landed while it ran (the process ended by the signal), checking after each stop that the
  /// database is whole, that `state()` is one that `allowed` accepts (the command not applied, or
  /// applied in full) and that the next command works; `reset` puts things back after a run that
  /// was applied. The moments are drawn from the time one whole run takes, measured first from
  /// when the process has the database open, so that they fall in the command and not in its start
  /// or after its end. Returns the states seen after the stops that landed.
  func stopped(
    _ todo: TodoSandbox, _ arguments: () -> [String], signal: Int32,
    state: () -> String, allowed: (String) -> Bool, reset: (String) -> Void = { _ in }
  ) -> [String] {
    let seed = UInt64.random(in: 1...UInt64.max)
    var random = SeededGenerator(seed: seed)
    let before = state()
    let wholeRun = launchedAndOpen(todo, arguments())
    let started = Date()
    let whole = wholeRun.wait()
    let duration = Date().timeIntervalSince(started)
    #expect(whole.status == 0, "an unstopped run: \(whole)")
    let applied = state()
    #expect(applied != before && allowed(applied), "an unstopped run changes the state: \(before) -> \(applied)")
    reset(applied)
    var window = max(Int(duration * 1_000_000), 1_000)
    var seen: [String] = []
    var attempts = 0
    while seen.count < Self.landings && attempts < Self.landings * 5 {
      attempts += 1
      let delay = random.next(below: window)
      let run = launchedAndOpen(todo, arguments())
      let opened = Date()
      usleep(useconds_t(delay))
      if let process = run.process, process.isRunning { kill(process.processIdentifier, signal) }
      let result = run.wait()
      let now = state()
      let context = "signal \(signal), \(delay) µs into a \(window) µs run (seed \(seed))"
      #expect(sqlite(todo, "PRAGMA integrity_check") == "ok", "\(context)")
      #expect(allowed(now), "\(context): \(now)")
      // Ended by the signal (as a shell sees it: 128 + its number), or not reached in time.
      #expect(result.status == 128 + signal || result.status == 0, "\(context): \(result)")
      if result.status == 128 + signal {
        seen.append(now)
      } else {
        // Finished before the stop (the measured run was slower than this one, on a loaded
        // machine): draw the next moments from this run's time.
        window = max(1_000, min(window, Int(Date().timeIntervalSince(opened) * 1_000_000)))
      }
      #expect(todo("list", "--limit", "1").status == 0, "the next command works (\(context))")
      reset(now)
    }
    #expect(seen.count >= Self.landings, "\(seen.count) of \(attempts) stops landed in the command (seed \(seed))")
    return seen
  }

  @Test(arguments: signals) func aBulkUpdateStoppedAtAnyMomentIsAllOrNothing(signal: Int32) throws {
    let todo = try populated()
    var tag = 0
    // The tag and the journal entry are there together or not at all.
    let state = {
      sqlite(todo, "SELECT (SELECT count(*) FROM tag WHERE name = 'bulk\(tag)') || '/' || (SELECT count(*) FROM journal_entry)")
    }
    let journalBefore = Int(sqlite(todo, "SELECT count(*) FROM journal_entry")) ?? -1
    let seen = stopped(
      todo,
      {
        tag += 1
        return ["update", "1-\(Self.taskCount)", "+bulk\(tag)"]
      }, signal: signal, state: state,
      allowed: { state in
        let parts = state.split(separator: "/").compactMap { Int($0) }
        return parts == [0, journalBefore] || parts == [Self.taskCount, journalBefore + 1]
      },
      reset: { state in if state.hasPrefix("\(Self.taskCount)/") { #expect(todo("undo").status == 0) } })
    #expect(seen.contains { $0.hasPrefix("0/") }, "some stops landed before the commit")
  }

  @Test(arguments: signals) func anImportStoppedAtAnyMomentIsAllOrNothing(signal: Int32) throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Before")
    let lines = (1...20_000).map {
      #"{"uuid":"\#(String(format: "%08x", $0))-1111-4222-8333-444444444444","title":"imported \#($0)","status":"pending","created":"2026-11-20T10:00:00Z","modified":"2026-11-20T10:00:00Z"}"#
    }
    let file = todo.folder.appendingPathComponent("in.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let seen = stopped(
      todo, { ["import", file.path, "--yes"] }, signal: signal,
      state: { sqlite(todo, "SELECT count(*) || '/' || (SELECT count(*) FROM journal_entry) FROM todo") },
      allowed: { $0 == "1/1" || $0 == "20001/2" },
      reset: { if $0 == "20001/2" { #expect(todo("undo").status == 0) } })
    #expect(seen.contains("1/1"))
  }

  @Test(arguments: signals) func anUndoStoppedAtAnyMomentIsAllOrNothing(signal: Int32) throws {
    let todo = try populated()
    #expect(todo("update", "1-\(Self.taskCount)", "+marked").status == 0)
    // The tag, and the journal entry the undo removes, go together.
    let state = { sqlite(todo, "SELECT (SELECT count(*) FROM tag WHERE name = 'marked') || '/' || (SELECT count(*) FROM journal_entry)") }
    let marked = state()
    let journal = Int(marked.split(separator: "/").last ?? "") ?? -1
    let seen = stopped(
      todo, { ["undo"] }, signal: signal, state: state,
      allowed: { $0 == marked || $0 == "0/\(journal - 1)" },
      reset: { if $0.hasPrefix("0/") { #expect(todo("update", "1-\(Self.taskCount)", "+marked").status == 0) } })
    #expect(seen.contains(marked))
  }

  @Test(arguments: signals) func completingRecurringTasksStoppedAtAnyMomentMakesEachNextInstanceOrNone(signal: Int32) throws {
    let todo = try TodoSandbox(inProcess: false)
    // 2,000 series completed by one command, so that it lasts long enough (~0.2 s) to be stopped in.
    let series = 2_000
    let adds = (1...series).map { "add Water plant \($0) due:2026-11-21 recur:daily\n" }.joined()
    #expect(todo("shell", stdin: adds).status == 0)
    // Pending instances and closed ones: always every series pending once, and closed instances
    // in whole rounds (a round closes one of each and makes the next).
    let state = {
      sqlite(todo, "SELECT sum(status = 'pending') || '/' || sum(status = 'done') FROM todo WHERE series_id IS NOT NULL")
    }
    _ = stopped(
      todo, { ["done", "+RECURRING"] }, signal: signal, state: state,
      allowed: { state in
        let parts = state.split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 && parts[0] == series && parts[1] % series == 0
      })
  }
}
