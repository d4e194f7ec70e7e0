import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// How a reminder reaches the user (`remind.notify`, several comma-separated):
/// - `desktop`: a freedesktop notification (`org.freedesktop.Notifications` on the session
///   D-Bus), through `notify-send` (libnotify-bin) or else `gdbus` (libglib2.0-bin);
/// - `terminal`: a line on the standard output of the `todo remind` that delivers it (a
///   `--watch` in a terminal or a tmux pane);
/// - `command`: the program `remind.command` names, given the reminder as JSON on its standard
///   input, under the hooks' rules (not writable by others, `hooks.timeout`).
///
/// A reminder counts as delivered when one of them took it.
struct ReminderDelivery {
  enum Channel: String, CaseIterable {
    case desktop, terminal, command
  }

  /// Notifications waiting for an answer (`--watch` only): notify-send with the actions Done and
  /// Snooze stays until the notification is closed, printing the action chosen.
  final class Answers: @unchecked Sendable {
    struct Waiting {
      var pid: pid_t
      var descriptor: Int32
      var taskID: Int64
      var output: [UInt8] = []
    }

    var waiting: [Waiting] = []

    /// The answers of the notifications closed since the last call: task id, action (empty when
    /// closed without one).
    func finished() -> [(taskID: Int64, action: String)] {
      var answers: [(Int64, String)] = []
      var index = 0
      while index < waiting.count {
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
          let count = chunk.withUnsafeMutableBytes { read(waiting[index].descriptor, $0.baseAddress, $0.count) }
          guard count > 0 else { break }
          waiting[index].output += chunk[0..<count]
        }
        var status: Int32 = 0
        if waitpid(waiting[index].pid, &status, WNOHANG) == waiting[index].pid {
          close(waiting[index].descriptor)
          let item = waiting.remove(at: index)
          answers.append((item.taskID, String(decoding: item.output, as: UTF8.self).trimmingWhitespace()))
        } else {
          index += 1
        }
      }
      return answers
    }
  }

  let channels: [Channel]
  /// Non-nil in `--watch`: desktop notifications carry Done and Snooze.
  let answers: Answers?
  let environment: [String: String]
  let timeout: Double
  let program: String?
  let output: OutputStream
  /// The looks of dates: each delivery writes them as of its own time (a watch runs for days).
  let looks: TaskText
  let path: String
  /// Terminal lines are written in human output only: with `--json` the JSON names what was delivered.
  let writesLines: Bool

  init(runner: CommandRunner, answering: Bool = false) throws(CommandFailure) {
    answers = answering ? Answers() : nil
    let configured = runner.configuration.value("remind.notify")
    var channels: [Channel] = []
    for word in configured.split(separator: ",").map({ String($0).trimmingWhitespace().lowercased() }) where !word.isEmpty {
      guard let channel = Channel(rawValue: word) else {
        let meant = closestMatch(to: word, in: Channel.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
        throw .usage(.invalid("remind.notify has '\(word)'\(meant): use desktop, terminal or command, comma-separated"))
      }
      if !channels.contains(channel) { channels.append(channel) }
    }
    guard !channels.isEmpty else { throw .usage(.invalid("remind.notify is empty: use desktop, terminal or command, comma-separated")) }
    self.channels = channels
    var environment = Terminal.childEnvironment(runner.session.environment)
    // A timer or cron job may run without the session's bus address; the user's bus is at the
    // usual place when a desktop session (or systemd --user) runs.
    if environment["DBUS_SESSION_BUS_ADDRESS"] == nil {
      let bus = "/run/user/\(getuid())/bus"
      if FileSystem.exists(bus) { environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + bus }
    }
    self.environment = environment
    path = runner.session.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    timeout = runner.configuration.hookTimeout
    output = runner.output
    writesLines = runner.format == .human
    looks = runner.text
    if channels.contains(.command) {
      var command = runner.configuration.value("remind.command").trimmingWhitespace()
      if command.hasPrefix("~/"), let home = runner.session.environment["HOME"] { command = home + command.dropFirst(1) }
      guard !command.isEmpty else { throw .usage(.invalid("remind.notify has 'command' but remind.command names no program")) }
      guard let found = Subprocess.find(command, path: path) else {
        throw .environment("remind.command '\(command)' is not an executable program")
      }
      if let problem = FileSystem.changeableByOthers(found, kind: "remind.command") { throw .environment(problem) }
      program = found
    } else {
      program = nil
    }
  }

  /// Dates as of `now`, in the configuration's looks.
  func text(at now: Int64) -> TaskText {
    var text = TaskText(now: now, color: false)
    text.palette = looks.palette
    text.dateFormat = looks.dateFormat
    return text
  }

  /// Delivers one reminder through every channel; it counts as delivered when one took it.
  func deliver(_ item: ScheduledReminder, now: Int64) -> (delivered: Bool, problems: [String]) {
    var delivered = false
    var problems: [String] = []
    for channel in channels {
      let problem: String?
      switch channel {
      case .desktop: problem = notify(item, now: now)
      case .terminal:
        if writesLines {
          output.write(terminalLine(item, now: now) + "\n")
          output.flush()
        }
        problem = nil
      case .command: problem = runCommand(item, now: now)
      }
      if let problem { problems.append(problem) } else { delivered = true }
    }
    return (delivered, problems)
  }

  /// The notification's summary: the title, marked when the reminder was missed.
  func summary(_ item: ScheduledReminder) -> String {
    (item.outcome == .late ? "Missed: " : "") + Self.plain(item.task.title)
  }

  /// The notification's body: when it was for, the due date, the project, the task's id.
  func body(_ item: ScheduledReminder, now: Int64) -> String {
    let text = text(at: now)
    var lines: [String] = []
    if item.outcome == .late { lines.append("Reminder for \(text.describe(instant: item.fire))") }
    if let due = item.task.due { lines.append("Due \(text.describe(due)) (\(text.relative(due, past: .overdue)))") }
    if let project = item.task.project { lines.append("Project \(Self.plain(project))") }
    lines.append("Task \(item.task.id) · todo show \(item.task.id)")
    return lines.joinedText("\n")
  }

  func terminalLine(_ item: ScheduledReminder, now: Int64) -> String {
    sanitizedForTerminal("Reminder: " + summary(item) + " — " + body(item, now: now).replacing("\n", with: "; "))
  }

  /// Text without control characters (a notification shows no escapes).
  static func plain(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0 }))
  }

  /// A notification body may be read as markup: `&`, `<`, `>` are written as entities.
  static func escapedMarkup(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
  }

  private func notify(_ item: ScheduledReminder, now: Int64) -> String? {
    let arguments: [String]
    if let answers, let notifySend = Subprocess.find("notify-send", path: path) {
      let command = [
        notifySend, "--app-name=todo", "--urgency=normal", "--action=done=Done", "--action=snooze=Snooze", "--", summary(item),
        Self.escapedMarkup(body(item, now: now)),
      ]
      return waitForAnswer(command, taskID: item.task.id, into: answers)
    } else if let notifySend = Subprocess.find("notify-send", path: path) {
      arguments = [notifySend, "--app-name=todo", "--urgency=normal", "--", summary(item), Self.escapedMarkup(body(item, now: now))]
    } else if let gdbus = Subprocess.find("gdbus", path: path) {
      arguments = [
        gdbus, "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
        // After `--`, a summary or a timeout that starts with '-' is not read as an option.
        "--method", "org.freedesktop.Notifications.Notify", "--", "'todo'", "uint32 0", "''", Self.variantString(summary(item)),
        Self.variantString(Self.escapedMarkup(body(item, now: now))), "@as []", "@a{sv} {}", "int32 -1",
      ]
    } else {
      return "desktop notifications need notify-send (Debian: libnotify-bin) or gdbus (libglib2.0-bin)"
    }
    switch ChildProcess.run(arguments, environment: environment, input: [], timeout: timeout) {
    case .failure(let error): return "\(arguments[0]) could not start: \(error.reason)"
    case .success(let outcome) where outcome.timedOut: return "\(arguments[0]) ran longer than \(ConfigKey.number(timeout))s"
    case .success(let outcome) where outcome.status != 0:
      let said = String(decoding: outcome.errors + outcome.output, as: UTF8.self).trimmingWhitespace()
      return "\(arguments[0]) failed (exit \(outcome.status))" + (said.isEmpty ? "" : ": " + Self.plain(String(said.prefix(300))))
    case .success: return nil
    }
  }

  /// Starts notify-send with actions, its output read later (`Answers.finished`); the problem
  /// when it cannot start.
  private func waitForAnswer(_ command: [String], taskID: Int64, into answers: Answers) -> String? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return "cannot make a pipe for notify-send" }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    posix_spawn_file_actions_addclose(&actions, ends[1])
    let spawned = Subprocess.spawn(command, environment: environment, actions: &actions, attributes: nil)
    posix_spawn_file_actions_destroy(&actions)
    close(ends[1])
    guard case .success(let pid) = spawned else {
      close(ends[0])
      if case .failure(let problem) = spawned { return "\(command[0]) could not start: \(problem.reason)" }
      return "\(command[0]) could not start"
    }
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    answers.waiting.append(Answers.Waiting(pid: pid, descriptor: ends[0], taskID: taskID))
    return nil
  }

  /// A GVariant text string: `'it''s'` is not it; backslash escapes are.
  static func variantString(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  /// The reminder as JSON, for `command`.
  func json(_ item: ScheduledReminder, now: Int64) -> String {
    var writer = JSONWriter(format: .compact)
    writer.object { json in
      json.field("id", Int(item.task.id))
      json.field("uuid", item.task.uuid)
      json.field("title", item.task.title)
      json.field("reminder", item.reminder.text)
      json.field("at", Timestamp.rfc3339(item.fire))
      json.field("delivered", Timestamp.rfc3339(now))
      json.field("missed", item.outcome == .late)
      json.field("due", item.task.due?.text)
      json.field("project", item.task.project)
      json.field("tags", item.task.tags)
      json.field("summary", summary(item))
      json.field("body", body(item, now: now))
    }
    writer.endLine()
    return writer.text
  }

  private func runCommand(_ item: ScheduledReminder, now: Int64) -> String? {
    guard let program else { return "remind.command names no program" }
    let input = Array(json(item, now: now).utf8)
    switch ChildProcess.run([program], environment: environment, input: input, timeout: timeout) {
    case .failure(let error): return "remind.command could not start: \(error.reason)"
    case .success(let outcome) where outcome.timedOut:
      return "remind.command ran longer than \(ConfigKey.number(timeout))s (hooks.timeout) and was stopped"
    case .success(let outcome) where outcome.status != 0:
      let said = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace()
      return "remind.command failed (exit \(outcome.status))" + (said.isEmpty ? "" : ": " + Self.plain(String(said.prefix(300))))
    case .success: return nil
    }
  }
}
