import DataOperation
import TodoCore
import TodoSystem
import TodoUI

#if canImport(Glibc)
import Glibc
#endif

extension Session {
  /// `todo ui [REPORT] [FILTER]`: the full-screen interface, running this session's commands
  /// in-process. Needs a terminal on both ends (exit 2 otherwise); exits 1 when the database
  /// cannot be opened or the first list cannot be read.
  func runUI(options: GlobalOptions, report: String, filter: [String], tree: Bool) throws(CommandFailure) -> Int32 {
    let terminal = TerminalDevice()
    guard terminal.isTerminal else {
      throw .usage(.invalid("todo ui needs a terminal (standard input and output); use 'todo list' in scripts"))
    }
    guard options.format == .human else { throw .usage(.invalid("todo ui has no --json; use 'todo list --json'")) }
    staysOpen()
    _ = try context(path: options.databasePath, readOnly: true)
    let backend = SessionUIBackend(session: self, options: options)
    let keyMap: KeyMap
    do throws(UIFailure) {
      keyMap = try KeyMap(bindings: configuration.keyBindings)
    } catch {
      throw .usage(.invalid(error.message))
    }
    let request = ListRequest(report: report, filter: CommandParser.quotedCommandLine(filter), tree: tree)
    // Read once here to refuse a filter that does not read before the screen changes; the
    // controller's first load takes this snapshot instead of reading it again.
    switch backend.list(request) {
    case .failure(let failure): throw .usage(.invalid(failure.message))
    case .success(let snapshot): backend.primed = (request, snapshot)
    }
    let controller = UIController(backend: backend, keyMap: keyMap, request: request)
    let mode = options.color == .auto ? configuration.colorMode : options.color
    let color = mode == .always || mode == .auto && autoColor
    var palette = ScreenRenderer.Palette()
    if !color { palette.heading = .bold }
    let renderer = ScreenRenderer(keyMap: keyMap, palette: palette)
    let mouse = Configuration.toggle(configuration.value("ui.mouse")) ?? true
    inUI = true
    defer { inUI = false }
    return TerminalApp(terminal: terminal, controller: controller, renderer: renderer, color: color, mouse: mouse).run()
  }

  /// Colour for the interface's own screen: the terminal is the output, so `auto` follows it
  /// and `NO_COLOR` (and `TERM=dumb`).
  private var autoColor: Bool {
    TodoCLI.colorEnabled(mode: .auto, isTTY: true, environment: environment) && environment["TERM"] != "dumb"
  }
}

/// The interface's view of the program: lists, rows and details read through TodoCore, and
/// commands run by a session of its own whose output is kept in memory (`execute` as the shell
/// runs a line: the same parsing, confirmation, hooks and undo steps).
final class SessionUIBackend: UIBackend {
  let session: Session
  let options: GlobalOptions
  /// Runs the commands: its output goes to memory, its questions to the screen.
  private let runner: Session
  private let questions = OutputStream.memory()
  /// The report the last list was read for (its columns make the rows).
  private var definition: ReportDefinition?

  init(session: Session, options: GlobalOptions) {
    self.session = session
    self.options = options
    runner = Session(
      environment: session.environment, standardOutput: .memory(), standardError: .memory(), outputIsTerminal: false,
      inputIsTerminal: true, errorIsTerminal: true)
    var shared = options
    shared.color = .never
    runner.shellOptions = shared
    runner.questionStream = questions
    runner.inUI = true
    runner.staysOpen()
  }

  private var now: Int64 { session.now() }

  private func configuration() -> Configuration {
    (try? Configuration.load(environment: session.environment, overrides: options.configOverrides, now: now)) ?? .defaults
  }

  private func read<Value>(_ operation: DataOperation<Value, TodoError>) throws(CommandFailure) -> Value {
    let context = try session.context(path: options.databasePath, readOnly: true)
    do throws(TodoError) {
      return try operation.transaction(.deferred).operate(in: context)
    } catch {
      throw .domain(error)
    }
  }

  // MARK: - The list

  /// A list read just before the screen starts, for its first frame.
  var primed: (ListRequest, ListSnapshot)?

  func list(_ request: ListRequest) -> Result<ListSnapshot, UIFailure> {
    if let (primedRequest, snapshot) = primed {
      primed = nil
      if primedRequest == request { return .success(snapshot) }
    }
    let configuration = configuration()
    // As each command the screen runs, the list sees the week start as the settings have it now.
    return Week.$firstWeekday.withValue(configuration.weekStartsOnSunday ? 0 : 1) { list(request, configuration: configuration) }
  }

  private func list(_ request: ListRequest, configuration: Configuration) -> Result<ListSnapshot, UIFailure> {
    let words: [String]
    do throws(WordSplitError) {
      words = try WordSplitter.split(request.filter)
    } catch {
      return .failure(UIFailure(error.message))
    }
    let query: ListQuery
    do throws(CommandFailure) {
      let parser = CommandParser(now: now)
      let global = try Self.usage { () throws(UsageError) in try parser.parseGlobalOptions([request.report] + words) }
      let invocation = try Self.usage { () throws(UsageError) in try parser.parseCommand(global, configuration: configuration) }
      switch invocation.command {
      case .list(let listed), .next(let listed), .tree(let listed): query = listed
      default: return .failure(UIFailure("'\(request.filter)' is not a filter"))
      }
    } catch {
      return .failure(UIFailure(error.message))
    }
    let definition =
      configuration.report(query.report) ?? (try! ReportDefinition(name: "list") { ReportDefinition.builtIn["list"]?[$0] ?? "" })
    self.definition = definition
    do throws(CommandFailure) {
      var ids: [Int64]
      var depths: [Int] = []
      if request.tree {
        (ids, depths) = try treeOrder(query)
      } else if definition.byUrgency && query.sort.isEmpty {
        ids = try read(TodoStore.idsByUrgency(query.filter, now: now, coefficients: configuration.urgency))
      } else {
        ids = try read(TodoStore.ids(query.filter, sort: query.sort.isEmpty ? SortKey.defaultOrder : query.sort, limit: query.limit, now: now))
      }
      if !request.tree, let limit = query.limit, ids.count > limit { ids = Array(ids.prefix(limit)) }
      let title = ([definition.name] + (request.filter.isEmpty ? [] : [request.filter]) + (request.tree ? ["(tree)"] : [])).joined(separator: " ")
      let empty = query.typedTerms || configuration.activeContext != nil ? "No matching tasks." : "Nothing here. Press a to add a task."
      return .success(ListSnapshot(columns: columns(definition), ids: ids, depths: depths, title: title, emptyMessage: empty))
    } catch {
      return .failure(UIFailure(error.message))
    }
  }

  private static func usage<Value>(_ body: () throws(UsageError) -> Value) throws(CommandFailure) -> Value {
    do throws(UsageError) {
      return try body()
    } catch {
      throw .usage(error)
    }
  }

  private func columns(_ definition: ReportDefinition) -> [UIColumn] {
    zip(definition.columns, definition.labels).map { column, label in
      let layout = column.layout
      return UIColumn(header: label, alignsRight: layout.alignment == .right, isFlexible: layout.isFlexible, mayDrop: layout.shrink != .never)
    }
  }

  /// Subtasks under their parents (a parent the filter leaves out puts its subtasks at the top).
  private func treeOrder(_ query: ListQuery) throws(CommandFailure) -> ([Int64], [Int]) {
    let todos = try read(TodoStore.list(query.filter, sort: query.sort, now: now))
    let present = Set(todos.map(\.id))
    var children: [Int64: [Int64]] = [:]
    var roots: [Int64] = []
    for todo in todos {
      if let parent = todo.parentID, present.contains(parent) { children[parent, default: []].append(todo.id) } else { roots.append(todo.id) }
    }
    var ids: [Int64] = []
    var depths: [Int] = []
    var stack = roots.reversed().map { ($0, 0) }
    while let (id, depth) = stack.popLast() {
      ids.append(id)
      depths.append(depth)
      for child in (children[id] ?? []).reversed() { stack.append((child, depth + 1)) }
    }
    return (ids, depths)
  }

  func rows(_ ids: [Int64], of snapshot: ListSnapshot) -> [UIRow] {
    guard let definition else { return [] }
    let loaded = (try? read(TodoStore.tasks(ids: ids))) ?? []
    let byID = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let configuration = configuration()
    var text = TaskText(now: now, color: true)
    text.palette = configuration.palette
    text.dateFormat = configuration.dateFormat
    let progressInTitle = !definition.columns.contains(.progress)
    let showsUrgency = definition.columns.contains(.urgency)
    let scores = showsUrgency ? (try? read(TodoStore.urgencies(of: loaded, now: now, coefficients: configuration.urgency))) ?? [:] : [:]
    var attributes: [Int64: [String: String]] = [:]
    if definition.columns.contains(where: { $0.attribute != nil }) {
      for (id, values) in (try? read(TodoStore.userAttributes(of: ids))) ?? [:] {
        attributes[id] = Dictionary(values.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
      }
    }
    return ids.compactMap { id in
      guard let todo = byID[id] else { return nil }
      let urgency = scores[id] ?? 0
      let cells = definition.columns.map { column in
        let cell = CommandRunner.cell(
          column, of: todo, urgency: urgency, text: text, progressInTitle: progressInTitle, attributes: attributes[id] ?? [:])
        return StyledText(cell.text, style: CellStyle(parameters: cell.style?.parameters ?? ""))
      }
      return UIRow(id: id, cells: cells, isActive: todo.isActive)
    }
  }

  // MARK: - The rest of the screen

  func detail(of id: Int64, width: Int) -> [[StyledText]] {
    runner.widthOverride = width
    defer { runner.widthOverride = nil }
    let outcome = execute(["--no-hooks", "--color", "always", "show", String(id)])
    let text = outcome.status == 0 ? outcome.output : outcome.error
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { StyledText.pieces(ofANSI: String($0)) }
  }

  func sidebar() -> [SidebarSection] {
    let configuration = configuration()
    let active = configuration.activeContext
    var sections: [SidebarSection] = []
    var contexts = [SidebarItem(label: "(none)", action: .command(["context", "none"]), isCurrent: active == nil)]
    contexts += configuration.contexts.map { SidebarItem(label: $0.name, action: .command(["context", $0.name]), isCurrent: $0.name == active) }
    sections.append(SidebarSection(title: "Contexts", items: contexts))
    let projects = ((try? read(TodoStore.projects())) ?? []).filter { $0.pending > 0 }
    sections.append(
      SidebarSection(
        title: "Projects",
        items: projects.map { project in
          let parts = project.name.split(separator: ".")
          return SidebarItem(
            label: String(parts.last ?? Substring(project.name)), count: project.pending, depth: parts.count - 1,
            action: .filter(CommandParser.quotedCommandLine(["project:" + project.name])))
        }))
    let tags = (try? read(TodoStore.pendingTags())) ?? []
    sections.append(
      SidebarSection(title: "Tags", items: tags.map { SidebarItem(label: "+" + $0.name, count: $0.pending, action: .filter("+" + $0.name)) }))
    sections.append(SidebarSection(title: "Reports", items: configuration.reportNames.map { SidebarItem(label: $0, action: .report($0)) }))
    return sections
  }

  func activeContext() -> String? {
    configuration().activeContext
  }

  func run(_ words: [String], ask: (String) -> Bool) -> CommandOutcome {
    withoutActuallyEscaping(ask) { ask in
      runner.readAnswer = { [questions] in ask(questions.takeText()) ? "y" : "n" }
      defer { runner.readAnswer = Session.readLineFromStandardInput }
      var outcome = execute(words)
      // What undo would take back: a command that changes tasks, and did.
      let name = words.first { !$0.hasPrefix("-") }.flatMap { CommandName.spellings[$0] }
      outcome.undoable = outcome.status == 0 && name.map { !$0.declaration.onlyReads && ![.undo, .config, .context, .help].contains($0) } ?? false
      return outcome
    }
  }

  private func execute(_ words: [String]) -> CommandOutcome {
    let status = runner.execute(arguments: words)
    _ = questions.takeText()
    return CommandOutcome(status: status, output: runner.standardOutput.takeText(), error: runner.standardError.takeText())
  }

  func dataVersion() -> Int64 {
    let operation = DataOperation<Int64, DatabaseError> { connection throws(DatabaseError) in
      Int64(sqlValue: try connection.scalar("PRAGMA data_version")) ?? 0
    }.mapError(TodoError.init)
    return (try? read(operation)) ?? 0
  }

  func complete(_ line: String) -> (line: String, candidates: [String]) {
    let completion = ShellCompletion(source: SessionCompletions(session: runner, options: options)).completion(forLineBeforeCursor: line)
    let replacements = completion.candidates.map(\.replacement)
    guard let first = replacements.first else { return (line, []) }
    let base = String(line.dropLast(completion.word.count))
    if replacements.count == 1 { return (base + first + (completion.candidates[0].appendsSpace ? " " : ""), []) }
    var common = first
    for other in replacements.dropFirst() {
      while !other.hasPrefix(common) { common.removeLast() }
    }
    return (base + (common.count > completion.word.count ? common : completion.word), completion.candidates.map(\.display))
  }

  /// The reminder lines shown in this run already.
  private var shownReminders: Set<String> = []

  func dueReminders() -> [String] {
    runner.reminderLines(shown: &shownReminders)
  }

  func words(of line: String) -> Result<[String], UIFailure> {
    do throws(WordSplitError) {
      return .success(try WordSplitter.split(line))
    } catch {
      return .failure(UIFailure(error.message))
    }
  }
}
