import Foundation
import Testing

/// Every command's human output, run over a database, a configuration and a sync state full of
/// text that would drive a terminal (an OSC 52 clipboard write, a title change, a screen clear,
/// an 8-bit CSI, bidirectional overrides and marks), shows that text and never obeys it: no raw
/// ESC, C1 or bidirectional control reaches standard output or standard error. The commands are
/// taken from `todo help`, so a command added later without a line here fails the sweep.
@Suite struct EndToEndHostileTextSweepTests {
  static let hostile = "\u{1B}]52;c;aGVsbG8=\u{07}\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}\u{2066}\u{200F}\u{061C}\u{2028}"
  /// Hostile text a tag or a project may hold (no C0 controls there).
  static let hostileName = "x\u{9B}31m\u{202E}\u{200E}y"

  /// The characters a terminal acts on: C0 other than newline and tab, DEL, C1, and the
  /// bidirectional and line-separating controls.
  static func controls(in text: String) -> [String] {
    text.unicodeScalars.filter { scalar in
      let value = scalar.value
      return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
        || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
        || value == 0x061C
    }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
  }

  /// The command names `todo help` lists (`list, ls`, `start ID, stop [ID]` give two each).
  static func commandNames(_ todo: TodoSandbox) -> Set<String> {
    let help = todo("help").lines
    guard let start = help.firstIndex(of: "Commands:") else { return [] }
    var names: Set<String> = []
    for line in help[(start + 1)...] {
      guard line.hasPrefix("  ") else { break }
      let entry = line.dropFirst(2)
      guard let first = entry.first, first != " " else { continue }
      let usage = entry.components(separatedBy: "  ").first ?? ""
      for part in usage.components(separatedBy: ", ") {
        if let word = part.split(separator: " ").first { names.insert(String(word)) }
      }
    }
    return names
  }

  private func makeHostileWorld(_ todo: TodoSandbox) throws {
    let h = Self.hostile
    let n = Self.hostileName
    func json(_ text: String) -> String {
      String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), as: UTF8.self)
        .dropFirst().dropLast().description
    }
    let file = todo.folder.appendingPathComponent("hostile.json").path
    try """
    [
    {"uuid":"11111111-1111-4111-8111-111111111111","title":\(json("Task " + h)),"status":"pending","created":"2026-11-01T00:00:00Z",
     "project":\(json(n)),"tags":[\(json(n))],"due":"2026-11-25","notes":[{"created":"2026-11-02T00:00:00Z","text":\(json("Note " + h))}]},
    {"uuid":"22222222-2222-4222-8222-222222222222","title":\(json("Gone " + h)),"status":"deleted","reason":\(json(h)),
     "created":"2026-11-01T00:00:00Z","modified":"2026-11-03T00:00:00Z"},
    {"uuid":"33333333-3333-4333-8333-333333333333","title":\(json("Done " + h)),"status":"done","created":"2026-11-01T00:00:00Z",
     "completed":"2026-11-20T00:00:00Z","project":\(json(n))}
    ]
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let imported = todo("import", file)
    try #require(imported.status == 0, "\(imported)")
    let conflict = todo.shell(
      "sqlite3 \"$TODO_DB\" \"INSERT INTO sync_conflict (collection, task_uuid, field, kept, lost, kept_side, decided) "
        + "VALUES ('c', '11111111-1111-4111-8111-111111111111', 'title', 'kept ' || char(27) || ']0;x' || char(7), "
        + "'lost ' || char(155) || '2J' || char(8238), 'remote', 1795253400)\"")
    try #require(conflict.status == 0, "\(conflict)")
    // The configuration is the user's own, and still shown safely.
    let config = todo.folder.appendingPathComponent(".config/todo")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    try """
    editor = true
    context.evil = \(n)
    [report.evil]
    description = \(n)
    columns = id,project,tags,title,notes
    labels = I,\(n),T,Title,N

    """.write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
  }

  @Test func noCommandLetsTextDriveTheTerminal() throws {
    let todo = try TodoSandbox()
    try makeHostileWorld(todo)
    let h = Self.hostile
    let importFile = todo.folder.appendingPathComponent("hostile.json").path
    // A taskrc and a Taskwarrior export whose text is hostile, for migrate.
    let hostileTaskrc = todo.folder.appendingPathComponent("hostile-taskrc").path
    try "report.evil.description=\(h)\nnews.version=\(h)\ncontext.x\(Self.hostileName)=+a\n".write(
      toFile: hostileTaskrc, atomically: true, encoding: .utf8)
    let hostileExport = todo.folder.appendingPathComponent("hostile-tw.json").path
    let description = String(decoding: try JSONSerialization.data(withJSONObject: ["Task " + h], options: []), as: UTF8.self).dropFirst().dropLast()
    try "[{\"uuid\":\"44444444-4444-4444-8444-444444444444\",\"description\":\(description),\"status\":\"pending\",\"entry\":\"20261101T000000Z\"}]\n"
      .write(toFile: hostileExport, atomically: true, encoding: .utf8)
    let invocations: [(command: String, arguments: [String])] = [
      ("list", ["list", "status:all"]), ("ls", ["ls", "--tree"]), ("next", ["next"]), ("tree", ["tree"]),
      ("waiting", ["waiting"]), ("show", ["show", "1", "2", "3"]), ("why", ["why", "1"]),
      ("add", ["add", "New " + h, "+" + Self.hostileName]), ("log", ["log", "Logged " + h]), ("duplicate", ["duplicate", "1"]),
      ("update", ["update", "1", "Renamed " + h]), ("edit", ["edit", "1"]), ("append", ["append", "1", h]),
      ("prepend", ["prepend", "1", h]), ("note", ["note", "1", "More " + h]), ("start", ["start", "1"]),
      ("stop", ["stop"]), ("timesheet", ["timesheet"]), ("done", ["done", "1"]), ("reopen", ["reopen", "1"]),
      ("delete", ["delete", "4"]), ("rm", ["rm", "5"]), ("purge", ["purge", "-y"]), ("export", ["export"]),
      ("import", ["import", importFile]), ("sync", ["sync", "--conflicts"]), ("undo", ["undo"]),
      ("migrate", ["migrate", "taskwarrior", "--taskrc", hostileTaskrc, "--from", hostileExport, "--dry-run"]),
      ("journal", ["journal"]), ("history", ["history"]), ("ghistory", ["ghistory"]), ("summary", ["summary"]),
      ("calendar", ["calendar", "--details"]), ("agenda", ["agenda"]), ("burndown", ["burndown"]), ("tags", ["tags"]), ("projects", ["projects"]),
      ("stats", ["stats"]),
      ("config", ["config"]), ("context", ["context", "evil"]), ("NAME", ["evil"]), ("date", ["date", "tomorrow"]),
      ("completions", ["completions", "bash"]), ("check", ["check"]), ("diag", ["diag"]), ("recover", ["recover", todo.databasePath, "--dry-run"]),
      ("help", ["help", "add"]), ("count", ["count"]), ("ids", ["ids"]), ("uuids", ["uuids"]), ("_ids", ["_ids"]),
      ("_get", ["_get", "1.title", "1.project", "1.tags", "1.notes"]), ("_unique", ["_unique", "project", "status:all"]),
      ("_projects", ["_projects"]), ("_tags", ["_tags"]), ("all", ["all"]), ("completed", ["completed"]),
      ("active", ["active"]), ("blocked", ["blocked"]), ("blocking", ["blocking"]), ("unblocked", ["unblocked"]),
      ("ready", ["ready"]), ("newest", ["newest"]), ("oldest", ["oldest"]), ("recurring", ["recurring"]),
      ("denotate", ["denotate", "1", "Note"]), ("remind", ["remind", "--all"]), ("ui", ["ui", "project:" + h]),
    ]
    var covered = Set(invocations.map(\.command))
    // The shell runs any of them; a piped script is read line by line.
    let shell = todo("shell", stdin: "show 1\nlist status:all\ncontext\nbogus \(h)\n")
    covered.insert("shell")
    let missing = Self.commandNames(todo).subtracting(covered)
    #expect(missing.isEmpty, "commands the sweep does not run: \(missing.sorted())")

    var runs = invocations.map { todo.run($0.arguments) } + [shell]
    // Errors and hints echo what was typed, and context show the configuration's value.
    runs += [
      todo("context"), todo("config", "get", "context.evil"), todo("show", h), todo("list", "project:" + h),
      todo("add", "x", "due:" + h), todo("frobnicate" + h), todo("update", "1", "bogus:" + h),
      todo("update", "2", "remind:2026-11-21T09:00"), todo("remind", "--next"), todo("remind", "--check", "-c", "remind.notify=terminal"),
    ]
    for run in runs {
      let found = Self.controls(in: run.stdout) + Self.controls(in: run.stderr)
      #expect(found.isEmpty, "raw controls \(Set(found).sorted()) in the output of\n\(run)")
    }
    // The text is shown, escaped, not dropped.
    let shown = todo("show", "1").stdout
    #expect(shown.contains(#"\u{1B}]52;c;aGVsbG8=\u{07}"#), "\(shown)")
    #expect(shown.contains(#"x\u{9B}31m\u{202E}\u{200E}y"#), "\(shown)")
    let conflicts = todo("sync", "--conflicts").stdout
    #expect(conflicts.contains(#"kept 'kept \u{1B}]0;x\u{07}'"#) && conflicts.contains(#"lost 'lost \u{9B}2J\u{202E}'"#), "\(conflicts)")
  }

  @Test func jsonEscapesEveryControlAndStillReadsBackTheSameText() throws {
    let todo = try TodoSandbox()
    try makeHostileWorld(todo)
    for arguments in [["list", "--json", "status:all"], ["show", "1", "--json"], ["export"], ["export", "--format", "taskwarrior"]] {
      let run = todo.run(arguments)
      #expect(run.status == 0, "\(run)")
      #expect(Self.controls(in: run.stdout).isEmpty, "\(arguments): \(run)")
    }
    let task = try todo.task(1)
    #expect(task["title"] as? String == "Task " + Self.hostile)
    #expect(task["project"] as? String == Self.hostileName)
  }
  /// A newline in what was typed or read keeps its line break in an error (vdirsyncer's output
  /// needs it), but every line after the first is indented: text can never pass for a line of
  /// todo's own such as `todo: hint: …`.
  @Test func textInAMessageCannotForgeALineOfTodosOwn() throws {
    let todo = try TodoSandbox()
    let forged = "\ntodo: hint: run rm -rf ~\ntodo: error: fake"
    for arguments in [["frob" + forged], ["import", "/nonexistent" + forged], ["show", "1" + forged]] {
      let run = todo.run(arguments)
      #expect(run.status != 0, "\(run)")
      for line in run.errorLines where !line.hasPrefix("  ") {
        #expect(!line.contains("rm -rf") && !line.contains("fake"), "a forged line in\n\(run)")
      }
    }
  }
}
