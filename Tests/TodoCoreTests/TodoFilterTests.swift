import DataOperation
import Testing

@testable import TodoCore

@Suite struct TodoFilterTests {
  @Test func anEmptyFilterSelectsPendingTasksThatAreNotWaiting() {
    #expect(TodoFilter().predicate(now: 100).sql == "todo.status = ?")  // a change: waiting tasks too
    var list = TodoFilter()
    list.leavesOutWaiting = true
    let predicate = list.predicate(now: 100)
    #expect(
      predicate.sql == """
        (todo.status = ?) AND ((todo.wait IS NULL OR (todo.wait > ? AND CASE WHEN todo.wait_day IS NULL THEN todo.wait > ? \
        ELSE todo.wait_day > ? END) IS NOT TRUE)) AND ((todo.until IS NULL OR (todo.until < ? AND CASE WHEN \
        todo.until_day IS NULL THEN todo.until < ? ELSE todo.until_day < ? END) IS NOT TRUE))
        """)
    // Past their until date too (the next write deletes them).
    #expect(
      predicate.arguments == [
        .text("pending"), .integer(100 - DateCondition.margin), .integer(100), .text("1970-01-01"),
        .integer(100 + DateCondition.margin), .integer(100), .text("1970-01-01"),
      ])
  }

  @Test func idsSelectEveryStatusUnlessOneIsGiven() {
    var filter = ids(.id(3), .range(5, 7))
    #expect(filter.predicate(now: 0).sql == "(todo.id = ?) OR (todo.id BETWEEN ? AND ?)")
    #expect(filter.predicate(now: 0).arguments == [.integer(3), .integer(5), .integer(7)])
    filter.status = .done
    #expect(filter.predicate(now: 0).sql.hasPrefix("(todo.status = ?) AND"))
  }

  @Test func everyTermCompilesToParameterisedSQL() {
    let filter = select {
      $0.includeTags = ["home"]
      $0.excludeTags = ["later"]
      $0.projects = ["work"]
      $0.priorities = [.high, .medium]
      $0.words = ["50%_off"]
      $0.conditions = [
        .date(DateCondition(field: .created, comparison: .before, value: .instant(200))),
        .date(DateCondition(field: .due, comparison: .after, value: .instant(100))),
      ]
      $0.status = .all
    }
    let predicate = filter.predicate(now: 150)
    #expect(
      predicate.sql == """
        (todo.id IN (SELECT todo_id FROM tag WHERE name = ?)) AND (todo.id NOT IN (SELECT todo_id FROM tag \
        WHERE name = ?)) AND ((todo.project = ? OR (todo.project >= ? AND todo.project < ?))) AND (todo.priority IN \
        (?, ?)) AND ((todo_contains(todo.title, ?) OR todo.id IN (SELECT todo_id FROM note WHERE todo_contains(text, ?)))) \
        AND (todo.created < ?) AND (todo.due > ? AND CASE WHEN todo.due_day IS NULL THEN todo.due > ? ELSE todo.due_day > ? END)
        """)
    #expect(
      predicate.arguments == [
        .text("home"), .text("later"), .text("work"), .text("work."), .text("work/"), .text("H"), .text("M"),
        .text("50%_off"), .text("50%_off"), .integer(200), .integer(100 - DateCondition.margin), .integer(100),
        .text(CalendarDay.local(100).description),
      ])
    #expect(!predicate.sql.contains("home"))  // values never appear in the SQL text
  }

  @Test func projectsIncludeSubProjectsButNotLookalikes() throws {
    let context = try makeTodoContext()
    try addTask("a", in: context) { $0.project = .set("work") }
    try addTask("b", in: context) { $0.project = .set("work.q4") }
    try addTask("c", in: context) { $0.project = .set("work.q4.launch") }
    try addTask("d", in: context) { $0.project = .set("workshop") }
    try addTask("e", in: context)
    let work = try TodoStore.list(select { $0.projects = ["work"] }, now: storeNow).operate(in: context)
    #expect(work.map(\.title).sorted() == ["a", "b", "c"])
    let q4 = try TodoStore.list(select { $0.projects = ["work.q4"] }, now: storeNow).operate(in: context)
    #expect(q4.map(\.title).sorted() == ["b", "c"])
    let none = try TodoStore.list(select { $0.withoutProject = true }, now: storeNow).operate(in: context)
    #expect(none.map(\.title) == ["e"])
  }

  @Test func wordsMatchTitlesAndNotesCaseInsensitivelyAndLiterally() throws {
    let context = try makeTodoContext()
    try addTask("Buy MILK", in: context)
    try addTask("call bank", in: context) { $0.notes = ["ask about the milk money"] }
    try addTask("50% off sale", in: context)
    try addTask("500 offers", in: context)
    let milk = try TodoStore.list(select { $0.words = ["milk"] }, now: storeNow).operate(in: context)
    #expect(milk.map(\.title) == ["Buy MILK", "call bank"])
    let percent = try TodoStore.list(select { $0.words = ["50%"] }, now: storeNow).operate(in: context)
    #expect(percent.map(\.title) == ["50% off sale"])
  }

  @Test func tagAndDueTermsSelectTheRightTasks() throws {
    let context = try makeTodoContext()
    try addTask("home soon", in: context) {
      $0.addTags = ["home"]; $0.due = .set(.date(.instant(storeNow + 3600)))
    }
    try addTask("home late", in: context) {
      $0.addTags = ["home", "later"]; $0.due = .set(.date(.instant(storeNow + 86_400 * 10)))
    }
    try addTask("work overdue", in: context) {
      $0.addTags = ["work"]; $0.due = .set(.date(.instant(storeNow - 60)))
    }
    func titles(_ filter: TodoFilter) throws -> [String] {
      try TodoStore.list(filter, now: storeNow).operate(in: context).map(\.title)
    }
    #expect(try titles(select { $0.includeTags = ["home"] }) == ["home soon", "home late"])
    #expect(
      try titles(
        select {
          $0.includeTags = ["home"]; $0.excludeTags = ["later"]
        }) == ["home soon"])
    func due(_ comparison: DateComparison, _ value: Int64) -> FilterTerm {
      .date(DateCondition(field: .due, comparison: comparison, value: .instant(value)))
    }
    #expect(try titles(select { $0.conditions = [.virtual(.overdue)] }) == ["work overdue"])
    #expect(try titles(select { $0.conditions = [due(.before, storeNow + 86_400)] }) == ["work overdue", "home soon"])
    #expect(try titles(select { $0.conditions = [due(.after, storeNow)] }) == ["home soon", "home late"])
    #expect(try titles(select { $0.conditions = [.not(due(.after, storeNow))] }) == ["work overdue"])
  }

  /// The tag term is looked up through its index, and no term makes SQLite scan the whole table.
  @Test func theTagAndProjectFilterUsesTheTagIndexAndNoFullScan() throws {
    let context = try makeTodoContext()
    let predicate = select {
      $0.includeTags = ["home"]; $0.projects = ["work"]
    }.predicate(now: storeNow)
    let plan = try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
      try connection.all("EXPLAIN QUERY PLAN SELECT id FROM todo WHERE \(predicate.sql)", predicate.arguments) {
        row throws(DatabaseError) in try row.string("detail")
      }
    }.operate(in: context)
    #expect(plan.contains { $0.contains("USING INDEX tag_by_name") || $0.contains("USING COVERING INDEX tag_by_name") })
    #expect(!plan.contains { $0 == "SCAN todo" })
  }

  /// The common terms each compile to SQL that SQLite answers from an index, never by walking
  /// the whole table: ids, tags, projects, due ranges (all-day and timed), wait and the virtual
  /// tags built on them.
  @Test func commonTermsUseIndexes() throws {
    let context = try makeTodoContext()
    func plan(_ filter: TodoFilter) throws -> [String] {
      let predicate = filter.predicate(now: storeNow)
      return try DataOperation<[String], DatabaseError> { connection throws(DatabaseError) in
        try connection.all("EXPLAIN QUERY PLAN SELECT id FROM todo WHERE \(predicate.sql)", predicate.arguments) {
          row throws(DatabaseError) in try row.string("detail")
        }
      }.operate(in: context)
    }
    let friday = CalendarDay.local(storeNow).adding(days: 6)
    let cases: [(String, TodoFilter, String)] = [
      ("id", ids(.id(3)), "USING INTEGER PRIMARY KEY"),
      ("tag", select { $0.includeTags = ["home"] }, "tag_by_name"),
      (
        "project",
        select {
          $0.projects = ["work"]; $0.status = .all
        }, "todo_by_project"
      ),
      ("due.by:fri", select { $0.conditions = [.date(DateCondition(field: .due, comparison: .by, value: .day(friday)))] }, "todo_by_status_due"),
      (
        "due.after:now", select { $0.conditions = [.date(DateCondition(field: .due, comparison: .after, value: .instant(storeNow)))] },
        "todo_by_status_due"
      ),
      ("due:fri", select { $0.conditions = [.date(DateCondition(field: .due, comparison: .on, value: .day(friday)))] }, "todo_by_status_due"),
      ("+OVERDUE", select { $0.conditions = [.virtual(.overdue)] }, "todo_by_status_due"),
      ("+TODAY", select { $0.conditions = [.virtual(.today)] }, "todo_by_status_due"),
      (
        "+WAITING, any status",
        select {
          $0.conditions = [.date(DateCondition(field: .wait, comparison: .after, value: .instant(storeNow)))]; $0.status = .all
        }, "todo_by_wait"
      ),
      (
        "until.before:now",
        select {
          $0.conditions = [.date(DateCondition(field: .until, comparison: .before, value: .instant(storeNow)))]; $0.status = .all
        }, "todo_by_until"
      ),
    ]
    for (name, filter, index) in cases {
      let steps = try plan(filter)
      #expect(steps.contains { $0.contains(index) }, "\(name): \(steps)")
      #expect(!steps.contains { $0 == "SCAN todo" }, "\(name): \(steps)")
    }
  }

  @Test func sortKeysParseAndRejectUnknownFields() throws {
    #expect(try SortKey.parseList("due,-priority,id") == [SortKey(.due), SortKey(.priority, descending: true), SortKey(.id)])
    #expect(throws: TodoError.self) { try SortKey.parseList("due,urgency") }
  }

  @Test func sortingPutsMissingValuesLastInBothDirections() throws {
    let context = try makeTodoContext()
    try addTask("low", in: context) { $0.priority = .set(.low) }
    try addTask("none", in: context)
    try addTask("high", in: context) { $0.priority = .set(.high) }
    let descending = try TodoStore.list(TodoFilter(), sort: [SortKey(.priority, descending: true)], now: storeNow)
      .operate(in: context)
    #expect(descending.map(\.title) == ["high", "low", "none"])
    let ascending = try TodoStore.list(TodoFilter(), sort: [SortKey(.priority)], now: storeNow).operate(in: context)
    #expect(ascending.map(\.title) == ["low", "high", "none"])
    let limited = try TodoStore.list(TodoFilter(), sort: [SortKey(.id, descending: true)], limit: 2, now: storeNow)
      .operate(in: context)
    #expect(limited.map(\.title) == ["high", "none"])
  }

  @Test func taskReferencesParse() {
    #expect(TaskReference(parsing: "7") == .id(7))
    #expect(TaskReference(parsing: "7-3") == .range(3, 7))
    #expect(TaskReference(parsing: "1c9e44a0") == .uuidPrefix("1c9e44a0"))
    #expect(TaskReference(parsing: "1C9E44A0-5B") == .uuidPrefix("1c9e44a0-5b"))
    #expect(TaskReference(parsing: "0") == nil)
    #expect(TaskReference(parsing: "1234567") == .id(1_234_567))
    #expect(TaskReference(parsing: "12345678") == .uuidPrefix("12345678"))  // 8 digits: a UUID's start
    #expect(TaskReference(parsing: "00000003") == .uuidPrefix("00000003"))  // never task 3
    #expect(TaskReference(parsing: "00000001-0004") == .uuidPrefix("00000001-0004"))  // not the range 1-4
    #expect(TaskReference(parsing: "9223372036854775807") == nil)  // not UUID-shaped
    #expect(TaskReference(parsing: "03") == nil)
    #expect(TaskReference(parsing: "milk") == nil)
    #expect(TaskReference(parsing: "abc") == nil)
    #expect(TaskReference(parsing: "-3") == nil)
    #expect(TaskReference.list("1,4,7-9") == [.id(1), .id(4), .range(7, 9)])
    #expect(TaskReference.list("1,,4") == nil)
  }
}
