import TodoCore

/// One line of an agenda: a task due or scheduled on a day, at a time or all day.
struct AgendaItem: Equatable {
  enum Kind: String {
    case due, scheduled
  }

  var task: DatedTask
  var kind: Kind
  var day: CalendarDay
  /// The instant, for a timed date; nil all day.
  var at: Int64?
  /// Due before now.
  var overdue: Bool
}

/// An agenda: what is overdue from before it, then each day's items.
struct Agenda: Equatable {
  var days: [CalendarDay]
  var overdue: [AgendaItem]
  var items: [CalendarDay: [AgendaItem]]
  /// Time worked today on the tasks the filter selects, in seconds.
  var workedToday: Int64

  /// Sorts dated tasks into an agenda of `days` days from `today`: on each day, the all-day
  /// items first, then the timed ones by time.
  init(tasks: [DatedTask], today: CalendarDay, days count: Int, now: Int64, workedToday: Int64) {
    days = (0..<count).map { today.adding(days: Int64($0)) }
    overdue = []
    items = [:]
    self.workedToday = workedToday
    let last = today.adding(days: Int64(count - 1))
    for task in tasks {
      for (kind, date) in [(AgendaItem.Kind.due, task.due), (.scheduled, task.scheduled)] {
        guard let date else { continue }
        let day = ChartText.day(of: date)
        var at: Int64?
        if case .instant(let instant) = date { at = instant }
        let isOverdue = kind == .due && (at.map { $0 < now } ?? (day < today))
        let item = AgendaItem(task: task, kind: kind, day: day, at: at, overdue: isOverdue)
        if day < today {
          if kind == .due { overdue.append(item) }
        } else if day <= last {
          items[day, default: []].append(item)
        }
      }
    }
    for day in items.keys {
      items[day]?.sort { left, right in
        switch (left.at, right.at) {
        case (nil, nil): left.task.id < right.task.id
        case (nil, _): true
        case (_, nil): false
        case (let l?, let r?): l != r ? l < r : left.task.id < right.task.id
        }
      }
    }
  }
}

extension ChartText {
  /// What is overdue first, then each day: all-day items at the top, timed ones at their time,
  /// the free time between timed items (an hour or more), active tasks marked, and today's time
  /// worked beside today.
  func agenda(_ agenda: Agenda) -> [String] {
    let allItems = agenda.overdue + agenda.items.values.flatMap { $0 }
    let idWidth = allItems.map { String($0.task.id).count }.max() ?? 1
    var lines: [String] = []
    if !agenda.overdue.isEmpty {
      lines.append(styled("Overdue", .heading))
      for item in agenda.overdue { lines.append(agendaLine(item, idWidth: idWidth, when: Self.dayName(item.day))) }
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
          let free = "free \(Self.clock(before))\(ascii ? "-" : "–")\(Self.clock(at)) (\(Timestamp.duration(at - before)))"
          lines.append(styled(String(repeating: " ", count: 12) + (ascii ? "- " : "· ") + free, .dim))
        }
        if let at = item.at { previous = at }
        lines.append(agendaLine(item, idWidth: idWidth, when: item.at.map(Self.clock) ?? "all day"))
      }
    }
    return lines
  }

  /// `09:30`, local.
  static func clock(_ instant: Int64) -> String {
    Timestamp.localTimeOfDay(instant).map { String($0.prefix(5)) } ?? "--:--"
  }

  private func agendaLine(_ item: AgendaItem, idWidth: Int, when: String) -> String {
    let whenWidth = 10
    let kind = item.overdue ? "overdue" : item.kind.rawValue
    let kindStyle = item.overdue ? palette.overdue : item.kind == .due ? palette.today : palette.scheduled
    let active = item.task.active ? " " + styled("(active)", palette.active) : ""
    let activeWidth = item.task.active ? 9 : 0
    let fixed = 2 + whenWidth + 2 + idWidth + 2 + 10 + activeWidth
    return "  " + Self.left(when, whenWidth) + "  " + Self.right(String(item.task.id), idWidth) + "  "
      + styled(Self.left(kind, 9), kindStyle) + " " + Self.title(item.task.title, width - fixed) + active
  }
}
