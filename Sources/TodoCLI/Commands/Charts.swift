import TodoCore

/// The reports people look at: `calendar`, `agenda`, `burndown`, `summary`, `history`,
/// `ghistory`. TodoCore counts (`TodoStore.activity`, `.burndown`, `.summary`, `.datedTasks`);
/// `ChartText` draws.
extension CommandRunner {
  /// Counts what the report shows and draws it (or writes it as JSON).
  func chart(_ request: ChartRequest) throws(CommandFailure) {
    let width = session.terminalWidth ?? Terminal.defaultWidth
    let ascii = request.ascii || session.environment["TERM"] == "dumb"
    let chartText = ChartText(now: now, color: color, palette: configuration.palette, width: width, ascii: ascii)
    switch request.kind {
    case .summary: try summary(request, chartText)
    case .history, .ghistory: try activity(request, chartText)
    case .burndown: try burndown(request, chartText)
    case .calendar: try calendar(request, chartText)
    case .agenda: try agenda(request, chartText)
    }
  }

  private func write(_ lines: [String]) {
    for line in lines {
      output.write(line)
      output.write("\n")
    }
  }

  private func summary(_ request: ChartRequest, _ chartText: ChartText) throws(CommandFailure) {
    let projects = try perform(TodoStore.summary(request.filter, now: now), access: .read)
    switch format {
    case .human:
      guard !projects.isEmpty else { return output.write("No pending tasks to sum up.\n") }
      write(chartText.summary(projects))
    case .json, .jsonLines:
      writeJSONList(projects) { json, project in
        json.object { json in
          json.field("project", project.name.isEmpty ? nil : project.name)
          json.field("pending", project.pending)
          json.field("done", project.done)
          json.field("average_age_seconds", Int(project.averageAge))
          json.field("percent_done", project.percentDone)
        }
      }
    }
  }

  private func activity(_ request: ChartRequest, _ chartText: ChartText) throws(CommandFailure) {
    let history = try perform(TodoStore.activity(request.filter, by: request.period, now: now), access: .read)
    switch format {
    case .human:
      guard !history.rows.isEmpty else { return output.write("No tasks to count.\n") }
      write(request.kind == .history ? chartText.history(history) : chartText.graphicHistory(history))
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("period", history.period.rawValue)
          json.key("rows")
          json.array { json in
            for row in history.rows {
              json.object { json in
                json.field("start", row.start.description)
                json.field("added", row.added)
                json.field("completed", row.completed)
                json.field("deleted", row.deleted)
                json.field("net", row.added - row.completed - row.deleted)
              }
            }
          }
        }
      }
    }
  }

  private func burndown(_ request: ChartRequest, _ chartText: ChartText) throws(CommandFailure) {
    // As many periods as the width holds; in JSON, always those of 80 columns.
    let count = ChartText.burndownPeriods(width: format == .human ? chartText.width : 80)
    let chart = try perform(TodoStore.burndown(request.filter, by: request.period, count: count, now: now), access: .read)
    switch format {
    case .human:
      guard chart.rows.contains(where: { $0.pending + $0.active + $0.done > 0 }) else {
        return output.write("No tasks to draw: none of them was pending or done in these periods.\n")
      }
      write(chartText.burndown(chart))
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("period", chart.period.rawValue)
          json.key("rows")
          json.array { json in
            for row in chart.rows {
              json.object { json in
                json.field("start", row.start.description)
                json.field("pending", row.pending)
                json.field("active", row.active)
                json.field("done", row.done)
              }
            }
          }
          json.field("added", chart.added)
          json.field("completed", chart.completed)
          json.field("deleted", chart.deleted)
          json.field("days", chart.days)
          json.field("estimated_completion", chart.estimatedCompletion(now: now).map(Timestamp.rfc3339))
        }
      }
    }
  }

  private func calendar(_ request: ChartRequest, _ chartText: ChartText) throws(CommandFailure) {
    let weekNumbers = configuration.calendarWeekNumbers
    let count = request.months ?? min(3, chartText.monthsPerLine(weekNumbers: weekNumbers))
    var firstDays = [CalendarDay(year: chartText.today.year, month: chartText.today.month, day: 1)]
    while firstDays.count < count { firstDays.append(ChartPeriod.monthly.next(after: firstDays[firstDays.count - 1])) }
    let end = ChartPeriod.monthly.next(after: firstDays[firstDays.count - 1])
    let tasks = try perform(
      TodoStore.datedTasks(request.filter, from: firstDays[0].adding(days: -2).start, to: end.adding(days: 2).start, overdue: true, now: now),
      access: .read)
    let days = firstDays[0]...end.adding(days: -1)
    let marks = DayMarks.of(tasks, today: chartText.today).filter { days.contains($0.key) }
    let overdueBefore = tasks.filter { task in task.due.map { $0.localDay < days.lowerBound } ?? false }.count
    switch format {
    case .human:
      write(chartText.calendar(firstDays, marks: marks, weekNumbers: weekNumbers))
      if overdueBefore > 0 {
        output.write(
          chartText.styled(
            "\(overdueBefore) task\(overdueBefore == 1 ? " is" : "s are") overdue from before this calendar.", configuration.palette.overdue) + "\n")
      }
      if request.details, !tasks.isEmpty {
        output.write("\n")
        write(chartText.calendarDetails(tasks, within: days))
      }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("from", days.lowerBound.description)
          json.field("to", days.upperBound.description)
          json.field("today", chartText.today.description)
          json.field("overdue_before", overdueBefore)
          json.key("days")
          json.array { json in
            for (day, mark) in marks.sorted(by: { $0.key < $1.key }) {
              json.object { json in
                json.field("date", day.description)
                for (key, ids) in [("overdue", mark.overdue), ("due", mark.due), ("scheduled", mark.scheduled)] {
                  json.key(key)
                  json.array { json in for id in ids { json.value(Int(id)) } }
                }
              }
            }
          }
        }
      }
    }
  }

  private func agenda(_ request: ChartRequest, _ chartText: ChartText) throws(CommandFailure) {
    let today = chartText.today
    let end = today.adding(days: Int64(request.days))
    let tasks = try perform(
      TodoStore.datedTasks(request.filter, from: today.adding(days: -2).start, to: end.adding(days: 2).start, overdue: true, now: now), access: .read)
    var worked = request.filter
    worked.defaultStatus = .all
    let sheet = try perform(TodoStore.timesheet(worked, since: today.start, until: nil, by: .task, now: now), access: .read)
    let agenda = Agenda(tasks: tasks, today: today, days: request.days, now: now, workedToday: sheet.totalSeconds)
    switch format {
    case .human:
      write(chartText.agenda(agenda))
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("from", today.description)
          json.field("to", end.adding(days: -1).description)
          json.field("worked_today_seconds", Int(agenda.workedToday))
          json.key("overdue")
          json.array { json in for item in agenda.overdue { agendaItem(item, into: &json) } }
          json.key("days")
          json.array { json in
            for day in agenda.days {
              json.object { json in
                json.field("date", day.description)
                json.key("items")
                json.array { json in for item in agenda.items[day] ?? [] { agendaItem(item, into: &json) } }
              }
            }
          }
        }
      }
    }
  }

  private func agendaItem(_ item: AgendaItem, into json: inout JSONWriter) {
    json.object { json in
      json.field("id", Int(item.task.id))
      json.field("title", item.task.title)
      json.field("kind", item.kind.rawValue)
      json.field("date", item.day.description)
      json.field("time", item.at.flatMap(ChartText.clock))
      json.field("at", item.at.map(Timestamp.rfc3339))
      json.field("overdue", item.overdue)
      json.field("active", item.task.active)
    }
  }
}

// MARK: - Decoding

/// The reports people look at: `calendar [MONTHS]`, `agenda [day|week|N [days]]`,
/// `burndown [daily|weekly|monthly]`, `summary`, `history [daily|weekly|monthly|annual]` and
/// `ghistory [PERIOD]`, each with a filter. Taskwarrior's dotted names (`burndown.daily`,
/// `history.annual`) name the period.
extension ArgumentDecoder {
  mutating func chartRequest(_ kind: ChartRequest.Kind, _ tokens: [Token]) throws(UsageError) -> Command {
    var request = ChartRequest(kind: kind)
    request.period = kind == .burndown ? .weekly : .monthly
    var amount: String?
    if let spelling, let dot = spelling.firstIndex(of: "."), let period = ChartPeriod(rawValue: String(spelling[spelling.index(after: dot)...])) {
      request.period = period
      amount = spelling
    }
    var words: [FilterWord] = []
    var leading = true
    let typedBefore = leadingFilter?.map(\.position).max() ?? Int.min
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try nextItem(&reader, kind) {
      switch token {
      case .flag("--details"): request.details = true
      case .flag("--ascii"): request.ascii = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      // A filter typed before the command (`todo +work burndown daily`) comes first here.
      case .word(let word, let plain) where reader.position <= typedBefore:
        words.append(FilterWord(word, plain: plain, at: reader.position))
      case .word(let word, let plain):
        if leading, !plain, try readLeading(word, into: &request, amount: &amount) { continue }
        leading = false
        // `todo history +work monthly`, `todo agenda tomorrow`: a range word out of its place is
        // never a search word.
        if !plain, Self.chartRangeWords.contains(word.lowercased()) {
          throw .invalid(
            "'\(word)' is not a range 'todo \(kind.rawValue)' reads here; see 'todo help \(kind.rawValue)' "
              + "(to search for the word, put it after --)")
        }
        words.append(FilterWord(word, plain: plain, at: reader.position))
      }
    }
    request.filter = try filter(words)
    if let context = configuration.activeContext {
      request.filter = request.filter.narrowed(
        by: try Configuration.filter(configuration.value("context.\(context)"), now: now, configuration: configuration))
    }
    return .chart(request)
  }

  /// The next option or word; `history --limit N`, the journal's listing before it was `journal`,
  /// says where that went.
  private func nextItem(_ reader: inout OptionReader, _ kind: ChartRequest.Kind) throws(UsageError) -> OptionReader.Item? {
    do throws(UsageError) {
      return try reader.next()
    } catch .unknownOption(let name, _) where kind == .history && name == "--limit" {
      throw .invalid("'todo history' counts the tasks added, done and deleted in each period; the undo steps are 'todo journal --limit N'")
    }
  }

  /// Words that say how much a report shows: never search words in a report's filter.
  static let chartRangeWords: Set<String> = [
    "daily", "weekly", "monthly", "annual", "annually", "yearly", "day", "days", "week", "weeks", "month", "months",
    "year", "years", "today", "tomorrow", "due", "y",
  ]

  /// A word before the filter that says how much to show: a period, a number of months or days.
  /// The range is said once (`agenda 3 days`, `agenda week`); what the report cannot take is an
  /// error naming it.
  private func readLeading(_ word: String, into request: inout ChartRequest, amount: inout String?) throws(UsageError) -> Bool {
    let lower = word.lowercased()
    let name = request.kind.rawValue
    func once(_ value: String) throws(UsageError) {
      if let amount { throw .invalid("'\(name)' shows one range: '\(amount)' or '\(value)', not both") }
      amount = value
    }
    switch request.kind {
    case .history, .ghistory, .burndown:
      let synonyms: [String: ChartPeriod] = [
        "day": .daily, "week": .weekly, "month": .monthly, "year": .annual, "yearly": .annual, "annually": .annual,
      ]
      guard let period = ChartPeriod(rawValue: lower) ?? synonyms[lower] else { return false }
      if request.kind == .burndown && period == .annual {
        throw .badValue(option: "burndown", value: word, reason: "use daily, weekly or monthly")
      }
      try once(word)
      request.period = period
      return true
    case .calendar:
      guard Self.isNumber(word), let months = Int(word) else { return false }
      guard (1...24).contains(months) else { throw .badValue(option: "calendar", value: word, reason: "show 1 to 24 months") }
      try once(word)
      request.months = months
      return true
    case .agenda:
      return try agendaRange(word, lower, into: &request, amount: &amount)
    case .summary:
      return false
    }
  }

  /// `agenda day|today|week|N|N days|N weeks`.
  private func agendaRange(_ word: String, _ lower: String, into request: inout ChartRequest, amount: inout String?) throws(UsageError) -> Bool {
    func once(_ value: String) throws(UsageError) {
      if let amount { throw .invalid("'agenda' shows one range: '\(amount)' or '\(value)', not both") }
      amount = value
    }
    switch lower {
    // A unit after a number: `3 days`, `2 weeks`.
    case "days",
      "day" where amount.map(Self.isNumber) == true, "weeks",
      "week" where amount.map(Self.isNumber) == true:
      guard let count = amount.flatMap({ Int($0) }), Self.isNumber(amount ?? "") else {
        throw .invalid("'\(word)' needs a number before it: 'todo agenda 3 \(lower)'")
      }
      let days = lower.hasPrefix("week") ? count * 7 : count
      guard (1...92).contains(days) else { throw .badValue(option: "agenda", value: "\(count) \(lower)", reason: "show 1 to 92 days") }
      request.days = days
      amount = "\(count) \(lower)"
    case "day", "today":
      try once(word)
      request.days = 1
    case "week":
      try once(word)
      request.days = 7
    default:
      guard Self.isNumber(word), let days = Int(word) else { return false }
      guard (1...92).contains(days) else { throw .badValue(option: "agenda", value: word, reason: "show 1 to 92 days") }
      try once(word)
      request.days = days
    }
    return true
  }
}
