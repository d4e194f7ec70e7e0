import TodoCore
import TodoUI

/// One configuration key: its name, default, what it takes, and what it does (for
/// `todo config` and the man page).
struct ConfigKey: Sendable {
  /// What values a key takes.
  enum Kind: Sendable, Equatable {
    /// `on`/`off` (also `yes`/`no`, `true`/`false`, `1`/`0`).
    case toggle
    /// A key of `todo ui`: a character, `Space`, `Enter`, `Ctrl-L`, `PgDn`…
    case key
    /// A whole number from `minimum` up.
    case count(minimum: Int)
    /// A decimal number (urgency coefficients may be negative).
    case number
    /// A number of seconds above 0, at most `maximum`.
    case seconds(maximum: Double)
    case choice([String])
    /// Any text on one line.
    case text
    /// Terminal styles: `bold red`, `underline`, `none` (see `TextStyle.parse`).
    case style
    /// A `strftime`-like pattern for dates (`%Y-%m-%d`).
    case dateFormat
    /// A command line (`next`, `list +work`).
    case command
    /// Filter terms (`+work project:acme`).
    case filter
    /// Report columns, comma-separated.
    case columns
    /// Column headings, comma-separated.
    case labels
    /// A sort order (`due,-priority`, or `urgency`).
    case sort
    /// The name of a defined context, or empty for none.
    case contextName
  }

  var name: String
  var defaultValue: String
  var kind: Kind
  var summary: String

  /// The keys with a fixed name, in the order `todo config` lists them.
  static let fixed: [ConfigKey] = {
    var keys = [
      ConfigKey(name: "default.command", defaultValue: "list", kind: .command, summary: "what 'todo' alone runs"),
      ConfigKey(
        name: "confirmation.threshold", defaultValue: "3", kind: .count(minimum: 0),
        summary: "a change of more tasks than this, chosen by a filter, asks first on a terminal"),
      ConfigKey(
        name: "week.start", defaultValue: "monday", kind: .choice(["monday", "sunday"]),
        summary: "the first day of a week (sow, eow, +WEEK, timesheet --by week)"),
      ConfigKey(
        name: "date.format", defaultValue: "%Y-%m-%d", kind: .dateFormat,
        summary: "how dates are shown (%Y %y %m %d %e %b %B %a %A %%)"),
      ConfigKey(
        name: "color", defaultValue: "auto", kind: .choice(["auto", "always", "never"]),
        summary: "colour: auto (on a terminal, unless NO_COLOR is set), always or never"),
    ]
    for (role, style) in TextStyle.Palette.roles {
      keys.append(ConfigKey(name: "color.\(role)", defaultValue: style, kind: .style, summary: "the look of \(role) in lists"))
    }
    for coefficient in Urgency.Coefficients.names {
      keys.append(
        ConfigKey(
          name: "urgency.\(coefficient.name)", defaultValue: Self.number(coefficient.value), kind: .number,
          summary: coefficient.summary))
    }
    keys += [
      ConfigKey(name: "hooks", defaultValue: "on", kind: .toggle, summary: "run the hooks in the hooks folder"),
      ConfigKey(
        name: "calendar.weeknumbers", defaultValue: "off", kind: .toggle, summary: "week numbers beside the calendar's weeks"),
      ConfigKey(
        name: "verbose", defaultValue: "on", kind: .text,
        summary: "the notes after a change: on, off (or nothing), or some of project,unwait"),
      ConfigKey(
        name: "search.case.sensitive", defaultValue: "on", kind: .toggle,
        summary: "whether /regex/ in a filter tells upper from lower case (search words never do)"),
      ConfigKey(
        name: "hooks.import", defaultValue: "off", kind: .toggle,
        summary: "import runs the on-add and on-modify hooks for the tasks it adds and updates"),
      ConfigKey(
        name: "hooks.sync", defaultValue: "off", kind: .toggle,
        summary: "sync runs the on-add and on-modify hooks for the tasks the server brings or changes"),
      ConfigKey(
        name: "hooks.timeout", defaultValue: "5", kind: .seconds(maximum: 60),
        summary: "seconds a hook may run before it is stopped and the command fails"),
      ConfigKey(
        name: "tracking.exclusive", defaultValue: "off", kind: .toggle,
        summary: "start stops the other active tasks (off: several may be active, as in Taskwarrior)"),
      ConfigKey(
        name: "import.limit", defaultValue: "256", kind: .count(minimum: 1),
        summary: "the most MiB an import reads: a larger input (or an endless one) is refused"),
      ConfigKey(
        name: "editor", defaultValue: "", kind: .text,
        summary: "the editor of 'todo edit' (empty: $VISUAL, else $EDITOR, else vi)"),
      ConfigKey(name: "context", defaultValue: "", kind: .contextName, summary: "the active context (empty: none)"),
      ConfigKey(
        name: "remind.notify", defaultValue: "desktop", kind: .text,
        summary: "how reminders are delivered: desktop, terminal, command (comma-separated)"),
      ConfigKey(
        name: "remind.command", defaultValue: "", kind: .text,
        summary: "the program 'command' delivery runs, the reminder as JSON on its input"),
      ConfigKey(
        name: "remind.quiet", defaultValue: "", kind: .text,
        summary: "hours with no reminders (22:00-07:00); they come when the hours end"),
      ConfigKey(
        name: "remind.missed.limit", defaultValue: "1d", kind: .text,
        summary: "a reminder missed longer ago than this is recorded, not shown"),
      ConfigKey(name: "remind.snooze", defaultValue: "10min", kind: .text, summary: "how long 'todo remind snooze' waits"),
      ConfigKey(name: "ui.mouse", defaultValue: "on", kind: .toggle, summary: "todo ui: a click selects, the wheel scrolls"),
    ]
    return keys
  }()

  /// The properties of a report, `report.NAME.PROPERTY`.
  static let reportProperties: [(name: String, kind: Kind, summary: String)] = [
    ("description", .text, "what the report shows, for 'todo help reports'"),
    ("columns", .columns, "the columns, comma-separated"),
    ("labels", .labels, "the column headings, comma-separated (empty: the usual ones)"),
    ("sort", .sort, "the order: fields comma-separated, '-' before one for descending, or urgency"),
    ("filter", .filter, "filter terms every run of the report adds"),
    ("limit", .count(minimum: 0), "show at most this many tasks (0: all)"),
  ]

  /// The key a name stands for: a fixed key, a context (`context.NAME`) or a report property
  /// (`report.NAME.columns`); nil when there is no such key.
  static func named(_ name: String) -> ConfigKey? {
    if let key = fixedByName[name] { return key }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    // Taskwarrior's `urgency.user.tag.NAME.coefficient`, `urgency.user.project.NAME.coefficient`.
    if parts.count >= 5, parts[0] == "urgency", parts[1] == "user", parts.last == "coefficient",
      parts[2] == "tag" && parts.count == 5 || parts[2] == "project"
    {
      let target = parts[3..<(parts.count - 1)].joined(separator: ".")
      guard !target.isEmpty, !parts[3..<(parts.count - 1)].contains("") else { return nil }
      let what = parts[2] == "tag" ? "tagged +\(target)" : "in the project \(target) or a sub-project"
      return ConfigKey(name: name, defaultValue: "0", kind: .number, summary: "urgency: a term for tasks \(what)")
    }
    // Taskwarrior's `urgency.uda.NAME.coefficient` and `urgency.uda.NAME.VALUE.coefficient`.
    if parts.count >= 4, parts[0] == "urgency", parts[1] == "uda", parts.last == "coefficient", UserAttribute.isName(parts[2]) {
      let value = parts[3..<(parts.count - 1)].joined(separator: ".")
      let what = value.isEmpty ? "that have \(parts[2])" : "whose \(parts[2]) is \(value)"
      return ConfigKey(name: name, defaultValue: "0", kind: .number, summary: "urgency: a term for tasks \(what)")
    }
    // Taskwarrior's user-defined attributes: `uda.NAME.type`, `.label`, `.values`, `.default`.
    if parts.count == 3, parts[0] == "uda", UserAttribute.isName(parts[1]) {
      let attribute = parts[1]
      switch parts[2] {
      case "type":
        return ConfigKey(
          name: name, defaultValue: "string", kind: .choice(UserAttribute.Kind.allCases.map(\.rawValue)),
          summary: "defines the attribute \(attribute): \(attribute):VALUE sets it, \(attribute): clears it, and filters compare it")
      case "label": return ConfigKey(name: name, defaultValue: "", kind: .text, summary: "the heading and name \(attribute) is shown with")
      case "values":
        return ConfigKey(name: name, defaultValue: "", kind: .text, summary: "the values \(attribute) may take, comma-separated (empty: any)")
      case "default":
        return ConfigKey(name: name, defaultValue: "", kind: .text, summary: "the value a new task gets when add gives none")
      default: return nil
      }
    }
    // `todo ui`'s keys: `ui.key.ACTION = KEY`.
    if parts.count == 3, parts[0] == "ui", parts[1] == "key", let action = UIAction(rawValue: parts[2]) {
      return ConfigKey(
        name: name, defaultValue: KeyMap.defaultKeyName(of: action), kind: .key, summary: "todo ui: the key that does this: \(action.summary)")
    }
    if parts.count == 2, parts[0] == "context", isName(parts[1]), !ArgumentDecoder.contextWords.contains(parts[1]) {
      return ConfigKey(name: name, defaultValue: "", kind: .filter, summary: "the filter of the context \(parts[1])")
    }
    if parts.count == 3, parts[0] == "report", isName(parts[1]),
      CommandName.spellings[parts[1]] == nil || ReportDefinition.builtInNames.contains(parts[1]),
      let property = reportProperties.first(where: { $0.name == parts[2] })
    {
      // A report of the configuration's starts from the list's columns.
      let builtIn =
        ReportDefinition.builtIn[parts[1]]?[property.name] ?? (property.name == "columns" ? ReportDefinition.listColumns : "")
      return ConfigKey(name: name, defaultValue: builtIn, kind: property.kind, summary: property.summary)
    }
    return nil
  }

  /// Every fixed key, and the properties of the built-in reports, for listing and suggestions.
  static var listed: [ConfigKey] {
    var keys = fixed
    for name in ReportDefinition.builtInNames {
      for property in reportProperties { if let key = named("report.\(name).\(property.name)") { keys.append(key) } }
    }
    return keys
  }

  private static let fixedByName: [String: ConfigKey] = {
    var keys: [String: ConfigKey] = [:]
    for key in fixed { keys[key.name] = key }
    return keys
  }()

  /// A context or report name: letters, digits, `_` and `-`, starting with a letter.
  static func isName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.value < 0x80, first.properties.isAlphabetic else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      (scalar.value < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || scalar == "_"
        || scalar == "-"
    }
  }

  /// The environment variable that sets this key: `TODO_` and the name in capitals, with `.`
  /// and `-` as `_` (`week.start` → `TODO_WEEK_START`). Only fixed keys have one.
  var environmentVariable: String {
    "TODO_" + String(name.map { $0 == "." || $0 == "-" ? "_" : Character($0.uppercased()) })
  }

  /// A number as the configuration writes it: `12`, `3.9`, `-5`.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
