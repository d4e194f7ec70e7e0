import TodoCore

/// The reports people look at: `calendar [MONTHS]`, `agenda [day|week|N [days]]`,
/// `burndown [daily|weekly|monthly]`, `summary`, `history [daily|weekly|monthly|annual]` and
/// `ghistory [PERIOD]`, each with a filter. Taskwarrior's dotted names (`burndown.daily`,
/// `history.annual`) name the period.
extension ArgumentDecoder {
  mutating func chartRequest(_ kind: ChartRequest.Kind, _ tokens: [Token]) throws(UsageError) -> Command {
    var request = ChartRequest(kind: kind)
    request.period = kind == .burndown ? .weekly : .monthly
    if let spelling, let dot = spelling.firstIndex(of: "."), let period = ChartPeriod(rawValue: String(spelling[spelling.index(after: dot)...])) {
      request.period = period
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
        if leading, !plain, try readLeading(word, into: &request) { continue }
        leading = false
        words.append(FilterWord(word, plain: plain, at: reader.position))
      }
    }
    request.filter = try filter(words)
    if let context = configuration.activeContext {
      request.filter = request.filter.narrowed(by: try Configuration.filter(configuration.value("context.\(context)"), now: now))
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

  /// A word before the filter that says how much to show: a period, a number of months or days.
  private func readLeading(_ word: String, into request: inout ChartRequest) throws(UsageError) -> Bool {
    let lower = word.lowercased()
    switch request.kind {
    case .history, .ghistory, .burndown:
      guard let period = ChartPeriod(rawValue: lower) else { return false }
      if request.kind == .burndown && period == .annual {
        throw .badValue(option: "burndown", value: word, reason: "use daily, weekly or monthly")
      }
      request.period = period
      return true
    case .calendar:
      guard Self.isNumber(word), let months = Int(word) else { return false }
      guard (1...24).contains(months) else { throw .badValue(option: "calendar", value: word, reason: "show 1 to 24 months") }
      request.months = months
      return true
    case .agenda:
      switch lower {
      case "day", "today": request.days = 1
      case "week": request.days = 7
      case "days" where request.days > 0: break
      default:
        guard Self.isNumber(word), let days = Int(word) else { return false }
        guard (1...92).contains(days) else { throw .badValue(option: "agenda", value: word, reason: "show 1 to 92 days") }
        request.days = days
      }
      return true
    case .summary:
      return false
    }
  }
}
