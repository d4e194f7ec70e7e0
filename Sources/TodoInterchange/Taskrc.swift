import TodoCore

/// Taskwarrior's configuration file (`~/.taskrc`, or `$TASKRC`), read and translated into
/// todo's settings for `todo migrate taskwarrior`.
///
/// A line is `key=value`; `#` starts a comment line; `include FILE` pulls in another file
/// (Taskwarrior's themes and holidays, which have no counterpart here: noted, not followed).
/// Each setting translates to todo's keys where one means the same, or says why it does not.
///
/// ```swift
/// let file = Taskrc(text: "weekstart=Sunday\nreport.mine.filter=+work\n")
/// file.entries.map(Taskrc.translate)  // [.settings([("week.start", "sunday")]), .settings([("report.mine.filter", "+work")])]
/// ```
public struct Taskrc: Sendable {
  public struct Entry: Sendable, Equatable {
    public var line: Int
    public var key: String
    public var value: String
  }

  /// What one setting becomes.
  public enum Translation: Sendable, Equatable {
    /// todo's keys and values (several for a report's columns and labels, none for a default).
    case settings([Setting])
    /// Why it has no counterpart here.
    case untranslated(String)
    /// Some of it: the settings, and what was left out.
    case partly([Setting], String)
  }

  public struct Setting: Sendable, Equatable {
    public var key: String
    public var value: String
    public init(_ key: String, _ value: String) {
      self.key = key
      self.value = value
    }
  }

  public var entries: [Entry] = []
  /// `include` lines, which are not followed, by line.
  public var includes: [(line: Int, file: String)] = []

  public init(text: String) {
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw).replacing("\t", with: " ").trimmingSpaces
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      if line.hasPrefix("include ") || line.hasPrefix("include\t") {
        includes.append((index + 1, String(line.dropFirst(8)).trimmingSpaces))
        continue
      }
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = String(line[..<equals]).trimmingSpaces
      var value = String(line[line.index(after: equals)...]).trimmingSpaces
      // A comment after the value (`limit=3  # three`), as Taskwarrior strips it.
      if let hash = value.firstRange(of: " #") { value = String(value[..<hash.lowerBound]).trimmingSpaces }
      entries.append(Entry(line: index + 1, key: key, value: value))
    }
  }

  /// What `entry` becomes in todo's configuration.
  /// `attributes`: the user-defined attributes the file defines, which reports may show and
  /// sort by.
  public static func translate(_ entry: Entry, attributes: Set<String> = []) -> Translation {
    let key = entry.key, value = entry.value
    let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    switch key {
    case "default.command": return .settings([Setting("default.command", value)])
    case "weekstart": return .settings([Setting("week.start", value.lowercased())])
    case "dateformat", "dateformat.report", "report.dateformat":
      return dateFormat(value).map { .settings([Setting("date.format", $0)]) }
        ?? .untranslated("date.format writes days only (%Y %y %m %d %e %b %B %a %A %j)")
    case "color": return .settings([Setting("color", ["on", "yes", "true", "1"].contains(value.lowercased()) ? "auto" : "never")])
    case "context": return .settings([Setting("context", value)])
    case "search.case.sensitive": return .settings([Setting("search.case.sensitive", value)])
    case "verbose": return .settings([Setting("verbose", value)])
    case "data.location": return .untranslated("the tasks are read with 'task export', not from the files")
    case "confirmation":
      return .untranslated("todo asks before changing more than confirmation.threshold tasks a filter chose; -y answers yes")
    default: break
    }
    // Contexts: `context.NAME` (2.5) or `context.NAME.read` (2.6; `.write` is what `add` gets).
    if parts.count >= 2, parts[0] == "context" {
      if parts.count == 2 || (parts.count == 3 && parts[2] == "read") { return .settings([Setting("context.\(parts[1])", value)]) }
      return .untranslated("a context here is a filter for what is listed (context.\(parts[1]).read)")
    }
    if parts.count == 3, parts[0] == "uda" {
      if parts[1] == "priority" { return .untranslated("todo's priorities are H, M and L; another one a task has is kept with it") }
      if ["type", "label", "values", "default"].contains(parts[2]) { return .settings([Setting(key, value)]) }
      return .untranslated("uda.NAME takes type, label, values and default")
    }
    if parts.count >= 3, parts[0] == "urgency" { return urgency(parts, value) }
    if parts.count == 3, parts[0] == "report" { return report(parts[1], parts[2], value, attributes: attributes) }
    return .untranslated("todo has no setting for it")
  }

  /// Taskwarrior's `urgency.NAME.coefficient` as todo's `urgency.NAME`.
  private static func urgency(_ parts: [String], _ value: String) -> Translation {
    let names = [
      "next": "next", "due": "due", "blocking": "blocking", "scheduled": "scheduled", "active": "active", "age": "age",
      "annotations": "notes", "tags": "tags", "project": "project", "blocked": "blocked", "waiting": "waiting",
    ]
    if parts.count == 3, parts[1] == "age", parts[2] == "max" { return .settings([Setting("urgency.age.max", value)]) }
    guard parts.last == "coefficient" else { return .untranslated("todo has no setting for it") }
    if parts.count == 3, let name = names[parts[1]] { return .settings([Setting("urgency.\(name)", value)]) }
    // Taskwarrior 2.6's priorities are a UDA: `urgency.uda.priority.H.coefficient`.
    if parts.count == 5, parts[1] == "uda", parts[2] == "priority", ["H", "M", "L"].contains(parts[3]) {
      return .settings([Setting("urgency.priority.\(parts[3])", value)])
    }
    if parts.count >= 4, parts[1] == "uda", parts[2] != "priority" {
      return .settings([Setting(parts.joined(separator: "."), value)])
    }
    if parts.count >= 5, parts[1] == "user", parts[2] == "tag" || parts[2] == "project" {
      return .settings([Setting(parts.joined(separator: "."), value)])
    }
    return .untranslated("urgency here has the terms of 'todo help next'")
  }

  /// A report's property: columns and sort in todo's names, the rest as it is.
  private static func report(_ name: String, _ property: String, _ value: String, attributes: Set<String>) -> Translation {
    func column(_ spelled: String) -> String? { Self.column(spelled, attributes: attributes) }
    switch property {
    case "description", "filter": return .settings([Setting("report.\(name).\(property)", value)])
    case "columns":
      let spelled = value.split(separator: ",").map { String($0).trimmingSpaces }
      let kept = spelled.compactMap(column)
      guard !kept.isEmpty else { return .untranslated("none of its columns is one of todo's") }
      let dropped = spelled.filter { column($0) == nil }
      let setting = Setting("report.\(name).columns", kept.joinedText(","))
      return dropped.isEmpty ? .settings([setting]) : .partly([setting], "no column here for \(dropped.joinedText(", "))")
    case "labels":
      // Kept only beside columns that are: `translatedLabels` pairs them (see `translate(all:)`).
      return .settings([Setting("report.\(name).labels", value)])
    case "sort":
      var fields: [String] = []
      for part in value.split(separator: ",") {
        var field = String(part).trimmingSpaces.replacing("/", with: "")
        var descending = false
        if field.hasSuffix("-") { descending = true; field.removeLast() } else if field.hasSuffix("+") { field.removeLast() }
        let mapped = sortField(field) ?? (attributes.contains(field) ? field : nil)
        guard let mapped else { continue }
        fields.append((descending ? "-" : "") + mapped)
      }
      guard !fields.isEmpty else { return .untranslated("none of its sort fields is one of todo's") }
      // Urgency ranks a report alone here (ties by id).
      if fields.contains(where: { $0.hasSuffix("urgency") }) {
        let others = fields.filter { !$0.hasSuffix("urgency") }
        let setting = Setting("report.\(name).sort", "urgency")
        return others.isEmpty ? .settings([setting]) : .partly([setting], "urgency ranks alone here; \(others.joinedText(",")) left out")
      }
      return .settings([Setting("report.\(name).sort", fields.joinedText(","))])
    default: return .untranslated("a report here has description, columns, labels, sort, filter and limit")
    }
  }

  /// todo's column for one of Taskwarrior's (`due.relative`, `description.count`,
  /// `start.active`…); nil for one todo has no counterpart for.
  public static func column(_ spelled: String, attributes: Set<String> = []) -> String? {
    let base = String(spelled.prefix { $0 != "." })
    if attributes.contains(base) { return base }
    let style = spelled.contains(".") ? String(spelled.drop { $0 != "." }.dropFirst()) : ""
    switch base {
    // A relative wait (`wait.remaining`, `.relative`, `.countdown`, `.age`) is the time left.
    case "wait" where ["remaining", "relative", "countdown", "age"].contains(style): return "remaining"
    case "id", "uuid", "status", "priority", "due", "wait", "scheduled", "until", "project", "tags", "urgency": return base
    case "description": return "title"
    case "entry": return style == "age" ? "age" : "created"
    case "end": return "completed"
    case "modified": return "modified"
    case "start": return "active"
    default: return nil
    }
  }

  private static func sortField(_ field: String) -> String? {
    switch field {
    case "description": "title"
    case "entry": "created"
    case "end": "completed"
    case "id", "due", "priority", "project", "urgency", "scheduled", "wait", "until", "modified", "status": field
    default: nil
    }
  }

  /// Taskwarrior's date letters (`Y-M-D`, `D.M.Y`, `a D b`) as todo's `strftime` pattern; nil
  /// when one has no counterpart (times).
  public static func dateFormat(_ letters: String) -> String? {
    var pattern = ""
    for character in letters {
      switch character {
      case "Y": pattern += "%Y"
      case "y": pattern += "%y"
      case "M": pattern += "%m"
      case "D": pattern += "%d"
      case "d": pattern += "%e"
      case "a": pattern += "%a"
      case "A": pattern += "%A"
      case "b": pattern += "%b"
      case "B": pattern += "%B"
      case "j", "J": pattern += "%j"
      case "%": pattern += "%%"
      case "H", "h", "N", "n", "S", "s", "m", "V", "v", "w", "W": return nil
      default: pattern.append(character)
      }
    }
    return pattern
  }

  /// Every entry translated, a report's labels paired with the columns kept (a label of a
  /// column todo has no counterpart for is dropped with it).
  public func translated() -> [(entry: Entry, translation: Translation)] {
    var attributes: Set<String> = []
    for entry in entries {
      let parts = entry.key.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 3, parts[0] == "uda", parts[1] != "priority" { attributes.insert(String(parts[1])) }
    }
    var result: [(entry: Entry, translation: Translation)] = entries.map {
      (entry: $0, translation: Self.translate($0, attributes: attributes))
    }
    for index in result.indices where result[index].entry.key.hasSuffix(".labels") && result[index].entry.key.hasPrefix("report.") {
      let name = result[index].entry.key.dropFirst("report.".count).dropLast(".labels".count)
      guard let columns = entries.last(where: { $0.key == "report.\(name).columns" }) else {
        result[index].translation = .untranslated("a report's labels go with its columns, which this file does not give")
        continue
      }
      let labels = result[index].entry.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let spelled = columns.value.split(separator: ",").map { String($0).trimmingSpaces }
      guard labels.count == spelled.count else {
        result[index].translation = .untranslated("it has \(labels.count) labels for \(spelled.count) columns")
        continue
      }
      let kept = zip(spelled, labels).filter { Self.column($0.0, attributes: attributes) != nil }.map(\.1)
      result[index].translation =
        kept.isEmpty ? .untranslated("none of its columns is one of todo's") : .settings([Setting("report.\(name).labels", kept.joinedText(","))])
    }
    return result
  }
}
