import TodoCore
import TodoInterchange
import TodoSystem

/// `migrate taskwarrior`: a Taskwarrior user's settings and tasks, moved over in one command
/// that can run again later (the settings are set again, the import updates what changed).
extension CommandRunner {
  func migrate(_ request: MigrateRequest) throws(CommandFailure) {
    guard format == .human else {
      throw .usage(.invalid("migrate reports to people; 'todo import FILE --json' reports an import for scripts"))
    }
    let dryRun = invocation.options.dryRun
    let environment = session.environment
    let home = environment["HOME"] ?? ""
    let taskrc = request.taskrc ?? environment["TASKRC"] ?? (home.isEmpty ? nil : home + "/.taskrc")
    // The settings: each line of the taskrc translated, checked as `config set` checks it.
    var accepted: [(line: Int, from: String, key: String, value: String)] = []
    var refused: [(line: Int, from: String, reason: String)] = []
    if let taskrc, FileSystem.exists(taskrc) {
      guard case .success(let bytes) = FileSystem.readAll(taskrc), let text = String(validating: bytes, as: UTF8.self) else {
        throw .environment("cannot read \(taskrc) as UTF-8 text; nothing was changed")
      }
      let file = Taskrc(text: text)
      for include in file.includes { refused.append((include.line, "include \(include.file)", "themes and holidays have no counterpart here")) }
      for (entry, translation) in file.translated() {
        let from = "\(entry.key)=\(entry.value)"
        var settings: [Taskrc.Setting] = []
        switch translation {
        case .untranslated(let reason): refused.append((entry.line, from, reason))
        case .partly(let some, let reason):
          settings = some
          refused.append((entry.line, from, reason))
        case .settings(let all): settings = all
        }
        for setting in settings {
          guard let key = ConfigKey.named(setting.key) else {
            refused.append((entry.line, from, "\(setting.key) is no setting of todo's"))
            continue
          }
          do throws(UsageError) {
            try Configuration.check(setting.value, for: key, now: now)
            accepted.append((entry.line, from, setting.key, setting.value))
          } catch {
            refused.append((entry.line, from, error.message))
          }
        }
      }
    } else if request.taskrc != nil {
      throw .environment("cannot read \(request.taskrc ?? ""): there is no such file; nothing was changed")
    }
    let verb = dryRun ? "Would set" : "Set"
    if let taskrc {
      output.write(accepted.isEmpty && refused.isEmpty ? "No settings in \(taskrc) (or no such file).\n" : "Settings from \(taskrc):\n")
    }
    // Line by line: what each became.
    var lines: [Int: (from: String, said: [String])] = [:]
    for setting in accepted {
      lines[setting.line, default: (setting.from, [])].said.append("\(verb) \(setting.key) = \(sanitizedForTerminal(setting.value))")
    }
    for entry in refused { lines[entry.line, default: (entry.from, [])].said.append("not moved: \(sanitizedForTerminal(entry.reason))") }
    for (line, entry) in lines.sorted(by: { $0.key < $1.key }) {
      output.write("  line \(line): \(sanitizedForTerminal(entry.from))\n" + entry.said.map { "    \($0)\n" }.joinedText(""))
    }
    if !dryRun, !accepted.isEmpty {
      _ = try changeFile(accepted[0].key) { file in
        for setting in accepted { file.set(setting.key, setting.value) }
      }
    }
    // The tasks: an export file, or what `task export` prints.
    let bytes: [UInt8]
    let name: String
    if let from = request.from {
      guard case .success(let read) = FileSystem.readAll(from) else { throw .environment("cannot read \(from); no task was imported") }
      bytes = read
      name = from
    } else {
      guard let task = Subprocess.find("task", path: environment["PATH"] ?? "/usr/bin:/bin") else {
        throw .environment("cannot find Taskwarrior's 'task' on PATH to run 'task export'; give its output with --from FILE")
      }
      var childEnvironment = Terminal.childEnvironment(environment)
      if let taskrc { childEnvironment["TASKRC"] = taskrc }
      let arguments = [task, "rc.hooks=off", "rc.verbose=nothing", "rc.confirmation=off", "rc.gc=off", "export"]
      switch ChildProcess.run(arguments, environment: childEnvironment, input: [], timeout: 600) {
      case .failure(let problem): throw .environment("cannot run 'task export': \(problem.reason); no task was imported")
      case .success(let outcome):
        guard outcome.status == 0, !outcome.timedOut else {
          let said = String(decoding: outcome.errors, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "no reason given"
          throw .environment("'task export' failed (exit status \(outcome.status)): \(sanitizedForTerminal(said)); no task was imported")
        }
        bytes = outcome.output
      }
      name = "task export"
    }
    let skipping = SkippedRecords()
    let records: [TaskRecord]
    do throws(InterchangeError) {
      records = try Taskwarrior.records(bytes, now: now, skipping: skipping)
    } catch {
      throw .environment("cannot read \(name) as Taskwarrior's export: \(error); no task was imported")
    }
    for notice in skipping.notices { session.warn("\(name) \(notice)", json: false) }
    try importRecords(records, from: name, format: .taskwarrior, strict: false, unread: skipping.problems.map(\.description))
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `migrate taskwarrior [--taskrc FILE] [--from FILE]`.
  mutating func migrateRequest(_ tokens: [Token]) throws(UsageError) -> MigrateRequest {
    var request = MigrateRequest()
    var source: String?
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--taskrc", let value):
        guard !value.isEmpty else { throw .badValue(option: "--taskrc", value: value, reason: "give a file") }
        request.taskrc = value
      case .option("--from", let value):
        guard !value.isEmpty else { throw .badValue(option: "--from", value: value, reason: "give a file ('task export' writes it)") }
        request.from = value
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, _):
        guard source == nil else { throw .invalid("migrate takes one source; '\(word)' is a second one") }
        source = word
      }
    }
    guard source?.lowercased() == "taskwarrior" else {
      let meant = source.flatMap { closestMatch(to: $0.lowercased(), in: ["taskwarrior"]) }.map { " (did you mean '\($0)'?)" } ?? ""
      throw .invalid(
        "migrate moves over from taskwarrior: todo migrate taskwarrior\(source == nil ? "" : meant); todo.txt and iCalendar files are read by todo import"
      )
    }
    return request
  }
}
