import TodoCore

/// todo.txt (one task a line), read and written.
///
/// - `x DONE [CREATED]` → done, completed at the local start of DONE; `(A)` `(B)` `(C)` → H, M, L;
///   `(D)`…`(Z)` are kept with the task (extra `priority`) and written back.
/// - The first `+project` → project; `@context` → tag `context` (and every tag is written as
///   `@tag`); `due:` → due, `t:` (threshold: hidden until then) → wait; `rec:1w` (counts from
///   completion in todo.txt) → `+1w`, `rec:+1w` (strict: from the due date) → `1w`; `pri:A` on
///   a done line → its priority; `uuid:` → the task's UUID (written on export so a round trip
///   keeps identities; a line without one gets a UUID derived from its text, so importing the same
///   file twice adds nothing twice); `status:deleted` marks a deleted task (todo.txt has none).
/// - Every other word (more `+projects`, `h:1`, any `key:value`) stays in the title's place: the
///   whole line is kept with the task, and an unchanged task is written back byte for byte. A
///   line made from a task's fields puts its `+project` first. A title with `+word`, `@word` or
///   `key:value` words of its own does not read back the same (todo.txt gives them meaning).
public enum TodoTxt {
  /// The longest line read as a task.
  public static let maximumLineBytes = 1_000_000

  /// A line that is not UTF-8, with what to do about it (Latin-1 is the usual other encoding).
  static let notUTF8 = "the line is not valid UTF-8 (a Latin-1 file? iconv -f latin1 -t utf-8 FILE > FILE.utf8 converts it)"

  public static func records(_ bytes: [UInt8], skipping: SkippedRecords? = nil) throws(InterchangeError) -> [TaskRecord] {
    var records: [TaskRecord] = []
    var lineNumber = 0
    var seen: [String: Int] = [:]
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count {
      lineNumber += 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var last = end
      if last > start, bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
      // A title is at most 100,000 bytes: a line ten times that is no task, and is refused before
      // it is made into text (a 100 MB line took half a minute and half a gigabyte to refuse).
      let (lineStart, lineEnd) = (start, last)
      start = end + 1
      guard lineEnd - lineStart <= maximumLineBytes else {
        try SkippedRecords.skip(
          InterchangeError(line: lineNumber, "the line is longer than 1,000,000 bytes; a task's line is far shorter"), in: skipping)
        continue
      }
      guard let text = String(validating: bytes[lineStart..<lineEnd], as: UTF8.self) else {
        try SkippedRecords.skip(InterchangeError(line: lineNumber, notUTF8), in: skipping)
        continue
      }
      if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      // The same line twice without `uuid:` (one chore done on two days) is two tasks.
      seen[text, default: 0] += 1
      do throws(InterchangeError) {
        records.append(try record(text, line: lineNumber, occurrence: seen[text] ?? 1))
      } catch {
        try SkippedRecords.skip(error, in: skipping)
      }
    }
    // Simpletask and todo.txt's rec add-on make a recurring task's next occurrence by copying its
    // line, `uuid:` and all, when they mark it done: the `x` line keeps the task's UUID, and the
    // pending copy is a new task (a UUID from its text, as a line without `uuid:` gets).
    let done = Set(records.filter { $0.todo.status == .done }.map(\.todo.uuid))
    for index in records.indices where records[index].todo.status == .pending && done.contains(records[index].todo.uuid) {
      let text = records[index].extras.first { $0.name == "line" }?.value ?? ""
      let uuid = RecordUUID.named("todo.txt:copy:" + text)
      records[index].todo.uuid = uuid
      records[index].todo.series?.uuid = RecordUUID.named("series:" + uuid)
    }
    return records
  }

  static func record(_ text: String, line: Int, occurrence: Int = 1) throws(InterchangeError) -> TaskRecord {
    var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    var todo = Todo()
    var extras: [TaskExtra] = []
    func fail(_ reason: String) -> InterchangeError { InterchangeError(line: line, reason) }
    if words.first == "x" {
      words.removeFirst()
      todo.status = .done
      // `x` without a date (todo.txt-cli's own tests write `x done`): done, when is not said; the
      // import takes the stored task's completion time, or now.
      // sleek keeps a done task's priority after the `x`: `x (C) 2023-07-03 2023-12-12 …`.
      if let first = words.first, first.count == 3, first.hasPrefix("("), first.hasSuffix(")"),
        let letter = first.dropFirst().first, letter.isASCII, letter.isUppercase,
        words.dropFirst().first.flatMap(CalendarDay.init(text:)) != nil
      {
        words.removeFirst()
        todo.priority = priority(letter, extras: &extras)
      }
      if let done = words.first.flatMap(CalendarDay.init(text:)) {
        words.removeFirst()
        todo.completed = done.start
      }
      // An app that keeps the priority when it marks a line done (`x DONE (A) …`).
      if todo.priority == nil, let first = words.first, first.count == 3, first.hasPrefix("("), first.hasSuffix(")"),
        let letter = first.dropFirst().first, letter.isASCII, letter.isUppercase
      {
        words.removeFirst()
        todo.priority = priority(letter, extras: &extras)
      }
    } else if let first = words.first, first.count == 3, first.hasPrefix("("), first.hasSuffix(")"),
      let letter = first.dropFirst().first, letter.isASCII, letter.isUppercase
    {
      words.removeFirst()
      todo.priority = priority(letter, extras: &extras)
    }
    if let created = words.first.flatMap(CalendarDay.init(text:)) {
      words.removeFirst()
      todo.created = created.start
    }
    var title: [String] = []
    var recur: RecurrenceRule?
    for word in words {
      if word.count > 1, word.hasPrefix("+"), todo.project == nil {
        todo.project = String(word.dropFirst())
      } else if word.count > 1, word.hasPrefix("@") {
        todo.tags.append(String(word.dropFirst()))
      } else if let colon = word.firstIndex(of: ":"), colon != word.startIndex, word.index(after: colon) != word.endIndex,
        !word[word.index(after: colon)...].contains(":")
      {
        let key = String(word[..<colon]), value = String(word[word.index(after: colon)...])
        switch key {
        case "due", "t":
          guard let day = CalendarDay(text: value) else { throw fail("\(key):\(value) is not a date (YYYY-MM-DD)") }
          if key == "due" { todo.due = .day(day) } else { todo.wait = .day(day) }
        case "rec":
          let strict = value.hasPrefix("+")
          let spelled = strict ? String(value.dropFirst()) : value
          // `b`: business days (weekdays); `m`: months.
          let word = spelled.hasSuffix("b") ? "weekdays" : spelled.hasSuffix("m") ? spelled + "o" : spelled
          // `rec:0d` (sleek's tests): no recurrence, as sleek reads it.
          if spelled.first == "0", spelled.dropFirst().allSatisfy({ $0 == "0" || $0.isLetter }) { continue }
          guard var rule = RecurrenceRule(parsing: word) else {
            throw fail("rec:\(value) is not a recurrence todo can repeat (1d, 2w, 1m, 1y, +1w)")
          }
          rule.afterCompletion = !strict
          recur = rule
        case "pri" where todo.status == .done && value.count == 1:
          todo.priority = priority(Character(value), extras: &extras)
        case "uuid": todo.uuid = value.lowercased()
        case "status" where value == "deleted": todo.status = .deleted
        default: title.append(word)
        }
      } else {
        title.append(word)
      }
    }
    todo.title = title.joinedText(" ").trimmingSpaces
    todo.tags = Array(Set(todo.tags)).sorted()
    if todo.uuid.isEmpty { todo.uuid = RecordUUID.named("todo.txt:" + (occurrence > 1 ? "\(occurrence):" : "") + text) }
    if todo.status == .deleted, todo.completed == nil { todo.completed = todo.created }
    // Without a creation date, `created` stays 0: the import gives a new task the time of the
    // import and keeps an existing task's.
    todo.modified = max(todo.created, todo.completed ?? 0)
    if let recur, todo.status == .pending {
      todo.series = SeriesLink(id: 0, uuid: RecordUUID.named("series:" + todo.uuid), index: 1, rule: recur, ended: nil)
      // `rec:` without `due:` (the rec add-on and Simpletask repeat such a line from when it is
      // done): the series counts from the line's creation day (or the import's), kept as the
      // scheduled date, which todo.txt does not write; without one it ended at its first completion.
      if todo.due == nil, todo.created > 0 { todo.scheduled = .day(CalendarDay.local(todo.created)) }
    }
    extras.append(TaskExtra(format: "todotxt", name: "line", value: text))
    return TaskRecord(todo: todo, extras: extras, line: line, partial: true)
  }

  private static func priority(_ letter: Character, extras: inout [TaskExtra]) -> Priority? {
    switch letter {
    case "A": return .high
    case "B": return .medium
    case "C": return .low
    default:
      extras.append(TaskExtra(format: "todotxt", name: "priority", value: String(letter)))
      return nil
    }
  }

  /// One task as a todo.txt line: the line it was imported from when the task has not changed
  /// since (with ` uuid:…` added when it had none), else a line made from its fields.
  /// `withID`: every line names its task by `uuid:`, so that a line another app changed (marked
  /// done, reworded) still finds its task on the next import; todo.txt-cli, Simpletask, sleek
  /// and topydo keep `key:value` words they do not know. Without it (`export --no-ids`), a line
  /// made here has none.
  public static func line(_ record: TaskRecord, withID: Bool = true) -> String {
    if let original = record.extras.first(where: { $0.format == "todotxt" && $0.name == "line" })?.value,
      let reread = try? Self.record(original, line: 0), sameFields(reread, record, lineHasUUID: original.contains("uuid:"))
    {
      guard withID && !original.contains("uuid:") else { return original }
      var trimmed = Substring(original)
      while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
      return trimmed + " uuid:" + record.todo.uuid
    }
    let todo = record.todo
    var words: [String] = []
    let letter = record.extras.first { $0.format == "todotxt" && $0.name == "priority" }?.value
    let priorityLetter = todo.priority.map { ["H": "A", "M": "B", "L": "C"][$0.rawValue] ?? "C" } ?? letter
    if todo.status != .pending {
      words.append("x")
      words.append(CalendarDay.local(todo.completed ?? todo.modified).description)
    } else if let priorityLetter {
      words.append("(\(priorityLetter))")
    }
    words.append(CalendarDay.local(todo.created).description)
    // The project before the title: the first `+word` of a line is the one read as the project.
    if let project = todo.project { words.append("+" + project) }
    words.append(todo.title)
    for tag in todo.tags { words.append("@" + tag) }
    if let due = todo.due { words.append("due:" + (due.dayText ?? CalendarDay.local(due.sortInstant).description)) }
    if let wait = todo.wait { words.append("t:" + (wait.dayText ?? CalendarDay.local(wait.sortInstant).description)) }
    if let series = todo.series, todo.status == .pending {
      let rule = series.rule
      let unit = rule.unit == .weekday ? "b" : rule.unit == .month ? "m" : rule.unit.rawValue
      words.append("rec:" + (rule.afterCompletion ? "" : "+") + "\(rule.unit == .weekday ? 1 : rule.count)" + unit)
    }
    if todo.status != .pending, let priorityLetter { words.append("pri:" + priorityLetter) }
    if todo.status == .deleted { words.append("status:deleted") }
    if withID { words.append("uuid:" + todo.uuid) }
    return words.joinedText(" ")
  }

  /// What a line says apart from its done mark, dates, priority and `uuid:`/`pri:` words, its
  /// words in order: a line another app marked done or gave a priority has the same words.
  public static func words(of line: String) -> [String] {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
    if words.first == "x" { words = words.dropFirst() }
    while let first = words.first, CalendarDay(text: first) != nil || (first.count == 3 && first.hasPrefix("(") && first.hasSuffix(")")) {
      words = words.dropFirst()
    }
    return words.filter { !$0.hasPrefix("uuid:") && !$0.hasPrefix("pri:") }
  }

  /// A line's words without its projects, contexts and `key:value` words: what was typed as text.
  static func textWords(_ words: [String]) -> [String] {
    words.filter { !($0.count > 1 && ($0.hasPrefix("+") || $0.hasPrefix("@"))) && !$0.dropFirst().contains(":") }
  }

  /// The stored task a line without `uuid:` is, when its task is not found by the line's own
  /// text: one whose line has the same words (marked done or given a priority elsewhere), or
  /// else whose words begin with this line's or this line's with its (text appended or cut
  /// elsewhere), when exactly one stored line and one incoming line fit. `stored`: the tasks'
  /// UUIDs and lines, of tasks no incoming line names.
  public static func matches(_ records: [TaskRecord], stored: [(uuid: String, line: String)]) -> [Int: String] {
    let storedWords = stored.map { words(of: $0.line) }
    var found: [Int: String] = [:]
    var taken: Set<Int> = []
    for rule in 0..<2 {
      var candidates: [Int: [Int]] = [:]
      for (index, record) in records.enumerated() where found[index] == nil {
        guard let line = record.extras.first(where: { $0.format == "todotxt" && $0.name == "line" })?.value, !line.contains("uuid:")
        else { continue }
        let mine = words(of: line)
        guard !mine.isEmpty else { continue }
        candidates[index] = storedWords.indices.filter { other in
          guard !taken.contains(other) else { return false }
          let theirs = storedWords[other]
          if rule == 0 { return theirs == mine }
          let (a, b) = (textWords(theirs), textWords(mine))
          let shorter = min(a.count, b.count)
          return shorter >= 2 && a != b && a.prefix(shorter) == b.prefix(shorter)
        }
      }
      // Unambiguous only: one stored line for the incoming one, and no other incoming line wants it.
      var wanted: [Int: Int] = [:]
      for (_, others) in candidates where others.count == 1 { wanted[others[0], default: 0] += 1 }
      for (index, others) in candidates.sorted(by: { $0.key < $1.key }) where others.count == 1 && wanted[others[0]] == 1 {
        found[index] = stored[others[0]].uuid
        taken.insert(others[0])
      }
    }
    return found
  }

  /// Whether a line read back gives the task as it is now (the fields todo.txt can hold).
  /// A line without `uuid:` gives a UUID of its text (and of its place among the same lines), and
  /// a done line without a date (`x done`) says nothing of when: neither is a difference.
  private static func sameFields(_ reread: TaskRecord, _ record: TaskRecord, lineHasUUID: Bool) -> Bool {
    let a = reread.todo, b = record.todo
    return a.title == b.title && a.status == b.status && a.priority == b.priority && a.project == b.project
      && a.tags == b.tags && a.due == b.due && a.wait == b.wait && (a.uuid == b.uuid || !lineHasUUID)
      && (a.completed.map(CalendarDay.local) == b.completed.map(CalendarDay.local) || (a.completed == nil && a.status == .done))
      && a.series?.rule == b.series?.rule
  }
}

extension String {
  var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
