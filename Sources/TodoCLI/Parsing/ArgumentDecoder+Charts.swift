import TodoCore

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
