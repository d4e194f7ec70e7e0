import DataOperation
import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `check` and `recover`: what to do with a damaged database file. Both only read it.
extension CommandRunner {
  /// The database file's path, which must exist.
  private func existingDatabase() throws(CommandFailure) -> String {
    guard let (path, _) = FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment)
    else {
      throw .environment("cannot find the database: HOME is not set; give --db PATH or set TODO_DB")
    }
    guard FileSystem.exists(path) else { throw .environment("there is no database at \(path)") }
    if FileSystem.isDirectory(path) { throw .databaseFile(path: path, reason: "it is a directory; give a file path") }
    return path
  }

  /// `todo check`: SQLite's integrity check of the whole file (every page, not only those a
  /// command reads); exit 1 when it finds damage.
  func check() throws(CommandFailure) {
    let path = try existingDatabase()
    let problems: [String]
    let foreign: [String]
    do throws(TodoError) {
      problems = try TodoDatabase.integrityProblems(path: path)
      foreign = try TodoDatabase.foreignObjects(path: path)
    } catch {
      throw CommandFailure(error, database: path)
    }
    switch format {
    case .human:
      if problems.isEmpty {
        output.write("The database \(path) is intact (SQLite's integrity check found nothing wrong).\n")
      } else {
        output.write("The database \(path) is damaged; SQLite's integrity check found:\n")
        for problem in problems { output.write("  \(sanitizedForTerminal(problem))\n") }
      }
      if !foreign.isEmpty {
        output.write("It holds triggers or views todo never makes (a trigger runs its own SQL whenever what it watches changes):\n")
        for object in foreign { output.write("  \(sanitizedForTerminal(object))\n") }
      }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("database", path)
          json.field("ok", problems.isEmpty && foreign.isEmpty)
          json.field("problems", problems)
          json.field("foreign", foreign)
        }
      }
    }
    if !problems.isEmpty {
      throw .environment(
        "the database \(path) is damaged; 'todo recover NEW.db' copies every task that can still be read into a new file")
    }
    if !foreign.isEmpty {
      throw .environment(
        "the database \(path) holds triggers or views todo did not make; if you did not add them, remove them "
          + "(sqlite3 \(path) 'DROP TRIGGER name') or 'todo recover NEW.db' copies the tasks without them")
    }
  }

  /// `todo recover FILE`: every row that can still be read, copied into a new database at FILE
  /// (written under a temporary name in the same folder, then renamed): the damaged file is
  /// left exactly as it is. With --dry-run the copy is made in memory and only reported; a copy
  /// that fails leaves nothing behind, not even the folders made for it.
  func recover(into target: String) throws(CommandFailure) {
    let source = try existingDatabase()
    guard !FileSystem.exists(target) else {
      throw .usage(.invalid("\(target) exists; give the path of a new file (the copy never overwrites one)"))
    }
    guard !target.hasSuffix("/") else { throw .usage(.invalid("\(target) is a folder's name; give the path of a new file")) }
    let dryRun = invocation.options.dryRun
    var folders: [String] = []
    func removeFolders() {
      for folder in folders.reversed() { rmdir(folder) }
    }
    if !dryRun, let problem = FileSystem.createParentFolders(of: target, created: &folders) {
      removeFolders()
      throw .environment("cannot write \(target): \(problem); nothing was written")
    }
    let partial = dryRun ? ":memory:" : target + ".partial-\(UUIDGenerator.make().prefix(8))"
    func removePartial() {
      guard !dryRun else { return }
      for suffix in ["", "-wal", "-shm", "-journal"] { _ = FileSystem.remove(partial + suffix) }
    }
    removePartial()
    // Private from the start, as every database todo makes (SQLite would follow the umask).
    if !dryRun { FileSystem.createPrivateFile(partial) }
    let report: RecoveryReport
    do throws(RecoveryFailure) {
      report = try TodoDatabase.recover(from: source, into: partial)
    } catch {
      removePartial()
      removeFolders()
      switch error {
      case .source(let error): throw CommandFailure(error, database: source)
      case .copy(let error): throw CommandFailure(error, database: target)
      }
    }
    // Never over a file that appeared meanwhile.
    if !dryRun, let problem = FileSystem.moveWithoutReplacing(partial, to: target) {
      removePartial()
      removeFolders()
      throw .environment("cannot write \(target): \(problem); nothing was written")
    }
    let tasks = report.tables.first { $0.name == "todo" }?.rows ?? 0
    switch format {
    case .human:
      output.write(
        "\(dryRun ? "Would recover" : "Recovered") \(tasks) \(tasks == 1 ? "task" : "tasks") from \(source) into \(target)"
          + (dryRun ? " (dry run: nothing was written).\n" : ".\n"))
      let damaged = report.tables.filter(\.damaged).map(\.name)
      if damaged.isEmpty {
        output.write("Every row was read: the copy \(dryRun ? "would be" : "is") complete.\n")
      } else {
        output.write("Damage was met in \(sanitizedForTerminal(damaged.joinedText(", "))): rows stored in the damaged parts could not be read.\n")
      }
      if report.orphansRemoved > 0 {
        output.write("\(report.orphansRemoved) rows that pointed at lost rows were removed or unlinked.\n")
      }
      if report.journalEmptied {
        output.write(
          "The undo journal was damaged, so the copy \(dryRun ? "would start" : "starts") with an empty one ('todo undo' has nothing to undo).\n")
      }
      if !dryRun {
        output.write("Look at it (todo --db \(target) list status:all); then put it in place of the damaged file.\n")
      }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("database", source)
          json.field("copy", target)
          json.field("complete", report.isComplete)
          json.key("tables")
          json.array { json in
            for table in report.tables {
              json.object { json in
                json.field("table", table.name)
                json.field("rows", table.rows)
                json.field("damaged", table.damaged)
              }
            }
          }
          json.field("orphans_removed", report.orphansRemoved)
          json.field("journal_emptied", report.journalEmptied)
          if dryRun { json.field("dry_run", true) }
        }
      }
    }
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `recover FILE`: the new file a damaged database is copied into.
  mutating func recoverCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    var words = tokens.map(\.text)
    if words.first == "--" {
      words.removeFirst()
    } else if let option = words.first(where: { $0.count > 1 && $0.hasPrefix("-") }) {
      // Never a file named after a mistyped option (`todo recover --verbose`).
      throw .unknownOption(option, suggestion: nil)
    }
    guard let path = words.first, !path.isEmpty else {
      throw .missingArgument(command: CommandName.recover.rawValue, what: "the path of a new file to copy the tasks into")
    }
    if words.count > 1 { throw .unexpectedArgument(command: CommandName.recover.rawValue, word: words[1]) }
    return .recover(path)
  }
}
