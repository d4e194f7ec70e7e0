import Foundation
import Testing

@testable import TodoCLI

/// The man page, `man/todo.1`: lint-clean under mandoc (style suggestions included), titled
/// "General Commands Manual" by groff too, and documenting every command as an item of its
/// COMMANDS list.
///
/// mandoc is required, not optional: `make test` installs it, and a missing mandoc fails these
/// tests with a message saying so, rather than skipping them.
@Suite struct ManPageTests {
  /// Every command name and alias the man page must document in COMMANDS.
  static let documentedCommands = [
    "add", "log", "duplicate", "list", "ls", "next", "tree", "waiting", "show", "why", "update", "edit", "append",
    "prepend", "done", "reopen", "delete", "rm", "purge", "note", "start", "stop", "timesheet", "undo", "journal",
    "calendar", "agenda", "burndown", "summary", "history", "ghistory", "tags", "projects", "stats", "export", "import", "migrate", "sync", "config",
    "context", "date", "completions", "check", "recover",
    "shell", "help", "count", "ids", "uuids", "_ids", "_uuids", "_get", "_unique", "_projects", "_tags", "info", "information",
    "modify", "mod", "annotate", "denotate", "burndown.daily", "burndown.weekly", "burndown.monthly", "history.daily",
    "history.weekly", "history.monthly", "history.annual", "ghistory.daily", "ghistory.weekly", "ghistory.monthly",
    "ghistory.annual", "diag", "diagnostics", "remind", "ui",
  ]

  /// The sections a reader looks for, in the order the page gives them.
  static let requiredSections = [
    "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ATTRIBUTES", "FILTER TERMS",
    "DATE EXPRESSIONS", "RECURRENCE", "URGENCY", "OUTPUT", "JSON OUTPUT", "SHELL", "ENVIRONMENT", "FILES", "EXIT STATUS",
    "EXAMPLES", "SEE ALSO",
  ]

  /// The environment variables the program reads.
  static let environmentVariables = [
    "TODO_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME", "TZ", "NO_COLOR", "TERM", "COLUMNS",
    "TODO_NOW",
  ]

  /// Lines of `mandoc -Tlint` output that are about the machine, not the page: mandoc checks
  /// `.Xr` references (jq, sqlite3, editline) against its database of installed pages, which may
  /// be older than the pages, or lack them on a machine without those programs.
  static let ignoredLintMarkers = ["outdated mandoc.db", "referenced manual not found"]

  @Test func manPageIsLintCleanUnderMandoc() throws {
    let page = try Self.manPageURL()
    guard let mandoc = Self.executable(named: "mandoc") else {
      Issue.record(
        """
        mandoc is not installed, so man/todo.1 cannot be checked. 'make test' installs it; \
        or run: sudo apt-get install -y mandoc
        """)
      return
    }
    let (status, output) = try Self.run(mandoc, ["-Tlint", "-W", "style", page.path])
    let problems = output.split(separator: "\n").filter { line in !Self.ignoredLintMarkers.contains { line.contains($0) } }
    #expect(
      problems.isEmpty,
      "mandoc -Tlint -W style man/todo.1 reported problems:\n\(problems.joined(separator: "\n"))")
    // 0: nothing to report; 1: style suggestions only, which can be the ignored lines. 2 and
    // above are warnings and errors.
    #expect(status <= 1, "mandoc -Tlint exited with \(status)")
  }

  /// groff 1.22 titles every mdoc page "BSD General Commands Manual" unless the page empties
  /// `doc-volume-operating-system` before `.Dt`; mandoc is not affected by it.
  @Test func pageIsNotTitledBSDByGroff() throws {
    let header = try Self.lines().prefix { !$0.hasPrefix(".Dt ") }
    #expect(
      header.contains(".ds doc-volume-operating-system"),
      "man/todo.1 needs '.ds doc-volume-operating-system' between .Dd and .Dt (found: \(Array(header)))")
  }

  /// The list above is every command and alias the parser knows, and every one has a help topic.
  @Test func everyCommandTheParserKnowsIsListedAndHasHelp() throws {
    #expect(Set(Self.documentedCommands) == Set(CommandName.allSpellings))
    #expect(Set(CommandName.spellings.keys) == Set(CommandName.allSpellings))
    for command in CommandName.allCases {
      #expect(Help.topics[command.rawValue] != nil, "no 'todo help \(command.rawValue)'")
      #expect(Help.overview.contains(command.rawValue), "'todo help' does not list \(command.rawValue)")
    }
    // Every option each command takes is in its help topic: DocumentationTests (with no exceptions).
  }

  @Test(arguments: documentedCommands)
  func commandIsAnItemOfTheCommandsSection(_ command: String) throws {
    let items = try Self.commandItems()
    #expect(
      items.contains(command),
      "man/todo.1 has no '.It Cm \(command)' item in COMMANDS (found: \(items.sorted().joined(separator: " ")))")
  }

  @Test func sectionsAreAllPresentInOrder() throws {
    let sections = try Self.lines().compactMap { line -> String? in
      guard line.hasPrefix(".Sh ") else { return nil }
      return String(line.dropFirst(4)).trimmingCharacters(in: CharacterSet(charactersIn: " \""))
    }
    let required = sections.filter { Self.requiredSections.contains($0) }
    #expect(required == Self.requiredSections, "sections of man/todo.1: \(sections)")
  }

  @Test(arguments: environmentVariables)
  func environmentVariableIsDocumented(_ variable: String) throws {
    let items = try Self.lines(inSection: "ENVIRONMENT").filter { $0.hasPrefix(".It ") }
    #expect(items.contains(".It Ev \(variable)"), "ENVIRONMENT has no '.It Ev \(variable)' item")
  }

  @Test func exitStatusesAreDocumented() throws {
    let items = try Self.lines(inSection: "EXIT STATUS").filter { $0.hasPrefix(".It ") }
    #expect(items == [".It 0", ".It 1", ".It 2"])
  }

  // MARK: Reading the page

  /// The repository root: the nearest folder above this file that holds `Package.swift`.
  static func repositoryRoot() throws -> URL {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return folder
      }
      folder.deleteLastPathComponent()
    }
    throw ManPageTestError("no Package.swift above \(#filePath)")
  }

  static func manPageURL() throws -> URL {
    let page = try repositoryRoot().appendingPathComponent("man/todo.1")
    guard FileManager.default.fileExists(atPath: page.path) else {
      throw ManPageTestError("missing \(page.path)")
    }
    return page
  }

  static func lines() throws -> [String] {
    let text = try String(contentsOf: manPageURL(), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The source lines between `.Sh NAME` and the next `.Sh`.
  static func lines(inSection name: String) throws -> [String] {
    let all = try lines()
    guard let start = all.firstIndex(where: { $0 == ".Sh \(name)" || $0 == ".Sh \"\(name)\"" }) else {
      throw ManPageTestError("man/todo.1 has no section \(name)")
    }
    let rest = all[(start + 1)...]
    let end = rest.firstIndex { $0.hasPrefix(".Sh ") } ?? rest.endIndex
    return Array(rest[..<end])
  }

  /// The names given with `Cm` on the `.It` lines of COMMANDS: `.It Cm list , Cm ls Op Ar filter`
  /// documents `list` and `ls`.
  static func commandItems() throws -> Set<String> {
    var names: Set<String> = []
    for line in try lines(inSection: "COMMANDS") where line.hasPrefix(".It ") {
      let words = line.split(separator: " ").map { $0.replacingOccurrences(of: "\\&", with: "") }
      for (index, word) in words.enumerated() where word == "Cm" && index + 1 < words.count {
        names.insert(words[index + 1])
      }
    }
    return names
  }

  // MARK: Running mandoc

  /// The first executable file called `name` on `PATH` (or in the usual system folders).
  static func executable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin"]
    for folder in folders where !folder.isEmpty {
      let candidate = folder + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs a program and returns its exit status and its standard output and error, together.
  static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// Why the man page could not be read at all.
struct ManPageTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
