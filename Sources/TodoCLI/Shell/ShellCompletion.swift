import TodoCore
import TodoInterchange

/// Tab completion for the shell, as pure logic: the text before the cursor and a
/// `ShellCompletionSource` in, the candidates for the word before the cursor out.
///
/// What completes where (the word before the cursor is the one after the last blank):
/// - before any command word: command names (`li` → `list`), or global options after `-`;
/// - `-…`/`--…`: the command's options; a single `-` also offers `-tag` (tag removal/exclusion);
/// - `+…`: `+tag` from the database (and, in filters, the virtual tags `+OVERDUE` …);
///   `project:…`: `project:name`; a prefix of a key (`project:`, `due:`, `wait:`, `due.by:` …);
///   after a date key, a date keyword (`due:to` → `due:today`, `due:tomorrow`);
/// - the word after `--tag` / `--project`: tag / project names;
/// - digits (or nothing) after `show`, `update`, `edit`, `done`, `reopen`, `delete`, `rm`,
///   `note`: pending task ids, listed with their titles (`12  Buy milk`); the last element of a
///   list or range (`1,1` → `1,12`) completes too;
/// - the first word after `help`: help topics; after `context`, `config` and `completions`:
///   their words, context names and configuration keys;
/// - the value of `--format`, `--by`, `--color`, `--priority` and `--status`: its words; the
///   value of `--db`, `--output`, `--vdir` and the file of `import`: a file name, which
///   `Completion.wantsFiles` asks the calling shell (bash, zsh, fish) to complete;
/// - the names of the configuration's reports, as commands.
///
/// A word that is quoted or escaped, or a cursor inside an open quote, completes nothing: the
/// editor would replace the raw text, quotes included, with an unquoted candidate.
///
/// ```swift
/// let completion = ShellCompletion(source: source)
/// completion.candidates(forLineBeforeCursor: "list +ho").map(\.replacement)  // ["+home"]
/// ```
struct ShellCompletion {
  /// One thing Tab can put in place of the word before the cursor.
  struct Candidate: Equatable, Sendable {
    /// The text that replaces the word.
    var replacement: String
    /// What the list of candidates shows (for ids: the id and the title).
    var display: String
    /// Whether a space follows a unique completion (not after `project:`, which wants a name).
    var appendsSpace: Bool
    /// What the candidate stands for, where that is more than its text (a task id's title).
    var description: String?

    init(_ replacement: String, display: String? = nil, appendsSpace: Bool = true, description: String? = nil) {
      self.replacement = replacement
      self.display = display ?? replacement
      self.appendsSpace = appendsSpace
      self.description = description
    }
  }

  /// What Tab offers for the word before the cursor.
  struct Completion: Equatable, Sendable {
    /// The word being completed, as typed (empty after a blank).
    var word: String
    var candidates: [Candidate]
    /// Whether the word is a file name, which the calling shell completes itself.
    var wantsFiles: Bool
  }

  /// The commands whose arguments are task ids.
  static let idCommands: Set<String> = Set(CommandName.spellings.filter { $0.value.declaration.ids == .named }.keys)

  /// Titles longer than this many characters are cut in the list of id candidates.
  static let displayedTitleLength = 50

  let source: any ShellCompletionSource

  /// The candidates for the word that ends `line` (the text from the start of the line to the
  /// cursor), in the source's order without duplicates; empty when nothing fits.
  func candidates(forLineBeforeCursor line: String) -> [Candidate] {
    completion(forLineBeforeCursor: line).candidates
  }

  /// The candidates and whether a file name is wanted; `startsWithProgramName` drops the first
  /// word of the line (`todo` itself, as bash, zsh and fish pass the line).
  func completion(forLineBeforeCursor line: String, startsWithProgramName: Bool = false) -> Completion {
    let scan = WordSplitter.scan(line)
    let none = Completion(word: scan.trailingRawWord ?? "", candidates: [], wantsFiles: false)
    guard !scan.endsInsideQuote else { return none }
    var previous = scan.words
    var current = ""
    if let raw = scan.trailingRawWord {
      current = previous.removeLast()
      guard raw == current else { return none }
    }
    if startsWithProgramName {
      guard !previous.isEmpty else { return none }
      previous.removeFirst()
    }
    // The configuration's reports are read once per Tab (the source reads the file for them).
    let commands = source.commandNames + source.reportNames
    if wantsFiles(for: current, after: previous, commands: commands) {
      return Completion(word: current, candidates: [], wantsFiles: true)
    }
    return Completion(
      word: current, candidates: unique(candidates(for: current, after: previous, commands: commands)), wantsFiles: false)
  }

  /// The options whose value is a file or folder name.
  static let fileOptions: Set<String> = ["--db", "--output", "--vdir"]

  private func wantsFiles(for current: String, after previous: [String], commands: [String]) -> Bool {
    if let last = previous.last, Self.fileOptions.contains(last) { return true }
    guard let commandIndex = previous.firstIndex(where: commands.contains) else { return false }
    // `import FILE`: the first word that is not an option or an option's value.
    guard previous[commandIndex] == "import", !current.hasPrefix("-") else { return false }
    let arguments = previous[(commandIndex + 1)...]
    if let last = arguments.last, CommandName.import.valueOptions.contains(last) || GlobalOptionNames.valueTaking.contains(last) {
      return false
    }
    return true
  }

  /// The longest text every candidate's replacement starts with (by characters), which the
  /// editor inserts when several candidates remain.
  static func commonPrefix(of candidates: [Candidate]) -> String {
    guard var prefix = candidates.first.map({ Substring($0.replacement) }) else { return "" }
    for candidate in candidates.dropFirst() {
      let shared = zip(prefix, candidate.replacement).prefix { $0 == $1 }.count
      prefix = prefix.prefix(shared)
    }
    return String(prefix)
  }

  private func candidates(for current: String, after previous: [String], commands: [String]) -> [Candidate] {
    if let values = optionValues(after: previous.last) { return names(values, matching: current) }
    guard let commandIndex = previous.firstIndex(where: commands.contains) else {
      if current.hasPrefix("-") { return options(forCommand: nil, matching: current) }
      // `shell` is refused inside the shell, so it is not offered there.
      return names(commands.filter { $0 != "shell" || !source.isInsideShell }, matching: current)
    }
    let command = previous[commandIndex]
    let arguments = previous[(commandIndex + 1)...].filter { !$0.hasPrefix("-") }

    let declared = CommandName.spellings[command]
    if let declared, arguments.isEmpty, declared == .help { return names(source.helpTopics, matching: current) }
    if let declared, !declared.declaration.subcommands.isEmpty {
      // The subcommand, then what some of them take: a context's name, a setting's key.
      if arguments.isEmpty {
        return names(declared.declaration.subcommands + (declared == .context ? source.contextNames : []), matching: current)
      }
      if declared == .context, arguments == ["delete"] { return names(source.contextNames, matching: current) }
      if declared == .config, arguments.count == 1, ["get", "set", "unset"].contains(arguments[0]) {
        return names(source.configKeys, matching: current)
      }
      return []
    }
    if declared == .help { return [] }
    let filters = declared?.declaration.words != .attributes
    if current.hasPrefix("+") {
      let virtual = filters ? VirtualTag.allCases.map { "+" + $0.rawValue } : []
      return names(source.tagNames().map { "+" + $0 } + virtual, matching: current)
    }
    if current.hasPrefix("project:") {
      return names(source.projectNames().map { "project:" + $0 }, matching: current)
    }
    if current.hasPrefix("recur:") {
      return names(Self.recurrenceWords.map { "recur:" + $0 }, matching: current)
    }
    if let (key, value) = FilterKey.split(current), key.dateField != nil, !value.contains(" ") {
      let prefix = String(current[...current.firstIndex(of: ":")!])
      return names(Self.dateWords.map { prefix + $0 }, matching: current)
    }
    if current.hasPrefix("-") {
      return options(forCommand: command, matching: current)
    }
    if Self.idCommands.contains(command), let ids = ids(matching: current) {
      return ids
    }
    if !current.isEmpty {
      let keys = filters ? Self.filterKeys : Self.attributeKeys
      return keys.filter { $0.hasPrefix(current) }.map { Candidate($0, appendsSpace: false) }
    }
    return []
  }

  /// The words of an option's value, for options whose values are a fixed set or names from
  /// the database; nil after any other word.
  private func optionValues(after option: String?) -> [String]? {
    switch option {
    case "--tag": source.tagNames()
    case "--project": source.projectNames()
    case "--format": InterchangeFormat.allCases.map(\.rawValue)
    case "--by": TimesheetGrouping.allCases.map(\.rawValue)
    case "--color": ColorMode.allCases.map(\.rawValue)
    case "--priority": ["H", "M", "L"]
    case "--status": ["pending", "done", "deleted", "closed", "all"]
    default: nil
    }
  }

  /// The keys of `add` and `update`.
  static let attributeKeys = [
    "project:", "pri:", "due:", "wait:", "scheduled:", "until:", "recur:", "parent:", "depends:", "blocks:",
  ]
  /// The rules offered after `recur:`.
  static let recurrenceWords = ["daily", "weekly", "biweekly", "monthly", "quarterly", "yearly", "weekdays"]
  /// The keys of filters, as the filter parser spells them.
  static let filterKeys = FilterKey.filterSpellings.map { $0 + ":" }
  /// One-word date expressions offered after a date key.
  static let dateWords = [
    "today", "tomorrow", "yesterday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "sod", "eod", "sow", "eow", "som", "eom", "soq", "eoq", "soy", "eoy", "now", "noon", "midnight", "later", "someday",
    "soww", "eoww", "sonw", "eonw", "sonm", "eonm", "easter", "goodfriday",
  ]

  /// The names that start with `word`.
  private func names(_ names: [String], matching word: String) -> [Candidate] {
    names.filter { $0.hasPrefix(word) }.map { Candidate($0) }
  }

  /// Options of `command` (global ones when nil) and, after a single `-`, tags to remove.
  private func options(forCommand command: String?, matching word: String) -> [Candidate] {
    var result = names(source.optionNames(forCommand: command), matching: word)
    if command != nil, !word.hasPrefix("--") {
      result += names(source.tagNames().map { "-" + $0 }, matching: word)
    }
    return result
  }

  /// Pending task ids for a word made of digits, commas and dashes (ids, lists, ranges), or nil
  /// when the word is something else. Only the part after the last `,` or `-` is completed.
  private func ids(matching word: String) -> [Candidate]? {
    let isIdText = word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "," || $0 == "-") }
    guard isIdText, word.first?.isNumber ?? true else { return nil }
    let head = word.lastIndex(where: { $0 == "," || $0 == "-" }).map { word[...$0] } ?? ""
    let typed = word.dropFirst(head.count)
    let matching = source.tasks().filter { String($0.id).hasPrefix(typed) }
    let width = matching.map { String($0.id).count }.max() ?? 0
    return matching.map { task in
      let id = String(task.id)
      let padding = String(repeating: " ", count: width - id.count)
      let title = Self.displayable(task.title)
      return Candidate(head + id, display: padding + id + "  " + title, description: title)
    }
  }

  /// A title fit for one line of the candidate list: control characters become spaces (a
  /// newline or an escape sequence would break the terminal's layout), long titles are cut.
  static func displayable(_ title: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in title.unicodeScalars {
      let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      scalars.append(isControl ? " " : scalar)
    }
    let cleaned = String(scalars)
    guard cleaned.count > displayedTitleLength else { return cleaned }
    return String(cleaned.prefix(displayedTitleLength - 1)) + "…"
  }

  /// Drops later candidates with an already seen replacement.
  private func unique(_ candidates: [Candidate]) -> [Candidate] {
    var seen: Set<String> = []
    return candidates.filter { seen.insert($0.replacement).inserted }
  }
}
