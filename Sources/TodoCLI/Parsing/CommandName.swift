/// The commands, with their aliases, and the options each one takes.
enum CommandName: String, CaseIterable, Sendable {
  case add, log, duplicate, list, next, tree, waiting, show, why, update, append, prepend, done, reopen, delete, purge, note
  case start, stop, timesheet, undo, history, tags, projects, stats, export, `import`, sync, date, help, shell
  case config, context, edit, completions, check, recover

  /// Every name a user may type, aliases included.
  static let spellings: [String: CommandName] = {
    var names: [String: CommandName] = [:]
    for command in CommandName.allCases { names[command.rawValue] = command }
    names["ls"] = .list
    names["rm"] = .delete
    return names
  }()

  /// The names listed in help and offered by completion (aliases after their command).
  static let allSpellings = [
    "add", "log", "duplicate", "list", "ls", "next", "tree", "waiting", "show", "why", "update", "edit", "append",
    "prepend", "done", "reopen", "delete", "rm", "purge", "note", "start", "stop", "timesheet", "undo", "history",
    "tags", "projects", "stats", "export", "import", "sync", "config", "context", "date", "completions", "check", "recover",
    "help", "shell",
  ]

  /// Whether the command acts on tasks named by id, so that `todo 3 done` can mean `done 3`.
  var takesTaskIDs: Bool {
    switch self {
    case .list, .next, .tree, .waiting, .show, .why, .update, .append, .prepend, .duplicate, .done, .reopen, .delete,
      .purge, .note, .start, .stop, .timesheet, .export, .edit:
      true
    default: false
    }
  }

  /// Options that take a value, for this command (global ones excluded).
  var valueOptions: [String] {
    switch self {
    case .add, .log, .duplicate:
      ["--tag", "--project", "--priority", "--due", "--wait", "--scheduled", "--until", "--note", "--title", "--parent",
       "--depends", "--blocks", "--recur"]
    case .update:
      ["--tag", "--project", "--priority", "--due", "--wait", "--scheduled", "--until", "--note", "--title", "--parent",
       "--depends", "--blocks", "--recur", "--where"]
    case .list, .waiting, .tree: ["--tag", "--project", "--priority", "--status", "--sort", "--limit"]
    // Ranked by urgency: no --sort.
    case .next: ["--tag", "--project", "--priority", "--status", "--limit"]
    case .done, .reopen, .delete, .purge, .append, .prepend: ["--where"]
    case .history: ["--limit"]
    case .note: ["--edit", "--remove"]
    case .timesheet: ["--since", "--until", "--by"]
    case .export: ["--format", "--output", "--vdir"]
    case .import: ["--format", "--vdir"]
    case .sync: ["--setup", "--user", "--password-command", "--collection"]
    default: []
    }
  }

  /// Options that take no value, for this command.
  var flagOptions: [String] {
    switch self {
    case .update, .delete: ["--series"]
    case .list: ["--tree"]
    case .import: ["--strict"]
    case .sync: ["--status", "--conflicts", "--resolve", "--ask-password", "--force", "--offline"]
    default: []
    }
  }

  /// Every option this command accepts, global ones included (for "did you mean" and completion).
  var allOptions: [String] {
    valueOptions + flagOptions + GlobalOptionNames.all
  }
}

/// The options every command accepts.
enum GlobalOptionNames {
  static let valueTaking = ["--db", "--color", "-c"]
  static let flags = ["--json", "--jsonl", "--dry-run", "--yes", "--no-hooks", "--help", "--version"]
  static let all = valueTaking + flags + ["--no-color"]
}

/// Words Taskwarrior users type, and the command (or option) of ours that does the same; an
/// empty value means there is no such command yet.
enum TaskwarriorWords {
  static let equivalents: [String: String] = [
    "modify": "update", "mod": "update", "info": "show", "annotate": "note", "complete": "done",
    "finish": "done", "remove": "delete", "del": "delete", "version": "--version", "information": "show",
    "summary": "projects", "count": "stats", "export": "", "import": "", "calendar": "", "denotate": "note --remove",
  ]
}
