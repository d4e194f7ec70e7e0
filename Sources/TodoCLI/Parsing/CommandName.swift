/// The commands. What each one is — its other names, its options, whether it takes task ids,
/// whether it only reads, whether hooks run for it — is its `declaration`, the one place it is
/// written; the parser's spellings, completion, help's lists and the configuration's checks are
/// all read from the declarations.
enum CommandName: String, CaseIterable, Sendable {
  case add, log, duplicate, list, next, tree, waiting, show, why, update, append, prepend, done, reopen, delete, purge, note
  case start, stop, timesheet, undo, journal, tags, projects, stats, export, `import`, sync, date, help, shell, ui
  case calendar, agenda, burndown, summary, history, ghistory, diag, remind
  case config, context, edit, completions, check, recover, migrate
  /// Taskwarrior's helper commands, for scripts: the number of tasks a filter selects, their ids
  /// or UUIDs, one attribute of a task, the values an attribute takes.
  case count, ids, uuids, plainIDs = "_ids", plainUUIDs = "_uuids", get = "_get", unique = "_unique"
  case plainProjects = "_projects", plainTags = "_tags"

  /// Every name a user may type, aliases and Taskwarrior's names included.
  static let spellings: [String: CommandName] = {
    var names: [String: CommandName] = [:]
    for command in CommandName.allCases {
      names[command.rawValue] = command
      for alias in command.declaration.aliases + command.declaration.taskwarriorNames { names[alias] = command }
    }
    return names
  }()

  /// The names listed in help and offered by completion (aliases after their command), then
  /// Taskwarrior's names.
  static let allSpellings: [String] = {
    let ours = allCases.filter { $0.declaration.listed }.flatMap { [$0.rawValue] + $0.declaration.aliases }
    return ours + taskwarriorSpellings
  }()

  /// The names a Taskwarrior user types, for the same commands (and Taskwarrior's helpers).
  static let taskwarriorSpellings: [String] = allCases.flatMap { command in
    (command.declaration.listed ? [] : [command.rawValue]) + command.declaration.taskwarriorNames
  }

  /// Whether the command acts on tasks named by id, so that `todo 3 done` can mean `done 3`.
  var takesTaskIDs: Bool { declaration.ids != .none }

  /// Options that take a value, for this command (global ones excluded).
  var valueOptions: [String] { declaration.valueOptions }

  /// Options that take no value, for this command.
  var flagOptions: [String] { declaration.flagOptions }

  /// Every option this command accepts, global ones included (for "did you mean" and completion).
  var allOptions: [String] {
    valueOptions + flagOptions + GlobalOptionNames.all
  }
}

/// One command as declared.
struct CommandDeclaration: Sendable {
  /// How a command takes task ids.
  enum IDs: Sendable {
    /// It takes none.
    case none
    /// In its filter, among other terms (`list 3-7 +home`).
    case inFilter
    /// Its arguments are ids (`show 3`, `done 3`): completion offers them.
    case named
  }

  /// Other names of ours (`ls`, `rm`).
  var aliases: [String] = []
  /// Taskwarrior's names for the same command (`modify`, `info`).
  var taskwarriorNames: [String] = []
  var ids = IDs.none
  /// Changes nothing: it may be `default.command`.
  var onlyReads = false
  /// The hooks' `on-launch` and `on-exit` run for it (not for help, settings, repairs).
  var runsHooks = true
  /// Options that take a value, and options that take none (global ones excluded).
  var valueOptions: [String] = []
  var flagOptions: [String] = []
  /// Listed in help's command list and offered first by completion (Taskwarrior's helpers are
  /// listed with Taskwarrior's names).
  var listed = true
  /// What its words other than options are: a filter, or a task's title and attributes (which
  /// completion offers without the virtual tags and filter-only keys).
  var words = Words.filter
  /// The words its first argument is one of (`context list`, `config get`), for completion.
  var subcommands: [String] = []

  enum Words: Sendable { case filter, attributes }

  static let attributeOptions = [
    "--tag", "--project", "--priority", "--due", "--wait", "--scheduled", "--until", "--note", "--title", "--parent",
    "--depends", "--blocks", "--recur",
  ]
  static let listOptions = ["--tag", "--project", "--priority", "--status", "--sort", "--limit"]
}

extension CommandName {
  /// Taskwarrior's `denotate ID TEXT`, a name of `note` that removes the note with that text.
  static let denotate = "denotate"

  /// The command's declaration: everything about it that is not its decoding and its run.
  var declaration: CommandDeclaration {
    typealias D = CommandDeclaration
    switch self {
    case .add, .log: return D(valueOptions: D.attributeOptions, words: .attributes)
    case .duplicate: return D(ids: .named, valueOptions: D.attributeOptions, words: .attributes)
    case .list: return D(aliases: ["ls"], ids: .inFilter, onlyReads: true, valueOptions: D.listOptions, flagOptions: ["--tree"])
    // Ranked by urgency: no --sort.
    case .next: return D(ids: .inFilter, onlyReads: true, valueOptions: D.listOptions.filter { $0 != "--sort" })
    case .tree, .waiting: return D(ids: .inFilter, onlyReads: true, valueOptions: D.listOptions)
    case .show: return D(taskwarriorNames: ["info", "information"], ids: .named, onlyReads: true)
    case .why: return D(ids: .named, onlyReads: true)
    case .update:
      return D(
        taskwarriorNames: ["modify", "mod"], ids: .named, valueOptions: D.attributeOptions + ["--where"], flagOptions: ["--series"],
        words: .attributes)
    case .append, .prepend, .done, .reopen, .purge: return D(ids: .named, valueOptions: ["--where"])
    case .delete: return D(aliases: ["rm"], ids: .named, valueOptions: ["--where"], flagOptions: ["--series"])
    case .note:
      return D(taskwarriorNames: ["annotate", CommandName.denotate], ids: .named, valueOptions: ["--edit", "--remove"], words: .attributes)
    case .start, .stop: return D(ids: .named)
    case .edit: return D(ids: .named, words: .attributes)
    case .timesheet: return D(ids: .inFilter, onlyReads: true, valueOptions: ["--since", "--until", "--by"])
    case .undo: return D()
    case .journal: return D(onlyReads: true, valueOptions: ["--limit"])
    case .calendar: return D(ids: .inFilter, onlyReads: true, flagOptions: ["--details"])
    case .agenda: return D(ids: .inFilter, onlyReads: true, flagOptions: ["--ascii"])
    case .summary: return D(ids: .inFilter, onlyReads: true, flagOptions: ["--ascii"])
    case .burndown:
      return D(
        taskwarriorNames: ["burndown.daily", "burndown.weekly", "burndown.monthly"], ids: .inFilter, onlyReads: true,
        flagOptions: ["--ascii"])
    case .history:
      return D(taskwarriorNames: ["history.daily", "history.weekly", "history.monthly", "history.annual"], ids: .inFilter, onlyReads: true)
    case .ghistory:
      return D(
        taskwarriorNames: ["ghistory.daily", "ghistory.weekly", "ghistory.monthly", "ghistory.annual"], ids: .inFilter,
        onlyReads: true, flagOptions: ["--ascii"])
    case .tags, .projects, .stats: return D(onlyReads: true)
    case .export: return D(ids: .inFilter, valueOptions: ["--format", "--output", "--vdir"], flagOptions: ["--no-ids"])
    case .import: return D(valueOptions: ["--format", "--vdir"], flagOptions: ["--strict"])
    case .migrate: return D(valueOptions: ["--taskrc", "--from"])
    case .sync:
      return D(
        valueOptions: ["--setup", "--user", "--password-command", "--collection"],
        flagOptions: ["--status", "--conflicts", "--resolve", "--ask-password", "--force", "--offline"])
    // No hooks: settings and help are not task commands, and a broken hook must not stand
    // between a damaged file and its copy (`check`, `recover`).
    case .date, .help, .shell, .check, .recover: return D(runsHooks: false)
    case .config: return D(runsHooks: false, subcommands: ["list", "get", "set", "unset"])
    case .context: return D(runsHooks: false, subcommands: ArgumentDecoder.contextWords)
    case .completions: return D(runsHooks: false, subcommands: CompletionScript.Shell.allCases.map(\.rawValue))
    // The commands it runs run their own hooks, as in the shell.
    case .ui: return D(ids: .inFilter, runsHooks: false)
    case .diag: return D(taskwarriorNames: ["diagnostics"], onlyReads: true, runsHooks: false)
    // Run every minute by a timer: no hooks (a snooze is an undo step all the same).
    case .remind:
      return D(ids: .inFilter, runsHooks: false, flagOptions: ["--next", "--all", "--check", "--watch", "--install", "--uninstall", "--cron"])
    case .count, .ids, .uuids, .plainIDs, .plainUUIDs, .unique: return D(ids: .inFilter, onlyReads: true, listed: false)
    case .get: return D(onlyReads: true, listed: false)
    case .plainProjects, .plainTags: return D(onlyReads: true, listed: false)
    }
  }
}

/// The options every command accepts.
enum GlobalOptionNames {
  static let valueTaking = ["--db", "--color", "-c"]
  static let flags = ["--json", "--jsonl", "--dry-run", "--yes", "--no-hooks", "--help", "--version"]
  static let all = valueTaking + flags + ["--no-color"]
}

/// Words Taskwarrior users type that are not a name of one of our commands, and what of ours
/// does the same; an empty value means there is nothing of ours for it yet.
enum TaskwarriorWords {
  static let equivalents: [String: String] = [
    "complete": "done", "finish": "done", "remove": "delete", "del": "delete", "version": "--version",
    "timesheet.weekly": "timesheet", "long": "list", "minimal": "list",
    "synchronize": "sync", "columns": "help reports", "commands": "help", "udas": "config",
    "reports": "help reports", "_show": "config", "execute": "", "logo": "", "news": "",
  ]

  /// Which of our issues builds what Taskwarrior has and we do not yet (shown in the hint).
  static let plannedIn: [String: String] = [
    "execute": "todo runs no commands of its own; use hooks ('todo help hooks')"
  ]
}
