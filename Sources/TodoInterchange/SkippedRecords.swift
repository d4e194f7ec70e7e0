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
  /// What was read differently from how it was written, record kept (a line in Latin-1, a date
  /// that does not read kept as its line, a UID given again): each with its line and what was
  /// done.
  public internal(set) var notices: [InterchangeError] = []

  /// `strict`: all or nothing: the first bad record stops the reading (what else the input
  /// holds is still counted).
  public let strict: Bool

  public init(strict: Bool = false) {
    self.strict = strict
  }

  /// Leaves a record out, or (`skipping` nil or strict: all or nothing) stops the reading with its
  /// error.
  static func skip(_ problem: InterchangeError, in skipping: SkippedRecords?) throws(InterchangeError) {
    guard let skipping, !skipping.strict else { throw problem }
    skipping.problems.append(problem)
  }

  /// Notes something read differently from how it was written (see `notices`).
  static func notice(_ notice: InterchangeError, in skipping: SkippedRecords?) {
    skipping?.notices.append(notice)
  }
}
