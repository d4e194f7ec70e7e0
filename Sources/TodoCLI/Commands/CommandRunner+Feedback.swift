import TodoCore
import TodoSystem

/// What Taskwarrior says after a change besides the change itself, on standard output: a task a
/// change took out of waiting (`Task 5 'Call' is no longer waiting.`), the tasks a completion or
/// deletion unblocked (`Unblocked task 3 'Deploy'.`) and how far their projects have come
/// (`Project home is 80% complete (1 of 5 tasks remaining).`). The `verbose` setting
/// turns them off (`off`, or Taskwarrior's `nothing`), or picks them (`project`, `unwait`).
extension CommandRunner {
  func showFeedback(after report: ChangeReport, verb: ChangeVerb) throws(CommandFailure) {
    guard format == .human else { return }
    if configuration.shows(feedback: "unwait") {
      let unwaited = Set(report.unwaited)
      for todo in report.tasks where unwaited.contains(todo.id) {
        output.write("Task \(todo.id) '\(sanitizedForTerminal(todo.title))' is no longer waiting.\n")
      }
    }
    guard verb == .complete || verb == .delete else { return }
    if configuration.shows(feedback: "unwait") {
      let waiting = Set(report.tasks.filter { $0.status != .pending }.flatMap(\.blocking)).subtracting(report.tasks.map(\.id))
      if !waiting.isEmpty {
        let todos = try perform(TodoStore.tasks(waiting.sorted().map { .id($0) }), access: .read)
        for todo in todos where todo.status == .pending && !todo.isBlocked {
          output.write("Unblocked task \(todo.id) '\(sanitizedForTerminal(todo.title))'.\n")
        }
      }
    }
    if configuration.shows(feedback: "project") {
      for project in Set(report.tasks.compactMap(\.project)).sorted() {
        let progress = try perform(TodoStore.projectProgress(project), access: .read)
        guard progress.total > 0 else { continue }
        let percent = (progress.total - progress.pending) * 100 / progress.total
        let remaining = progress.pending == 1 ? "1 of \(progress.total) tasks remaining" : "\(progress.pending) of \(progress.total) tasks remaining"
        output.write("Project \(sanitizedForTerminal(project)) is \(percent)% complete (\(remaining)).\n")
      }
    }
  }
}

extension Configuration {
  /// Whether `verbose` lets a kind of feedback through: on (the default) shows all, off and
  /// `nothing` none, a list (`project,unwait`, Taskwarrior's words) those it names.
  func shows(feedback kind: String) -> Bool {
    let text = value("verbose").lowercased().trimmingWhitespace()
    if let on = Configuration.toggle(text) { return on }
    if text == "nothing" || text.isEmpty { return false }
    return text.split(separator: ",").contains { String($0).trimmingWhitespace() == kind }
  }
}
