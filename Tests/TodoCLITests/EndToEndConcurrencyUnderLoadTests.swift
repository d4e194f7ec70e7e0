import Foundation
import Testing

/// Many `todo` processes on one database at once (issue 14): every command succeeds, nobody
/// sees "database is locked", every task is there once, and the journal holds every change.
/// Alone each takes seconds; beside the whole suite on a loaded 2-core machine one took over
/// three minutes, so their limits are only a guard against a hang (10 minutes).
@Suite struct EndToEndConcurrencyUnderLoadTests {
  /// The journal's entries and their changes, and the tasks, read with sqlite3.
  func sqlite(_ todo: TodoSandbox, _ query: String) -> [String] {
    let run = todo.shell("sqlite3 \"$TODO_DB\" \(TodoSandbox.quoted(query))")
    #expect(run.status == 0, "\(run)")
    return run.lines
  }

  @Test(.timeLimit(.minutes(30))) func eightWritersFourReadersAndABulkWriterAtOnce() throws {
    let todo = try TodoSandbox(inProcess: false)
    for index in 1...20 { todo.add("Seed \(index)", "project:bulk") }
    // 8 writers × 100 adds (issue 14's figures), 4 readers looping list and stats while the writers run, and a
    // bulk writer tagging and untagging the seeded tasks: each a shell of its own, started and
    // waited for here, within one deadline for them all.
    func shell(_ script: String) -> LaunchedRun {
      todo.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    }
    let writers = (1...8).map { w in
      shell(
        """
        for i in $(seq 1 100); do "$TODO" add "Task \(w)-$i" +w\(w) > /dev/null || echo "add \(w)-$i failed"; done
        """)
    }
    let readers = (1...4).map { _ in
      shell(
        """
        n=0
        while [ ! -e done ] && [ $n -lt 1000 ]; do
          n=$((n + 1))
          "$TODO" list > /dev/null || echo "list failed"
          "$TODO" stats --json > /dev/null || echo "stats failed"
        done
        """)
    }
    let bulk = shell(
      """
      for i in $(seq 1 10); do
        "$TODO" --yes update --where project:bulk +round$i > /dev/null || echo "bulk $i failed"
        "$TODO" --yes update --where project:bulk -round$i > /dev/null || echo "unbulk $i failed"
      done
      """)
    let deadline = Date().addingTimeInterval(480)
    func left() -> Double { max(1, deadline.timeIntervalSinceNow) }
    let changed = (writers + [bulk]).map { $0.wait(seconds: left()) }
    _ = FileManager.default.createFile(atPath: todo.folder.appendingPathComponent("done").path, contents: nil)
    let read = readers.map { $0.wait(seconds: left()) }
    let runs = changed + read
    let run = TodoRun(
      status: 0, stdoutBytes: Data(runs.map { $0.stdout + $0.stderr }.joined().utf8), stderrBytes: Data(), command: "all")
    for each in runs { #expect(each.status == 0, "\(each)") }
    #expect(run.stdout == "", "failures or messages:\n\(run.stdout.prefix(2000))")
    #expect(!run.stdout.contains("locked"))
    let counts = sqlite(todo, "SELECT count(*), count(DISTINCT id), count(DISTINCT uuid), count(DISTINCT title) FROM todo")
    #expect(counts == ["820|820|820|820"])
    // Every writer's 100 tasks, each once.
    for writer in 1...8 {
      #expect(todo.ids("+w\(writer)").count == 100)
    }
    // The bulk writer's rounds left the seeds as they were: no tag, in the project.
    #expect(sqlite(todo, "SELECT count(*) FROM tag JOIN todo ON todo.id = tag.todo_id WHERE todo.project = 'bulk'") == ["0"])
    // The journal: one entry for each command that changed something, each with its changes.
    let entries = sqlite(todo, "SELECT count(*) FROM journal_entry")
    #expect(entries == ["\(20 + 800 + 20)"])
    #expect(sqlite(todo, "SELECT count(*) FROM journal_entry WHERE id NOT IN (SELECT journal_id FROM journal_change)") == ["0"])
    #expect(sqlite(todo, "PRAGMA integrity_check") == ["ok"])
  }

  @Test(.timeLimit(.minutes(30))) func fourShellsFedByPipesAtOnce() throws {
    let todo = try TodoSandbox(inProcess: false)
    // Each shell adds 100 tasks, reading (list and stats) after every tenth, then changes all of
    // its own at once and lists them: four writers and readers interleaved on one database.
    let shells = (1...4).map { s in
      todo.launch(
        URL(fileURLWithPath: "/bin/sh"),
        [
          "-c",
          """
          ( for i in $(seq 1 100); do
              echo "add Shell \(s) line $i +s\(s)"
              if [ $((i % 10)) = 0 ]; then echo "list +s\(s) --limit 3"; echo "stats"; fi
            done
            echo "update --where +s\(s) pri:H"
            echo "list +s\(s) --jsonl" ) | "$TODO" shell
          """,
        ])
    }
    let results = shells.map { $0.wait(seconds: 480) }
    for result in results {
      #expect(result.status == 0 && result.stderr == "", "\(result)")
      #expect(!result.stdout.contains("locked"))
      let listed = result.stdout.split(separator: "\n").filter { $0.contains("\"title\"") }
      #expect(listed.count == 100 && listed.allSatisfy { $0.contains(#""priority":"H""#) }, "\(result.stdout.suffix(500))")
    }
    #expect(sqlite(todo, "SELECT count(*), count(DISTINCT id), count(DISTINCT uuid), count(DISTINCT title) FROM todo") == ["400|400|400|400"])
    #expect(sqlite(todo, "SELECT count(*) FROM todo WHERE priority = 'H'") == ["400"])
    // One undo step for each add and for each shell's bulk update, each with its changes.
    #expect(sqlite(todo, "SELECT count(*) FROM journal_entry") == ["404"])
    #expect(sqlite(todo, "SELECT count(*) FROM journal_entry WHERE id NOT IN (SELECT journal_id FROM journal_change)") == ["0"])
    #expect(sqlite(todo, "SELECT count(*) FROM journal_change") == ["800"])
    #expect(sqlite(todo, "PRAGMA integrity_check") == ["ok"])
  }
}
