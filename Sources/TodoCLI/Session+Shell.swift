import DataOperation
import TodoCore
import TodoSystem

extension Session {
  /// Starts the interactive shell on the database the options name: every line typed in it runs
  /// through `execute(arguments:)` like a command line of its own. Exits 1 when the database
  /// cannot be opened.
  func runShell(options: GlobalOptions) -> Int32 {
    do throws(CommandFailure) {
      staysOpen()
      // Reading is enough to know it opens (on a full disk, or read-only, the shell still reads).
      _ = try context(path: options.databasePath, readOnly: true)
    } catch {
      error.report(to: standardError, json: options.format != .human)
      standardError.flush()
      return 1
    }
    inShell = true
    shellOptions = options
    defer {
      inShell = false
      shellOptions = nil
    }
    return Shell(session: self, completions: SessionCompletions(session: self, options: options)).run()
  }

  /// With `terminal` in `remind.notify`: a line for each reminder whose time has come and that
  /// no check delivered yet, shown before the shell's next prompt, once in a shell (`shown`).
  /// It records nothing: the timer or `--watch` still delivers them.
  func reminderLines(shown: inout Set<String>) -> [String] {
    let overrides = shellOptions?.configOverrides ?? []
    guard let configuration = try? Configuration.load(environment: environment, overrides: overrides, now: now()),
      configuration.value("remind.notify").split(separator: ",").contains(where: { String($0).trimmingWhitespace().lowercased() == "terminal" }),
      databaseExists(path: shellOptions?.databasePath),
      let context = try? context(path: shellOptions?.databasePath, readOnly: true),
      let items = try? TodoStore.reminders().transaction(.deferred).operate(in: context)
    else { return [] }
    let now = now()
    var lines: [String] = []
    for item in items where item.isWaiting(now: now) && shown.insert("\(item.task.uuid) \(item.fire)").inserted {
      lines.append(
        sanitizedForTerminal("Reminder: \(item.task.title) (task \(item.task.id), \(Timestamp.localDescription(item.fire)))"))
    }
    return lines
  }

  /// The active context, for the shell's prompt (none when the configuration does not read:
  /// the next command says why).
  func promptContext() -> String? {
    let overrides = shellOptions?.configOverrides ?? []
    return (try? Configuration.load(environment: environment, overrides: overrides, now: now()))?.activeContext
  }
}

extension Session {
  /// `todo __complete SHELL LINE [BREAKS]`, which the scripts of `todo completions` run on every
  /// Tab (see `CompletionScript`). Reads only; always exits 0 with what it can offer, except for
  /// a call that is not of that form (exit 2).
  func complete(_ arguments: [String]) -> Int32 {
    guard (2...3).contains(arguments.count), let shell = CompletionScript.Shell(rawValue: arguments[0]) else {
      standardError.write("todo: error: usage: todo __complete bash|zsh|fish LINE [BREAKS]\n")
      return 2
    }
    let options = CompletionScript.globalOptions(in: arguments[1], home: environment["HOME"])
    let source = SessionCompletions(session: self, options: options, isInsideShell: false)
    let completion = ShellCompletion(source: source).completion(forLineBeforeCursor: arguments[1], startsWithProgramName: true)
    standardOutput.write(CompletionScript.reply(completion, shell: shell, wordBreaks: arguments.count > 2 ? arguments[2] : nil))
    return 0
  }
}

/// Tab completion's view of the command line and of the session's database.
struct SessionCompletions: ShellCompletionSource {
  let session: Session
  let options: GlobalOptions
  /// False for `todo __complete` (bash, zsh, fish): the database is only read, never created,
  /// upgraded or switched to WAL; the interactive shell has opened it already.
  var isInsideShell = true

  var commandNames: [String] { CommandName.allSpellings + (isInsideShell ? ["exit", "quit"] : []) }

  func optionNames(forCommand command: String?) -> [String] {
    guard let command, let name = CommandName.spellings[command] else { return GlobalOptionNames.all }
    return name.allOptions
  }

  func tagNames() -> [String] {
    (try? run(TodoStore.tags()))?.map(\.name) ?? []
  }

  func projectNames() -> [String] {
    (try? run(TodoStore.projects()))?.map(\.name) ?? []
  }

  func tasks() -> [(id: Int64, title: String)] {
    let pending = try? run(TodoStore.list(TodoFilter(), sort: [SortKey(.id)], now: session.now()))
    return pending?.map { (id: $0.id, title: $0.title) } ?? []
  }

  var helpTopics: [String] { CommandName.allSpellings + Help.topicNames.filter { CommandName(rawValue: $0) == nil } }

  var reportNames: [String] { configuration.reportNames.filter { CommandName.spellings[$0] == nil } }

  var contextNames: [String] { configuration.contexts.map(\.name) }

  var configKeys: [String] { configuration.listedKeys }

  /// The settings as they are now (a `config set` a line earlier shows), or the defaults when
  /// the file does not read: a completion reports no error.
  private var configuration: Configuration {
    (try? Configuration.load(environment: session.environment, overrides: options.configOverrides, now: session.now()))
      ?? .defaults
  }

  private func run<Value>(_ operation: DataOperation<Value, TodoError>) throws -> Value {
    let context =
      try !isInsideShell ? session.completionContext(path: options.databasePath) : session.context(path: options.databasePath, readOnly: true)
    return try operation.transaction(.deferred).operate(in: context)
  }
}
