import TodoCore
import TodoSystem

/// `config` and `context`: reading and changing the configuration file.
extension CommandRunner {
  var configuration: Configuration { session.configuration }

  func config(_ request: ConfigRequest) throws(CommandFailure) {
    switch request {
    case .list:
      let keys = configuration.listedKeys
      if format == .human {
        render(
          Table(
            columns: [
              Table.Column(header: "Key"), Table.Column(header: "Value", flexible: true), Table.Column(header: "From"),
            ],
            rows: keys.map { key in
              let origin = configuration.origin(key)
              return [
                Table.Cell(key), Table.Cell(configuration.value(key)),
                Table.Cell(origin.description, style: origin == .defaultValue ? .dim : nil),
              ]
            }))
        if let path = configuration.path { output.write("Configuration file: \(path)\(FileSystem.exists(path) ? "" : " (none yet)")\n") }
      } else {
        writeJSONList(keys) { json, key in setting(key, into: &json) }
      }
    case .get(let key):
      if format == .human {
        output.write(sanitizedForTerminal(configuration.value(key)) + "\n")
      } else {
        writeJSON { json in setting(key, into: &json) }
      }
    case .set(let key, let value):
      try changeFile(key) { file in file.set(key, value) }
      report(key, "Set \(key) = \(value)")
    case .unset(let key):
      var found = false
      let changed = try changeFile(key) { file in found = file.unset(key) }
      report(key, found ? "Unset \(key); it is \(Self.shown(changed.value(key))) now" : "\(key) was not set in the file")
    }
  }

  func context(_ request: ContextRequest) throws(CommandFailure) {
    switch request {
    case .show:
      let name = configuration.activeContext
      if format == .human {
        if let name {
          output.write("Context \(sanitizedForTerminal(name)): \(sanitizedForTerminal(configuration.value("context.\(name)")))\n")
        } else {
          output.write("No context is active; 'todo context NAME' makes one active.\n")
        }
      } else {
        writeJSON { json in
          json.object { json in
            json.field("context", name)
            json.field("filter", name.map { configuration.value("context.\($0)") })
          }
        }
      }
    case .list:
      let contexts = configuration.contexts
      let active = configuration.activeContext
      if format == .human {
        guard !contexts.isEmpty else {
          output.write("No contexts yet; 'todo context define NAME FILTER' makes one.\n")
          return
        }
        render(
          Table(
            columns: [Table.Column(header: "Context"), Table.Column(header: "Filter", flexible: true), Table.Column(header: "")],
            rows: contexts.map { [Table.Cell($0.name), Table.Cell($0.filter), Table.Cell($0.name == active ? "active" : "")] }))
      } else {
        writeJSONList(contexts) { json, context in
          json.object { json in
            json.field("name", context.name)
            json.field("filter", context.filter)
            json.field("active", context.name == active)
          }
        }
      }
    case .use(let name):
      try changeFile("context") { (file) throws(CommandFailure) in
        let defined = file.entries.compactMap { $0.key.hasPrefix("context.") ? String($0.key.dropFirst(8)) : nil }
        guard defined.contains(name) else {
          let meant = closestMatch(to: name, in: defined).map { " (did you mean '\($0)'?)" } ?? ""
          throw .usage(.invalid("there is no context '\(name)' in the configuration file\(meant); 'todo context list' lists them"))
        }
        file.set("context", name)
      }
      report("context", "Context \(name) is active: \(configuration.value("context.\(name)"))")
    case .none:
      try changeFile("context") { file in file.unset("context") }
      report("context", "No context is active.")
    case .define(let name, let filter):
      try changeFile("context.\(name)") { file in file.set("context.\(name)", filter) }
      report("context.\(name)", "Defined context \(name): \(filter)")
    case .delete(let name):
      var wasActive = false
      try changeFile("context.\(name)") { (file) throws(CommandFailure) in
        guard file.unset("context.\(name)") else {
          throw .usage(.invalid("there is no context '\(name)' in the configuration file; 'todo context list' lists them"))
        }
        // Whether the file (not this run's -c or environment) has it active.
        wasActive = file.entries.contains { $0.key == "context" && $0.value == name }
        if wasActive { file.unset("context") }
      }
      report("context.\(name)", "Deleted context \(name)\(wasActive ? "; no context is active now" : "")")
    }
  }

  /// A value as a message shows it: empty as `(empty)`.
  static func shown(_ value: String) -> String {
    value.isEmpty ? "(empty)" : value
  }

  private func setting(_ key: String, into json: inout JSONWriter) {
    let origin = configuration.origin(key)
    json.object { json in
      json.field("key", key)
      json.field("value", configuration.value(key))
      json.field("default", ConfigKey.named(key)?.defaultValue ?? "")
      json.field("origin", origin.kind)
      if case .file(let path, let line) = origin {
        json.field("file", path)
        json.field("line", line)
      }
      if case .environment(let variable) = origin { json.field("variable", variable) }
    }
  }

  /// Changes the configuration file (comments and order kept), after checking that the whole
  /// configuration still reads with the change; writes it atomically. With `--dry-run` only
  /// checks. Warns when the environment or `-c` overrides the key, so the change will not show.
  @discardableResult
  func changeFile(_ key: String, _ change: (inout ConfigFile) throws(CommandFailure) -> Void) throws(CommandFailure) -> Configuration {
    guard let path = configuration.path else {
      throw .environment("cannot find the configuration file: HOME is not set; set TODO_CONFIG to a file's path")
    }
    var file: ConfigFile
    do throws(ConfigFileError) {
      file = try Configuration.readFile(path)
    } catch {
      throw .configuration(error)
    }
    let before = file
    try change(&file)
    // The file must read on its own after the change: not only with this run's `-c` and
    // environment, which the next run may not have. A file that did not read before may be
    // mended one key at a time: the change is made, with a warning of what is still wrong.
    let fileOnly = session.environment.filter { !$0.key.hasPrefix("TODO_") || $0.key == "TODO_CONFIG" }
    do throws(CommandFailure) {
      _ = try Configuration.load(environment: fileOnly, overrides: [], now: now, file: file)
    } catch .configuration(let error) {
      let problem = "\(error.reason)\(error.key.map { " (\($0))" } ?? "")"
      guard (try? Configuration.load(environment: fileOnly, overrides: [], now: now, file: before)) == nil else {
        throw .usage(.invalid("the configuration would not read after that change: \(problem)"))
      }
      session.warn("the configuration still does not read: \(problem)", json: format != .human)
    }
    let changed =
      (try? Configuration.load(environment: session.environment, overrides: invocation.options.configOverrides, now: now, file: file))
      ?? Configuration(path: path)
    switch changed.origin(key) {
    case .environment(let variable): session.warn("\(variable) is set, and overrides \(key) while it is", json: format != .human)
    case .commandLine: session.warn("-c overrides \(key) for this command", json: format != .human)
    default: break
    }
    guard !invocation.options.dryRun, file.text != before.text else { return changed }
    if let problem = FileSystem.createParentFolders(of: path) { throw .environment(problem) }
    if let problem = FileSystem.writeAtomically(Array(file.text.utf8), to: path) {
      throw .environment("cannot write the configuration file \(path): \(problem)")
    }
    return changed
  }

  /// What a change of the file says: the message, or `{"key": …, "value": …, "file": …}`.
  private func report(_ key: String, _ message: String) {
    let path = configuration.path ?? ""
    if format == .human {
      output.write(sanitizedForTerminal(message) + (invocation.options.dryRun ? " (dry run: nothing was written)" : "") + "\n")
    } else {
      let value = (try? Configuration.load(environment: session.environment, overrides: [], now: now))?.value(key)
      writeJSON { json in
        json.object { json in
          json.field("key", key)
          json.field("value", value)
          json.field("file", path)
          if invocation.options.dryRun { json.field("dry_run", true) }
        }
      }
    }
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `config`, `config get KEY`, `config set KEY VALUE…`, `config unset KEY`.
  func configRequest(_ words: [String]) throws(UsageError) -> ConfigRequest {
    let words = words.first == "--" ? Array(words.dropFirst()) : words
    guard let action = words.first else { return .list }
    let usage = "'config' takes list, get KEY, set KEY VALUE or unset KEY"
    switch action {
    case "list":
      if words.count > 1 { throw .unexpectedArgument(command: "config list", word: words[1]) }
      return .list
    case "get", "unset":
      guard words.count >= 2 else { throw .missingArgument(command: "config \(action)", what: "a key") }
      if words.count > 2 { throw .unexpectedArgument(command: "config \(action)", word: words[2]) }
      _ = try Configuration.key(words[1])
      return action == "get" ? .get(words[1]) : .unset(words[1])
    case "set":
      guard words.count >= 3 else { throw .missingArgument(command: "config set", what: "a key and a value") }
      var value = Array(words.dropFirst(2))
      if value.first == "--" { value.removeFirst() }
      // `config set context.work +work project:acme` needs no quotes; a word with a space in
      // it stays one word of a filter or a command (`'beta one'`).
      let key = try Configuration.key(words[1])
      let wordsKind = key.kind == .filter || key.kind == .command
      let text = (wordsKind ? value.map(Self.quotedForConfiguration) : value).joinedText(" ")
      try Configuration.checkPlainText(text)
      try Configuration.check(text, for: key, now: now)
      return .set(words[1], text)
    default:
      throw .invalid(usage + ", not '\(action)'")
    }
  }

  /// `context`, `context NAME`, `context none`, `context list`, `context show`,
  /// `context define NAME FILTER…`, `context delete NAME`.
  func contextRequest(_ words: [String]) throws(UsageError) -> ContextRequest {
    guard let first = words.first else { return .show }
    func name(_ word: String) throws(UsageError) -> String {
      guard ConfigKey.isName(word), !Self.contextWords.contains(word) else {
        throw .badValue(
          option: "context", value: word,
          reason: "a context name starts with a letter and has letters, digits, '_' and '-' (not \(Self.contextWords.joinedText(", ")))")
      }
      return word
    }
    switch first {
    case "list", "show", "none":
      if words.count > 1 { throw .unexpectedArgument(command: "context \(first)", word: words[1]) }
      return first == "list" ? .list : first == "show" ? .show : .none
    case "define":
      guard words.count >= 3 else { throw .missingArgument(command: "context define", what: "a name and a filter") }
      var filterWords = Array(words.dropFirst(2))
      if filterWords.first == "--" { filterWords.removeFirst() }
      let filter = filterWords.map(Self.quotedForConfiguration).joinedText(" ")
      try Configuration.checkPlainText(filter)
      _ = try Configuration.filter(filter, now: now, configuration: configuration)
      return .define(try name(words[1]), filter)
    case "delete":
      guard words.count == 2 else {
        throw words.count < 2
          ? .missingArgument(command: "context delete", what: "a name") : .unexpectedArgument(command: "context delete", word: words[2])
      }
      return .delete(try name(words[1]))
    default:
      if words.count > 1 { throw .unexpectedArgument(command: CommandName.context.rawValue, word: words[1]) }
      return .use(try name(first))
    }
  }

  /// A word as a configured filter keeps it: quoted when it holds a space or a quote.
  static func quotedForConfiguration(_ word: String) -> String {
    guard word.contains(where: { $0 == " " || $0 == "\t" || $0 == "'" || $0 == "\"" || $0 == "\\" }) || word.isEmpty else {
      return word
    }
    return "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
