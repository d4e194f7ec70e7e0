import TodoCore

/// Turns the words after `todo` into an `Invocation`: global options first (wherever they
/// stand), then the command word, then the command's own arguments. Runs without a database.
///
/// ```swift
/// let invocation = try CommandParser(now: now).parse(["add", "Buy", "milk", "+home"])
/// ```
struct CommandParser {
  /// The time that relative dates (`due:friday`) are read against.
  let now: Int64

  /// The words after the global options, with what those options said.
  struct GlobalPart {
    var options = GlobalOptions()
    var wantsHelp = false
    var wantsVersion = false
    var rest: [Token] = []
  }

  /// Parses a whole command line against the default configuration (tests; the program reads
  /// its configuration between the two stages, see `Session.execute`).
  func parse(_ arguments: [String], configuration: Configuration = .defaults) throws(UsageError) -> Invocation {
    try parseCommand(parseGlobalOptions(arguments), configuration: configuration)
  }

  /// Stage 1: the global options, anywhere before `--`; `-c key=value` among them.
  func parseGlobalOptions(_ arguments: [String]) throws(UsageError) -> GlobalPart {
    var options = GlobalOptions()
    var wantsHelp = false
    var wantsVersion = false
    var rest: [Token] = []
    var tokens = Token.tokenize(arguments)[...]
    // Stage 1: global options, anywhere before `--`.
    while let token = tokens.popFirst() {
      if token.text == "--" {
        rest.append(token)
        rest.append(contentsOf: tokens)
        break
      }
      let (name, inlineValue) = Self.splitOption(token.text)
      switch name {
      case "--db":
        let path = try Self.value(for: name, inline: inlineValue, from: &tokens)
        // An empty path (an unset variable in a script) must not fall back to the default database.
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
          throw .badValue(option: "--db", value: path, reason: "give the path of a database file")
        }
        options.databasePath = path
      case "--json":
        try Self.noValue(name, inlineValue)
        options.format = .json
      case "--jsonl":
        try Self.noValue(name, inlineValue)
        options.format = .jsonLines
      case "--color", "--colour":
        let value = try Self.value(for: name, inline: inlineValue, from: &tokens)
        guard let mode = ColorMode(rawValue: value) else {
          throw .badValue(option: "--color", value: value, reason: "use auto, always or never")
        }
        options.color = mode
      case "--no-color":
        try Self.noValue(name, inlineValue)
        options.color = .never
      case "--dry-run":
        try Self.noValue(name, inlineValue)
        options.dryRun = true
      case "--config":
        options.configOverrides.append(try Self.value(for: "--config", inline: inlineValue, from: &tokens))
      case "-c" where tokens.first?.text.contains("=") == true && tokens.first?.text.hasPrefix("-") == false:
        // `-c key=value`; a `-c` not followed by one is the tag `c` removed (`update 3 -c`).
        options.configOverrides.append(tokens.removeFirst().text)
      case "--no-hooks":
        try Self.noValue(name, inlineValue)
        options.noHooks = true
      case "--yes", "-y":
        try Self.noValue(name, inlineValue)
        options.assumeYes = true
      case "-h", "--help":
        wantsHelp = true
      case "--version":
        wantsVersion = true
      // Taskwarrior's `rc.KEY=VALUE` and `rc:FILE`: before the command word, or after one that
      // only reads (`todo list rc.color=off`); after a change's command word only when KEY is a
      // setting (`todo 3 modify due:fri rc.confirmation=off`), else it is text (`todo add edit
      // rc.local`).
      case _
      where (token.text.hasPrefix("rc.") || token.text.hasPrefix("rc:")) && token.text.count > 3
        && !token.text.contains(" ")
        && (rest.first(where: { CommandName.spellings[$0.text] != nil }).map({ CommandName.spellings[$0.text]!.declaration.onlyReads })
          ?? true || Self.namesASetting(token.text)):
        try Self.taskwarriorSetting(token.text, into: &options)
      default:
        rest.append(token)
      }
    }
    return GlobalPart(options: options, wantsHelp: wantsHelp, wantsVersion: wantsVersion, rest: rest)
  }

  /// Taskwarrior's `rc.KEY=VALUE` (or `rc.KEY:VALUE`): a setting for this command, as `-c`
  /// gives one. Our keys are taken as they are; Taskwarrior's that mean the same are mapped
  /// (`rc.color=off`, `rc.confirmation=off`, `rc.verbose=…`); any other is an error naming it.
  static func taskwarriorSetting(_ word: String, into options: inout GlobalOptions) throws(UsageError) {
    if word.hasPrefix("rc:") {
      let file = String(word.dropFirst(3))
      throw .invalid("rc:\(file): todo reads its settings from one file of its own; run: TODO_CONFIG=\(file) todo …")
    }
    let body = word.dropFirst(3)
    guard let separator = body.firstIndex(where: { $0 == "=" || $0 == ":" }), separator != body.startIndex else {
      throw .badValue(option: "rc", value: word, reason: "write rc.KEY=VALUE")
    }
    // The key as typed: a tag or project in `urgency.user.tag.Home.coefficient` keeps its case.
    let key = String(body[..<separator])
    let value = String(body[body.index(after: separator)...])
    func toggle() throws(UsageError) -> Bool {
      guard let on = Configuration.toggle(value) else { throw .badValue(option: "rc.\(key)", value: value, reason: "use on or off") }
      return on
    }
    switch key.lowercased() {
    case "color": options.color = try toggle() ? .auto : .never
    case "_forcecolor": options.color = try toggle() ? .always : .auto
    // Off: no questions asked, as --yes.
    case "confirmation": if try !toggle() { options.assumeYes = true }
    default:
      guard ConfigKey.named(key) != nil else {
        let known = ConfigKey.listed.map(\.name) + ["color", "confirmation"]
        let meant = closestMatch(to: key, in: known).map { "did you mean rc.\($0)? " } ?? ""
        throw .invalid("rc.\(key): todo has no such setting; \(meant)('todo config' lists the settings)")
      }
      options.configOverrides.append("\(key)=\(value)")
    }
  }

  /// Whether `rc.KEY=VALUE` (or `rc.KEY:VALUE`) names a setting: one of ours, or one of
  /// Taskwarrior's that is mapped.
  static func namesASetting(_ word: String) -> Bool {
    guard word.hasPrefix("rc."), let separator = word.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return false }
    let key = String(word[word.index(word.startIndex, offsetBy: 3)..<separator])
    return ["color", "_forcecolor", "confirmation"].contains(key.lowercased()) || ConfigKey.named(key) != nil
  }

  /// Stages 2 and 3: the command word (or a report's name; `default.command` when there is
  /// none), then the command's arguments.
  func parseCommand(_ global: GlobalPart, configuration: Configuration) throws(UsageError) -> Invocation {
    let options = global.options
    let wantsHelp = global.wantsHelp
    var rest = global.rest
    let commandLine = Self.quotedCommandLine(rest.map(\.text))
    if global.wantsVersion {
      // `--version --verbose`: what `diag` prints.
      let verbose = rest.contains { $0.text == "--verbose" }
      return Invocation(options: options, command: verbose ? .diag : .version, commandLine: commandLine)
    }
    // Stage 2: the command word, after a filter in Taskwarrior's order (`todo 1,3 done`,
    // `todo +errand list`, `todo project:home pri:H update due:fri`).
    var leadingFilter: [Token]?
    if let split = try Self.leadingFilter(rest, configuration: configuration) {
      (leadingFilter, rest) = (split.filter, split.rest)
    } else if !rest.isEmpty, rest.count == 1, let reference = TaskReference(parsing: rest[0].text), !reference.isRange {
      // `todo 12` alone shows task 12, as Taskwarrior's `task 12` does (a range still lists).
      rest.insert(Token(text: CommandName.show.rawValue, position: 0), at: 0)
    }
    if rest.isEmpty {
      if wantsHelp { return Invocation(options: options, command: .help(topic: nil), commandLine: commandLine) }
      // `todo` alone: the default command (checked when the configuration was read).
      let words = (try? Configuration.words(of: configuration.value("default.command"))) ?? [CommandName.list.rawValue]
      rest = words.enumerated().map { Token(text: $0.element, position: $0.offset + 1) }
    }
    let first = rest[0]
    let commandName: CommandName
    var arguments = Array(rest.dropFirst())
    var report: String?
    if let name = CommandName.spellings[first.text] {
      commandName = name
      if [.list, .next, .waiting].contains(name) { report = name.rawValue }
    } else if configuration.reportNames.contains(first.text) {
      // A report of the configuration's: its tasks as `list` selects them.
      commandName = .list
      report = first.text
      if wantsHelp {
        return Invocation(options: options, command: .help(topic: "reports"), commandLine: commandLine)
      }
    } else if first.text == "--" || Self.looksLikeFilter(first.text) {
      // `todo +home` and `todo 3-5` list, like `todo` alone.
      commandName = .list
      arguments = rest
    } else if first.text.hasPrefix("-") && first.text != "-" {
      throw .unknownOption(first.text, suggestion: closestMatch(to: first.text, in: GlobalOptionNames.all))
    } else {
      throw Self.unknownCommand(first.text)
    }
    if wantsHelp {
      return Invocation(options: options, command: .help(topic: commandName.rawValue), commandLine: commandLine)
    }
    if let leadingFilter, !commandName.takesTaskIDs {
      throw .unexpectedArgument(command: first.text, word: leadingFilter[0].text)
    }
    // Stage 3: the command's arguments, decoded into values.
    var decoder = ArgumentDecoder(command: commandName, now: now, configuration: configuration, report: report)
    decoder.spelling = first.text
    decoder.leadingFilter = leadingFilter
    let command = try decoder.decode(arguments)
    return Invocation(options: options, command: command, name: commandName, commandLine: commandLine, warnings: decoder.warnings)
  }

  /// A filter before the command, as Taskwarrior users type it: `1,3 done`, `+errand list`,
  /// `project:home pri:H update due:fri`. The line must start with a filter term (an id, a tag,
  /// `key:value`, `(`, `not`); the first word that is a command or a report ends the filter.
  /// Nil when the line does not look so (then `todo +home` alone lists, as before).
  static func leadingFilter(_ words: [Token], configuration: Configuration) throws(UsageError) -> (filter: [Token], rest: [Token])? {
    guard let first = words.first, first.text != "--", looksLikeFilter(first.text) else { return nil }
    var onlyIDs = true
    for (index, word) in words.enumerated() {
      if word.text == "--" { return nil }
      if CommandName.spellings[word.text] != nil || configuration.reportNames.contains(word.text) {
        return (Array(words[..<index]), Array(words[index...]))
      }
      // Where a command stands (right after ids, or last), one of Taskwarrior's command words
      // that is not ours is refused with what to run instead: `todo +morning news` is a command
      // that is not here, not a search for "news" (`todo +morning -- news` searches).
      if TaskwarriorWords.equivalents[word.text] != nil, onlyIDs || index == words.count - 1 {
        throw unknownCommand(word.text)
      }
      onlyIDs = onlyIDs && TaskReference.list(word.text) != nil
    }
    return nil
  }

  /// The error for a word that is not a command, with the command it most likely meant.
  static func unknownCommand(_ word: String) -> UsageError {
    if let equivalent = TaskwarriorWords.equivalents[word] {
      return .unknownCommand(word, suggestion: equivalent)
    }
    return .unknownCommand(word, suggestion: closestMatch(to: word, in: CommandName.allSpellings))
  }

  /// `--name=value` → (`--name`, `value`); anything else → (word, nil).
  static func splitOption(_ word: String) -> (String, String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }

  static func value(for option: String, inline: String?, from tokens: inout ArraySlice<Token>) throws(UsageError) -> String {
    if let inline { return inline }
    guard let next = tokens.popFirst(), next.text != "--" else { throw .missingValue(option: option) }
    return next.text
  }

  static func noValue(_ option: String, _ inline: String?) throws(UsageError) {
    if inline != nil { throw .unexpectedValue(option: option) }
  }

  /// A first word that is a filter term rather than a command.
  static func looksLikeFilter(_ word: String) -> Bool {
    if TaskReference.list(word) != nil { return true }
    if word.count > 1 && (word.hasPrefix("+") || (word.hasPrefix("-") && !word.hasPrefix("--"))) { return true }
    if word == "overdue" || word == "(" || word == "not" { return true }
    if word.count > 2 && word.hasPrefix("/") && word.hasSuffix("/") { return true }
    if word.lowercased().hasPrefix("limit:") { return true }
    return FilterKey.split(word) != nil
  }

  /// The arguments as one line for the journal, quoting words that need it.
  static func quotedCommandLine(_ words: [String]) -> String {
    // Plain appends and a byte test for ASCII (no `joined`, no Character properties): each of
    // those builds generic metadata at run time, about 140k instructions in every command.
    var line = ""
    for (index, word) in words.enumerated() {
      if index > 0 { line += " " }
      if isPlain(word) {
        line += word
      } else {
        line += "'"
        for scalar in word.unicodeScalars {
          if scalar == "'" { line += "'\\''" } else { line.unicodeScalars.append(scalar) }
        }
        line += "'"
      }
    }
    return line
  }

  /// Whether a word needs no quotes: not empty, and no whitespace, quote or backslash.
  private static func isPlain(_ word: String) -> Bool {
    guard !word.isEmpty else { return false }
    for byte in word.utf8 {
      switch byte {
      case 0x80...:
        return word.unicodeScalars.allSatisfy { scalar in
          !scalar.properties.isWhitespace && scalar != "'" && scalar != "\"" && scalar != "\\"
        }
      case 0...0x20, 0x7F, UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "\\"): return false
      default: continue
      }
    }
    return true
  }
}
