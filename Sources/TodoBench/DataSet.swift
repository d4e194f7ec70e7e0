import DataOperation
import TodoCore

/// The benchmark data: COUNT tasks made with `TodoStore.add`, `complete` and `delete`, as a user
/// would make them, from a fixed seed, so every run measures the same database.
///
/// - titles of 2 to 7 words; 0 to 3 tags out of 40; a dotted project (3 levels) on 60%;
///   a priority on 50%; a due date on 60%, half at midnight (all-day) and half at a time of day;
///   a note on 5%;
/// - 70% pending, 20% done, 10% deleted.
enum DataSet {
  /// "Now" for the data and for every benchmark run (`TODO_NOW`): Saturday 2026-11-21 09:30 UTC.
  static let now: Int64 = 1_795_253_400
  static let words = [
    "call", "buy", "fix", "write", "review", "plan", "email", "book", "pay", "clean", "read", "ship", "update",
    "order", "check", "send", "prepare", "renew", "cancel", "schedule", "the", "a", "report", "invoice", "car",
    "garden", "release", "notes", "budget", "tickets", "dentist", "milk", "bike", "slides", "draft", "server",
  ]
  static let tags = (0..<40).map { "tag\($0)" }
  static let projects = ["work", "home", "club"].flatMap { top in
    ["a", "b", "c", "d"].flatMap { middle in ["x", "y", "z"].map { "\(top).\(middle).\($0)" } }
  }

  static func generate(path: String, count: Int) throws {
    let context = try TodoDatabase.open(path: path)
    var random = SplitMix64(seed: 20_261_121)
    let batch = 5_000
    var added = 0
    while added < count {
      let size = min(batch, count - added)
      let changes = (0..<size).map { _ in makeChanges(&random) }
      let statuses = (0..<size).map { _ in random.next() % 10 }
      let first = Int64(added + 1)
      try DataOperation<Void, TodoError> { connection throws(TodoError) in
        for (offset, change) in changes.enumerated() {
          _ = try TodoStore.add(change, now: now - Int64(offset), command: "add").run(connection)
        }
        for (offset, status) in statuses.enumerated() where status < 3 {
          var filter = TodoFilter()
          filter.references = [.id(first + Int64(offset))]
          if status < 2 {
            _ = try TodoStore.complete(filter, now: now, command: "done").run(connection)
          } else {
            _ = try TodoStore.delete(filter, now: now, command: "delete").run(connection)
          }
        }
        // As every write of the command line does.
        try PlannerStatistics.refresh().run(connection)
      }.transaction().operate(in: context)
      added += size
    }
  }

  private static func makeChanges(_ random: inout SplitMix64) -> TodoChanges {
    let wordCount = 2 + Int(random.next() % 6)
    var changes = TodoChanges(title: (0..<wordCount).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " "))
    changes.title = changes.title!.prefix(1).uppercased() + changes.title!.dropFirst()
    for _ in 0..<Int(random.next() % 4) { changes.addTags.append(tags[Int(random.next() % UInt64(tags.count))]) }
    if random.next() % 10 < 6 { changes.project = .set(projects[Int(random.next() % UInt64(projects.count))]) }
    if random.next() % 2 == 0 { changes.priority = .set([Priority.high, .medium, .low][Int(random.next() % 3)]) }
    if random.next() % 10 < 6 {
      let day = now - 30 * 86_400 + Int64(random.next() % 120) * 86_400
      let midnight = day - day % 86_400
      // Half all-day dates, half times of day.
      let date: TaskDate =
        random.next() % 2 == 0
        ? .day(CalendarDay(dayNumber: midnight / 86_400)) : .instant(midnight + 3_600 * Int64(8 + random.next() % 10))
      changes.due = .set(.date(date))
    }
    if random.next() % 20 == 0 { changes.notes = ["a note about it"] }
    return changes
  }
}

/// A small, fast, seeded generator (SplitMix64): the same seed gives the same data everywhere.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
