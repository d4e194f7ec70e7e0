import TodoCore
import TodoSystem
import TodoUI

/// Where a setting's value came from, from weakest to strongest.
enum ConfigOrigin: Sendable, Equatable {
  case defaultValue
  case file(path: String, line: Int)
  case environment(String)
  case commandLine

  /// `default`, `file:12`, `env:TODO_COLOR`, `-c`.
  var description: String {
    switch self {
    case .defaultValue: "default"
    case .file(_, let line): "file:\(line)"
    case .environment(let variable): "env:\(variable)"
    case .commandLine: "-c"
    }
  }

  /// The JSON form: `default`, `file`, `environment`, `command line`.
  var kind: String {
    switch self {
    case .defaultValue: "default"
    case .file: "file"
    case .environment: "environment"
    case .commandLine: "command line"
    }
  }
}

/// Every setting of one run: the defaults, overridden by the configuration file, then by the
/// environment (`TODO_WEEK_START`), then by `-c key=value`. Every value is checked when it is
/// read, so that a bad one stops the command before anything runs.
///
/// ```swift
/// let configuration = try Configuration.load(environment: environment, overrides: ["week.start=sunday"], now: now)
/// configuration.value("week.start")  // "sunday"
/// ```
struct Configuration: Sendable {
  struct Setting: Sendable, Equatable {
    var value: String
    var origin: ConfigOrigin
  }

  /// The file read (or that `config set` writes): `TODO_CONFIG`, else
  /// `${XDG_CONFIG_HOME:-~/.config}/todo/config`; nil without a home.
  let path: String?
  /// The settings that are not defaults.
  private(set) var settings: [String: Setting] = [:]

  /// The defaults alone (no file, no environment): tests and the parser's fallback.
  static let defaults = Configuration(path: nil)

  init(path: String?) {
    self.path = path
  }

  /// The configuration file's path for an environment.
  static func filePath(environment: [String: String]) -> String? {
    if let named = environment["TODO_CONFIG"], !named.isEmpty { return named }
    return FileSystem.xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", environment: environment).map {
      $0 + "/todo/config"
    }
  }

  /// The hooks folder: `${XDG_CONFIG_HOME:-~/.config}/todo/hooks`.
  static func hooksFolder(environment: [String: String]) -> String? {
    FileSystem.xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", environment: environment).map { $0 + "/todo/hooks" }
  }

  /// Reads the file, the environment and the `-c` overrides (`key=value` each).
  /// `file`: the file as it would be after a change (`config set`), instead of the one on disk.
  static func load(environment: [String: String], overrides: [String], now: Int64, file: ConfigFile? = nil)
    throws(CommandFailure) -> Configuration
  {
    var configuration = Configuration(path: filePath(environment: environment))
    if let path = configuration.path {
      let read: ConfigFile
      do throws(ConfigFileError) {
        if let file { read = file } else { read = try readFile(path) }
      } catch {
        throw .configuration(error)
      }
      for entry in read.entries {
        do throws(UsageError) {
          try configuration.set(entry.key, entry.value, origin: .file(path: path, line: entry.line), now: now)
        } catch {
          throw .configuration(ConfigFileError(path: path, line: entry.line, key: entry.key, reason: error.message))
        }
      }
    }
    // Only when some configuration variable is set is the list of keys built.
    let variables = environment.keys.filter { $0.hasPrefix("TODO_") && $0 != "TODO_DB" && $0 != "TODO_CONFIG" && $0 != "TODO_NOW" }
    for key in variables.isEmpty ? [] : ConfigKey.fixed {
      guard let value = environment[key.environmentVariable] else { continue }
      do throws(UsageError) {
        try configuration.set(key.name, value, origin: .environment(key.environmentVariable), now: now)
      } catch {
        throw .environment("\(key.environmentVariable) (\(key.name)): \(error.message)")
      }
    }
    for override in overrides {
      guard let equals = override.firstIndex(of: "=") else {
        throw .usage(.badValue(option: "-c", value: override, reason: "write it key=value, such as -c week.start=sunday"))
      }
      let key = String(override[..<equals])
      do throws(UsageError) {
        try configuration.set(key, String(override[override.index(after: equals)...]), origin: .commandLine, now: now)
      } catch {
        throw .usage(.badValue(option: "-c", value: override, reason: error.message))
      }
    }
    if !configuration.settings.isEmpty { try configuration.checkReferences(now: now) }
    return configuration
  }

  /// The configuration file, parsed; an empty one when there is no file.
  static func readFile(_ path: String) throws(ConfigFileError) -> ConfigFile {
    guard FileSystem.exists(path) else { return ConfigFile(path: path) }
    // Its `editor` runs through the shell and its hooks settings decide what runs: a file
    // someone else could change is refused, as a hook would be (a special file such as
    // /dev/null, which holds nothing, is read).
    if FileSystem.isRegularFile(path), let problem = FileSystem.changeableByOthers(path, kind: "configuration file") {
      throw ConfigFileError(path: path, reason: problem.replacing("the configuration file \(path) ", with: "it ") + ", so it was not read")
    }
    switch FileSystem.readAll(path) {
    case .failure(let problem):
      throw ConfigFileError(path: path, reason: "cannot read it: \(problem.reason)")
    case .success(let bytes):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigFileError(path: path, reason: "it is not UTF-8 text")
      }
      return try ConfigFile(text: text, path: path)
    }
  }

  /// Refuses a value holding a control character: a value is one line of text (a CR, or CR LF,
  /// which is one `Character` and so passed a check for either, would start a line of its own
  /// in the file: a key such as `editor` injected by a value). For values typed (`config set`,
  /// `context define`, `-c`, the environment), not for what the file already holds.
  static func checkPlainText(_ value: String) throws(UsageError) {
    if let control = value.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
      let code = String(control.value, radix: 16, uppercase: true)
      throw .invalid("a value is one line of text, without control characters (it holds U+\(String(repeating: "0", count: 4 - code.count) + code))")
    }
  }

  /// Sets one key, after checking the key exists and the value suits it.
  mutating func set(_ name: String, _ value: String, origin: ConfigOrigin, now: Int64) throws(UsageError) {
    let key = try Self.key(name)
    // Typed values (-c, the environment) are one line of plain text; the file is the user's own,
    // and its lines are lines already.
    if origin == .commandLine || origin == .environment(key.environmentVariable) { try Self.checkPlainText(value) }
    try Self.check(value, for: key, now: now)
    // A report's columns and sort may name user-defined attributes. A file is read a line at a
    // time (its `uda.` lines may follow), and checked whole once read; a value typed now is
    // checked against the attributes defined.
    if case .file = origin {
    } else if key.kind == .filter {
      _ = try Self.filter(value, now: now, configuration: self)
    } else if key.kind == .columns {
      _ = try ReportColumn.parseList(value, attributes: userAttributes)
    } else if key.kind == .sort {
      _ = try ReportDefinition.parseSort(value, attributes: userAttributes)
    }
    settings[name] = Setting(value: value, origin: origin)
  }

  /// The key a name stands for, or a usage error naming the closest known key.
  static func key(_ name: String) throws(UsageError) -> ConfigKey {
    if let key = ConfigKey.named(name) { return key }
    let parts = name.split(separator: ".")
    if parts.count == 3, parts[0] == "report", CommandName.spellings[String(parts[1])] != nil {
      throw .invalid("'\(parts[1])' is a command, so a report of that name could never run; name the report otherwise")
    }
    let known = ConfigKey.listed.map(\.name) + ["context.NAME", "report.NAME.columns"]
    let meant = closestMatch(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
    throw .invalid("'\(name)' is not a configuration key\(meant); 'todo config' lists them")
  }

  /// The words of Taskwarrior's `verbose` list that `verbose` takes: `project` and `unwait`
  /// choose todo's notes; the others name what todo prints anyway, or never.
  static let verbosityWords = [
    "project", "unwait", "affected", "blank", "context", "edit", "footnote", "header", "label", "new-id", "new-uuid",
    "override", "recur", "special", "sync",
  ]

  /// Checks a value against what its key takes.
  static func check(_ value: String, for key: ConfigKey, now: Int64) throws(UsageError) {
    if value.contains("\n") || value.contains("\r") { throw .invalid("a value is one line") }
    switch key.kind {
    case .toggle:
      guard toggle(value) != nil else { throw .invalid("expected on or off, not '\(value)'") }
    case .count(let minimum):
      guard let number = Int(value), number >= minimum else {
        throw .invalid("expected a whole number ≥ \(minimum), not '\(value)'")
      }
    case .number:
      guard let number = Double(value), number.isFinite else { throw .invalid("expected a number, not '\(value)'") }
      if key.name == "urgency.age.max" && number <= 0 { throw .invalid("expected a number of days above 0") }
    case .seconds(let maximum):
      guard let number = Double(value), number > 0, number <= maximum else {
        throw .invalid("expected a number of seconds above 0 and at most \(ConfigKey.number(maximum)), not '\(value)'")
      }
    case .choice(let choices):
      guard choices.contains(value) else {
        throw .invalid("expected one of \(choices.joinedText(", ")), not '\(value)'")
      }
    case .text where key.name == "verbose":
      // Taskwarrior's words are taken (its lists name things todo prints anyway, or never).
      let known = Set(["on", "off", "yes", "no", "true", "false", "1", "0", "nothing"] + Self.verbosityWords)
      let words = value.lowercased().split(separator: ",").map { String($0).trimmingWhitespace() }
      if let unknown = words.first(where: { !known.contains($0) }) {
        throw .invalid("'\(unknown)' is not a verbosity; use on, off, nothing, or some of \(Self.verbosityWords.joinedText(","))")
      }
    case .text:
      break
    case .key:
      guard Key(name: value) != nil else {
        throw .invalid("'\(value)' is not a key; say a character, Space, Enter, Tab, Esc, Up, Down, PgUp, PgDn, Home, End or Ctrl-X")
      }
    case .style:
      _ = try TextStyle.parse(value)
    case .dateFormat:
      _ = try DateFormat(value)
    case .command:
      let words = try words(of: value)
      guard let first = words.first else { throw .invalid("name a command, such as list or next") }
      guard CommandName.spellings[first] != nil || ConfigKey.isName(first) else {
        throw .invalid("'\(first)' is not a command")
      }
    case .filter:
      // Read with the whole configuration (its user-defined attributes, its urgency): see `set`
      // and `checkReferences`.
      break
    case .columns:
      _ = try ReportColumn.parseList(value, attributes: nil)
    case .labels:
      break
    case .sort:
      _ = try ReportDefinition.parseSort(value, attributes: nil)
    case .contextName:
      guard value.isEmpty || ConfigKey.isName(value) else { throw .invalid("'\(value)' is not a context name") }
    }
  }

  /// Checks what keys say of one another: the active context is defined, a report's labels
  /// match its columns, `default.command` names a command or a report.
  private func checkReferences(now: Int64) throws(CommandFailure) {
    func fail(_ key: String, _ reason: String) throws(CommandFailure) {
      let setting = settings[key]
      switch setting?.origin {
      case .file(let path, let line)?:
        throw .configuration(ConfigFileError(path: path, line: line, key: key, reason: reason))
      case .environment(let variable)?: throw .environment("\(variable) (\(key)): \(reason)")
      default: throw .usage(.badValue(option: "-c", value: "\(key)=\(setting?.value ?? "")", reason: reason))
      }
    }
    let context = value("context")
    if !context.isEmpty && settings["context.\(context)"] == nil {
      try fail("context", "there is no context '\(context)'; 'todo context define \(context) FILTER' makes one")
    }
    // Filters (contexts, reports'), read now that every attribute they may name is defined.
    for (name, setting) in settings.sorted(by: { $0.key < $1.key }) where ConfigKey.named(name)?.kind == .filter {
      do throws(UsageError) {
        _ = try Self.filter(setting.value, now: now, configuration: self)
      } catch {
        try fail(name, error.message)
      }
    }
    for name in reportNames where sets(prefix: "report.\(name).") {
      // Columns and sort keys that name user-defined attributes: defined, now that all are read.
      for property in ["columns", "sort"] where settings["report.\(name).\(property)"] != nil {
        do throws(UsageError) {
          if property == "columns" {
            _ = try ReportColumn.parseList(value("report.\(name).columns"), attributes: userAttributes)
          } else {
            _ = try ReportDefinition.parseSort(value("report.\(name).sort"), attributes: userAttributes)
          }
        } catch {
          try fail("report.\(name).\(property)", error.message)
        }
      }
      let labels = value("report.\(name).labels")
      guard !labels.isEmpty else { continue }
      let columns = (try? ReportColumn.parseList(value("report.\(name).columns"), attributes: nil)) ?? []
      let count = labels.split(separator: ",", omittingEmptySubsequences: false).count
      if count != columns.count {
        try fail("report.\(name).labels", "\(count) labels for \(columns.count) columns")
      }
    }
    if settings["default.command"] != nil {
      let words = (try? Self.words(of: value("default.command"))) ?? []
      let command = words.first ?? CommandName.list.rawValue
      if CommandName.spellings[command] == nil && !reportNames.contains(command) {
        try fail("default.command", "'\(command)' is not a command or a report")
      }
      // It runs at every bare `todo`: it must read and only show.
      var global = CommandParser.GlobalPart()
      global.rest = words.enumerated().map { Token(text: $0.element, position: $0.offset + 1) }
      let invocation: Invocation
      do throws(UsageError) {
        invocation = try CommandParser(now: now).parseCommand(global, configuration: self)
      } catch {
        try fail("default.command", error.message)
        return
      }
      if !invocation.name.declaration.onlyReads {
        try fail("default.command", "'\(command)' changes tasks; the default command only shows them")
      }
    }
  }

  /// `todo ui`'s key bindings that are set (`ui.key.ACTION`), by action name.
  var keyBindings: [String: String] {
    var bindings: [String: String] = [:]
    for (name, setting) in settings where name.hasPrefix("ui.key.") { bindings[String(name.dropFirst("ui.key.".count))] = setting.value }
    return bindings
  }

  /// A key's value: its setting, else its default.
  func value(_ name: String) -> String {
    settings[name]?.value ?? ConfigKey.named(name)?.defaultValue ?? ""
  }

  func origin(_ name: String) -> ConfigOrigin {
    settings[name]?.origin ?? .defaultValue
  }

  /// Every key to list: the fixed ones, the built-in reports' properties, and every context
  /// and report property set, in name order after the fixed ones.
  var listedKeys: [String] {
    let fixed = ConfigKey.listed.map(\.name)
    let known = Set(fixed)
    return fixed + settings.keys.filter { !known.contains($0) }.sorted()
  }

  // MARK: - typed values

  static func toggle(_ value: String) -> Bool? {
    switch value.lowercased() {
    case "on", "yes", "true", "1": true
    case "off", "no", "false", "0": false
    default: nil
    }
  }

  // The settings a command reads every time look in `settings` first and fall back to their
  // defaults as literals: without a configuration, no key table is ever built.
  var confirmationThreshold: Int { settings["confirmation.threshold"].flatMap { Int($0.value) } ?? 3 }
  var weekStartsOnSunday: Bool { settings["week.start"]?.value == "sunday" }
  var dateFormat: DateFormat { settings["date.format"].flatMap { try? DateFormat($0.value) } ?? .standard }
  var colorMode: ColorMode { settings["color"].flatMap { ColorMode(rawValue: $0.value) } ?? .auto }
  /// `tracking.exclusive`: `start` stops the other active tasks.
  var trackingIsExclusive: Bool { settings["tracking.exclusive"].flatMap { Self.toggle($0.value) } ?? false }
  /// `search.case.sensitive`: whether `/regex/` in a filter tells upper from lower case.
  var searchIsCaseSensitive: Bool { settings["search.case.sensitive"].flatMap { Self.toggle($0.value) } ?? true }
  /// `calendar.weeknumbers`: ISO week numbers beside the calendar's weeks.
  var calendarWeekNumbers: Bool { settings["calendar.weeknumbers"].flatMap { Self.toggle($0.value) } ?? false }
  var hooksEnabled: Bool { settings["hooks"].flatMap { Self.toggle($0.value) } ?? true }
  /// The most bytes an import reads (`import.limit`, in MiB).
  var importLimit: Int { min(settings["import.limit"].flatMap { Int($0.value) } ?? 256, 1 << 30) << 20 }
  /// Whether `import` runs the on-add and on-modify hooks for the tasks it adds and updates.
  var hooksRunForImport: Bool { settings["hooks.import"].flatMap { Self.toggle($0.value) } ?? false }
  /// Whether `sync` runs the on-add and on-modify hooks for the tasks the server brings or changes.
  var hooksRunForSync: Bool { settings["hooks.sync"].flatMap { Self.toggle($0.value) } ?? false }
  var hookTimeout: Double { settings["hooks.timeout"].flatMap { Double($0.value) } ?? 5 }

  /// Whether a report is `list` as built in, which is drawn without looking the report up (the
  /// configuration does not change it).
  func isPlainList(_ report: String?) -> Bool {
    report == "list" && !sets(prefix: "report.list.")
  }

  /// Whether any key starting with `prefix` is set.
  func sets(prefix: String) -> Bool {
    !settings.isEmpty && settings.keys.contains { $0.hasPrefix(prefix) }
  }

  var palette: TextStyle.Palette {
    guard sets(prefix: "color.") else { return TextStyle.Palette() }
    var palette = TextStyle.Palette()
    for (role, _) in TextStyle.Palette.roles {
      if let path = TextStyle.Palette.paths[role] { palette[keyPath: path] = (try? TextStyle.parse(value("color.\(role)"))) ?? nil }
    }
    return palette
  }

  var urgency: Urgency.Coefficients {
    guard sets(prefix: "urgency.") else { return Urgency.Coefficients() }
    var coefficients = Urgency.Coefficients()
    for coefficient in Urgency.Coefficients.names {
      if let number = Double(value("urgency.\(coefficient.name)")) { coefficients[keyPath: coefficient.path] = number }
    }
    for (key, setting) in settings where key.hasPrefix("urgency.user.") && key.hasSuffix(".coefficient") {
      let parts = key.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count >= 5, let number = Double(setting.value) else { continue }
      let target = parts[3..<(parts.count - 1)].joined(separator: ".")
      if parts[2] == "tag" { coefficients.userTags[target] = number } else { coefficients.userProjects[target] = number }
    }
    for (key, setting) in settings where key.hasPrefix("urgency.uda.") && key.hasSuffix(".coefficient") {
      let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard parts.count >= 4, let number = Double(setting.value) else { continue }
      let value = parts[3..<(parts.count - 1)].joined(separator: ".")
      if value.isEmpty {
        coefficients.userAttributes[parts[2]] = number
      } else {
        coefficients.userAttributeValues[parts[2], default: [:]][value] = number
      }
    }
    return coefficients
  }

  /// The user-defined attributes (`uda.NAME.*`; one is defined by any of its keys, a string
  /// unless `uda.NAME.type` says otherwise), by name.
  var userAttributes: [String: UserAttribute] {
    guard sets(prefix: "uda.") else { return [:] }
    var names: Set<String> = []
    for key in settings.keys where key.hasPrefix("uda.") {
      let parts = key.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 3, UserAttribute.isName(String(parts[1])) { names.insert(String(parts[1])) }
    }
    var attributes: [String: UserAttribute] = [:]
    for name in names {
      func setting(_ property: String) -> String? {
        settings["uda.\(name).\(property)"].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
      }
      attributes[name] = UserAttribute(
        name: name, kind: setting("type").flatMap(UserAttribute.Kind.init(rawValue:)) ?? .string, label: setting("label"),
        values: setting("values").map { $0.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty } } ?? [],
        defaultValue: setting("default"))
    }
    return attributes
  }

  /// The editor command line of `todo edit`: `editor`, else `$VISUAL`, else `$EDITOR`, else vi.
  func editor(environment: [String: String]) -> String {
    for candidate in [settings["editor"]?.value ?? "", environment["VISUAL"] ?? "", environment["EDITOR"] ?? ""] {
      if !candidate.trimmingWhitespace().isEmpty { return candidate }
    }
    return "vi"
  }

  /// The active context's name, nil when none is.
  var activeContext: String? {
    guard let name = settings["context"]?.value, !name.isEmpty else { return nil }
    return name
  }

  /// The defined contexts and their filters, by name.
  var contexts: [(name: String, filter: String)] {
    settings.keys.filter { $0.hasPrefix("context.") }.sorted().map { key in
      (String(key.dropFirst("context.".count)), settings[key]!.value)
    }
  }

  /// The reports: the built-in ones and every one the configuration names.
  var reportNames: [String] {
    var names = ReportDefinition.builtInNames
    guard sets(prefix: "report.") else { return names }
    for key in settings.keys where key.hasPrefix("report.") {
      let name = String(key.split(separator: ".")[1])
      if !names.contains(name) { names.append(name) }
    }
    return names
  }

  /// A report as configured; nil when there is no report of that name.
  func report(_ name: String) -> ReportDefinition? {
    if !sets(prefix: "report.\(name).") { return ReportDefinition.builtInDefinitions[name] }
    guard reportNames.contains(name) else { return nil }
    return try? ReportDefinition(name: name, attributes: userAttributes, value: { self.value("report.\(name).\($0)") })
  }

  // MARK: - words

  /// A value's words, split as a shell would (quotes keep spaces).
  static func words(of value: String) throws(UsageError) -> [String] {
    do throws(WordSplitError) {
      return try WordSplitter.split(value)
    } catch {
      throw .invalid(error.message)
    }
  }

  /// A filter value, read as `todo list` reads its words, with `configuration`'s urgency
  /// coefficients and user-defined attributes. Options have no place in it.
  static func filter(_ value: String, now: Int64, configuration: Configuration = .defaults) throws(UsageError) -> TodoFilter {
    var decoder = ArgumentDecoder(command: .list, now: now, configuration: configuration)
    let words = try Self.words(of: value).enumerated().map { FilterWord($0.element, at: $0.offset + 1) }
    if let option = words.first(where: { $0.text.hasPrefix("--") }) {
      throw .invalid("'\(option.text)' is an option; a configured filter holds filter terms only")
    }
    let filter = try decoder.filter(words)
    guard filter.references.isEmpty else {
      throw .invalid("a configured filter cannot name tasks by id (ids change meaning as tasks come and go)")
    }
    return filter
  }
}
