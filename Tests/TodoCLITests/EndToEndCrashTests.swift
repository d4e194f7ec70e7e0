import Foundation
import Testing

/// A process killed in the middle of a command leaves the database consistent, with the command
/// either fully applied or not at all (DESIGN.md, reliability rules).
@Suite struct EndToEndCrashTests {
  static let taskCount = 1500

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
    for attempt in 0..<8 {
      let tag = "bulk\(attempt)"
      let journalBefore = Int(sqlite(todo, "SELECT count(*) FROM journal_entry")) ?? -1
      let run = todo.launch(TodoSandbox.binary!, ["update", "1-\(Self.taskCount)", "+\(tag)"])
      // Kill it at a different moment each time, from its first milliseconds (when it cannot
      // have finished) to around when it commits (a run takes a few hundred ms).
      usleep(useconds_t(5_000 + attempt * 50_000))
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
}
