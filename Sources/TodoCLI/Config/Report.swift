import TodoCore

/// A column a report can show: one of todo's fields, or a user-defined attribute
/// (`uda.client.type`), which any report may name (`columns = id,client,title`).
enum ReportColumn: Equatable, Sendable, RawRepresentable, CaseIterable {
  case id, uuid, status, priority, due, wait, scheduled, until, project, tags, title, urgency, age, progress, active
  case notes, created, modified, completed
  /// The time left until the wait date (`in 3d`), beside `wait`, which gives the date.
  case remaining
  case attribute(UserAttribute)

  /// todo's own columns.
  static let allCases: [ReportColumn] = [
    .id, .uuid, .status, .priority, .due, .wait, .scheduled, .until, .project, .tags, .title, .urgency, .age, .progress, .active,
    .notes, .created, .modified, .completed, .remaining,
  ]

  private static let byName: [String: ReportColumn] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

  /// One of todo's own columns by name (a user-defined attribute needs its definition).
  init?(rawValue: String) {
    guard let column = Self.byName[rawValue] else { return nil }
    self = column
  }

  var rawValue: String {
    switch self {
    case .id: "id"
    case .uuid: "uuid"
    case .status: "status"
    case .priority: "priority"
    case .due: "due"
    case .wait: "wait"
    case .scheduled: "scheduled"
    case .until: "until"
    case .project: "project"
    case .tags: "tags"
    case .title: "title"
    case .urgency: "urgency"
    case .age: "age"
    case .progress: "progress"
    case .active: "active"
    case .notes: "notes"
    case .created: "created"
    case .modified: "modified"
    case .completed: "completed"
    case .remaining: "remaining"
    case .attribute(let attribute): attribute.name
    }
  }

  /// The heading when the report gives no labels.
  var label: String {
    switch self {
    case .id: "ID"
    case .uuid: "UUID"
    case .priority: "Pri"
    case .urgency: "Urg"
    case .progress: "Done"
    case .attribute(let attribute): attribute.label
    default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
  }

  /// The user-defined attribute the column shows, if it is one.
  var attribute: UserAttribute? {
    if case .attribute(let attribute) = self { attribute } else { nil }
  }

  /// Reads `id,due,title` (spaces around the commas allowed); `attributes` are the defined
  /// user attributes a column may name. Nil `attributes`: any name one could have is taken (a
  /// file's report line may come before the `uda.` lines that define its columns; the whole
  /// configuration is checked once read).
  static func parseList(_ text: String, attributes: [String: UserAttribute]?) throws(UsageError) -> [ReportColumn] {
    var columns: [ReportColumn] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let typed = String(part).trimmingWhitespace()
      let name = typed.lowercased()
      let column: ReportColumn
      if let own = ReportColumn(rawValue: name) {
        column = own
      } else if let attribute = attributes?[typed] {
        column = .attribute(attribute)
      } else if attributes == nil, UserAttribute.isName(typed) {
        column = .attribute(UserAttribute(name: typed))
      } else {
        let known = allCases.map(\.rawValue) + (attributes?.keys.sorted() ?? [])
        let meant = closestMatch(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        throw .invalid("'\(typed)' is not a column\(meant); columns: \(known.joinedText(", "))")
      }
      guard !columns.contains(where: { $0.rawValue == column.rawValue }) else { throw .invalid("the column '\(typed)' is named twice") }
      columns.append(column)
    }
    guard columns.contains(.id) || columns.contains(.uuid) else {
      throw .invalid("a report shows the id or the uuid column, so that its tasks can be named")
    }
    return columns
  }

  /// How the column is laid out: numbers to the right; the title takes the room left; project
  /// and tags are cut, and then left out, on a narrow terminal before anything else.
  var layout: Table.Column {
    switch self {
    case .id, .urgency, .notes: Table.Column(header: label, alignment: .right)
    case .title: Table.Column(header: label, flexible: true)
    case .project: Table.Column(header: label, shrink: .truncateThenDrop, cutsInTheMiddle: true)
    case .tags: Table.Column(header: label, shrink: .truncateThenDrop, cutsWords: true)
    case .attribute(let attribute) where attribute.kind == .numeric: Table.Column(header: label, alignment: .right, shrink: .drop)
    case .attribute: Table.Column(header: label, shrink: .truncateThenDrop)
    default: Table.Column(header: label, shrink: .drop)
    }
  }
}

/// A named report: which tasks (`filter`), which columns and headings, in what order, how many.
/// `list`, `next` and `waiting` are built in, defined the same way and changed the same way
/// (`[report.next]` with `limit = 5`).
struct ReportDefinition: Sendable {
  var name: String
  var description: String
  var columns: [ReportColumn]
  var labels: [String]
  /// Empty: the list's usual order.
  var sort: [SortKey]
  /// Most urgent first (`sort = urgency`).
  var byUrgency: Bool
  /// Filter terms added to what is typed.
  var filter: String
  /// Nil: all.
  var limit: Int?

  /// `list`, `next` and `waiting` are commands too; the others are Taskwarrior's reports of the
  /// same names.
  static let builtInNames = [
    "list", "next", "waiting", "all", "completed", "active", "blocked", "blocking", "unblocked", "ready", "newest", "oldest",
    "recurring",
  ]

  /// The properties of the built-in reports, as the configuration would write them.
  static let builtIn: [String: [String: String]] = [
    "list": [
      "description": "pending tasks, soonest due first", "columns": listColumns, "labels": "", "sort": "",
      "filter": "", "limit": "0",
    ],
    "next": [
      "description": "the most urgent tasks that can be started now",
      "columns": "id,urgency,priority,due,project,tags,title", "labels": "", "sort": "urgency",
      "filter": "-BLOCKED", "limit": "10",
    ],
    "waiting": [
      "description": "tasks hidden until their wait date, the first to show first",
      "columns": "id,wait,remaining,priority,due,project,tags,title", "labels": "", "sort": "wait", "filter": "+WAITING",
      "limit": "0",
    ],
    "all": simple("every task, whatever its status", filter: "status:all"),
    "completed": [
      "description": "done tasks, the last completed first", "columns": "id,completed,priority,project,tags,title",
      "labels": "", "sort": "-completed", "filter": "status:done", "limit": "0",
    ],
    "active": simple("the tasks being worked on (todo start)", filter: "+ACTIVE"),
    "blocked": simple("pending tasks that wait for another", filter: "+BLOCKED"),
    "blocking": simple("pending tasks another waits for", filter: "+BLOCKING"),
    "unblocked": simple("pending tasks that wait for none", filter: "-BLOCKED"),
    "ready": [
      "description": "tasks that can be started now, most urgent first",
      "columns": "id,urgency,priority,due,project,tags,title", "labels": "", "sort": "urgency", "filter": "+READY",
      "limit": "0",
    ],
    "newest": [
      "description": "the tasks made last", "columns": "id,created,priority,due,project,tags,title", "labels": "",
      "sort": "-created,-id", "filter": "", "limit": "10",
    ],
    "oldest": [
      "description": "the tasks made first", "columns": "id,created,priority,due,project,tags,title", "labels": "",
      "sort": "created,id", "filter": "", "limit": "10",
    ],
    "recurring": simple("instances of series that go on", filter: "+RECURRING"),
  ]

  /// A built-in report with the list's columns and order.
  private static func simple(_ description: String, filter: String) -> [String: String] {
    ["description": description, "columns": listColumns, "labels": "", "sort": "", "filter": filter, "limit": "0"]
  }

  /// The built-in reports as defined, made once.
  static let builtInDefinitions: [String: ReportDefinition] = {
    var definitions: [String: ReportDefinition] = [:]
    for name in builtInNames {
      definitions[name] = try? ReportDefinition(name: name) { builtIn[name]?[$0] ?? "" }
    }
    return definitions
  }()

  /// The columns of `todo list`, drawn by the streamed table (see `StreamedTaskTable`).
  static let listColumns = "id,status,priority,due,project,tags,title"

  /// Builds a report from its properties (`value("columns")`).
  init(name: String, attributes: [String: UserAttribute] = [:], value: (String) -> String) throws(UsageError) {
    self.name = name
    description = value("description")
    let columnsText = value("columns")
    columns = try ReportColumn.parseList(columnsText.isEmpty ? Self.listColumns : columnsText, attributes: attributes)
    let labelsText = value("labels")
    labels =
      labelsText.isEmpty
      ? columns.map(\.label)
      : labelsText.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
    (sort, byUrgency) = try Self.parseSort(value("sort"), attributes: attributes)
    filter = value("filter")
    let limitValue = Int(value("limit")) ?? 0
    limit = limitValue > 0 ? limitValue : nil
  }

  /// Whether `todo list`'s streamed table draws this report (its usual columns and headings).
  var drawsAsList: Bool {
    columns == [.id, .status, .priority, .due, .project, .tags, .title] && labels == columns.map(\.label) && !byUrgency
  }

  /// Reads a sort: `due,-priority` (see `SortKey.parseList`), or `urgency` (most urgent first,
  /// alone); empty: the usual order.
  static func parseSort(_ text: String, attributes: [String: UserAttribute]?) throws(UsageError) -> ([SortKey], byUrgency: Bool) {
    let trimmed = text.trimmingWhitespace()
    if trimmed.isEmpty { return ([], false) }
    if trimmed == "urgency" || trimmed == "-urgency" { return ([], true) }
    if trimmed.split(separator: ",").contains(where: { $0.hasSuffix("urgency") }) {
      throw .invalid("urgency sorts alone: write sort = urgency")
    }
    return (try ArgumentDecoder.checked { () throws(TodoError) in try SortKey.parseList(trimmed, attributes: attributes) }, false)
  }
}
