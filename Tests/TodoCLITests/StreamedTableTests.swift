import Testing
import TodoCore
import TodoSystem

@testable import TodoCLI

/// The list table past its window: the layout of the first tasks is kept, and the rest are
/// written as they come, without being held.
@Suite struct StreamedTableTests {
  private func todo(_ id: Int64, _ title: String, tags: [String] = [], project: String? = nil, status: Status = .pending) -> Todo {
    var todo = Todo()
    todo.id = id
    todo.title = title
    todo.tags = tags
    todo.project = project
    todo.status = status
    return todo
  }

  private func draw(_ todos: [Todo], filter: TodoFilter = TodoFilter(), width: Int?, window: Int) -> [String] {
    let output = OutputStream.memory()
    let table = StreamedTaskTable(
      filter: filter, sort: [], text: TaskText(now: 0, color: false), width: width, color: false, output: output,
      window: window)
    for task in todos { table.add(TaskRow(task)) }
    table.finish()
    return TodoRun.lines(of: output.collectedText)
  }

  /// Consecutive rows share a measured project cell only when the bytes are the same: a
  /// decomposed é is printed as stored, not as the previous row's precomposed one.
  @Test func aSharedProjectCellIsOnlyReusedForTheSameBytes() {
    let composed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"
    let lines = draw(
      [todo(1, "a", project: composed), todo(2, "b", project: decomposed), todo(3, "c", project: composed)],
      width: nil, window: 10)
    #expect(lines.count == 4)
    #expect(lines[1].utf8.elementsEqual(" 1  \(composed)     a".utf8) || lines[1].contains(composed))
    #expect(lines[2].utf8.contains(0xCC) && !lines[2].unicodeScalars.contains("\u{E9}"))
    #expect(lines[3].unicodeScalars.contains("\u{E9}"))
  }

  /// A list that fits the window but spans several buffer chunks (256 rows each) is laid out
  /// from all its rows, the widest in the last chunk included, and keeps their order.
  @Test func aListOfSeveralChunksIsLaidOutFromAllItsRows() {
    var tasks = (1...700).map { todo(Int64($0), "Task \($0)") }
    tasks[650].project = "the.widest.project"
    tasks[650].status = .done
    let lines = draw(tasks, width: nil, window: 1000)
    #expect(lines.count == 701)
    // The status and project columns exist only because of row 651, in the third chunk.
    #expect(lines[0] == " ID  Status   Project             Title", "\(lines[0])")
    let titleColumn = lines[0].range(of: "Title")!.lowerBound.utf16Offset(in: lines[0])
    for (index, line) in lines.dropFirst().enumerated() {
      #expect(line.hasSuffix("Task \(index + 1)"), "\(line)")
      #expect(line.range(of: "Task ")!.lowerBound.utf16Offset(in: line) == titleColumn, "\(line)")
    }
    #expect(lines[651].contains("done") && lines[651].contains("the.widest.project"))
  }

  /// Past a window of more than one chunk, the layout comes from every chunk of the window and
  /// the rest are written after it, in order.
  @Test func aWindowOfSeveralChunksFixesTheLayoutThenStreams() {
    var tasks = (1...400).map { todo(Int64($0), "Task \($0)") }
    tasks[289].project = "wide.project.name"
    let lines = draw(tasks, width: nil, window: 300)
    #expect(lines.count == 401)
    let titleColumn = lines[0].range(of: "Title")!.lowerBound.utf16Offset(in: lines[0])
    for (index, line) in lines.dropFirst().enumerated() {
      #expect(line.hasSuffix("Task \(index + 1)"), "\(line)")
      #expect(line.range(of: "Task ")!.lowerBound.utf16Offset(in: line) == titleColumn, "\(line)")
    }
    #expect(lines[290].contains("wide.project.name"))
  }

  @Test func aListThatFitsTheWindowIsLaidOutExactly() {
    let lines = draw([todo(1, "Sweep", tags: ["chore"]), todo(2, "Read")], width: nil, window: 10)
    #expect(lines == ["ID  Tags   Title", " 1  chore  Sweep", " 2         Read"])
  }

  @Test func pastTheWindowEveryColumnIsKeptAndNothingIsCutIntoAPipe() {
    let tasks = [
      todo(1, "Sweep"), todo(2, "Read"),
      todo(3, "Plan the launch", tags: ["averyveryverylongtag"], project: "work.q4"),
    ]
    let lines = draw(tasks, width: nil, window: 2)
    // The layout comes from tasks 1 and 2; the project and tags columns stay (empty so far), the
    // due column takes the widest a due cell can be (`overdue 59min`), and task 3's wider cells
    // push its line rather than being cut.
    let gap = { (count: Int) in String(repeating: " ", count: count) }
    #expect(lines[0] == "ID  Pri  Due" + gap(10 + 2) + "Project  Tags  Title")
    // ID, then Pri (3) Due (13) Project (7) Tags (4), two spaces apart.
    #expect(lines[1] == " 1" + gap(2 + 3 + 2 + 13 + 2 + 7 + 2 + 4 + 2) + "Sweep")
    #expect(lines[3] == " 3" + gap(2 + 3 + 2 + 13 + 2) + "work.q4  averyveryverylongtag  Plan the launch")
  }

  @Test func aListOfExactlyTheWindowIsStillLaidOutExactly() {
    let lines = draw([todo(1, "Sweep", tags: ["chore"]), todo(2, "Read")], width: nil, window: 2)
    #expect(lines == ["ID  Tags   Title", " 1  chore  Sweep", " 2         Read"])
  }

  @Test func pastTheWindowOnATerminalCellsAreCutToTheirColumn() {
    let tasks = [todo(1, "Sweep"), todo(2, "Read"), todo(3, "A title far longer than the terminal is wide")]
    let lines = draw(tasks, width: 30, window: 2)
    #expect(lines.allSatisfy { displayWidth(of: $0) <= 30 }, "\(lines)")
    #expect(lines[3].hasSuffix("…"))
  }

  @Test func theStatusColumnShowsWhenATaskIsClosedOrTheFilterCanSelectClosedTasks() {
    let open = draw([todo(1, "a"), todo(2, "b")], width: nil, window: 10)
    #expect(!open[0].contains("Status"))
    let closed = draw([todo(1, "a"), todo(2, "b", status: .done)], width: nil, window: 10)
    #expect(closed[0].hasPrefix("ID  Status"))
    var all = TodoFilter()
    all.status = .all
    let streamed = draw([todo(1, "a"), todo(2, "b"), todo(3, "c", status: .done)], filter: all, width: nil, window: 2)
    #expect(streamed[0].hasPrefix("ID  Status"))
    #expect(streamed[3].contains("done"))
  }
}

/// One style for relative dates: a day reads the same whether the date is all-day or timed.
@Suite struct RelativeDateTests {
  @Test func aDayReadsTheSameAllDayOrTimed() throws {
    // Wednesday 2026-11-25 10:00 UTC (TZ is UTC in tests).
    let now = Timestamp.parseTaskTime("2026-11-25T10:00:00Z")!
    let text = TaskText(now: now, color: false)
    func both(_ day: String, _ time: String) -> (String, String) {
      let parts = day.split(separator: "-").map { Int($0)! }
      let date = CalendarDay(year: Int64(parts[0]), month: parts[1], day: parts[2])
      return (
        text.relative(.day(date), past: .overdue), text.relative(.instant(Timestamp.parseTaskTime("\(day)T\(time):00Z")!), past: .overdue)
      )
    }
    #expect(both("2026-11-26", "09:00") == ("tomorrow", "tomorrow"))
    #expect(both("2026-11-27", "18:00") == ("fri", "fri"))
    #expect(both("2026-12-04", "08:00") == ("in 9d", "in 9d"))
    #expect(both("2026-11-24", "23:00") == ("overdue 1d", "overdue 1d"))
    #expect(both("2026-11-20", "12:00") == ("overdue 5d", "overdue 5d"))
    // Today, a time says more: soon, later, or past.
    let today = CalendarDay(year: 2026, month: 11, day: 25)
    #expect(text.relative(.day(today), past: .overdue) == "today")
    #expect(text.relative(.instant(now + 2 * 3_600), past: .overdue) == "in 2h")
    #expect(text.relative(.instant(now + 7 * 3_600), past: .overdue) == "17:00")
    #expect(text.relative(.instant(now - 3 * 3_600), past: .overdue) == "overdue 3h")
    #expect(text.relative(.instant(now - 30 * 3_600), past: .ago) == "yesterday")
  }
}
