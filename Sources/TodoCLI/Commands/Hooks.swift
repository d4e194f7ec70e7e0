import DataOperation
import TodoCore
import TodoInterchange
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// Taskwarrior-compatible hooks: executable files in `${XDG_CONFIG_HOME:-~/.config}/todo/hooks/`
/// whose names start with `on-launch`, `on-add`, `on-modify` or `on-exit`, run in name order.
///
/// Each gets Taskwarrior's arguments (`api:2 args:… command:… rc:… data:… version:…`) and tasks
/// as Taskwarrior JSON lines on standard input: none for `on-launch`, the new task for `on-add`,
/// the task before and after for `on-modify`, every task the command changed for `on-exit`. An
/// `on-add`/`on-modify` hook answers with the task (changed or not) on one JSON line; other
/// lines are messages. A non-zero exit refuses the command; its first message line is shown.
///
/// Hooks run before the write transaction (on the change previewed), never while the database
/// is locked, so a slow hook never makes another `todo` wait; the write then checks that the
/// tasks are still those the hooks saw. Each hook runs under a time limit (`hooks.timeout`) in a
/// process group of its own, which is killed when the limit passes.
struct Hooks {
  enum Event: String, CaseIterable {
    case launch = "on-launch", add = "on-add", modify = "on-modify", exit = "on-exit"
  }

  let folder: String
  let timeout: Double
  let environment: [String: String]
  /// The words after `todo`, the command's name, the configuration file and the database folder.
  let arguments: [String]
  /// The hooks of each event: the folder's executable files whose names start with the event,
  /// sorted by name, read once for the command.
  private let scripts: [Event: [String]]
  /// Why no hook may run: a hook, or the folder of hooks, or a folder above either, that someone
  /// other than the user or root could change (checked before the command does anything; see
  /// `CommandRunner.run`). With every one of them safe, a hook is run by the path that was
  /// checked: no other user can swap the file in between. (Running an open descriptor instead,
  /// `fexecve`, would hand a `#!` script `/dev/fd/N` as its own name, breaking every hook that
  /// finds its files beside itself.)
  let unsafe: String?

  init(folder: String, timeout: Double, environment: [String: String], arguments: [String]) {
    self.folder = folder
    self.timeout = timeout
    self.environment = environment
    self.arguments = arguments
    var scripts: [Event: [String]] = [:]
    var unsafe = FileSystem.changeableByOthers(folder, kind: "hooks folder").map { $0 + ", so no hook was run" }
    let names = (try? FileSystem.files(in: folder, endingIn: "").get()) ?? []
    for name in names {
      guard let event = Event.allCases.first(where: { name.hasPrefix($0.rawValue) }) else { continue }
      let path = folder + "/" + name
      guard access(path, X_OK) == 0 else { continue }
      if unsafe == nil, let problem = FileSystem.changeableByOthers(path, kind: "hook") {
        unsafe = problem + ", so no hook was run"
      }
      scripts[event, default: []].append(path)
    }
    self.scripts = scripts
    self.unsafe = unsafe
  }

  /// The hooks of an event, in the order they run.
  func scripts(for event: Event) -> [String] {
    scripts[event] ?? []
  }

  /// Runs the hooks of an event on `lines` (JSON lines). For `on-add` and `on-modify`, each hook
  /// gets the previous one's task (after the original, for `on-modify`) and the last one's task
  /// is returned; messages are returned to
  /// be shown. Throws when a hook refuses, fails, or answers with something that is not one task.
  func run(_ event: Event, lines: [String]) throws(CommandFailure) -> (task: String?, messages: [String]) {
    var lines = lines
    var messages: [String] = []
    if let unsafe { throw .hook(unsafe) }
    for script in scripts(for: event) {
      let input = Array(lines.map { $0 + "\n" }.joinedText("").utf8)
      let name = FileSystem.folder(of: script) == folder ? String(script.dropFirst(folder.count + 1)) : script
      let outcome: ChildProcess.Outcome
      switch ChildProcess.run([script] + arguments, environment: environment, input: input, timeout: timeout) {
      case .failure(let problem): throw .hook("cannot run the hook \(name): \(problem.reason)")
      case .success(let result): outcome = result
      }
      let output = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").map(String.init)
      func isTask(_ line: String) -> Bool { line.hasPrefix("{") && line.hasSuffix("}") }
      var json = output.filter(isTask)
      let feedback = output.filter { !isTask($0) && !$0.trimmingWhitespace().isEmpty }
      let errors = String(decoding: outcome.errors, as: UTF8.self).split(separator: "\n").map(String.init)
      if outcome.timedOut {
        throw .hook("the hook \(name) ran longer than \(ConfigKey.number(timeout))s (hooks.timeout) and was stopped")
      }
      guard outcome.status == 0 else {
        let said = (feedback + errors).first { !$0.trimmingWhitespace().isEmpty } ?? "no reason given"
        throw .hook("the hook \(name) refused the command (exit status \(outcome.status)): \(said)")
      }
      messages += feedback + errors.filter { !$0.trimmingWhitespace().isEmpty }
      switch event {
      case .add, .modify:
        guard json.count == 1 else {
          throw .hook("the hook \(name) answered with \(json.count) JSON tasks, not 1 (it must print the task back)")
        }
        // The next on-modify hook gets the original task too, and this one's answer as the
        // change (as Taskwarrior chains them); the next on-add hook, the answer.
        lines = event == .modify ? [lines[0], json.removeFirst()] : [json.removeFirst()]
      case .launch, .exit:
        if !json.isEmpty { throw .hook("the hook \(name) printed a task, but \(event.rawValue) hooks print only messages") }
      }
    }
    return (event == .add || event == .modify ? lines.last : nil, messages)
  }

  /// A task as a hook sees it: Taskwarrior's JSON, on one line, with its user-defined attributes.
  static func line(_ todo: Todo, attributes: [(name: String, value: String)] = []) -> String {
    Taskwarrior.line(TaskRecord(todo: todo, extras: attributes.map { TaskExtra(format: "taskwarrior", name: $0.name, value: $0.value) }))
  }

  /// What a hook changed in a task: its answer read back, compared field by field with what it
  /// was given, as the changes an `update` would make (checked like typed ones). Nil: nothing.
  static func changes(
    answer: String, given todo: Todo, attributes: [(name: String, value: String)] = [], defined: [String: UserAttribute] = [:],
    hook event: Event, now: Int64
  ) throws(CommandFailure) -> TodoChanges? {
    guard answer != line(todo, attributes: attributes) else { return nil }
    let records: [TaskRecord]
    do throws(InterchangeError) {
      records = try Taskwarrior.records(Array(answer.utf8), now: now)
    } catch {
      throw .hook("the \(event.rawValue) hook answered with a task that does not read: \(error.description)")
    }
    guard let record = records.first else {
      throw .hook("the \(event.rawValue) hook answered with no task; nothing was changed")
    }
    let new = record.todo
    guard new.uuid == todo.uuid else {
      throw .hook("the \(event.rawValue) hook answered for another task (\(new.uuid), not \(todo.uuid))")
    }
    // What todo does not take from a hook is refused rather than dropped without a word.
    var untaken: [String] = []
    if new.status != todo.status { untaken.append("status") }
    if !todo.notes.allSatisfy({ note in new.notes.contains { $0.text == note.text } }) { untaken.append("annotations removed or edited") }
    // User-defined attributes: those defined here, and those the task had, are taken.
    var attributeChanges: [String: String?] = [:]
    let had = Dictionary(attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    let answered = Dictionary(record.extras.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    let foreign = record.extras.map(\.name).filter { defined[$0] == nil && had[$0] == nil }
    if !foreign.isEmpty {
      untaken.append(foreign.sorted().map { UserAttribute.isName($0) ? "\($0) (not defined: uda.\($0).type)" : $0 }.joinedText(", "))
    }
    for (name, value) in answered where had[name] != value && (defined[name] != nil || had[name] != nil) {
      attributeChanges[name] = .some(value)
    }
    for name in had.keys where answered[name] == nil { attributeChanges[name] = .some(nil) }
    if !untaken.isEmpty {
      throw .hook("the \(event.rawValue) hook changed what todo does not take from hooks (\(untaken.joinedText("; ")))")
    }
    var changes = TodoChanges()
    if new.title != todo.title { changes.title = new.title }
    if new.project != todo.project { changes.project = new.project.map { .set($0) } ?? .clear }
    if new.priority != todo.priority { changes.priority = new.priority.map { .set($0) } ?? .clear }
    changes.addTags = new.tags.filter { !todo.tags.contains($0) }
    changes.removeTags = todo.tags.filter { !new.tags.contains($0) }
    func date(_ new: TaskDate?, _ old: TaskDate?) -> FieldChange<DateSetting>? {
      guard new?.sortInstant != old?.sortInstant else { return nil }
      return new.map { .set(.date($0)) } ?? .clear
    }
    changes.due = date(new.due, todo.due)
    changes.wait = date(new.wait, todo.wait)
    changes.scheduled = date(new.scheduled, todo.scheduled)
    changes.until = date(new.until, todo.until)
    let known = Set(todo.notes.map(\.text))
    changes.notes = new.notes.map(\.text).filter { !known.contains($0) }
    do throws(TodoError) {
      // A defined attribute's value is checked and written as its type writes it.
      for (name, value) in attributeChanges {
        guard let value, let attribute = defined[name] else {
          changes.attributes[name] = value
          continue
        }
        let text: String
        switch UserAttribute.plain(value) {
        case .text(let string): text = string
        case .number(let number): text = String(number)
        }
        changes.attributes[name] = try attribute.stored(text, now: now)
      }
      try Validation.changes(changes)
    } catch {
      throw .hook("the \(event.rawValue) hook's change is not valid: \(error.description)")
    }
    return changes.isEmpty ? nil : changes
  }
}

extension CommandRunner {
  /// The hooks of a run; nil when they are off (`hooks = off`, `--no-hooks`, a dry run) or
  /// there is no hooks folder. Made once, in `init`.
  static func hooks(session: Session, invocation: Invocation) -> Hooks? {
    let configuration = session.configuration
    guard configuration.hooksEnabled, !invocation.options.noHooks, !invocation.options.dryRun,
      let folder = Configuration.hooksFolder(environment: session.environment), FileSystem.isDirectory(folder)
    else { return nil }
    let data =
      FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment).map {
        FileSystem.folder(of: $0.path)
      } ?? ""
    // The command's name as declared (`modify` is `update`); a report by its own name.
    let name: String
    if case .list(let query) = invocation.command { name = query.report } else { name = invocation.name.rawValue }
    return Hooks(
      folder: folder, timeout: configuration.hookTimeout, environment: Terminal.childEnvironment(session.environment),
      arguments: [
        "api:2", "args:todo \(invocation.commandLine)", "command:\(name)", "rc:\(configuration.path ?? "")", "data:\(data)",
        "version:\(Version.current)",
      ])
  }

  /// Shows a hook's messages on standard error.
  func showHookMessages(_ messages: [String]) {
    for message in messages {
      if format == .human {
        session.standardError.write(sanitizedForTerminal(message) + "\n")
      } else {
        session.warn(message, json: true)
      }
    }
  }
}

extension CommandRunner {
  /// Runs the `on-add` or `on-modify` hooks on the change previewed, and returns the operation
  /// that writes it with what the hooks changed (in the same transaction and undo step), or the
  /// operation as it was when there are no such hooks.
  func withHooks(_ operation: DataOperation<ChangeReport, TodoError>, verb: ChangeVerb, hooks: Hooks) throws(CommandFailure)
    -> DataOperation<ChangeReport, TodoError>
  {
    try hooked(operation, adds: [.add, .log, .duplicate].contains(verb), hooks: hooks, tasks: { .pure($0) }) { report in
      // The report's tasks as the hooks left them.
      TodoStore.tasks((report.tasks + report.others + report.created).map { .id($0.id) }).map { tasks in
        var refreshed = report
        var byID: [Int64: Todo] = [:]
        for todo in tasks { byID[todo.id] = todo }
        refreshed.tasks = report.tasks.map { byID[$0.id] ?? $0 }
        refreshed.others = report.others.map { byID[$0.id] ?? $0 }
        refreshed.created = report.created.map { byID[$0.id] ?? $0 }
        return refreshed
      }
    }
  }

  /// Runs the `on-add` and `on-modify` hooks on what an operation would write (previewed), and
  /// returns the operation that writes it, then what the hooks changed (in the same transaction,
  /// folded into its journal entry). `tasks` says which tasks the operation adds or changes: as
  /// a change report (`tasks` are added when `adds`, else modified; `others` are modified;
  /// `created` are added). `refreshed` reads the result again once hooks changed something.
  /// `previewing`: what the preview runs, when it is not the operation itself (a sync's, which
  /// would write files).
  func hooked<Report: Sendable>(
    _ operation: DataOperation<Report, TodoError>, previewing: DataOperation<Report, TodoError>? = nil, adds: Bool, hooks: Hooks,
    tasks: @escaping @Sendable (Report) -> DataOperation<ChangeReport, TodoError>,
    refreshed: @escaping @Sendable (Report) -> DataOperation<Report, TodoError> = { .pure($0) }
  ) throws(CommandFailure) -> DataOperation<Report, TodoError> {
    let addHooks = !hooks.scripts(for: .add).isEmpty
    let modifyHooks = !hooks.scripts(for: .modify).isEmpty
    guard addHooks || modifyHooks else { return operation }
    // The preview's tasks with their user-defined attributes as the change leaves them (read in
    // the same transaction, which a preview rolls back).
    let (preview, attributesAfter) = try perform(
      (previewing ?? operation).flatMap(tasks).flatMap { report in
        TodoStore.userAttributes(of: (report.tasks + report.others + report.created).map(\.id)).map { (report, $0) }
      }, access: .preview)
    // The tasks the command changes, those it changes on the side (the task `start` stops), and
    // those it makes (a series' next instance): each goes through the hooks of its event.
    var seen: [(group: ReportGroup, index: Int, todo: Todo, event: Hooks.Event)] = []
    for (index, todo) in preview.tasks.enumerated() { seen.append((.tasks, index, todo, adds ? .add : .modify)) }
    for (index, todo) in preview.others.enumerated() { seen.append((.others, index, todo, .modify)) }
    for (index, todo) in preview.created.enumerated() { seen.append((.created, index, todo, .add)) }
    seen.removeAll { ($0.event == .add && !addHooks) || ($0.event == .modify && !modifyHooks) }
    guard !seen.isEmpty else { return operation }
    let asked = try askHooks(seen, hooks: hooks, attributesAfter: attributesAfter)
    let (now, command, asks) = (self.now, invocation.commandLine, asked)
    let shape = ReportGroup.allCases.map { $0.tasks(of: preview).map(\.id) }
    return TodoStore.lastJournalEntryID().flatMap { before in
      operation.flatMap { written in
        tasks(written).flatMap { report in
          // The hooks saw these tasks: the same ones must be written (a new task's id may differ
          // when another command added one meanwhile).
          for (group, seenIDs) in zip(ReportGroup.allCases, shape) {
            let ids = group.tasks(of: report).map(\.id)
            let sameTasks = ids.count == seenIDs.count && (adds && group == .tasks || group == .created || ids == seenIDs)
            guard sameTasks else { return .fail(.selectionChanged) }
          }
          guard !asks.isEmpty else { return .pure(written) }
          var step = TodoStore.lastJournalEntryID()
          for (group, index, changes) in asks {
            var selection = TodoFilter()
            selection.references = [.id(group.tasks(of: report)[index].id)]
            let filter = selection
            step = step.flatMap { entry in TodoStore.update(filter, changes, now: now, command: command).map { _ in entry } }
          }
          // The command's own entry is the one after `before`: everything the hooks' updates
          // wrote after it folds into it.
          return step.flatMap { entry in entry > before ? TodoStore.foldJournalEntries(into: entry) : .pure(()) }
            .flatMap { _ in refreshed(written) }
        }
      }
    }
  }

  /// Runs each task's hooks (its event's, on its JSON line, with the task before for on-modify)
  /// and returns what they changed, as the changes an `update` would make.
  private func askHooks(
    _ seen: [(group: ReportGroup, index: Int, todo: Todo, event: Hooks.Event)], hooks: Hooks,
    attributesAfter: [Int64: [(name: String, value: String)]]
  ) throws(CommandFailure) -> [(group: ReportGroup, index: Int, changes: TodoChanges)] {
    var before: [Int64: Todo] = [:]
    var attributesBefore: [Int64: [(name: String, value: String)]] = [:]
    let modified = seen.filter { $0.event == .modify }.map { TaskReference.id($0.todo.id) }
    if !modified.isEmpty {
      for todo in try perform(TodoStore.tasks(modified), access: .read) { before[todo.id] = todo }
      attributesBefore = try perform(TodoStore.userAttributes(of: Array(before.keys)), access: .read)
    }
    var asked: [(group: ReportGroup, index: Int, changes: TodoChanges)] = []
    let defined = configuration.userAttributes
    for item in seen {
      let after = attributesAfter[item.todo.id] ?? []
      let lines =
        item.event == .add
        ? [Hooks.line(item.todo, attributes: after)]
        : [Hooks.line(before[item.todo.id] ?? item.todo, attributes: attributesBefore[item.todo.id] ?? []), Hooks.line(item.todo, attributes: after)]
      let (answer, messages) = try hooks.run(item.event, lines: lines)
      showHookMessages(messages)
      if let answer,
        let changes = try Hooks.changes(answer: answer, given: item.todo, attributes: after, defined: defined, hook: item.event, now: now)
      {
        asked.append((item.group, item.index, changes))
      }
    }
    return asked
  }
}

/// The lists of tasks a change report holds, which hooks see.
enum ReportGroup: CaseIterable, Sendable {
  case tasks, others, created

  func tasks(of report: ChangeReport) -> [Todo] {
    switch self {
    case .tasks: report.tasks
    case .others: report.others
    case .created: report.created
    }
  }
}
