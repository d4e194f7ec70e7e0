/// The commands, with their aliases, and the options each one takes.
enum CommandName: String, CaseIterable, Sendable {
  case add, list, waiting, show, update, done, reopen, delete, note, undo, history, tags, projects, stats, date, help, shell

  /// Every name a user may type, aliases included.
  static let spellings: [String: CommandName] = {
    var names: [String: CommandName] = [:]
    for command in CommandName.allCases { names[command.rawValue] = command }
    names["ls"] = .list
    names["edit"] = .update
    names["rm"] = .delete
    return names
  }()

  /// The names listed in help and offered by completion (aliases after their command).
  static let allSpellings = [
    "add", "list", "ls", "waiting", "show", "update", "edit", "done", "reopen", "delete", "rm", "note", "undo", "history",
    "tags", "projects", "stats", "date", "help", "shell",
  ]

  /// Whether the command acts on tasks named by id, so that `todo 3 done` can mean `done 3`.
  var takesTaskIDs: Bool {
    switch self {
    case .list, .waiting, .show, .update, .done, .reopen, .delete, .note: true
    default: false
    }
  }

  /// Options that take a value, for this command (global ones excluded).
  var valueOptions: [String] {
    switch self {
    case .add: ["--tag", "--project", "--priority", "--due", "--wait", "--scheduled", "--until", "--note", "--title"]
    case .update:
      ["--tag", "--project", "--priority", "--due", "--wait", "--scheduled", "--until", "--note", "--title", "--where"]
    case .list, .waiting: ["--tag", "--project", "--priority", "--status", "--sort", "--limit"]
    case .done, .reopen, .delete: ["--where"]
    case .history: ["--limit"]
    default: []
    }
  }

  /// Every option this command accepts, global ones included (for "did you mean" and completion).
  var allOptions: [String] {
    valueOptions + GlobalOptionNames.all
  }
}

/// The options every command accepts.
enum GlobalOptionNames {
  static let valueTaking = ["--db", "--color"]
  static let flags = ["--json", "--jsonl", "--dry-run", "--yes", "--help", "--version"]
  static let all = valueTaking + flags + ["--no-color"]
}

/// Words Taskwarrior users type, and the command (or option) of ours that does the same; an
/// empty value means there is no such command yet.
enum TaskwarriorWords {
  static let equivalents: [String: String] = [
    "modify": "update", "mod": "update", "info": "show", "annotate": "note", "complete": "done",
    "finish": "done", "remove": "delete", "del": "delete", "next": "list", "version": "--version",
    "summary": "projects", "count": "stats", "start": "", "stop": "", "log": "", "append": "", "prepend": "",
    "duplicate": "", "export": "", "import": "", "calendar": "", "purge": "", "denotate": "",
  ]
}
