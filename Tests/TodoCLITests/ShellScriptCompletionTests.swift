import Foundation
import Testing

/// `todo completions bash|zsh|fish`, loaded into the real shells (`make test` installs bash,
/// zsh, fish and tmux): bash through `COMP_LINE`/`COMP_POINT`/`COMP_WORDBREAKS` and
/// `COMPREPLY`, and typed at an interactive prompt in tmux; fish through its own
/// `complete -C`; zsh typed at an interactive prompt with `compinit` in tmux. Every answer comes
/// from the hidden `todo __complete`, which must read the database without changing it.
@Suite(.serialized)
struct ShellScriptCompletionTests {
  /// A sandbox with three tasks, a tag per task, two projects, a context and a report.
  private func withTasks(_ body: (ShellSandbox) throws -> Void) throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    for line in [
      ["add", "Buy milk", "+home", "due:tomorrow"], ["add", "Pay rent", "project:home.rent"],
      ["add", "Call bob", "project:work", "+work"], ["add", "Odd one", "+semi;colon", "+dollar$x"],
      ["context", "define", "office", "+work"],
      ["config", "set", "report.mine.columns", "id,title"],
    ] {
      let result = try sandbox.run(line)
      try #require(result.status == 0, "todo \(line): \(result.error)")
    }
    try "[]".write(to: sandbox.root.appendingPathComponent("export-1.json"), atomically: true, encoding: .utf8)
    try body(sandbox)
  }

  /// Runs `program arguments…` with the sandbox's environment and `todo` first on the PATH.
  private func run(_ program: String, _ arguments: [String], in sandbox: ShellSandbox) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var environment = sandbox.environment
    environment["PATH"] = ShellSandbox.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    process.environment = environment
    process.currentDirectoryURL = sandbox.root
    // Files, not pipes: the shells start `todo` as grandchildren of this process.
    let outputPath = sandbox.root.appendingPathComponent("shell-\(UUID().uuidString.prefix(6)).out")
    _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outputPath)
    process.standardError = process.standardOutput
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, try String(contentsOf: outputPath, encoding: .utf8))
  }

  /// Each line of the output is one case's candidates, joined by `|`.
  private func expectReplies(
    _ result: (status: Int32, output: String), _ cases: [(line: String, expected: [String])], shell: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == 0, "\(result.output)", sourceLocation: sourceLocation)
    let replies = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, (line, expected)) in cases.enumerated() {
      let reply = index < replies.count ? replies[index].split(separator: "|").map(String.init) : ["(no reply)"]
      #expect(reply == expected, "\(shell): \(line)", sourceLocation: sourceLocation)
    }
  }

  private static func requireShell(_ path: String) throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: path),
      "\(path) is not installed; 'make test' installs it (apt-get install -y zsh fish)")
  }

  // MARK: bash

  /// What `_todo` puts in COMPREPLY for each line (the cursor at its end), as bash calls it:
  /// COMP_WORDS[0] is the command, COMP_LINE and COMP_POINT the line, COMP_WORDBREAKS bash's own.
  @Test func bashCompletesCommandsKeysDatesTagsProjectsIdsAndNames() throws {
    try withTasks { sandbox in
      let cases: [(line: String, expected: [String])] = [
        ("todo li", ["list"]),
        ("todo add due:tod", ["today"]),  // readline replaces what follows the colon
        ("todo list project:h", ["home", "home.rent"]),
        ("todo list +h", ["+home"]),
        ("todo done ", ["1  Buy milk", "2  Pay rent", "3  Call bob", "4  Odd one"]),
        ("todo done 2", ["2"]),
        ("todo context ", ["list", "show", "none", "define", "delete", "office"]),
        ("todo config get week.", ["week.start"]),
        ("todo export --format t", ["taskwarrior", "todotxt"]),
        ("todo mi", ["migrate", "mine"]),
        ("todo import export-", ["export-1.json"]),
        ("todo completions ", ["bash", "zsh", "fish"]),
        ("todo show 'Bu", []),
        // What bash would read specially is escaped: the tag, not a second command.
        ("todo list +se", [#"+semi\;colon"#]),
        ("todo list +do", [#"+dollar\$x"#]),
        // The line's own global options, as the parser reads them: the last --db, --db=PATH,
        // and -c settings (a report defined for this command only).
        ("todo --db /nowhere/x.db --db=\(sandbox.database.path) done 3", ["3"]),
        ("todo --db=/nowhere/x.db done ", []),
        ("todo -c report.ours.columns=id,title ou", ["ours"]),
      ]
      var script = """
        source <(todo completions bash) || exit 9
        complete_line() {
          COMP_LINE=$1; COMP_POINT=${#1}
          COMP_WORDS=(todo); COMP_CWORD=1
          local last=${1##* }; COMP_WORDS+=("$last")
          COMPREPLY=()
          _todo
          local IFS='|'; printf '%s\\n' "${COMPREPLY[*]}"
        }

        """
      for (line, _) in cases { script += "complete_line \(shellQuoted(line))\n" }
      try Self.requireShell("/bin/bash")
      let result = try run("/bin/bash", ["--norc", "--noprofile", "-c", script], in: sandbox)
      expectReplies(result, cases, shell: "bash")
    }
  }

  /// Readline itself inserts the completion: after `project:` only the name is added.
  @Test func bashAtAnInteractivePromptCompletesAfterAColon() throws {
    try #require(tmuxIsInstalled, "tmux is not installed; 'make test' installs it")
    try withTasks { sandbox in
      let terminal = ShellTerminal(sandbox: sandbox)
      defer { terminal.close() }
      try terminal.startProgram("bash --norc --noprofile")
      try terminal.type("source <(todo completions bash)")
      try terminal.press("Enter")
      try terminal.type("todo list +h")
      try terminal.press("Tab")
      try terminal.type("due:tod")
      try terminal.press("Tab")
      try terminal.type("project:w")
      try terminal.press("Tab")
      #expect(terminal.waitForLastLine { $0.hasSuffix("todo list +home due:today project:work") }, "\(terminal.screen())")
    }
  }

  // MARK: zsh

  @Test func zshWithCompinitCompletesTagsDatesAndListsIdsWithTitles() throws {
    try #require(tmuxIsInstalled, "tmux is not installed; 'make test' installs it")
    try Self.requireShell("/usr/bin/zsh")
    try withTasks { sandbox in
      let terminal = ShellTerminal(sandbox: sandbox)
      defer { terminal.close() }
      try terminal.startProgram("zsh -f")
      try terminal.type("autoload -Uz compinit && compinit -u && source <(todo completions zsh) && print loaded")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen { $0.contains("\nloaded") }, "\(terminal.screen())")
      try terminal.type("todo list +h")
      try terminal.press("Tab")
      try terminal.type("due:tod")
      try terminal.press("Tab")
      try terminal.type("project:h")
      try terminal.press("Tab")
      // project:home and project:home.rent: their common part, and no blank.
      #expect(terminal.waitForLastLine { $0.hasSuffix("todo list +home due:today project:home") }, "\(terminal.screen())")
      try terminal.press("C-u")
      try terminal.type("todo done ")
      try terminal.press("Tab")
      #expect(
        terminal.waitForScreen { $0.contains("1  Buy milk") && $0.contains("2  Pay rent") && $0.contains("3  Call bob") },
        "\(terminal.screen())")
      try terminal.press("C-u")
      try terminal.type("todo context of")
      try terminal.press("Tab")
      #expect(terminal.waitForLastLine { $0.hasSuffix("todo context office") }, "\(terminal.screen())")
    }
  }

  // MARK: fish

  /// fish's own `complete -C` runs the script's completion as Tab would.
  @Test func fishCompletesWithTitlesAsDescriptions() throws {
    try Self.requireShell("/usr/bin/fish")
    try withTasks { sandbox in
      let cases: [(line: String, expected: [String])] = [
        ("todo li", ["list"]),
        ("todo add due:tod", ["due:today"]),
        ("todo list project:h", ["project:home", "project:home.rent"]),
        ("todo list +h", ["+home"]),
        ("todo done ", ["1\tBuy milk", "2\tPay rent", "3\tCall bob", "4\tOdd one"]),
        ("todo list \\\n+h", ["+home"]),  // a line continued with a backslash
        ("todo config get week.", ["week.start"]),
        ("todo import export-", ["export-1.json"]),
      ]
      var script = "todo completions fish | source; or exit 9\n"
      // One line per case (string join alone says nothing for an empty list).
      for (line, _) in cases {
        // fish: single quotes (a backslash doubled), with a newline as an unquoted \n between.
        let quoted = line.split(separator: "\n", omittingEmptySubsequences: false)
          .map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\") + "'" }.joined(separator: "\\n")
        script += "echo (string join '|' -- (complete -C \(quoted)))\n"
      }
      let result = try run("/usr/bin/fish", ["--no-config", "-c", script], in: sandbox)
      expectReplies(result, cases, shell: "fish")
    }
  }

  // MARK: __complete reads only

  /// Completion never creates, upgrades or switches a database: a missing one stays missing,
  /// an existing one (a previous version's) keeps every byte, and no -wal or -shm file appears.
  @Test func completionReadsTheDatabaseWithoutChangingIt() throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    // No database yet: the fixed words still complete, and no file is made.
    let missing = try sandbox.run(["__complete", "fish", "todo list +PEN"])
    #expect(missing.status == 0)
    #expect(missing.output == "-\n+PENDING\n")
    #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))

    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/made-by-schema-4.db")
    try FileManager.default.copyItem(at: fixture, to: sandbox.database)
    let before = try Data(contentsOf: sandbox.database)
    let folderBefore = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted()
    for line in ["todo list +", "todo done ", "todo list project:", "todo context "] {
      let result = try sandbox.run(["__complete", "zsh", line])
      #expect(result.status == 0, "\(line): \(result.error)")
      #expect(result.error.isEmpty, "\(line): \(result.error)")
    }
    #expect(try Data(contentsOf: sandbox.database) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted() == folderBefore)

    // A database todo wrote (WAL mode, closed): no -wal or -shm file appears either.
    try FileManager.default.removeItem(at: sandbox.database)
    _ = try sandbox.run(["add", "Buy milk", "+home"])
    let written = try Data(contentsOf: sandbox.database)
    let folder = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted()
    #expect(!folder.contains("todo.db-wal"))
    let ids = try sandbox.run(["__complete", "bash", "todo done ", " "])
    #expect(ids.output == "-\n1\n", "\(ids)")
    #expect(try Data(contentsOf: sandbox.database) == written)
    #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted() == folder)
  }

  @Test func aBadCallOfTheHiddenCommandIsAUsageError() throws {
    let sandbox = try ShellSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["__complete", "tcsh", "todo li"])
    #expect(result.status == 2)
    #expect(result.error.contains("usage: todo __complete bash|zsh|fish"))
    let unknown = try sandbox.run(["completions", "tcsh"])
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("use bash, zsh or fish"))
  }
}

/// `text` in single quotes for a POSIX shell (and fish, for text without a quote or backslash).
private func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
