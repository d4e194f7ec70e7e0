import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Safe bulk changes and the fixes from a first week of real use, through the built binary.
/// "Now" is Saturday 2026-11-21 09:30 UTC.
@Suite struct EndToEndBulkSafetyTests {
  /// Three `+chore` tasks and two others.
  private func chores() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    for title in ["Sweep", "Dust", "Mop"] { todo.add(title, "+chore") }
    todo.add("Pay rent", "project:home", "due:2026-11-30")
    todo.add("Read")
    return todo
  }

  // MARK: bulk changes

  @Test func updateWhereWithBareWordsIsAUsageErrorAndRenamesNothing() throws {
    let todo = try chores()
    let before = todo.snapshot()
    let run = todo("update", "--where", "+chore", "2", "pri:L")
    #expect(run.status == 2, "\(run)")
    #expect(
      run.errorLines == [
        "todo: error: the words '2' after --where would become the title of every selected task; put ids before --where, "
          + "quote the whole filter (--where '+chore 2'), or give a new title with --title"
      ])
    #expect(todo.snapshot() == before)
    // The same guard for any selection of more than one task.
    let range = todo("update", "1-2", "New", "title")
    #expect(range.status == 2)
    #expect(range.stderr.contains("would become the title of every task named; to give them all one title, use --title"))
    #expect(todo.snapshot() == before)
    // With --title it is what was meant; one id with words is a rename as always.
    #expect(todo("update", "1,2", "--title", "Clean", "--yes").status == 0)
    #expect(todo("update", "3", "Mop", "the", "floor").status == 0)
    #expect(try todo.task(2)["title"] as? String == "Clean")
    #expect(try todo.task(3)["title"] as? String == "Mop the floor")
  }

  @Test func dryRunShowsTheChangeAndWritesNothing() throws {
    let todo = try chores()
    let before = todo.snapshot()
    let delete = todo("delete", "+chore", "--dry-run")
    #expect(delete.status == 0, "\(delete)")
    #expect(
      delete.lines == [
        "Would delete task 1: Sweep  +chore status:deleted", "Would delete task 2: Dust  +chore status:deleted",
        "Would delete task 3: Mop  +chore status:deleted", "Dry run: nothing was changed.",
      ])
    let json = try todo("done", "1", "--dry-run", "--json").jsonArray()
    #expect(json.count == 1)
    #expect(json[0]["dry_run"] as? Bool == true)
    #expect(json[0]["status"] as? String == "done")
    let added = try todo("add", "New", "--dry-run", "--json").jsonObject()
    #expect(added["dry_run"] as? Bool == true)
    #expect(added["id"] as? Int == 6)
    #expect(todo("update", "4", "pri:H", "--dry-run").stdout.hasPrefix("Would update task 4: Pay rent  project:home pri:H"))
    #expect(todo("note", "4", "text", "--dry-run").status == 0)
    #expect(todo("reopen", "1", "--dry-run").status == 0)
    #expect(todo("undo", "--dry-run").lines.first == "Would undo: add Read  (added task 5)")
    let undo = try todo("undo", "--dry-run", "--json").jsonObject()
    #expect(undo["dry_run"] as? Bool == true)
    #expect(todo.snapshot() == before)
    // Without a database, a dry run creates no file.
    let fresh = try TodoSandbox()
    #expect(fresh("add", "x", "--dry-run").stdout == "Would add task 1: x\nDry run: nothing was changed.\n")
    #expect(!FileManager.default.fileExists(atPath: fresh.databasePath))
  }

  @Test func aDryRunLeavesTheFileAsItWasEvenItsJournalMode() throws {
    let todo = try chores()
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA journal_mode=DELETE;'").status == 0)
    let before = try #require(todo.contents(of: todo.databasePath))
    #expect(todo("add", "x", "--dry-run").status == 0)
    #expect(todo("delete", "+chore", "--dry-run").status == 0)
    #expect(todo.contents(of: todo.databasePath) == before)
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA journal_mode;'").stdout == "delete\n")
    // A real change switches it to WAL as always.
    #expect(todo("add", "x").status == 0)
    #expect(todo.shell("sqlite3 \"$TODO_DB\" 'PRAGMA journal_mode;'").stdout == "wal\n")
  }

  @Test func taskwarriorOrderRunsTheCommandOnTheIds() throws {
    let todo = try chores()
    #expect(todo("1", "done").stdout == "Completed task 1: Sweep  +chore status:done\n")
    #expect(todo("2,3", "delete").lines.last == "Deleted 2 tasks; 'todo undo' reverts them together.")
    #expect(todo("4", "update", "pri:L").stdout.hasPrefix("Updated task 4: Pay rent  project:home pri:L"))
    #expect(todo("5", "show").lines.first == "Task 5: Read")
    #expect(todo("4", "note", "call", "first").status == 0)
    let add = todo("4", "add", "x")
    #expect(add.status == 2)
    #expect(add.errorLines.first == "todo: error: 'add' does not take '4'")
    // Ids followed by other words are still a list filter.
    #expect(todo.ids("status:all", "4", "rent") == [4])
  }

  @Test func taskwarriorWordsSuggestOurCommands() throws {
    let todo = try chores()
    // (modify, info, annotate and information are names of ours now: EndToEndTaskwarriorHabitsTests.)
    let words = [("complete", "done"), ("finish", "done"), ("remove", "delete"), ("version", "--version")]
    for (word, ours) in words {
      for arguments in [[word, "1"], ["1", word]] {
        let run = todo.run(arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.errorLines == ["todo: error: unknown command '\(word)'", "todo: hint: did you mean '\(ours)'?"], "\(run)")
      }
    }
    let execute = todo("1", "execute")
    #expect(
      execute.errorLines.last
        == "todo: hint: todo has no 'execute' command yet: todo runs no commands of its own; use hooks ('todo help hooks'); 'todo help' lists the commands"
    )
    #expect(!execute.stderr.contains("todo add"))
  }

  // MARK: fixes

  @Test func reopenByFilterSelectsDoneAndDeletedTasks() throws {
    let todo = try chores()
    #expect(todo("done", "1").status == 0)
    #expect(todo("delete", "2").status == 0)
    let run = todo("reopen", "+chore")
    #expect(run.status == 0, "\(run)")
    #expect(run.lines == ["Reopened task 1: Sweep  +chore", "Reopened task 2: Dust  +chore", "Reopened 2 tasks; 'todo undo' reverts them together."])
    #expect(todo("reopen", "+chore").status == 1)  // nothing closed left to reopen
  }

  @Test func repeatedNotesAreAllKeptAndFieldsGivenTwiceAreRefused() throws {
    let todo = try TodoSandbox()
    let task = try todo("add", "Plan", "--note", "first", "--note", "second", "--json").jsonObject()
    #expect((task["notes"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["first", "second"])
    let twice: [([String], String)] = [
      (["add", "x", "pri:H", "pri:L"], "todo: error: the priority is given twice ('pri:H' and 'pri:L'); give it once"),
      (["add", "x", "due:today", "--due", "tomorrow"], "todo: error: the due date is given twice ('due:today' and '--due tomorrow'); give it once"),
      (["add", "x", "project:a", "project:b"], "todo: error: the project is given twice ('project:a' and 'project:b'); give it once"),
      (["update", "1", "--title", "a", "--title", "b"], "todo: error: the title is given twice ('--title a' and '--title b'); give it once"),
      (["update", "1", "words", "--title", "b"], "todo: error: the title is given twice (--title and the words 'words'); give it once"),
      (["update", "1", "+a", "-a"], "todo: error: tag 'a' is both added (+a) and removed (-a); give one of them"),
    ]
    let before = todo.snapshot()
    for (arguments, message) in twice {
      let run = todo.run(arguments)
      #expect(run.status == 2, "\(run)")
      #expect(run.errorLines == [message], "\(run)")
    }
    #expect(todo.snapshot() == before)
  }

  @Test func tablesNeverExceedTheWidthAndAPipeCutsNothing() throws {
    let todo = try chores()
    let long = String(repeating: "verylongtag", count: 5)
    todo.add("A task with a rather long title that goes on", "+" + long, "project:work.q4", "pri:H", "due:friday")
    for width in [100, 60, 40, 30, 20] {
      let run = todo("list", environment: ["COLUMNS": String(width)])
      #expect(run.status == 0)
      for line in run.lines { #expect(line.count <= width, "COLUMNS=\(width): \(line)") }
      #expect(run.lines.contains { $0.contains("Sweep") })
    }
    #expect(todo("list", environment: ["COLUMNS": "40"]).lines[0] == "ID  Pri  Due    Project  Title")
    // Into a pipe with COLUMNS unset: whole titles and tags, like ls and git.
    let piped = todo("list", environment: ["COLUMNS": nil])
    #expect(piped.stdout.contains("A task with a rather long title that goes on"))
    #expect(piped.stdout.contains(long))
  }

  @Test func undatedTasksComeLastUnderEverySortAndTiesBreakById() throws {
    let todo = try TodoSandbox()
    todo.add("b undated", "project:p")
    todo.add("a dated", "project:p", "due:2026-12-01")
    todo.add("c dated", "project:p", "due:2026-11-25")
    todo.add("d undated", "project:p")
    #expect(todo.ids("--sort", "project") == [3, 2, 1, 4])
    #expect(todo.ids("--sort", "-project") == [3, 2, 1, 4])
    #expect(todo.ids("--sort", "priority") == [3, 2, 1, 4])
    #expect(todo.ids("--sort", "-due") == [2, 3, 1, 4])
  }

  @Test func aDoneOrDeletedTaskIsNeverOverdue() throws {
    let todo = try TodoSandbox()
    todo.add("Late and open", "due:2026-11-20")
    todo.add("Late and done", "due:2026-11-20")
    todo.add("Late and deleted", "due:2026-11-20")
    #expect(todo("done", "2").status == 0)
    #expect(todo("delete", "3").status == 0)
    #expect(todo.ids("status:all", "overdue") == [1])
    let table = todo("list", "status:all", "--sort", "id")
    #expect(
      table.lines == [
        "ID  Status   Due         Title", " 1  pending  overdue 1d  Late and open", " 2  done     yesterday   Late and done",
        " 3  deleted  yesterday   Late and deleted",
      ])
    let completed = todo("list", "status:done", "--sort", "-completed")
    #expect(completed.lines == ["ID  Status  Due        Completed  Title", " 2  done    yesterday  now        Late and done"])
  }

  @Test func limitsAndHistoryLimitsOfZeroAreUsageErrors() throws {
    let todo = try chores()
    let list = todo("list", "--limit", "0")
    #expect(list.status == 2)
    #expect(list.errorLines == ["todo: error: bad value '0' for --limit: expected a whole number ≥ 1"])
    #expect(todo("journal", "--limit", "0").status == 2)
  }

  @Test func aFailingCommandCreatesNoDatabaseFileOrFolder() throws {
    let todo = try TodoSandbox()
    let dataHome = todo.folder.appendingPathComponent("data").path
    let environment: [String: String?] = ["TODO_DB": nil, "XDG_DATA_HOME": dataHome]
    for arguments in [["undo"], ["done", "1"], ["delete", "+x"], ["note", "1", "hi"], ["update", "1", "pri:H"]] {
      let run = todo.run(arguments, environment: environment)
      #expect(run.status == 1, "\(run)")
      #expect(!FileManager.default.fileExists(atPath: dataHome), "\(arguments) created \(dataHome)")
    }
    #expect(todo("undo").status == 1)
    #expect(!FileManager.default.fileExists(atPath: todo.databasePath))
    // A command that succeeds creates it as before.
    #expect(todo.run(["add", "x"], environment: environment).status == 0)
    #expect(FileManager.default.fileExists(atPath: dataHome + "/todo/todo.db"))
  }

  @Test func aDirectoryAsTheDatabaseSaysSo() throws {
    let todo = try TodoSandbox()
    let run = todo("--db", todo.folder.path, "list")
    #expect(run.status == 1)
    #expect(
      run.errorLines == [
        "todo: error: cannot use the database \(todo.folder.path): it is a directory; give a file path",
        "todo: hint: for example --db \(todo.folder.path)/todo.db, or set TODO_DB to a file's path",
      ])
  }

  @Test func searchFoldsCaseInEveryScriptAndMatchesEitherUnicodeForm() throws {
    let todo = try TodoSandbox()
    todo.add("Café au lait")
    todo.add("cafe\u{301} crème")  // decomposed é
    todo.add("ΣΟΦΙΑ")
    todo.add("Tea", "--note", "CRÈME brûlée")
    todo.add("ΟΔΥΣΣΕΑΣ")
    todo.add("İstanbul trip")
    todo.add("Große Straße")
    #expect(todo.ids("CAFÉ") == [1, 2])
    #expect(todo.ids("οδυσσεας") == [5], "final sigma")
    #expect(todo.ids("ΟΔΥΣΣΕΑΣ") == [5])
    #expect(todo.ids("istanbul") == [6], "dotted capital I")
    #expect(todo.ids("strasse") == [7], "sharp s")
    #expect(todo.ids("cafe\u{301}") == [1, 2])
    #expect(todo.ids("σοφια") == [3])
    #expect(todo.ids("crème") == [2, 4])
    #expect(todo.ids("50%") == [])
  }

  @Test func aTagOrProjectInTheWrongCaseSaysWhichExists() throws {
    let todo = try TodoSandbox()
    todo.add("Sweep", "+chore", "project:Home.garden")
    let tag = todo("list", "+Chore")
    #expect(tag.stdout == "No matching tasks.\n")
    #expect(tag.errorLines == ["todo: warning: no tag +Chore; did you mean +chore?"])
    let project = todo("list", "project:home")
    #expect(project.errorLines == ["todo: warning: no project home; did you mean project:Home?"])
    #expect(todo("list", "+chore").stderr == "")
    #expect(todo("list", "project:Home").stderr == "")
    // A task listed does not settle a tag left out, or one of several projects: still checked.
    let excluded = todo("list", "-Chore")
    #expect(excluded.stdout.contains("Sweep"))
    #expect(excluded.errorLines == ["todo: warning: no tag +Chore; did you mean +chore?"])
    let either = todo("list", "project:Home,home")
    #expect(either.stdout.contains("Sweep"))
    #expect(either.errorLines == ["todo: warning: no project home; did you mean project:Home?"])
    todo.add("Nap")
    let orNone = todo("list", "project:home", "or", "project:")
    #expect(orNone.stdout.contains("Nap"))
    #expect(orNone.errorLines == ["todo: warning: no project home; did you mean project:Home?"])
    let json = todo("list", "+Chore", "--json")
    #expect(json.stdout == "[]\n")
    #expect(json.errorLines == [#"{"warning":"no tag +Chore; did you mean +chore?"}"#])
  }

  @Test func wordsCloseToAKeyKeepTheirMeaningButWarn() throws {
    let todo = try TodoSandbox()
    let add = todo("add", "fix", "proj:x")
    #expect(add.status == 0)
    #expect(add.stdout == "Added task 1: fix proj:x\n")
    #expect(add.errorLines == ["todo: warning: 'proj:x' is not an attribute, so it was read as title text; did you mean 'project:x'?"])
    // In a filter, a bare word close to a term may be text: it warns.
    let bare = todo("list", "overdu")
    #expect(bare.stdout == "No matching tasks.\n", "\(bare)")
    #expect(bare.errorLines == ["todo: warning: 'overdu' is not a filter term, so it was read as a search word; did you mean 'overdue'?"])
    // A mistyped key is an error that names it, where it is, and what was meant.
    let key = todo("list", "+x", "p:H")
    #expect(key.status == 2)
    #expect(
      key.errorLines == [
        "todo: error: filter: unknown attribute 'p' at word 3; did you mean 'pri'? (pri:H; put -- before the word to search for it as text)"
      ])
    #expect(todo("list", "--", "p:H").status == 0)
    // A known key with a mistyped modifier is an attribute for sure: an error that says which.
    let modifier = todo("list", "due.befor:fri")
    #expect(modifier.status == 2)
    #expect(modifier.errorLines == ["todo: error: filter: unknown attribute 'due.befor' at word 2; did you mean 'due.before:'?"])
    // Ordinary text is not warned about.
    #expect(todo("add", "re:", "rent", "at", "10:30", "see", "http://x.org").stderr == "")
    let date = todo("add", "fix", "the", "due:date", "parser")
    #expect(date.status == 2)
    #expect(date.errorLines.last?.contains("put -- before the words: todo add -- fix the due:date parser") == true, "\(date)")
  }

  @Test func minutesAreMinAndABareMIsRefused() throws {
    let todo = try TodoSandbox()
    let bare = todo("add", "x", "due:30m")
    #expect(bare.status == 2)
    #expect(bare.errorLines.first == "todo: error: cannot read the date '30m': 'm' could be minutes or months: use min (30min) or mo (2mo)")
    todo.add("Soon", "due:30min")
    #expect(todo("list").lines.last == " 1  in 30min  Soon")
    #expect(todo("date", "2mo").stdout.hasPrefix("2027-01-21 09:30 UTC"))
  }

  @Test func showTakesSeveralTasks() throws {
    let todo = try chores()
    let run = todo("show", "1", "3")
    #expect(run.status == 0)
    #expect(run.lines.filter { $0.hasPrefix("Task ") } == ["Task 1: Sweep", "Task 3: Mop"])
    #expect(try todo("show", "1", "3", "--json").jsonArray().map { $0["id"] as? Int } == [1, 3])
    #expect(try todo("show", "2-3", "--json").jsonArray().count == 2)
    #expect(try todo("show", "2", "--json").jsonObject()["id"] as? Int == 2)
  }

  @Test func coloursTellOverdueTodayAndPrioritiesApart() throws {
    let todo = try TodoSandbox()
    todo.add("Late", "due:2026-11-20", "pri:H")
    todo.add("Today", "due:2026-11-21T18:00", "pri:M")
    todo.add("Later", "due:2026-12-20", "pri:L")
    let run = todo("list", "--color", "always")
    let lines = run.lines
    #expect(lines[1].contains("\u{1B}[1;31moverdue 1d\u{1B}[0m"), "\(lines)")
    #expect(lines[1].contains("\u{1B}[1mH\u{1B}[0m"))
    #expect(lines[2].contains("\u{1B}[33m18:00\u{1B}[0m"))  // later today: the time of day
    #expect(lines[2].contains("  M  "))
    #expect(lines[3].contains("\u{1B}[2mL\u{1B}[0m"))
    // TERM=dumb (like NO_COLOR) matters only on a terminal: OutputTests.colorDecisionTruthTable.
  }

  @Test func statsAndHistoryJSONKeysSayWhatTheyMean() throws {
    let todo = try chores()
    let stats = try todo("stats", "--json").jsonObject()
    #expect(stats["due_next_7_days"] as? Int == 0)
    #expect(stats["completed_last_7_days"] as? Int == 0)
    #expect(stats["due_this_week"] == nil)
    // `tasks` is an array of task objects wherever it appears; a count is `task_count`.
    let history = try todo("journal", "--json").jsonArray()
    #expect(history.allSatisfy { $0["task_count"] is Int && $0["tasks"] == nil })
    let undo = try todo("undo", "--json").jsonObject()
    #expect(undo["tasks"] is [Any])
    #expect((undo["undone"] as? [String: Any])?["task_count"] as? Int == 1)
  }
}
