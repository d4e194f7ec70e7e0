import TodoCore

/// How results are printed.
enum OutputFormat: Equatable, Sendable {
  case human, json, jsonLines
}

/// Options that apply to every command.
struct GlobalOptions: Equatable, Sendable {
  var databasePath: String?
  var format = OutputFormat.human
  var color = ColorMode.auto
  /// `--dry-run`: show what would change, write nothing.
  var dryRun = false
  /// `--yes`/`-y`: answer yes to the question a large change asks.
  var assumeYes = false
  /// `-c key=value`, in order: configuration for this run only.
  var configOverrides: [String] = []
  /// `--no-hooks`: run no hook this time.
  var noHooks = false
}

/// Which tasks to list, and how.
struct ListQuery: Equatable, Sendable {
  /// A list leaves out waiting tasks unless the filter asks about them.
  var filter = {
    var filter = TodoFilter(); filter.leavesOutWaiting = true; return filter
  }()
  var sort: [SortKey] = []
  var limit: Int?
  /// `list --tree`: subtasks drawn under their parents.
  var tree = false
  /// The report that shows the tasks (`list`, `next`, `waiting` or one of the configuration's).
  var report = "list"
  /// Whether filter terms were typed (not only the context's and the report's).
  var typedTerms = false
}

/// A command line after parsing and validation: everything the command needs, as values.
enum Command: Equatable, Sendable {
  case add(TodoChanges)
  case list(ListQuery)
  /// One or more tasks; `single` when exactly one task was named (JSON: an object, not an array).
  case show([TaskReference], single: Bool)
  case update(TodoFilter, TodoChanges)
  case done(TodoFilter)
  case reopen(TodoFilter)
  case delete(TodoFilter)
  case note(TaskReference, String)
  case undo
  /// `journal [--limit N]`: the undo steps, newest first.
  case journal(limit: Int?)
  /// `calendar`, `agenda`, `burndown`, `summary`, `history`, `ghistory`: reports to look at.
  case chart(ChartRequest)
  /// `remind …`: the upcoming reminders, their delivery, snooze and dismiss, the timer.
  case remind(RemindRequest)
  /// `check`: SQLite's integrity check of the database file.
  case check
  /// `recover FILE`: what can be read of a damaged database, copied into a new file.
  case recover(String)
  case tags
  case projects
  case stats
  case date(String)
  /// `completions bash|zsh|fish`: the completion script for that shell.
  case completions(CompletionScript.Shell)
  case help(topic: String?)
  case version
  /// `diag` (`--version --verbose`): the version, the commit, SQLite, the schema and the paths in use.
  case diag
  case shell
  /// `ui [REPORT] [FILTER]`: the full-screen interface on a report (`next` unless named; `tree`:
  /// the list with subtasks under their parents) and a filter.
  case ui(report: String, filter: [String], tree: Bool)
  /// `update --series`: the tasks and their series' templates.
  case updateSeries(TodoFilter, TodoChanges)
  /// `delete --series`: the tasks' series end.
  case deleteSeries(TodoFilter)
  /// A task added as already done.
  case log(TodoChanges)
  case duplicate(TaskReference, TodoChanges)
  case editNote(TaskReference, number: Int, text: String)
  case removeNote(TaskReference, number: Int)
  case purge(TodoFilter)
  case start(TaskReference)
  /// nil: every active task.
  case stop(TaskReference?)
  case timesheet(TimesheetQuery)
  case export(ExportRequest)
  case sync(SyncRequest)
  case `import`(ImportRequest)
  /// `migrate taskwarrior [--taskrc FILE] [--from FILE]`.
  case migrate(MigrateRequest)
  case next(ListQuery)
  case why(TaskReference)
  case tree(ListQuery)
  case config(ConfigRequest)
  case context(ContextRequest)
  /// `edit ID`: the task in $EDITOR.
  case edit(TaskReference)
  /// `count`, `ids`, `uuids`, `_ids`, `_uuids`: the tasks a filter selects, counted or named.
  case selection(ListQuery, SelectionOutput)
  /// `_get ID.ATTRIBUTE…`: attributes of tasks, for scripts.
  case get([AttributeReference])
  /// `_unique ATTRIBUTE [filter]`: the values an attribute takes among the tasks.
  case unique(String, ListQuery)
  /// `_projects`, `_tags`: the names, one a line.
  case plainNames(tags: Bool)
  /// `denotate ID TEXT`: removes the note with that text (or the one note containing it).
  case removeNoteMatching(TaskReference, String)
}

/// How `count`, `ids`, `uuids`, `_ids` and `_uuids` print the tasks they select.
enum SelectionOutput: Sendable, Equatable {
  /// `count`: how many.
  case count
  /// `ids`: the ids as ranges on one line (`1-3 5`); `_ids`: one a line.
  case ids(oneALine: Bool)
  /// `uuids`: the UUIDs on one line; `_uuids`: one a line.
  case uuids(oneALine: Bool)
}

/// `3.due` in `_get 3.due`.
struct AttributeReference: Sendable, Equatable {
  var task: TaskReference
  var attribute: String
}

/// `config`, `config get KEY`, `config set KEY VALUE`, `config unset KEY`.
enum ConfigRequest: Sendable, Equatable {
  case list
  case get(String)
  case set(String, String)
  case unset(String)
}

/// `context`, `context NAME`, `context none`, `context define NAME FILTER`,
/// `context delete NAME`, `context list`, `context show`.
enum ContextRequest: Sendable, Equatable {
  case show
  case list
  case use(String)
  case none
  case define(String, String)
  case delete(String)
}

/// A report drawn rather than listed.
struct ChartRequest: Equatable, Sendable {
  enum Kind: String, Sendable {
    case calendar, agenda, burndown, summary, history, ghistory
  }

  var kind: Kind
  /// The tasks it counts: the filter typed, narrowed by the active context.
  var filter = TodoFilter()
  /// `history`, `ghistory`, `burndown`: the length of a period.
  var period = ChartPeriod.monthly
  /// `calendar N`: how many months (nil: as many as fit beside each other, at most 3).
  var months: Int?
  /// `agenda`: how many days from today.
  var days = 7
  /// `calendar --details`: the tasks listed under the grid.
  var details = false
  /// `--ascii`: charts drawn with ASCII characters rather than Unicode blocks.
  var ascii = false
}

/// What `timesheet` totals: the intervals of the tasks a filter selects, within a window.
struct TimesheetQuery: Equatable, Sendable {
  var filter = TodoFilter()
  var since: Int64?
  var until: Int64?
  var grouping = TimesheetGrouping.task
}

/// One parsed command line.
struct Invocation: Equatable, Sendable {
  var options = GlobalOptions()
  var command: Command
  /// The command that was named (`list` for a report or a bare filter): what hooks are told.
  var name = CommandName.list
  /// The command's words as typed, for the undo journal (`done 3-7`).
  var commandLine: String
  /// Things worth saying about what was typed that did not stop it (`proj:x` kept as text).
  var warnings: [String] = []
}

/// `export [FILTER] [--format F] [--output FILE | --vdir DIR]`.
struct ExportRequest: Sendable, Equatable {
  var filter = TodoFilter()
  /// Nil: from `--output`'s extension, else JSON.
  var format: String?
  var output: String?
  var vdir: String?
  /// `--no-ids`: todo.txt lines without the `uuid:` that lets an import find their task.
  var noIDs = false
}

/// `migrate taskwarrior`: Taskwarrior's settings (`--taskrc`, else `$TASKRC`, else ~/.taskrc)
/// and tasks (`--from` an export file, else what `task export` prints).
struct MigrateRequest: Sendable, Equatable {
  var taskrc: String?
  var from: String?
}

/// `sync`, `sync --setup URL [--user NAME] [--password-command CMD] [--collection NAME]`,
/// `sync --status`, `sync --conflicts`, `sync --resolve A B` (vdirsyncer's conflict command).
struct SyncRequest: Sendable, Equatable {
  enum Mode: Sendable, Equatable {
    case sync
    case setup(url: String)
    case status
    case conflicts
    case resolve(String, String)
    /// The command vdirsyncer runs for the password: asks on the terminal, prints the answer.
    case askPassword(String)
  }
  var mode = Mode.sync
  var user: String?
  var passwordCommand: String?
  var collection: String?
  var force = false
  /// Merge the vdir without running vdirsyncer.
  var offline = false
}

/// `import [FILE|-] [--format F] [--vdir DIR]`.
struct ImportRequest: Sendable, Equatable {
  /// `-` or nil: standard input.
  var path: String?
  /// Nil: from the extension, then the content.
  var format: String?
  var vdir: String?
  /// All or nothing: one record that cannot be read or stored refuses the whole input (without
  /// it, that record is left out with a warning and the rest imported).
  var strict = false
}

/// `remind [FILTER] [--next|--all]`, `remind --check`, `remind --watch`, `remind --install [--cron]`,
/// `remind --uninstall`, `remind snooze ID [DURATION]`, `remind dismiss ID…`.
struct RemindRequest: Equatable, Sendable {
  enum Mode: Equatable, Sendable {
    /// The reminders to come (`all`: those already delivered or dismissed too); `next`: the first.
    case list(next: Bool, all: Bool)
    case check
    case watch
    case install(cron: Bool)
    case uninstall
    /// nil: `remind.snooze` (10 minutes).
    case snooze(TaskReference, seconds: Int64?)
    case dismiss([TaskReference])
  }

  var mode = Mode.list(next: false, all: false)
  /// The tasks whose reminders `list` shows; nil: every pending task.
  var filter: TodoFilter?
}
