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
    // Only read: the file's own schema version from its header (bytes 60-63 of an SQLite file),
    // the rest in a transaction rolled back, which neither upgrades nor changes the file. A file
    // that cannot be read (a newer todo's, another program's) is reported, not a failure.
    let header = database.flatMap { FileSystem.prefix(of: $0, count: 100) }
    let fileSchema = header.flatMap { bytes in
      bytes.count == 100 && bytes.starts(with: Array("SQLite format 3\u{0}".utf8))
        ? Int(bytes[60]) << 24 | Int(bytes[61]) << 16 | Int(bytes[62]) << 8 | Int(bytes[63]) : nil
    }
    var facts: DatabaseDiagnostics?
    var problem: String?
    do throws(CommandFailure) {
      facts = try perform(TodoStore.diagnostics(), access: .dryRun)
    } catch {
      problem = error.message
    }
    let config = Configuration.filePath(environment: environment)
    let hooks = Configuration.hooksFolder(environment: environment)
    let hookCount = hooks.flatMap { folder in try? FileSystem.files(in: folder, endingIn: "").get() }?.filter { $0.hasPrefix("on-") }.count
    let folders = syncFolders
    let history = FileSystem.historyPath(environment: environment)
    var system = utsname()
    uname(&system)
    let platform =
      withUnsafeBytes(of: system.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } + " "
      + withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    switch format {
    case .human:
      var rows: [(String, String)] = [("Version", Version.line), ("Platform", platform), ("SQLite", facts?.sqliteVersion ?? "?")]
      let counts = facts.map { "\($0.tasks) tasks, \($0.pending) pending, \($0.journalEntries) undo steps" }
      let databaseState =
        !exists
        ? "not made yet"
        : "schema \(fileSchema.map(String.init) ?? "?") (this todo makes \(Schema.latestVersion)), " + (counts ?? "cannot be read: \(problem ?? "")")
      rows.append(("Database", (database ?? "(no HOME)") + "\n  " + String(repeating: " ", count: 10) + databaseState))
      rows.append(("Config", config.map { $0 + (FileSystem.exists($0) ? "" : " (none)") } ?? "(no HOME)"))
      rows.append(("Hooks", hooks.map { $0 + (hookCount.map { " (\($0) hook\($0 == 1 ? "" : "s"))" } ?? " (none)") } ?? "(no HOME)"))
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
          json.field("sqlite_version", facts?.sqliteVersion)
          json.key("database")
          json.object { json in
            json.field("path", database)
            json.field("exists", exists)
            json.field("schema_version", exists ? fileSchema : nil)
            json.field("latest_schema_version", Schema.latestVersion)
            json.field("tasks", facts?.tasks)
            json.field("pending", facts?.pending)
            json.field("journal_entries", facts?.journalEntries)
            json.field("problem", problem)
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
