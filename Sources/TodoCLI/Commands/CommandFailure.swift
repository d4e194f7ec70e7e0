import DataOperation
import TodoCore
import TodoSystem

/// Any failure a command can end with, and how it is shown: once, at the top, on stderr.
enum CommandFailure: Error {
  case usage(UsageError)
  case domain(TodoError)
  /// The database file could not be opened or migrated.
  case database(path: String, DatabaseError)
  /// The database file cannot be used for a reason found before SQLite opened it.
  case databaseFile(path: String, reason: String)
  case environment(String)
  /// The configuration file has a line that does not read, or a value that does not suit its key.
  case configuration(ConfigFileError)
  /// A hook refused the command, failed or ran too long; nothing was written.
  case hook(String)
  /// The user answered no to a question; nothing was written.
  case cancelled(String)

  /// A failure of work on the database file at `path` (shown as `path`): a database error names
  /// the file; any other is the domain's.
  init(_ error: TodoError, database path: String) {
    if case .database(let error) = error { self = .database(path: path, error) } else { self = .domain(error) }
  }

  /// 2 for mistakes in what was typed, 1 for failures at run time.
  var exitStatus: Int32 {
    switch self {
    case .usage: 2
    case .domain(let error): error.isUsageError ? 2 : 1
    case .database, .databaseFile, .environment, .cancelled, .configuration, .hook: 1
    }
  }

  var message: String {
    switch self {
    case .database(let path, .sqlite(let error)) where error.isDiskFull:
      "cannot write the database \(path): the disk is full; nothing was written"
    case .domain(.database(.sqlite(let error))) where error.isDiskFull:
      "the disk is full, so the database cannot be written; nothing was written"
    case .database(let path, .sqlite(let error)) where error.extendedCode == SQLiteError.readOnlyDirectory:
      "cannot use the database \(path): its folder is not writable, and SQLite keeps its journal files next to the database; nothing was written"
    case .database(let path, .sqlite(let error)) where error.primaryCode == SQLiteError.busy:
      "cannot use the database \(path): another program kept it locked for longer than 5 seconds; nothing was written"
    case .domain(.database(.sqlite(let error))) where error.primaryCode == SQLiteError.busy:
      "the database is locked: another program kept it locked for longer than 5 seconds; nothing was written"
    case .database(let path, .sqlite(let error)) where error.primaryCode == SQLiteError.corrupt:
      "cannot use the database \(path): the file is damaged (SQLite: \(error.message)); nothing was written"
    case .domain(.database(.sqlite(let error))) where error.primaryCode == SQLiteError.corrupt:
      "the database file is damaged (SQLite: \(error.message)); nothing was written"
    case .usage(let error): error.message
    case .domain(let error): error.description
    case .database(let path, let error): "cannot use the database \(path): \(error)"
    case .databaseFile(let path, let reason): "cannot use the database \(path): \(reason)"
    case .environment(let message), .cancelled(let message), .hook(let message): message
    case .configuration(let error): error.message
    }
  }

  var hint: String? {
    switch self {
    case .usage(let error): error.hint
    case .domain(.nothingToUndo): "the journal is empty; 'todo journal' lists what can be undone"
    case .domain(.noMatch): "'todo list status:all' shows every task"
    case .domain(.selectionChanged): "run the command again to see the tasks it would change now"
    case .domain(.notFound): "'todo list status:all' shows every task with its id"
    case .domain(.database(let error)), .database(_, let error): Self.hint(for: error)
    case .databaseFile(let path, let reason) where reason.hasPrefix("it is a directory"):
      "for example --db \(path == "/" ? "" : path)/todo.db, or set TODO_DB to a file's path"
    case .configuration(let error) where error.line != nil:
      "fix that line, or move the file aside; 'todo config' lists every key and 'man todo' (CONFIGURATION) explains them"
    default: nil
    }
  }

  /// The hint for a database failure, whether it came while opening or while running.
  private static func hint(for error: DatabaseError) -> String? {
    switch error {
    case .sqlite(let error) where error.isDiskFull:
      "free some space ('df -h' shows where) and run the command again; the tasks are as they were"
    case .sqlite(let error) where error.primaryCode == SQLiteError.corrupt:
      "copy the file aside as it is; 'todo check' shows the damage; 'todo recover NEW.db' copies every task that can still be read into a new file"
    case .schemaTooNew: "this database was written by a newer version of todo"
    case .foreignDatabase: "give the path of a todo database (or a new file) with --db or TODO_DB"
    case .sqlite(let error) where error.primaryCode == SQLiteError.notADatabase:
      "the file is not a todo database; give another path with --db or TODO_DB"
    case .sqlite(let error) where error.primaryCode == SQLiteError.busy:
      "another todo (or a program using the file, such as sqlite3) is writing to it; try again"
    default: nil
    }
  }

  /// A short machine-readable name for the JSON error object.
  var code: String {
    switch self {
    case .usage: "usage"
    case .domain(.notFound): "not_found"
    case .domain(.ambiguous): "ambiguous"
    case .domain(.noMatch): "no_match"
    case .domain(.nothingToUndo): "nothing_to_undo"
    case .domain(.invalid): "invalid"
    case .domain(.selectionChanged): "selection_changed"
    case .domain(.cycle): "cycle"
    case .domain(.noSuchNote): "no_such_note"
    case .domain(.wrongStatus): "wrong_status"
    case .domain(.series): "series"
    case .domain(.nothingActive): "nothing_active"
    case .domain(.needsForce): "needs_force"
    case .domain(.vdir): "vdir"
    case .domain(.refused): "refused"
    case .domain(.openSubtasks): "open_subtasks"
    case .cancelled: "cancelled"
    case .domain(.database), .database, .databaseFile: "database"
    case .environment: "environment"
    case .configuration: "configuration"
    case .hook: "hook"
    }
  }

  /// Writes `todo: error: …` (and a hint), or with JSON output a JSON object, to `stream`.
  ///
  /// In the shell, commands are typed without the `todo` word, so hints drop it (`'help add'`),
  /// and a script's errors say which line failed (`line 37: unknown command 'lsit'`).
  func report(to stream: OutputStream, json: Bool, inShell: Bool = false, line: Int? = nil) {
    let hint = inShell ? self.hint.map(Self.withoutProgramName) : self.hint
    if json {
      var writer = JSONWriter(format: .compact)
      writer.object { json in
        json.key("error")
        json.object { json in
          json.field("code", code)
          json.field("message", message)
          json.field("hint", hint)
          json.field("exit_status", Int(exitStatus))
          if let line { json.field("line", line) }
        }
      }
      writer.endLine()
      writer.drain(into: stream)
    } else {
      let lineNumber = line.map { "line \($0): " } ?? ""
      stream.write("todo: error: \(lineNumber)\(sanitizedLinesForTerminal(message))\n")
      if let hint { stream.write("todo: hint: \(sanitizedLinesForTerminal(hint))\n") }
    }
  }

  /// A hint as the shell shows it: `'todo help add'` → `'help add'`, `run: todo add` → `run: add`
  /// (hints quote commands or put them after a colon).
  static func withoutProgramName(_ hint: String) -> String {
    hint.replacing("'todo ", with: "'").replacing(": todo ", with: ": ")
  }
}
