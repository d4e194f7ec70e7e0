import TodoCore
import TodoSystem

extension ChartText {
  /// How many overdue items an agenda lists (the most recent); the rest are counted.
  static let overdueShown = 10

  /// What is overdue first, then each day: all-day items at the top, timed ones at their time,
  /// the free time between timed items (an hour or more), active tasks marked, and today's time
  /// worked beside today.
  func agenda(_ agenda: Agenda) -> [String] {
    let allItems = agenda.overdue.suffix(Self.overdueShown) + agenda.items.values.flatMap { $0 }
    let idWidth = allItems.map { String($0.task.id).count }.max() ?? 1
    var lines: [String] = []
    if !agenda.overdue.isEmpty {
      lines.append(styled("Overdue", .heading))
      // The most recent few: a long-neglected list must not push the days off the screen.
      let hidden = agenda.overdue.count - Self.overdueShown
      if hidden > 0 {
        lines.append(styled("  \(hidden) more, older (todo list +OVERDUE lists them all)", .dim))
      }
      for item in agenda.overdue.suffix(Self.overdueShown) {
        // An overdue date of another year says which (`Dec 2025`, where `Fri 5 Dec` would mislead).
        let when = item.day.year == today.year ? Self.dayName(item.day) : "\(Self.shortMonth(item.day.month)) \(item.day.year)"
        lines.append(agendaLine(item, idWidth: idWidth, when: when))
      }
    }
    var previousWasEmpty = false
    for day in agenda.days {
      let items = agenda.items[day] ?? []
      // Days with nothing are one line each, together.
      if !lines.isEmpty && !(previousWasEmpty && items.isEmpty && day != today) { lines.append("") }
      previousWasEmpty = items.isEmpty
      var heading = Self.dayName(day) + (day.year == today.year ? "" : " \(day.year)")
      if day == today {
        heading += " (today)"
        if agenda.workedToday > 0 { heading += ", worked " + Timestamp.duration(agenda.workedToday) }
      }
      if items.isEmpty {
        lines.append(styled(heading, .dim) + styled(day == today ? ": nothing due or scheduled" : ": nothing", .dim))
        continue
      }
      lines.append(styled(heading, .heading))
      var previous: Int64?
      for item in items {
        if let at = item.at, let before = previous, at - before >= 3600 {
          let free = "free \(Self.clock(before) ?? "")\(ascii ? "-" : "–")\(Self.clock(at) ?? "") (\(Timestamp.duration(at - before)))"
          lines.append(styled(String(repeating: " ", count: 12) + (ascii ? "- " : "· ") + free, .dim))
        }
        if let at = item.at { previous = at }
        lines.append(agendaLine(item, idWidth: idWidth, when: item.at.flatMap(Self.clock) ?? "all day"))
      }
    }
    return lines
  }

  /// `09:30`, local; nil when the C library cannot say.
  static func clock(_ instant: Int64) -> String? {
    Timestamp.localTimeOfDay(instant).map { String($0.prefix(5)) }
  }

  private func agendaLine(_ item: AgendaItem, idWidth: Int, when: String) -> String {
    let whenWidth = 10
    let kindStyle = item.overdue ? palette.overdue : item.kind == .due ? palette.today : palette.scheduled
    let fixedWithoutMark = 2 + whenWidth + 2 + idWidth + 2 + 10
    // The mark of a task being worked on, while the title keeps a few columns (else the kind
    // column says it).
    let marked = item.task.active && width - fixedWithoutMark - 9 >= 4
    let active = marked ? " " + styled("(active)", palette.active) : ""
    let kind = item.task.active && !marked ? "active" : item.overdue ? "overdue" : item.kind.rawValue
    let fixed = fixedWithoutMark + (marked ? 9 : 0)
    // Built in place: an agenda of a long-neglected list has thousands of overdue lines.
    var line = "  "
    line.reserveCapacity(width + 48)
    func pad(_ count: Int) { for _ in 0..<max(count, 0) { line += " " } }
    line += when
    pad(whenWidth - displayWidth(of: when) + 2)
    let id = String(item.task.id)
    pad(idWidth - id.utf8.count)
    line += id
    line += "  "
    line += styled(kind, kindStyle)
    pad(10 - kind.utf8.count)
    let (title, titleWidth) = terminalTextAndWidth(item.task.title)
    line += titleWidth <= width - fixed ? title : truncated(title, toWidth: width - fixed)
    line += active
    return line
  }
}
