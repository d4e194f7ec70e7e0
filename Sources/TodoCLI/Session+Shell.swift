import DataOperation
import TodoCore

extension Session {
  /// Starts the interactive shell on the database the options name: every line typed in it runs
  /// through `execute(arguments:)` like a command line of its own. Exits 1 when the database
  /// cannot be opened.
  func runShell(options: GlobalOptions) -> Int32 {
    do throws(Failure) {
      _ = try context(path: options.databasePath, readOnly: false)
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

  /// The active context, for the shell's prompt (none when the configuration does not read:
  /// the next command says why).
  func promptContext() -> String? {
    let overrides = shellOptions?.configOverrides ?? []
    return (try? Configuration.load(environment: environment, overrides: overrides, now: Timestamp.now()))?.activeContext
  }
}

/// Tab completion's view of the command line and of the session's database.
struct SessionCompletions: ShellCompletionSource {
  let session: Session
  let options: GlobalOptions

  var commandNames: [String] { CommandName.allSpellings + ["exit", "quit"] }

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
    let pending = try? run(TodoStore.list(TodoFilter(), sort: [SortKey(.id)], now: Timestamp.now()))
    return pending?.map { (id: $0.id, title: $0.title) } ?? []
  }

  var helpTopics: [String] { CommandName.allSpellings + Help.topicNames.filter { CommandName(rawValue: $0) == nil } }

  private func run<Value>(_ operation: DataOperation<Value, TodoError>) throws -> Value {
    let context = try session.context(path: options.databasePath, readOnly: true)
    return try operation.transaction(.deferred).operate(in: context)
  }
}
