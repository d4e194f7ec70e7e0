import TodoCore

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
/// - the first word after `help`: help topics.
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

    init(_ replacement: String, display: String? = nil, appendsSpace: Bool = true) {
      self.replacement = replacement
      self.display = display ?? replacement
      self.appendsSpace = appendsSpace
    }
  }

  /// The commands whose arguments are task ids.
  static let idCommands: Set<String> = [
    "show", "update", "edit", "done", "reopen", "delete", "rm", "note", "why", "start", "stop", "duplicate", "append",
    "prepend", "purge",
  ]

  /// Titles longer than this many characters are cut in the list of id candidates.
  static let displayedTitleLength = 50

  let source: any ShellCompletionSource

  /// The candidates for the word that ends `line` (the text from the start of the line to the
  /// cursor), in the source's order without duplicates; empty when nothing fits.
  func candidates(forLineBeforeCursor line: String) -> [Candidate] {
    let scan = WordSplitter.scan(line)
    guard !scan.endsInsideQuote else { return [] }
    var previous = scan.words
    var current = ""
    if let raw = scan.trailingRawWord {
      current = previous.removeLast()
      guard raw == current else { return [] }
    }
    return unique(candidates(for: current, after: previous))
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

  private func candidates(for current: String, after previous: [String]) -> [Candidate] {
    let commands = source.commandNames
    guard let commandIndex = previous.firstIndex(where: commands.contains) else {
      if current.hasPrefix("-") { return options(forCommand: nil, matching: current) }
      // `shell` is refused inside the shell, so it is not offered there.
      return names(commands.filter { $0 != "shell" }, matching: current)
    }
    let command = previous[commandIndex]
    let arguments = previous[(commandIndex + 1)...]

    if command == "help" {
      return arguments.isEmpty ? names(source.helpTopics, matching: current) : []
    }
    switch arguments.last {
    case "--tag": return names(source.tagNames(), matching: current)
    case "--project": return names(source.projectNames(), matching: current)
    default: break
    }
    let filters = !["add", "log", "duplicate", "update", "edit", "note"].contains(command)
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
      return Candidate(head + id, display: padding + id + "  " + Self.displayable(task.title))
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
