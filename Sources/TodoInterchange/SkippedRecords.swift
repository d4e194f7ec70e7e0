/// The records a reader could not read and went on without: one bad record costs that record,
/// never the file (`todo import` without `--strict`, and every sync). A reader given none stops at
/// the first bad record, with its error.
///
/// ```swift
/// let skipped = SkippedRecords()
/// let records = try TodoTxt.records(bytes, skipping: skipped)  // the lines that read
/// skipped.problems  // [line 3: a done task …]
/// ```
public final class SkippedRecords {
  /// Each record left out: its line and why, in the order they came.
  public private(set) var problems: [InterchangeError] = []
  /// What an iCalendar file held besides to-dos (and the time zones they use), by component:
  /// events and journal entries, which todo does not keep.
  public internal(set) var otherComponents: [String: Int] = [:]

  public init() {}

  /// Leaves a record out, or (`skipping` nil: all or nothing) stops the reading with its error.
  static func skip(_ problem: InterchangeError, in skipping: SkippedRecords?) throws(InterchangeError) {
    guard let skipping else { throw problem }
    skipping.problems.append(problem)
  }
}
