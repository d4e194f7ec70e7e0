import Testing
import TodoCore

@testable import TodoCLI

/// The parser's stages, without a database: tokens → command → validated values.
@Suite struct CommandParserTests {
  /// 2026-11-21T09:30:00Z, a Saturday.
  static let now: Int64 = 1_795_253_400
  let parser = CommandParser(now: now)

  func parse(_ words: String...) throws(UsageError) -> Invocation {
    try parser.parse(words)
  }

  func parseError(_ words: String...) -> UsageError? {
    do {
      _ = try parser.parse(words)
      return nil
    } catch {
      return error
    }
  }

  @Test func tokensRememberTheirPositions() {
    #expect(Token.tokenize(["add", "x"]) == [Token(text: "add", position: 1), Token(text: "x", position: 2)])
  }

  @Test func uiTakesAReportOrTreeThenAFilter() throws {
    #expect(try parse("ui").command == .ui(report: "next", filter: [], tree: false))
    #expect(try parse("ui", "waiting", "+home").command == .ui(report: "waiting", filter: ["+home"], tree: false))
    #expect(try parse("ui", "tree", "project:x").command == .ui(report: "list", filter: ["project:x"], tree: true))
    #expect(parseError("ui", "--bogus") != nil)
  }

  @Test func noCommandIsThePendingList() throws {
    #expect(try parse().command == .list(ListQuery()))
    var query = ListQuery()
    query.filter.includeTags = ["home"]
    query.typedTerms = true
    #expect(try parse("+home").command == .list(query))
  }

  @Test func addKeepsEveryNonAttributeWordInTheTitleVerbatim() throws {
    var expected = TodoChanges(title: "re: rent  is due")
    expected.addTags = ["home"]
    expected.project = .set("flat")
    expected.priority = .set(.high)
    let invocation = try parse("add", "re:", "rent ", "is", "due", "+home", "project:flat", "pri:H")
    #expect(invocation.command == .add(expected))
    #expect(invocation.commandLine == "add re: 'rent ' is due +home project:flat pri:H")
  }

  @Test func gnuAndCompactFormsAreTheSame() throws {
    let compact = try parse("add", "x", "+home", "project:work.q4", "pri:M", "due:tomorrow")
    let gnu = try parse("add", "x", "--tag", "home", "--project=work.q4", "--priority", "medium", "--due", "tomorrow")
    #expect(compact.command == gnu.command)
    guard case .add(let changes) = compact.command else { Issue.record("not an add"); return }
    let tomorrow: TaskDate = .day(CalendarDay(year: 2026, month: 11, day: 22))
    #expect(changes.due == .set(.date(tomorrow)))
  }

  @Test func doubleDashMakesEveryLaterWordTitleText() throws {
    let invocation = try parse("add", "--", "+notatag", "pri:H", "--json", "-5")
    #expect(invocation.command == .add(TodoChanges(title: "+notatag pri:H --json -5")))
    #expect(invocation.options.format == .human)
  }

  @Test func anEmptyAttributeValueInAddStaysInTheTitle() throws {
    #expect(try parse("add", "pay", "bill", "due:").command == .add(TodoChanges(title: "pay bill due:")))
  }

  @Test func globalOptionsStandAnywhereBeforeDoubleDash() throws {
    let invocation = try parse("list", "--json", "--db", "/tmp/x.db", "+home", "--color=never")
    #expect(invocation.options == GlobalOptions(databasePath: "/tmp/x.db", format: .json, color: .never))
    #expect(try parse("--jsonl", "ls").options.format == .jsonLines)
  }

  @Test func updateTakesLeadingReferencesThenTitleAndAttributes() throws {
    var changes = TodoChanges(title: "Call the bank")
    changes.removeTags = ["errand"]
    changes.due = .clear
    var filter = TodoFilter()
    filter.references = [.id(3), .range(5, 7), .id(9)]
    #expect(
      try parse("update", "3", "5-7,9", "--title", "Call the bank", "-errand", "due:").command == .update(filter, changes))
    #expect(try parse("update", "3", "Call", "the", "bank", "-errand", "due:").command == .update(ids(.id(3)), changes))
    #expect(
      try parse("update", "3", "pri:").command
        == .update(
          ids(.id(3)),
          {
            var c = TodoChanges(); c.priority = .clear; return c
          }()))
  }

  func ids(_ references: TaskReference...) -> TodoFilter {
    var filter = TodoFilter()
    filter.references = references
    return filter
  }

  @Test func bulkCommandsTakeIdsOrFilters() throws {
    #expect(try parse("done", "3-7").command == .done(ids(.range(3, 7))))
    var filter = TodoFilter()
    filter.includeTags = ["errand"]
    filter.projects = ["home"]
    #expect(try parse("rm", "+errand", "project:home").command == .delete(filter))
    #expect(try parse("reopen", "--where", "+errand project:home").command == .reopen(filter))
    #expect(parseError("done") == .missingArgument(command: "done", what: "task ids (3, 3-7, 1,4) or a filter (+tag, project:x …)"))
  }

  @Test func listFiltersSortAndLimit() throws {
    let invocation = try parse(
      "ls", "+a", "-b", "project:p", "pri:H,M", "status:all", "due.before:2026-12-01", "due.after:today", "overdue",
      "milk", "--sort", "-due,id", "--limit", "5")
    var query = ListQuery()
    query.filter.includeTags = ["a"]
    query.filter.excludeTags = ["b"]
    query.filter.projects = ["p"]
    query.filter.priorities = [.high, .medium]
    query.filter.status = .all
    query.filter.conditions = [
      .date(DateCondition(field: .due, comparison: .before, value: .day(CalendarDay(year: 2026, month: 12, day: 1)))),
      .date(DateCondition(field: .due, comparison: .after, value: .day(CalendarDay(year: 2026, month: 11, day: 21)))),
      .virtual(.overdue),
    ]
    query.filter.words = ["milk"]
    query.sort = [SortKey(.due, descending: true), SortKey(.id)]
    query.limit = 5
    query.typedTerms = true
    #expect(invocation.command == .list(query))
  }

  @Test func otherCommands() throws {
    #expect(try parse("show", "4").command == .show([.id(4)], single: true))
    #expect(try parse("show", "4", "5-6").command == .show([.id(4), .range(5, 6)], single: false))
    #expect(try parse("note", "4", "called", "them").command == .note(.id(4), "called them"))
    // A mistyped option is no note's text; after `--` any word is, and a later `--` stays text.
    #expect(throws: UsageError.self) { try parse("note", "4", "--remov", "2") }
    #expect(try parse("note", "4", "--", "--verbose", "did", "it").command == .note(.id(4), "--verbose did it"))
    #expect(try parse("note", "4", "a", "--", "b").command == .note(.id(4), "a -- b"))
    #expect(try parse("check").command == .check)
    #expect(try parse("recover", "new.db").command == .recover("new.db"))
    #expect(try parse("undo").command == .undo)
    #expect(try parse("journal", "--limit=3").command == .journal(limit: 3))
    #expect(try parse("date", "in", "3", "days").command == .date("in 3 days"))
    #expect(try parse("help", "add").command == .help(topic: "add"))
    #expect(try parse("add", "--help").command == .help(topic: "add"))
    #expect(try parse("--version").command == .version)
    #expect(try parse("tags").command == .tags)
    #expect(try parse("shell").command == .shell)
  }

  @Test func errorsAreStructuredWithSuggestions() {
    #expect(parseError("lsit") == .unknownCommand("lsit", suggestion: "list"))
    #expect(parseError("list", "--sotr", "id") == .unknownOption("--sotr", suggestion: "--sort"))
    #expect(parseError("--jsno") == .unknownOption("--jsno", suggestion: "--json"))
    #expect(parseError("add", "x", "--due") == .missingValue(option: "--due"))
    #expect(parseError("add", "x", "pri:urgent") == .badValue(option: "pri", value: "urgent", reason: "use H, M or L (high, medium, low)"))
    #expect(parseError("--color", "sometimes") == .badValue(option: "--color", value: "sometimes", reason: "use auto, always or never"))
    #expect(parseError("show") == .missingArgument(command: "show", what: "the ids of the tasks to show"))
    #expect(parseError("undo", "2") == .unexpectedArgument(command: "undo", word: "2"))
    #expect(parseError("add", "x", "-later") == .unknownOption("-later", suggestion: nil))
    #expect(parseError("update", "1") == .missingArgument(command: "update", what: "new title words or attributes such as +tag, pri:H, due:friday"))
    if case .badDateInWord(let word, let expression, _, let asText) = parseError("add", "x", "due:whenever") {
      #expect(word == "due:whenever")
      #expect(asText == "todo add -- x due:whenever")
      #expect(expression == "whenever")
    } else {
      Issue.record("expected a bad date")
    }
  }

  @Test func errorMessagesAndHintsReadWell() {
    let error = UsageError.unknownCommand("lsit", suggestion: "list")
    #expect(error.message == "unknown command 'lsit'")
    #expect(error.hint == "did you mean 'list'?")
    #expect(UsageError.badDate(expression: "whenever", reason: "not a date").message == "cannot read the date 'whenever': not a date")
  }

  @Test func wordsThatWouldSelectEverythingOrLookLikeBrokenIdsAreRefused() {
    #expect(parseError("rm", "") == .invalid("an empty word in a filter would match every task; remove it or quote a real word"))
    #expect(parseError("list", " ") == .invalid("an empty word in a filter would match every task; remove it or quote a real word"))
    for word in ["0", "-1", "3,", "1-", "1,,2"] {
      if case .badValue(let option, let value, _) = parseError("done", word) {
        #expect(option == "task id" && value == word)
      } else {
        Issue.record("'done \(word)' should be refused")
      }
    }
    var query = ListQuery()
    query.filter.words = ["0"]
    query.typedTerms = true
    #expect((try? parse("list", "--", "0"))?.command == .list(query))  // after --, digits are text
  }

  @Test func anEmptyOrSpecialDatabasePathIsAUsageError() {
    for path in ["", ":memory:", "file:x.db"] {
      #expect(parseError("--db", path, "add", "x") == .badValue(option: "--db", value: path, reason: "give the path of a database file"))
    }
  }

  @Test func aLeadingMinusTagLists() throws {
    var query = ListQuery()
    query.filter.excludeTags = ["home"]
    query.typedTerms = true
    #expect(try parse("-home").command == .list(query))
  }

  @Test func onlyDocumentedKeysAreAttributes() throws {
    var changes = TodoChanges(title: "Weigh pro:con of the offer")
    changes.priority = .set(.high)
    #expect(try parse("add", "Weigh", "pro:con", "of", "the", "offer", "priority:H").command == .add(changes))
    #expect(parseError("add", "x", "--due", "") == .badValue(option: "--due", value: "", reason: "needs a value"))
  }
}
