/// How urgent a pending task is, as Taskwarrior works it out (its published default
/// coefficients, `src/Task.cpp` `urgency_c`), so that a user coming from Taskwarrior finds
/// `todo next` in the order they know: the sum of each term's factor (0…1) times its coefficient.
///
/// ```swift
/// Urgency.terms(of: task, now: now).reduce(0) { $0 + $1.contribution }
/// ```
public enum Urgency {
  /// One term of a task's urgency.
  public struct Term: Sendable, Equatable {
    /// `due`, `priority`, `age`…
    public var name: String
    /// How much of the term applies, 0…1 (due: 0.2…1 by how near or late; tags: 0.8, 0.9, 1).
    public var factor: Double
    public var coefficient: Double
    /// Why the factor is what it is: `due in 2d`, `3 tags`, `42 days old`.
    public var reason: String
    public var contribution: Double { factor * coefficient }
  }

  /// The coefficients: Taskwarrior's defaults (`urgency.*.coefficient`, `urgency.uda.priority.*`),
  /// which the configuration may change (`urgency.due = 12`).
  public struct Coefficients: Sendable, Equatable {
    public var next = 15.0
    public var due = 12.0
    public var blocking = 8.0
    public var high = 6.0, medium = 3.9, low = 1.8
    public var scheduled = 5.0
    public var active = 4.0
    public var age = 2.0
    /// Days after which age counts fully.
    public var ageMax = 365.0
    public var notes = 1.0
    public var tags = 1.0
    public var project = 1.0
    public var blocked = -5.0
    public var waiting = -3.0
    /// Taskwarrior's `urgency.user.tag.NAME.coefficient`: a term for each tag named.
    public var userTags: [String: Double] = [:]
    /// `urgency.user.project.NAME.coefficient`: a term for the project and its sub-projects.
    public var userProjects: [String: Double] = [:]
    /// `urgency.uda.NAME.coefficient`: a term for tasks that have the user-defined attribute.
    public var userAttributes: [String: Double] = [:]
    /// `urgency.uda.NAME.VALUE.coefficient`: a term for tasks whose attribute has that value
    /// (its text, as `show` writes a string or a number).
    public var userAttributeValues: [String: [String: Double]] = [:]

    public init() {}

    /// The user-defined attributes a term looks at: a task's urgency needs their values.
    public var attributeNames: Set<String> { Set(userAttributes.keys).union(userAttributeValues.keys) }

    /// Each coefficient's configuration name (after `urgency.`), default and meaning, and where
    /// it is kept.
    public static var names: [(name: String, value: Double, summary: String, path: WritableKeyPath<Coefficients, Double>)] {
      let defaults = Coefficients()
      let list: [(String, String, WritableKeyPath<Coefficients, Double>)] = [
        ("next", "tagged +next", \.next), ("due", "has a due date (scaled by how near it is)", \.due),
        ("blocking", "another task waits for it", \.blocking), ("priority.H", "priority H", \.high),
        ("priority.M", "priority M", \.medium), ("priority.L", "priority L", \.low),
        ("scheduled", "its scheduled date has passed", \.scheduled), ("active", "started", \.active),
        ("age", "its age (scaled up to age.max days)", \.age), ("age.max", "days after which age counts fully", \.ageMax),
        ("notes", "has notes", \.notes), ("tags", "has tags", \.tags), ("project", "has a project", \.project),
        ("blocked", "waits for another task", \.blocked), ("waiting", "hidden until its wait date", \.waiting),
      ]
      return list.map { ($0.0, defaults[keyPath: $0.2], "urgency: " + $0.1, $0.2) }
    }
  }

  /// What urgency needs of a task's relations, counted: read with the task (`Facts(todo)`) or
  /// counted by SQL beside its row (`TodoStore.idsByUrgency`), so that ranking every task does
  /// not read each one's notes, links and intervals.
  public struct Facts: Sendable, Equatable {
    public var notes: Int
    public var blocking: Int
    public var isActive: Bool
    public var isBlocked: Bool
    /// The values of the user-defined attributes the coefficients look at, by name, as text
    /// (`Urgency.attributeTexts`); others may be left out.
    public var userAttributes: [String: String]

    public init(notes: Int, blocking: Int, isActive: Bool, isBlocked: Bool, userAttributes: [String: String] = [:]) {
      self.notes = notes
      self.blocking = blocking
      self.isActive = isActive
      self.isBlocked = isBlocked
      self.userAttributes = userAttributes
    }

    public init(_ todo: Todo, userAttributes: [String: String] = [:]) {
      self.init(
        notes: todo.notes.count, blocking: todo.blocking.count, isActive: todo.isActive, isBlocked: todo.isBlocked,
        userAttributes: userAttributes)
    }
  }

  /// A task's user-defined attributes (name, stored JSON text, as `TodoStore.userAttributes`
  /// reads them) as the text a `urgency.uda.NAME.VALUE` coefficient names: a string's text, a
  /// number as written.
  public static func attributeTexts(_ attributes: [(name: String, value: String)]) -> [String: String] {
    var texts: [String: String] = [:]
    for (name, stored) in attributes { texts[name] = JSONText.stringValue(stored) ?? stored }
    return texts
  }

  /// Every term that applies to the task (a factor of 0 is left out), in Taskwarrior's order.
  /// Closed tasks have no urgency.
  public static func terms(
    of todo: Todo, userAttributes: [String: String] = [:], now: Int64, coefficients: Coefficients = Coefficients()
  ) -> [Term] {
    var terms: [Term] = []
    walk(todo, Facts(todo, userAttributes: userAttributes), now: now, coefficients: coefficients, texts: true) { name, factor, coefficient, reason in
      terms.append(Term(name: name, factor: factor, coefficient: coefficient, reason: reason))
    }
    return terms
  }

  /// The task's urgency: the sum of its terms (added in the same order, without their texts:
  /// a list ranked by urgency scores every task it selects).
  public static func score(
    of todo: Todo, userAttributes: [String: String] = [:], now: Int64, coefficients: Coefficients = Coefficients()
  ) -> Double {
    score(of: todo, facts: Facts(todo, userAttributes: userAttributes), now: now, coefficients: coefficients)
  }

  /// The urgency of a task whose relations are given as counts (its own are not looked at).
  public static func score(of todo: Todo, facts: Facts, now: Int64, coefficients: Coefficients = Coefficients()) -> Double {
    var sum = 0.0
    walk(todo, facts, now: now, coefficients: coefficients, texts: false) { _, factor, coefficient, _ in
      sum += factor * coefficient
    }
    return sum
  }

  /// Calls `found` with each term that applies (a factor of 0 is left out), in Taskwarrior's
  /// order; its name and reason are made only with `texts` (empty otherwise).
  private static func walk(
    _ todo: Todo, _ facts: Facts, now: Int64, coefficients: Coefficients, texts: Bool,
    _ found: (_ name: String, _ factor: Double, _ coefficient: Double, _ reason: String) -> Void
  ) {
    let c = coefficients
    guard todo.status == .pending else { return }
    func add(_ name: @autoclosure () -> String, _ factor: Double, _ coefficient: Double, _ reason: @autoclosure () -> String) {
      if factor != 0 { found(texts ? name() : "", factor, coefficient, texts ? reason() : "") }
    }
    if todo.tags.contains("next") { add("next", 1, c.next, "tagged +next") }
    if let date = todo.due {
      // Days overdue (negative: days left), from the due instant (a day's local start).
      let days = (Double(now) - Double(date.sortInstant)) / 86_400
      let factor = days >= 7 ? 1 : days >= -14 ? (days + 14) * 0.8 / 21 + 0.2 : 0.2
      add("due", factor, c.due, days >= 0 ? "due \(rounded(days))d ago" : "due in \(rounded(-days))d")
    }
    if facts.blocking > 0 { add("blocking", 1, c.blocking, facts.blocking == 1 ? "1 task waits for it" : "\(facts.blocking) tasks wait for it") }
    switch todo.priority {
    case .high?: add("priority", 1, c.high, "pri:H")
    case .medium?: add("priority", 1, c.medium, "pri:M")
    case .low?: add("priority", 1, c.low, "pri:L")
    case nil: break
    }
    if let date = todo.scheduled, date.sortInstant < now { add("scheduled", 1, c.scheduled, "scheduled date passed") }
    if facts.isActive { add("active", 1, c.active, "being worked on") }
    // Saturating: a database written before dates were range-checked may hold any number.
    let age = now.subtractingReportingOverflow(todo.created)
    let days = age.overflow ? (now > todo.created ? Int64.max : Int64.min) / 86_400 : age.partialValue / 86_400
    add("age", min(1, Double(days) / c.ageMax), c.age, "\(days) day\(days == 1 ? "" : "s") old")
    let noteFactor = facts.notes >= 3 ? 1 : facts.notes == 2 ? 0.9 : facts.notes == 1 ? 0.8 : 0
    add("notes", noteFactor, c.notes, "\(facts.notes) note\(facts.notes == 1 ? "" : "s")")
    let tagFactor = todo.tags.count >= 3 ? 1 : todo.tags.count == 2 ? 0.9 : todo.tags.count == 1 ? 0.8 : 0
    add("tags", tagFactor, c.tags, "\(todo.tags.count) tag\(todo.tags.count == 1 ? "" : "s")")
    if todo.project != nil { add("project", 1, c.project, "has a project") }
    for tag in todo.tags { if let coefficient = c.userTags[tag] { add("tag.\(tag)", 1, coefficient, "tagged +\(tag)") } }
    if let project = todo.project {
      for (name, coefficient) in c.userProjects.sorted(by: { $0.key < $1.key }) where project == name || project.hasPrefix(name + ".") {
        add("project.\(name)", 1, coefficient, "in project \(name)")
      }
    }
    for (name, coefficient) in c.userAttributes.sorted(by: { $0.key < $1.key }) where facts.userAttributes[name] != nil {
      add("uda.\(name)", 1, coefficient, "has \(name)")
    }
    for (name, values) in c.userAttributeValues.sorted(by: { $0.key < $1.key }) {
      if let value = facts.userAttributes[name], let coefficient = values[value] { add("uda.\(name).\(value)", 1, coefficient, "\(name):\(value)") }
    }
    if facts.isBlocked { add("blocked", 1, c.blocked, "waits for \(todo.depends.filter(\.isOpen).map { String($0.id) }.joinedText(", "))") }
    if let date = todo.wait, !date.isPast(now: now), date.sortInstant > now { add("waiting", 1, c.waiting, "hidden until its wait date") }
  }

  private static func rounded(_ days: Double) -> String {
    let tenths = (days * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
}
