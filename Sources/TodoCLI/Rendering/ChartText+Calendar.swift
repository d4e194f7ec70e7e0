import TodoCore
import TodoSystem

extension ChartText {
  /// The columns one month takes: seven days three wide, and the week number before them.
  static func monthWidth(weekNumbers: Bool) -> Int { 21 + (weekNumbers ? 3 : 0) }

  /// How many months fit beside each other (two spaces between).
  func monthsPerLine(weekNumbers: Bool) -> Int {
    max(1, (width + 2) / (Self.monthWidth(weekNumbers: weekNumbers) + 2))
  }

  /// Month grids, as many beside each other as fit, weeks from `Week.firstWeekday`; each day
  /// with tasks carries its mark, and today is drawn in `color.calendar.today` (marked `<` when
  /// colour is off and the day has no other mark).
  func calendar(_ firstDays: [CalendarDay], marks: [CalendarDay: DayMarks], weekNumbers: Bool) -> [String] {
    let perLine = monthsPerLine(weekNumbers: weekNumbers)
    var lines: [String] = []
    var index = 0
    while index < firstDays.count {
      let months = Array(firstDays[index..<min(index + perLine, firstDays.count)])
      let blocks = months.map { monthBlock($0, marks: marks, weekNumbers: weekNumbers) }
      let height = blocks.map(\.count).max() ?? 0
      if !lines.isEmpty { lines.append("") }
      for line in 0..<height {
        let parts = blocks.map { block in line < block.count ? block[line] : (plain: "", styled: "") }
        var text = ""
        for (number, part) in parts.enumerated() {
          text += part.styled
          if number < parts.count - 1 {
            text += String(repeating: " ", count: Self.monthWidth(weekNumbers: weekNumbers) + 2 - displayWidth(of: part.plain))
          }
        }
        lines.append(trimmedEnd(text))
      }
      index += perLine
    }
    lines.append("")
    var legend = "! overdue  * due  ~ scheduled"
    legend += color ? "  " + styled("today", palette.calendarToday) : "  < today"
    lines.append(legend)
    return lines
  }

  private func trimmedEnd(_ text: String) -> String {
    var text = text
    while text.last == " " { text.removeLast() }
    return text
  }

  /// One month's lines, each as plain text (to measure) and as shown.
  private func monthBlock(_ first: CalendarDay, marks: [CalendarDay: DayMarks], weekNumbers: Bool) -> [(plain: String, styled: String)] {
    let width = Self.monthWidth(weekNumbers: weekNumbers)
    let title = "\(Self.monthNames[first.month - 1]) \(first.year)"
    let padding = (width - title.count) / 2
    let centred = String(repeating: " ", count: padding) + title
    var lines = [(plain: centred, styled: styled(centred, .bold))]
    var header = weekNumbers ? "Wk " : ""
    for offset in 0..<7 { header += String(Self.weekdayNames[(Week.firstWeekday + offset) % 7].prefix(2)) + " " }
    lines.append((header, styled(header, .dim)))
    var day = Week.start(of: first)
    while day.month == first.month || day < first {
      var plain = weekNumbers ? Self.right(String(Self.isoWeek(of: day.adding(days: Week.firstWeekday == 0 ? 4 : 3))), 2) + " " : ""
      var shown = styled(plain, .dim)
      for _ in 0..<7 {
        guard day.month == first.month else {
          plain += "   "
          shown += "   "
          day = day.adding(days: 1)
          continue
        }
        let number = Self.right(String(day.day), 2)
        let dayMarks = marks[day]
        var mark = dayMarks?.mark.map(String.init) ?? " "
        if day == today && mark == " " && !color { mark = "<" }
        let style: TextStyle? =
          day == today
          ? palette.calendarToday
          : !(dayMarks?.overdue.isEmpty ?? true)
            ? palette.overdue
            : !(dayMarks?.due.isEmpty ?? true) ? palette.today : !(dayMarks?.scheduled.isEmpty ?? true) ? palette.scheduled : nil
        plain += number + mark
        shown += styled(number, style) + mark
        day = day.adding(days: 1)
      }
      lines.append((plain, shown))
    }
    return lines
  }

  /// The ISO 8601 week number of a day (weeks from Monday; week 1 holds the year's first Thursday).
  static func isoWeek(of day: CalendarDay) -> Int {
    let thursday = day.adding(days: Int64(3 - (day.weekday + 6) % 7))
    let firstOfYear = CalendarDay(year: thursday.year, month: 1, day: 1)
    return Int((thursday.dayNumber - firstOfYear.dayNumber) / 7) + 1
  }

  /// `--details`: the tasks of the calendar's days, one a line.
  func calendarDetails(_ tasks: [DatedTask], within days: ClosedRange<CalendarDay>) -> [String] {
    var entries: [(day: CalendarDay, kind: String, task: DatedTask)] = []
    for task in tasks {
      if let due = task.due?.localDay, due <= days.upperBound {
        entries.append((due, due < today ? "overdue" : "due", task))
      }
      if let scheduled = task.scheduled?.localDay, days.contains(scheduled) { entries.append((scheduled, "scheduled", task)) }
    }
    entries.sort { ($0.day, $0.task.id) < ($1.day, $1.task.id) }
    let idWidth = entries.map { String($0.task.id).count }.max() ?? 1
    return entries.map { entry in
      let kind = styled(
        entry.kind.padding(toWidth: 9), entry.kind == "overdue" ? palette.overdue : entry.kind == "due" ? palette.today : palette.scheduled)
      let prefix = (Self.dayName(entry.day) + (entry.day.year == today.year ? "" : " \(entry.day.year)")).padding(toWidth: 16)
      return prefix + kind + " " + Self.right(String(entry.task.id), idWidth) + "  "
        + Self.title(entry.task.title, width - 16 - 10 - idWidth - 2)
    }
  }
}
