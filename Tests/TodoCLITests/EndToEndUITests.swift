import Foundation
import Testing

/// `todo ui` in a real terminal (tmux): keys, the commands they run, resizes, colour, another
/// process's change, `$EDITOR`, Ctrl-Z and `fg`, SIGTERM, and the terminal put back each time.
@Suite(.serialized) struct EndToEndUITests {
  /// A sandbox with three tasks, and a terminal whose pane runs `SCRIPT` under bash with the
  /// folder of `todo` on the PATH; `stty -a` is written before and after `todo ui` runs.
  func start(
    width: Int = 100, height: Int = 24, environment extra: [String: String] = [:], arguments: String = ""
  ) throws -> (ShellSandbox, ShellTerminal) {
    let sandbox = try ShellSandbox()
    for arguments in [
      ["add", "Buy milk", "project:home", "due:tomorrow"], ["add", "Write report", "project:work", "pri:H"], ["add", "Call 日本 office", "+phone"],
    ] {
      #expect(try sandbox.run(arguments).status == 0)
    }
    let terminal = ShellTerminal(sandbox: sandbox, name: "ui")
    terminal.size = (width, height)
    let root = sandbox.root.path
    let variables = extra.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    try terminal.startProgram(
      "bash --norc --noprofile -c 'stty -a > \(root)/before; \(variables) todo ui \(arguments); s=$?; stty -a > \(root)/after; echo status=$s; exec sleep 60'"
    )
    try #require(
      terminal.waitForScreen(timeout: 20) { $0.contains("todo · ") && $0.contains("Write report") }, "no first frame:\n\(terminal.screen())")
    return (sandbox, terminal)
  }

  func sttyIsRestored(_ sandbox: ShellSandbox) throws {
    let before = try String(contentsOf: sandbox.root.appendingPathComponent("before"), encoding: .utf8)
    let after = try String(contentsOf: sandbox.root.appendingPathComponent("after"), encoding: .utf8)
    #expect(before == after)
  }

  func titles(_ sandbox: ShellSandbox) throws -> [String] {
    try sandbox.storedTitles().sorted()
  }

  @Test func keysRunTheCommandsAndQuitPutsTheTerminalBack() throws {
    let (sandbox, terminal) = try start()
    defer {
      terminal.close()
      sandbox.remove()
    }
    // The first task by urgency is selected; d completes it, as `todo done ID`.
    let first = terminal.screen().split(separator: "\n")[2]
    try terminal.press("d")
    #expect(terminal.waitForScreen { $0.contains("todo done 1 — Completed task 1") && $0.contains("u undoes it") }, "\(terminal.screen())")
    #expect(try titles(sandbox).count == 2)
    #expect(!terminal.screen().split(separator: "\n").contains(first))
    try terminal.press("u")
    #expect(terminal.waitForScreen { $0.contains("todo undo") && $0.contains("3 tasks") }, "\(terminal.screen())")
    #expect(try titles(sandbox).count == 3)
    // a: the prompt, with todo add's grammar.
    try terminal.press("a")
    try terminal.type("Feed the cat +home due:fri")
    try terminal.press("Enter")
    #expect(terminal.waitForScreen { $0.contains("Added task 4") && $0.contains("Feed the cat") }, "\(terminal.screen())")
    // /: the list follows the filter as it is typed.
    try terminal.press("/")
    try terminal.type("project:work")
    #expect(terminal.waitForScreen { $0.contains("1 task ") && !$0.contains("Buy milk") }, "\(terminal.screen())")
    try terminal.press("Escape")
    #expect(terminal.waitForScreen { $0.contains("4 tasks") }, "\(terminal.screen())")
    // Enter: the details are what `todo show` says.
    try terminal.press("Enter")
    #expect(terminal.waitForScreen { $0.contains("Status") && $0.contains("pending") }, "\(terminal.screen())")
    try terminal.press("q")
    #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
    try sttyIsRestored(sandbox)
  }

  @Test func marksAskTheQuestionTheCommandLineAsks() throws {
    let (sandbox, terminal) = try start()
    defer {
      terminal.close()
      sandbox.remove()
    }
    #expect(try sandbox.run(["add", "Fourth"]).status == 0)
    #expect(terminal.waitForScreen { $0.contains("Fourth") }, "\(terminal.screen())")
    try terminal.press("Space", "Space", "Space", "Space")
    #expect(terminal.waitForScreen { $0.contains("4 marked") }, "\(terminal.screen())")
    try terminal.press("d")
    // The question lists what `todo done 1,2,3,4 --dry-run` says it would do.
    #expect(
      terminal.waitForScreen { $0.contains("Would complete task 1: Buy milk") && $0.contains("Complete 4 tasks?") && $0.contains("y: yes") },
      "\(terminal.screen())")
    try terminal.press("n")
    #expect(terminal.waitForScreen { $0.contains("nothing was changed") }, "\(terminal.screen())")
    #expect(try titles(sandbox).count == 4)
    try terminal.press("d")
    #expect(terminal.waitForScreen { $0.contains("y: yes") }, "\(terminal.screen())")
    try terminal.press("y")
    #expect(terminal.waitForScreen { $0.contains("0 tasks") }, "\(terminal.screen())")
    #expect(try titles(sandbox).isEmpty)
    try terminal.press("q")
  }

  @Test func anotherProcessesChangeShowsAndResizesRedraw() throws {
    let (sandbox, terminal) = try start(width: 120)
    defer {
      terminal.close()
      sandbox.remove()
    }
    #expect(try sandbox.run(["add", "Added elsewhere"]).status == 0)
    #expect(terminal.waitForScreen(timeout: 10) { $0.contains("Added elsewhere") && $0.contains("4 tasks") }, "\(terminal.screen())")
    for (width, height) in [(60, 20), (80, 24), (120, 30)] {
      try terminal.resize(width: width, height: height)
      #expect(
        terminal.waitForScreen { screen in
          let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
          // The top bar ends with "? help " at the last column (the capture drops the final blank).
          return lines.first?.hasSuffix("? help") == true && lines.first.map { $0.count == width - 1 } == true && lines.count <= height
        }, "at \(width)×\(height):\n\(terminal.screen())")
      #expect(terminal.screen().contains("Write report"))
    }
    try terminal.press("q")
  }

  @Test func noColorIsMonochromeWithAReverseSelection() throws {
    for noColor in [false, true] {
      let (sandbox, terminal) = try start(environment: noColor ? ["NO_COLOR": "1"] : [:])
      defer {
        terminal.close()
        sandbox.remove()
      }
      let screen = terminal.screenWithEscapes()
      let colours = screen.components(separatedBy: "\u{1B}[").filter { $0.range(of: #"^[0-9;]*3[0-7]m"#, options: .regularExpression) != nil }
      #expect(noColor ? colours.isEmpty : !colours.isEmpty, "\(screen)")
      #expect(screen.contains("\u{1B}[7m"), "the selection in reverse video:\n\(screen)")
      try terminal.press("q")
    }
  }

  @Test func sigtermPutsTheTerminalBack() throws {
    let (sandbox, terminal) = try start()
    defer {
      terminal.close()
      sandbox.remove()
    }
    let shell = try terminal.panePID()
    let pid = try #require(children(of: shell).first, "no todo under the pane's shell")
    try terminal.press("j")
    kill(pid, SIGTERM)
    #expect(terminal.waitForScreen { $0.contains("status=143") }, "\(terminal.screen())")
    try sttyIsRestored(sandbox)
  }

  /// In an interactive bash, as a user runs it: Ctrl-Z stops it with the terminal put back,
  /// `fg` redraws it.
  @Test func ctrlZSuspendsAndFgRedraws() throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    #expect(try sandbox.run(["add", "Write report"]).status == 0)
    let terminal = ShellTerminal(sandbox: sandbox, name: "ui")
    terminal.size = (80, 24)
    defer { terminal.close() }
    try terminal.startProgram("env PS1='$ ' bash --norc --noprofile -i")
    let root = sandbox.root.path
    try terminal.type("stty -a > \(root)/before; todo ui")
    try terminal.press("Enter")
    try #require(terminal.waitForScreen(timeout: 20) { $0.contains("todo · next") && $0.contains("Write report") }, "\(terminal.screen())")
    try terminal.press("C-z")
    #expect(terminal.waitForScreen { $0.contains("Stopped") && !$0.contains("todo · next") }, "\(terminal.screen())")
    try terminal.type("stty -a > \(root)/after; fg")
    try terminal.press("Enter")
    #expect(terminal.waitForScreen { $0.contains("todo · next") && $0.contains("Write report") }, "\(terminal.screen())")
    try sttyIsRestored(sandbox)
    try terminal.press("q")
    #expect(terminal.waitForScreen { !$0.contains("todo · next") && $0.contains("$") }, "\(terminal.screen())")
  }

  @Test func editRunsTheEditorAndComesBack() throws {
    let editor = FileManager.default.temporaryDirectory.appendingPathComponent("todo-ui-editor-\(UUID().uuidString.prefix(8)).sh")
    try "#!/bin/sh\nsed -i 's/^title: .*/title: Edited in the editor/' \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
    defer { try? FileManager.default.removeItem(at: editor) }
    let (sandbox, terminal) = try start(environment: ["EDITOR": editor.path], arguments: "project:work")
    defer {
      terminal.close()
      sandbox.remove()
    }
    try terminal.press("e")
    #expect(
      terminal.waitForScreen(timeout: 10) { $0.contains("Edited in the editor") && $0.contains("todo · next project:work") }, "\(terminal.screen())")
    #expect(try titles(sandbox).contains("Edited in the editor"))
    try terminal.press("q")
    #expect(terminal.waitForScreen { $0.contains("status=0") }, "\(terminal.screen())")
    try sttyIsRestored(sandbox)
  }

  /// With `terminal` in `remind.notify`, a reminder whose time has come shows on the status
  /// line, once, as in `todo shell`; another process's new reminder shows too.
  @Test func dueRemindersShowOnTheStatusLine() throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    let folder = sandbox.root.appendingPathComponent("config/todo")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "remind.notify = terminal\n".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    #expect(try sandbox.run(["add", "Ping", "remind:now"]).status == 0)
    let terminal = ShellTerminal(sandbox: sandbox, name: "ui")
    terminal.size = (100, 20)
    defer { terminal.close() }
    try terminal.startProgram("todo ui")
    #expect(terminal.waitForScreen(timeout: 20) { $0.contains("Reminder: Ping (task 1, ") }, "\(terminal.screen())")
    try terminal.press("j")
    try terminal.press("q")
  }

  @Test func withoutATerminalItSaysSoAndAnUnknownWordIsNamed() throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    let piped = try sandbox.run(["ui"])
    #expect(piped.status == 2)
    #expect(piped.error.contains("todo ui needs a terminal"), "\(piped.error)")
    let option = try sandbox.run(["ui", "--bogus"])
    #expect(option.status == 2)
    #expect(option.error.contains("--bogus"), "\(option.error)")
  }

  /// The README shows a screen of `todo ui`: it is what tmux captures of these tasks at 80×16,
  /// on the README's date.
  @Test func theReadmeScreenIsTheScreen() throws {
    var sandbox = try ShellSandbox()
    sandbox.extraEnvironment = ["TODO_NOW": "2026-11-21T10:42:00Z", "TZ": "UTC"]
    defer { sandbox.remove() }
    for arguments in [
      ["add", "Pay the rent", "due:2026-12-01", "pri:H", "project:home"], ["add", "Book flights", "project:travel", "+online", "due:mon"],
      ["add", "Renew the passport", "project:travel", "due:2026-12-15"], ["add", "Call the dentist", "+phone"],
      ["add", "Fix the bike", "project:home.garage"],
    ] {
      #expect(try sandbox.run(arguments).status == 0)
    }
    let terminal = ShellTerminal(sandbox: sandbox, name: "ui")
    terminal.size = (80, 16)
    defer { terminal.close() }
    try terminal.startProgram("todo ui")
    try #require(terminal.waitForScreen(timeout: 20) { $0.contains("Fix the bike") }, "\(terminal.screen())")
    try terminal.press("j", "Enter")
    try #require(terminal.waitForScreen { $0.contains("Task 2: Book flights") }, "\(terminal.screen())")
    let readme = try String(contentsOf: ShellSandbox.readme, encoding: .utf8)
    let marker = try #require(readme.range(of: "<!-- todo ui at 80x16"), "no screen in the README")
    let start = try #require(readme.range(of: "```text\n", range: marker.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let shown = String(readme[start.upperBound..<end.lowerBound])
    #expect(shown == terminal.screen(), "the README's screen is not what todo ui draws; it draws:\n\(terminal.screen())")
    try terminal.press("q")
  }

  private func children(of pid: Int32) -> [Int32] {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return text.split(separator: " ").compactMap { Int32($0) }
  }

}
