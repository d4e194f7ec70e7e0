import TodoCore

/// The text form of a task that `todo edit` opens in the editor, and the reading of it back
/// into the words of an `update` (so what is typed there is checked exactly as on the command
/// line) and the note changes.
///
/// ```text
/// title: Ship release
/// priority: H
/// project: work.q4
/// tags: release urgent
/// due: 2026-11-27
/// client: acme
/// note 1: ask Ann about the changelog
/// note: a new note
/// ```
///
/// Only fields whose text changed become words: an untouched date is never read again (and so
/// never moves by a rounding of its minutes).
struct TaskEditForm {
  /// The fields, in the order the form shows them.
  static let fields = ["title", "priority", "project", "tags", "due", "wait", "scheduled", "until", "remind", "recur", "parent", "depends"]

  let todo: Todo
  /// The user-defined attributes the configuration defines (one line each, after the fields),
  /// with the task's values as stored (nil: none).
  var attributes: [(attribute: UserAttribute, stored: String?)] = []

  /// The fields and then the attributes, in the order the form shows them.
  var allFields: [String] { Self.fields + attributes.map(\.attribute.name) }

  /// The form's text: a header of comments, one `field: value` line per field, then the notes.
  func text(error: String? = nil) -> String {
    var lines: [String] = []
    if let error {
      lines.append("# ERROR: \(Self.oneLine(error))")
      lines.append("# Fix the line and save again; save the file unchanged or empty to give up.")
    }
    lines += [
      "# todo edit: task \(todo.id) (\(todo.uuid)), \(todo.status.rawValue).",
      "# Change the values after the colons; an empty value clears the field. Dates take any",
      "# form 'todo date' reads. Lines starting with # are left out. Saving the file unchanged,",
      "# or empty, changes nothing.",
    ]
    for field in allFields { lines.append("\(field): \(value(field))") }
    lines.append("# Notes: edit a 'note N:' line to change that note, delete it to remove the note,")
    lines.append("# add 'note:' lines for new notes. '\\n' in a note is a line break, '\\\\' a backslash.")
    for (index, note) in todo.notes.enumerated() { lines.append("note \(index + 1): \(Self.escaped(note.text))") }
    return lines.joinedText("\n") + "\n"
  }

  /// A field's value as the form shows it.
  func value(_ field: String) -> String {
    switch field {
    case "title": return Self.oneLine(todo.title)
    case "priority": return todo.priority?.rawValue ?? ""
    case "project": return todo.project ?? ""
    case "tags": return todo.tags.sorted().joinedText(" ")
    case "due": return Self.dateText(todo.due)
    case "wait": return Self.dateText(todo.wait)
    case "scheduled": return Self.dateText(todo.scheduled)
    case "until": return Self.dateText(todo.until)
    case "remind": return todo.reminders.map(\.text).joinedText(", ")
    case "recur": return todo.series.flatMap { $0.ended == nil ? "\($0.rule)" : nil } ?? ""
    case "parent": return todo.parentID.map(String.init) ?? ""
    case "depends": return todo.depends.map { String($0.id) }.joinedText(" ")
    default:
      guard let entry = attributes.first(where: { $0.attribute.name == field }) else { return "" }
      return entry.stored.map { Self.oneLine(entry.attribute.shown($0)) } ?? ""
    }
  }

  /// What the edited text asks for: the words of `update ID …` (attributes and `--title`), and
  /// the note changes. Nil when nothing changed.
  func changes(in text: String) throws(UsageError) -> (words: [String], edited: [NoteEdit], removed: [Int], added: [String])? {
    var values: [String: String] = [:]
    var numbered: [Int: String] = [:]
    var unchangedNotes: Set<Int> = []
    var added: [String] = []
    for (index, raw) in Self.lines(of: text).enumerated() {
      let line = String(raw)
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      func fail(_ reason: String) -> UsageError { .invalid("line \(index + 1): \(reason)") }
      guard let colon = line.firstIndex(of: ":") else {
        throw fail("expected 'field: value', not '\(trimmed)'")
      }
      let name = String(line[..<colon]).trimmingWhitespace()
      // A note's text is taken as it stands after `: ` (its spaces are part of it); a field's
      // value is trimmed.
      var raw = String(line[line.index(after: colon)...])
      if raw.hasPrefix(" ") { raw.removeFirst() }
      let value = raw.trimmingWhitespace()
      if name == "note" {
        guard !value.isEmpty else { continue }
        added.append(try Self.unescaped(raw, line: index + 1))
      } else if name.hasPrefix("note ") {
        guard let number = Int(String(name.dropFirst(5)).trimmingWhitespace()), number >= 1, number <= todo.notes.count else {
          throw fail(
            "'\(name)': the task has \(todo.notes.count == 0 ? "no notes" : "notes 1 to \(todo.notes.count)"); new notes go on 'note:' lines")
        }
        guard numbered[number] == nil else { throw fail("note \(number) is given twice") }
        if raw == Self.escaped(todo.notes[number - 1].text) { unchangedNotes.insert(number) }
        numbered[number] = try Self.unescaped(raw, line: index + 1)
      } else if allFields.contains(name) {
        guard values[name] == nil else { throw fail("'\(name)' is given twice") }
        values[name] = value
      } else {
        let meant = closestMatch(to: name, in: allFields + ["note"]).map { " (did you mean '\($0)'?)" } ?? ""
        throw fail("'\(name)' is not a field\(meant)")
      }
    }
    var words: [String] = []
    for field in allFields {
      guard let value = values[field], value != self.value(field) else { continue }
      switch field {
      case "title":
        guard !value.isEmpty else { throw .invalid("the title cannot be empty (delete the task with 'todo delete \(todo.id)')") }
        words += ["--title", value]
      case "tags":
        let old = Set(todo.tags)
        let new = value.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.hasPrefix("+") ? String($0.dropFirst()) : String($0) }
        words += new.filter { !old.contains($0) }.map { "+" + $0 }
        words += todo.tags.filter { !new.contains($0) }.map { "-" + $0 }
      case "depends":
        let old = todo.depends.map { String($0.id) }
        let new = value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let changes = new.filter { !old.contains($0) } + old.filter { !new.contains($0) }.map { "-" + $0 }
        if !changes.isEmpty { words.append("depends:" + changes.joinedText(",")) }
      case "priority": words.append("pri:" + value)
      default: words.append(field + ":" + value)
      }
    }
    var edited: [NoteEdit] = []
    var removed: [Int] = []
    for (index, note) in todo.notes.enumerated() {
      if unchangedNotes.contains(index + 1) { continue }
      if let text = numbered[index + 1] {
        if text.trimmingWhitespace().isEmpty {
          removed.append(index + 1)
        } else if text != note.text {
          edited.append(NoteEdit(number: index + 1, text: text))
        }
      } else {
        removed.append(index + 1)
      }
    }
    if words.isEmpty && edited.isEmpty && removed.isEmpty && added.isEmpty { return nil }
    return (words, edited, removed, added)
  }

  /// A date as the form shows it, in a form the date reader reads back: `2026-11-27`, or the
  /// local `2026-11-27 17:00`.
  static func dateText(_ date: TaskDate?) -> String {
    switch date {
    case nil: return ""
    case .day(let day)?: return day.description
    case .instant(let instant)?:
      let parts = Timestamp.localDescription(instant).split(separator: " ")
      return parts.count >= 2 ? "\(parts[0]) \(parts[1])" : Timestamp.rfc3339(instant)
    }
  }

  /// The lines of a text, whether they end in `\n` or `\r\n` (one Character in Swift).
  static func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
  }

  /// Text on one line: backslashes doubled; line breaks, carriage returns and tabs as `\n`,
  /// `\r` and `\t`.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func oneLine(_ text: String) -> String {
    text.replacing("\r\n", with: " ").replacing("\n", with: " ")
  }

  private static func unescaped(_ text: String, line: Int) throws(UsageError) -> String {
    var result = ""
    var escaping = false
    for character in text {
      if escaping {
        switch character {
        case "n": result.append("\n")
        case "r": result.unicodeScalars.append("\r")
        case "t": result.append("\t")
        case "\\": result.append("\\")
        default: throw .invalid("line \(line): '\\\(character)' is not an escape ('\\n' is a line break, '\\t' a tab, '\\\\' a backslash)")
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    if escaping { result.append("\\") }
    return result
  }
}
