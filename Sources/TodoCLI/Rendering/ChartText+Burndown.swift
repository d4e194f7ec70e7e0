import TodoCore

extension ChartText {
  /// The height of a burndown's bars, in lines.
  static let burndownHeight = 12
  /// The columns one period takes: a bar two wide and a space.
  static let barSlot = 3

  /// How many periods a burndown shows at a width: as many as fit beside the axis.
  static func burndownPeriods(width: Int) -> Int {
    // The axis' numbers up to 7 digits, a space and the rule.
    max(4, (max(width, 40) - 9) / barSlot)
  }

  /// Stacked bars (done at the bottom, then active, then pending), the periods under them, a
  /// legend, the rates and the estimated completion.
  func burndown(_ chart: Burndown) -> [String] {
    let totals = chart.rows.map { $0.pending + $0.active + $0.done }
    let largest = max(totals.max() ?? 0, 1)
    let axisWidth = String(largest).count
    let height = Self.burndownHeight
    func level(_ value: Int) -> Int { (value * height + largest / 2) / largest }
    var lines = [styled("Burndown (\(chart.period.rawValue))", .heading), ""]
    let rule = ascii ? "|" : "│"
    for line in stride(from: height, through: 1, by: -1) {
      let label = line == height ? String(largest) : line == (height + 1) / 2 ? String(largest / 2) : ""
      var text = Self.right(label, axisWidth) + " " + rule
      for row in chart.rows {
        let part: Part? =
          line <= level(row.done)
          ? .completed
          : line <= level(row.done + row.active) ? .active : line <= level(row.done + row.active + row.pending) ? .pending : nil
        text += " " + (part.map { styled(mark($0) + mark($0), style($0)) } ?? "  ")
      }
      while text.last == " " { text.removeLast() }
      lines.append(text)
    }
    let corner = ascii ? "+" : "└"
    let dash = ascii ? "-" : "─"
    lines.append(Self.right("0", axisWidth) + " " + corner + String(repeating: dash, count: chart.rows.count * Self.barSlot))
    lines.append(contentsOf: axisLabels(chart.rows.map(\.start), period: chart.period, indent: axisWidth + 2))
    lines.append("")
    lines.append(legend([(.pending, "pending"), (.active, "active"), (.completed, "done")]))
    lines.append(contentsOf: trend(chart))
    return lines
  }

  /// The periods under the bars: the day (or month) of each, and under it the month (or year)
  /// where it changes.
  func axisLabels(_ days: [CalendarDay], period: ChartPeriod, indent: Int) -> [String] {
    var first = String(repeating: " ", count: indent)
    var second = ""
    var previous: CalendarDay?
    var onlyFirst = false
    for (index, day) in days.enumerated() {
      first += Self.right(String(period == .monthly ? day.month : day.day), 3)
      let changes = period == .monthly ? previous?.year != day.year : previous?.month != day.month
      let name = period == .monthly ? String(day.year) : Self.shortMonth(day.month)
      let column = first.count - 2
      // The first bar's name gives way to a change right after it.
      if changes, index > 0, second.count >= column, onlyFirst { second = "" }
      if changes, second.isEmpty || second.count < column {
        second += String(repeating: " ", count: max(column - second.count, 0)) + name
        onlyFirst = index == 0
      }
      previous = day
    }
    return [first, second]
  }

  /// Tasks added and done a day over the chart's range, and when the pending ones would be done.
  func trend(_ chart: Burndown) -> [String] {
    let (days, unit) =
      switch chart.period {
      case .daily: (1.0, "day")
      case .weekly: (7.0, "week")
      case .monthly, .annual: (30.44, "month")
      }
    func rate(_ count: Int) -> String {
      let perPeriod = chart.days > 0 ? Double(count) / chart.days * days : 0
      let tenths = Int((perPeriod * 10).rounded())
      return "\(tenths / 10).\(tenths % 10)"
    }
    let since = chart.rows.first.map { $0.start.description } ?? ""
    var text = "Added \(rate(chart.added)) a \(unit), done \(rate(chart.completed))"
    if chart.deleted > 0 { text += ", deleted \(rate(chart.deleted))" }
    text += " a \(unit), since \(since)."
    if chart.pendingNow == 0 {
      text += " Nothing is pending."
    } else if let end = chart.estimatedCompletion(now: now) {
      text += " Estimated completion: \(CalendarDay.local(end)) (\(Timestamp.relative(end, now: now, past: .ago)))."
    } else {
      text += " Estimated completion: none at this rate (no more done or deleted than added)."
    }
    return wrapped(text)
  }
}
