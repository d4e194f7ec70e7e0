import TodoCore
import TodoSystem

/// When a change asks "Delete 18 tasks? [y/N]" before it writes, and how the question looks.
///
/// A change asks on a terminal when it would change more than `threshold` tasks selected by a
/// filter or a range, or more than one task selected by search words (the easiest selection to
/// get wrong: `todo done -- 3` matches every task whose text holds a 3). Tasks named one by one
/// (`todo done 3 4 5 6`) never ask: each was typed on purpose. `--yes` answers yes; without a
/// terminal on standard input the change goes ahead (scripts; `todo undo` is there).
///
/// ```swift
/// Confirmation.isNeeded(for: filter, changing: 18)  // true for `delete e`
/// ```
enum Confirmation {
  /// The most tasks a filter or range may change without a question, unless the configuration
  /// says otherwise (`confirmation.threshold`).
  static let threshold = 3
  /// How many of the tasks the question lists before "… and N more".
  static let listed = 5

  /// Whether changing `count` tasks selected by `filter` needs a yes first.
  static func isNeeded(for filter: TodoFilter, changing count: Int, threshold: Int = threshold) -> Bool {
    var idsOnly = TodoFilter()
    idsOnly.references = filter.references
    idsOnly.defaultStatus = filter.defaultStatus
    let namedOneByOne =
      filter == idsOnly
      && filter.references.allSatisfy { reference in
        if case .range = reference { return false }
        return true
      }
    if namedOneByOne { return false }
    if !filter.words.isEmpty && count > 1 { return true }
    return count > threshold
  }

  /// The question, after a list of the first few tasks: `Delete 18 tasks? [y/N] `.
  static func question(verb: ChangeVerb, tasks: [Todo]) -> String {
    var text = ""
    for todo in tasks.prefix(listed) {
      text += "  \(todo.id)  \(sanitizedForTerminal(todo.title))\n"
    }
    if tasks.count > listed { text += "  … and \(tasks.count - listed) more\n" }
    return text + "\(verb.question) \(tasks.count) tasks? [y/N] "
  }

  /// Whether an answer is yes: `y` or `yes`, in any case; anything else (an empty line, the end
  /// of input) is no.
  static func isYes(_ answer: String?) -> Bool {
    guard let answer else { return false }
    let word = answer.trimmingWhitespace().lowercased()
    return word == "y" || word == "yes"
  }
}

/// The words a change is reported with: `Deleted`, `Would delete`, `Delete 18 tasks?`.
enum ChangeVerb: Sendable, Equatable {
  case add, update, complete, reopen, delete, note, removeNote, log, duplicate, start, stop, purge

  /// `Deleted task 4: …`
  var past: String {
    switch self {
    case .add, .duplicate: "Added"
    case .update: "Updated"
    case .complete: "Completed"
    case .reopen: "Reopened"
    case .delete: "Deleted"
    case .note: "Noted"
    case .removeNote: "Removed a note from"
    case .log: "Logged"
    case .start: "Started"
    case .stop: "Stopped"
    case .purge: "Purged"
    }
  }

  /// `Delete 18 tasks?`
  var question: String {
    switch self {
    case .add, .duplicate: "Add"
    case .update: "Update"
    case .complete: "Complete"
    case .reopen: "Reopen"
    case .delete: "Delete"
    case .note: "Note"
    case .removeNote: "Remove a note from"
    case .log: "Log"
    case .start: "Start"
    case .stop: "Stop"
    case .purge: "Purge"
    }
  }

  /// `Would delete task 4: …` (a dry run).
  var conditional: String { "Would " + question.lowercased() }
}

extension String {
  /// The string without leading and trailing white space (no Foundation).
  func trimmingWhitespace() -> String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}
