import Foundation
import Testing

/// A process killed in the middle of a command leaves the database consistent, with the command
/// either fully applied or not at all (DESIGN.md, reliability rules).
@Suite struct EndToEndCrashTests {
  /// Issue 14's figures: a bulk update of 5k tasks, and its undo; each case stopped 10 times.
  static let taskCount = 5000

  /// A database with many pending tasks, written straight with the sqlite3 tool for speed.
  func populated() throws -> TodoSandbox {
    let todo = try TodoSandbox()
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

  @Test func aBulkUpdateKilledAtAnyMomentIsAllOrNothing() throws {
    let todo = try populated()
    var sawNothing = false
    var sawEverything = false
    for attempt in 0..<10 {
      let tag = "bulk\(attempt)"
      let journalBefore = Int(sqlite(todo, "SELECT count(*) FROM journal_entry")) ?? -1
      let run = todo.launch(TodoSandbox.binary!, ["update", "1-\(Self.taskCount)", "+\(tag)"])
      // Kill it at a different moment each time, from its first milliseconds (when it cannot
      // have finished) to around when it commits (a run takes about a second).
      usleep(useconds_t(5_000 + attempt * 150_000))
      if let process = run.process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
      _ = run.wait()
      #expect(sqlite(todo, "PRAGMA integrity_check") == "ok")
      let tagged = Int(sqlite(todo, "SELECT count(*) FROM tag WHERE name = '\(tag)'")) ?? -1
      let journalAfter = Int(sqlite(todo, "SELECT count(*) FROM journal_entry")) ?? -1
      #expect(tagged == 0 || tagged == Self.taskCount, "attempt \(attempt): \(tagged) tasks tagged")
      // The journal entry is there exactly when the change is.
      #expect(journalAfter == journalBefore + (tagged == 0 ? 0 : 1))
      if tagged == 0 { sawNothing = true } else { sawEverything = true }
      // The database still works after the kill.
      #expect(todo("list", "--limit", "1").status == 0)
    }
    // A kill 5 ms after the start always lands before the commit.
    #expect(sawNothing)
    if sawEverything { #expect(todo("undo").status == 0) }
  }

  /// Runs `arguments` and stops it with `signal` after `delays` (µs) each, checking after each
  /// stop that the database is whole and that `state()` is one of the two `allowed` states (the
  /// command not applied, or fully applied). Returns the states seen.
  func stopped(
    _ todo: TodoSandbox, _ arguments: () -> [String], signal: Int32 = SIGKILL, delays: [Int], afterOpen: Bool = true,
    input: String? = nil,
    state: () -> String, allowed: (String) -> Bool, reset: (String) -> Void = { _ in }
  ) -> [String] {
    var seen: [String] = []
    var signalled = 0
    for delay in delays {
      let run = todo.launch(TodoSandbox.binary!, arguments(), stdin: input)
      // The delay counts from when the process has the database open, so that a stop lands in
      // the command, not in its start (a slow machine starts slowly).
      // (A command of a few milliseconds is stopped counting from its launch instead.)
      if afterOpen, let pid = run.process?.processIdentifier {
        for _ in 0..<400 {
          let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
          let files = open.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
          if files.contains(todo.databasePath) || !(run.process?.isRunning ?? false) { break }
          usleep(5_000)
        }
      }
      usleep(useconds_t(delay))
      if let process = run.process, process.isRunning { kill(process.processIdentifier, signal) }
      let result = run.wait()
      #expect(sqlite(todo, "PRAGMA integrity_check") == "ok")
      let now = state()
      #expect(allowed(now), "stopped after \(delay) µs: \(now)")
      if result.status == 128 + signal { signalled += 1 }
      if signal != SIGKILL && result.status != 0 {
        // SIGINT and SIGTERM end todo as they would any program: 130 and 143.
        #expect(result.status == 128 + signal, "\(result)")
      }
      seen.append(now)
      #expect(todo("list", "--limit", "1").status == 0, "the next command works")
      reset(now)
    }
    #expect(signalled > 0, "the signal ended todo at least once (else the test proves nothing)")
    return seen
  }

  @Test func anImportKilledAtAnyMomentIsAllOrNothing() throws {
    let todo = try TodoSandbox()
    todo.add("Before")
    let lines = (1...20_000).map { #"{"uuid":"\#(String(format: "%08x", $0))-1111-4222-8333-444444444444","title":"imported \#($0)","status":"pending","created":"2026-11-20T10:00:00Z","modified":"2026-11-20T10:00:00Z"}"# }
    let file = todo.folder.appendingPathComponent("in.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let seen = stopped(
      todo, { ["import", file.path, "--yes"] }, delays: [3_000, 60_000, 150_000, 300_000, 600_000, 1_000_000, 1_500_000, 2_200_000, 3_000_000, 4_500_000],
      state: { sqlite(todo, "SELECT count(*) || '/' || (SELECT count(*) FROM journal_entry) FROM todo") },
      allowed: { $0 == "1/1" || $0 == "20001/2" },
      reset: { if $0 == "20001/2" { #expect(todo("undo").status == 0) } })
    #expect(seen.first == "1/1")
  }

  @Test func anUndoKilledAtAnyMomentIsAllOrNothing() throws {
    let todo = try populated()
    #expect(todo("update", "1-\(Self.taskCount)", "+marked").status == 0)
    let state = { sqlite(todo, "SELECT count(*) FROM tag WHERE name = 'marked'") }
    let seen = stopped(
      todo, { ["undo"] }, delays: [2_000, 40_000, 80_000, 150_000, 300_000, 450_000, 600_000, 800_000, 1_100_000, 1_500_000], state: state,
      allowed: { $0 == "\(Self.taskCount)" || $0 == "0" },
      reset: { if $0 == "0" { #expect(todo("update", "1-\(Self.taskCount)", "+marked").status == 0) } })
    #expect(seen.first == "\(Self.taskCount)")
  }

  @Test func completingARecurringTaskKilledAtAnyMomentMakesOneNextInstanceOrNone() throws {
    let todo = try TodoSandbox()
    todo.add("Water plants", "due:2026-11-21", "recur:daily")
    // Pending instances of the series, and closed ones: 1/0 before, 1/1 after (the next one).
    let state = {
      sqlite(todo, "SELECT sum(status = 'pending') || '/' || sum(status = 'done') FROM todo WHERE series_id IS NOT NULL")
    }
    let seen = stopped(
      todo, {
        let pending = sqlite(todo, "SELECT id FROM todo WHERE status = 'pending' AND series_id IS NOT NULL")
        return ["done", pending]
      }, delays: [1_000, 3_000, 5_000, 8_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000], afterOpen: false, state: state,
      allowed: { state in
        let parts = state.split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 && parts[0] == 1
      })
    #expect(seen.first == "1/0")
  }

  @Test func sigintAndSigtermRollBackAndExitAsSignalled() throws {
    let todo = try populated()
    for signal in [SIGINT, SIGTERM] {
      var tag = 0
      _ = stopped(
        todo, {
          tag += 1
          return ["update", "1-\(Self.taskCount)", "+s\(signal)x\(tag)"]
        }, signal: signal, delays: [5_000, 50_000, 100_000, 200_000, 300_000, 450_000, 600_000, 800_000, 1_000_000, 1_300_000],
        state: { sqlite(todo, "SELECT count(*) FROM tag WHERE name = 's\(signal)x\(tag)'") },
        allowed: { $0 == "0" || $0 == "\(Self.taskCount)" })
    }
  }
}
