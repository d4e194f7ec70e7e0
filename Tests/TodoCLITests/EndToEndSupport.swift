import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Support for the end-to-end tests: they run `todo` (in the test process, or the BUILT executable:
// the test target depends on it, so `swift test` builds it into the products folder) in a fresh temporary HOME with a
// controlled environment, and look only at what a user sees: stdout, stderr, the exit status and
// the database file. No `@testable import TodoCLI` here (its `OutputStream` clashes with
// Foundation's, and these tests must not reach inside; `InProcessTodo` is the one door).
//
// A sandbox runs a command line in the test process by default (`InProcessTodo`:
// `Session.execute`, as `main` calls it, with output in memory; no process to start, load and
// link), unless the run needs a real process (`needsRealProcess`): standard input, another
// time zone, a relative path, a file of the process (`/dev`, `/proc`) or hooks (the binary runs
// in the sandbox's folder), or a command that talks to a terminal, reads standard input,
// starts programs of its own or reads times in named zones (`shell`, `ui`, `edit`, `sync`,
// `remind`, `import`, `migrate`, `recover`, `--ask-password`). `TodoSandbox(inProcess: false)`
// starts the binary for every run: for exit by signal, crashes, processes racing each other,
// hooks, real tools, links to the process's own files. `launch` and `shell` always start a
// process. `TODO_E2E_BINARY_ONLY=1` makes every run start the binary, to compare.

/// What one run of `todo` printed and how it ended.
struct TodoRun: CustomStringConvertible {
  /// The exit status (a signal ends it with 128 + the signal number).
  let status: Int32
  /// Standard output, byte for byte.
  let stdoutBytes: Data
  /// Standard error, byte for byte.
  let stderrBytes: Data
  /// The command, for failure messages.
  let command: String

  /// Standard output decoded as UTF-8 (invalid bytes shown as U+FFFD).
  var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
  /// Standard error decoded as UTF-8 (invalid bytes shown as U+FFFD).
  var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
  /// Standard output split into lines, without the final empty one.
  var lines: [String] { Self.lines(of: stdout) }
  /// Standard error split into lines, without the final empty one.
  var errorLines: [String] { Self.lines(of: stderr) }

  var description: String {
    "$ todo \(command)\n[exit \(status)]\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
  }

  static func lines(of text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Standard output parsed as JSON (any top-level value).
  func json() throws -> Any {
    try JSONSerialization.jsonObject(with: stdoutBytes, options: [.fragmentsAllowed])
  }

  /// Standard output parsed as one JSON object.
  func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try #require(try? json() as? [String: Any], "stdout is not a JSON object:\n\(self)", sourceLocation: sourceLocation)
  }

  /// Standard output parsed as a JSON array of objects.
  func jsonArray(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    try #require(try? json() as? [[String: Any]], "stdout is not a JSON array of objects:\n\(self)", sourceLocation: sourceLocation)
  }

  /// Standard error parsed as one JSON object (the `--json` error form).
  func errorObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let value = try? JSONSerialization.jsonObject(with: stderrBytes)
    return try #require(value as? [String: Any], "stderr is not a JSON object:\n\(self)", sourceLocation: sourceLocation)
  }
}

/// Why a sandbox could not be set up.
struct EndToEndSetupError: Error, CustomStringConvertible {
  let description: String
}

/// One fresh temporary HOME with a database in it, and a way to run the built `todo` there.
///
/// ```swift
/// let todo = try TodoSandbox()
/// let run = todo("add", "Buy milk", "+home")
/// #expect(run.stdout == "Added task 1: Buy milk  +home\n")
/// ```
final class TodoSandbox {
  /// The fixed "now" every run sees unless a test gives another: Saturday 2026-11-21, 09:30 UTC.
  static let now = "2026-11-21T09:30:00Z"

  /// The temporary folder; also HOME.
  let folder: URL
  /// The database `TODO_DB` points at.
  let databasePath: String
  /// The environment of every run (a test may change it; nil values are left out).
  var environment: [String: String]
  /// Whether `run` runs commands in the test process when they need no real one (the default).
  let inProcess: Bool
  private var runCount = 0

  /// A shell that starts a program in the background without job control (`make test` runs the
  /// two shares of the tests that way) has it ignore SIGINT and SIGQUIT, and the programs it
  /// starts inherit that: `todo` must see the signals as a user's terminal sends them.
  private static let signalsAsAUserHasThem: Void = {
    signal(SIGINT, SIG_DFL)
    signal(SIGQUIT, SIG_DFL)
  }()

  init(inProcess: Bool = true) throws {
    self.inProcess = inProcess && !Self.binaryOnly
    Self.signalsAsAUserHasThem
    guard let binary = Self.binary else {
      throw EndToEndSetupError(
        description: "cannot find the built 'todo' executable next to the test bundle (\(Bundle.main.bundleURL.path)) "
          + "or in .build/debug; build it with 'swift build' first (or set TODO_E2E_BINARY)")
    }
    var template = Array((FileManager.default.temporaryDirectory.path + "/todo-e2e.XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
      throw EndToEndSetupError(description: "mkdtemp failed: errno \(errno)")
    }
    folder = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    databasePath = folder.appendingPathComponent("todo.db").path
    environment = [
      "HOME": folder.path,
      "PATH": "/usr/local/bin:/usr/bin:/bin",
      "TZ": "UTC",
      "TODO_NOW": Self.now,
      "COLUMNS": "100",
      "LANG": "C.UTF-8",
      "TODO_DB": databasePath,
      "TODO": binary.path,  // for scripts run with `shell(_:)`
    ]
  }

  deinit {
    // Give back write permission a test may have taken away, so the folder can be removed.
    if let paths = FileManager.default.enumerator(atPath: folder.path) {
      for case let path as String in paths { chmod(folder.appendingPathComponent(path).path, 0o700) }
    }
    chmod(folder.path, 0o700)
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: Finding the binary

  /// The built `todo`, found once: `TODO_E2E_BINARY`; then the folder the test bundle runs from
  /// (the products folder of whatever scratch path `swift test` used); then `.build/debug`.
  static let binary: URL? = {
    let fileManager = FileManager.default
    var candidates: [URL] = []
    if let override = ProcessInfo.processInfo.environment["TODO_E2E_BINARY"], !override.isEmpty {
      candidates.append(URL(fileURLWithPath: override))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("todo"))
    if let executable = Bundle.main.executableURL {
      candidates.append(executable.deletingLastPathComponent().appendingPathComponent("todo"))
    }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(runner.deletingLastPathComponent().appendingPathComponent("todo"))
    // Walk up from this file to the package root, then its default scratch folder.
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        candidates.append(folder.appendingPathComponent(".build/debug/todo"))
        break
      }
      folder.deleteLastPathComponent()
    }
    return candidates.first { url in
      var isFolder: ObjCBool = false
      return fileManager.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
        && fileManager.isExecutableFile(atPath: url.path)
    }
  }()

  /// True when `name` is an executable on the PATH the sandbox uses.
  static func hasTool(_ name: String) -> Bool {
    ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"].contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
  }

  // MARK: Running

  /// Runs `todo ARGUMENTS…`.
  @discardableResult
  func callAsFunction(_ arguments: String..., stdin: String? = nil, environment changes: [String: String?] = [:]) -> TodoRun {
    run(arguments, stdin: stdin, environment: changes)
  }

  /// Runs `todo` with an argument array (for arguments built at run time).
  @discardableResult
  func run(_ arguments: [String], stdin: String? = nil, environment changes: [String: String?] = [:]) -> TodoRun {
    if inProcess && stdin == nil {
      var environment = self.environment
      for (name, value) in changes { environment[name] = value }
      if !needsRealProcess(arguments, environment: environment) {
        runCount += 1
        let (status, output, error) = InProcessTodo.run(arguments, environment: environment)
        return TodoRun(
          status: status, stdoutBytes: Data(output), stderrBytes: Data(error),
          command: arguments.map(Self.quoted).joined(separator: " "))
      }
    }
    let launched = launch(Self.binary!, arguments, stdin: stdin, environment: changes, shownAs: arguments)
    return launched.wait()
  }

  /// `TODO_E2E_BINARY_ONLY=1`, read once (other tests change the environment while they run).
  static let binaryOnly = ProcessInfo.processInfo.environment["TODO_E2E_BINARY_ONLY"] == "1"
  /// The commands that talk to a terminal, read standard input, start programs of their own
  /// (beyond hooks) or read times in named zones: the binary runs them.
  static let realProcessWords: Set<String> = [
    "shell", "ui", "edit", "sync", "remind", "recover", "import", "migrate", "-", "--ask-password",
  ]
  /// The variables that name files and folders.
  static let pathVariables = ["HOME", "TODO_DB", "TODO_CONFIG", "TASKRC", "TASKDATA", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"]
  /// The options whose value is a file.
  static let pathOptions: Set<String> = ["--db", "--output", "--vdir", "--taskrc", "--from"]

  /// Whether a command line must run in a process of its own (see the top of this file).
  func needsRealProcess(_ arguments: [String], environment: [String: String]) -> Bool {
    if environment["TZ"] != "UTC" { return true }
    for name in Self.pathVariables {
      if let value = environment[name], !value.isEmpty, !value.hasPrefix("/") { return true }
    }
    // Hooks run in the folder `todo` runs in.
    // (as `todo` reads it: an XDG folder that is empty or relative is not set).
    let configuration =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? "") + "/.config")
    if FileManager.default.fileExists(atPath: configuration + "/todo/hooks") { return true }
    var previous = ""
    for word in arguments {
      defer { previous = word }
      if Self.realProcessWords.contains(word) { return true }
      // A relative path means the sandbox's folder to the binary, and something else here.
      let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
      let (option, value) = word.hasPrefix("-") && parts.count == 2 ? (parts[0], parts[1]) : (previous, word)
      if Self.pathOptions.contains(option) && !value.hasPrefix("/") { return true }
      // The process's own files: /dev/stdout, /proc/self/fd/1.
      if [word, value].contains(where: { $0.hasPrefix("/dev/") || $0.hasPrefix("/proc/") }) { return true }
      for candidate in [word, value] where !candidate.isEmpty && !candidate.hasPrefix("/") {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(candidate).path) { return true }
      }
    }
    return false
  }

  /// Runs `/bin/sh -c SCRIPT` in the sandbox; `$TODO` is the binary (for raw bytes in arguments).
  @discardableResult
  func shell(_ script: String, environment changes: [String: String?] = [:]) -> TodoRun {
    launch(URL(fileURLWithPath: "/bin/sh"), ["-c", script], stdin: nil, environment: changes, shownAs: ["sh -c", script])
      .wait()
  }

  /// Starts a process and returns at once; `wait()` collects it. For running several at a time.
  func launch(
    _ executable: URL, _ arguments: [String], stdin: String? = nil, environment changes: [String: String?] = [:],
    shownAs shown: [String]? = nil
  ) -> LaunchedRun {
    runCount += 1
    let base = folder.appendingPathComponent(".run-\(runCount)")
    let outputPath = base.path + ".out"
    let errorPath = base.path + ".err"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = self.environment
    for (name, value) in changes { environment[name] = value }
    process.environment = environment
    process.currentDirectoryURL = folder
    if let stdin {
      let inputPath = base.path + ".in"
      _ = FileManager.default.createFile(atPath: inputPath, contents: Data(stdin.utf8))
      process.standardInput = FileHandle(forReadingAtPath: inputPath)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    // Files, not pipes: a large output can never fill a pipe and block the child.
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    let command = (shown ?? arguments).map(Self.quoted).joined(separator: " ")
    do {
      try process.run()
    } catch {
      Issue.record("could not start \(executable.path): \(error)")
      return LaunchedRun(process: nil, outputPath: outputPath, errorPath: errorPath, command: command)
    }
    return LaunchedRun(process: process, outputPath: outputPath, errorPath: errorPath, command: command)
  }

  /// A word as a shell would need it, for messages.
  static func quoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_.,:+/=@%".unicodeScalars.contains($0)
    }
    if plain && !word.isEmpty { return word.count > 120 ? "'" + word.prefix(40) + "…'" : word }
    let shown = word.count > 120 ? String(word.prefix(40)) + "…(\(word.utf8.count) bytes)" : word
    return "'" + shown.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  // MARK: Conveniences

  /// Adds a task and returns its id (recording an issue when the add fails).
  @discardableResult
  func add(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    let run = run(["add"] + words + ["--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    let object = (try? run.jsonObject()) ?? [:]
    return object["id"] as? Int ?? -1
  }

  /// The ids `list FILTER… --json` prints, in order.
  func ids(_ filter: String..., sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
    let run = run(["list"] + filter + ["--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stderr == "", "\(run)", sourceLocation: sourceLocation)
    let tasks = (try? run.jsonArray()) ?? []
    return tasks.map { $0["id"] as? Int ?? -1 }
  }

  /// Runs the real Taskwarrior (`task`) on a data folder of its own in the sandbox (`name`), with
  /// `confirmation=off`, `verbose=nothing` and the `rc` lines given, in UTC.
  func taskwarrior(_ name: String, _ arguments: String, rc: [String] = []) -> TodoRun {
    let home = folder.appendingPathComponent(name).path
    let lines = (["data.location=\(home)/data", "confirmation=off", "verbose=nothing"] + rc).joined(separator: "\\n")
    let script = """
      mkdir -p \(home)/data && printf '\(lines)\\n' > \(home)/rc
      TASKRC=\(home)/rc HOME=\(home) task \(arguments)
      """
    return shell(script, environment: ["TZ": "UTC"])
  }

  /// The ids a report (`completed`, `newest`, one of the configuration's) prints with --json.
  func ids(report: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
    let run = run([report, "--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    return ((try? run.jsonArray()) ?? []).map { $0["id"] as? Int ?? -1 }
  }

  /// One task as `show ID --json` prints it.
  func task(_ id: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let run = run(["show", String(id), "--json"])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    return try run.jsonObject(sourceLocation: sourceLocation)
  }

  /// Everything a user can see of the stored state: every task and the journal, as JSON text.
  func snapshot() -> String {
    let tasks = run(["list", "status:all", "--json"])
    let journal = run(["journal", "--json"])
    return "\(tasks.status)\n\(tasks.stdout)\(tasks.stderr)\(journal.status)\n\(journal.stdout)\(journal.stderr)"
  }

  /// The bytes of a file in the sandbox (nil when it does not exist).
  func contents(of path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }
}

/// A started process; `wait()` waits for it (with a time limit) and reads what it printed.
struct LaunchedRun {
  let process: Process?
  let outputPath: String
  let errorPath: String
  let command: String

  /// Waits at most `seconds` (then kills the process and records an issue).
  func wait(seconds: Double = 60) -> TodoRun {
    var status: Int32 = -1
    if let process {
      let deadline = Date().addingTimeInterval(seconds)
      while process.isRunning && Date() < deadline { usleep(2_000) }
      if process.isRunning {
        Issue.record("timed out after \(seconds) s: todo \(command)")
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
      status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
    return TodoRun(
      status: status, stdoutBytes: FileManager.default.contents(atPath: outputPath) ?? Data(),
      stderrBytes: FileManager.default.contents(atPath: errorPath) ?? Data(), command: command)
  }
}

// MARK: - JSON checks shared by the suites

/// The exact key set of a task object.
let taskKeys: Set<String> = [
  "id", "uuid", "title", "status", "priority", "project", "tags", "due", "wait", "scheduled", "until", "reason",
  "created", "modified", "completed", "notes", "parent", "parent_id", "depends", "depends_ids", "recur", "progress",
  "active", "intervals", "remind",
]

/// True for an all-day date: `2026-11-23`.
func isDay(_ value: Any?) -> Bool {
  guard let text = value as? String else { return false }
  return text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}/#) != nil
}

/// True for an RFC 3339 UTC time written with a `Z`, to the second: `2026-11-21T09:30:00Z`.
func isRFC3339UTC(_ value: Any?) -> Bool {
  guard let text = value as? String else { return false }
  return text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/#) != nil
}

/// True for a lowercase version-4 UUID.
func isUUIDv4(_ value: Any?) -> Bool {
  guard let text = value as? String else { return false }
  return text.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/#) != nil
}

/// True when a JSON value is `null`.
func isJSONNull(_ value: Any?) -> Bool {
  value is NSNull
}

/// The strings of a JSON array (nil when it is not an array of strings).
func jsonStrings(_ value: Any?) -> [String]? {
  value as? [String]
}

/// Two JSON values compared as JSON (through a canonical serialization).
func sameJSON(_ left: Any, _ right: Any) -> Bool {
  canonicalJSON(left) == canonicalJSON(right)
}

/// A JSON value as sorted-key text, for equality checks and readable failure messages.
func canonicalJSON(_ value: Any) -> String {
  guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else {
    return "<not JSON: \(value)>"
  }
  return String(decoding: data, as: UTF8.self)
}
