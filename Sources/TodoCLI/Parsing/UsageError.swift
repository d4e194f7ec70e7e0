/// The parser's failures: data first, words last (rendered by `UsageError.message`).
enum UsageError: Error, Equatable, Sendable {
  case unknownCommand(String, suggestion: String?)
  case unknownOption(String, suggestion: String?)
  case missingValue(option: String)
  case unexpectedValue(option: String)
  case badValue(option: String, value: String, reason: String)
  case badDate(expression: String, reason: String)
  /// A `due:` word whose date does not read; `asText` is the command that keeps it as title text.
  case badDateInWord(word: String, expression: String, reason: String, asText: String)
  case missingArgument(command: String, what: String)
  case unexpectedArgument(command: String, word: String)
  case unknownHelpTopic(String, suggestion: String?)
  case invalid(String)

  /// The one-line message after `todo: error: `.
  var message: String {
    switch self {
    case .unknownCommand(let word, _): "unknown command '\(word)'"
    case .unknownOption(let option, _): "unknown option '\(option)'"
    case .missingValue(let option): "option '\(option)' needs a value"
    case .unexpectedValue(let option): "option '\(option)' takes no value"
    case .badValue(let option, let value, let reason): "bad value '\(value)' for \(option): \(reason)"
    case .badDate(let expression, let reason), .badDateInWord(_, let expression, let reason, _):
      "cannot read the date '\(expression)': \(reason)"
    case .missingArgument(let command, let what): "'\(command)' needs \(what)"
    case .unexpectedArgument(let command, let word): "'\(command)' does not take '\(word)'"
    case .unknownHelpTopic(let topic, _): "no help on '\(topic)': it is not a command or a topic"
    case .invalid(let reason): reason
    }
  }

  /// A hint that helps, where there is one.
  var hint: String? {
    switch self {
    case .unknownCommand(let word, let suggestion):
      if let suggestion, !suggestion.isEmpty { return "did you mean '\(suggestion)'?" }
      if suggestion == "" {
        let base = String(word.prefix { $0 != "." })
        if let planned = TaskwarriorWords.plannedIn[base] {
          return "todo has no '\(word)' command yet: \(planned); 'todo help' lists the commands"
        }
        return "todo has no '\(word)' command yet; 'todo help' lists the commands"
      }
      return "to add a task, run: todo add \(word) …; see 'todo help' for the commands"
    case .unknownOption(_, let suggestion):
      if let suggestion { return "did you mean '\(suggestion)'?" }
      return "put '--' before words that start with '-' to keep them as text; see 'todo help'"
    case .unknownHelpTopic(_, let suggestion):
      if let suggestion { return "did you mean 'todo help \(suggestion)'?" }
      return "'todo help' lists the commands; topics: dates, filters, attributes, output, reports, hooks"
    case .badDateInWord(let word, _, _, let asText):
      return "if '\(word)' is title text, put -- before the words: \(asText); dates: see 'todo help dates'"
    case .badDate:
      return "try 2026-12-01, 2026-12-01T17:00, today, tomorrow, friday, +3d, 2w, 'in 3 days', eod, eow, eom; see 'todo help dates'"
    case .missingArgument(let command, _), .unexpectedArgument(let command, _):
      return "see 'todo help \(command)'"
    default:
      return nil
    }
  }
}
