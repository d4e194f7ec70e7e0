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

  /// vdirsyncer's full path, or a failure saying how to install it.
  private func vdirsyncerPath() throws(CommandFailure) -> String {
    guard let found = Subprocess.find("vdirsyncer", path: session.environment["PATH"] ?? "/usr/bin:/bin") else {
      throw .environment("sync needs vdirsyncer, which is not installed; install it with: sudo apt-get install vdirsyncer")
    }
    return found
  }

  /// Runs `vdirsyncer ARGUMENTS…` with todo's configuration and the database the resolver must
  /// read; fails with a sentence and vdirsyncer's last lines. It gets the whole environment (a
  /// proxy, a certificate bundle), and the password asked for once (see `askedPassword`).
  private func runVdirsyncer(
    _ arguments: [String], config: String, url: String?, password: String? = nil, after: String = "nothing was merged"
  ) throws(CommandFailure) -> String {
    var environment = Terminal.childEnvironment(session.environment)
    environment["VDIRSYNCER_CONFIG"] = config
    if let password { environment[Self.passwordVariable] = password }
    if let (path, _) = FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment) {
      environment["TODO_DB"] = path
    }
    let echo = format == .human && isatty(STDERR_FILENO) == 1
    switch Subprocess.run([try vdirsyncerPath()] + arguments, environment: environment, echo: echo) {
    case .failure(let problem):
      throw .environment("cannot run vdirsyncer: \(problem.reason)")
    case .success(let (status, output)):
      guard status == 0 else {
        throw .environment(
          "\(Vdirsyncer.explain(output, url: url)) (vdirsyncer \(arguments.first ?? "") exited with \(status)); \(after):\n"
            + Vdirsyncer.tail(output))
      }
      return output
    }
  }

  /// The collection's sync lock, or a failure saying `busy` when another sync holds it.
  private func syncLock(_ paths: SyncPaths, _ collection: String, busy: String) throws(CommandFailure) -> Int32 {
    switch SyncLock.acquire(paths.lock(collection)) {
    case .success(let descriptor): return descriptor
    case .failure(.busy): throw .environment(busy)
    case .failure(.other(let problem)): throw .environment(problem)
    }
  }

  /// Removes the (not hidden) files of a folder: vdirsyncer's status files.
  private func emptyFolder(_ folder: String) {
    guard case .success(let names) = FileSystem.files(in: folder, endingIn: "") else { return }
    for name in names { _ = FileSystem.remove(folder + "/" + name) }
  }

  /// Whether a URL names this machine (127.0.0.0/8, localhost, [::1]): nothing sent there
  /// crosses a network.
  static func isLoopback(_ url: String) -> Bool {
    guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return false }
    var host = url[schemeEnd...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
    if host.hasPrefix("[") { return host.hasPrefix("[::1]") }
    let name = host.prefix { $0 != ":" }.lowercased()
    // 127.0.0.0/8 as a dotted address (not a name such as 127.example.com).
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    let dotted = parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    return name == "localhost" || (dotted && parts[0] == "127")
  }

  /// `sync --setup URL`: writes vdirsyncer's configuration and runs its discovery.
  private func syncSetup(url: String, _ request: SyncRequest, paths: SyncPaths) throws(CommandFailure) {
    if request.user != nil, url.hasPrefix("http://"), !Self.isLoopback(url) {
      session.warn(
        "the password will cross the network unencrypted (http://); use https:// unless the server is on this machine",
        json: format != .human)
    }
    let lastPart = url.split(separator: "/").last.map(String.init) ?? ""
    let collection = request.collection ?? (ArgumentDecoder.isCollectionName(lastPart) ? lastPart : "tasks")
    if FileSystem.exists(paths.config) && !request.force {
      throw .environment("sync is already set up (\(paths.config)); give --force to replace that configuration")
    }
    _ = try vdirsyncerPath()
    guard let todo = Subprocess.ownPath() else { throw .environment("cannot find this program's own path in /proc/self/exe") }
    // Tried with a new file first: a setup that cannot reach the collection keeps the one before.
    // vdirsyncer's status describes the server it last synced with: for another server (or
    // collection) the trial starts a fresh status, swapped in on success, and items on both
    // sides are matched again by UID (nothing is deleted); for the same one it is kept.
    let previousText: String? = if case .success(let bytes) = FileSystem.readAll(paths.config) { String(decoding: bytes, as: UTF8.self) } else { nil }
    let home = session.environment["HOME"]
    let sameServer =
      previousText.map {
        Vdirsyncer.value("url", in: "storage todo_remote", of: $0, home: home) == url
          && Vdirsyncer.vdirFolder(inConfiguration: $0, home: home) == paths.vdir(collection)
      } ?? false
    var trialPaths = paths
    if !sameServer { trialPaths.status = String(paths.status.dropLast()) + ".new/" }
    func text(_ paths: SyncPaths) -> String {
      Vdirsyncer.configuration(
        paths: paths, collection: collection, url: url, user: request.user, passwordCommand: request.passwordCommand, todo: todo)
    }
    for folder in [paths.vdir(collection), trialPaths.status] {
      if let problem = FileSystem.createParentFolders(of: folder + "/x") { throw .environment(problem) }
    }
    if !sameServer { emptyFolder(trialPaths.status) }
    if let problem = FileSystem.createParentFolders(of: paths.config) { throw .environment(problem) }
    let trial = paths.config + ".new"
    if let problem = FileSystem.writeAtomically(Array(text(trialPaths).utf8), to: trial) {
      throw .environment("cannot write \(trial): \(problem)")
    }
    let lock = try syncLock(paths, collection, busy: "a todo sync of '\(collection)' is running; set up again when it has finished")
    defer { SyncLock.release(lock) }
    do throws(CommandFailure) {
      let password = try askedPassword(Vdirsyncer.passwordPrompt(inConfiguration: text(trialPaths)), setup: true)
      _ = try runVdirsyncer(["discover", "todo"], config: trial, url: url, password: password)
      // Discovery does not reach a collection given by its URL: a first transfer into the vdir
      // (nothing is merged yet) proves the URL and the account work.
      _ = try runVdirsyncer(["sync", "todo"], config: trial, url: url, password: password)
    } catch {
      _ = FileSystem.remove(trial)
      throw error
    }
    if !sameServer {
      emptyFolder(paths.status)
      rmdir(paths.status)
      if rename(String(trialPaths.status.dropLast()), String(paths.status.dropLast())) != 0 {
        throw .environment("cannot move vdirsyncer's status into \(paths.status): \(String(cString: strerror(errno)))")
      }
    }
    if let problem = FileSystem.writeAtomically(Array(text(paths).utf8), to: paths.config) {
      throw .environment("cannot write \(paths.config): \(problem)")
    }
    _ = FileSystem.remove(trial)
    switch format {
    case .human:
      output.write(
        "Sync is set up with \(url) (collection '\(collection)', vdir \(paths.vdir(collection)), vdirsyncer configuration \(paths.config)).\n"
          + "Run todo sync to sync now.\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("url", url)
          json.field("collection", collection)
          json.field("vdir", paths.vdir(collection))
          json.field("config", paths.config)
        }
      }
    }
  }

  /// Where vdirsyncer's password command (`todo sync --ask-password`) finds the password this
  /// sync asked for, so that it is asked once a sync, not at each of vdirsyncer's runs.
  static let passwordVariable = "TODO_SYNC_PASSWORD"

  /// The password, asked on the terminal when the configuration has todo ask for it (`prompt`);
  /// nil when it does not. Fails when there is no terminal to ask on, or the question is
  /// cancelled, before anything runs.
  private func askedPassword(_ prompt: String?, setup: Bool) throws(CommandFailure) -> String? {
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
    if let given = session.environment[Self.passwordVariable], !given.isEmpty {
      output.write(given + "\n")
      return
    }
    guard let password = try askedPassword(prompt, setup: false) else { return }
    output.write(password + "\n")
  }

  /// The vdir folder todo's vdirsyncer configuration names, the server's URL, and the question
  /// for the password when todo asks for it.
  private func syncConfiguration(_ paths: SyncPaths) throws(CommandFailure) -> (vdir: String, url: String?, passwordPrompt: String?) {
    guard FileSystem.exists(paths.config) else {
      throw .environment("sync is not set up; run: todo sync --setup URL --user NAME (see todo help sync)")
    }
    var text: String
    switch FileSystem.readAll(paths.config) {
    case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
    case .failure(let problem): throw .environment("cannot read \(paths.config): \(problem.reason)")
    }
    if let todo = Subprocess.ownPath(), let upgraded = Vdirsyncer.upgradingPasswordPrompt(inConfiguration: text, todo: todo) {
      if let problem = FileSystem.writeAtomically(Array(upgraded.utf8), to: paths.config) {
        throw .environment("cannot write \(paths.config): \(problem)")
      }
      text = upgraded
      session.warn(
        "\(paths.config) now has todo ask for the password, once a sync and on the terminal (vdirsyncer asked at each of its runs)",
        json: format != .human)
    }
    let home = session.environment["HOME"]
    guard let vdir = Vdirsyncer.vdirFolder(inConfiguration: text, home: home) else {
      if case .failure(let problem)? = Vdirsyncer.jsonValue("path", in: "storage todo_local", of: text) {
        throw .environment("\(paths.config): \(problem.message)")
      }
      throw .environment("\(paths.config) has no path in its [storage todo_local] section; set sync up again with --setup … --force")
    }
    // Shown, never used to connect (vdirsyncer reads its own file): a password a configuration
    // made before such URLs were refused holds is not echoed.
    let url = Vdirsyncer.value("url", in: "storage todo_remote", of: text, home: home).map { ArgumentDecoder.urlWithoutPassword($0) ?? $0 }
    return (vdir, url, Vdirsyncer.passwordPrompt(inConfiguration: text))
  }

  /// `sync` and `sync --status`.
  private func syncRun(_ request: SyncRequest, paths: SyncPaths, apply: Bool) throws(CommandFailure) {
    let (folder, url, passwordPrompt) = try syncConfiguration(paths)
    let collection = String(folder.split(separator: "/").last ?? "tasks")
    if let problem = FileSystem.createParentFolders(of: folder + "/x") { throw .environment(problem) }
    let vdir = Vdir(folder: folder)
    let operation = { (apply: Bool, files: Bool) in
      SyncEngine.merge(
        collection: collection, vdir: vdir, now: self.now, force: request.force, apply: apply, command: self.invocation.commandLine,
        carried: !request.offline, exclusiveClocks: self.configuration.trackingIsExclusive, files: files)
    }
    guard apply else {
      renderSync(try perform(operation(false, true), access: .read), url: url, status: true)
      return
    }
    let lock = try syncLock(paths, collection, busy: "another todo sync of '\(collection)' is running; try again when it has finished")
    defer { SyncLock.release(lock) }
    // A sync killed with SIGKILL while writing an item leaves its temporary file; the lock keeps
    // every other writer of the vdir out.
    FileSystem.removeLeftoverTemporaryFiles(in: folder)
    // The server's changes into the vdir, the vdir into the database, the database's changes
    // back to the server. vdirsyncer runs while the database is not locked.
    if !request.offline { _ = try vdirsyncerPath() }
    let password = request.offline ? nil : try askedPassword(passwordPrompt, setup: false)
    // vdirsyncer refuses to carry a side that was emptied (every item removed from the server, or
    // every task deleted and purged here) to the other; --force, which also lets todo's own
    // mass-deletion guard pass, tells it the emptying is meant. Never when the vdir has none of
    // the items the last sync left there while todo still counts some: then the folder was moved
    // or wiped behind todo's back, and the server must not follow it.
    let forceDelete = ["sync", "--force-delete", "todo"]
    var first = ["sync", "todo"]
    if request.force && !request.offline {
      let files = (try? vdir.list().get())?.count ?? 0
      let synced = try perform(SyncEngine.syncedItemCount(collection: collection), access: .read)
      if files > 0 || synced == 0 { first = forceDelete }
    }
    if !request.offline { _ = try runVdirsyncer(first, config: paths.config, url: url, password: password) }
    var merge = operation(true, true)
    if let hooks, configuration.hooksRunForSync {
      // on-add for each task the server brings, on-modify for each it changes or deletes here.
      merge = try hooked(merge, previewing: operation(true, false), adds: true, hooks: hooks) { report in
        TodoStore.tasks(uuids: report.added).flatMap { added in
          TodoStore.tasks(uuids: report.updated + report.deleted).map { changed in ChangeReport(tasks: added, others: changed) }
        }
      }
    }
    let report = try perform(merge, access: .write)
    if !request.offline && (!report.written.isEmpty || !report.removed.isEmpty) {
      _ = try runVdirsyncer(
        request.force ? forceDelete : ["sync", "todo"], config: paths.config, url: url, password: password,
        after: "the merge is saved here, and the next todo sync sends its changes")
    }
    renderSync(report, url: url, status: false, offline: request.offline)
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
