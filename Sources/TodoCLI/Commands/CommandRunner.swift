import CBuildInfo
import DataOperation
import TodoCore
import TodoSystem

/// Runs one parsed command: builds its one operation from TodoCore, runs it as one transaction on
/// the session's database, and renders the result. Commands stay thin: no domain rule lives here.
struct CommandRunner {
  let session: Session
  let invocation: Invocation
  let now: Int64
  /// This run's hooks (nil: none run), their folder read once.
  let hooks: Hooks?

  init(session: Session, invocation: Invocation, now: Int64) {
    self.session = session
    self.invocation = invocation
    self.now = now
    hooks = Self.hooks(session: session, invocation: invocation)
  }

  var output: OutputStream { session.standardOutput }
  var format: OutputFormat { invocation.options.format }
  var color: Bool { session.colorEnabled(invocation.options.color) }
  var text: TaskText {
    var text = TaskText(now: now, color: color)
    text.palette = session.configuration.palette
    text.dateFormat = session.configuration.dateFormat
    return text
  }
  /// Pretty JSON for `--json`; one line per value for `--jsonl`, and in the shell for both
  /// (each command's output is one JSON value on one line there: JSON Lines).
  var jsonFormat: JSONWriter.Format { format == .jsonLines || session.inShell ? .compact : .pretty }

  func run() throws(CommandFailure) {
    try runLaunchHooks()
    switch invocation.command {
    case .help(let topic):
      try showHelp(topic)
    case .version:
      showVersion()
    case .diag:
      try diag()
    case .date(let expression):
      try showDate(expression)
    case .completions(let shell):
      showCompletions(shell)
    case .shell, .ui:
      // Session.execute starts the shell and the interface before a runner is made; nothing to do here.
      break
    case .add, .update, .log, .duplicate, .updateSeries, .done, .deleteSeries, .editNote, .removeNote, .start, .stop, .reopen, .delete,
      .note:
      try runChange(invocation.command)
    case .purge(let filter):
      try purge(filter)
    case .timesheet(let query):
      try timesheet(query)
    case .export(let request):
      try export(request)
    case .import(let request):
      try importTasks(request)
    case .migrate(let request):
      try migrate(request)
    case .sync(let request):
      try sync(request)
    case .next(let query):
      try report(query, definition(of: query))
    case .config(let request):
      try config(request)
    case .context(let request):
      try context(request)
    case .edit(let reference):
      try edit(reference)
    case .why(let reference):
      try why(reference)
    case .tree(let query):
      try tree(query)
    case .list(let query):
      try showReport(query)
    case .show(let references, let single):
      try show(references, single: single)
    case .undo:
      try undo()
    case .journal(let limit):
      try journal(limit: limit)
    case .chart(let request):
      try chart(request)
    case .remind(let request):
      try remind(request)
    case .check:
      try check()
    case .recover(let path):
      try recover(into: path)
    case .tags:
      try names(perform(TodoStore.tags(), access: .read), heading: "Tag", prefix: "+", key: "tag")
    case .projects:
      try names(perform(TodoStore.projects(), access: .read), heading: "Project", prefix: "", key: "project")
    case .stats:
      try stats()
    case .selection(let query, let output):
      try selection(query, output)
    case .get(let references):
      try get(references)
    case .unique(let attribute, let query):
      try unique(attribute, query)
    case .plainNames(let tags):
      try plainNames(tags: tags)
    case .removeNoteMatching(let reference, let text):
      try removeNote(matching: text, of: reference)
    }
  }

  /// The `on-launch` hooks, before anything else; every hook is checked now, so that an unsafe
  /// `on-exit` hook stops the command before it writes rather than after.
  private func runLaunchHooks() throws(CommandFailure) {
    switch invocation.command {
    // Not for the commands declared without hooks (help, settings, repairs), nor `--version`.
    case _ where !invocation.name.declaration.runsHooks: break
    case .help, .version: break
    // (Nor the password vdirsyncer fetches through todo: it is not a command of the user's.)
    case .sync(let request) where { if case .askPassword = request.mode { true } else { false } }(): break
    default:
      guard let hooks else { return }
      do throws(CommandFailure) {
        if let unsafe = hooks.unsafe { throw .hook(unsafe) }
        showHookMessages(try hooks.run(.launch, lines: []).messages)
      } catch .hook(let message) {
        throw .hook(message + "; nothing was changed")
      }
    }
  }

  /// `show`: every field, the notes and the history of each task (with --json, the tasks).
  private func show(_ references: [TaskReference], single: Bool) throws(CommandFailure) {
    // The tasks, their user-defined attributes and their links to tasks that are not here (yet),
    // in one read.
    let (found, attributes, kept) = try perform(
      TodoStore.tasks(references).flatMap { found in
        TodoStore.userAttributes(of: found.map(\.id)).flatMap { attributes in
          TodoStore.keptLinks(of: found.map(\.id)).map { kept in (found, attributes, kept) }
        }
      }, access: .read)
    let defined = configuration.userAttributes
    let todos = found.map { todo in
      guard let links = kept[todo.id] else { return todo }
      var todo = todo
      if todo.parentUUID == nil { todo.parentUUID = links.parent }
      todo.depends += links.depends.map { TaskLink(id: 0, uuid: $0, isOpen: true) }
      return todo
    }
    if format == .human {
      let text = self.text
      for (index, todo) in todos.enumerated() {
        if index > 0 { output.write("\n") }
        let upcoming = todo.seriesID == nil ? [] : try perform(TodoStore.upcomingDates(of: todo, count: 3, now: now), access: .read)
        for line in text.details(todo, upcoming: upcoming, attributes: attributes[todo.id] ?? [], defined: defined) {
          output.write(line + "\n")
        }
        for line in text.history(try perform(TodoStore.history(ofTask: todo.id), access: .read)) { output.write(line + "\n") }
      }
    } else if single {
      writeJSON { $0.task(todos[0], attributes: attributes[todos[0].id]) }
    } else {
      writeJSONList(todos) { $0.task($1, attributes: attributes[$1.id]) }
    }
  }

  private func showHelp(_ topic: String?) throws(CommandFailure) {
    let help = try Help.text(topic: topic)
    guard format != .human else { return output.write(help + "\n") }
    writeJSON { json in
      json.object { json in
        json.field("topic", topic.map { CommandName.spellings[$0]?.rawValue ?? $0 })
        json.field("text", help)
      }
    }
  }

  private func showVersion() {
    guard format != .human else { return output.write(Version.line + "\n") }
    writeJSON { json in
      json.object { json in
        json.field("version", Version.current)
        json.field("commit", Version.commit)
        json.field("schema_version", Version.jsonSchema)
      }
    }
  }

  private func showCompletions(_ shell: CompletionScript.Shell) {
    guard format != .human else { return output.write(CompletionScript.text(for: shell)) }
    writeJSON { json in
      json.object { json in
        json.field("shell", shell.rawValue)
        json.field("script", CompletionScript.text(for: shell))
      }
    }
  }

  /// The changes of a new task with its UUID made here, once: a preview (which hooks see) and
  /// the write then give the task the same one.
  static func withUUID(_ changes: TodoChanges) -> TodoChanges {
    var changes = changes
    changes.uuid = UUIDGenerator.make()
    return changes
  }

  /// How a command's operation touches the database.
  enum Access {
    /// A snapshot that blocks no writer; a database that does not exist reads as empty.
    case read
    /// One transaction that commits.
    case write
    /// One transaction that is rolled back: what would happen, with nothing written (and no
    /// file created when the database does not exist yet).
    case dryRun
    /// The same, on the connection the write that follows will use: the preview of a change
    /// that is about to be made anyway (the question on a terminal).
    case preview
  }

  /// Runs the command's one operation, as one transaction, on the session's database.
  ///
  /// A write to a database that does not exist yet is first tried on an empty one in memory, so
  /// that a command that fails (`undo` with nothing to undo) creates no file and no folder.
  func perform<Value: Sendable>(_ operation: DataOperation<Value, TodoError>, access: Access) throws(CommandFailure) -> Value {
    let path = invocation.options.databasePath
    let exists = session.databaseExists(path: path)
    if access == .write && !exists {
      _ = try perform(operation, access: .dryRun)
    }
    // A dry run changes nothing, not even the file's journal mode or schema version: all it reads
    // and does runs on an empty database in memory when there is no file, else on one opened
    // without upgrading, and is rolled back.
    let dryRun = access == .dryRun || invocation.options.dryRun || (access == .preview && !exists)
    let context =
      dryRun ? try session.dryRunContext(path: path) : try session.context(path: path, readOnly: access == .read)
    let transaction: TodoDatabase.Transaction =
      switch access {
      case .read where dryRun: .rolledBack(writes: false)
      case .read: .read
      case .write: .write
      case .dryRun, .preview: .rolledBack(writes: true)
      }
    do throws(TodoError) {
      return try TodoDatabase.run(operation, transaction, in: context)
    } catch {
      throw .domain(error)
    }
  }

  /// Runs a change: with `--dry-run` only shows it; a large one asks first on a terminal (see
  /// `Confirmation`) and then changes exactly the tasks it showed, or nothing.
  func change(
    _ operation: DataOperation<ChangeReport, TodoError>, verb: ChangeVerb, selection: TodoFilter?, oneObject: Bool = false,
    asked: Bool = false
  ) throws(CommandFailure) {
    if let selection, !asked { try warnAboutCase(in: selection) }
    if invocation.options.dryRun {
      renderChange(try perform(operation, access: .dryRun), verb: verb, dryRun: true, oneObject: oneObject)
      return
    }
    var confirmed = operation
    // Only a change chosen by a filter or a range asks (`done` always comes with one).
    let mayAsk = selection != nil
    if mayAsk, !invocation.options.assumeYes, session.inputIsTerminal {
      let preview = try perform(operation, access: .preview)
      let shown = preview.tasks.map(\.id)
      // Completing a task that still waits for another asks, however it was named.
      let blocked = preview.tasks.filter { $0.status == .done && $0.isBlocked }
      // After the subtask question too: a yes to closing subtasks is not a yes to a large change.
      let bulk =
        selection.map { Confirmation.isNeeded(for: $0, changing: shown.count, threshold: session.configuration.confirmationThreshold) } ?? false
      if bulk || !blocked.isEmpty {
        var question = Confirmation.question(verb: verb, tasks: preview.tasks)
        if !blocked.isEmpty { question = blocked.map(Self.waitsFor).joinedText("\n") + "\n" + question }
        guard session.ask(question) else {
          throw .cancelled("nothing was changed")
        }
      }
      // Another process may have changed the selection since the preview (while the question
      // waited, or just before the write): then the change is not the one shown, or one that
      // would have needed a question. It writes exactly what was previewed, or nothing.
      confirmed = operation.flatMap { report in
        report.tasks.map(\.id) == shown ? .pure(report) : .fail(.selectionChanged)
      }
    }
    if let hooks {
      do throws(CommandFailure) {
        confirmed = try withHooks(confirmed, verb: verb, hooks: hooks)
      } catch .hook(let message) {
        throw .hook(message + "; nothing was changed")
      }
    }
    let report = try perform(confirmed, access: .write)
    renderChange(report, verb: verb, dryRun: false, oneObject: oneObject)
    try showFeedback(after: report, verb: verb)
    if let hooks {
      let changed = report.tasks + report.others + report.created
      do throws(CommandFailure) {
        let attributes = try perform(TodoStore.userAttributes(of: changed.map(\.id)), access: .read)
        showHookMessages(try hooks.run(.exit, lines: changed.map { Hooks.line($0, attributes: attributes[$0.id] ?? []) }).messages)
      } catch .hook(let message) {
        throw .hook(message + "; the change was written ('todo undo' reverts it)")
      }
    }
  }

  func writeJSON(_ body: (inout JSONWriter) -> Void) {
    var writer = JSONWriter(format: jsonFormat)
    body(&writer)
    writer.endLine()
    writer.drain(into: output)
  }

  /// Draws a table fitted to the terminal, in colour when the output wants it.
  func render(_ table: Table) {
    table.render(to: output, width: session.terminalWidth, colorEnabled: color)
  }

  /// Writes items as one JSON array (`--json`) or one object a line (`--jsonl`).
  func writeJSONList<Item>(_ items: [Item], _ body: (inout JSONWriter, Item) -> Void) {
    if format == .json {
      writeJSON { json in json.array { json in for item in items { body(&json, item) } } }
    } else {
      for item in items { writeJSON { body(&$0, item) } }
    }
  }

  /// `task 4 still waits for 3 (pending)`.
  static func waitsFor(_ todo: Todo) -> String {
    let open = todo.depends.filter(\.isOpen).map { String($0.id) }
    return "task \(todo.id) still waits for \(open.count == 1 ? "task" : "tasks") \(open.joinedText(", ")) (pending)"
  }

  /// `done` and `delete`: a parent with open subtasks asks on a terminal whether to close them
  /// too; `--yes` closes them; otherwise the command stops with an error and changes nothing.
  func closing(
    _ filter: TodoFilter, verb: ChangeVerb, _ operation: (Bool) -> DataOperation<ChangeReport, TodoError>
  ) throws(CommandFailure) {
    let yes = invocation.options.assumeYes
    do throws(CommandFailure) {
      try change(operation(yes), verb: verb, selection: filter)
    } catch .domain(.openSubtasks(let parents, let subtasks)) where !yes && session.inputIsTerminal && !invocation.options.dryRun {
      let whose = parents.count == 1 ? "Task \(parents[0]) has" : "Tasks \(parents.map(String.init).joinedText(", ")) have"
      let count = subtasks.count == 1 ? "an open subtask" : "\(subtasks.count) open subtasks"
      let question =
        "\(whose) \(count) (\(subtasks.map(String.init).joinedText(", "))). "
        + "\(verb.question) \(subtasks.count == 1 ? "it" : "them") too? [y/N] "
      guard session.ask(question) else { throw .cancelled("nothing was changed") }
      try change(operation(true), verb: verb, selection: filter, asked: true)
    }
  }

  private func renderChange(_ report: ChangeReport, verb: ChangeVerb, dryRun: Bool, oneObject: Bool) {
    // Tasks whose until date passed were deleted first, in the same step (see TodoStore.expire).
    for todo in report.expired {
      let what = "\(dryRun ? "would expire" : "expired") task \(todo.id): its until date \(TaskText.describe(todo.until!)) has passed"
      if format == .human {
        output.write(what.prefix(1).uppercased() + what.dropFirst() + " (\(sanitizedForTerminal(todo.title)))\n")
      } else {
        session.warn(what, json: true)
      }
    }
    // An until date already past: the task goes at the next command that writes.
    for todo in report.tasks where todo.status == .pending && todo.until?.isPast(now: now) == true {
      session.warn(
        "task \(todo.id)'s until date \(TaskText.describe(todo.until!)) has passed: the next command that writes deletes it",
        json: format != .human)
    }
    // A completed task that still waits for another: done anyway, but said.
    if verb == .complete {
      for todo in report.tasks where todo.status == .done && todo.isBlocked {
        session.warn(Self.waitsFor(todo), json: format != .human)
      }
    }
    switch format {
    case .human:
      let said = dryRun ? verb.conditional : verb.past
      let text = self.text  // made once: it works out today's date
      // User-defined attributes, once the configuration defines some (a dry run's are gone
      // with its rolled-back transaction: not shown).
      let defined = configuration.userAttributes
      let attributes =
        defined.isEmpty || dryRun ? [:] : (try? perform(TodoStore.userAttributes(of: (report.tasks + report.others).map(\.id)), access: .read)) ?? [:]
      func summary(_ todo: Todo) -> String { text.summary(todo, attributes: attributes[todo.id] ?? [], defined: defined) }
      for todo in report.tasks { output.write("\(said) task \(todo.id): \(summary(todo))\n") }
      for todo in report.others {
        let what = verb == .start ? (dryRun ? "Would stop" : "Stopped") : (dryRun ? "Would update" : "Updated")
        output.write("\(what) task \(todo.id): \(summary(todo))\n")
      }
      for todo in report.created {
        let next = dryRun ? "Would create" : "Created"
        output.write("\(next) task \(todo.id), the next in its series: \(text.summary(todo))\n")
      }
      for unchanged in report.unchanged {
        let todo = unchanged.task
        let reason =
          switch unchanged.reason {
          case .sameValues: "it already has those values"
          case .alreadyInStatus(let status): "it is already \(status.rawValue)"
          case .deleted: "it is deleted; \(session.commandHint("reopen \(todo.id)")) brings it back"
          case .alreadyActive: "it is already active"
          case .notActive: "it is not active"
          }
        output.write("Unchanged task \(todo.id): \(reason) (\(sanitizedForTerminal(todo.title)))\n")
      }
      if dryRun {
        output.write("Dry run: nothing was changed.\n")
      } else if report.tasks.count > 1 {
        output.write("\(said) \(report.tasks.count) tasks; \(session.commandHint("undo")) reverts them together.\n")
      }
    case .json, .jsonLines:
      if oneObject, let todo = report.tasks.first {
        writeJSON { $0.task(todo, dryRun: dryRun) }
      } else {
        // The tasks changed, then those made (a series' next instance).
        writeJSONList(report.tasks + report.others + report.created) { $0.task($1, dryRun: dryRun) }
      }
    }
  }

  /// Warns about tags and projects the filter names that exist only in another case.
  func warnAboutCase(in filter: TodoFilter) throws(CommandFailure) {
    guard !filter.includeTags.isEmpty || !filter.excludeTags.isEmpty || !filter.projects.isEmpty,
      session.databaseExists(path: invocation.options.databasePath)
    else { return }
    for warning in try perform(TodoStore.caseMismatches(filter), access: .read) {
      session.warn(warning, json: format != .human)
    }
  }

  /// `warnAboutCase` after a listing of `listed` tasks. The filter's terms combine with AND, so
  /// a task listed has every tag the filter asks for, and its project when it names one: then
  /// only tags left out and a choice of projects are left to check, and most lists skip the
  /// check's own query.
  func warnAboutCase(in filter: TodoFilter, listed: Int) throws(CommandFailure) {
    let projectChoices = filter.projects.count + (filter.withoutProject ? 1 : 0)  // `project:home or project:`
    if listed > 0 && filter.excludeTags.isEmpty && projectChoices <= 1 { return }
    try warnAboutCase(in: filter)
  }

  func list(_ query: ListQuery) throws(CommandFailure) {
    if format != .human {
      let writer = StreamingTaskWriter(stream: output, lines: format == .jsonLines, format: jsonFormat)
      // Each task's user-defined attributes (`udas`) once the configuration defines some, looked
      // up as each task streams (none for the others: nothing to pay).
      let attributes = !configuration.userAttributes.isEmpty
      let count = try perform(
        TodoStore.forEach(query.filter, sort: query.sort, limit: query.limit, now: now, userAttributes: attributes) { todo, values in
          writer.write(todo, attributes: values.isEmpty ? nil : values)
        }, access: .read)
      writer.finish()
      try warnAboutCase(in: query.filter, listed: count)
      return
    }
    let table = StreamedTaskTable(
      filter: query.filter, sort: query.sort, text: text, width: session.terminalWidth, color: color, output: output)
    let count = try perform(
      TodoStore.forEachRow(query.filter, sort: query.sort, limit: query.limit, now: now) { table.add($0) },
      access: .read)
    table.finish()
    try warnAboutCase(in: query.filter, listed: count)
    if count == 0 {
      // The built-in list, as built in, is not looked up.
      writeNothingListed(query, definition: configuration.isPlainList(query.report) ? nil : definition(of: query))
    }
  }

  private func undo() throws(CommandFailure) {
    let dryRun = invocation.options.dryRun
    let report = try perform(TodoStore.undo(), access: dryRun ? .dryRun : .write)
    switch format {
    case .human:
      let (undid, restored, removed) = dryRun ? ("Would undo", "Would restore", "Would remove") : ("Undid", "Restored", "Removed")
      output.write("\(undid): \(sanitizedForTerminal(report.entry.command))  (\(report.entry.summary))\n")
      let text = self.text
      for todo in report.restored { output.write("\(restored) task \(todo.id): \(text.summary(todo))\n") }
      for id in report.removedIDs { output.write("\(removed) task \(id)\n") }
      if dryRun { output.write("Dry run: nothing was changed.\n") }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.key("undone")
          json.journalEntry(report.entry)
          json.key("tasks")
          json.tasks(report.restored)
          json.key("removed_ids")
          json.array { json in for id in report.removedIDs { json.value(Int(id)) } }
          if dryRun { json.field("dry_run", true) }
        }
      }
    }
  }

  private func journal(limit: Int?) throws(CommandFailure) {
    let entries = try perform(TodoStore.history(limit: limit), access: .read)
    switch format {
    case .human:
      guard !entries.isEmpty else {
        output.write("The journal is empty.\n")
        return
      }
      render(
        Table(
          columns: [
            Table.Column(header: "#", alignment: .right), Table.Column(header: "When"),
            Table.Column(header: "Summary"), Table.Column(header: "Command", flexible: true),
          ],
          rows: entries.map { entry in
            [
              Table.Cell(String(entry.id)), Table.Cell(Timestamp.localDescription(entry.created), style: .dim),
              Table.Cell(entry.summary), Table.Cell(entry.command),
            ]
          }))
    case .json, .jsonLines:
      writeJSONList(entries) { $0.journalEntry($1) }
    }
  }

  private func names(_ counts: [NameCount], heading: String, prefix: String, key: String) {
    switch format {
    case .human:
      guard !counts.isEmpty else {
        output.write("No \(heading.lowercased())s yet.\n")
        return
      }
      render(
        Table(
          columns: [
            Table.Column(header: heading), Table.Column(header: "Pending", alignment: .right),
            Table.Column(header: "All", alignment: .right),
          ],
          rows: counts.map { [Table.Cell(prefix + $0.name), Table.Cell(String($0.pending)), Table.Cell(String($0.total))] }))
    case .json, .jsonLines:
      writeJSONList(counts) { json, count in
        json.object { json in
          json.field(key, count.name)
          json.field("pending", count.pending)
          json.field("total", count.total)
        }
      }
    }
  }

  private func stats() throws(CommandFailure) {
    let stats = try perform(TodoStore.statistics(now: now), access: .read)
    let fields: [(String, String, Int?)] = [
      ("pending", "Pending", stats.pending), ("done", "Done", stats.done), ("deleted", "Deleted", stats.deleted),
      ("overdue", "Overdue", stats.overdue), ("due_next_7_days", "Due in 7 days", stats.dueThisWeek),
      ("completed_last_7_days", "Done in 7 days", stats.completedLastWeek), ("tags", "Tags", stats.tags),
      ("projects", "Projects", stats.projects), ("journal_entries", "Undo steps", stats.journalEntries),
    ]
    if format == .human {
      for (_, label, value) in fields { output.write(label.padding(toWidth: 16) + String(value ?? 0) + "\n") }
      if let oldest = stats.oldestPending {
        output.write("Oldest pending".padding(toWidth: 16) + Timestamp.localDescription(oldest) + "\n")
      }
    } else {
      writeJSON { json in
        json.object { json in
          for (key, _, value) in fields { json.field(key, value) }
          json.field("oldest_pending", stats.oldestPending.map(Timestamp.rfc3339))
        }
      }
    }
  }

  private func showDate(_ expression: String) throws(CommandFailure) {
    let reading: DateReading
    do throws(DateExpressionError) {
      reading = try DateExpressionParser(now: now).read(expression)
    } catch {
      throw .usage(.badDate(expression: error.expression, reason: error.reason))
    }
    let seconds = reading.instant
    // A date on its own is not a task: "33h ago" rather than "overdue 33h".
    let relative = Timestamp.relative(seconds, now: now, past: .ago)
    if format == .human {
      output.write("\(Timestamp.localDescription(seconds))  (\(Timestamp.rfc3339(seconds)), \(relative))\n")
    } else {
      writeJSON { json in
        json.object { json in
          json.field("expression", expression)
          json.field("local", Timestamp.localDescription(seconds))
          json.field("utc", Timestamp.rfc3339(seconds))
          json.field("relative", relative)
          json.field("day", reading.day?.description)
        }
      }
    }
  }
}

/// The program's version: semantic, kept here only (CHANGELOG.md has an entry for each; the
/// Makefile reads it for packages).
enum Version {
  static let current = "0.3.0"
  /// The git commit the build was made from (`make` writes it down), else nil.
  static let commit: String? = {
    let text = String(cString: todo_build_commit())
    return text.isEmpty ? nil : text
  }()
  /// `todo 0.3.0 (3f2a1c9)`, or `todo 0.3.0` for a build outside git.
  static var line: String { "todo \(current)" + (commit.map { " (\($0))" } ?? "") }
  /// The version of `docs/todo.schema.json`, the shape of every JSON object todo prints: it goes
  /// up when an object loses or changes a key (a new key alone also needs the schema changed,
  /// since its objects admit no other keys).
  static let jsonSchema = 2
}
