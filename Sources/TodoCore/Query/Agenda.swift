extension TaskDate {
  /// The local calendar day of the date.
  public var localDay: CalendarDay {
    switch self {
    case .day(let day): day
    case .instant(let instant): CalendarDay.local(instant)
    }
  }
}

/// What falls on one day of a calendar: the pending tasks overdue, due and scheduled then.
public struct DayMarks: Sendable, Equatable {
  public var overdue: [Int64] = []
  public var due: [Int64] = []
  public var scheduled: [Int64] = []

  public init() {}

  /// The mark after the day's number in a calendar: `!` overdue, `*` due, `~` scheduled.
  public var mark: Character? {
    !overdue.isEmpty ? "!" : !due.isEmpty ? "*" : !scheduled.isEmpty ? "~" : nil
  }

  /// Each day's tasks, in the order given: a due day before today is overdue.
  public static func of(_ tasks: [DatedTask], today: CalendarDay) -> [CalendarDay: DayMarks] {
    var marks: [CalendarDay: DayMarks] = [:]
    for task in tasks {
      if let due = task.due?.localDay {
        if due < today { marks[due, default: DayMarks()].overdue.append(task.id) } else { marks[due, default: DayMarks()].due.append(task.id) }
      }
      if let scheduled = task.scheduled?.localDay { marks[scheduled, default: DayMarks()].scheduled.append(task.id) }
    }
    return marks
  }
}

/// One line of an agenda: a task due or scheduled on a day, at a time or all day.
public struct AgendaItem: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case due, scheduled
  }

  public var task: DatedTask
  public var kind: Kind
  public var day: CalendarDay
  /// The instant, for a timed date; nil all day.
  public var at: Int64?
  /// Due, and past: a timed due before now, an all-day due before today.
  public var overdue: Bool
}

/// An agenda (`todo agenda`): what is overdue from before its first day, then each day's items.
public struct Agenda: Sendable, Equatable {
  public var days: [CalendarDay]
  public var overdue: [AgendaItem]
  public var items: [CalendarDay: [AgendaItem]]
  /// Time worked today on the tasks the filter selects, in seconds.
  public var workedToday: Int64

  /// Sorts dated tasks into an agenda of `count` days from `today`: on each day, the all-day
  /// items first, then the timed ones by time (then by id).
  public init(tasks: [DatedTask], today: CalendarDay, days count: Int, now: Int64, workedToday: Int64) {
    days = (0..<count).map { today.adding(days: Int64($0)) }
    overdue = []
    items = [:]
    self.workedToday = workedToday
    let last = today.adding(days: Int64(count - 1))
    for task in tasks {
      for (kind, date) in [(AgendaItem.Kind.due, task.due), (.scheduled, task.scheduled)] {
        guard let date else { continue }
        let day = date.localDay
        var at: Int64?
        if case .instant(let instant) = date { at = instant }
        let item = AgendaItem(task: task, kind: kind, day: day, at: at, overdue: kind == .due && date.isPast(now: now))
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
