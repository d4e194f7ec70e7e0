/// The interface's behaviour without a terminal: keys in, a view state out, commands run through
/// the backend. `TerminalApp` feeds it keys and draws its state; tests drive it directly.
public final class UIController {
  public let backend: any UIBackend
  public let keyMap: KeyMap
  public private(set) var state = ViewState()
  public private(set) var request: ListRequest
  /// Set by `quit`.
  public private(set) var wantsToQuit = false
  /// The screen's size, for paging and for the detail pane's width.
  public var size: (width: Int, height: Int) = (80, 24)
  /// Called to run a command that needs the terminal (`$EDITOR`): the terminal front end
  /// suspends the screen around it. Tests leave it as is.
  public var aroundTerminalCommand: (() -> CommandOutcome) -> CommandOutcome = { $0() }
  /// Asks a yes/no question on screen; the terminal front end sets it (tests answer directly).
  public var ask: (String) -> Bool = { _ in false }
  private var lastDataVersion: Int64 = 0

  public init(backend: any UIBackend, keyMap: KeyMap, request: ListRequest) {
    self.backend = backend
    self.keyMap = keyMap
    self.request = request
  }

  private var layout: Layout { Layout(width: size.width, height: size.height, state: state) }

  /// Reads everything the screen shows. Returns false (with the reason on the status line) when
  /// the list cannot be read.
  @discardableResult
  public func load() -> Bool {
    lastDataVersion = backend.dataVersion()
    state.context = backend.activeContext()
    refreshSidebar()
    return reloadList(keeping: state.selectedID)
  }

  /// Reads the sidebar, marking the report and filter shown as current.
  private func refreshSidebar() {
    state.sidebar = backend.sidebar().map { section in
      var section = section
      for index in section.items.indices {
        switch section.items[index].action {
        case .report(let name): section.items[index].isCurrent = name == request.report
        case .filter(let filter): section.items[index].isCurrent = filter == request.filter
        case .command: break
        }
      }
      return section
    }
  }

  /// Reads the list again, keeping the selection on the same task where it still shows.
  @discardableResult
  func reloadList(keeping id: Int64?, read: Result<ListSnapshot, UIFailure>? = nil) -> Bool {
    switch read ?? backend.list(request) {
    case .failure(let failure):
      setError(failure.message)
      return false
    case .success(let snapshot):
      state.list = snapshot
      state.rows = [:]
      let present = Set(snapshot.ids)
      state.marked.formIntersection(present)
      if let id, let index = snapshot.ids.firstIndex(of: id) {
        state.selected = index
      } else {
        state.selected = min(state.selected, max(0, snapshot.ids.count - 1))
      }
      scrollToSelection()
      return true
    }
  }

  /// Another process changed the database: read it again.
  public func refreshIfChanged() -> Bool {
    let version = backend.dataVersion()
    guard version != lastDataVersion else { return false }
    load()
    return true
  }

  /// Shows on the status line the reminders whose time has come (with `terminal` in
  /// `remind.notify`); true when there was one.
  @discardableResult
  public func showDueReminders() -> Bool {
    let lines = backend.dueReminders()
    guard !lines.isEmpty else { return false }
    setStatus(lines.joined(separator: " · "))
    return true
  }

  /// Makes sure the rows on screen are read, and the detail pane is up to date.
  public func prepareFrame() {
    let layout = self.layout
    let visible = state.top..<min(state.list.ids.count, state.top + max(1, layout.listRows))
    let missing = visible.map { state.list.ids[$0] }.filter { state.rows[$0] == nil }
    if !missing.isEmpty {
      // Keep only what is on screen (and what was just read): memory stays flat however far one scrolls.
      let keep = Set(visible.map { state.list.ids[$0] })
      state.rows = state.rows.filter { keep.contains($0.key) }
      for row in backend.rows(missing, of: state.list) { state.rows[row.id] = row }
    }
  }

  private func scrollToSelection() {
    let rows = max(1, layout.listRows)
    if state.selected < state.top { state.top = state.selected }
    if state.selected >= state.top + rows { state.top = state.selected - rows + 1 }
    state.top = max(0, min(state.top, max(0, state.list.ids.count - rows)))
    if state.showsDetail { loadDetail() }
  }

  private func loadDetail() {
    state.detailTop = 0
    guard let id = state.selectedID else {
      state.detail = []
      return
    }
    state.detail = backend.detail(of: id, width: max(20, layout.detailWidth - 1))
  }

  private func select(_ index: Int) {
    guard !state.list.ids.isEmpty else { return }
    let old = state.selected
    state.selected = max(0, min(state.list.ids.count - 1, index))
    if old != state.selected || state.showsDetail { scrollToSelection() }
  }

  func setStatus(_ text: String) {
    state.status = text
    state.statusHint = ""
    state.statusIsError = false
  }

  func setError(_ text: String) {
    state.status = text
    state.statusHint = ""
    state.statusIsError = true
  }

  // MARK: - Keys

  /// Handles one key.
  public func handle(_ key: Key) {
    if state.overlay != nil { return handleOverlay(key) }
    if state.prompt != nil { return handlePrompt(key) }
    if case .mouse(let event) = key { return handleMouse(event) }
    if state.sidebarFocused, handleSidebar(key) { return }
    guard let action = keyMap.action(for: key) else {
      if case .escape = key { state.marked = [] }
      return
    }
    perform(action)
  }

  public func perform(_ action: UIAction) {
    let page = max(1, layout.listRows - 1)
    switch action {
    case .down: select(state.selected + 1)
    case .up: select(state.selected - 1)
    case .top: select(0)
    case .bottom: select(state.list.ids.count - 1)
    case .pageDown: select(state.selected + page)
    case .pageUp: select(state.selected - page)
    case .detail:
      state.showsDetail.toggle()
      if state.showsDetail { loadDetail() }
      scrollToSelection()
    case .detailDown, .detailUp:
      guard state.showsDetail else { return }
      let step = max(1, layout.detailRows / 2)
      let last = max(0, state.detail.count - layout.detailRows)
      state.detailTop = max(0, min(last, state.detailTop + (action == .detailDown ? step : -step)))
    case .sidebar:
      state.showsSidebar.toggle()
      if !state.showsSidebar { state.sidebarFocused = false }
    case .focus:
      state.showsSidebar = true
      state.sidebarFocused.toggle()
    case .report: focusSidebar(section: "Reports")
    case .context: focusSidebar(section: "Contexts")
    case .tree:
      request.tree.toggle()
      reloadList(keeping: state.selectedID)
      setStatus(request.tree ? "Subtasks under their parents (t: as the report orders them)" : "As the report orders them")
    case .mark:
      guard let id = state.selectedID else { return }
      if state.marked.remove(id) == nil { state.marked.insert(id) }
      select(state.selected + 1)
    case .add: state.prompt = Prompt(label: "add ", purpose: .command(["add"]))
    case .modify:
      guard let ids = targetIDs() else { return }
      state.prompt = Prompt(label: "update \(ids) ", purpose: .command(["update", ids]))
    case .note:
      guard let id = state.selectedID else { return }
      state.prompt = Prompt(label: "note \(id) ", purpose: .command(["note", String(id)]))
    case .filter:
      state.prompt = Prompt(label: "filter: ", text: request.filter, purpose: .filter(previous: request.filter))
    case .command: state.prompt = Prompt(label: ":", purpose: .commandLine)
    case .done: if let ids = targetIDs() { runAskingForMarks(["done", ids], verb: "Complete") }
    case .delete: if let ids = targetIDs() { runAskingForMarks(["delete", ids], verb: "Delete") }
    case .start:
      guard let id = state.selectedID else { return }
      // The rows are read again after each command: read this one before deciding.
      if state.rows[id] == nil { prepareFrame() }
      run([state.rows[id]?.isActive == true ? "stop" : "start", String(id)])
    case .edit:
      guard let id = state.selectedID else { return }
      run(["edit", String(id)], needsTerminal: true)
    case .undo: run(["undo"])
    case .quit: wantsToQuit = true
    case .redraw: load()
    case .help: showHelp()
    }
  }

  /// An action on several marked tasks: the command's own `--dry-run` shows what it would do,
  /// and it runs only after a yes (a task named by id alone never asks on the command line, but
  /// marks are made in passing, a screen at a time).
  private func runAskingForMarks(_ words: [String], verb: String) {
    guard state.marked.count > 1 else { return run(words) }
    let preview = backend.run(words + ["--dry-run"], ask: { _ in false })
    guard preview.status == 0 else {
      // What cannot be previewed is not done.
      let reason = preview.error.split(separator: "\n").first.map { String($0.trimmingPrefix("todo: error: ")) } ?? "failed"
      return setError("todo \(words.joined(separator: " ")) --dry-run: \(reason); nothing was changed")
    }
    let lines = preview.output.split(separator: "\n").filter { !$0.hasPrefix("Dry run") }.map(String.init)
    guard ask((lines + ["\(verb) \(state.marked.count) tasks? [y/N] "]).joined(separator: "\n")) else {
      return setStatus("todo \(words.joined(separator: " ")): not done; nothing was changed")
    }
    run(words)
  }

  /// The marked tasks (`3,7,9`), or the selected one; nil with an empty list.
  private func targetIDs() -> String? {
    if !state.marked.isEmpty { return state.marked.sorted().map(String.init).joined(separator: ",") }
    return state.selectedID.map(String.init)
  }

  private func showHelp() {
    var lines: [[StyledText]] = UIAction.allCases.map { action in
      let keys = keyMap.keyNames(of: action)
      return [StyledText(keys + String(repeating: " ", count: max(1, 14 - keys.count)), style: .bold), StyledText(action.summary)]
    }
    lines.append([])
    lines.append([StyledText("Mouse: a click selects, the wheel scrolls. In a prompt: Tab completes, Esc cancels.")])
    lines.append([StyledText("Keys are set with: todo config set ui.key.ACTION KEY (for example ui.key.done D).")])
    state.overlay = Overlay(kind: .help, title: "Keys (any key closes this)", lines: lines)
  }

  private func focusSidebar(section title: String) {
    state.showsSidebar = true
    state.sidebarFocused = true
    var index = 0
    for section in state.sidebar {
      if section.title == title {
        let current = section.items.firstIndex(where: \.isCurrent) ?? 0
        state.sidebarSelected = index + current
        return
      }
      index += section.items.count
    }
  }

  /// Keys while the sidebar has the focus: moving and choosing; false for keys it leaves to the list.
  private func handleSidebar(_ key: Key) -> Bool {
    let items = state.sidebarItems
    let action = keyMap.action(for: key)
    switch (key, action) {
    case (_, .down): state.sidebarSelected = min(items.count - 1, state.sidebarSelected + 1)
    case (_, .up): state.sidebarSelected = max(0, state.sidebarSelected - 1)
    case (_, .top): state.sidebarSelected = 0
    case (_, .bottom): state.sidebarSelected = max(0, items.count - 1)
    case (.enter, _):
      guard items.indices.contains(state.sidebarSelected) else { return true }
      choose(items[state.sidebarSelected])
      state.sidebarFocused = false
    case (.escape, _): state.sidebarFocused = false
    default: return false
    }
    return true
  }

  private func choose(_ item: SidebarItem) {
    switch item.action {
    case .report(let name):
      request.report = name
      request.filter = ""
      state.selected = 0
      state.top = 0
      refreshSidebar()
      if reloadList(keeping: nil) { setStatus("todo \(name)") }
    case .filter(let filter):
      request.filter = filter
      state.selected = 0
      state.top = 0
      if reloadList(keeping: nil) { setStatus("todo \(request.report) \(filter)") }
      refreshSidebar()
    case .command(let words):
      run(words)
    }
  }

  private func handleMouse(_ event: MouseEvent) {
    let layout = self.layout
    switch event.kind {
    case .wheelDown: select(state.selected + 3)
    case .wheelUp: select(state.selected - 3)
    case .release: break
    case .press:
      if event.column < layout.sidebarWidth {
        let lines = state.sidebarLines(rows: max(0, size.height - 2))
        let line = event.row - 1
        guard lines.indices.contains(line), case .item(let index) = lines[line] else { return }
        state.sidebarSelected = index
        choose(state.sidebarItems[index])
        state.sidebarFocused = false
      } else if event.column >= layout.listColumn, event.column < layout.listColumn + layout.listWidth,
        event.row >= layout.listFirstRow, event.row < layout.listFirstRow + layout.listRows
      {
        state.sidebarFocused = false
        select(state.top + event.row - layout.listFirstRow)
      }
    }
  }

  private func handleOverlay(_ key: Key) {
    guard let overlay = state.overlay else { return }
    let room = max(1, size.height - 3)
    switch key {
    case .down, .character("j"): state.overlay?.top = min(max(0, overlay.lines.count - room), overlay.top + 1)
    case .up, .character("k"): state.overlay?.top = max(0, overlay.top - 1)
    case .pageDown, .character(" "): state.overlay?.top = min(max(0, overlay.lines.count - room), overlay.top + room)
    case .pageUp: state.overlay?.top = max(0, overlay.top - room)
    default: state.overlay = nil
    }
  }

  // MARK: - Prompt

  private func handlePrompt(_ key: Key) {
    guard var prompt = state.prompt else { return }
    var characters = Array(prompt.text)
    prompt.cursor = min(max(0, prompt.cursor), characters.count)
    switch key {
    case .character(let character):
      characters.insert(character, at: prompt.cursor)
      prompt.cursor += 1
    case .paste(let text):
      let clean = text.filter { $0 != "\n" && $0 != "\r" }
      characters.insert(contentsOf: clean, at: prompt.cursor)
      prompt.cursor += clean.count
    case .backspace:
      guard prompt.cursor > 0 else { break }
      characters.remove(at: prompt.cursor - 1)
      prompt.cursor -= 1
    case .delete:
      if prompt.cursor < characters.count { characters.remove(at: prompt.cursor) }
    case .left: prompt.cursor = max(0, prompt.cursor - 1)
    case .right: prompt.cursor = min(characters.count, prompt.cursor + 1)
    case .home, .control("a"): prompt.cursor = 0
    case .end, .control("e"): prompt.cursor = characters.count
    case .control("u"):
      characters.removeFirst(prompt.cursor)
      prompt.cursor = 0
    case .tab:
      complete(&prompt)
      state.prompt = prompt
      return
    case .escape, .control("c"), .control("g"):
      state.prompt = nil
      if case .filter(let previous) = prompt.purpose, request.filter != previous {
        request.filter = previous
        reloadList(keeping: state.selectedID)
      }
      setStatus("")
      return
    case .enter:
      state.prompt = nil
      submit(prompt)
      return
    default:
      return
    }
    // Characters typed one scalar at a time may join (a flag, a skin tone, an accent): count
    // the cursor again in the text as it reads now.
    let text = String(characters)
    prompt.cursor = min(String(characters[..<min(prompt.cursor, characters.count)]).count, text.count)
    prompt.text = text
    state.prompt = prompt
    if case .filter = prompt.purpose { applyFilter(prompt.text, final: false) }
  }

  private func complete(_ prompt: inout Prompt) {
    let prefix: String
    switch prompt.purpose {
    case .command(let words): prefix = words.joined(separator: " ") + " "
    case .commandLine: prefix = ""
    case .filter: prefix = request.report + " "
    }
    let before = String(prompt.text.prefix(prompt.cursor))
    let after = String(prompt.text.dropFirst(prompt.cursor))
    let (line, candidates) = backend.complete(prefix + before)
    guard line.hasPrefix(prefix) else { return }
    let completed = String(line.dropFirst(prefix.count))
    prompt.text = completed + after
    prompt.cursor = completed.count
    if candidates.count > 1 { setStatus(candidates.prefix(12).joined(separator: "  ")) }
  }

  /// The filter as it is typed: the list follows while it reads; an unfinished one waits.
  @discardableResult
  private func applyFilter(_ text: String, final: Bool) -> Bool {
    let previous = request.filter
    request.filter = text
    let read = backend.list(request)
    if case .failure(let failure) = read {
      // The list stays on the last filter that read.
      request.filter = previous
      if final {
        setError(failure.message)
      } else {
        setStatus("…")
      }
      return false
    }
    reloadList(keeping: state.selectedID, read: read)
    setStatus(text.isEmpty ? "" : "filter: \(text)")
    return true
  }

  private func submit(_ prompt: Prompt) {
    switch prompt.purpose {
    case .filter:
      // A filter that does not read keeps its prompt open, with the reason, to be mended.
      if !applyFilter(prompt.text, final: true) { state.prompt = prompt }
    case .command(let words):
      switch backend.words(of: prompt.text) {
      case .failure(let failure): setError(failure.message)
      case .success(let typed):
        guard !typed.isEmpty else { return setStatus("") }
        if words.first == "update" && state.marked.count > 1 { return runAskingForMarks(words + typed, verb: "Change") }
        run(words + typed)
      }
    case .commandLine:
      switch backend.words(of: prompt.text) {
      case .failure(let failure): setError(failure.message)
      case .success(let typed):
        guard let first = typed.first else { return setStatus("") }
        if first == "ui" || first == "shell" { return setError("'\(first)' cannot run inside todo ui") }
        run(typed, needsTerminal: first == "edit", showsOutput: true)
      }
    }
  }

  // MARK: - Commands

  /// Runs a command as `todo WORDS` would, then shows its first line on the status line (the
  /// whole output over the list when there is more) and reads the list again.
  public func run(_ words: [String], needsTerminal: Bool = false, showsOutput: Bool = false) {
    let command = "todo " + words.map(Self.quotedIfNeeded).joined(separator: " ")
    let outcome =
      needsTerminal
      ? aroundTerminalCommand { self.backend.run(words, ask: self.ask) }
      : backend.run(words, ask: ask)
    let output = outcome.output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    let errors = outcome.error.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    if outcome.status != 0 {
      setError(command + ": " + String((errors.first ?? "failed").trimmingPrefix("todo: error: ")))
      if errors.count > 1 || !output.isEmpty {
        state.overlay = Overlay(kind: .output, title: command, lines: (output + errors).map { StyledText.pieces(ofANSI: $0) })
      }
    } else {
      let said = output.map { $0.trimmingPrefix(" ") }.joined(separator: " · ")
      setStatus(command + (said.isEmpty ? "" : " — " + said))
      state.statusHint = outcome.undoable ? "u undoes it" : ""
      if showsOutput && output.count > 1 {
        state.overlay = Overlay(kind: .output, title: command, lines: output.map { StyledText.pieces(ofANSI: $0) })
      }
      if ["done", "delete"].contains(words.first ?? "") { state.marked = [] }
    }
    let selected = state.selectedID
    lastDataVersion = backend.dataVersion()
    state.context = backend.activeContext()
    refreshSidebar()
    reloadList(keeping: selected)
    if state.showsDetail { loadDetail() }
  }

  static func quotedIfNeeded(_ word: String) -> String {
    guard word.isEmpty || word.contains(where: { " '\"\\$`".contains($0) }) else { return word }
    return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
