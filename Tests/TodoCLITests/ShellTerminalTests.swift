import Foundation
import Testing

/// The built `todo` executable, and a private sandbox to run it in.
///
/// The binary is `$TODO_TEST_BINARY` when set (to try another build), else `todo` in the
/// products folder the test bundle was built into (`swift test --scratch-path X` builds it there
/// because the test target depends on the executable), else `.build/debug/todo` of this package.
struct ShellSandbox {
  let root: URL
  let home: URL
  let stateHome: URL
  let dataHome: URL
  let database: URL

  static let binary: URL = {
    if let override = ProcessInfo.processInfo.environment["TODO_TEST_BINARY"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    let products = Bundle.main.bundleURL.appendingPathComponent("todo")
    if FileManager.default.isExecutableFile(atPath: products.path) { return products }
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent(".build/debug/todo")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return products
  }()

  /// The repository's README.md.
  static let readme: URL = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path) {
      folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("README.md")
  }()

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("todo-shell-test-\(UUID().uuidString.prefix(8))")
    home = root.appendingPathComponent("home")
    stateHome = root.appendingPathComponent("state")
    dataHome = root.appendingPathComponent("data")
    database = root.appendingPathComponent("todo.db")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  }

  /// Where the shell keeps its history in this sandbox.
  var historyFile: URL { stateHome.appendingPathComponent("todo/history") }

  /// Variables added to the clean environment (`TODO_NOW` for a screen that must not move).
  var extraEnvironment: [String: String] = [:]

  /// A clean environment: nothing of the machine's HOME, locale or XDG folders leaks in.
  var environment: [String: String] {
    extraEnvironment.merging([
      "PATH": "/usr/local/bin:/usr/bin:/bin",
      "HOME": home.path,
      "XDG_STATE_HOME": stateHome.path,
      "XDG_DATA_HOME": dataHome.path,
      "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
      "TODO_DB": database.path,
      "LANG": "C.UTF-8",
      "TERM": "xterm",
    ]) { extra, _ in extra }
  }

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }

  /// Runs `todo arguments…` to completion with `input` on standard input.
  func run(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
  }

  /// The titles `todo --db … list --json` reports.
  func storedTitles() throws -> [String] {
    let result = try run(["--db", database.path, "list", "--json"])
    guard result.status == 0,
      let objects = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
    else { return [] }
    return objects.compactMap { $0["title"] as? String }
  }
}

/// One tmux server of its own, running `todo shell` in a 100×30 pane.
///
/// The server's socket is a file in the sandbox (`tmux -S`) rather than a name under
/// `/tmp/tmux-UID` (`tmux -L`): tmux leaves its socket file behind after `kill-server`, and
/// the sandbox's removal takes it away.
///
/// After the shell ends, the pane prints `status=N` and stays open so the test can read it
/// (unless todo was killed by SIGINT: see `start`).
final class ShellTerminal {
  let sandbox: ShellSandbox
  /// Distinguishes the sockets of several terminals on one sandbox.
  private let name: String
  /// One tmux server per `start()`, so a restart never races with the previous server's exit.
  private var sockets: [String] = []
  /// The window's columns and rows when a server starts.
  var size = (width: 100, height: 30)
  private var socket: String { sockets.last ?? "" }

  init(sandbox: ShellSandbox, name: String = "tmux") {
    self.sandbox = sandbox
    self.name = name
  }

  /// Starts `todo ARGUMENTS…` (the shell unless told otherwise; again, after a previous one
  /// ended) and, for the shell, waits for its prompt.
  func start(_ arguments: [String] = ["shell"], prompt: String = "todo>") throws {
    let command = ([ShellSandbox.binary.path] + arguments).map(quoted).joined(separator: " ")
    // `set -m` runs `todo` in a process group of its own, in the foreground, as an interactive
    // shell would. Without it bash shares todo's group, and libedit answers Ctrl-C by sending
    // SIGINT again to the whole group (`kill(0, SIGINT)`): a second SIGINT that reaches bash
    // between two of its `waitpid` calls makes bash kill itself, closing the pane while the
    // shell still runs (seen once in CI, under load). The price: if todo itself dies of SIGINT,
    // bash (job control on) drops the rest of the line, so the pane closes without `status=130`;
    // a test that needs that status should keep the pane with tmux's `remain-on-exit`.
    // `umask 000`: whatever todo creates must be private by its own doing (issue 14).
    let script = "umask 000; set -m; \(command); echo status=$?; exec sleep 60"
    try newServer(running: "bash --norc --noprofile -c " + quoted(script), environment: sandbox.environment)
    if arguments == ["shell"] {
      try #require(waitForLastLine(timeout: 10) { $0 == prompt }, "no prompt:\n\(screen())")
    }
  }

  /// Starts `program` (a command line, such as `zsh -f`) in the pane with the sandbox's
  /// environment, the folder of `todo` first on the PATH, and waits for its prompt (anything
  /// on the screen).
  func startProgram(_ program: String) throws {
    var environment = sandbox.environment
    environment["PATH"] = ShellSandbox.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    try newServer(running: program, environment: environment)
    try #require(waitForScreen(timeout: 10) { !$0.isEmpty }, "\(program) did not start")
  }

  /// A tmux server of its own (after closing the previous one) whose pane runs `command` with
  /// exactly `environment`, in a 100×30 window.
  private func newServer(running command: String, environment: [String: String]) throws {
    close()
    sockets.append(sandbox.root.appendingPathComponent("\(name)-\(sockets.count).socket").path)
    let variables = environment.sorted { $0.key < $1.key }.map { quoted("\($0.key)=\($0.value)") }
    try tmux([
      "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", String(size.width), "-y", String(size.height),
      "env -i " + variables.joined(separator: " ") + " " + command,
    ])
  }

  /// Types `text` literally (no key names are interpreted).
  func type(_ text: String) throws {
    try tmux(["send-keys", "-t", "main", "-l", text])
  }

  /// Presses keys by tmux name: `Enter`, `Tab`, `Up`, `C-c`, `C-d`…
  func press(_ keys: String...) throws {
    try tmux(["send-keys", "-t", "main"] + keys)
  }

  /// The visible text of the pane, without trailing blanks and empty trailing lines.
  func screen() -> String {
    let text = (try? tmux(["capture-pane", "-p", "-t", "main"])) ?? ""
    return lines(of: text).joined(separator: "\n")
  }

  /// Polls the screen every 50 ms until `condition` holds or `timeout` seconds pass.
  @discardableResult
  func waitForScreen(timeout: Double = 5, _ condition: (String) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(screen()) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return condition(screen())
  }

  /// Waits until the last non-empty line of the screen, trimmed, satisfies `condition`.
  func waitForLastLine(timeout: Double = 5, _ condition: @escaping (String) -> Bool) -> Bool {
    waitForScreen(timeout: timeout) { condition(self.lines(of: $0).last ?? "") }
  }

  /// Waits until a line after the last prompt line `todo> command` contains `text`.
  func waitForOutput(of command: String, containing text: String) -> Bool {
    waitForScreen { screen in
      let lines = self.lines(of: screen)
      guard let promptLine = lines.lastIndex(of: "todo> " + command) else { return false }
      return lines[(promptLine + 1)...].contains { !$0.hasPrefix("todo>") && $0.contains(text) }
    }
  }

  /// Types `command`, presses Enter, and waits for the next prompt.
  func runLine(_ command: String) throws {
    let prompts = countPrompts()
    try type(command)
    try press("Enter")
    #expect(
      waitForScreen { _ in self.countPrompts() > prompts } && waitForLastLine { $0 == "todo>" },
      "no prompt after \(command):\n\(screen())")
  }

  /// The pane's text with its SGR sequences (`capture-pane -e`).
  func screenWithEscapes() -> String {
    (try? tmux(["capture-pane", "-p", "-e", "-t", "main"])) ?? ""
  }

  /// Makes the window `width`×`height` (the program in it gets SIGWINCH).
  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", "main", "-x", String(width), "-y", String(height)])
  }

  /// The pid of the pane's first process (the shell that runs the command).
  func panePID() throws -> Int32 {
    Int32(try tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// Ends the tmux server and everything in it.
  func close() {
    for name in sockets {
      _ = try? tmux(["kill-server"], socket: name)
    }
  }

  private func countPrompts() -> Int {
    lines(of: screen()).filter { $0.hasPrefix("todo>") }.count
  }

  private func lines(of text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// `text` in single quotes for a POSIX shell.
  private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// Runs one tmux command and returns its standard output.
  ///
  /// Not through Foundation's `Process`: it hands the child one end of a socket pair and waits
  /// for it to close, but `new-session` forks the tmux server, which inherits that end and
  /// keeps it open for its whole life. `posix_spawn` with every descriptor above 2 closed
  /// leaves the server nothing of this process to hold (glibc has
  /// `posix_spawn_file_actions_addclosefrom_np`, but Swift's Glibc module does not show it).
  ///
  /// The signal mask and dispositions are reset too: test-runner threads block most signals, a
  /// mask that tmux and the pane's programs would inherit (SIGHUP blocked keeps `kill-server`
  /// from ending the pane; SIGINT blocked makes Ctrl-C a no-op), unlike a user's terminal.
  @discardableResult
  private func tmux(_ arguments: [String], socket: String? = nil) throws -> String {
    // Another test thread may close a descriptor between the /proc/self/fd listing and the
    // spawn, and glibc then fails the spawn with EBADF: list again and retry.
    var attempt = 0
    while true {
      do {
        return try tmuxOnce(arguments, socket: socket)
      } catch ShellTerminalError.tmuxFailed(_, let status) where status == -1 && attempt < 5 {
        attempt += 1
      }
    }
  }

  /// The test process's environment, copied once: other tests change `TZ` with setenv while
  /// this one spawns, and reading `environ` then reads memory setenv has just freed (found by
  /// AddressSanitizer).
  nonisolated(unsafe) private static let environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let variables = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    let copy = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: variables.count)
    copy.initialize(from: variables, count: variables.count)
    return copy
  }()

  private func tmuxOnce(_ arguments: [String], socket: String? = nil) throws -> String {
    let command = ["tmux", "-S", socket ?? self.socket] + arguments
    var output: [Int32] = [-1, -1]
    guard pipe(&output) == 0 else { throw ShellTerminalError.tmuxFailed(arguments: arguments, status: -1) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // glibc ignores closing a descriptor that is already closed, so a stale listing is harmless.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH, SIGCONT] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &argv, Self.environment)
    Glibc.close(output[1])
    var data = Data()
    if spawned == 0 {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        if count > 0 {
          data.append(contentsOf: buffer[0..<count])
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          break
        }
      }
    }
    Glibc.close(output[0])
    guard spawned == 0 else { throw ShellTerminalError.tmuxFailed(arguments: arguments, status: -1) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    guard exitStatus == 0 else {
      throw ShellTerminalError.tmuxFailed(arguments: arguments, status: exitStatus)
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// A tmux command that could not be run or exited with a failure.
enum ShellTerminalError: Error {
  case tmuxFailed(arguments: [String], status: Int32)
}

/// Whether tmux can be run (`make test` installs it).
let tmuxIsInstalled: Bool = {
  ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// `todo shell` in a real terminal (tmux): editing keys, completion, history, signals, UTF-8.
@Suite(.serialized)
struct ShellTerminalTests {
  /// Runs `body` with a started shell in a fresh sandbox, then tears both down.
  private func withShell(_ body: (ShellTerminal) throws -> Void) throws {
    try withTerminal { _, terminal in
      try terminal.start()
      try body(terminal)
    }
  }

  @Test func thePromptShowsTheActiveContextAsItChanges() throws {
    try withTerminal { sandbox, terminal in
      let folder = sandbox.root.appendingPathComponent("config/todo")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try "context = work\n[context]\nwork = +work\n".write(
        to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
      try terminal.start(prompt: "todo[work]>")
      // The configuration is read again at each command: a change shows at the next prompt.
      try terminal.type("context none")
      try terminal.press("Enter")
      #expect(terminal.waitForLastLine { $0 == "todo>" }, "\(terminal.screen())")
      try terminal.runLine("add Home task")
      try terminal.runLine("list")
      #expect(terminal.waitForOutput(of: "list", containing: "Home task"), "\(terminal.screen())")
    }
  }

  @Test func ctrlCDuringASlowHookStopsTheHookAndTheShellGoesOn() throws {
    try withTerminal { sandbox, terminal in
      let hooks = sandbox.root.appendingPathComponent("config/todo/hooks")
      try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
      let started = sandbox.root.appendingPathComponent("hook-started").path
      let hook = hooks.appendingPathComponent("on-add.slow").path
      try "#!/bin/sh\ntouch '\(started)'\nsleep 20\ncat\n".write(toFile: hook, atomically: true, encoding: .utf8)
      chmod(hook, 0o700)
      try terminal.start()
      try terminal.type("add Not this one")
      try terminal.press("Enter")
      var waited = 0
      while !FileManager.default.fileExists(atPath: started) && waited < 200 {
        usleep(50_000)
        waited += 1
      }
      try terminal.press("C-c")
      #expect(terminal.waitForScreen { $0.contains("it was interrupted; nothing was changed") }, "\(terminal.screen())")
      #expect(terminal.waitForLastLine { $0 == "todo>" }, "\(terminal.screen())")
      try terminal.runLine("list")
      #expect(terminal.waitForOutput(of: "list", containing: "No pending tasks"), "\(terminal.screen())")
    }
  }

  @Test func aReminderWhoseTimeHasComeShowsBeforeThePrompt() throws {
    try withTerminal { sandbox, terminal in
      let folder = sandbox.root.appendingPathComponent("config/todo")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try "remind.notify = terminal\n".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
      try terminal.start()
      try terminal.runLine("add Ping remind:now")
      #expect(terminal.waitForScreen { $0.contains("Reminder: Ping (task 1, ") }, "\(terminal.screen())")
      // Once in a shell.
      try terminal.runLine("list")
      #expect(terminal.waitForOutput(of: "list", containing: "Ping"), "\(terminal.screen())")
      #expect(terminal.screen().components(separatedBy: "Reminder: Ping").count == 2, "\(terminal.screen())")
    }
  }

  @Test func addedTaskIsListed() throws {
    try withShell { terminal in
      try terminal.runLine("add Buy milk +home")
      try terminal.runLine("list")
      #expect(terminal.waitForOutput(of: "list", containing: "Buy milk"), "\(terminal.screen())")
      // A new HOME: the history file the first command made is empty, and reads as no history.
      #expect(!terminal.screen().contains("warning"), "\(terminal.screen())")
    }
  }

  @Test func tabCompletesCommandNameAndTag() throws {
    try withShell { terminal in
      try terminal.type("li")
      try terminal.press("Tab")
      #expect(terminal.waitForLastLine { $0 == "todo> list" }, "\(terminal.screen())")
      try terminal.press("C-u")
      try terminal.runLine("add Buy milk +home")
      try terminal.type("list +ho")
      try terminal.press("Tab")
      #expect(terminal.waitForLastLine { $0 == "todo> list +home" }, "\(terminal.screen())")
      try terminal.press("Enter")
      #expect(terminal.waitForOutput(of: "list +home", containing: "Buy milk"), "\(terminal.screen())")
    }
  }

  @Test func upArrowRecallsThePreviousLine() throws {
    try withShell { terminal in
      try terminal.runLine("add First task")
      try terminal.press("Up")
      #expect(terminal.waitForLastLine { $0 == "todo> add First task" }, "\(terminal.screen())")
    }
  }

  @Test func ctrlCDropsTheHalfTypedLineAndTheShellGoesOn() throws {
    try withShell { terminal in
      try terminal.type("add Half typed")
      #expect(terminal.waitForLastLine { $0 == "todo> add Half typed" })
      try terminal.press("C-c")
      #expect(terminal.waitForLastLine { $0 == "todo>" }, "no new prompt:\n\(terminal.screen())")
      try terminal.runLine("add Whole line")
      try terminal.runLine("list")
      #expect(terminal.waitForOutput(of: "list", containing: "Whole line"), "\(terminal.screen())")
      #expect(try sandboxTitles(terminal) == ["Whole line"])
    }
  }

  @Test func utf8TitleIsStoredExactly() throws {
    try withShell { terminal in
      try terminal.runLine("add Café 日本 🎉")
      #expect(try sandboxTitles(terminal) == ["Café 日本 🎉"])
    }
  }

  @Test func ctrlDLeavesWithStatusZero() throws {
    try withShell { terminal in
      try terminal.press("C-d")
      #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
    }
  }

  @Test func exitLeavesWithStatusZeroEvenAfterAnError() throws {
    try withShell { terminal in
      try terminal.runLine(#"add "unterminated"#)
      #expect(terminal.screen().contains("todo: error: unterminated quote"))
      try terminal.runLine("no-such-command")
      try terminal.type("exit")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
    }
  }

  @Test func historyIsSavedAndRecalledAfterARestart() throws {
    try withShell { terminal in
      try terminal.runLine("add Remembered")
      try terminal.runLine("add Remembered")
      try terminal.runLine("   ")
      try terminal.press("C-d")
      #expect(terminal.waitForScreen { $0.contains("status=0") })

      let history = try String(contentsOf: terminal.sandbox.historyFile, encoding: .utf8)
      let entries = history.split(separator: "\n").dropFirst()
      #expect(history.hasPrefix("_HiStOrY_V2_"))
      #expect(entries.count == 1, "a repeated line or a blank line was stored:\n\(history)")
      let folder = terminal.sandbox.historyFile.deletingLastPathComponent().path
      let permissions = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
      #expect(permissions == 0o700)
      // Private although the shell ran under `umask 000`.
      let file = try FileManager.default.attributesOfItem(atPath: terminal.sandbox.historyFile.path)[.posixPermissions] as? Int
      #expect(file == 0o600)

      try terminal.start()
      try terminal.press("Up")
      #expect(terminal.waitForLastLine { $0 == "todo> add Remembered" }, "\(terminal.screen())")
    }
  }

  private func sandboxTitles(_ terminal: ShellTerminal) throws -> [String] {
    try terminal.sandbox.storedTitles()
  }

  /// The statuses of every task, in id order.
  private func statuses(_ sandbox: ShellSandbox) throws -> [String] {
    let result = try sandbox.run(["list", "status:all", "--sort", "id", "--json"])
    let objects = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
    return objects.compactMap { $0["status"] as? String }
  }

  /// Runs `body` with a fresh sandbox and a terminal that has not started anything yet.
  private func withTerminal(_ body: (ShellSandbox, ShellTerminal) throws -> Void) throws {
    // A missing tmux fails the test rather than skipping it: `make test` installs tmux.
    try #require(tmuxIsInstalled, "tmux is not installed; 'make test' installs it (apt-get install -y tmux)")
    let sandbox = try ShellSandbox()
    let terminal = ShellTerminal(sandbox: sandbox)
    defer {
      terminal.close()
      sandbox.remove()
    }
    try body(sandbox, terminal)
  }

  /// Standard error redirected to a file, the answer typed on the terminal: the question is
  /// asked on the terminal (/dev/tty), where it is seen, and the file gets only the outcome.
  @Test func aQuestionIsAskedOnTheTerminalWhenStandardErrorIsAFile() throws {
    try withTerminal { sandbox, terminal in
      let added = try sandbox.run(["shell"], input: (1...5).map { "add errand \($0)\n" }.joined())
      #expect(added.status == 0, "\(added.error)")
      let log = sandbox.root.appendingPathComponent("errors.txt").path
      try terminal.startProgram("bash --norc --noprofile")
      try terminal.type("todo delete errand --json 2>'\(log)'; echo status=$?")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("Delete 5 tasks? [y/N]") }, "\(terminal.screen())")
      try terminal.type("n")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("status=1") }, "\(terminal.screen())")
      let errors = try String(contentsOfFile: log, encoding: .utf8)
      #expect(!errors.contains("[y/N]") && !errors.contains("errand 1"), "\(errors)")
      #expect(errors.hasPrefix("{\"error\":{\"code\":\"cancelled\"") && errors.split(separator: "\n").count == 1, "\(errors)")
      #expect(try statuses(sandbox) == Array(repeating: "pending", count: 5))
    }
  }

  @Test func aLargeChangeAsksOnATerminalAndOnlyYesChangesAnything() throws {
    try withTerminal { sandbox, terminal in
      // Added through a pipe: no terminal, so nothing asks.
      let added = try sandbox.run(["shell"], input: (1...5).map { "add errand \($0)\n" }.joined() + "add other\n")
      #expect(added.status == 0, "\(added.error)")
      try terminal.start(["delete", "errand"])
      #expect(terminal.waitForScreen { $0.contains("Delete 5 tasks? [y/N]") }, "\(terminal.screen())")
      #expect(terminal.screen().contains("  1  errand 1"))
      try terminal.type("n")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("status=1") }, "\(terminal.screen())")
      #expect(terminal.screen().contains("todo: error: nothing was changed"))
      #expect(try statuses(sandbox) == Array(repeating: "pending", count: 6))

      try terminal.start(["done", "errand"])
      #expect(terminal.waitForScreen { $0.contains("Complete 5 tasks? [y/N]") }, "\(terminal.screen())")
      try terminal.type("y")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
      #expect(terminal.screen().contains("Completed 5 tasks; 'todo undo' reverts them together."))
      #expect(try statuses(sandbox) == Array(repeating: "done", count: 5) + ["pending"])

      // --yes does not ask.
      try terminal.start(["reopen", "errand", "--yes"])
      #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
      #expect(!terminal.screen().contains("[y/N]"))

      // In the shell it asks too, and hints speak without the todo word.
      try terminal.start()
      try terminal.type("delete errand")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("Delete 5 tasks? [y/N]") }, "\(terminal.screen())")
      try terminal.type("n")
      try terminal.press("Enter")
      #expect(terminal.waitForLastLine { $0 == "todo>" }, "\(terminal.screen())")
      try terminal.runLine("todo delete errand -y")
      #expect(terminal.screen().contains("Deleted 5 tasks; 'undo' reverts them together."), "\(terminal.screen())")
      #expect(try statuses(sandbox) == Array(repeating: "deleted", count: 5) + ["pending"])
    }
  }

  @Test func shellsTakingTurnsKeepEachOthersHistory() throws {
    try #require(tmuxIsInstalled, "tmux is not installed; 'make test' installs it (apt-get install -y tmux)")
    let sandbox = try ShellSandbox()
    let first = ShellTerminal(sandbox: sandbox, name: "first")
    let second = ShellTerminal(sandbox: sandbox, name: "second")
    defer {
      first.close()
      second.close()
      sandbox.remove()
    }
    try first.start()
    try second.start()
    try first.runLine("add one")
    try second.runLine("add two")
    try first.runLine("add three")
    for terminal in [second, first] {
      try terminal.type("exit")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
    }
    let history = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
    for line in ["add\\040one", "add\\040two", "add\\040three"] {
      #expect(history.contains(line), "\(history)")
    }
  }

  @Test func aHistoryFileThatCannotBeReadIsNeverOverwritten() throws {
    try withTerminal { sandbox, terminal in
      try FileManager.default.createDirectory(at: sandbox.historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
      let foreign = "not a history file\nkeep me\n"
      try foreign.write(to: sandbox.historyFile, atomically: true, encoding: .utf8)
      try terminal.start()
      try terminal.runLine("add kept")
      #expect(terminal.screen().contains("todo: warning: cannot read history"), "\(terminal.screen())")
      try terminal.runLine("list")
      #expect(try String(contentsOf: sandbox.historyFile, encoding: .utf8) == foreign)
      // The line is still recalled in this session.
      try terminal.press("Up")
      try terminal.press("Up")
      #expect(terminal.waitForLastLine { $0 == "todo> add kept" }, "\(terminal.screen())")
    }
  }
}

/// `todo shell` with standard input not a terminal: a script, no prompt, no history.
@Suite struct ShellPipedModeTests {
  private func withSandbox(_ body: (ShellSandbox) throws -> Void) throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    try body(sandbox)
  }

  @Test func aLeadingTodoWordIsAcceptedAndHintsDropIt() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "todo add a\ntodo\nundo\nundo\n")
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("Added task 1: a\nUndid: add a"), "\(result.output)")
      #expect(
        result.error
          == "todo: error: line 4: nothing to undo\ntodo: hint: the journal is empty; 'journal' lists what can be undone\n")
    }
  }

  @Test func scriptErrorsSayTheirLineNumber() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "add a\n\n# comment\nlsit\n")
      #expect(result.status == 1)
      #expect(result.error == "todo: error: line 4: unknown command 'lsit'\ntodo: hint: did you mean 'list'?\n")
      let json = try sandbox.run(["shell"], input: "show 9 --json\n")
      let object = try JSONSerialization.jsonObject(with: Data(json.error.utf8)) as? [String: Any]
      let error = object?["error"] as? [String: Any]
      #expect(error?["line"] as? Int == 1, "\(json.error)")
      #expect(error?["message"] as? String == "no task 9")
    }
  }

  @Test func jsonInTheShellIsOneValuePerLine() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["--json", "shell"], input: "add a\nadd b\nlist\nshow 1 2\nstats\n")
      #expect(result.status == 0, "\(result.error)")
      let lines = result.output.split(separator: "\n")
      #expect(lines.count == 5, "\(result.output)")
      for line in lines {
        #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not one JSON value: \(line)")
      }
      #expect(lines[2].hasPrefix("[{\"id\":1,"))
    }
  }

  @Test func scriptRunsEveryLineWithoutPrompt() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "add a\nadd b\nlist --json\n")
      #expect(result.status == 0)
      #expect(result.error == "")
      #expect(!result.output.contains("todo>"))
      // One line per `add`, then the JSON array (compact or pretty).
      let lines = result.output.split(separator: "\n")
      #expect(lines.count >= 3, "\(result.output)")
      let json = lines.dropFirst(2).joined(separator: "\n")
      let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
      #expect(objects?.compactMap { $0["title"] as? String } == ["a", "b"], "\(result.output)")
    }
  }

  @Test func failingCommandMakesTheStatusOneAndTheScriptGoesOn() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "add kept\nshow 999999\nadd after\n")
      #expect(result.status == 1)
      #expect(result.error.hasPrefix("todo: error: "), "\(result.error)")
      #expect(try sandbox.storedTitles() == ["kept", "after"])
    }
  }

  @Test func unterminatedQuoteIsReportedAndFails() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "add \"oops\n")
      #expect(result.status == 1)
      #expect(result.error == "todo: error: line 1: unterminated quote\n")
      #expect(result.output == "")
    }
  }

  @Test func commentsBlankLinesAndExitEndTheScriptCleanly() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "# a \"comment\n\n   \n  # indented\nexit\nadd \"never\n")
      #expect(result.status == 0)
      #expect(result.error == "")
      #expect(result.output == "")
    }
  }

  @Test func invalidUTF8LineIsRefused() throws {
    try withSandbox { sandbox in
      let process = Process()
      process.executableURL = ShellSandbox.binary
      process.arguments = ["shell"]
      process.environment = sandbox.environment
      let stdin = Pipe(), stderr = Pipe()
      process.standardInput = stdin
      process.standardOutput = FileHandle.nullDevice
      process.standardError = stderr
      try process.run()
      stdin.fileHandleForWriting.write(Data([0x61, 0x64, 0x64, 0x20, 0xFF, 0x0A]))
      try stdin.fileHandleForWriting.close()
      let error = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 1)
      #expect(error == "todo: error: line 1: the line is not valid UTF-8\n")
    }
  }

  @Test func noHistoryIsWrittenInPipedMode() throws {
    try withSandbox { sandbox in
      let result = try sandbox.run(["shell"], input: "add a\nlist\n")
      #expect(result.status == 0)
      #expect(!FileManager.default.fileExists(atPath: sandbox.historyFile.path))
      #expect(!FileManager.default.fileExists(atPath: sandbox.stateHome.path))
    }
  }
}
