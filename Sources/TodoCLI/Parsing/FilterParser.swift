import TodoCore

/// The `key:` and `key.modifier:` words of filters and attributes.
///
/// ```swift
/// FilterKey.parse("due.by")   // FilterKey(name: .due, modifier: "by")
/// ```
struct FilterKey: Equatable {
  enum Name: String, CaseIterable {
    case project, priority, status, title, due, wait, scheduled, until, created, modified, completed
    case tags, id, uuid, depends, parent, recur, urgency, start
  }

  var name: Name
  /// The part after the dot (`by` in `due.by`), lowercased; nil without one.
  var modifier: String?

  /// Other spellings of the keys.
  static let aliases: [String: Name] = [
    "pri": .priority, "sched": .scheduled, "description": .title, "desc": .title, "entry": .created, "end": .completed,
    "tag": .tags,
  ]

  /// Taskwarrior's modifiers for text (`title`, `project`): what each one compares.
  static let textModifiers = [
    "is", "equals", "isnt", "not", "has", "contains", "hasnt", "startswith", "left", "endswith", "right", "word", "noword",
  ]

  /// The date field a key compares, if it is one.
  var dateField: DateField? { DateField(rawValue: name.rawValue) }

  /// Reads the text before the colon of `key:value`; nil when it is not a key.
  static func parse(_ text: String) -> FilterKey? {
    let lowered = text.lowercased()
    let parts = lowered.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let base = String(parts[0])
    guard let name = Name(rawValue: base) ?? aliases[base] else { return nil }
    return FilterKey(name: name, modifier: parts.count == 2 ? String(parts[1]) : nil)
  }

  /// Splits `key:value` when the key is one; nil otherwise.
  static func split(_ word: String) -> (key: FilterKey, value: String)? {
    guard let colon = word.firstIndex(of: ":"), let key = parse(String(word[..<colon])) else { return nil }
    return (key, String(word[word.index(after: colon)...]))
  }

  /// Every key and modifier a filter knows (shell completion offers them).
  static let filterSpellings: [String] = {
    var spellings = [
      "project", "project.not", "priority", "pri", "pri.above", "pri.below", "status", "title.has", "title.not", "tags",
      "tags.has", "tags.hasnt", "limit", "id", "uuid", "depends", "depends.any", "parent", "recur", "recur.any",
    ]
    spellings += ["has", "hasnt", "startswith", "endswith", "word", "noword", "is", "isnt"].map { "description.\($0)" }
    for field in DateField.allCases {
      spellings.append(field.rawValue)
      spellings += ["by", "before", "after", "none", "any"].map { "\(field.rawValue).\($0)" }
    }
    spellings += ["entry.before", "entry.after", "end.before", "end.after", "urgency.over", "urgency.under"]
    spellings += ["", ".before", ".after", ".by", ".any", ".none"].map { "start" + $0 }
    return spellings
  }()
}

/// One word of a filter: its text, whether it came after `--` (a plain word to search for),
/// and where it stood on the command line (counting from the word after `todo`).
struct FilterWord: Equatable {
  var text: String
  var plain = false
  var position: Int

  init(_ text: String, plain: Bool = false, at position: Int) {
    self.text = text
    self.plain = plain
    self.position = position
  }
}

extension ArgumentDecoder {
  /// One item of a filter before it is folded into a `TodoFilter`.
  private enum Item {
    case term(FilterTerm)
    case references([TaskReference])
    case status(StatusFilter)
    /// `limit:N`, which is not a condition (kept in `filterLimit`).
    case limit
  }

  /// Builds a filter from words (each with whether it came after `--`, which makes it a plain
  /// word). Terms combine with AND; `or`, `not` and parentheses (`(` and `)` as words of their
  /// own) group them; `not` binds tighter than AND, which binds tighter than `or`.
  mutating func filter(_ words: [FilterWord]) throws(UsageError) -> TodoFilter {
    // A whole filter in one quoted argument (`todo list 'project:home or +errand'`) is the
    // filter it spells; a quoted phrase of plain words stays one phrase to search for.
    let words = words.flatMap { word -> [FilterWord] in
      guard !word.plain, word.text.contains(where: { $0 == " " || $0 == "\t" }) else { return [word] }
      let parts = splitWords(word.text)
      // Only a filter's structure (`or`, `and`, parentheses) beside a real term (`key:value`,
      // `+tag`, `/re/`) makes it one: `'top 10 films'`, `'do not disturb'`, `'Give +1'` and
      // `'title.not:Buy milk'` (a value with a space) stay what they were.
      let structure = parts.contains { ["or", "and", "(", ")"].contains($0.text.lowercased()) }
      let spellsAFilter =
        structure
        && parts.contains { part in
          let text = part.text
          if FilterKey.split(text) != nil || (text.count > 2 && text.hasPrefix("/") && text.hasSuffix("/")) { return true }
          return text.count > 1 && (text.hasPrefix("+") || text.hasPrefix("-")) && !Self.isNumber(text) && text.dropFirst().first?.isLetter == true
        }
      guard spellsAFilter else { return [word] }
      let spelled = parts.map { FilterWord($0.text, at: word.position) }
      // With `or` it is one group: `'project:home or +errand' status:all` is (… or …) AND status.
      guard parts.contains(where: { $0.text.lowercased() == "or" }) else { return spelled }
      return [FilterWord("(", at: word.position)] + spelled + [FilterWord(")", at: word.position)]
    }
    // Each word (and each value of a comma list) is a condition or two in SQL, which binds at
    // most 32,766 values: a filter past the limit is refused before any of it is read.
    let operators: Set<String> = ["(", ")", "or", "and", "not"]
    let terms = words.reduce(0) { count, word in
      !word.plain && operators.contains(word.text.lowercased()) ? count : count + 1 + word.text.utf8.count { $0 == UInt8(ascii: ",") }
    }
    guard terms <= Self.maximumFilterTerms else {
      throw .invalid("filter: more than \(Self.maximumFilterTerms) terms (\(terms)); use ranges (1-500), a tag or a project instead")
    }
    var position = 0
    let alternatives = try orList(words, &position, depth: 0, nesting: 0)
    if position < words.count {
      throw .invalid("filter: unmatched ')' at word \(words[position].position)")
    }
    var filter = TodoFilter()
    // A top level of several alternatives is one condition; otherwise each term stands alone.
    let items: [Item]
    if alternatives.count == 1 {
      items = alternatives[0]
    } else {
      items = [.term(.any(try alternatives.map { (group) throws(UsageError) in try Self.conjunction(group, nested: true) }))]
    }
    // The flat fields hold one project term and one priority term (their values OR'ed); a
    // second one must hold as well, so it stays a condition of its own.
    var flatProject = false
    var flatPriority = false
    for item in items {
      switch item {
      case .references(let references): filter.references += references
      case .status(let status): filter.status = status
      case .limit: break
      case .term(.tag(let name)): filter.includeTags.append(name)
      case .term(.not(.tag(let name))): filter.excludeTags.append(name)
      case .term(.word(let text)): filter.words.append(text)
      case .term(let term):
        if !flatProject, let names = Self.projects(term) {
          flatProject = true
          for name in names {
            if let name { filter.projects.append(name) } else { filter.withoutProject = true }
          }
        } else if !flatPriority, let priorities = Self.priorities(term) {
          flatPriority = true
          for priority in priorities {
            if let priority { filter.priorities.append(priority) } else { filter.withoutPriority = true }
          }
        } else {
          filter.conditions.append(term)
        }
      }
    }
    return filter
  }

  /// The projects a term is one of (nil: no project), when it is only that.
  private static func projects(_ term: FilterTerm) -> [String?]? {
    values(of: term) { if case .project(let name) = $0 { .some(name) } else { nil } }
  }

  /// The priorities a term is one of (nil: no priority), when it is only that.
  private static func priorities(_ term: FilterTerm) -> [Priority?]? {
    values(of: term) { if case .priority(let priority) = $0 { .some(priority) } else { nil } }
  }

  /// The values `value` reads from a term, or from every alternative of an `any` term; nil when
  /// some part is another kind of term.
  private static func values<Value>(of term: FilterTerm, _ value: (FilterTerm) -> Value?) -> [Value]? {
    if let single = value(term) { return [single] }
    guard case .any(let terms) = term, !terms.isEmpty else { return nil }
    let each = terms.compactMap(value)
    return each.count == terms.count ? each : nil
  }

  /// The most terms one filter may have (words, and the values of comma lists).
  static let maximumFilterTerms = 2_000

  /// How deep parentheses and `not` may nest in a filter: deeper would overflow the parser's
  /// stack (a configuration's `context.X` of 15,000 `(` crashed every command) or SQLite's own,
  /// which holds about 20 levels of the SQL a filter becomes.
  static let maximumFilterNesting = 16

  /// `a b or c d or …`: the groups of terms joined by `or`. `depth` counts parentheses (inside
  /// which ids have no place), `nesting` parentheses and `not` both.
  private mutating func orList(_ words: [FilterWord], _ position: inout Int, depth: Int, nesting: Int) throws(UsageError) -> [[Item]] {
    var groups: [[Item]] = [[]]
    while position < words.count {
      let (word, plain, at) = (words[position].text, words[position].plain, words[position].position)
      if !plain && word == ")" {
        guard depth > 0 else { throw .invalid("filter: unmatched ')' at word \(at)") }
        break
      }
      if !plain && word.lowercased() == "or" {
        guard !groups[groups.count - 1].isEmpty else { throw .invalid("filter: 'or' at word \(at) has nothing before it") }
        groups.append([])
        position += 1
        continue
      }
      if !plain && word.lowercased() == "and" {
        position += 1
        continue
      }
      groups[groups.count - 1].append(try unary(words, &position, depth: depth, nesting: nesting))
    }
    if groups.count > 1 && groups[groups.count - 1].isEmpty {
      throw .invalid("filter: 'or' at the end has nothing after it")
    }
    return groups
  }

  /// One term, a `not` term, or a parenthesised group.
  private mutating func unary(_ words: [FilterWord], _ position: inout Int, depth: Int, nesting: Int) throws(UsageError) -> Item {
    let (word, plain, at) = (words[position].text, words[position].plain, words[position].position)
    position += 1
    if !plain && (word == "(" || word.lowercased() == "not") && nesting >= Self.maximumFilterNesting {
      throw .invalid("filter: parentheses and 'not' nest more than \(Self.maximumFilterNesting) deep at word \(at); write it flatter")
    }
    if !plain && word.lowercased() == "not" {
      guard position < words.count, words[position].plain || !["or", "and", ")"].contains(words[position].text.lowercased())
      else { throw .invalid("filter: 'not' at word \(at) has nothing after it") }
      let inner = try unary(words, &position, depth: depth, nesting: nesting + 1)
      guard case .term(let term) = inner else { throw .invalid("filter: 'not' at word \(at) cannot apply to ids or a status") }
      return .term(Self.negated(term))
    }
    if !plain && word == "(" {
      let groups = try orList(words, &position, depth: depth + 1, nesting: nesting + 1)
      guard position < words.count, words[position].text == ")" else { throw .invalid("filter: '(' at word \(at) is never closed") }
      position += 1
      guard !(groups.count == 1 && groups[0].isEmpty) else { throw .invalid("filter: '( )' at word \(at) is empty") }
      let terms = try groups.map { (group) throws(UsageError) in try Self.conjunction(group, nested: true) }
      return .term(terms.count == 1 ? terms[0] : .any(terms))
    }
    return try item(word, plain: plain, at: at, nested: depth > 0)
  }

  private static func negated(_ term: FilterTerm) -> FilterTerm {
    if case .not(let inner) = term { return inner }
    return .not(term)
  }

  /// Terms that must all hold, inside `or` or parentheses (where ids and a status have no place).
  private static func conjunction(_ items: [Item], nested: Bool) throws(UsageError) -> FilterTerm {
    var terms: [FilterTerm] = []
    for item in items {
      switch item {
      case .term(let term): terms.append(term)
      case .references: throw .invalid("filter: task ids cannot be inside 'or' or parentheses; put them first")
      case .status: throw .invalid("filter: status: cannot be inside 'or' or parentheses; use +PENDING, +DONE or +DELETED there")
      case .limit: throw .invalid("filter: limit: cannot be inside 'or' or parentheses")
      }
    }
    return terms.count == 1 ? terms[0] : .all(terms)
  }

  /// One word of a filter.
  private mutating func item(_ word: String, plain: Bool, at: Int, nested: Bool) throws(UsageError) -> Item {
    guard word.contains(where: { !$0.isWhitespace }) else {
      throw .invalid("an empty word in a filter would match every task; remove it or quote a real word")
    }
    if plain { return .term(.word(word)) }
    if let references = TaskReference.list(word) { return .references(references) }
    if word.count > 1, word.hasPrefix("+") || (word.hasPrefix("-") && !Self.isNumber(word)) {
      let include = word.hasPrefix("+")
      let name = String(word.dropFirst())
      if let virtual = VirtualTag(rawValue: name) {
        // An orphan is a value of an attribute this configuration does not define.
        let term = virtual == .orphan ? VirtualTag.orphans(defined: Array(configuration.userAttributes.keys)) : .virtual(virtual)
        return .term(include ? term : .not(term))
      }
      // `+OVERDUEX`: a tag in capitals close to a virtual tag is most likely that tag mistyped.
      if name.count >= 3, name.allSatisfy({ $0.isUppercase }),
        let meant = closestMatch(to: name, in: VirtualTag.allCases.map(\.rawValue))
      {
        warnings.append("+\(name) is not a virtual tag, so it was looked for as a tag of that name; did you mean \(word.first!)\(meant)?")
      }
      // `-project:x`: not that attribute.
      if !include, FilterKey.split(name) != nil {
        let inner = try item(name, plain: false, at: at, nested: nested)
        guard case .term(let term) = inner else { throw .invalid("filter: '\(word)' at word \(at): only attributes can be negated with '-'") }
        return .term(Self.negated(term))
      }
      return .term(include ? .tag(name) : .not(.tag(name)))
    }
    if word == "overdue" { return .term(.virtual(.overdue)) }
    if word.count > 2, word.hasPrefix("/"), word.hasSuffix("/") {
      let pattern = String(word.dropFirst().dropLast())
      let ignoringCase = !configuration.searchIsCaseSensitive
      if let problem = RegularExpression.check(pattern, ignoringCase: ignoringCase) {
        throw .badValue(option: "filter", value: word, reason: "not a regular expression: \(problem) (word \(at))")
      }
      return .term(.matches(pattern, ignoringCase: ignoringCase, in: .titleOrNotes))
    }
    if word.lowercased().hasPrefix("limit:") {
      let value = String(word.dropFirst("limit:".count))
      guard !nested else { throw .invalid("filter: limit: cannot be inside 'or' or parentheses (word \(at))") }
      guard value != "page" else { throw .badValue(option: "limit", value: value, reason: "give a number of tasks (word \(at))") }
      filterLimit = try Self.positiveCount(value, option: "limit")
      return .limit
    }
    if let (key, value) = FilterKey.split(word) {
      return try attributeTerm(key, value: value, word: word, at: at)
    }
    if word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == ",") }) {
      // Digits that are not ids (0, -1, 3,, 1-) are a mistyped id, not text to search for.
      throw .badValue(
        option: "task id", value: word,
        reason: "ids are 1 to 7 digits; ranges look like 3-7, lists like 1,4 (put '--' before it to search for the text)")
    }
    if let colon = word.firstIndex(of: ":"), word[..<colon].lowercased().prefix(while: { $0 != "." }) == "remind" {
      return .term(try reminderTerm(word, colon: colon, at: at))
    }
    if let colon = word.firstIndex(of: ":"), let attribute = userAttributes[String(word[..<colon].prefix { $0 != "." })] {
      return .term(try userAttributeTerm(attribute, word: word, colon: colon, at: at))
    }
    // `proj:x`, `p:H`: a mistyped key is an error in a filter (a search for that text would
    // quietly match nothing); a bare word close to a term (`overdu`) may be text, so it warns.
    if let colon = word.firstIndex(of: ":"), let meant = KeySuggestion.forWord(word, includeBareWords: false) {
      let key = String(word[..<colon])
      let meantKey = String(meant[..<(meant.firstIndex(of: ":") ?? meant.endIndex)])
      throw .invalid(
        "filter: unknown attribute '\(key)' at word \(at); did you mean '\(meantKey)'? (\(meant); put -- before the word to search for it as text)")
    }
    // Any other `key:value` or `key.modifier:value` is an attribute we do not have, never text
    // to search for: a filter that quietly matched nothing would look like "no such tasks".
    if let colon = word.firstIndex(of: ":"), colon != word.startIndex, !word[word.index(after: colon)...].hasPrefix("/"),
      word[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }),
      word.first!.isLetter
    {
      let key = String(word[..<colon]).lowercased()
      let base = String(key.prefix { $0 != "." })
      let known = FilterKey.Name.allCases.map(\.rawValue) + FilterKey.aliases.keys.sorted() + ["limit"] + userAttributes.keys.sorted()
      let meant = closestMatch(to: base, in: known)
      let hint = meant.map { "did you mean '\($0)'?" } ?? "filters know \(known.joinedText(", "))."
      throw .invalid("filter: unknown attribute '\(key)' at word \(at); \(hint) Put -- before the word to search for it as text")
    }
    if let warning = Self.nearMissWarning(word, keptAs: "a search word", filterWords: true) { warnings.append(warning) }
    return .term(.word(word))
  }

  /// `project:`, `pri:`, `status:`, `title.has:`, `due.by:` … as a term.
  private func attributeTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    switch key.name {
    case .project:
      return try projectTerm(key, value: value, word: word, at: at)
    case .priority:
      return try priorityTerm(key, value: value, word: word, at: at)
    case .status:
      guard key.modifier == nil || key.modifier == "is" else { throw unknownModifier([""], word: word, at: at) }
      // Taskwarrior's names: a waiting task is pending here, with a wait date still ahead.
      switch value.lowercased() {
      case "completed": return .status(.done)
      case "waiting": return .term(.virtual(.waiting))
      case "recurring": return .term(.virtual(.recurring))
      default: break
      }
      guard let status = StatusFilter(rawValue: value.lowercased()) else {
        throw .badValue(option: "status", value: value, reason: "use pending, done, deleted, closed or all (word \(at))")
      }
      return .status(status)
    case .title:
      return try titleTerm(key, value: value, word: word, at: at)
    case .tags:
      return try tagsTerm(key, value: value, word: word, at: at)
    case .id:
      guard key.modifier == nil, let references = TaskReference.list(value),
        !references.contains(where: { if case .uuidPrefix = $0 { true } else { false } })
      else { throw .badValue(option: "id", value: value, reason: "give ids: 3, 3-7 or 1,4 (word \(at))") }
      return .references(references)
    case .uuid:
      let lowered = value.lowercased()
      guard key.modifier == nil, !lowered.isEmpty, lowered.count <= 36, lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
        throw .badValue(option: "uuid", value: value, reason: "give a UUID or the start of one (word \(at))")
      }
      return .term(.uuidStarts(lowered))
    case .depends, .parent, .recur:
      return .term(try linkTerm(key, value: value, word: word, at: at))
    case .due, .wait, .scheduled, .until, .created, .modified, .completed:
      return try dateTerm(key, value: value, word: word, at: at)
    case .urgency:
      return .term(try urgencyTerm(key, value: value, word: word, at: at))
    case .start:
      // As a date of its own (`created`, which has no days), then put on the running interval.
      let inner = try dateTerm(FilterKey(name: .created, modifier: key.modifier), value: value, word: word, at: at)
      guard case .term(let term) = inner else { return inner }
      return .term(Self.started(term))
    }
  }

  /// A date term on `created` (as `dateTerm` makes it) as the same term on the start of the
  /// running interval: `start.any:` is active, `start.none:` (and `start:`) not active.
  private static func started(_ term: FilterTerm) -> FilterTerm {
    switch term {
    case .date(let condition) where condition.comparison == .any: return .started(nil)
    case .date(let condition) where condition.comparison == .none: return .not(.started(nil))
    case .date(let condition): return .started(condition)
    case .not(let inner): return .not(started(inner))
    default: return term
    }
  }

  /// `urgency.over:5` (`.above`, `.gt`), `urgency.under:2` (`.below`, `.lt`), `urgency:4.5`
  /// (`.is`): the urgency `next` ranks by, with the configured coefficients.
  private func urgencyTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> FilterTerm {
    let comparison: UrgencyCondition.Comparison
    switch key.modifier {
    case nil, "is", "equals": comparison = .equal
    case "over", "above", "gt", "after": comparison = .over
    case "under", "below", "lt", "before": comparison = .under
    default: throw unknownModifier(["", "over", "under", "above", "below"], word: word, at: at)
    }
    guard let number = Double(value), number.isFinite else {
      throw .badValue(option: word.prefix { $0 != ":" }.lowercased(), value: value, reason: "give a number, like urgency.over:5 (word \(at))")
    }
    return .urgency(UrgencyCondition(comparison, number, coefficients: configuration.urgency))
  }

  /// `client:acme`, `client:` (none), `client.not:acme`, `client.any:`, `estimate.over:PT1H`,
  /// `deadline.before:fri`, `client.has:ac`: a user-defined attribute compared as its type says.
  private func userAttributeTerm(_ attribute: UserAttribute, word: String, colon: String.Index, at: Int) throws(UsageError) -> FilterTerm {
    let key = String(word[..<colon])
    let value = String(word[word.index(after: colon)...])
    let modifier = key.contains(".") ? String(key.drop { $0 != "." }.dropFirst()).lowercased() : nil
    let comparisons: [String: UserAttribute.Comparison] = [
      "is": .equal, "equals": .equal, "not": .notEqual, "isnt": .notEqual, "any": .any, "none": .none, "over": .over,
      "above": .over, "after": .over, "gt": .over, "under": .under, "below": .under, "before": .under, "lt": .under,
      "has": .has, "contains": .has, "hasnt": .hasnt,
    ]
    var comparison: UserAttribute.Comparison
    if let modifier {
      guard let known = comparisons[modifier] else {
        let spellings = comparisons.keys.sorted().map { "\(attribute.name).\($0):" }
        let meant =
          closestMatch(to: modifier, in: comparisons.keys.sorted()).map { "did you mean '\(attribute.name).\($0):'?" }
          ?? "it takes \(spellings.joinedText(", "))"
        throw .invalid("filter: unknown attribute '\(key)' at word \(at); \(meant)")
      }
      comparison = known
    } else {
      comparison = .equal
    }
    // `client:` has none; `client.not:` has one.
    if value.isEmpty && comparison == .equal { comparison = .none }
    if value.isEmpty && comparison == .notEqual { comparison = .any }
    if value.isEmpty && ![.any, .none].contains(comparison) {
      throw .badValue(option: key, value: value, reason: "give a value to compare with (word \(at))")
    }
    return try Self.checked { () throws(TodoError) in try attribute.term(comparison, value, now: now) }
  }

  /// `remind.before:DATE`, `remind.after:`, `remind.by:` (a reminder rings then), `remind.any:`,
  /// `remind.none:` and `remind:` (none).
  private func reminderTerm(_ word: String, colon: String.Index, at: Int) throws(UsageError) -> FilterTerm {
    let key = word[..<colon].lowercased()
    let value = String(word[word.index(after: colon)...])
    let modifiers: [String: DateComparison] = ["before": .before, "after": .after, "by": .by, "any": .any, "none": .none]
    let modifier = key == "remind" ? (value.isEmpty ? "none" : "") : String(key.dropFirst(7))
    guard let comparison = modifiers[modifier] else {
      let meant = closestMatch(to: modifier, in: modifiers.keys.sorted()).map { " (did you mean 'remind.\($0):'?)" } ?? ""
      throw .invalid(
        "filter: '\(word)' at word \(at): reminders are filtered by when they ring: remind.before:DATE, remind.after:DATE, "
          + "remind.by:DATE, remind.any:, remind.none: (or +REMINDER)\(meant)")
    }
    if comparison == .any || comparison == .none { return Reminder.term(comparison, .instant(now)) }
    guard !value.isEmpty else { throw .badValue(option: key, value: value, reason: "give a date (word \(at))") }
    do throws(DateExpressionError) {
      return Reminder.term(comparison, TaskDate(try DateExpressionParser(now: now).read(value)))
    } catch {
      throw .badDate(expression: error.expression, reason: error.reason)
    }
  }

  /// The error for `key.modifier:` with a modifier the key does not take, with the nearest it does.
  private func unknownModifier(_ known: [String], word: String, at: Int) -> UsageError {
    let typed = String(word[..<(word.firstIndex(of: ":") ?? word.endIndex)]).lowercased()
    // The key as typed (`entry` for created), so that the suggestion is in the user's words.
    let base = String(typed.prefix { $0 != "." })
    let spellings = known.map { $0.isEmpty ? base : "\(base).\($0)" }
    if let meant = closestMatch(to: typed, in: spellings) {
      return .invalid("filter: unknown attribute '\(typed)' at word \(at); did you mean '\(meant):'?")
    }
    return .invalid("filter: unknown attribute '\(typed)' at word \(at); \(base) takes \(spellings.map { $0 + ":" }.joinedText(", "))")
  }

  /// `project:NAME`, `project:A,B`, `project.not:`, and Taskwarrior's text modifiers.
  private func projectTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    let names = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    switch key.modifier {
    case "is",
      "equals" where !value.isEmpty && names.count == 1:
      // Taskwarrior's `.is`: that project alone, not its sub-projects.
      return .term(Self.textTerm(.project, "is", value))
    case nil, "is", "not":
      let term: FilterTerm
      if value.isEmpty {
        term = .project(nil)
      } else {
        if names.contains(where: \.isEmpty) { throw .badValue(option: "project", value: value, reason: "an empty name in the list (word \(at))") }
        term = names.count == 1 ? .project(names[0]) : .any(names.map { .project($0) })
      }
      return .term(key.modifier == "not" ? .not(term) : term)
    case "none", "any":
      guard value.isEmpty else { throw .badValue(option: "project.\(key.modifier!)", value: value, reason: "takes no value (word \(at))") }
      return .term(key.modifier == "none" ? .project(nil) : .not(.project(nil)))
    case "isnt":
      return .term(.not(value.isEmpty ? .project(nil) : names.count == 1 ? .project(names[0]) : .any(names.map { .project($0) })))
    case let modifier? where FilterKey.textModifiers.contains(modifier):
      guard !value.isEmpty else { throw .badValue(option: word, value: value, reason: "give the text to look for (word \(at))") }
      return .term(Self.textTerm(.project, modifier, value))
    default: throw unknownModifier(["", "not", "none", "any"] + FilterKey.textModifiers, word: word, at: at)
    }
  }

  /// `pri:H`, `pri:H,M`, `pri:`, `pri.not:`, `pri.above:`, `pri.below:`.
  private func priorityTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    if key.modifier == "none" || key.modifier == "any", !value.isEmpty {
      throw .badValue(option: "pri.\(key.modifier!)", value: value, reason: "takes no value (word \(at))")
    }
    var term: FilterTerm
    if value.isEmpty {
      term = .priority(nil)
    } else {
      var priorities: [FilterTerm] = []
      for part in value.split(separator: ",") {
        guard let priority = Priority(parsing: String(part)) else {
          throw .badValue(option: "pri", value: value, reason: "use H, M or L (or several: pri:H,M) (word \(at))")
        }
        priorities.append(.priority(priority))
      }
      term = priorities.count == 1 ? priorities[0] : .any(priorities)
    }
    switch key.modifier {
    case nil, "is", "equals": break
    case "not", "isnt": term = .not(term)
    case "none": term = .priority(nil)
    case "any": term = .not(.priority(nil))
    case "above", "over", "below", "under":
      guard let given = Priority(parsing: value), !value.contains(",") else {
        throw .badValue(option: "pri.\(key.modifier!)", value: value, reason: "give one of H, M or L (word \(at))")
      }
      let higher = ["above", "over"].contains(key.modifier!)
      let chosen = Priority.allCases.filter { higher ? $0.rank > given.rank : $0.rank < given.rank }
      // Below L is no priority at all, as in Taskwarrior (where no priority ranks lowest).
      let terms = chosen.map { FilterTerm.priority($0) } + (higher ? [] : [.priority(nil)])
      term = terms.count == 1 ? terms[0] : .any(terms)
    default: throw unknownModifier(["", "not", "none", "any", "above", "below"], word: word, at: at)
    }
    return .term(term)
  }

  /// `title.has:`, and Taskwarrior's `description` with its text modifiers.
  private func titleTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    guard !value.isEmpty else { throw .badValue(option: word, value: value, reason: "give the text to look for (word \(at))") }
    // `title` is the title alone; Taskwarrior's `description` is the title or a note, as
    // Taskwarrior matches its annotations too.
    let typed = word.prefix { $0 != "." && $0 != ":" }.lowercased()
    let withNotes = typed == "description" || typed == "desc"
    let contains: FilterTerm = withNotes ? .word(value) : .titleHas(value)
    let column: TextColumn = withNotes ? .titleOrNotes : .title
    switch key.modifier {
    case "has", "contains": return .term(contains)
    case "not", "hasnt": return .term(.not(contains))
    // Taskwarrior's `description:x` matches titles that start with x.
    case nil: return .term(Self.textTerm(column, "startswith", value))
    case let modifier? where FilterKey.textModifiers.contains(modifier): return .term(Self.textTerm(column, modifier, value))
    default: throw unknownModifier([""] + FilterKey.textModifiers, word: word, at: at)
    }
  }

  /// Taskwarrior's `tags:`, `tags.has:`, `tags.hasnt:`, `tags.any:`, `tags.none:`.
  private func tagsTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    switch key.modifier {
    case "none", "any":
      guard value.isEmpty else { throw .badValue(option: "tags.\(key.modifier!)", value: value, reason: "takes no value (word \(at))") }
      return .term(key.modifier == "any" ? .virtual(.tagged) : .not(.virtual(.tagged)))
    case nil, "is", "has", "contains", "hasnt", "not", "isnt", "noword", "word":
      guard !value.isEmpty else { throw .badValue(option: word, value: value, reason: "give a tag, like tags:home (word \(at))") }
      let names = value.split(separator: ",").map { String($0) }
      let term: FilterTerm = names.count == 1 ? .tag(names[0]) : .any(names.map { .tag($0) })
      return .term(["hasnt", "not", "isnt", "noword"].contains(key.modifier) ? Self.negated(term) : term)
    default: throw unknownModifier(["", "has", "hasnt", "any", "none"], word: word, at: at)
    }
  }

  /// `due:`, `due.by:`, `due.before:` … for every date field.
  private func dateTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> Item {
    let field = key.dateField!
    var comparison: DateComparison
    switch key.modifier {
    case nil, "is", "on": comparison = value.isEmpty ? .none : .on
    case "by": comparison = .by
    case "before", "below", "under": comparison = .before
    case "after", "above", "over": comparison = .after
    case "none": comparison = .none
    case "any": comparison = .any
    case "isnt", "not":
      guard !value.isEmpty else { throw .badValue(option: word, value: value, reason: "needs a date (word \(at))") }
      let inner = try attributeTerm(FilterKey(name: key.name, modifier: nil), value: value, word: word, at: at)
      guard case .term(let term) = inner else { return inner }
      return .term(.not(term))
    default: throw unknownModifier(["", "by", "before", "after", "above", "below", "none", "any", "isnt"], word: word, at: at)
    }
    if comparison == .none || comparison == .any {
      guard value.isEmpty else {
        throw .badValue(option: "\(field.rawValue).\(comparison.rawValue)", value: value, reason: "takes no value (word \(at))")
      }
      return .term(.date(DateCondition(field: field, comparison: comparison)))
    }
    guard !value.isEmpty else {
      throw .badValue(option: word, value: value, reason: "needs a date, like \(word)fri (word \(at))")
    }
    let reading = try self.reading(value, at: at)
    var date = TaskDate(reading)
    // The times of a task's life are instants: a day there means the whole day.
    if !field.hasDays, case .instant = date, comparison == .on { date = .day(CalendarDay.local(date.sortInstant)) }
    if case .day(let day) = date {
      // `due.before:eow` means before the week ends (Sunday included), as the end-of forms
      // have always meant their last moment; `created.after:sod`, from the day's start on.
      if comparison == .before, reading.instant != day.start {
        comparison = .by
      } else if comparison == .after, Self.isStartForm(value) {
        date = .day(day.adding(days: -1))
      }
    }
    return .term(.date(DateCondition(field: field, comparison: comparison, value: date)))
  }

  /// One of Taskwarrior's text modifiers on a column, as a regular expression ignoring case.
  private static func textTerm(_ column: TextColumn, _ modifier: String, _ value: String) -> FilterTerm {
    let text = regexEscaped(value)
    let edge = "([^[:alnum:]_]|$)"
    let pattern: String
    switch modifier {
    case "is", "equals", "isnt", "not": pattern = "^\(text)$"
    case "startswith", "left": pattern = "^" + text
    case "endswith", "right": pattern = text + "$"
    case "word", "noword": pattern = "(^|[^[:alnum:]_])" + text + edge
    default: pattern = text
    }
    let term = FilterTerm.matches(pattern, ignoringCase: true, in: column)
    return ["isnt", "not", "hasnt", "noword"].contains(modifier) ? .not(term) : term
  }

  /// Text with every character that means something in a POSIX extended expression escaped.
  static func regexEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if "\\.[]()*+?{}|^$".contains(character) { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// `depends:3` (waits for task 3), `parent:3`, and `.any`/`.none` of those and of `recur`.
  private func linkTerm(_ key: FilterKey, value: String, word: String, at: Int) throws(UsageError) -> FilterTerm {
    let name = key.name.rawValue
    let kind: LinkKind = key.name == .depends ? .depends : key.name == .parent ? .parent : .series
    let exists = FilterTerm.linked(kind, to: [])
    switch key.modifier {
    case "any", "none":
      guard value.isEmpty else { throw .badValue(option: "\(name).\(key.modifier!)", value: value, reason: "takes no value (word \(at))") }
      return key.modifier == "any" ? exists : .not(exists)
    case nil where key.name != .recur:
      if value.isEmpty { return .not(exists) }
      guard let references = TaskReference.list(value), references.allSatisfy({ if case .id = $0 { true } else { false } }) else {
        throw .badValue(option: name, value: value, reason: "give task ids, like \(name):3 or \(name):3,4 (word \(at))")
      }
      return .linked(kind, to: references.compactMap { if case .id(let id) = $0 { id } else { nil } })
    case nil where !value.isEmpty:
      guard let rule = RecurrenceRule(parsing: value) else {
        throw .badValue(option: "recur", value: value, reason: "not a recurrence rule; see 'todo help recurrence' (word \(at))")
      }
      return .seriesRule(rule.description)
    default:
      let forms = key.name == .recur ? ["recur:RULE", "recur.any:", "recur.none:"] : ["\(name):ID", "\(name).any:", "\(name).none:"]
      throw .invalid("filter: '\(word)' at word \(at): \(name) takes \(forms.joinedText(", "))")
    }
  }

  /// Whether a date expression names the start of a period (`sod`, `sow`, `start of month`).
  private static func isStartForm(_ value: String) -> Bool {
    let lowered = value.lowercased().trimmingPrefix(while: \.isWhitespace)
    if lowered.hasPrefix("start of") { return true }
    let letters = Array(lowered.prefix(4))
    return letters.count >= 3 && letters[0] == "s" && letters[1] == "o" && "dwmqy".contains(letters[2])
      && (letters.count == 3 || !letters[3].isLetter)
  }

  /// A date in a filter, with the word's position in an error.
  private func reading(_ value: String, at: Int) throws(UsageError) -> DateReading {
    do throws(DateExpressionError) {
      return try DateExpressionParser(now: now).read(value)
    } catch {
      throw .badDate(expression: error.expression, reason: "\(error.reason) (word \(at) of the filter)")
    }
  }
}
