import TodoCore
import TodoSystem

/// The human forms of tasks: one-line echoes of changes, the list table and `show`.
struct TaskText {
  let now: Int64
  let color: Bool
  /// The looks of overdue, today, priorities, projects, tags… (`color.*` in the configuration).
  var palette = TextStyle.Palette()
  /// How dates are written (`date.format`).
  var dateFormat = DateFormat.standard
  /// The local day of `now` and the instant tomorrow starts: worked out once, not per row.
  let today: CalendarDay
  private let tomorrowStarts: Int64
  private let todayStarts: Int64

  init(now: Int64, color: Bool) {
    self.now = now
    self.color = color
    today = CalendarDay.local(now)
    tomorrowStarts = today.adding(days: 1).start
    todayStarts = today.start
  }

  func styled(_ text: String, _ style: TextStyle?) -> String {
    style?.apply(to: text, colorEnabled: color) ?? text
  }

  /// `Buy milk  +home project:work pri:H due:2026-11-27 00:00 CET` — everything that was stored.
  ///
  /// `attributes`: its user-defined attributes (name, stored value), written after the dates as
  /// `client:acme`, each as `defined` shows it.
  func summary(_ todo: Todo, attributes attributesOfTask: [(name: String, value: String)] = [], defined: [String: UserAttribute] = [:])
    -> String
  {
    var parts = [sanitizedForTerminal(todo.title)]
    var attributes: [String] = todo.tags.map { styled("+" + sanitizedForTerminal($0), palette.tag) }
    if let project = todo.project { attributes.append(styled("project:" + sanitizedForTerminal(project), palette.project)) }
    if let priority = todo.priority { attributes.append("pri:" + priority.rawValue) }
    for (name, date) in [("due", todo.due), ("wait", todo.wait), ("scheduled", todo.scheduled), ("until", todo.until)] {
      if let date { attributes.append(name + ":" + describe(date)) }
    }
    for (name, value) in attributesOfTask {
      let shown = (defined[name] ?? UserAttribute(name: name)).shown(value)
      attributes.append(sanitizedForTerminal(name + ":" + (shown.contains(" ") ? "'\(shown)'" : shown)))
    }
    if let parent = todo.parentID { attributes.append("parent:\(parent)") }
    if !todo.depends.isEmpty { attributes.append("depends:" + todo.depends.map { String($0.id) }.joinedText(",")) }
    if let series = todo.series, series.ended == nil { attributes.append("recur:\(series.rule)") }
    if !todo.reminders.isEmpty { attributes.append("remind:" + todo.reminders.map(\.text).joinedText(",")) }
    if let progress = todo.progress { attributes.append("subtasks:\(progress.done)/\(progress.total)") }
    if todo.isActive { attributes.append(styled("active", palette.active)) }
    if todo.status != .pending { attributes.append("status:" + todo.status.rawValue) }
    if !todo.notes.isEmpty { attributes.append("notes:\(todo.notes.count)") }
    if !attributes.isEmpty { parts.append(attributes.joinedText(" ")) }
    return parts.joinedText("  ")
  }

  /// The list table: id, status (when not all pending), priority, due, project, tags, title;
  /// sorting by when tasks were completed, created or modified adds that column.
  ///
  /// When the table is too wide, project and tags are cut and then left out before the title
  /// gets narrow; due, priority and status go only after them.
  func table(_ todos: [Todo], sort: [SortKey] = []) -> Table {
    let shape = TableShape(showStatus: todos.contains { $0.status != .pending }, sort: sort, text: self)
    return Table(columns: shape.columns, rows: todos.map { shape.row(TaskRow($0)) })
  }

  /// The columns of a list table and how a task fills them.
  struct TableShape {
    let columns: [Table.Column]
    /// The widest any cell of a column can be, for the columns where that is known in advance
    /// (status, priority, due and the time columns): a streamed table reserves it.
    let widestCells: [Int: Int]
    private let showStatus: Bool
    private let timeColumns: [(String, @Sendable (TaskRow) -> Int64?)]
    private let text: TaskText

    init(showStatus: Bool, sort: [SortKey], text: TaskText) {
      self.showStatus = showStatus
      self.text = text
      timeColumns = TaskText.timeColumns(for: sort)
      var columns = [Table.Column(header: "ID", alignment: .right)]
      if showStatus { columns.append(Table.Column(header: "Status", shrink: .drop)) }
      columns += [Table.Column(header: "Pri", shrink: .drop), Table.Column(header: "Due", shrink: .drop)]
      for (header, _) in timeColumns { columns.append(Table.Column(header: header, shrink: .drop)) }
      var widest: [Int: Int] = [:]
      for (index, column) in columns.enumerated() {
        switch column.header {
        case "Status": widest[index] = "deleted".count
        case "Pri": widest[index] = 1
        // `overdue 59min`, and `59min ago` for the time columns.
        case "Due": widest[index] = "overdue 59min".count
        case "ID": break
        default: widest[index] = "59min ago".count
        }
      }
      columns += [
        Table.Column(header: "Project", shrink: .truncateThenDrop, cutsInTheMiddle: true),
        Table.Column(header: "Tags", shrink: .truncateThenDrop, cutsWords: true),
        Table.Column(header: "Title", flexible: true),
      ]
      self.columns = columns
      widestCells = widest
    }

    /// The cells of one task.
    func row(_ todo: TaskRow) -> [Table.Cell] {
      var row: [Table.Cell] = []
      row.reserveCapacity(columns.count)
      append(todo, to: &row) { text, style, _ in Table.Cell(text, style: style) }
      return row
    }

    /// The last project and tags measured, with the text they were measured from: consecutive
    /// rows of a list often share them (`todo list project:x`).
    struct MeasureCache {
      fileprivate var project: (source: String, cell: Table.MeasuredCell)?
      fileprivate var tags: (source: String, cell: Table.MeasuredCell)?
    }

    /// Appends the cells of one task, made safe for the terminal and measured: what a streamed
    /// table keeps, made without an intermediate array of plain cells.
    func appendMeasuredRow(_ todo: TaskRow, to cells: inout [Table.MeasuredCell], cache: inout MeasureCache) {
      func measured(_ text: String, _ style: TextStyle?, _ last: inout (source: String, cell: Table.MeasuredCell)?)
        -> Table.MeasuredCell
      {
        // Bytes, not String ==, which calls canonically equivalent spellings equal.
        if let last, last.source.utf8.elementsEqual(text.utf8) { return last.cell }
        let cell = Table.MeasuredCell(text: text, style: style)
        last = (text, cell)
        return cell
      }
      append(todo, to: &cells) { text, style, kind in
        switch kind {
        case .ascii: Table.MeasuredCell(ascii: text, style: style)
        case .project: measured(text, style, &cache.project)
        case .tags: measured(text, style, &cache.tags)
        case .title: Table.MeasuredCell(text: text, style: style)
        }
      }
    }

    /// What a cell holds: printable ASCII by construction (id, status, priority, relative
    /// times), or text from the user.
    private enum CellKind {
      case ascii, project, tags, title
    }

    /// Appends one cell per column.
    private func append<Cell>(_ todo: TaskRow, to row: inout [Cell], _ make: (String, TextStyle?, CellKind) -> Cell) {
      row.append(make(String(todo.id), nil, .ascii))
      if showStatus {
        row.append(
          make(todo.status.rawValue, todo.status == .done ? text.palette.done : todo.status == .deleted ? text.palette.deleted : nil, .ascii))
      }
      row.append(make(todo.priority?.rawValue ?? "", text.palette.style(of: todo.priority), .ascii))
      let (due, dueStyle) = text.dueCell(todo)
      row.append(make(due, dueStyle, .ascii))
      for (_, time) in timeColumns {
        row.append(make(time(todo).map { Timestamp.relative($0, now: text.now, past: .ago) } ?? "", .dim, .ascii))
      }
      row.append(make(todo.project ?? "", text.palette.project, .project))
      row.append(make(todo.tagText, text.palette.tag, .tags))
      let title = todo.progress.map { todo.title + " (\($0.done)/\($0.total))" } ?? todo.title
      row.append(make(title, todo.status == .pending ? nil : .dim, .title))
    }
  }

  /// The columns a sort by a time adds: Completed, Created, Modified.
  fileprivate static func timeColumns(for sort: [SortKey]) -> [(String, @Sendable (TaskRow) -> Int64?)] {
    var columns: [(String, @Sendable (TaskRow) -> Int64?)] = []
    for key in sort {
      switch key.field {
      case .completed: columns.append(("Completed", { $0.completed }))
      case .created: columns.append(("Created", { $0.created }))
      case .modified: columns.append(("Modified", { $0.modified }))
      default: break
      }
    }
    return columns
  }

  /// Overdue in bold red, due today in yellow; a done or deleted task is never overdue: its due
  /// date is only a date in the past ("2d ago").
  ///
  /// An all-day due reads `today`, `tomorrow`, `fri`, `in 9d`, `overdue 2d`; a timed one on
  /// another day the same, and today `in 2h`, `17:00` (later today), `overdue 5h`.
  func dueCell(_ todo: TaskRow) -> (String, TextStyle?) {
    guard let due = todo.due else { return ("", nil) }
    let pending = todo.status == .pending
    let text = relative(due, past: pending ? .overdue : .ago)
    guard pending else { return (text, .dim) }
    switch due {
    case .day(let day):
      return (text, day < today ? palette.overdue : day == today ? palette.today : nil)
    case .instant(let instant):
      return (text, instant < now ? palette.overdue : instant - now < 86_400 ? palette.today : nil)
    }
  }

  /// A date relative to now, short, for a table cell or after the full date in `show`.
  func relative(_ date: TaskDate, past: Timestamp.PastStyle) -> String {
    switch date {
    case .day(let day): return Self.relativeDay(day, today: today, past: past)
    case .instant(let instant):
      // Another day: the same words as an all-day date on that day (`tomorrow`, `fri`,
      // `in 9d`, `overdue 2d`), so that one day never reads two ways in one column.
      if instant >= tomorrowStarts || instant < todayStarts {
        return Self.relativeDay(CalendarDay.local(instant), today: today, past: past)
      }
      // Later today, beyond the next three hours: the time of day says more than `in 5h`.
      if instant - now >= 3 * 3_600, let local = Timestamp.localTimeOfDay(instant) { return local }
      return Timestamp.relative(instant, now: now, past: past)
    }
  }

  /// `today`, `tomorrow`, `fri` (within the week ahead), `in 9d`, `in 3w`, `in 4mo`, `in 2y`;
  /// `yesterday` or `3d ago` (`overdue 1d`, `overdue 3d` for a pending due date).
  static func relativeDay(_ day: CalendarDay, today: CalendarDay, past: Timestamp.PastStyle) -> String {
    let days = day.dayNumber - today.dayNumber
    switch days {
    case 0: return "today"
    case 1: return "tomorrow"
    case -1 where past == .ago: return "yesterday"
    case 2...6: return ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][day.weekday]
    default: break
    }
    return Timestamp.worded(Timestamp.days(days.magnitude), future: days > 0, past: past)
  }

  /// A date in full, in the configured format: `2026-11-27` for a day, `2026-11-27 17:00 CET`
  /// for an instant.
  func describe(_ date: TaskDate) -> String {
    switch date {
    case .day(let day): dateFormat.text(day)
    case .instant(let instant): describe(instant: instant)
    }
  }

  /// An instant in full, its day in the configured format: `2026-11-27 17:00 CET`.
  func describe(instant: Int64) -> String {
    let full = Timestamp.localDescription(instant)
    guard dateFormat != .standard, let space = full.firstIndex(of: " ") else { return full }
    return dateFormat.text(CalendarDay.local(instant)) + full[space...]
  }

  /// A date in full, in ISO form (for messages that are not about one list).
  static func describe(_ date: TaskDate) -> String {
    switch date {
    case .day(let day): day.description
    case .instant(let instant): Timestamp.localDescription(instant)
    }
  }

  /// Every field of one task, then its notes.
  /// `attributes`: the task's user-defined attributes (stored JSON text), shown by their label
  /// when `defined`, else by name, marked as not defined here.
  func details(
    _ todo: Todo, upcoming: [TaskDate] = [], attributes: [(name: String, value: String)] = [],
    defined: [String: UserAttribute] = [:]
  ) -> [String] {
    func time(_ value: Int64?, past: Timestamp.PastStyle = .ago) -> String {
      guard let value else { return "-" }
      return "\(describe(instant: value)) (\(Timestamp.relative(value, now: now, past: past)))"
    }
    func date(_ value: TaskDate?, past: Timestamp.PastStyle = .ago) -> String {
      guard let value else { return "-" }
      let allDay: String
      if case .day = value { allDay = ", all day" } else { allDay = "" }
      return "\(describe(value)) (\(relative(value, past: past))\(allDay))"
    }
    // Every value that came from a user, a file or a server is made safe for the terminal.
    let status = todo.reason.map { "\(todo.status.rawValue) (\(sanitizedForTerminal($0)))" } ?? todo.status.rawValue
    var lines = ["\(styled("Task \(todo.id)", .bold)): \(sanitizedForTerminal(todo.title))"]
    let fields: [(String, String)] = [
      ("Status", status),
      ("Priority", todo.priority.map { "\($0.rawValue)" } ?? "-"),
      ("Project", todo.project.map(sanitizedForTerminal) ?? "-"),
      ("Tags", todo.tags.isEmpty ? "-" : todo.tags.map { "+" + sanitizedForTerminal($0) }.joinedText(" ")),
      ("Due", date(todo.due, past: todo.status == .pending ? .overdue : .ago)),
      ("Wait", date(todo.wait)),
      ("Scheduled", date(todo.scheduled)),
      ("Until", date(todo.until)),
      ("Created", time(todo.created)),
      ("Modified", time(todo.modified)),
      ("Completed", time(todo.completed)),
      ("UUID", sanitizedForTerminal(todo.uuid)),
    ]
    var links: [(String, String)] = []
    if let parent = todo.parentID {
      links.append(("Parent", "task \(parent)"))
    } else if let uuid = todo.parentUUID {
      links.append(("Parent", sanitizedForTerminal(uuid) + " (not here)"))
    }
    if let progress = todo.progress { links.append(("Subtasks", "\(progress.done) of \(progress.total) done")) }
    if !todo.depends.isEmpty {
      links.append(
        (
          "Depends",
          todo.depends.map { $0.id == 0 ? sanitizedForTerminal($0.uuid) + " (not here)" : "\($0.id)" + ($0.isOpen ? " (pending)" : " (closed)") }
            .joinedText(", ")
        ))
    }
    if !todo.blocking.isEmpty { links.append(("Blocking", todo.blocking.map(String.init).joinedText(", "))) }
    if let series = todo.series {
      var rule = "\(series.rule) (\(series.rule.words)), instance \(series.index)"
      if let ended = series.ended { rule += "; ended \(Timestamp.localDescription(ended))" }
      links.append(("Recur", rule))
      if !upcoming.isEmpty { links.append(("Next", upcoming.map { describe($0) }.joinedText(", "))) }
      links.append(("Series", sanitizedForTerminal(series.uuid)))
    }
    if todo.isActive, let started = todo.intervals.last?.started { links.append(("Active", "since \(time(started))")) }
    for (index, reminder) in todo.reminders.enumerated() { links.append((index == 0 ? "Remind" : "", reminderText(reminder, of: todo))) }
    for (name, value) in attributes {
      if let attribute = defined[name] {
        links.append((attribute.label, sanitizedForTerminal(attribute.shown(value))))
      } else {
        let text = UserAttribute(name: name).shown(value)
        links.append((name, sanitizedForTerminal(text) + styled(" (not defined: uda.\(name).type)", .dim)))
      }
    }
    for (name, value) in fields + links {
      lines.append("  " + styled(sanitizedForTerminal(name).padding(toWidth: 10), .dim) + " " + value)
    }
    if !todo.intervals.isEmpty {
      let total = todo.intervals.reduce(0) { $0 + $1.seconds(now: now) }
      lines.append(styled("Time", .bold) + "  " + Timestamp.duration(total))
      for interval in todo.intervals {
        let end = interval.stopped.map(Timestamp.localDescription) ?? "now (running)"
        lines.append(
          "  " + styled(Timestamp.localDescription(interval.started), .dim) + " – " + end + "  "
            + Timestamp.duration(interval.seconds(now: now)))
      }
    }
    if !todo.notes.isEmpty {
      lines.append(styled("Notes", .bold))
      for (index, note) in todo.notes.enumerated() {
        lines.append(
          "  \(index + 1). " + styled(Timestamp.localDescription(note.created), .dim) + "  " + sanitizedForTerminal(note.text))
      }
    }
    return lines
  }
}

extension TaskText {
  /// A reminder as `show` and `remind` give it: `due-15min (2026-12-01 08:45 CET, in 3 days)`,
  /// `2026-12-01 09:00 CET (in 3 days)`, `snoozed until 09:10 …`.
  func reminderText(_ reminder: Reminder, of todo: Todo) -> String {
    guard let fire = reminder.fire(due: todo.due, scheduled: todo.scheduled) else {
      return reminder.text + styled(" (the task has no \(reminder.text.hasPrefix("due") ? "due" : "scheduled") date: it does not ring)", .dim)
    }
    let when = Timestamp.relative(fire, now: now, past: .ago)
    switch reminder.when {
    case .at: return (reminder.isSnooze ? "snoozed until " : "") + describe(instant: fire) + " (\(when))"
    case .relative: return reminder.text + " (\(describe(instant: fire)), \(when))"
    }
  }

  /// `show`'s History: each command that changed the task (as far back as the undo journal
  /// goes), with what it changed: `priority: - → H`.
  func history(_ entries: [TaskHistoryEntry]) -> [String] {
    guard !entries.isEmpty else { return [] }
    var lines = [styled("History", .bold)]
    for entry in entries {
      lines.append("  " + styled(Timestamp.localDescription(entry.time), .dim) + "  " + sanitizedForTerminal(entry.command))
      guard let changes = entry.changes else {
        lines.append("    made the task")
        continue
      }
      let said = changes.map { change in
        "\(change.field): \(sanitizedForTerminal(change.old ?? "-")) → \(sanitizedForTerminal(change.new ?? "-"))"
      }
      lines.append("    " + (said.isEmpty ? "nothing shown here changed (time, links or notes' text)" : said.joinedText("; ")))
    }
    return lines
  }
}

extension String {
  /// Pads with spaces on the right to a display width.
  func padding(toWidth width: Int) -> String {
    let missing = width - displayWidth(of: self)
    return missing > 0 ? self + String(repeating: " ", count: missing) : self
  }
}

/// The list table of `todo list`, drawn as tasks stream out of the database: up to `window`
/// tasks are laid out exactly as `TaskText.table` does (widths, empty columns left out); a longer
/// list keeps the layout of its first `window` tasks and writes the rest as they come, so memory
/// stays bounded however many tasks there are. There, every column is kept (a later task may need
/// one that was empty so far), the status column shows whenever the filter can select closed
/// tasks, the columns of known width (status, priority, due, times) take their widest, and a
/// later project or tags cell wider than its column pushes its line rather than being cut (into
/// a pipe) or is cut to the column (on a terminal).
final class StreamedTaskTable: @unchecked Sendable {
  // @unchecked: used only inside one operation run, while the calling thread waits for it.
  static let defaultWindow = 10_000

  private let window: Int
  private let filter: TodoFilter
  private let sort: [SortKey]
  private let width: Int?
  private let color: Bool
  private let output: OutputStream
  /// Every column, the status column included; it is hidden when no task shown is closed.
  private let shape: TaskText.TableShape
  private static let statusColumn = 1
  /// The first tasks, as measured cells one row after the other (nothing else of them is kept),
  /// in chunks of `chunkRows` rows: a list of thousands of tasks fills new chunks instead of
  /// copying one array at every doubling (half the page faults of `list` at 10k tasks were that).
  private var buffered: [[Table.MeasuredCell]] = []
  private static let chunkRows = 256
  private var bufferedRows = 0
  /// The cells of the task being written once the layout is fixed (reused: no array per row).
  private var row: [Table.MeasuredCell] = []
  private var cache = TaskText.TableShape.MeasureCache()
  private var sawClosedTask = false
  private var writer: TableWriter?

  init(
    filter: TodoFilter, sort: [SortKey], text: TaskText, width: Int?, color: Bool, output: OutputStream,
    window: Int = StreamedTaskTable.defaultWindow
  ) {
    self.window = window
    self.filter = filter
    self.sort = sort
    self.width = width
    self.color = color
    self.output = output
    // A list of done tasks shows when each was completed, as sorting by it would.
    let shown = filter.effectiveStatus == .done && !sort.contains { $0.field == .completed } ? sort + [SortKey(.completed)] : sort
    shape = TaskText.TableShape(showStatus: true, sort: shown, text: text)
  }

  func add(_ todo: TaskRow) {
    // The first task past the window fixes the layout; a list of exactly `window` tasks is
    // still laid out exactly.
    if writer == nil && bufferedRows == window { draw(streaming: true) }
    if let writer {
      row.removeAll(keepingCapacity: true)
      shape.appendMeasuredRow(todo, to: &row, cache: &cache)
      writer.write(measured: row)
      return
    }
    if todo.status != .pending { sawClosedTask = true }
    // Reserving the whole window at once would cost every short list a 2 MB allocation.
    if bufferedRows % Self.chunkRows == 0 {
      buffered.append([])
      buffered[buffered.count - 1].reserveCapacity(min(window, Self.chunkRows) * shape.columns.count)
    }
    shape.appendMeasuredRow(todo, to: &buffered[buffered.count - 1], cache: &cache)
    bufferedRows += 1
  }

  /// Draws a list that fitted in the window.
  func finish() {
    if writer == nil && bufferedRows > 0 { draw(streaming: false) }
  }

  private func draw(streaming: Bool) {
    // A longer list shows the status column whenever its filter can select closed tasks.
    let showStatus = sawClosedTask || (streaming && filter.effectiveStatus != .pending)
    writer = TableWriter(
      columns: shape.columns, firstRowChunks: buffered, hidden: showStatus ? [] : [Self.statusColumn],
      widestCells: streaming ? shape.widestCells : [:], width: width, colorEnabled: color, to: output,
      dropEmptyColumns: !streaming)
    buffered = []
    bufferedRows = 0
  }
}
