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
        columns: [UIColumn(header: "ID", alignsRight: true), UIColumn(header: "Project", mayDrop: true), UIColumn(header: "Title", isFlexible: true)],
        ids: chosen.map(\.id), title: request.report + (request.filter.isEmpty ? "" : " " + request.filter), emptyMessage: "No matching tasks."))
  }

  func rows(_ ids: [Int64], of snapshot: ListSnapshot) -> [UIRow] {
    rowReads += ids.count
    return ids.compactMap { id in
      tasks.first { $0.id == id }.map { UIRow(id: id, cells: [StyledText(String(id)), StyledText($0.project, style: CellStyle(parameters: "34")), StyledText($0.title)]) }
    }
  }

  func detail(of id: Int64, width: Int) -> [[StyledText]] { [[StyledText("Task \(id)")], [StyledText("  Status  pending")]] }

  func sidebar() -> [SidebarSection] {
    [
      SidebarSection(title: "Contexts", items: [SidebarItem(label: "(none)", action: .command(["context", "none"]))]),
      SidebarSection(title: "Projects", items: [SidebarItem(label: "home", count: 1, action: .filter("project:home"))]),
      SidebarSection(title: "Reports", items: [SidebarItem(label: "list", action: .report("list")), SidebarItem(label: "next", action: .report("next"))]),
    ]
  }

  func activeContext() -> String? { nil }

  func run(_ words: [String], ask: (String) -> Bool) -> CommandOutcome {
    ran.append(words)
    if words.last == "--dry-run" { return CommandOutcome(status: 0, output: "Would complete \(words[1]).\nDry run: nothing was changed.\n", error: "") }
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
    #expect(StyledText.pieces(ofANSI: "a \u{1B}[31mred\u{1B}[0m b") == [StyledText("a "), StyledText("red", style: CellStyle(parameters: "31")), StyledText(" b")])
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
    controller.ask = { asked.append($0); return false }
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
}
