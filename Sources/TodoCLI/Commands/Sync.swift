import DataOperation
import TodoCore
import TodoSync
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `sync`: vdirsyncer carries the vdir to the CalDAV server; TodoSync merges the vdir into the
/// database. This only finds the files, runs vdirsyncer (never while the database is locked)
/// and renders the report.
extension CommandRunner {
  func sync(_ request: SyncRequest) throws(CommandFailure) {
    guard let paths = SyncPaths(environment: session.environment) else {
      throw .environment("cannot work out where sync keeps its files: HOME is not set")
    }
    // A sync cannot be tried out: the server side of it would not roll back.
    switch request.mode {
    case .sync, .setup, .resolve:
      if invocation.options.dryRun {
        throw .usage(.invalid("sync has no --dry-run; 'todo sync --status' shows what a sync would send and receive, and changes nothing"))
      }
    case .status, .conflicts, .askPassword: break
    }
    switch request.mode {
    case .setup(let url): try syncSetup(url: url, request, paths: paths)
    case .resolve(let a, let b): try syncResolve(a, b)
    case .conflicts: try syncConflicts()
    case .askPassword(let prompt): try syncAskPassword(prompt)
    case .status: try syncRun(request, paths: paths, apply: false)
    case .sync: try syncRun(request, paths: paths, apply: true)
    }
  }

  /// Where sync keeps its vdir (for `diag`), and vdirsyncer's configuration.
  var syncFolders: (vdir: String, vdirsyncerConfig: String)? {
    SyncPaths(environment: session.environment).map { ($0.vdirRoot, $0.config) }
  }

  /// The run of a sync, `TodoSync`'s, with this command as its host.
  private func syncRunner(_ paths: SyncPaths) -> SyncRun<SyncFrontEnd> {
    SyncRun(
      host: SyncFrontEnd(runner: self), paths: paths, environment: session.environment,
      childEnvironment: Terminal.childEnvironment(session.environment),
      databasePath: FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment)?.0,
      echo: format == .human && isatty(STDERR_FILENO) == 1)
  }

  /// `sync --setup URL`: vdirsyncer's configuration, tried before it replaces the one before.
  private func syncSetup(url: String, _ request: SyncRequest, paths: SyncPaths) throws(CommandFailure) {
    if request.user != nil, url.hasPrefix("http://"), !Vdirsyncer.isLoopback(url) {
      session.warn(
        "the password will cross the network unencrypted (http://); use https:// unless the server is on this machine",
        json: format != .human)
    }
    let lastPart = url.split(separator: "/").last.map(String.init) ?? ""
    let collection = request.collection ?? (ArgumentDecoder.isCollectionName(lastPart) ? lastPart : "tasks")
    let setup = try syncRunner(paths).setup(
      url: url, collection: collection, user: request.user, passwordCommand: request.passwordCommand, force: request.force)
    switch format {
    case .human:
      output.write(
        "Sync is set up with \(setup.url) (collection '\(setup.collection)', vdir \(setup.vdir), vdirsyncer configuration \(setup.config)).\n"
          + "Run todo sync to sync now.\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("url", setup.url)
          json.field("collection", setup.collection)
          json.field("vdir", setup.vdir)
          json.field("config", setup.config)
        }
      }
    }
  }

  /// The password, asked on the terminal when the configuration has todo ask for it (`prompt`);
  /// nil when it does not. Fails when there is no terminal to ask on, or the question is
  /// cancelled, before anything runs.
  fileprivate func askedPassword(_ prompt: String?, setup: Bool) throws(CommandFailure) -> String? {
    guard let prompt else { return nil }
    switch SecretPrompt.ask(prompt + ": ") {
    case .typed(let password) where !password.isEmpty: return password
    case .typed: throw .cancelled("no password was typed; nothing was \(setup ? "set up" : "synced")")
    case .cancelled: throw .cancelled("the password was not given; nothing was \(setup ? "set up" : "synced")")
    case .noTerminal:
      throw .environment(
        "the server needs a password and there is no terminal to ask for it on; "
          + (setup
            ? "give a command that prints it: --password-command CMD"
            : "set sync up with a command that prints it: todo sync --setup URL --user NAME --password-command CMD --force"))
    }
  }

  /// `sync --ask-password PROMPT`: the command vdirsyncer runs for the password. Prints the one
  /// the running sync asked for, else asks on the terminal.
  private func syncAskPassword(_ prompt: String) throws(CommandFailure) {
    // Only here: the variable is how the sync that runs vdirsyncer hands it over.
    if let given = session.environment[Vdirsyncer.passwordVariable], !given.isEmpty {
      output.write(given + "\n")
      return
    }
    guard let password = try askedPassword(prompt, setup: false) else { return }
    output.write(password + "\n")
  }

  /// `sync` and `sync --status`: TodoSync's run, with the merge this command makes (its clock
  /// rule, its command line) and its hooks.
  private func syncRun(_ request: SyncRequest, paths: SyncPaths, apply: Bool) throws(CommandFailure) {
    let (now, command, exclusiveClocks) = (now, invocation.commandLine, configuration.trackingIsExclusive)
    let outcome = try syncRunner(paths).sync(force: request.force, offline: request.offline, apply: apply) { collection, vdir, apply, files in
      SyncEngine.merge(
        collection: collection, vdir: vdir, now: now, force: request.force, apply: apply, command: command, carried: !request.offline,
        exclusiveClocks: exclusiveClocks, files: files)
    }
    renderSync(outcome.report, url: outcome.url, status: !apply, offline: request.offline)
  }

  /// The merge as this command writes it: with the hooks when `hooks.sync` asks for them (on-add
  /// for each task the server brings, on-modify for each it changes or deletes here).
  fileprivate func writeMerge(_ merge: @escaping @Sendable (Bool) -> DataOperation<SyncReport, TodoError>) throws(CommandFailure)
    -> SyncReport
  {
    var operation = merge(true)
    if let hooks, configuration.hooksRunForSync {
      operation = try hooked(operation, previewing: merge(false), adds: true, hooks: hooks) { report in
        TodoStore.tasks(uuids: report.added).flatMap { added in
          TodoStore.tasks(uuids: report.updated + report.deleted).map { changed in ChangeReport(tasks: added, others: changed) }
        }
      }
    }
    return try perform(operation, access: .write)
  }

  private func renderSync(_ report: SyncReport, url: String?, status: Bool, offline: Bool = false) {
    for warning in report.warnings { session.warn(warning, json: format != .human) }
    for skipped in report.skipped {
      session.warn("skipped \(skipped.file): \(skipped.reason)", json: format != .human)
    }
    switch format {
    case .human:
      let server = url ?? "the server"
      if status {
        output.write(
          "\(report.pendingHere) \(report.pendingHere == 1 ? "task" : "tasks") changed here and \(report.pendingThere) "
            + "\(report.pendingThere == 1 ? "file" : "files") changed in the vdir since the last sync "
            + "(changes on \(server) show after todo sync).\n")
        return
      }
      var parts = [
        "\(report.added.count) added here", "\(report.updated.count) updated here", "\(report.written.count) sent",
      ]
      if !report.deleted.isEmpty { parts.append("\(report.deleted.count) deleted here") }
      if !report.removed.isEmpty { parts.append("\(report.removed.count) removed") }
      if !report.restored.isEmpty { parts.append("\(report.restored.count) restored") }
      if !report.conflicts.isEmpty {
        parts.append("\(report.conflicts.count) \(report.conflicts.count == 1 ? "conflict" : "conflicts") (todo sync --conflicts)")
      }
      if !report.skipped.isEmpty { parts.append("\(report.skipped.count) files skipped") }
      let place = offline ? "the vdir (vdirsyncer not run)" : server
      output.write("Synced \(report.items) \(report.items == 1 ? "task" : "tasks") with \(place): \(parts.joinedText(", ")).\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          if status {
            json.field("pending_here", report.pendingHere)
            json.field("pending_in_vdir", report.pendingThere)
            json.field("items", report.items)
            return
          }
          json.field("items", report.items)
          for (key, values) in [
            ("added", report.added), ("updated", report.updated), ("deleted", report.deleted), ("restored", report.restored),
            ("sent", report.written), ("removed", report.removed),
          ] {
            json.key(key)
            json.array { json in for value in values { json.value(value) } }
          }
          json.key("conflicts")
          json.array { json in
            for conflict in report.conflicts { self.conflictJSON(conflict, decided: nil, &json) }
          }
          json.key("skipped")
          json.array { json in
            for skipped in report.skipped {
              json.object { json in
                json.field("file", skipped.file)
                json.field("reason", skipped.reason)
              }
            }
          }
          json.field("warnings", report.warnings)
        }
      }
    }
  }

  private func conflictJSON(_ conflict: SyncConflict, decided: Int64?, _ json: inout JSONWriter) {
    json.object { json in
      json.field("uuid", conflict.taskUUID)
      json.field("field", conflict.field)
      json.field("kept", conflict.kept)
      json.field("lost", conflict.lost)
      json.field("kept_from", conflict.keptSide == .local ? "here" : "server")
      if let decided { json.field("decided", Timestamp.rfc3339(decided)) }
    }
  }

  /// `sync --conflicts`: what merges decided when both sides changed a field, newest first.
  private func syncConflicts() throws(CommandFailure) {
    let conflicts = try perform(SyncEngine.conflicts(limit: 200), access: .read)
    switch format {
    case .human:
      guard !conflicts.isEmpty else {
        output.write("No conflicts: no sync has found a field changed on both sides.\n")
        return
      }
      for (conflict, decided) in conflicts {
        output.write(
          "\(Timestamp.localDescription(decided))  task \(sanitizedForTerminal(String(conflict.taskUUID.prefix(8))))  "
            + "\(sanitizedForTerminal(conflict.field)): kept '\(sanitizedForTerminal(conflict.kept))' "
            + "(from \(conflict.keptSide == .local ? "here" : "the server")), lost '\(sanitizedForTerminal(conflict.lost))'\n")
      }
    case .json, .jsonLines:
      writeJSONList(conflicts) { json, item in self.conflictJSON(item.conflict, decided: item.decided, &json) }
    }
  }

  /// `sync --resolve A B`: vdirsyncer's conflict command. Both files get the merged item.
  private func syncResolve(_ a: String, _ b: String) throws(CommandFailure) {
    var copies: [[UInt8]] = []
    for path in [a, b] {
      switch FileSystem.readAll(path) {
      case .success(let bytes): copies.append(bytes)
      case .failure(let problem): throw .environment("cannot read \(path): \(problem.reason)")
      }
    }
    // A write: the conflicts it decides are recorded.
    let merged = try perform(SyncEngine.resolve(copies[0], copies[1], now: now), access: .write)
    for path in [a, b] {
      if let problem = FileSystem.writeAtomically(merged, to: path) { throw .environment("cannot write \(path): \(problem)") }
    }
  }
}

/// The command line as a sync's host: its database access, its questions, its warnings.
struct SyncFrontEnd: SyncHost {
  let runner: CommandRunner

  func read<Value: Sendable>(_ operation: DataOperation<Value, TodoError>) throws(CommandFailure) -> Value {
    try runner.perform(operation, access: .read)
  }

  func write(merge: @escaping @Sendable (Bool) -> DataOperation<SyncReport, TodoError>) throws(CommandFailure) -> SyncReport {
    try runner.writeMerge(merge)
  }

  func password(_ prompt: String, setup: Bool) throws(CommandFailure) -> String? {
    try runner.askedPassword(prompt, setup: setup)
  }

  func failure(_ problem: SyncProblem) -> CommandFailure {
    switch problem {
    case .environment(let text): .environment(text)
    case .cancelled(let text): .cancelled(text)
    }
  }

  func warn(_ text: String) {
    runner.session.warn(text, json: runner.format != .human)
  }
}

// MARK: - Decoding

extension ArgumentDecoder {

  /// `sync [--setup URL [--user NAME] [--password-command CMD] [--collection NAME]] [--status]
  /// [--conflicts] [--resolve A B] [--ask-password PROMPT] [--force]`: one mode at a time.
  mutating func syncRequest(_ tokens: [Token]) throws(UsageError) -> SyncRequest {
    var request = SyncRequest()
    var modes: [String] = []
    var words: [String] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--setup", let value):
        guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
          throw .badValue(option: "--setup", value: value, reason: "give the collection's URL (https://…)")
        }
        if let redacted = Vdirsyncer.urlWithoutPassword(value) {
          throw .badValue(
            option: "--setup", value: redacted,
            reason: "the URL holds a password, which would be stored in vdirsyncer's configuration and shown at every sync; "
              + "give --user NAME, and --password-command CMD or nothing (todo then asks)")
        }
        request.mode = .setup(url: value)
        modes.append("--setup")
      case .option("--user", let value):
        guard !value.isEmpty else { throw .badValue(option: "--user", value: value, reason: "give a user name") }
        request.user = value
      case .option("--password-command", let value):
        guard !value.isEmpty else { throw .badValue(option: "--password-command", value: value, reason: "give a command") }
        request.passwordCommand = value
      case .option("--collection", let value):
        guard Self.isCollectionName(value) else {
          throw .badValue(option: "--collection", value: value, reason: "use letters, digits, '-' and '_'")
        }
        request.collection = value
      case .flag("--status"):
        request.mode = .status
        modes.append("--status")
      case .flag("--conflicts"):
        request.mode = .conflicts
        modes.append("--conflicts")
      case .flag("--resolve"): modes.append("--resolve")
      case .flag("--ask-password"): modes.append("--ask-password")
      case .flag("--force"): request.force = true
      case .flag("--offline"): request.offline = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, _): words.append(word)
      }
    }
    guard modes.count <= 1 else { throw .invalid("give one of \(modes.joinedText(", ")), not several") }
    if modes == ["--resolve"] {
      guard words.count == 2 else { throw .invalid("--resolve takes two files: todo sync --resolve A B") }
      request.mode = .resolve(words[0], words[1])
    } else if modes == ["--ask-password"] {
      guard words.count == 1 else { throw .invalid("--ask-password takes the question: todo sync --ask-password 'Password for alice'") }
      request.mode = .askPassword(words[0])
    } else if let word = words.first {
      throw .unexpectedArgument(command: CommandName.sync.rawValue, word: word)
    }
    if case .setup = request.mode {
    } else {
      for (name, given) in [("--user", request.user != nil), ("--password-command", request.passwordCommand != nil)] where given {
        throw .invalid("\(name) goes with --setup URL")
      }
    }
    if request.offline && request.mode != .sync { throw .invalid("--offline goes with todo sync alone") }
    if request.passwordCommand != nil && request.user == nil {
      throw .invalid("--password-command needs --user NAME")
    }
    return request
  }

  /// A collection's name: it names a folder.
  static func isCollectionName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
  }
}
