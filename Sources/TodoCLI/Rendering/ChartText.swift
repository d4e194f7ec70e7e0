import TodoCore
import TodoSystem

/// The text of the reports people look at (`calendar`, `agenda`, `burndown`, `summary`,
/// `history`, `ghistory`): lines fitted to a width, in colour when it is on. What each mark
/// means never rests on colour alone: with `NO_COLOR` the marks and bars use distinct characters.
struct ChartText {
  let now: Int64
  let color: Bool
  let palette: TextStyle.Palette
  /// Columns to fit (40 at least).
  let width: Int
  /// ASCII characters only (`--ascii`, `TERM=dumb`).
  let ascii: Bool
  let today: CalendarDay

  init(now: Int64, color: Bool, palette: TextStyle.Palette, width: Int, ascii: Bool) {
    self.now = now
    self.color = color
    self.palette = palette
    self.width = max(width, 40)
    self.ascii = ascii
    today = CalendarDay.local(now)
  }

  func styled(_ text: String, _ style: TextStyle?) -> String {
    style?.apply(to: text, colorEnabled: color) ?? text
  }

  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
  ]
  static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  static func shortMonth(_ month: Int) -> String { String(monthNames[month - 1].prefix(3)) }

  /// `Fri 27 Nov`.
  static func dayName(_ day: CalendarDay) -> String {
    "\(weekdayNames[day.weekday]) \(day.day) \(shortMonth(day.month))"
  }

  /// Text padded on the left to a width.
  static func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - displayWidth(of: text))) + text
  }

  /// A task's title made safe for the terminal and cut to a width.
  static func title(_ text: String, _ width: Int) -> String {
    truncated(terminalTextAndWidth(text).text, toWidth: width)
  }

  // MARK: - summary

  /// Projects as a tree: remaining, average age, percent done and a bar.
  func summary(_ projects: [ProjectSummary]) -> [String] {
    let names = projects.map { project -> String in
      guard !project.name.isEmpty else { return "(none)" }
      let parts = project.name.split(separator: ".")
      return String(repeating: "  ", count: parts.count - 1) + terminalTextAndWidth(String(parts.last ?? "")).text
    }
    let nameWidth = min(max(7, names.map { displayWidth(of: $0) }.max() ?? 0), width / 3)
    let fixed = nameWidth + 1 + 9 + 1 + 7 + 1 + 8
    let barWidth = min(30, width - fixed - 2)
    var header = "Project".padding(toWidth: nameWidth) + " Remaining Avg age Complete"
    if barWidth >= 10 { header += "  0%" + String(repeating: " ", count: barWidth - 6) + "100%" }
    var lines = [styled(header, .heading)]
    for (project, name) in zip(projects, names) {
      var line = truncated(name, toWidth: nameWidth).padding(toWidth: nameWidth)
      line += Self.right(String(project.pending), 10) + Self.right(Timestamp.days(UInt64(project.averageAge / 86_400)), 8)
      line += Self.right("\(project.percentDone)%", 9)
      if barWidth >= 10 {
        let filled = project.percentDone * barWidth / 100
        let rest = ascii ? "" : String(repeating: "░", count: barWidth - filled)
        line += "  " + styled(String(repeating: ascii ? "=" : "█", count: filled), palette.chartDone) + styled(rest, .dim)
      }
      lines.append(line)
    }
    let total = projects.first { $0.name.isEmpty }.map { _ in projects.count - 1 } ?? projects.count
    if total > 0 {
      lines.append("")
      lines.append("\(total) project\(total == 1 ? "" : "s")")
    }
    return lines
  }

  // MARK: - history and ghistory

  /// A period's label: `2026-11-27`, `2026-11-23` (the week's first day), `2026-11`, `2026`.
  static func label(_ day: CalendarDay, _ period: ChartPeriod) -> String {
    switch period {
    case .daily, .weekly: day.description
    case .monthly: String(day.description.prefix(7))
    case .annual: String(day.year)
    }
  }

  static func heading(_ period: ChartPeriod) -> String {
    switch period {
    case .daily: "Day"
    case .weekly: "Week of"
    case .monthly: "Month"
    case .annual: "Year"
    }
  }

  /// Added, completed, deleted and net per period, and their averages.
  func history(_ history: ActivityHistory) -> [String] {
    let labelWidth = max(Self.heading(history.period).count, 7, history.rows.map { Self.label($0.start, history.period).count }.max() ?? 0)
    // Each column as wide as its header or its largest number, and a space.
    func columnWidth(_ header: String, _ value: (ActivityHistory.Row) -> Int) -> Int {
      max(header.count, history.rows.map { String(value($0)).count + 1 }.max() ?? 0) + 1
    }
    let widths = [
      columnWidth("Added") { $0.added }, columnWidth("Completed") { $0.completed }, columnWidth("Deleted") { $0.deleted },
      columnWidth("Net") { $0.added - $0.completed - $0.deleted },
    ]
    let header = zip(["Added", "Completed", "Deleted", "Net"], widths).map { Self.right($0, $1) }.joined()
    var lines = [styled(Self.heading(history.period).padding(toWidth: labelWidth) + header, .heading)]
    func line(_ label: String, _ added: Int, _ completed: Int, _ deleted: Int) -> String {
      let net = added - completed - deleted
      return label.padding(toWidth: labelWidth) + Self.right(String(added), widths[0]) + Self.right(String(completed), widths[1])
        + Self.right(String(deleted), widths[2]) + Self.right(net > 0 ? "+\(net)" : String(net), widths[3])
    }
    for row in history.rows {
      lines.append(line(Self.label(row.start, history.period), row.added, row.completed, row.deleted))
    }
    let count = history.rows.count
    let sums = history.rows.reduce((0, 0, 0)) { ($0.0 + $1.added, $0.1 + $1.completed, $0.2 + $1.deleted) }
    lines.append(styled(line("Average", sums.0 / count, sums.1 / count, sums.2 / count), .dim))
    return lines
  }

  /// One stacked bar per period: added, completed, deleted.
  func graphicHistory(_ history: ActivityHistory) -> [String] {
    let period = history.period
    let labelWidth = history.rows.map { Self.label($0.start, period).count }.max() ?? 4
    let largest = history.rows.map { $0.added + $0.completed + $0.deleted }.max() ?? 1
    let numbersWidth = history.rows.map { "\($0.added)/\($0.completed)/\($0.deleted)".count }.max() ?? 5
    let barWidth = max(width - labelWidth - numbersWidth - 3, 1)
    var lines: [String] = []
    for row in history.rows {
      // Rounded along the whole bar, so the parts add up to the total's length.
      let ends = [row.added, row.added + row.completed, row.added + row.completed + row.deleted].map {
        ($0 * barWidth + largest / 2) / max(largest, 1)
      }
      var bar = styled(String(repeating: mark(.added), count: ends[0]), palette.chartAdded)
      bar += styled(String(repeating: mark(.completed), count: ends[1] - ends[0]), palette.chartDone)
      bar += styled(String(repeating: mark(.deleted), count: ends[2] - ends[1]), palette.chartDeleted)
      lines.append(
        Self.label(row.start, period).padding(toWidth: labelWidth) + " " + bar + String(repeating: " ", count: barWidth - ends[2] + 1)
          + "\(row.added)/\(row.completed)/\(row.deleted)")
    }
    lines.append("")
    lines.append(legend([(.added, "added"), (.completed, "completed"), (.deleted, "deleted")]))
    return lines
  }

  /// What a bar's part stands for.
  enum Part {
    case added, completed, deleted, pending, active
  }

  /// The character a part is drawn with: a block in colour, a shade without, a letter in ASCII.
  func mark(_ part: Part) -> String {
    switch (ascii, color, part) {
    case (true, _, .added), (true, _, .pending): "+"
    case (true, _, .completed): "X"
    case (true, _, .deleted): "-"
    case (true, _, .active): ">"
    case (false, true, _): "█"
    case (false, false, .completed): "█"
    case (false, false, .active): "▓"
    case (false, false, .added), (false, false, .pending): "░"
    case (false, false, .deleted): "·"
    }
  }

  /// The colour a part is drawn in (`color.chart.*`).
  func style(_ part: Part) -> TextStyle? {
    switch part {
    case .added: palette.chartAdded
    case .completed: palette.chartDone
    case .deleted: palette.chartDeleted
    case .pending: palette.chartPending
    case .active: palette.chartActive
    }
  }

  /// Words filled into lines no wider than the width.
  func wrapped(_ text: String) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// What each part's mark stands for, on one line.
  func legend(_ parts: [(Part, String)]) -> String {
    parts.map { styled(mark($0.0) + mark($0.0), style($0.0)) + " " + $0.1 }.joined(separator: "  ")
  }
}
