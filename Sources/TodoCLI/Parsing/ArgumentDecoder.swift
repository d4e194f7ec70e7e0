import TodoCore

/// Decodes one command's arguments (after the command word) into a `Command`: attributes for
/// `add`/`update`, filter terms for `list` and the bulk commands. No word is ever dropped: a
/// word that is not an attribute or an option is title text, kept verbatim.
struct ArgumentDecoder {
  let command: CommandName
  let now: Int64
  /// Words that were kept as text although they look like a mistyped attribute or filter term.
  var warnings: [String] = []
  /// `limit:N` in a filter: how many tasks a list shows.
  var filterLimit: Int?
  /// `--series` was given (`update`, `delete`).
  var series = false
  /// The settings: the active context, the reports, the week's first day.
  let configuration: Configuration
  /// The report whose tasks a list shows (`list`, `next`, `waiting` or the configuration's).
  let report: String?
  /// The command's name as typed (`modify` for `update`), for messages.
  var spelling: String?
  /// The filter typed before the command (`todo +home done`), Taskwarrior's order.
  var leadingFilter: [Token]?
  /// The tasks a filter before `update`, `append` or `prepend` chose.
  var preselection: TodoFilter?

  /// The configuration's user-defined attributes (`uda.NAME.type`), by name.
  let userAttributes: [String: UserAttribute]

  init(command: CommandName, now: Int64, configuration: Configuration = .defaults, report: String? = nil) {
    self.command = command
    self.now = now
    self.configuration = configuration
    self.report = report
    self.userAttributes = configuration.userAttributes
  }

  mutating func decode(_ tokens: [Token]) throws(UsageError) -> Command {
    var tokens = command == .date ? tokens : joinedDates(tokens)
    if let leadingFilter { tokens = try withLeadingFilter(joinedDates(leadingFilter), tokens) }
    let decoded = try decodeCommand(tokens)
    switch decoded {
    case .list, .next, .tree, .selection(_, .ids), .selection(_, .uuids): break
    default:
      if filterLimit != nil { throw .invalid("limit: applies to lists and reports, not to '\(spelling ?? command.rawValue)'") }
    }
    return decoded
  }

  mutating func decodeCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    switch command {
    case .add, .log:
      let parsed: ParsedChanges
      do throws(UsageError) {
        parsed = try changes(tokens, allowReferences: false)
      } catch .badDateInWord(let word, let expression, let reason, _) {
        let asText = "todo add -- " + CommandParser.quotedCommandLine(tokens.map(\.text).filter { $0 != "--" })
        throw .badDateInWord(word: word, expression: expression, reason: reason, asText: asText)
      }
      guard parsed.changes.title != nil else { throw .missingArgument(command: command.rawValue, what: "a title") }
      let changes = inheritingContext(parsed.changes)
      return command == .log ? .log(changes) : .add(changes)
    case .duplicate:
      let reference = try oneReference(tokens.first, what: "the id of the task to copy")
      let parsed = try changes(Array(tokens.dropFirst()), allowReferences: false)
      return .duplicate(reference, parsed.changes)
    case .update:
      return try updateCommand(tokens)
    case .append, .prepend:
      return try appendCommand(tokens)
    case .list:
      let query = try listQuery(tokens)
      return query.tree ? .tree(query) : .list(query)
    case .tree:
      return .tree(try listQuery(tokens))
    case .next:
      return .next(try listQuery(tokens))
    case .config:
      return .config(try configRequest(tokens.map(\.text)))
    case .context:
      return .context(try contextRequest(tokens.map(\.text)))
    case .edit: return .edit(try onlyReference(tokens, what: "the id of the task to edit"))
    case .why: return .why(try onlyReference(tokens, what: "the id of a task"))
    case .start: return .start(try onlyReference(tokens, what: "the id of the task to start"))
    case .stop:
      guard tokens.count <= 1 else { throw .unexpectedArgument(command: CommandName.stop.rawValue, word: tokens[1].text) }
      return .stop(tokens.isEmpty ? nil : try oneReference(tokens.first, what: "the id of the task to stop"))
    case .timesheet:
      return .timesheet(try timesheetQuery(tokens))
    case .export:
      return .export(try exportRequest(tokens))
    case .import:
      return .import(try importRequest(tokens))
    case .migrate:
      return .migrate(try migrateRequest(tokens))
    case .sync:
      return .sync(try syncRequest(tokens))
    case .purge:
      // No filter: every deleted task.
      var filter = tokens.isEmpty ? TodoFilter() : try bulkFilter(tokens)
      filter.defaultStatus = .deleted
      return .purge(filter)
    case .waiting:
      return .list(try listQuery(tokens))
    case .done, .reopen, .delete:
      let filter = try bulkFilter(tokens)
      switch command {
      case .done: return .done(filter)
      case .reopen: return .reopen(filter)
      default: return series ? .deleteSeries(filter) : .delete(filter)
      }
    case .show:
      return try showCommand(tokens)
    case .note where spelling == CommandName.denotate:
      return try denotateCommand(tokens)
    case .note:
      return try noteCommand(tokens)
    case .undo, .tags, .projects, .stats, .shell, .check, .diag, .plainProjects, .plainTags:
      if let extra = tokens.first { throw .unexpectedArgument(command: command.rawValue, word: extra.text) }
      return bareCommand()
    case .ui:
      return try uiCommand(tokens)
    case .recover: return try recoverCommand(tokens)
    case .remind: return .remind(try remindRequest(tokens))
    case .journal:
      return try journalCommand(tokens)
    case .calendar, .agenda, .burndown, .summary, .history, .ghistory:
      return try chartRequest(ChartRequest.Kind(rawValue: command.rawValue) ?? .summary, tokens)
    case .date:
      let words = tokens.map(\.text).filter { $0 != "--" }
      guard !words.isEmpty else { throw .missingArgument(command: CommandName.date.rawValue, what: "a date expression such as friday or +3d") }
      return .date(words.joinedText(" "))
    case .count, .ids, .uuids, .plainIDs, .plainUUIDs:
      return try selectionCommand(tokens)
    case .get:
      guard !tokens.isEmpty else { throw .missingArgument(command: CommandName.get.rawValue, what: "ID.attribute words, like 3.due") }
      return .get(try tokens.map { (token) throws(UsageError) in try Self.attributeReference(token.text) })
    case .unique:
      guard let first = tokens.first else { throw .missingArgument(command: CommandName.unique.rawValue, what: "an attribute, like project") }
      var query = try listQuery(Array(tokens.dropFirst()))
      query.filter.leavesOutWaiting = false
      return .unique(try Self.attribute(first.text, command: CommandName.unique.rawValue), query)
    case .completions:
      let words = tokens.map(\.text)
      guard let first = words.first else { throw .missingArgument(command: CommandName.completions.rawValue, what: "a shell: bash, zsh or fish") }
      guard let shell = CompletionScript.Shell(rawValue: first) else {
        throw .badValue(option: CommandName.completions.rawValue, value: first, reason: "use bash, zsh or fish")
      }
      if words.count > 1 { throw .unexpectedArgument(command: CommandName.completions.rawValue, word: words[1]) }
      return .completions(shell)
    case .help:
      if tokens.count > 1 { throw .unexpectedArgument(command: CommandName.help.rawValue, word: tokens[1].text) }
      return .help(topic: tokens.first?.text)
    }
  }

  /// A command that takes no words (`undo`, `tags`, `check`…).
  private func bareCommand() -> Command {
    switch command {
    case .undo: .undo
    case .tags: .tags
    case .projects: .projects
    case .stats: .stats
    case .check: .check
    case .diag: .diag
    case .plainProjects, .plainTags: .plainNames(tags: command == .plainTags)
    case .shell: .shell
    default: preconditionFailure("\(command) takes words")
    }
  }

  /// `update`: the tasks (ids, `--where` or a filter before the command) and the change.
  mutating func updateCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    var parsed = try changes(tokens, allowReferences: true)
    if let preselection {
      guard parsed.filter == nil, parsed.references.isEmpty else {
        throw .invalid("the tasks are chosen twice: by the filter before '\(spelling ?? "update")' and by ids or --where after it; give one")
      }
      parsed.filter = preselection
      if !parsed.titleWords.isEmpty {
        throw .invalid(
          "the words '\(parsed.titleWords.joinedText(" "))' would become the title of every task the filter selects; "
            + "give a new title with --title, or substitute with /old/new/")
      }
    }
    var selection = parsed.filter ?? TodoFilter()
    selection.references = parsed.references
    guard !parsed.references.isEmpty || parsed.filter != nil else {
      throw .missingArgument(command: CommandName.update.rawValue, what: "the ids of the tasks to change (or --where FILTER)")
    }
    guard !parsed.changes.isEmpty else {
      throw .missingArgument(command: CommandName.update.rawValue, what: "new title words or attributes such as +tag, pri:H, due:friday")
    }
    try Self.checkTitleWords(parsed)
    return series ? .updateSeries(selection, parsed.changes) : .update(selection, parsed.changes)
  }

  /// `ui [REPORT] [FILTER]`: a first word naming a report (or `tree`) picks it; the rest is a
  /// filter, checked when the list is read.
  mutating func uiCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    var words: [String] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, _): words.append(word)
      }
    }
    var report = "next"
    var tree = false
    if let first = words.first,
      configuration.report(first) != nil || CommandName.spellings[first].map({ [.list, .next, .waiting, .tree].contains($0) }) == true
    {
      report = CommandName.spellings[first].map(\.rawValue) ?? first
      words.removeFirst()
    }
    // `todo ui tree`: the list, subtasks under their parents (the `t` key's view).
    if report == "tree" {
      report = "list"
      tree = true
    }
    return .ui(report: report, filter: words, tree: tree)
  }

  /// `append` and `prepend`: the tasks, then the words added to their titles.
  mutating func appendCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    var references: [TaskReference] = []
    var words: [String] = []
    var filter = preselection
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--where", let value): filter = try self.filter(splitWords(value))
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash):
        // Only the first word names tasks: `append 12 2 more` adds "2 more" to task 12.
        if words.isEmpty, references.isEmpty, filter == nil, !afterDoubleDash, let parsed = TaskReference.list(word) {
          references += parsed
        } else {
          words.append(word)
        }
      }
    }
    guard !references.isEmpty || filter != nil else {
      throw .missingArgument(command: command.rawValue, what: "the ids of the tasks to change and the words to add")
    }
    guard !words.isEmpty else { throw .missingArgument(command: command.rawValue, what: "the words to add to the title") }
    var selection = filter ?? TodoFilter()
    selection.references = references
    var changes = TodoChanges()
    let text = words.joinedText(" ")
    try Self.checked { () throws(TodoError) in try Validation.title(text) }
    if command == .append { changes.appendText = text } else { changes.prependText = text }
    return .update(selection, changes)
  }

  /// `show ID…`: the tasks named.
  mutating func showCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    guard !tokens.isEmpty else { throw .missingArgument(command: CommandName.show.rawValue, what: "the ids of the tasks to show") }
    var references: [TaskReference] = []
    for token in tokens {
      guard let parsed = TaskReference.list(token.text) else {
        throw .badValue(option: CommandName.show.rawValue, value: token.text, reason: Self.referenceReason(token.text))
      }
      references += parsed
    }
    let single: Bool
    if references.count == 1, case .range = references[0] { single = false } else { single = references.count == 1 }
    return .show(references, single: single)
  }

  /// `note ID TEXT…`, `note ID --edit N TEXT…`, `note ID --remove N`.
  mutating func noteCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    guard let first = tokens.first else { throw .missingArgument(command: CommandName.note.rawValue, what: "an id and the note's text") }
    guard let references = TaskReference.list(first.text), references.count == 1, !references[0].isRange else {
      let several = TaskReference.list(first.text) != nil
      throw .badValue(option: CommandName.note.rawValue, value: first.text, reason: several ? "give one task id" : Self.referenceReason(first.text))
    }
    var rest = Array(tokens.dropFirst())
    if let option = rest.first,
      option.text == "--edit" || option.text == "--remove" || option.text.hasPrefix("--edit=")
        || option.text.hasPrefix("--remove=")
    {
      var reader = OptionReader(tokens: rest[...].prefix(2), command: command)
      guard case .option(let name, let value) = try reader.next() else { throw .missingValue(option: option.text) }
      guard let number = Int(value), number >= 1 else {
        throw .badValue(option: name, value: value, reason: "give the note's number as show lists them (1 = the oldest)")
      }
      rest = Array(rest.dropFirst(option.text.contains("=") ? 1 : 2))
      var words = rest.map(\.text)
      if words.first == "--" {
        words.removeFirst()
      } else if let option = Self.optionLike(in: words) {
        throw .unknownOption(option, suggestion: closestMatch(to: option, in: command.allOptions))
      }
      if name == "--remove" {
        if let extra = words.first { throw .unexpectedArgument(command: "note --remove", word: extra) }
        return .removeNote(references[0], number: number)
      }
      guard !words.isEmpty else { throw .missingArgument(command: "note --edit", what: "the note's new text") }
      return .editNote(references[0], number: number, text: words.joinedText(" "))
    }
    var words = rest.map(\.text)
    if words.first == "--" {
      words.removeFirst()
    } else if let option = Self.optionLike(in: words) {
      // An option typed wrong (`--remov 2`) is not taken as the note's text: `--` first keeps
      // such a word as text (`todo note 3 -- --verbose did it`), as for every other command.
      throw .unknownOption(option, suggestion: closestMatch(to: option, in: command.allOptions))
    }
    guard !words.isEmpty else { throw .missingArgument(command: CommandName.note.rawValue, what: "the note's text") }
    return .note(references[0], words.joinedText(" "))
  }

  /// The one task a command takes (`edit 3`, `why 3`, `start 3`).
  func onlyReference(_ tokens: [Token], what: String) throws(UsageError) -> TaskReference {
    guard tokens.count <= 1 else { throw .unexpectedArgument(command: command.rawValue, word: tokens[1].text) }
    return try oneReference(tokens.first, what: what)
  }

  /// `journal [--limit N]`.
  mutating func journalCommand(_ tokens: [Token]) throws(UsageError) -> Command {
    var limit: Int?
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--limit", let value): limit = try Self.positiveCount(value, option: "--limit")
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, _): throw .unexpectedArgument(command: CommandName.journal.rawValue, word: word)
      }
    }
    return .journal(limit: limit)
  }

  /// Puts a filter typed before the command where the command reads it: before its arguments
  /// (`todo 3 show`, `todo +home list`), or as the selection of `update`, `append` and `prepend`
  /// (then the arguments are the change). After a filter, `done`, `reopen`, `delete` and
  /// `purge` take no more words: `todo 5 done foo` is a mistake, not a search for foo.
  mutating func withLeadingFilter(_ leading: [Token], _ tokens: [Token]) throws(UsageError) -> [Token] {
    let name = spelling ?? command.rawValue
    let nonID = leading.first { TaskReference.list($0.text) == nil }
    switch command {
    case .update, .append, .prepend:
      guard nonID != nil else { return leading + tokens }
      preselection = try filter(leading.map { FilterWord($0.text, at: $0.position) })
      return tokens
    case .done, .reopen, .delete, .purge:
      if let extra = tokens.first(where: { !$0.text.hasPrefix("--") }) {
        throw .unexpectedArgument(command: name, word: extra.text)
      }
      return leading + tokens
    default:
      if command.declaration.ids == .named, let nonID {
        throw .badValue(option: name, value: nonID.text, reason: "takes task ids before it (3, 3-7, 1,4), not a filter")
      }
      return leading + tokens
    }
  }

  // MARK: - add / update

  /// What the words of `add`/`update` asked for.
  struct ParsedChanges {
    var changes = TodoChanges()
    /// The leading task references (`update` only).
    var references: [TaskReference] = []
    /// `--where FILTER`.
    var filter: TodoFilter?
    /// The title words (not `--title`), which must not rename many tasks at once.
    var titleWords: [String] = []
  }

  /// Attributes and title words; for `update`, the leading task references too. A field set twice
  /// (`pri:H pri:L`, two `--title`s) or a tag both added and removed is a usage error: which one
  /// was meant cannot be guessed, and "the last one wins" silently drops the other.
  mutating func changes(_ tokens: [Token], allowReferences: Bool) throws(UsageError) -> ParsedChanges {
    var parsed = ParsedChanges()
    var given: [String: String] = [:]
    func once(_ field: String, _ word: String) throws(UsageError) {
      if let earlier = given[field] {
        throw .invalid("the \(field) is given twice ('\(earlier)' and '\(word)'); give it once")
      }
      given[field] = word
    }
    var reader = OptionReader(tokens: tokens[...], command: command)
    var readingReferences = allowReferences
    while let token = try reader.next() {
      switch token {
      case .option(let name, let value):
        readingReferences = false
        if value.isEmpty && command == .add {
          throw .badValue(option: name, value: value, reason: "needs a value")
        }
        let word = "\(name) \(value)"
        switch name {
        case "--tag":
          try Self.checked { () throws(TodoError) in try Validation.tag(value) }
          parsed.changes.addTags.append(value)
        case "--project":
          try once("project", word)
          parsed.changes.project = try project(value)
        case "--priority":
          try once("priority", word)
          parsed.changes.priority = try priority(value, option: "--priority")
        case "--due", "--wait", "--scheduled", "--until":
          let field = DateField(rawValue: String(name.dropFirst(2)))!
          try once("\(field.rawValue) date", word)
          try setDate(field, value, in: &parsed.changes)
        case "--note":
          guard value.contains(where: { !$0.isWhitespace }) else {
            throw .badValue(option: "--note", value: value, reason: "a note cannot be empty")
          }
          parsed.changes.notes.append(value)
        case "--title":
          try once("title", word)
          parsed.changes.title = value
        case "--where":
          guard parsed.filter == nil else { throw .invalid("--where is given twice; put every term in one --where") }
          parsed.filter = try filter(splitWords(value))
        case "--parent", "--depends", "--blocks", "--recur":
          let key = String(name.dropFirst(2))
          if key == "parent" || key == "recur" { try once(key, word) }
          try applyLink(key, value, option: name, to: &parsed.changes)
        default: throw .unknownOption(name, suggestion: nil)
        }
      case .flag("--series"):
        series = true
      case .flag(let name):
        throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash):
        if readingReferences, !afterDoubleDash, let references = TaskReference.list(word) {
          parsed.references.append(contentsOf: references)
          continue
        }
        readingReferences = false
        if afterDoubleDash {
          parsed.titleWords.append(word)
        } else if command == .update, let substitution = Self.substitution(word) {
          try once("substitution", word)
          parsed.changes.substitution = substitution
        } else if command == .update, word.hasPrefix("/"), word.dropFirst().split(separator: "/", omittingEmptySubsequences: false).count == 2 {
          // `/milk/MILK` without its last slash would rename the task to itself.
          throw .invalid(
            "'\(word)' looks like a substitution without its last '/': write \(word)/ to replace the text, or put -- before it to make it the title")
        } else {
          switch try applyAttribute(word, to: &parsed.changes) {
          case .tag: break
          case .titleText(let text): parsed.titleWords.append(text)
          case .field(let name): try once(name, word)
          case .titleWord:
            // `update`'s title words rename the task: a `key:value` word no attribute reads is an
            // error there; elsewhere it is title text, with a warning that says so.
            if let problem = unknownAttribute(word) {
              if command == .update { throw .invalid(problem) }
              parsed.titleWords.append(word)
              let base = String(word.prefix { $0 != ":" && $0 != "." })
              let define = UserAttribute.isName(base) ? "; to make '\(base)' one: todo config set uda.\(base).type string" : ""
              warnings.append(
                Self.nearMissWarning(word, keptAs: "title text") ?? "'\(word)' is not an attribute, so it was read as title text\(define)")
              continue
            }
            parsed.titleWords.append(word)
            if let warning = Self.nearMissWarning(word, keptAs: "title text") { warnings.append(warning) }
          }
        }
      }
    }
    // A user-defined attribute's default, for a new task that gives none.
    if command == .add || command == .log {
      for attribute in userAttributes.values.sorted(by: { $0.name < $1.name }) where parsed.changes.attributes[attribute.name] == nil {
        guard let text = attribute.defaultValue else { continue }
        do throws(TodoError) {
          parsed.changes.attributes[attribute.name] = try attribute.stored(text, now: now)
        } catch {
          throw .invalid(
            "the configuration's uda.\(attribute.name).default = \(text) does not read: \(error.description); mend it with todo config set (or unset)"
          )
        }
      }
    }
    let conflicting = Set(parsed.changes.addTags).intersection(parsed.changes.removeTags)
    if let tag = conflicting.sorted().first {
      throw .invalid("tag '\(tag)' is both added (+\(tag)) and removed (-\(tag)); give one of them")
    }
    if !parsed.titleWords.isEmpty {
      if given["title"] != nil {
        throw .invalid("the title is given twice (--title and the words '\(parsed.titleWords.joinedText(" "))'); give it once")
      }
      let title = parsed.titleWords.joinedText(" ")
      try Self.checked { () throws(TodoError) in try Validation.title(title) }
      parsed.changes.title = title
    }
    return parsed
  }

  /// `/old/new/` or `/old/new/g` (Taskwarrior's substitution); nil for any other word.
  static func substitution(_ word: String) -> Substitution? {
    guard word.hasPrefix("/"), word.hasSuffix("/") || word.hasSuffix("/g") else { return nil }
    let everywhere = word.hasSuffix("/g")
    let parts = word.dropFirst().dropLast(everywhere ? 2 : 1).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return nil }
    return Substitution(old: String(parts[0]), new: String(parts[1]), everywhere: everywhere)
  }

  /// Title words rename every selected task, so they are taken only when exactly one task is
  /// named; otherwise `--title` says that renaming them all is really meant.
  static func checkTitleWords(_ parsed: ParsedChanges) throws(UsageError) {
    guard !parsed.titleWords.isEmpty else { return }
    let words = parsed.titleWords.joinedText(" ")
    if parsed.filter != nil {
      throw .invalid(
        "the words '\(words)' after --where would become the title of every selected task; "
          + "put ids before --where, quote the whole filter (--where '+chore 2'), or give a new title with --title")
    }
    let single: Bool
    if parsed.references.count == 1, case .range = parsed.references[0] { single = false } else { single = parsed.references.count == 1 }
    if !single {
      throw .invalid(
        "the words '\(words)' would become the title of every task named; to give them all one title, use --title")
    }
  }

  /// What one word of `add`/`update` turned out to be.
  enum AttributeOutcome {
    case titleWord
    /// Taskwarrior's `description:TEXT`: TEXT is title text.
    case titleText(String)
    case tag
    /// An attribute that sets a single-valued field, by the field's name.
    case field(String)
  }

  /// Applies `+tag`, `-tag` (update only), `project:`, `pri:`, `due:`.
  func applyAttribute(_ word: String, to changes: inout TodoChanges) throws(UsageError) -> AttributeOutcome {
    if let colon = word.firstIndex(of: ":") {
      let key = word[..<colon].lowercased()
      let value = String(word[word.index(after: colon)...])
      // Clearing means something for what has the link already: a task, or a copy of one.
      if let link = Self.linkKeys[key], !(value.isEmpty && command != .update && command != .duplicate) {
        try applyLink(link, value, option: String(word[..<colon]) + ":", to: &changes)
        return link == "parent" || link == "recur" ? .field(link) : .tag
      }
    }
    if word.count > 1, word.hasPrefix("+") {
      let tag = String(word.dropFirst())
      try Self.checked { () throws(TodoError) in try Validation.tag(tag) }
      changes.addTags.append(tag)
      return .tag
    }
    if word.count > 1, word.hasPrefix("-"), !Self.isNumber(word) {
      guard command == .update else {
        throw .unknownOption(word, suggestion: closestMatch(to: word, in: command.allOptions))
      }
      let tag = String(word.dropFirst())
      try Self.checked { () throws(TodoError) in try Validation.tag(tag) }
      changes.removeTags.append(tag)
      return .tag
    }
    // `remind:due-15min,fri@9:00` sets the task's reminders (every `remind:` of the command
    // together), `remind:` alone clears them.
    if let colon = word.firstIndex(of: ":"), word[..<colon].lowercased() == "remind" {
      let value = String(word[word.index(after: colon)...])
      if value.isEmpty && command == .add { return .titleWord }
      var reminders = changes.reminders ?? []
      for part in value.split(separator: ",") {
        let reminder = try Self.checked { () throws(TodoError) in try Reminder(parsing: String(part), now: now) }
        if !reminders.contains(reminder) { reminders.append(reminder) }
      }
      changes.reminders = reminders
      // Several `remind:` words add up (as tags do).
      return .tag
    }
    // A user-defined attribute: `client:acme` sets it, `client:` clears it.
    if let colon = word.firstIndex(of: ":"), let attribute = userAttributes[String(word[..<colon])] {
      let value = String(word[word.index(after: colon)...])
      if value.isEmpty {
        if command == .add { return .titleWord }
        changes.attributes[attribute.name] = .some(nil)
      } else {
        changes.attributes[attribute.name] = try Self.checked { () throws(TodoError) in try attribute.stored(value, now: now) }
      }
      return .field(attribute.name)
    }
    guard let (key, value) = FilterKey.split(word), key.modifier == nil else { return .titleWord }
    // Clearing means nothing for a new task: there `due:` alone is title text, never dropped.
    if value.isEmpty && command == .add { return .titleWord }
    switch key.name {
    case .project:
      changes.project = try project(value)
      return .field("project")
    case .priority:
      changes.priority = try priority(value, option: "pri")
      return .field("priority")
    case .due, .wait, .scheduled, .until:
      let field = key.dateField!
      do throws(UsageError) {
        try setDate(field, value, in: &changes)
      } catch .badDate(let expression, let reason) {
        throw .badDateInWord(word: word, expression: expression, reason: reason, asText: "todo \(command.rawValue) -- …")
      }
      return .field("\(field.rawValue) date")
    case .title where word.lowercased().hasPrefix("description:") || word.lowercased().hasPrefix("desc:"):
      return .titleText(value)
    case .tags where !value.isEmpty:
      // Taskwarrior's `tags:a,b`: the tags added.
      for tag in value.split(separator: ",").map(String.init) {
        try Self.checked { () throws(TodoError) in try Validation.tag(tag) }
        changes.addTags.append(tag)
      }
      return .tag
    case .status, .title, .created, .modified, .completed, .tags, .id, .uuid, .depends, .parent, .recur, .urgency, .start:
      return .titleWord
    }
  }

  /// Why `key:value` is not taken as title text: its key is no attribute (nor a user-defined
  /// one). Nil for a word that is plainly text: no value (`re: rent`), a URL or an address
  /// (`https://…`, `mailto:bob@example.org`), a time (`10:30`).
  func unknownAttribute(_ word: String) -> String? {
    guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return nil }
    let key = String(word[..<colon])
    let value = word[word.index(after: colon)...]
    // Only a key as attributes are spelled (lowercase, two or more characters): `Re:meeting`,
    // `TODO:x`, `C:\Users`, `std::vector` are text.
    guard key.count >= 2, let first = key.first, first.isASCII, first.isLowercase, !value.isEmpty, !value.hasPrefix("/"),
      !value.hasPrefix(":"), !value.contains("@"), !word.contains(where: \.isWhitespace),
      key.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == ".") }),
      !["mailto", "tel", "urn", "http", "https", "ftp", "file", "irc", "xmpp", "sip", "news", "magnet", "localhost"].contains(key)
    else { return nil }
    let base = String(key.prefix { $0 != "." })
    // A key filters know that a change does not set.
    if let known = FilterKey.parse(key),
      key.contains(".") || [.status, .created, .modified, .completed, .id, .uuid, .urgency, .start].contains(known.name)
    {
      let hint =
        known.name == .status ? "done, reopen and delete change the status" : "\(base): is a filter term, which a change does not set"
      return "'\(word)': \(hint); put -- before the words to make them title text"
    }
    let known =
      [
        "project", "pri", "priority", "due", "wait", "scheduled", "until", "parent", "depends", "blocks", "recur", "tags", "remind",
      ]
      + userAttributes.keys.sorted()
    let meant = closestMatch(to: base, in: known).map { " (did you mean '\($0):'?)" } ?? ""
    let define = UserAttribute.isName(base) ? "to keep '\(base)' on tasks, define it (todo config set uda.\(base).type string), or " : ""
    return "'\(word)': todo has no attribute '\(base)'\(meant); \(define)put -- before the words to make them title text"
  }

  /// The keys of links and recurrence (`parent:`, `depends:`, `blocks:`, `recur:`) and their aliases.
  static let linkKeys = ["parent": "parent", "depends": "depends", "dep": "depends", "blocks": "blocks", "recur": "recur"]

  /// Applies `parent:ID` (empty: no parent), `depends:3,-5` (waits for 3, no longer for 5),
  /// `blocks:7,-8`, `recur:RULE` (empty: stops repeating).
  func applyLink(_ key: String, _ value: String, option: String, to changes: inout TodoChanges) throws(UsageError) {
    switch key {
    case "parent":
      if value.isEmpty {
        changes.parent = .clear
        return
      }
      guard let references = TaskReference.list(value), references.count == 1 else {
        throw .badValue(option: option, value: value, reason: "give one task id (parent:12)")
      }
      changes.parent = .set(references[0])
    case "recur":
      if value.isEmpty {
        changes.recur = .clear
        return
      }
      guard let rule = RecurrenceRule(parsing: value) else {
        throw .badValue(
          option: option, value: value,
          reason: "use daily, weekly, monthly, yearly, weekdays or a number and unit (4d, 2w, 3mo, 1y); +1w counts from each completion")
      }
      changes.recur = .set(rule)
    default:
      guard !value.isEmpty else {
        throw .badValue(option: option, value: value, reason: "give task ids (\(key):3,5; \(key):-3 removes 3)")
      }
      for part in value.split(separator: ",", omittingEmptySubsequences: false) {
        let removing = part.hasPrefix("-")
        let text = removing ? String(part.dropFirst()) : String(part)
        guard let reference = TaskReference(parsing: text), !(reference.isRange) else {
          throw .badValue(option: option, value: value, reason: "give task ids (\(key):3,5; \(key):-3 removes 3)")
        }
        if removing && command != .update && command != .duplicate {
          throw .badValue(option: option, value: value, reason: "a new task has nothing to remove")
        }
        switch (key, removing) {
        case ("depends", false): changes.addDepends.append(reference)
        case ("depends", true): changes.removeDepends.append(reference)
        case (_, false): changes.addBlocks.append(reference)
        case (_, true): changes.removeBlocks.append(reference)
        }
      }
    }
  }

  /// One task reference: the first word, which must name one task.
  func oneReference(_ token: Token?, what: String) throws(UsageError) -> TaskReference {
    guard let token else { throw .missingArgument(command: command.rawValue, what: what) }
    guard let references = TaskReference.list(token.text), references.count == 1, !references[0].isRange else {
      throw .badValue(option: command.rawValue, value: token.text, reason: Self.referenceReason(token.text) + " (one task)")
    }
    return references[0]
  }

  static let interchangeFormats = ["json", "jsonl", "taskwarrior", "todotxt", "ical"]

  func format(_ value: String) throws(UsageError) -> String {
    let format = value.lowercased()
    guard Self.interchangeFormats.contains(format) else {
      throw .badValue(option: "--format", value: value, reason: "use json, jsonl, taskwarrior, todotxt or ical")
    }
    return format
  }

  /// Sets a date field from its value: empty clears it; an expression that starts with `due`
  /// (`due-3d`) counts from each task's due date, read when the task is known.
  func setDate(_ field: DateField, _ value: String, in changes: inout TodoChanges) throws(UsageError) {
    let change: FieldChange<DateSetting>
    if value.isEmpty {
      change = .clear
    } else if value.lowercased().hasPrefix("due") {
      // Read once now with a stand-in due date, so that a typo fails before anything runs.
      do throws(DateExpressionError) {
        _ = try DateExpressionParser(now: now, due: .instant(now)).read(value)
      } catch {
        throw .badDate(expression: error.expression, reason: error.reason)
      }
      change = .set(.fromDue(value))
    } else {
      change = .set(.date(try date(value)))
    }
    switch field {
    case .due: changes.due = change
    case .wait: changes.wait = change
    case .scheduled: changes.scheduled = change
    case .until: changes.until = change
    case .created, .modified, .completed: break
    }
  }

  /// A warning for a word that was kept as text (or a search word) although it looks like a
  /// mistyped attribute or filter term: `proj:x`, `p:H`, `due.befor:fri`, `overdu`.
  static func nearMissWarning(_ word: String, keptAs role: String, filterWords: Bool = false) -> String? {
    guard let suggestion = KeySuggestion.forWord(word, includeBareWords: filterWords) else { return nil }
    return "'\(word)' is not \(filterWords ? "a filter term" : "an attribute"), so it was read as \(role); did you mean '\(suggestion)'?"
  }

  func project(_ value: String) throws(UsageError) -> FieldChange<String> {
    if value.isEmpty { return .clear }
    try Self.checked { () throws(TodoError) in try Validation.project(value) }
    return .set(value)
  }

  func priority(_ value: String, option: String) throws(UsageError) -> FieldChange<Priority> {
    if value.isEmpty { return .clear }
    guard let priority = Priority(parsing: value) else {
      throw .badValue(option: option, value: value, reason: "use H, M or L (high, medium, low)")
    }
    return .set(priority)
  }

  func date(_ value: String) throws(UsageError) -> TaskDate {
    do throws(DateExpressionError) {
      return TaskDate(try DateExpressionParser(now: now).read(value))
    } catch {
      throw .badDate(expression: error.expression, reason: error.reason)
    }
  }

  // MARK: - filters

  mutating func listQuery(_ tokens: [Token]) throws(UsageError) -> ListQuery {
    var query = ListQuery()
    // The active context's filter and the report's each narrow what is typed (AND), whatever
    // `or` any of them holds.
    var configured: [TodoFilter] = []
    if let context = configuration.activeContext {
      configured.append(try Configuration.filter(configuration.value("context.\(context)"), now: now, configuration: configuration))
    }
    // `todo list` as built in adds nothing: no report is looked up.
    let definition = configuration.isPlainList(report) ? nil : report.flatMap { configuration.report($0) }
    if let definition {
      query.report = definition.name
      query.sort = definition.sort
      query.limit = definition.limit
      if !definition.filter.isEmpty { configured.append(try Configuration.filter(definition.filter, now: now, configuration: configuration)) }
    }
    var filterWords: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--sort", let value):
        let attributes = configuration.userAttributes
        query.sort = try Self.checked { () throws(TodoError) in try SortKey.parseList(value, attributes: attributes) }
      case .option("--limit", let value):
        query.limit = try Self.positiveCount(value, option: "--limit")
      case .option("--tag", let value): filterWords.append(FilterWord("+" + value, at: reader.position))
      case .option("--project", let value): filterWords.append(FilterWord("project:" + value, at: reader.position))
      case .option("--priority", let value): filterWords.append(FilterWord("pri:" + value, at: reader.position))
      case .option("--status", let value): filterWords.append(FilterWord("status:" + value, at: reader.position))
      case .flag("--tree"): query.tree = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash): filterWords.append(FilterWord(word, plain: afterDoubleDash, at: reader.position))
      }
    }
    query.typedTerms = !filterWords.isEmpty
    var selection = try filter(filterWords)
    if let filterLimit { query.limit = filterLimit }
    for other in configured { selection = selection.narrowed(by: other) }
    query.filter = selection
    // A list leaves out waiting tasks unless asked; a change selects them like any other.
    query.filter.leavesOutWaiting = true
    return query
  }

  /// The selection of `done`/`reopen`/`delete`: ids or filter terms (or `--where`); never empty.
  mutating func bulkFilter(_ tokens: [Token]) throws(UsageError) -> TodoFilter {
    var words: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--where", let value): words.append(contentsOf: splitWords(value))
      case .flag("--series"): series = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash): words.append(FilterWord(word, plain: afterDoubleDash, at: reader.position))
      }
    }
    guard !words.isEmpty else {
      throw .missingArgument(command: command.rawValue, what: "task ids (3, 3-7, 1,4) or a filter (+tag, project:x …)")
    }
    // A filter that selects nothing in particular (status:all, --where '') is refused by TodoStore.
    return try filter(words)
  }

  // MARK: - configuration

  /// A new task in a context gets the context's tags and project (when its filter names one
  /// project), unless the command line says otherwise.
  func inheritingContext(_ changes: TodoChanges) -> TodoChanges {
    guard let name = configuration.activeContext,
      let filter = try? Configuration.filter(configuration.value("context.\(name)"), now: now, configuration: configuration)
    else { return changes }
    var changes = changes
    for tag in filter.includeTags where !changes.addTags.contains(tag) && !changes.removeTags.contains(tag) {
      changes.addTags.append(tag)
    }
    if changes.project == nil, filter.projects.count == 1, !filter.withoutProject {
      changes.project = .set(filter.projects[0])
    }
    return changes
  }

  /// The words `context` takes that cannot name a context.
  static let contextWords = ["list", "show", "none", "define", "delete"]

  // MARK: - helpers

  /// The first word before any `--` that reads as a long option (`--word`, `--word=value`): in
  /// free text (a note), a mistyped option is refused rather than stored. `-->`, `---` and a
  /// `--` in the middle of the text are text.
  static func optionLike(in words: [String]) -> String? {
    words.prefix(while: { $0 != "--" }).first { word in
      guard word.hasPrefix("--"), let letter = word.dropFirst(2).first else { return false }
      return letter.isASCII && letter.isLetter
    }
  }

  /// Why a word is not a task reference: a short hex word is most likely a cut UUID prefix.
  static func referenceReason(_ word: String) -> String {
    if TaskReference.isShortUUIDPrefix(word) {
      return "UUID prefixes need at least 8 hex digits (ids are 1 to 7 digits without a leading zero)"
    }
    return "expected a task id or UUID prefix"
  }

  /// A limit: 1 or more (`--limit 0` would show nothing and look like an empty list).
  static func positiveCount(_ value: String, option: String) throws(UsageError) -> Int {
    guard let number = Int(value), number >= 1 else {
      throw .badValue(option: option, value: value, reason: "expected a whole number ≥ 1")
    }
    return number
  }

  static func isNumber(_ word: String) -> Bool {
    Double(word) != nil
  }

  /// Splits a `--where` value on spaces (quotes are the shell's business), keeping a date's
  /// words together (see `joinedDates`); positions count the words of the value.
  func splitWords(_ text: String) -> [FilterWord] {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).enumerated().map {
      Token(text: String($0.element), position: $0.offset + 1)
    }
    return joinedDates(words).map { FilterWord($0.text, at: $0.position) }
  }

  /// Joins the words that continue a date written after a date key: `due:fri 17:00`,
  /// `due:friday at 5pm`, `wait:dec 24`, `due.by:december 24 2027` are one date each, as they
  /// would be quoted. The longest run of up to three following words that still reads as a
  /// date is taken, unless it lies in the past where a shorter one did not; words after `--`
  /// are never joined.
  func joinedDates(_ tokens: [Token]) -> [Token] {
    var joined: [Token] = []
    var index = 0
    let parser = DateExpressionParser(now: now, due: .instant(now))
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if token.text == "--" {
        joined += tokens[(index - 1)...]
        break
      }
      joined.append(token)
      guard let (key, value) = FilterKey.split(token.text), key.dateField != nil, !value.isEmpty else { continue }
      var taken = 0
      // Whether the reading so far is in the past: a longer one must not move into the past
      // (`due:may 5 2000 words` keeps 2000 as title text).
      var past = (try? parser.read(value)).map { $0.instant < now }
      for extra in 1...3 where index + extra <= tokens.count {
        let following = tokens[index..<(index + extra)].map(\.text)
        if following.contains(where: { $0 == "--" || $0.hasPrefix("--") }) { break }
        guard let reading = try? parser.read(([value] + following).joinedText(" ")) else { continue }
        if reading.instant < now && past == false { continue }
        taken = extra
        past = reading.instant < now
      }
      if taken > 0 {
        joined[joined.count - 1].text = ([token.text] + tokens[index..<(index + taken)].map(\.text)).joinedText(" ")
        index += taken
      }
    }
    return joined
  }

  /// Turns a domain validation failure into a usage error.
  static func checked<Value>(_ body: () throws(TodoError) -> Value) throws(UsageError) -> Value {
    do throws(TodoError) {
      return try body()
    } catch {
      throw .invalid(error.description)
    }
  }
}

/// Reads a command's tokens as options (`--name value`, `--name=value`) and words; after `--`
/// everything is a word.
struct OptionReader {
  enum Item: Equatable {
    case option(String, String)
    case flag(String)
    case word(String, afterDoubleDash: Bool)
  }

  var tokens: ArraySlice<Token>
  let command: CommandName
  var afterDoubleDash = false
  /// The position of the last word read (of an option, its name's), for error messages.
  private(set) var position = 0

  init(tokens: ArraySlice<Token>, command: CommandName) {
    self.tokens = tokens
    self.command = command
  }

  mutating func next() throws(UsageError) -> Item? {
    guard let token = tokens.popFirst() else { return nil }
    position = token.position
    if afterDoubleDash { return .word(token.text, afterDoubleDash: true) }
    if token.text == "--" {
      afterDoubleDash = true
      return try next()
    }
    guard token.text.hasPrefix("--") else { return .word(token.text, afterDoubleDash: false) }
    let (name, inline) = CommandParser.splitOption(token.text)
    if command.flagOptions.contains(name) {
      try CommandParser.noValue(name, inline)
      return .flag(name)
    }
    guard command.valueOptions.contains(name) else {
      throw .unknownOption(name, suggestion: closestMatch(to: name, in: command.allOptions))
    }
    let value = try CommandParser.value(for: name, inline: inline, from: &tokens)
    return .option(name, value)
  }
}
