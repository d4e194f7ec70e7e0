import DataOperation
import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// What one run of the program (or one interactive shell) shares between its commands: the
/// environment, the output streams and the database, opened on first use and kept open.
final class Session {
  /// The process environment (a copy, so tests can pass their own).
  let environment: [String: String]

  /// The time commands run at: the clock, or the RFC 3339 time in the session's `TODO_NOW`
  /// when it is set and valid (deterministic end-to-end tests; an invalid one is ignored).
  /// The core never reads the clock itself: it is given this.
  func now() -> Int64 {
    environment["TODO_NOW"].flatMap(Timestamp.parseTaskTime) ?? Timestamp.systemNow()
  }
  let standardOutput: OutputStream
  let standardError: OutputStream
  /// Whether standard output is a terminal (for colour and table width).
  let outputIsTerminal: Bool
  /// Whether standard input is a terminal, so that a large change may ask before it writes.
  let inputIsTerminal: Bool
  /// Whether standard error is the terminal the answer to a question is typed (and echoed) on;
  /// when it is redirected, the question's line is ended there instead.
  let errorIsTerminal: Bool
  /// Where a question goes when standard error is redirected but the answer is typed on a
  /// terminal (`todo delete +x 2>log`): the terminal itself (`/dev/tty`), so that it is seen,
  /// and standard error (a log, or JSON a program reads) gets no question text. Nil: standard error.
  var questionStream: OutputStream?
  /// Reads the answer to a question (a line, without its newline; nil at the end of input).
  /// Tests replace it; by default it reads standard input.
  var readAnswer: () -> String? = Session.readLineFromStandardInput
  /// True while the interactive shell runs (so `shell` inside it is refused).
  var inShell = false
  /// True while `todo ui` runs commands in this session (so `ui` and `shell` are refused).
  var inUI = false
  /// The width tables are laid out for instead of the terminal's (`todo ui`'s detail pane).
  var widthOverride: Int?
  /// Global options given before `shell`, applied to every command typed in it.
  var shellOptions: GlobalOptions?
  /// The line of the shell script being run (piped shell), for error messages.
  var scriptLine: Int?
  /// The settings of the command being run (read anew for each command, so that a
  /// `config set` in the shell holds from the next command on).
  private(set) var configuration = Configuration.defaults
  /// Whether database files are read through a memory map (`TodoDatabase.mappedBytes`): yes
  /// for a command line run once, which ends at once; not for a session that stays (the shell,
  /// the full-screen interface, `remind --watch`: `staysOpen()`), which keeps SQLite's own
  /// bounded cache rather than the file's pages resident (`todo ui` on a million tasks peaked at
  /// 34 MiB mapped, 27 MiB not; `make bench` allows 30).
  private(set) var mapsFiles = true
  private var openContexts: [String: Database] = [:]
  /// The open databases that were opened read-only (a file this user may not write, or a full
  /// disk): a command that writes opens them again, and gets the reason it cannot.
  private var readOnlyPaths: Set<String> = []
  /// Databases opened for dry runs without upgrading them (see `dryRunContext`).
  private var dryRunContexts: [String: Database] = [:]

  init(
    environment: [String: String], standardOutput: OutputStream, standardError: OutputStream,
    outputIsTerminal: Bool = false, inputIsTerminal: Bool = false, errorIsTerminal: Bool = true
  ) {
    self.errorIsTerminal = errorIsTerminal
    self.environment = environment
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.outputIsTerminal = outputIsTerminal
    self.inputIsTerminal = inputIsTerminal
  }

  /// Runs one command line (the words after `todo`, or one line typed in the shell) and returns
  /// its exit status: 0 success, 1 run-time failure, 2 usage error. Output is flushed on return.
  func execute(arguments: [String]) -> Int32 {
    defer {
      standardOutput.flush()
      standardError.flush()
    }
    if arguments.first == "__complete", !inShell { return complete(Array(arguments.dropFirst())) }
    let now = now()
    let wantsJSON = Self.asksForJSON(arguments) || shellOptions?.format ?? .human != .human
    do throws(CommandFailure) {
      let parser = CommandParser(now: now)
      var global: CommandParser.GlobalPart
      do throws(UsageError) {
        global = try parser.parseGlobalOptions(arguments)
      } catch {
        throw .usage(error)
      }
      if let shellOptions {
        global.options.configOverrides = shellOptions.configOverrides + global.options.configOverrides
        global.options.noHooks = global.options.noHooks || shellOptions.noHooks
      }
      do throws(CommandFailure) {
        configuration = try Configuration.load(environment: environment, overrides: global.options.configOverrides, now: now)
      } catch {
        // Help and the version need no configuration: they still run when it does not read;
        // `config` and `context` run on the file alone, so that they can repair it.
        let first = global.rest.first.flatMap { CommandName.spellings[$0.text] }
        if first == .config || first == .context {
          configuration = Configuration(path: Configuration.filePath(environment: environment))
        } else {
          guard global.wantsHelp || global.wantsVersion || first == .help || first == .completions else { throw error }
          configuration = .defaults
        }
      }
      // The week start holds for this command only (another session in the process has its own).
      let weekStart = configuration.weekStartsOnSunday ? 0 : 1
      return try Week.$firstWeekday.withValue(weekStart) {
        Result { () throws(CommandFailure) in try run(global, parser: parser, now: now, wantsJSON: wantsJSON) }
      }.get()
    } catch {
      error.report(to: standardError, json: wantsJSON, inShell: inShell, line: scriptLine)
      return error.exitStatus
    }
  }

  /// Parses and runs a command line whose global options and configuration are read.
  private func run(_ global: CommandParser.GlobalPart, parser: CommandParser, now: Int64, wantsJSON: Bool) throws(CommandFailure)
    -> Int32
  {
    var invocation: Invocation
    do throws(UsageError) {
      invocation = try parser.parseCommand(global, configuration: configuration)
    } catch {
      throw .usage(error)
    }
    if let shellOptions {
      if invocation.options.databasePath == nil { invocation.options.databasePath = shellOptions.databasePath }
      if invocation.options.format == .human { invocation.options.format = shellOptions.format }
      if invocation.options.color == .auto { invocation.options.color = shellOptions.color }
    }
    if invocation.command == .shell {
      guard !inShell && !inUI else { throw .environment(inUI ? "the shell cannot run inside todo ui" : "the shell is already running") }
      return runShell(options: invocation.options)
    }
    if case .ui(let report, let filter, let tree) = invocation.command {
      guard !inShell && !inUI else { throw .environment("todo ui cannot run inside \(inUI ? "todo ui" : "the shell")") }
      return try runUI(options: invocation.options, report: report, filter: filter, tree: tree)
    }
    // After the shell's options were taken: inside the shell, colour follows the
    // configuration as it is at each command.
    if invocation.options.color == .auto { invocation.options.color = configuration.colorMode }
    for warning in invocation.warnings { warn(warning, json: wantsJSON) }
    try CommandRunner(session: self, invocation: invocation, now: now).run()
    // The last (often only) write happens in this flush: check it before reporting success.
    standardOutput.flush()
    if standardOutput.failed && standardOutput.errorNumber != EPIPE {
      throw .environment("cannot write the output: \(String(cString: strerror(standardOutput.errorNumber)))")
    }
    return 0
  }

  /// Writes `todo: warning: …` (with JSON output, a `{"warning": …}` line) to standard error.
  func warn(_ message: String, json: Bool) {
    if json {
      var writer = JSONWriter(format: .compact)
      writer.object { $0.field("warning", message) }
      writer.endLine()
      writer.drain(into: standardError)
    } else {
      standardError.write("todo: warning: \(sanitizedLinesForTerminal(message))\n")
    }
  }

  /// A command to suggest in a message, quoted: `'todo undo'`, or `'undo'` inside the shell,
  /// where commands are typed without the `todo` word.
  func commandHint(_ command: String) -> String {
    inShell ? "'\(command)'" : "'todo \(command)'"
  }

  /// Asks a yes/no question on standard error and reads the answer; only yes is yes.
  func ask(_ question: String) -> Bool {
    standardOutput.flush()
    let stream = questionStream ?? standardError
    stream.write(question)
    stream.flush()
    let answer = readAnswer()
    // The answer's newline is echoed to the terminal, not to a redirected standard error.
    if answer == nil || (!errorIsTerminal && questionStream == nil) { stream.write("\n") }
    stream.flush()
    return Confirmation.isYes(answer)
  }

  /// One line of standard input, read a byte at a time so that nothing after it is consumed.
  static func readLineFromStandardInput() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0 && errno == EINTR { return nil }  // Ctrl-C in the shell: no
      if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }

  /// True when `--json`/`--jsonl` appears before `--`, so that even a parse error is JSON.
  static func asksForJSON(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "--json" || argument == "--jsonl" { return true }
    }
    return false
  }

  /// Colour on or off for this output, from `--color`, the terminal and `NO_COLOR`.
  func colorEnabled(_ mode: ColorMode) -> Bool {
    TodoCLI.colorEnabled(mode: mode, isTTY: outputIsTerminal, environment: environment)
  }

  /// The width to fit tables to: `COLUMNS`, else the terminal's, else none (nil). Only a
  /// session whose output is the terminal asks it (an in-process run's output is not).
  var terminalWidth: Int? {
    widthOverride ?? Terminal.width(of: outputIsTerminal ? STDOUT_FILENO : -1, environment: environment)
  }

  /// Whether the database file the options name exists (false when no path can be worked out).
  func databaseExists(path option: String?) -> Bool {
    guard let (path, _) = FileSystem.databasePath(option: option, environment: environment) else { return false }
    return openContexts[path] != nil || FileSystem.exists(path)
  }

  /// The database for a command, opened (and migrated) once per session (`TodoDatabase.open(for:)`
  /// decides how). A read-only command on a database that does not exist yet reads an empty one
  /// in memory, so it creates nothing.
  func context(path option: String?, readOnly: Bool) throws(CommandFailure) -> Database {
    let (path, isDefault) = try databasePath(option)
    if let open = openContexts[path], readOnly || !readOnlyPaths.contains(path) { return open }
    // A real change after a dry run in the same shell opens the file properly (and upgrades it).
    dryRunContexts[path] = nil
    let opened = try open(for: readOnly ? .read : .write, path: path, isDefault: isDefault)
    guard opened.keepsOpen else { return opened.database }
    openContexts[path] = opened.database
    if opened.readOnlyFile { readOnlyPaths.insert(path) } else { readOnlyPaths.remove(path) }
    return opened.database
  }

  /// The database for a dry run: the session's own when it is already open, or else one opened
  /// without changing the file in any way (not switched to WAL, not migrated) and not kept.
  func dryRunContext(path option: String?) throws(CommandFailure) -> Database {
    let (path, isDefault) = try databasePath(option)
    if let open = openContexts[path], !readOnlyPaths.contains(path) { return open }
    if let open = dryRunContexts[path] { return open }
    let opened = try open(for: .dryRun, path: path, isDefault: isDefault)
    if opened.keepsOpen { dryRunContexts[path] = opened.database }
    return opened.database
  }

  /// The database as completion reads it: as the file is, without creating, upgrading or
  /// switching it to WAL; an error when there is no file.
  func completionContext(path option: String?) throws(CommandFailure) -> Database {
    guard let (path, isDefault) = FileSystem.databasePath(option: option, environment: environment) else {
      throw .environment("no database to complete from")
    }
    if let open = openContexts[path] { return open }
    let opened = try open(for: .completion, path: path, isDefault: isDefault)
    openContexts[path] = opened.database
    return opened.database
  }

  /// Marks a session that stays open (the shell, the full-screen interface, `remind --watch`):
  /// its files are read without the memory map from now on, and one already open is opened
  /// again so.
  func staysOpen() {
    guard mapsFiles else { return }
    mapsFiles = false
    openContexts = [:]
    readOnlyPaths = []
    dryRunContexts = [:]
  }

  /// The database file the options (or the environment) name, and whether it is the default one.
  private func databasePath(_ option: String?) throws(CommandFailure) -> (String, Bool) {
    guard let found = FileSystem.databasePath(option: option, environment: environment) else {
      throw .environment("cannot find the database: HOME is not set; give --db PATH or set TODO_DB")
    }
    return found
  }

  private func open(for purpose: TodoDatabase.Purpose, path: String, isDefault: Bool) throws(CommandFailure) -> TodoDatabase.Opened {
    do throws(TodoDatabase.OpenFailure) {
      return try TodoDatabase.open(for: purpose, path: path, isDefault: isDefault, mapped: mapsFiles)
    } catch {
      switch error {
      case .missing: throw .environment("no database to complete from")
      case .folder(let problem): throw .environment(problem)
      case .unusable(let path, let reason): throw .databaseFile(path: path, reason: reason)
      case .database(let path, let error): throw .database(path: path, error)
      case .domain(let error): throw .domain(error)
      }
    }
  }
}
