import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `todo diag` (and `todo --version --verbose`), Taskwarrior's `task diagnostics`: what a bug
/// report needs. It only reads: a database that does not exist is not made.
extension CommandRunner {
  func diag() throws(CommandFailure) {
    let environment = session.environment
    let database = FileSystem.databasePath(option: invocation.options.databasePath, environment: environment)?.path
    let exists = session.databaseExists(path: invocation.options.databasePath)
    let facts = try perform(TodoStore.diagnostics(), access: exists ? .read : .dryRun)
    let config = Configuration.filePath(environment: environment)
    let hooks = Configuration.hooksFolder(environment: environment)
    let hookCount = hooks.flatMap { folder in try? FileSystem.files(in: folder, endingIn: "").get() }?.filter { $0.hasPrefix("on-") }.count
    let folders = syncFolders
    let history = FileSystem.historyPath(environment: environment)
    var system = utsname()
    uname(&system)
    let platform = withUnsafeBytes(of: system.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } + " "
      + withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    switch format {
    case .human:
      var rows: [(String, String)] = [("Version", Version.line), ("Platform", platform), ("SQLite", facts.sqliteVersion)]
      let databaseState =
        exists
        ? "schema \(facts.schemaVersion) (this todo makes \(facts.latestSchemaVersion)), \(facts.tasks) tasks, "
          + "\(facts.pending) pending, \(facts.journalEntries) undo steps" : "not made yet"
      rows.append(("Database", (database ?? "(no HOME)") + "\n  " + String(repeating: " ", count: 10) + databaseState))
      rows.append(("Config", (config ?? "(no HOME)") + (config.map(FileSystem.exists) == true ? "" : " (none)")))
      rows.append(("Hooks", (hooks ?? "(no HOME)") + (hookCount.map { " (\($0) hook\($0 == 1 ? "" : "s"))" } ?? " (none)")))
      rows.append(("Vdir", folders?.vdir ?? "(no HOME)"))
      rows.append(("vdirsyncer", folders?.vdirsyncerConfig ?? "(no HOME)"))
      rows.append(("History", history ?? "(no HOME)"))
      rows.append(("JSON", "schema version \(Version.jsonSchema)"))
      for (label, value) in rows {
        output.write(label.padding(toWidth: 12) + sanitizedLinesForTerminal(value) + "\n")
      }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("version", Version.current)
          json.field("commit", Version.commit)
          json.field("schema_version", Version.jsonSchema)
          json.field("platform", platform)
          json.field("sqlite_version", facts.sqliteVersion)
          json.key("database")
          json.object { json in
            json.field("path", database)
            json.field("exists", exists)
            json.field("schema_version", exists ? facts.schemaVersion : nil)
            json.field("latest_schema_version", facts.latestSchemaVersion)
            json.field("tasks", facts.tasks)
            json.field("pending", facts.pending)
            json.field("journal_entries", facts.journalEntries)
          }
          json.field("config", config)
          json.field("config_exists", config.map(FileSystem.exists) ?? false)
          json.field("hooks", hooks)
          json.field("hook_count", hookCount ?? 0)
          json.field("vdir", folders?.vdir)
          json.field("vdirsyncer_config", folders?.vdirsyncerConfig)
          json.field("history", history)
        }
      }
    }
  }
}
