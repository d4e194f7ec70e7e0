import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `remind --watch` (stays running) and `remind --install`/`--uninstall` (a systemd user timer
/// that runs `remind --check` every minute, or the crontab line that does).
extension CommandRunner {
  /// Stays running: delivers each reminder when its time comes, and looks again at once when
  /// another process changes the database (a `todo add … remind:now+1min` in another terminal,
  /// a sync). Sleeps in quarter seconds, looking only at the database file's stamp.
  func watchReminders() throws(CommandFailure) {
    // It runs for days: its file is read without the memory map, so that a read error stays an
    // error it reports and goes on from (a mapped page would end it with SIGBUS).
    session.staysOpen()
    let delivery = try ReminderDelivery(runner: self, answering: true)
    let policy = try reminderPolicy()
    guard let (path, _) = FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment) else {
      throw .environment("no database path: set HOME, XDG_DATA_HOME or TODO_DB, or give --db")
    }
    if format == .human {
      output.write("Watching the reminders of \(path); Ctrl-C stops.\n")
      output.flush()
    }
    var seen = ""
    var wake: Int64 = 0
    while true {
      let current = session.now()
      // Done or Snooze chosen on a notification.
      for answer in delivery.answers?.finished() ?? [] where !answer.action.isEmpty {
        answerNotification(taskID: answer.taskID, action: answer.action, at: current)
      }
      let stamp = Self.stamp(of: path)
      if stamp != seen || current >= wake {
        do throws(CommandFailure) {
          let result = try deliverDue(now: current, policy: policy, delivery: delivery)
          for item in result.delivered {
            switch format {
            case .human: output.write("\(text.describe(instant: current)) delivered the reminder of task \(item.task.id)\n")
            case .json, .jsonLines: output.write(delivery.json(item, now: current))
            }
          }
          output.flush()
          wake = try perform(TodoStore.nextWake(after: current, policy: policy), access: .read)
        } catch {
          // A reminder that could not be shown is tried again at the next wake; the watch goes on.
          session.standardError.write("todo: \(error.message)\n")
          session.standardError.flush()
          wake = current + 60
        }
        // Our own writes are not another process's.
        seen = Self.stamp(of: path)
      }
      usleep(250_000)
    }
  }

  /// Does what a notification's action asks: Done completes the task, Snooze makes it ring again
  /// after `remind.snooze`. Each is an undo step, named as the command line it stands for.
  private func answerNotification(taskID: Int64, action: String, at current: Int64) {
    let length = UserAttribute.seconds(configuration.value("remind.snooze")) ?? 600
    var filter = TodoFilter()
    filter.references = [.id(taskID)]
    do throws(CommandFailure) {
      switch action {
      case "done":
        _ = try perform(TodoStore.complete(filter, now: current, command: "done \(taskID)"), access: .write)
        output.write("\(text.describe(instant: current)) task \(taskID) is done (from its notification)\n")
      case "snooze":
        _ = try perform(
          TodoStore.snooze(.id(taskID), until: current + length, now: current, command: "remind snooze \(taskID)"), access: .write)
        output.write("\(text.describe(instant: current)) task \(taskID) snoozed until \(text.describe(instant: current + length))\n")
      default: return
      }
      output.flush()
    } catch {
      session.standardError.write("todo: \(error.message)\n")
      session.standardError.flush()
    }
  }

  /// The database file's and its log's modification times and sizes.
  private static func stamp(of path: String) -> String {
    (FileSystem.stamp(path) ?? "-") + " " + (FileSystem.stamp(path + "-wal") ?? "-")
  }

  // MARK: - the timer

  static let timerMarker = "# Written by 'todo remind --install'; 'todo remind --uninstall' removes it."

  /// The folder of the user's systemd units.
  private func unitFolder() throws(CommandFailure) -> String {
    guard let config = FileSystem.xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", environment: session.environment) else {
      throw .environment("cannot tell where the user's configuration is: set HOME or XDG_CONFIG_HOME")
    }
    return config + "/systemd/user"
  }

  /// The command the timer (or cron) runs: this program, by its full path, and the settings
  /// that make it use this database and this configuration (a timer or cron job has none of the
  /// shell's variables): `TODO_DB` always, `TODO_CONFIG` and `XDG_CONFIG_HOME` when set.
  private func checkCommand() throws(CommandFailure) -> (program: String, environment: [(String, String)]) {
    guard let program = Subprocess.ownPath() else { throw .environment("cannot tell this program's own path (/proc/self/exe)") }
    guard let (database, _) = FileSystem.databasePath(option: invocation.options.databasePath, environment: session.environment) else {
      throw .environment("no database path: set HOME, XDG_DATA_HOME or TODO_DB, or give --db")
    }
    func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : Self.workingDirectory() + "/" + path }
    var environment = [("TODO_DB", absolute(database))]
    for name in ["TODO_CONFIG", "XDG_CONFIG_HOME"] {
      if let value = session.environment[name], !value.isEmpty { environment.append((name, absolute(value))) }
    }
    return (program, environment)
  }

  private static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A value in a unit file: `%` doubled (specifiers) and, on an `ExecStart=` line, `$` too
  /// (variables; `Environment=` expands none), quoted when it holds a space or a quote.
  static func unitQuoted(_ text: String, command: Bool = false) -> String {
    var escaped = text.replacing("\\", with: "\\\\").replacing("%", with: "%%")
    if command { escaped = escaped.replacing("$", with: "$$") }
    guard escaped.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\t" }) else { return escaped }
    return "\"" + escaped.replacing("\"", with: "\\\"") + "\""
  }

  /// A word in a crontab line, quoted for `/bin/sh` (and `%`, which cron reads as a newline).
  static func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:=,@".contains($0)) }
    let quoted = safe ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    return quoted.replacing("%", with: "\\%")
  }

  func timerUnits(program: String, environment: [(String, String)]) -> (service: String, timer: String) {
    var service = [
      Self.timerMarker, "[Unit]", "Description=Deliver the reminders of todo whose time has come", "",
      "[Service]", "Type=oneshot",
    ]
    for (name, value) in environment { service.append("Environment=" + Self.unitQuoted(name + "=" + value)) }
    service.append("ExecStart=" + Self.unitQuoted(program, command: true) + " remind --check")
    let timer = [
      Self.timerMarker, "[Unit]", "Description=Check the reminders of todo every minute", "",
      "[Timer]", "OnCalendar=*-*-* *:*:00", "AccuracySec=1s",
      "# A check missed while the machine was off runs when it is back (missed reminders come late, not never).",
      "Persistent=true", "", "[Install]", "WantedBy=timers.target",
    ]
    return (service.joinedText("\n") + "\n", timer.joinedText("\n") + "\n")
  }

  func cronLine(program: String, environment: [(String, String)]) -> String {
    let prefix = environment.map { $0.0 + "=" + Self.shellQuoted($0.1) + " " }.joined()
    return "* * * * * " + prefix + Self.shellQuoted(program) + " remind --check"
  }

  func installReminderTimer(cron: Bool) throws(CommandFailure) {
    let (program, environment) = try checkCommand()
    let path = session.environment["PATH"] ?? "/usr/bin:/bin"
    let systemctl = Subprocess.find("systemctl", path: path)
    if cron || systemctl == nil {
      if !cron { output.write("systemd is not here (no systemctl): run the check from cron instead.\n") }
      output.write("Add this line with 'crontab -e':\n\n  \(cronLine(program: program, environment: environment))\n\n")
      output.write("Desktop notifications from cron need the session's bus: todo looks for it at /run/user/\(getuid())/bus.\n")
      return
    }
    let folder = try unitFolder()
    let units = timerUnits(program: program, environment: environment)
    let files = [(folder + "/todo-remind.service", units.service), (folder + "/todo-remind.timer", units.timer)]
    for (file, _) in files where FileSystem.exists(file) {
      guard case .success(let bytes) = FileSystem.readAll(file), String(decoding: bytes, as: UTF8.self).hasPrefix(Self.timerMarker) else {
        throw .environment("\(file) is there and was not written by todo: nothing was changed (remove or rename it first)")
      }
    }
    if invocation.options.dryRun {
      for (file, contents) in files { output.write("Would write \(file):\n\(contents)\n") }
      return
    }
    if let problem = FileSystem.createParentFolders(of: files[0].0) { throw .environment("cannot make \(folder): \(problem)") }
    for (file, contents) in files {
      if let problem = FileSystem.writeAtomically(Array(contents.utf8), to: file) { throw .environment("cannot write \(file): \(problem)") }
    }
    output.write("Wrote \(files[0].0)\nand \(files[1].0).\nStart the timer with:\n\n")
    output.write("  systemctl --user daemon-reload && systemctl --user enable --now todo-remind.timer\n\n")
    output.write("'todo remind --uninstall' removes both files.\n")
  }

  func uninstallReminderTimer() throws(CommandFailure) {
    let folder = try unitFolder()
    let link = folder + "/timers.target.wants/todo-remind.timer"
    var removed: [String] = []
    for file in [folder + "/todo-remind.timer", folder + "/todo-remind.service"] where FileSystem.exists(file) {
      guard case .success(let bytes) = FileSystem.readAll(file), String(decoding: bytes, as: UTF8.self).hasPrefix(Self.timerMarker) else {
        throw .environment("\(file) was not written by todo: it was left as it is")
      }
      removed.append(file)
    }
    // `systemctl --user enable` made this link to our timer; a link left behind would name a
    // unit that is gone.
    var target = [CChar](repeating: 0, count: 4096)
    let count = readlink(link, &target, target.count - 1)
    let linksToOurs = count > 0 && String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasSuffix("/todo-remind.timer")
    if linksToOurs { removed.append(link) }
    guard !removed.isEmpty else {
      output.write("Nothing to remove: there is no timer of todo in \(folder).\n")
      return
    }
    if invocation.options.dryRun {
      for file in removed { output.write("Would remove \(file)\n") }
      return
    }
    for file in removed {
      if let problem = FileSystem.remove(file) { throw .environment("cannot remove \(file): \(problem)") }
      output.write("Removed \(file)\n")
    }
    // Folders left empty go too (install may have made them); one with anything in it stays.
    for empty in [folder + "/timers.target.wants", folder, FileSystem.folder(of: folder)] { rmdir(empty) }
    output.write("If the timer was running, stop it with: systemctl --user daemon-reload && systemctl --user stop todo-remind.timer\n")
  }
}
