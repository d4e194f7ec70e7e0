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

  func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
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
        options.color = .never
      case "-h", "--help":
        wantsHelp = true
      case "--version":
        wantsVersion = true
      default:
        rest.append(token)
      }
    }
    let commandLine = Self.quotedCommandLine(rest.map(\.text))
    if wantsVersion { return Invocation(options: options, command: .version, commandLine: commandLine) }
    // Stage 2: the command word.
    guard let first = rest.first else {
      let command: Command = wantsHelp ? .help(topic: nil) : .list(ListQuery())
      return Invocation(options: options, command: command, commandLine: commandLine)
    }
    let commandName: CommandName
    var arguments = Array(rest.dropFirst())
    if let name = CommandName.spellings[first.text] {
      commandName = name
    } else if first.text == "--" || Self.looksLikeFilter(first.text) {
      // `todo +home` and `todo 3-5` list, like `todo` alone.
      commandName = .list
      arguments = rest
    } else if first.text.hasPrefix("-") && first.text != "-" {
      throw .unknownOption(first.text, suggestion: closestMatch(to: first.text, in: GlobalOptionNames.all))
    } else {
      throw .unknownCommand(first.text, suggestion: closestMatch(to: first.text, in: CommandName.allSpellings))
    }
    if wantsHelp {
      return Invocation(options: options, command: .help(topic: commandName.rawValue), commandLine: commandLine)
    }
    // Stage 3: the command's arguments, decoded into values.
    let decoder = ArgumentDecoder(command: commandName, now: now)
    let command = try decoder.decode(arguments)
    return Invocation(options: options, command: command, commandLine: commandLine)
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
    if word == "overdue" { return true }
    if let colon = word.firstIndex(of: ":") {
      return FilterKey(rawValue: String(word[..<colon]).lowercased()) != nil
    }
    return false
  }

  /// The arguments as one line for the journal, quoting words that need it.
  static func quotedCommandLine(_ words: [String]) -> String {
    words.map { word in
      let plain = !word.isEmpty && word.allSatisfy { !$0.isWhitespace && $0 != "'" && $0 != "\"" && $0 != "\\" }
      return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }.joined(separator: " ")
  }
}

/// The `key:` words of the filter grammar.
enum FilterKey: String {
  case project, priority, pri, status, due, dueBefore = "due.before", dueAfter = "due.after"
}
