import Testing

@testable import TodoUI

/// A backend of fixed tasks: what the controller asks and runs is recorded.
final class FakeBackend: UIBackend {
  var tasks: [(id: Int64, title: String, project: String)]
  var ran: [[String]] = []
  var version: Int64 = 1
  var answers: [Bool] = []
  var questions: [String] = []
  var rowReads = 0

  init(count: Int) {
    tasks = (1...max(1, count)).map { (Int64($0), "Task \($0)", $0 % 2 == 0 ? "home" : "work") }
    if count == 0 { tasks = [] }
  }

  func list(_ request: ListRequest) -> Result<ListSnapshot, UIFailure> {
    if request.filter.hasPrefix("bad") { return .failure(UIFailure("'\(request.filter)' is not a filter")) }
    let chosen = tasks.filter { request.filter.isEmpty || "project:" + $0.project == request.filter }
    return .success(
      ListSnapshot(
        columns: [
          UIColumn(header: "ID", alignsRight: true), UIColumn(header: "Project", mayDrop: true), UIColumn(header: "Title", isFlexible: true),
        ],
        ids: chosen.map(\.id), title: request.report + (request.filter.isEmpty ? "" : " " + request.filter), emptyMessage: "No matching tasks."))
  }

  func rows(_ ids: [Int64], of snapshot: ListSnapshot) -> [UIRow] {
    rowReads += ids.count
    return ids.compactMap { id in
      tasks.first { $0.id == id }.map {
        UIRow(id: id, cells: [StyledText(String(id)), StyledText($0.project, style: CellStyle(parameters: "34")), StyledText($0.title)])
      }
    }
  }

  var detailLines = 2
  var previewFails = false

  func detail(of id: Int64, width: Int) -> [[StyledText]] {
    [[StyledText("Task \(id)")]] + (1..<max(2, detailLines)).map { [StyledText("  Line \($0)")] }
  }

  func sidebar() -> [SidebarSection] {
    [
      SidebarSection(title: "Contexts", items: [SidebarItem(label: "(none)", action: .command(["context", "none"]))]),
      SidebarSection(title: "Projects", items: [SidebarItem(label: "home", count: 1, action: .filter("project:home"))]),
      SidebarSection(
        title: "Reports", items: [SidebarItem(label: "list", action: .report("list")), SidebarItem(label: "next", action: .report("next"))]),
    ]
  }

  func activeContext() -> String? { nil }

  func run(_ words: [String], ask: (String) -> Bool) -> CommandOutcome {
    ran.append(words)
    if words.last == "--dry-run" && previewFails { return CommandOutcome(status: 1, output: "", error: "todo: error: the database is locked\n") }
    if words.last == "--dry-run" {
      return CommandOutcome(status: 0, output: "Would complete \(words[1]).\nDry run: nothing was changed.\n", error: "")
    }
    if words.first == "done", let ids = words.dropFirst().first {
      let done = Set(ids.split(separator: ",").compactMap { Int64($0) })
      tasks.removeAll { done.contains($0.id) }
      version += 1
      return CommandOutcome(status: 0, output: "Completed \(ids).\nProject home is 50% complete.\n", error: "", undoable: true)
    }
    return CommandOutcome(status: 0, output: "", error: "")
  }

  func dataVersion() -> Int64 { version }
  func complete(_ line: String) -> (line: String, candidates: [String]) { (line.hasSuffix("pro") ? line + "ject:" : line, []) }
  func words(of line: String) -> Result<[String], UIFailure> {
    .success(line.split(separator: " ").map(String.init))
  }
}

@Suite struct GridTests {
  @Test func wideCharactersTakeTwoColumnsAndAreNeverSplit() {
    var grid = Grid(width: 7, height: 1)
    let end = grid.put("日本語x", row: 0, column: 0)
    #expect(end == 7)
    #expect(grid.text(ofRow: 0) == "日本語x")
    #expect(grid.rows[0][1].text.isEmpty)  // the second column of 日
    var narrow = Grid(width: 5, height: 1)
    narrow.put("日本語", row: 0, column: 0)
    #expect(narrow.text(ofRow: 0) == "日本 ")  // the third would straddle the edge: left out
  }

  @Test func controlsAreShownNotSentToTheTerminal() {
    var grid = Grid(width: 20, height: 1)
    grid.put("a\u{1B}[2Jb", row: 0, column: 0)
    #expect(!grid.encoded(row: 0, color: true).contains("\u{1B}[2J"))
    #expect(grid.text.hasPrefix(#"a\u{1B}[2Jb"#))
  }

  @Test func withoutColourOnlyTheSelectionKeepsItsReverseVideo() {
    var grid = Grid(width: 6, height: 1)
    grid.put("ab", row: 0, column: 0, style: CellStyle(parameters: "31"))
    grid.paint(row: 0, from: 2, to: 4, style: .reverse)
    #expect(grid.encoded(row: 0, color: false) == "ab\u{1B}[0;7m  \u{1B}[0m  ")
    #expect(grid.encoded(row: 0, color: true).contains("\u{1B}[0;31mab"))
  }

  @Test func theFrameWriterWritesOnlyRowsThatChanged() {
    var writer = FrameWriter(color: true)
    var grid = Grid(width: 10, height: 3)
    grid.put("one", row: 0, column: 0)
    let first = writer.output(for: grid)
    #expect(first.contains("\u{1B}[2J") && first.contains("\u{1B}[3;1H"))
    #expect(writer.output(for: grid) == "")
    grid.put("two", row: 1, column: 0)
    let second = writer.output(for: grid)
    #expect(second.hasPrefix("\u{1B}[2;1H") && !second.contains("\u{1B}[1;1H") && !second.contains("\u{1B}[3;1H"))
  }

  @Test func ansiTextBecomesStyledPieces() {
    #expect(
      StyledText.pieces(ofANSI: "a \u{1B}[31mred\u{1B}[0m b") == [
        StyledText("a "), StyledText("red", style: CellStyle(parameters: "31")), StyledText(" b"),
      ])
  }
}

@Suite struct ScreenRendererTests {
  func controller(count: Int, width: Int = 80, height: Int = 12) -> (UIController, FakeBackend) {
    let backend = FakeBackend(count: count)
    let controller = UIController(backend: backend, keyMap: try! KeyMap(), request: ListRequest(report: "next"))
    controller.size = (width, height)
    controller.load()
    controller.prepareFrame()
    return (controller, backend)
  }

  func screen(_ controller: UIController) -> Grid {
    controller.prepareFrame()
    return ScreenRenderer(keyMap: controller.keyMap).render(controller.state, width: controller.size.width, height: controller.size.height)
  }

  @Test(arguments: [60, 80, 120]) func drawsTheBarTheSidebarTheListAndTheStatusAtEveryWidth(width: Int) {
    let (controller, _) = controller(count: 30, width: width)
    let grid = screen(controller)
    #expect(grid.text(ofRow: 0).hasPrefix(" todo · next"))
    #expect(grid.text(ofRow: 0).contains("30 tasks"))
    #expect(grid.text(ofRow: 1).contains("Contexts"))
    #expect(grid.text(ofRow: 1).contains("ID") && grid.text(ofRow: 1).contains("Title"))
    #expect(grid.text(ofRow: 2).contains("Task 1"))
    // Ten task rows fit between the headings and the status line.
    #expect(grid.text(ofRow: 10).contains("Task 9"))
    #expect(!grid.text.contains("Task 10"))
    // The selection is drawn in reverse video across the list's width.
    let row = grid.rows[2]
    #expect(row[row.count - 1].style.parameters.contains("7"))
    #expect(grid.rows.allSatisfy { $0.count == width })
  }

  @Test func aCursorMoveRewritesTwoRows() {
    let (controller, _) = controller(count: 30)
    var writer = FrameWriter(color: true)
    _ = writer.output(for: screen(controller))
    controller.handle(.character("j"))
    let output = writer.output(for: screen(controller))
    // Two cursor positionings (`ESC [ ROW ;1H`): the row left and the row selected.
    #expect(output.split(separator: "\u{1B}").filter { $0.hasPrefix("[") && $0.contains(";1H") }.count == 2)
  }

  @Test func scrollingReadsOnlyTheRowsOnScreen() {
    let (controller, backend) = controller(count: 100_000)
    #expect(backend.rowReads == 9)
    controller.handle(.character("G"))
    controller.prepareFrame()
    #expect(backend.rowReads == 18)
    #expect(screen(controller).text.contains("Task 100000"))
    #expect(controller.state.rows.count == 9)
  }

  @Test func marksMakeOneCommandAndTheQuestionIsAsked() {
    let (controller, backend) = controller(count: 6)
    controller.handle(.character(" "))
    controller.handle(.character(" "))
    #expect(controller.state.marked == [1, 2])
    #expect(screen(controller).text(ofRow: 2).contains("│*  1"))
    var asked: [String] = []
    controller.ask = {
      asked.append($0); return false
    }
    controller.handle(.character("d"))
    // The question shows the command's own dry run, and a no runs nothing.
    #expect(asked == ["Would complete 1,2.\nComplete 2 tasks? [y/N] "])
    #expect(backend.ran.last == ["done", "1,2", "--dry-run"])
    #expect(controller.state.list.ids.count == 6)
    controller.ask = { _ in true }
    controller.handle(.character("d"))
    #expect(backend.ran.last == ["done", "1,2"])
    #expect(controller.state.list.ids.count == 4)
    #expect(controller.state.marked.isEmpty)
    #expect(controller.state.status == "todo done 1,2 — Completed 1,2. · Project home is 50% complete.")
    #expect(controller.state.statusHint == "u undoes it")
    #expect(screen(controller).text.contains("· u undoes it"))
  }

  @Test func theFilterFollowsTypingAndEscapePutsTheOldOneBack() {
    let (controller, _) = controller(count: 6)
    controller.handle(.character("/"))
    for character in "project:home" { controller.handle(.character(character)) }
    #expect(controller.state.list.ids == [2, 4, 6])
    controller.handle(.escape)
    #expect(controller.state.list.ids.count == 6)
    controller.handle(.character("/"))
    for character in "bad" { controller.handle(.character(character)) }
    controller.handle(.enter)
    #expect(controller.state.statusIsError && controller.state.status.contains("'bad' is not a filter"))
    #expect(controller.state.prompt?.text == "bad")
    controller.handle(.escape)
    #expect(controller.request.filter == "")
    #expect(controller.state.list.ids.count == 6)
  }

  @Test func anotherProcessesChangeKeepsTheSelectionOnItsTask() {
    let (controller, backend) = controller(count: 6)
    controller.handle(.character("j"))
    controller.handle(.character("j"))
    #expect(controller.state.selectedID == 3)
    backend.tasks.removeFirst()
    #expect(!controller.refreshIfChanged())
    backend.version += 1
    #expect(controller.refreshIfChanged())
    #expect(controller.state.selectedID == 3)
    #expect(controller.state.selected == 1)
  }

  @Test func theSidebarChoosesReportsAndProjects() {
    let (controller, backend) = controller(count: 6)
    controller.handle(.character("r"))
    #expect(controller.state.sidebarFocused)
    // On the report shown (next); the one before it is list.
    controller.handle(.character("k"))
    controller.handle(.enter)
    #expect(controller.request.report == "list")
    controller.handle(.tab)
    controller.handle(.character("g"))
    controller.handle(.enter)
    #expect(backend.ran.last == ["context", "none"])
    // A click on the line of the project `home` (row 4: bar, Contexts, (none), Projects, home).
    controller.handle(.mouse(MouseEvent(kind: .press(button: 0), row: 4, column: 3)))
    #expect(controller.request.filter == "project:home")
  }

  @Test func promptsBuildTheCommandTheyRun() {
    let (controller, backend) = controller(count: 3)
    controller.handle(.character("m"))
    #expect(controller.state.prompt?.label == "update 1 ")
    for character in "due:fri" { controller.handle(.character(character)) }
    controller.handle(.enter)
    #expect(backend.ran.last == ["update", "1", "due:fri"])
    controller.handle(.character(":"))
    controller.handle(.paste("list pro"))
    controller.handle(.tab)
    #expect(controller.state.prompt?.text == "list project:")
    controller.handle(.escape)
    #expect(controller.state.prompt == nil)
    controller.handle(.character("q"))
    #expect(controller.wantsToQuit)
  }

  @Test func rebindingAKeyMovesItAndAnUnknownActionIsNamed() throws {
    let map = try KeyMap(bindings: ["done": "D"])
    #expect(map.action(for: .character("D")) == .done)
    #expect(map.action(for: .character("d")) == nil)
    #expect(throws: UIFailure.self) { try KeyMap(bindings: ["dnoe": "D"]) }
    #expect(throws: UIFailure.self) { try KeyMap(bindings: ["done": "Hyper-Q"]) }
  }

  @Test func joiningCharactersInAPromptKeepTheCursorInTheText() {
    let (controller, backend) = controller(count: 2)
    controller.handle(.character("a"))
    // 👍🏽: two scalars typed one after the other become one character; a flag likewise.
    for key: Key in [.character("👍"), .character("🏽"), .character(" "), .character("🇫"), .character("🇷"), .backspace, .character("x")] {
      controller.handle(key)
      let prompt = try! #require(controller.state.prompt)
      #expect(prompt.cursor <= prompt.text.count)
    }
    controller.handle(.control("u"))
    controller.handle(.character("o"))
    controller.handle(.enter)
    #expect(backend.ran.last == ["add", "o"])
  }

  @Test(arguments: [(1, 1), (10, 3), (20, 5), (59, 8), (200, 60)]) func tinyAndHugeScreensDrawWithoutTrapping(size: (Int, Int)) {
    let (controller, _) = controller(count: 40, width: size.0, height: size.1)
    for key: Key in [.enter, .character("J"), .tab, .character("j"), .tab, .character(" "), .character("G"), .character("?")] {
      controller.handle(key)
      let grid = screen(controller)
      #expect(grid.rows.count == size.1 && grid.rows.allSatisfy { $0.count == size.0 })
    }
    controller.handle(.escape)
    controller.handle(.character("/"))
    controller.handle(.paste(String(repeating: "日本", count: 80)))
    #expect(screen(controller).rows.count == size.1)
  }

  @Test func aNarrowScreensSidebarTakesTheWidthWhileItHasTheFocus() {
    let (controller, _) = controller(count: 5, width: 50)
    #expect(!screen(controller).text.contains("Contexts"))
    controller.handle(.tab)
    let grid = screen(controller)
    #expect(grid.text.contains("Contexts") && grid.text.contains("next") && !grid.text.contains("Task 1"))
    controller.handle(.tab)
    #expect(screen(controller).text.contains("Task 1"))
  }

  @Test func aClickChoosesTheSidebarLineDrawnThere() {
    let (controller, backend) = controller(count: 5, width: 80, height: 6)
    // Four rows of sidebar: scrolled to the reports while they have the focus.
    controller.handle(.character("r"))
    let grid = screen(controller)
    let lines = controller.state.sidebarLines(rows: 4)
    let row = try! #require(lines.firstIndex(of: .item(2))) + 1
    #expect(grid.text(ofRow: row).contains("list"))
    controller.handle(.mouse(MouseEvent(kind: .press(button: 0), row: row, column: 2)))
    #expect(controller.request.report == "list")
    #expect(backend.ran.isEmpty)
    // The status line is not a sidebar line.
    controller.handle(.mouse(MouseEvent(kind: .press(button: 0), row: 5, column: 2)))
    #expect(backend.ran.isEmpty)
  }

  @Test func theDetailsScrollAndAChosenReportStartsAtItsTop() {
    let (controller, backend) = controller(count: 5, width: 120, height: 12)
    backend.detailLines = 40
    controller.handle(.character("j"))
    controller.handle(.enter)
    #expect(screen(controller).text.contains("Task 2"))
    controller.handle(.character("J"))
    #expect(controller.state.detailTop > 0)
    // The pane's first row is the line half a pane further down.
    let layout = Layout(width: 120, height: 12, state: controller.state)
    #expect(screen(controller).text(ofRow: layout.detailRow).contains("Line \(controller.state.detailTop) "))
    controller.handle(.character("K"))
    #expect(controller.state.detailTop == 0)
    controller.handle(.character("r"))
    controller.handle(.character("k"))
    controller.handle(.enter)
    #expect(controller.state.selected == 0)
  }

  @Test func marksAreNotChangedWhenTheirPreviewFails() {
    let (controller, backend) = controller(count: 5)
    backend.previewFails = true
    controller.handle(.character(" "))
    controller.handle(.character(" "))
    controller.ask = { _ in true }
    controller.handle(.character("x"))
    #expect(backend.ran == [["delete", "1,2", "--dry-run"]])
    #expect(controller.state.statusIsError && controller.state.status.contains("the database is locked; nothing was changed"))
  }
}
