import DataOperation
import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `remind`: the reminders to come, their delivery (`--check`, `--watch`), snooze and dismiss,
/// and the timer that runs the checks (`--install`, `--uninstall`).
extension CommandRunner {
  func remind(_ request: RemindRequest) throws(CommandFailure) {
    switch request.mode {
    case .list(let next, let all): try listReminders(request.filter, next: next, all: all)
    case .check: try checkReminders()
    case .watch: try watchReminders()
    case .install(let cron): try installReminderTimer(cron: cron)
    case .uninstall: try uninstallReminderTimer()
    case .snooze(let reference, let seconds): try snooze(reference, seconds: seconds)
    case .dismiss(let references): try dismiss(references)
    }
  }

  // MARK: - the list

  private func listReminders(_ filter: TodoFilter?, next: Bool, all: Bool) throws(CommandFailure) {
    let operation = filter.map { TodoStore.reminders(matching: $0, now: now) } ?? TodoStore.reminders()
    var items = try perform(operation, access: .read)
    if !all { items = items.filter { $0.outcome == nil } }
    if next { items = Array(items.prefix(1)) }
    switch format {
    case .json where next:
      writeJSON { json in
        if let first = items.first { reminderJSON(first, into: &json) } else { json.nullValue() }
      }
    case .json, .jsonLines: writeJSONList(items) { json, item in reminderJSON(item, into: &json) }
    case .human where next:
      // One line for a status bar; nothing when there is none.
      guard let first = items.first else { return }
      output.write("\(text.describe(instant: first.fire)) \(sanitizedForTerminal(first.task.title)) (task \(first.task.id))\n")
    case .human:
      guard !items.isEmpty else {
        output.write(
          all ? "No reminders.\n" : "No reminders to come. Add one with: todo update ID remind:due-15min (see 'todo help remind')\n")
        return
      }
      var columns = [
        Table.Column(header: "When"), Table.Column(header: "In", alignment: .right), Table.Column(header: "ID", alignment: .right),
        Table.Column(header: "Reminder"), Table.Column(header: "Task", flexible: true),
      ]
      if all { columns.insert(Table.Column(header: "State"), at: 2) }
      let rows = items.map { item -> [Table.Cell] in
        var cells: [Table.Cell] = [
          Table.Cell(text.describe(instant: item.fire)),
          Table.Cell(Timestamp.relative(item.fire, now: now, past: .ago), style: item.fire <= now ? .dim : nil),
          Table.Cell(String(item.task.id)), Table.Cell(Self.reminderLabel(item.reminder)), Table.Cell(item.task.title),
        ]
        if all { cells.insert(Table.Cell(Self.state(of: item, now: now)), at: 2) }
        return cells
      }
      render(Table(columns: columns, rows: rows))
    }
  }

  static func reminderLabel(_ reminder: Reminder) -> String {
    switch reminder.when {
    case .at: reminder.isSnooze ? "snooze" : "at"
    case .relative: reminder.text
    }
  }

  /// `upcoming`, `due` (its time came, not delivered yet), or what became of it.
  static func state(of item: ScheduledReminder, now: Int64) -> String {
    item.outcome?.rawValue ?? (item.fire <= now ? "due" : "upcoming")
  }

  private func reminderJSON(_ item: ScheduledReminder, into json: inout JSONWriter) {
    json.object { json in
      json.field("id", Int(item.task.id))
      json.field("uuid", item.task.uuid)
      json.field("title", item.task.title)
      json.field("reminder", item.reminder.text)
      json.field("at", Timestamp.rfc3339(item.fire))
      json.field("state", Self.state(of: item, now: now))
      json.field("decided", item.decided.map(Timestamp.rfc3339))
      json.field("due", item.task.due?.text)
      json.field("project", item.task.project)
    }
  }

  // MARK: - delivery

  /// The policy of `remind.missed.limit` and `remind.quiet`.
  func reminderPolicy() throws(CommandFailure) -> ReminderPolicy {
    var policy = ReminderPolicy()
    let limit = configuration.value("remind.missed.limit")
    guard let seconds = UserAttribute.seconds(limit), seconds > 0 else {
      throw .usage(.invalid("remind.missed.limit is '\(limit)': give a duration (1d, 12h, 90min)"))
    }
    policy.missedLimit = seconds
    let quiet = configuration.value("remind.quiet").trimmingWhitespace()
    if !quiet.isEmpty {
      guard let hours = QuietHours(parsing: quiet) else {
        throw .usage(.invalid("remind.quiet is '\(quiet)': give two times of day, like 22:00-07:00"))
      }
      policy.quiet = hours
    }
    return policy
  }

  /// `--check`: delivers the reminders whose time has come, once each.
  private func checkReminders() throws(CommandFailure) {
    let delivery = try ReminderDelivery(runner: self)
    let policy = try reminderPolicy()
    let result = try deliverDue(now: now, policy: policy, delivery: delivery)
    switch format {
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          for (key, items) in [("delivered", result.delivered), ("skipped", result.skipped), ("held", result.held)] {
            json.key(key)
            json.array { json in for item in items { reminderJSON(item, into: &json) } }
          }
          json.field("dry_run", invocation.options.dryRun)
        }
      }
    case .human:
      let verb = invocation.options.dryRun ? "Would deliver" : "Delivered"
      if !result.delivered.isEmpty {
        output.write("\(verb) \(Self.count(result.delivered.count, "reminder")): \(result.delivered.map { "task \($0.task.id)" }.joinedText(", "))\n")
      }
      if !result.skipped.isEmpty {
        output.write(
          "\(Self.count(result.skipped.count, "reminder")) older than remind.missed.limit \(invocation.options.dryRun ? "would be" : result.skipped.count == 1 ? "was" : "were") recorded without being shown\n"
        )
      }
      if !result.held.isEmpty, let quiet = policy.quiet, let end = quiet.end(after: now) {
        output.write("\(Self.count(result.held.count, "reminder")) held until \(text.describe(instant: end)) (remind.quiet \(quiet.text))\n")
      }
    }
  }

  static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

  struct CheckResult {
    var delivered: [ScheduledReminder] = []
    var skipped: [ScheduledReminder] = []
    var held: [ScheduledReminder] = []
  }

  /// Records and delivers what is due at `at`. Reading first: a check with nothing due (nearly
  /// every minute) takes no write lock.
  func deliverDue(now at: Int64, policy: ReminderPolicy, delivery: ReminderDelivery) throws(CommandFailure) -> CheckResult {
    let waiting = try perform(TodoStore.reminders(), access: .read).filter { $0.isWaiting(now: at) }
    var result = CheckResult()
    guard !waiting.isEmpty else { return result }
    result.held = waiting.filter { policy.outcome(fire: $0.fire, now: at) == nil }
    let claimed = try perform(TodoStore.claimReminders(now: at, policy: policy), access: invocation.options.dryRun ? .dryRun : .write)
    result.skipped = claimed.filter { $0.outcome == .skipped }
    let due = claimed.filter { $0.outcome != .skipped }
    guard !invocation.options.dryRun else {
      result.delivered = due
      return result
    }
    var failed: [ScheduledReminder] = []
    var problems: [String] = []
    var partly: [String] = []
    for item in due {
      let outcome = delivery.deliver(item, now: at)
      if outcome.delivered {
        result.delivered.append(item)
        partly += outcome.problems
      } else {
        failed.append(item)
        problems += outcome.problems
      }
    }
    // A channel that failed where another delivered: said, not retried (it was delivered).
    for problem in Array(Set(partly)).sorted() {
      session.warn("\(problem); the reminder was delivered another way (remind.notify)", json: format != .human)
    }
    // Not shown anywhere: the next check tries again.
    if !failed.isEmpty { _ = try perform(TodoStore.releaseReminders(failed), access: .write) }
    if !problems.isEmpty {
      throw .environment(
        "cannot deliver \(failed.count == 1 ? "a reminder" : "reminders"): " + Array(Set(problems)).sorted().joinedText("; ")
          + "; \(Self.count(failed.count, "reminder")) will be tried again at the next check")
    }
    return result
  }

  // MARK: - snooze and dismiss

  /// `snooze ID [DURATION]`: the task rings again after the duration.
  private func snooze(_ reference: TaskReference, seconds: Int64?) throws(CommandFailure) {
    let configured = configuration.value("remind.snooze")
    guard let length = seconds ?? UserAttribute.seconds(configured), length > 0 else {
      throw .usage(.invalid("remind.snooze is '\(configured)': give a duration (10min, 1h)"))
    }
    try change(TodoStore.snooze(reference, until: now + length, now: now, command: invocation.commandLine), verb: .update, selection: nil)
  }

  /// `dismiss ID…`: the reminders whose time has come (or else each task's next one) will not ring.
  private func dismiss(_ references: [TaskReference]) throws(CommandFailure) {
    let dismissed = try perform(TodoStore.dismiss(references, now: now), access: invocation.options.dryRun ? .dryRun : .write)
    switch format {
    case .json, .jsonLines: writeJSONList(dismissed) { json, item in reminderJSON(item, into: &json) }
    case .human:
      guard !dismissed.isEmpty else {
        output.write("Nothing to dismiss: no reminder of \(references.count == 1 ? "that task" : "those tasks") is to come.\n")
        return
      }
      for item in dismissed {
        output.write(
          "\(invocation.options.dryRun ? "Would dismiss" : "Dismissed") the reminder of task \(item.task.id) at \(text.describe(instant: item.fire))\n"
        )
      }
    }
  }
}

// MARK: - Decoding

/// `remind`: `remind [FILTER] [--next] [--all]`, `remind --check`, `remind --watch`,
/// `remind --install [--cron]`, `remind --uninstall`, `remind snooze ID [DURATION]`,
/// `remind dismiss ID…`.
extension ArgumentDecoder {
  mutating func remindRequest(_ tokens: [Token]) throws(UsageError) -> RemindRequest {
    var request = RemindRequest()
    if let first = tokens.first, ["snooze", "dismiss"].contains(first.text) {
      return try remindAction(first.text, Array(tokens.dropFirst()))
    }
    var flags: [String] = []
    var words: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .flag(let name) where command.flagOptions.contains(name): flags.append(name)
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let plain): words.append(FilterWord(word, plain: plain, at: reader.position))
      }
    }
    let modes = flags.filter { ["--check", "--watch", "--install", "--uninstall"].contains($0) }
    if modes.count > 1 { throw .invalid("\(modes[0]) and \(modes[1]) cannot be given together") }
    if let mode = modes.first {
      if let other = flags.first(where: { $0 != mode && !(mode == "--install" && $0 == "--cron") }) {
        throw .invalid("\(other) does not go with \(mode)")
      }
      if let word = words.first { throw .unexpectedArgument(command: "remind \(mode)", word: word.text) }
      switch mode {
      case "--check": request.mode = .check
      case "--watch": request.mode = .watch
      case "--install": request.mode = .install(cron: flags.contains("--cron"))
      default: request.mode = .uninstall
      }
      return request
    }
    if flags.contains("--cron") { throw .invalid("--cron goes with --install") }
    request.mode = .list(next: flags.contains("--next"), all: flags.contains("--all"))
    if !words.isEmpty { request.filter = try filter(words) }
    return request
  }

  /// `snooze ID [DURATION]`, `dismiss ID…`.
  private func remindAction(_ action: String, _ tokens: [Token]) throws(UsageError) -> RemindRequest {
    var request = RemindRequest()
    if let option = tokens.first(where: { $0.text.hasPrefix("--") && $0.text != "--" }) {
      throw .unknownOption(option.text, suggestion: nil)
    }
    let words = tokens.filter { $0.text != "--" }
    if action == "snooze" {
      let reference = try oneReference(words.first, what: "the id of the task to snooze")
      var seconds: Int64?
      if words.count > 1 {
        guard let read = UserAttribute.seconds(words[1].text), read > 0, !words[1].text.lowercased().hasSuffix("m") else {
          throw .badValue(option: "remind snooze", value: words[1].text, reason: "give a duration: 10min, 1h, 2d")
        }
        seconds = read
      }
      if words.count > 2 { throw .unexpectedArgument(command: "remind snooze", word: words[2].text) }
      request.mode = .snooze(reference, seconds: seconds)
      return request
    }
    guard !words.isEmpty else { throw .missingArgument(command: "remind dismiss", what: "the ids of the tasks whose reminders to dismiss") }
    var references: [TaskReference] = []
    for word in words {
      guard let read = TaskReference.list(word.text) else {
        throw .badValue(option: "remind dismiss", value: word.text, reason: "give task ids (3, 3-7, 1,4)")
      }
      references += read
    }
    request.mode = .dismiss(references)
    return request
  }
}
