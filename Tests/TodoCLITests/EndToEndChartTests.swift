import Foundation
import Testing

/// The reports people look at (`calendar`, `agenda`, `burndown`, `summary`, `history`,
/// `ghistory`), run by the real binary on fixed data with a fixed clock: each one's whole
/// output at 40, 80 and 120 columns is compared with its golden file in Fixtures/charts
/// (`TODO_UPDATE_GOLDEN=1` writes them again; read the diff before committing it).
@Suite struct EndToEndChartTests {
  /// Friday 2026-11-27, 11:00 UTC.
  static let now = "2026-11-27T11:00:00Z"

  /// Two months of tasks: projects in a tree, dues and schedules (all-day and timed, past and
  /// ahead), done and deleted ones, one being worked on.
  static func chores() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    todo.environment["TZ"] = "UTC"
    todo.environment["NO_COLOR"] = "1"
    let steps: [(String, [String])] = [
      ("2026-09-14T09:00:00Z", ["add", "Renew passport", "project:home.papers", "due:2026-10-01"]),
      ("2026-09-20T09:00:00Z", ["add", "Fix the fence", "project:home.garden"]),
      ("2026-10-02T09:00:00Z", ["done", "1"]),
      ("2026-10-05T09:00:00Z", ["add", "Pay rent", "project:home", "due:2026-11-20", "+bills"]),
      ("2026-10-12T09:00:00Z", ["add", "Write the report", "project:work", "due:2026-11-27T14:00"]),
      ("2026-10-19T09:00:00Z", ["add", "Standup notes", "project:work", "scheduled:2026-11-27T09:00"]),
      ("2026-10-26T09:00:00Z", ["add", "Buy milk", "due:2026-11-27"]),
      ("2026-11-02T09:00:00Z", ["add", "Plan the trip", "project:travel", "due:2026-12-03", "scheduled:2026-12-01"]),
      ("2026-11-03T09:00:00Z", ["add", "Old idea"]),
      ("2026-11-09T09:00:00Z", ["delete", "8"]),
      ("2026-11-10T09:00:00Z", ["add", "Call the bank", "project:home.papers", "due:2026-11-24T10:00"]),
      ("2026-11-16T09:00:00Z", ["done", "2"]),
      ("2026-11-23T09:00:00Z", ["add", "Book flights", "project:travel", "due:2027-01-15"]),
      ("2026-11-25T09:00:00Z", ["done", "10"]),
      ("2026-11-27T08:00:00Z", ["start", "4"]),
    ]
    for (time, arguments) in steps {
      let run = todo.run(arguments, environment: ["TODO_NOW": time])
      #expect(run.status == 0, "\(run)")
    }
    todo.environment["TODO_NOW"] = now
    return todo
  }

  static let reports: [(name: String, arguments: [String])] = [
    ("calendar", ["calendar", "--details"]), ("agenda", ["agenda"]), ("burndown", ["burndown", "daily"]),
    ("summary", ["summary"]), ("history", ["history", "weekly"]), ("ghistory", ["ghistory"]),
  ]

  @Test func eachReportMatchesItsGoldenOutputAtEachWidth() throws {
    let todo = try Self.chores()
    let folder = try ManPageTests.repositoryRoot().appendingPathComponent("Tests/TodoCLITests/Fixtures/charts")
    let update = ProcessInfo.processInfo.environment["TODO_UPDATE_GOLDEN"] == "1"
    for (name, arguments) in Self.reports {
      for width in [40, 80, 120] {
        let run = todo.run(arguments, environment: ["COLUMNS": String(width)])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        let file = folder.appendingPathComponent("\(name).\(width).txt")
        if update { try run.stdout.write(to: file, atomically: true, encoding: .utf8) }
        let golden = try String(contentsOf: file, encoding: .utf8)
        #expect(run.stdout == golden, "todo \(arguments.joined(separator: " ")) at \(width) columns:\n\(run.stdout)")
        for line in run.lines {
          #expect(line.count <= width, "wider than \(width): \(line)")
        }
      }
    }
  }

  @Test func theNumbersAreTheTasksCounts() throws {
    let todo = try Self.chores()
    // Added: 10 tasks in all; done 3 (passport, fence, flights), deleted 1 (old idea).
    let history = try todo("history", "--json").jsonObject()
    let rows = try #require(history["rows"] as? [[String: Any]])
    #expect(rows.map { $0["start"] as? String } == ["2026-09-01", "2026-10-01", "2026-11-01"])
    #expect(rows.map { $0["added"] as? Int } == [2, 4, 4])
    #expect(rows.map { $0["completed"] as? Int } == [0, 1, 2])
    #expect(rows.map { $0["deleted"] as? Int } == [0, 0, 1])
    #expect(rows.map { $0["net"] as? Int } == [2, 3, 1])
    #expect(try todo("history.annual", "--json").jsonObject()["rows"] as? [[String: Any]] != nil)

    // Summary: home has pay rent, the fence is done, passport done, call the bank pending.
    let summary = try todo("summary", "--json").jsonArray()
    let home = try #require(summary.first { $0["project"] as? String == "home" })
    #expect(home["pending"] as? Int == 2 && home["done"] as? Int == 2 && home["percent_done"] as? Int == 50)
    #expect(summary.map { $0["project"] as? String } == [nil, "home", "home.papers", "travel", "work"])

    // Burndown: at the end of today 6 pending (one of them active), 3 done.
    let burndown = try todo("burndown", "daily", "--json").jsonObject()
    let last = try #require((burndown["rows"] as? [[String: Any]])?.last)
    #expect(last["start"] as? String == "2026-11-27")
    #expect([last["pending"], last["active"], last["done"]].map { $0 as? Int } == [5, 1, 3])

    // Calendar: the 20th and 24th overdue, the 27th due twice and scheduled once.
    let calendar = try todo("calendar", "--json").jsonObject()
    let days = try #require(calendar["days"] as? [[String: Any]])
    let twentySeventh = try #require(days.first { $0["date"] as? String == "2026-11-27" })
    // In time order: the all-day one first.
    #expect(twentySeventh["due"] as? [Int] == [6, 4] && twentySeventh["scheduled"] as? [Int] == [5])
    #expect(days.filter { !(($0["overdue"] as? [Int]) ?? []).isEmpty }.map { $0["date"] as? String } == ["2026-11-20", "2026-11-24"])

    // Agenda: overdue first, then today's timeline; the time worked today is the running start.
    let agenda = try todo("agenda", "day", "--json").jsonObject()
    #expect((agenda["overdue"] as? [[String: Any]])?.map { $0["id"] as? Int } == [3, 9])
    let today = try #require((agenda["days"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
    #expect(today.map { $0["id"] as? Int } == [6, 5, 4])
    #expect(today.map { $0["time"] as? String } == [nil, "09:00", "14:00"])
    #expect(today.last?["active"] as? Bool == true)
    #expect(agenda["worked_today_seconds"] as? Int == 3 * 3600)
  }

  @Test func filtersTheContextAndTaskwarriorsNamesNarrowThem() throws {
    let todo = try Self.chores()
    #expect(try todo("summary", "project:travel", "--json").jsonArray().map { $0["project"] as? String } == ["travel"])
    // A filter before the command, as Taskwarrior reads it, and its dotted names.
    #expect(try todo("project:work", "burndown.daily", "--json").jsonObject()["period"] as? String == "daily")
    let work = try #require(try todo("project:work", "history", "--json").jsonObject()["rows"] as? [[String: Any]])
    #expect(work.map { $0["added"] as? Int } == [2])
    #expect(todo("context", "define", "trip", "project:travel").status == 0)
    #expect(todo("context", "trip").status == 0)
    let agenda = try todo("agenda", "week", "--json").jsonObject()
    #expect((agenda["overdue"] as? [[String: Any]])?.isEmpty == true)
    let days = try #require(agenda["days"] as? [[String: Any]])
    #expect(days.flatMap { ($0["items"] as? [[String: Any]]) ?? [] }.map { $0["id"] as? Int } == [7, 7])
  }

  @Test func wordsItDoesNotReadAreErrorsThatSaySo() throws {
    let todo = try Self.chores()
    let limit = todo("history", "--limit", "3")
    #expect(limit.status == 2)
    #expect(limit.stderr.contains("'todo journal --limit N'"), "\(limit)")
    #expect(todo("journal", "--limit", "1", "--json").jsonArrayCount == 1)
    #expect(todo("calendar", "25").status == 2)
    #expect(todo("agenda", "0").status == 2)
    #expect(todo("burndown", "annual").status == 2)
    let typo = todo("summary", "proj:home")
    #expect(typo.status == 2, "\(typo)")
  }

  @Test func colourAndASCIIKeepTheMarksApart() throws {
    let todo = try Self.chores()
    let coloured = todo("calendar", "1", "--color", "always", environment: ["NO_COLOR": nil, "COLUMNS": "40"])
    #expect(coloured.stdout.contains("\u{1B}[7m27\u{1B}[0m*"), "today inverse, with its mark: \(coloured.stdout)")
    #expect(coloured.stdout.contains("\u{1B}[1;31m20\u{1B}[0m!"), "overdue in color.overdue: \(coloured.stdout)")
    let custom = todo("calendar", "1", "--color", "always", "-c", "color.calendar.today=underline", environment: ["COLUMNS": "40"])
    #expect(custom.stdout.contains("\u{1B}[4m27\u{1B}[0m"), "\(custom.stdout)")
    let ascii = todo("burndown", "--ascii", environment: ["COLUMNS": "40"])
    #expect(ascii.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "\(ascii.stdout)")
    #expect(ascii.stdout.contains("XX") && ascii.stdout.contains(">>") && ascii.stdout.contains("++"), "\(ascii.stdout)")
    let dumb = todo("ghistory", environment: ["TERM": "dumb", "COLUMNS": "40"])
    #expect(dumb.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "\(dumb.stdout)")
  }

  /// The same tasks in the real Taskwarrior (2.6): its `summary` and `history.monthly` count
  /// what ours do (its average age uses its own clock, and counts closed tasks too: left out).
  @Test func taskwarriorCountsTheSameTasksTheSame() throws {
    let todo = try Self.chores()
    let file = todo.folder.appendingPathComponent("tasks.json").path
    #expect(todo("export", "status:all", "--format", "taskwarrior", "--output", file).status == 0)
    let imported = todo.taskwarrior("tw", "import \(file)")
    #expect(imported.status == 0, "\(imported)")
    func rows(_ text: String, skipping: Int) -> [[String]] {
      text.split(separator: "\n").dropFirst(skipping).map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
    }
    // Project, remaining and percent complete of each row.
    let theirs = todo.taskwarrior("tw", "rc.color=off rc.detection=off rc.defaultwidth=120 summary")
    #expect(theirs.status == 0, "\(theirs)")
    let ourSummary = todo("summary", environment: ["COLUMNS": "120"])
    func projects(_ lines: [[String]]) -> [[String]] {
      lines.filter { $0.count >= 4 && $0[3].hasSuffix("%") }.map { [$0[0], $0[1], $0[3]] }
    }
    let theirProjects = projects(rows(theirs.stdout, skipping: 2))
    #expect(theirProjects.count == 5, "\(theirs.stdout)")
    #expect(projects(rows(ourSummary.stdout, skipping: 1)) == theirProjects, "ours:\n\(ourSummary.stdout)\ntheirs:\n\(theirs.stdout)")
    // Added, completed, deleted and net per month.
    let theirHistory = todo.taskwarrior("tw", "rc.color=off rc.detection=off rc.defaultwidth=120 history.monthly")
    #expect(theirHistory.status == 0, "\(theirHistory)")
    let counts = rows(theirHistory.stdout, skipping: 2).filter { $0.count >= 5 }.map { Array($0.suffix(4)) }
    let ours = try #require(try todo("history", "--json").jsonObject()["rows"] as? [[String: Any]])
    let ourCounts = ours.map { row in ["added", "completed", "deleted", "net"].map { String(row[$0] as? Int ?? -1) } }
    #expect(Array(counts.prefix(3)) == ourCounts, "\(theirHistory.stdout)")
  }

  /// A task made at midnight is the new day's; one a second before it, the old day's.
  @Test func anEventAtMidnightIsTheNewDays() throws {
    let todo = try TodoSandbox()
    todo.environment["TZ"] = "UTC"
    for (time, arguments) in [
      ("2026-10-31T23:59:59Z", ["add", "Before"]), ("2026-11-01T00:00:00Z", ["add", "At"]), ("2026-11-02T00:00:00Z", ["done", "1"]),
    ] {
      #expect(todo.run(arguments, environment: ["TODO_NOW": time]).status == 0)
    }
    todo.environment["TODO_NOW"] = "2026-11-02T12:00:00Z"
    let rows = try #require(try todo("history", "daily", "--json").jsonObject()["rows"] as? [[String: Any]])
    #expect(rows.map { $0["start"] as? String } == ["2026-10-31", "2026-11-01", "2026-11-02"])
    #expect(rows.map { [$0["added"], $0["completed"]].map { $0 as? Int } } == [[1, 0], [1, 0], [0, 1]])
    let burndown = try #require(try todo("burndown", "daily", "--json").jsonObject()["rows"] as? [[String: Any]])
    #expect(burndown.map { $0["start"] as? String } == ["2026-10-31", "2026-11-01", "2026-11-02"])
    #expect(burndown.map { [$0["pending"], $0["done"]].map { $0 as? Int } } == [[1, 0], [2, 0], [1, 1]])
  }

  /// An agenda lists the most recent overdue tasks and counts the older ones; JSON has them all.
  @Test func aLongOverdueListIsCountedNotListed() throws {
    let todo = try TodoSandbox()
    todo.environment["TZ"] = "UTC"
    for day in 1...12 {
      let due = "due:2026-10-\(day < 10 ? "0" : "")\(day)"
      #expect(todo.run(["add", "Overdue \(day)", due], environment: ["TODO_NOW": "2026-09-01T09:00:00Z"]).status == 0)
    }
    todo.environment["TODO_NOW"] = Self.now
    let lines = todo("agenda", "day").lines
    #expect(
      lines.prefix(3) == ["Overdue", "  2 more, older (todo list +OVERDUE lists them all)", "  Sat 3 Oct    3  overdue   Overdue 3"], "\(lines)")
    #expect(lines.filter { $0.contains("overdue   Overdue") }.count == 10)
    #expect((try todo("agenda", "day", "--json").jsonObject()["overdue"] as? [[String: Any]])?.count == 12)
  }

  @Test func anEmptyDatabaseSaysThereIsNothing() throws {
    let todo = try TodoSandbox()
    #expect(todo("summary").stdout == "No pending tasks to sum up.\n")
    #expect(todo("history").stdout == "No tasks to count.\n")
    #expect(todo("burndown").stdout.hasPrefix("No tasks to draw"))
    #expect(todo("calendar").status == 0)
    #expect(todo("agenda", "day").status == 0)
  }
}
