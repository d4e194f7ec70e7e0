import TodoSystem

/// Everything the screen shows, as values: `render` turns it into a grid without a terminal.
public struct ViewState: Equatable, Sendable {
  public var list = ListSnapshot(columns: [], ids: [], title: "", emptyMessage: "")
  /// The rows read for what is on screen, by task id.
  public var rows: [Int64: UIRow] = [:]
  /// The selected row's index in `list.ids`, and the first row on screen.
  public var selected = 0
  public var top = 0
  public var marked: Set<Int64> = []

  public var showsDetail = false
  public var detail: [[StyledText]] = []
  public var detailTop = 0

  public var showsSidebar = true
  public var sidebar: [SidebarSection] = []
  public var sidebarFocused = false
  /// The selected sidebar item's index among all items (sections flattened).
  public var sidebarSelected = 0

  public var context: String?
  /// The status line: the last action's command and result, or an error.
  public var status = ""
  public var statusIsError = false
  /// Said at the right of the status line, never cut: `u undoes it`.
  public var statusHint = ""
  public var prompt: Prompt?
  public var overlay: Overlay?

  public init() {}

  /// The selected task's id, if the list is not empty.
  public var selectedID: Int64? {
    list.ids.indices.contains(selected) ? list.ids[selected] : nil
  }

  /// The sidebar's items in order, sections flattened.
  public var sidebarItems: [SidebarItem] { sidebar.flatMap(\.items) }
}

/// A line of the sidebar as drawn: a section's title, or an item (its index among all items).
public enum SidebarLine: Equatable, Sendable {
  case title(String)
  case item(Int)
}

extension ViewState {
  /// The sidebar's lines that fit in `rows` rows, scrolled (while it has the focus) so that the
  /// selected item shows: what is drawn, and what a click on a row chooses.
  public func sidebarLines(rows: Int) -> [SidebarLine] {
    var lines: [SidebarLine] = []
    var index = 0
    for section in sidebar {
      lines.append(.title(section.title))
      for _ in section.items {
        lines.append(.item(index))
        index += 1
      }
    }
    guard lines.count > rows, rows > 0 else { return lines }
    var skip = 0
    if sidebarFocused, let position = lines.firstIndex(of: .item(sidebarSelected)) {
      skip = max(0, min(position + 4 - rows, lines.count - rows))
    }
    return Array(lines[skip..<min(lines.count, skip + rows)])
  }
}

/// A line being typed at the bottom: `add`, `update 3 `, `/`, `:`.
public struct Prompt: Equatable, Sendable {
  public enum Purpose: Equatable, Sendable {
    /// The words typed follow these (`add`, `update 3`, `note 3`).
    case command([String])
    /// A whole command line (`:`).
    case commandLine
    /// The list's filter, applied as it is typed.
    case filter(previous: String)
  }
  public var label: String
  public var text: String
  /// The cursor, as a count of characters before it.
  public var cursor: Int
  public var purpose: Purpose

  public init(label: String, text: String = "", purpose: Purpose) {
    self.label = label
    self.text = text
    self.cursor = text.count
    self.purpose = purpose
  }
}

/// A screen over the list: help, a command's output, a question.
public struct Overlay: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case help, output
    /// A yes/no question: `y` answers yes, anything else no.
    case question
  }
  public var kind: Kind
  public var title: String
  public var lines: [[StyledText]]
  public var top = 0

  public init(kind: Kind, title: String, lines: [[StyledText]]) {
    self.kind = kind
    self.title = title
    self.lines = lines
  }
}

/// Where things are on a screen of a given size (shared by drawing and by the mouse).
public struct Layout: Equatable, Sendable {
  public var width: Int
  public var height: Int
  /// Sidebar columns (0 when hidden), list area, detail area.
  public var sidebarWidth: Int
  public var listColumn: Int
  public var listWidth: Int
  /// The first row of task rows (after the column headings) and how many there are.
  public var listFirstRow: Int
  public var listRows: Int
  /// The detail pane (rows and columns), when shown.
  public var detailRow: Int
  public var detailColumn: Int
  public var detailWidth: Int
  public var detailRows: Int

  public init(width: Int, height: Int, state: ViewState) {
    self.width = width
    self.height = height
    let middle = max(0, height - 2)
    sidebarWidth = state.showsSidebar && width >= 60 ? min(28, width / 4) : 0
    // Too narrow for both: the sidebar, while it has the focus, takes the whole width.
    if state.sidebarFocused && sidebarWidth == 0 { sidebarWidth = width }
    listColumn = sidebarWidth > 0 ? sidebarWidth + 1 : 0
    let area = max(0, width - listColumn)
    listWidth = area
    listFirstRow = 2
    listRows = max(0, middle - 1)
    detailRow = 1
    detailColumn = listColumn
    detailWidth = 0
    detailRows = 0
    guard state.showsDetail else { return }
    if area >= 100 {
      listWidth = area / 2
      detailColumn = listColumn + listWidth + 1
      detailWidth = max(0, area - listWidth - 1)
      detailRows = middle
    } else {
      let listPart = max(2, middle / 2)
      listRows = max(0, listPart - 1)
      detailRow = 1 + listPart + 1
      detailWidth = area
      detailRows = max(0, middle - listPart - 1)
    }
  }
}

/// Draws a view state: a pure function of the state, the size and the key map.
public struct ScreenRenderer: Sendable {
  public var keyMap: KeyMap
  public var palette: Palette

  /// The styles of the parts of the screen.
  public struct Palette: Sendable {
    public var bar = CellStyle.reverse
    public var heading = CellStyle(parameters: "1;4")
    public var selection = CellStyle.reverse
    public var marked = CellStyle.bold
    public var error = CellStyle(parameters: "31")
    public var section = CellStyle.bold
    public var dim = CellStyle.dim
    public init() {}
  }

  public init(keyMap: KeyMap, palette: Palette = Palette()) {
    self.keyMap = keyMap
    self.palette = palette
  }

  public func render(_ state: ViewState, width: Int, height: Int) -> Grid {
    var grid = Grid(width: width, height: height)
    guard width > 0, height > 0 else { return grid }
    let layout = Layout(width: width, height: height, state: state)
    drawTopBar(state, into: &grid)
    if let overlay = state.overlay {
      drawOverlay(overlay, into: &grid, height: height)
    } else {
      if layout.sidebarWidth > 0 { drawSidebar(state, layout: layout, into: &grid) }
      if layout.listWidth > 2 { drawList(state, layout: layout, into: &grid) }
      if state.showsDetail && layout.detailWidth > 1 { drawDetail(state, layout: layout, into: &grid) }
    }
    if height > 1 { drawStatus(state, into: &grid, row: height - 1) }
    return grid
  }

  private func drawTopBar(_ state: ViewState, into grid: inout Grid) {
    grid.clear(row: 0, style: palette.bar)
    var left = " todo · " + state.list.title
    if let context = state.context { left += " · context: " + context }
    var right = "\(state.list.ids.count) task" + (state.list.ids.count == 1 ? "" : "s")
    if !state.marked.isEmpty { right = "\(state.marked.count) marked · " + right }
    right += " · ? help "
    let rightWidth = displayWidth(of: right)
    grid.put(left, row: 0, column: 0, style: palette.bar, limit: max(0, grid.width - rightWidth - 1))
    if grid.width > rightWidth { grid.put(right, row: 0, column: grid.width - rightWidth, style: palette.bar) }
  }

  private func drawSidebar(_ state: ViewState, layout: Layout, into grid: inout Grid) {
    let bottom = grid.height - 1
    let items = state.sidebarItems
    for (offset, line) in state.sidebarLines(rows: max(0, bottom - 1)).enumerated() {
      let row = 1 + offset
      switch line {
      case .title(let title):
        grid.put(title, row: row, column: 1, style: palette.section, limit: layout.sidebarWidth - 1)
      case .item(let index):
        let item = items[index]
        let count = item.count.map { " \($0)" } ?? ""
        let indent = String(repeating: " ", count: 2 + 2 * item.depth)
        let style = item.isCurrent ? palette.marked : CellStyle.plain
        let room = layout.sidebarWidth - indent.count - displayWidth(of: count)
        grid.put(indent + truncated(item.label, toWidth: max(0, room)), row: row, column: 0, style: style, limit: layout.sidebarWidth)
        if !count.isEmpty && room > 0 { grid.put(count, row: row, column: layout.sidebarWidth - displayWidth(of: count), style: palette.dim) }
        if state.sidebarFocused && index == state.sidebarSelected {
          grid.paint(row: row, from: 0, to: layout.sidebarWidth, style: palette.selection)
        }
      }
    }
    if layout.sidebarWidth < grid.width {
      for separator in 1..<max(1, bottom) { grid.put("│", row: separator, column: layout.sidebarWidth, style: palette.dim) }
    }
  }

  /// The column widths for the rows on screen: each column as wide as its widest cell or its
  /// heading; the flexible one takes what is left; columns that may be dropped go first when
  /// the screen is narrow.
  func columnWidths(_ columns: [UIColumn], rows: [UIRow], width: Int) -> [Int] {
    var widths = columns.enumerated().map { index, column in
      rows.reduce(displayWidth(of: column.header)) { max($0, index < $1.cells.count ? displayWidth(of: $1.cells[index].text) : 0) }
    }
    let flexible = columns.firstIndex(where: \.isFlexible)
    func total() -> Int {
      widths.enumerated().reduce(0) { sum, item in sum + (item.offset == flexible ? 10 : item.element) + (item.element > 0 ? 1 : 0) }
    }
    for index in columns.indices.reversed() where columns[index].mayDrop && total() > width { widths[index] = 0 }
    if let flexible {
      let others = widths.enumerated().reduce(0) { sum, item in item.offset == flexible ? sum : sum + item.element + (item.element > 0 ? 1 : 0) }
      widths[flexible] = max(0, width - others)
    }
    return widths
  }

  private func drawList(_ state: ViewState, layout: Layout, into grid: inout Grid) {
    let gutter = 2
    let columns = state.list.columns
    let visible = state.top..<min(state.list.ids.count, state.top + layout.listRows)
    let rows = visible.compactMap { state.rows[state.list.ids[$0]] }
    let widths = columnWidths(columns, rows: rows, width: layout.listWidth - gutter)
    let flexible = columns.firstIndex(where: \.isFlexible)
    var column = layout.listColumn + gutter
    for (index, header) in columns.enumerated() where widths[index] > 0 {
      grid.put(header.header, row: 1, column: column, style: palette.heading, limit: widths[index])
      column += widths[index] + 1
    }
    guard !state.list.ids.isEmpty else {
      grid.put(
        state.list.emptyMessage, row: layout.listFirstRow, column: layout.listColumn + gutter, style: palette.dim, limit: layout.listWidth - gutter)
      return
    }
    for (offset, index) in visible.enumerated() {
      let row = layout.listFirstRow + offset
      let id = state.list.ids[index]
      let isMarked = state.marked.contains(id)
      if isMarked { grid.put("*", row: row, column: layout.listColumn, style: palette.marked) }
      guard let data = state.rows[id] else { continue }
      var column = layout.listColumn + gutter
      for (cellIndex, cell) in data.cells.enumerated() where cellIndex < widths.count && widths[cellIndex] > 0 {
        let width = widths[cellIndex]
        var text = cell.text
        if cellIndex == flexible, state.list.depths.indices.contains(index) {
          text = String(repeating: "  ", count: state.list.depths[index]) + text
        }
        text = truncated(text, toWidth: width)
        let start = columns[cellIndex].alignsRight ? column + width - displayWidth(of: text) : column
        grid.put(text, row: row, column: start, style: isMarked ? cell.style.adding(palette.marked) : cell.style, limit: width)
        column += width + 1
      }
      if index == state.selected {
        let style = state.sidebarFocused ? palette.dim.adding(palette.selection) : palette.selection
        grid.paint(row: row, from: layout.listColumn, to: layout.listColumn + layout.listWidth, style: style)
      }
    }
  }

  private func drawDetail(_ state: ViewState, layout: Layout, into grid: inout Grid) {
    if layout.detailColumn > layout.listColumn {
      for row in 1..<max(1, grid.height - 1) { grid.put("│", row: row, column: layout.detailColumn - 1, style: palette.dim) }
    } else {
      grid.put(String(repeating: "─", count: layout.detailWidth), row: layout.detailRow - 1, column: layout.detailColumn, style: palette.dim)
    }
    let lines = state.detail.dropFirst(state.detailTop).prefix(layout.detailRows)
    for (offset, line) in lines.enumerated() {
      grid.put(line, row: layout.detailRow + offset, column: layout.detailColumn + 1, limit: layout.detailWidth - 1)
    }
  }

  private func drawOverlay(_ overlay: Overlay, into grid: inout Grid, height: Int) {
    grid.put(overlay.title, row: 1, column: 1, style: palette.section)
    let room = max(0, height - 3)
    for (offset, line) in overlay.lines.dropFirst(overlay.top).prefix(room).enumerated() {
      grid.put(line, row: 2 + offset, column: 1)
    }
  }

  private func drawStatus(_ state: ViewState, into grid: inout Grid, row: Int) {
    if let prompt = state.prompt {
      let end = grid.put(prompt.label, row: row, column: 0, style: palette.section)
      // Keep the cursor on screen: show the end of a line longer than the room.
      let room = max(1, grid.width - end - 1)
      let before = String(prompt.text.prefix(prompt.cursor))
      var shown = prompt.text
      var cursorColumn = end + displayWidth(of: before)
      if displayWidth(of: before) >= room {
        let skipped = displayWidth(of: before) - room + 1
        var dropped = 0
        var characters = Substring(prompt.text)
        while dropped < skipped, let first = characters.first {
          dropped += displayWidth(of: first)
          characters.removeFirst()
        }
        shown = String(characters)
        cursorColumn -= dropped
      }
      grid.put(shown, row: row, column: end)
      if cursorColumn < grid.width {
        if grid.rows[row][cursorColumn].text == " " || grid.rows[row][cursorColumn].text.isEmpty {
          grid.put(" ", row: row, column: cursorColumn)
        }
        grid.paint(row: row, from: cursorColumn, to: cursorColumn + 1, style: .reverse)
      }
      return
    }
    if state.overlay?.kind == .question {
      grid.put("y: yes · any other key: no", row: row, column: 0, style: palette.section)
      return
    }
    if state.status.isEmpty {
      // Nothing done yet: the keys a newcomer needs first.
      let keys: [(UIAction, String)] = [(.help, "keys"), (.add, "add"), (.done, "done"), (.filter, "filter"), (.detail, "details"), (.quit, "quit")]
      var parts: [String] = []
      for (action, what) in keys {
        guard let name = keyMap.keyNames(of: action).split(separator: " ").first else { continue }
        parts.append(name + " " + what)
      }
      grid.put(parts.joined(separator: " · "), row: row, column: 0, style: palette.dim)
      return
    }
    let hint = state.statusHint.isEmpty ? "" : " · " + state.statusHint
    let room = max(0, grid.width - displayWidth(of: hint))
    let end = grid.put(
      truncated(sanitizedForTerminal(state.status), toWidth: room), row: row, column: 0, style: state.statusIsError ? palette.error : .plain)
    if !hint.isEmpty { grid.put(hint, row: row, column: end, style: palette.dim) }
  }
}
