import DataOperation
import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// What a sync needs from the program that runs it: the database, the questions, the warnings.
/// The command line is one such front end; the full-screen interface can be another.
public protocol SyncHost {
  /// The front end's error, which every failure of a run becomes.
  associatedtype Failure: Error

  /// Runs an operation that only reads the database.
  func read<Value: Sendable>(_ operation: DataOperation<Value, TodoError>) throws(Failure) -> Value
  /// Runs the merge that writes (`SyncEngine.merge` with `apply: true`; `files: false` is its
  /// preview, which writes no file), with whatever the front end adds to it (hooks).
  func write(merge: @escaping @Sendable (_ files: Bool) -> DataOperation<SyncReport, TodoError>) throws(Failure) -> SyncReport
  /// The password, asked for `prompt` (on the terminal); nil when there is none to give.
  func password(_ prompt: String, setup: Bool) throws(Failure) -> String?
  /// The front end's failure for a problem of the run's own.
  func failure(_ problem: SyncProblem) -> Failure
  /// A warning for the user (the run goes on).
  func warn(_ text: String)
}

/// A problem of a sync run's own, as a sentence.
public enum SyncProblem: Error, Sendable {
  /// Something about the machine or the server: not set up, vdirsyncer failed, a file.
  case environment(String)
  /// The user declined (no password).
  case cancelled(String)
}

/// The order of one sync, as the command line and any other front end run it: the server's
/// changes into the vdir (vdirsyncer), the vdir into the database (`SyncEngine.merge`), the
/// database's changes back to the server (vdirsyncer again); vdirsyncer never runs while the
/// database is locked. Also `sync --setup` (its trial configuration) and `sync --status`. The
/// front end decodes, asks and renders; this decides what runs, in which order.
public struct SyncRun<Host: SyncHost> {
  /// What `sync --setup` did, for the front end to show.
  public struct Setup: Sendable {
    public var url: String
    public var collection: String
    public var vdir: String
    public var config: String
  }

  /// What a sync or `--status` found: the report, and the server's URL as configured.
  public struct Outcome: Sendable {
    public var report: SyncReport
    public var url: String?
  }

  let host: Host
  let paths: SyncPaths
  /// The environment of the programs run (vdirsyncer), as the front end passes it on.
  let childEnvironment: [String: String]
  /// The program's own environment: HOME, PATH.
  let environment: [String: String]
  /// The database file the resolver (`todo sync --resolve`, run by vdirsyncer) must open.
  let databasePath: String?
  /// Whether vdirsyncer's output is shown as it runs.
  let echo: Bool

  /// A run for the files `paths` names; `environment` is the program's, `childEnvironment` what
  /// vdirsyncer gets.
  public init(
    host: Host, paths: SyncPaths, environment: [String: String], childEnvironment: [String: String], databasePath: String?, echo: Bool
  ) {
    self.host = host
    self.paths = paths
    self.environment = environment
    self.childEnvironment = childEnvironment
    self.databasePath = databasePath
    self.echo = echo
  }

  private func fail(_ problem: SyncProblem) -> Host.Failure { host.failure(problem) }

  // MARK: vdirsyncer

  /// vdirsyncer's full path, or a failure saying how to install it.
  private func vdirsyncerPath() throws(Host.Failure) -> String {
    guard let found = Subprocess.find("vdirsyncer", path: environment["PATH"] ?? "/usr/bin:/bin") else {
      throw fail(.environment("sync needs vdirsyncer, which is not installed; install it with: sudo apt-get install vdirsyncer"))
    }
    return found
  }

  /// Runs `vdirsyncer ARGUMENTS…` with todo's configuration and the database the resolver must
  /// read; fails with a sentence and vdirsyncer's last lines. It gets the whole environment (a
  /// proxy, a certificate bundle), and the password asked for once.
  private func runVdirsyncer(
    _ arguments: [String], config: String, url: String?, password: String? = nil, after: String = "nothing was merged"
  ) throws(Host.Failure) {
    var environment = childEnvironment
    environment["VDIRSYNCER_CONFIG"] = config
    if let password { environment[Vdirsyncer.passwordVariable] = password }
    if let databasePath { environment["TODO_DB"] = databasePath }
    switch Subprocess.run([try vdirsyncerPath()] + arguments, environment: environment, echo: echo) {
    case .failure(let problem):
      throw fail(.environment("cannot run vdirsyncer: \(problem.reason)"))
    case .success(let (status, output)):
      guard status == 0 else {
        throw fail(
          .environment(
            "\(Vdirsyncer.explain(output, url: url)) (vdirsyncer \(arguments.first ?? "") exited with \(status)); \(after):\n"
              + Vdirsyncer.tail(output)))
      }
    }
  }

  /// The collection's sync lock, or a failure saying `busy` when another sync holds it.
  private func lock(_ collection: String, busy: String) throws(Host.Failure) -> Int32 {
    switch SyncLock.acquire(paths.lock(collection)) {
    case .success(let descriptor): return descriptor
    case .failure(.busy): throw fail(.environment(busy))
    case .failure(.other(let problem)): throw fail(.environment(problem))
    }
  }

  /// Removes the (not hidden) files of a folder: vdirsyncer's status files.
  private func emptyFolder(_ folder: String) {
    guard case .success(let names) = FileSystem.files(in: folder, endingIn: "") else { return }
    for name in names { _ = FileSystem.remove(folder + "/" + name) }
  }

  // MARK: Setup

  /// `sync --setup URL`: writes vdirsyncer's configuration and runs its discovery, tried with a
  /// new file first: a setup that cannot reach the collection keeps the one before.
  public func setup(
    url: String, collection: String, user: String?, passwordCommand: String?, force: Bool
  ) throws(Host.Failure) -> Setup {
    if FileSystem.exists(paths.config) && !force {
      throw fail(.environment("sync is already set up (\(paths.config)); give --force to replace that configuration"))
    }
    _ = try vdirsyncerPath()
    guard let todo = Subprocess.ownPath() else { throw fail(.environment("cannot find this program's own path in /proc/self/exe")) }
    // vdirsyncer's status describes the server it last synced with: for another server (or
    // collection) the trial starts a fresh status, swapped in on success, and items on both
    // sides are matched again by UID (nothing is deleted); for the same one it is kept.
    let previousText: String? =
      if case .success(let bytes) = FileSystem.readAll(paths.config) { String(decoding: bytes, as: UTF8.self) } else { nil }
    let home = environment["HOME"]
    let sameServer =
      previousText.map {
        Vdirsyncer.value("url", in: "storage todo_remote", of: $0, home: home) == url
          && Vdirsyncer.vdirFolder(inConfiguration: $0, home: home) == paths.vdir(collection)
      } ?? false
    var trialPaths = paths
    if !sameServer { trialPaths.status = String(paths.status.dropLast()) + ".new/" }
    func text(_ paths: SyncPaths) -> String {
      Vdirsyncer.configuration(paths: paths, collection: collection, url: url, user: user, passwordCommand: passwordCommand, todo: todo)
    }
    for folder in [paths.vdir(collection), trialPaths.status] {
      if let problem = FileSystem.createParentFolders(of: folder + "/x") { throw fail(.environment(problem)) }
    }
    if !sameServer { emptyFolder(trialPaths.status) }
    if let problem = FileSystem.createParentFolders(of: paths.config) { throw fail(.environment(problem)) }
    let trial = paths.config + ".new"
    if let problem = FileSystem.writeAtomically(Array(text(trialPaths).utf8), to: trial) {
      throw fail(.environment("cannot write \(trial): \(problem)"))
    }
    let lock = try lock(collection, busy: "a todo sync of '\(collection)' is running; set up again when it has finished")
    defer { SyncLock.release(lock) }
    do throws(Host.Failure) {
      let password = try Vdirsyncer.passwordPrompt(inConfiguration: text(trialPaths)).flatMap { prompt throws(Host.Failure) in
        try host.password(prompt, setup: true)
      }
      try runVdirsyncer(["discover", "todo"], config: trial, url: url, password: password)
      // Discovery does not reach a collection given by its URL: a first transfer into the vdir
      // (nothing is merged yet) proves the URL and the account work.
      try runVdirsyncer(["sync", "todo"], config: trial, url: url, password: password)
    } catch {
      _ = FileSystem.remove(trial)
      throw error
    }
    if !sameServer {
      emptyFolder(paths.status)
      rmdir(paths.status)
      if rename(String(trialPaths.status.dropLast()), String(paths.status.dropLast())) != 0 {
        throw fail(.environment("cannot move vdirsyncer's status into \(paths.status): \(String(cString: strerror(errno)))"))
      }
    }
    if let problem = FileSystem.writeAtomically(Array(text(paths).utf8), to: paths.config) {
      throw fail(.environment("cannot write \(paths.config): \(problem)"))
    }
    _ = FileSystem.remove(trial)
    return Setup(url: url, collection: collection, vdir: paths.vdir(collection), config: paths.config)
  }

  // MARK: Sync

  /// The vdir folder todo's vdirsyncer configuration names, the server's URL (without a password
  /// it may hold), and the question
  /// for the password when todo asks for it. A configuration that had vdirsyncer ask for the
  /// password is changed to have todo ask (once a sync).
  public func configuration() throws(Host.Failure) -> (vdir: String, url: String?, passwordPrompt: String?) {
    guard FileSystem.exists(paths.config) else {
      throw fail(.environment("sync is not set up; run: todo sync --setup URL --user NAME (see todo help sync)"))
    }
    var text: String
    switch FileSystem.readAll(paths.config) {
    case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
    case .failure(let problem): throw fail(.environment("cannot read \(paths.config): \(problem.reason)"))
    }
    if let todo = Subprocess.ownPath(), let upgraded = Vdirsyncer.upgradingPasswordPrompt(inConfiguration: text, todo: todo) {
      if let problem = FileSystem.writeAtomically(Array(upgraded.utf8), to: paths.config) {
        throw fail(.environment("cannot write \(paths.config): \(problem)"))
      }
      text = upgraded
      host.warn("\(paths.config) now has todo ask for the password, once a sync and on the terminal (vdirsyncer asked at each of its runs)")
    }
    let home = environment["HOME"]
    guard let vdir = Vdirsyncer.vdirFolder(inConfiguration: text, home: home) else {
      if case .failure(let problem)? = Vdirsyncer.jsonValue("path", in: "storage todo_local", of: text) {
        throw fail(.environment("\(paths.config): \(problem.message)"))
      }
      throw fail(.environment("\(paths.config) has no path in its [storage todo_local] section; set sync up again with --setup … --force"))
    }
    // Shown and put in messages, never used to connect (vdirsyncer reads its own file): a
    // password a configuration made before such URLs were refused holds is not echoed.
    let url = Vdirsyncer.value("url", in: "storage todo_remote", of: text, home: home).map { Vdirsyncer.urlWithoutPassword($0) ?? $0 }
    return (vdir, url, Vdirsyncer.passwordPrompt(inConfiguration: text))
  }

  /// `sync` (`apply`) and `sync --status`. `merge` makes the merge for the vdir and collection
  /// found (apply or not, writing files or not), with the run's other settings.
  public func sync(
    force: Bool, offline: Bool, apply: Bool,
    merge: @escaping @Sendable (_ collection: String, _ vdir: Vdir, _ apply: Bool, _ files: Bool) -> DataOperation<SyncReport, TodoError>
  ) throws(Host.Failure) -> Outcome {
    let (folder, url, passwordPrompt) = try configuration()
    let collection = String(folder.split(separator: "/").last ?? "tasks")
    if let problem = FileSystem.createParentFolders(of: folder + "/x") { throw fail(.environment(problem)) }
    let vdir = Vdir(folder: folder)
    guard apply else {
      return Outcome(report: try host.read(merge(collection, vdir, false, true)), url: url)
    }
    let lock = try lock(collection, busy: "another todo sync of '\(collection)' is running; try again when it has finished")
    defer { SyncLock.release(lock) }
    // A sync killed with SIGKILL while writing an item leaves its temporary file; the lock keeps
    // every other writer of the vdir out.
    FileSystem.removeLeftoverTemporaryFiles(in: folder)
    if !offline { _ = try vdirsyncerPath() }
    let password = offline ? nil : try passwordPrompt.flatMap { prompt throws(Host.Failure) in try host.password(prompt, setup: false) }
    // vdirsyncer refuses to carry a side that was emptied (every item removed from the server, or
    // every task deleted and purged here) to the other; --force, which also lets todo's own
    // mass-deletion guard pass, tells it the emptying is meant. Never when the vdir has none of
    // the items the last sync left there while todo still counts some: then the folder was moved
    // or wiped behind todo's back, and the server must not follow it.
    let forceDelete = ["sync", "--force-delete", "todo"]
    var first = ["sync", "todo"]
    if force && !offline {
      let files = (try? vdir.list().get())?.count ?? 0
      let synced = try host.read(SyncEngine.syncedItemCount(collection: collection))
      if files > 0 || synced == 0 { first = forceDelete }
    }
    if !offline { try runVdirsyncer(first, config: paths.config, url: url, password: password) }
    let report = try host.write { files in merge(collection, vdir, true, files) }
    if !offline && (!report.written.isEmpty || !report.removed.isEmpty) {
      try runVdirsyncer(
        force ? forceDelete : ["sync", "todo"], config: paths.config, url: url, password: password,
        after: "the merge is saved here, and the next todo sync sends its changes")
    }
    return Outcome(report: report, url: url)
  }
}
