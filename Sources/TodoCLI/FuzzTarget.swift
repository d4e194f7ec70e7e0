import TodoCore
import TodoInterchange

/// The entry points `make fuzz` drives with libFuzzer, and the regression tests replay: each
/// takes arbitrary bytes and must return (an error is a fine answer) without crashing, hanging
/// or reading out of bounds. A crash libFuzzer finds becomes a file in
/// `Tests/Fuzz/regressions/TARGET/`, which `FuzzRegressionTests` runs in `make test` from then on.
///
/// ```swift
/// FuzzTarget.commandLine.run(Array("add Buy milk due:tomorrow".utf8))
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// A line as the shell splits it, then parsed as a command line (global options, the command,
  /// its options, attributes and filter words).
  case commandLine = "command-line"
  /// A date expression (`due:` values, `todo date`).
  case dates
  /// The filter language, as `list` reads it (`( +a or project:b ) not due.before:eow`).
  case filters
  /// A configuration file, and each of its values checked against its key.
  case config
  /// Our JSON and JSON Lines, as `import` reads them.
  case json
  /// JSON read piece by piece, as `import` reads a file, against the same bytes read whole: the
  /// first byte sets the pieces' size (1 to 32 bytes), the rest is the input. Any difference in
  /// the values, their lines or the error stops the process, for libFuzzer to keep the input.
  /// The pieces are smaller than the reader asks for (`atLeast`), on purpose: a looser contract
  /// than a file gives, so that cuts fall everywhere.
  case jsonPieces = "json-pieces"
  /// Taskwarrior's `task export` output.
  case taskwarrior
  /// A todo.txt file.
  case todotxt
  /// An iCalendar file.
  case ical

  /// A fixed moment, so that a run is repeatable: Saturday 2026-11-21 09:30 UTC.
  static let now: Int64 = 1_795_253_400

  /// Runs the target on `bytes`; true when they were read without an error. Bytes that are not
  /// UTF-8 are given to the byte-reading targets as they are; the text targets decode them with
  /// replacement characters.
  @discardableResult
  public func run(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    switch self {
    case .commandLine:
      guard let words = try? WordSplitter.split(text) else { return false }
      return Self.parse(words)
    case .dates:
      // With a due date to count from (`due-3d`), and without.
      let fromDue = try? DateExpressionParser(now: Self.now, due: .day(CalendarDay(year: 2026, month: 12, day: 1))).read(text)
      let plain = try? DateExpressionParser(now: Self.now).read(text)
      // A date read is one a task may hold, or one the store's check refuses (a western offset
      // on 9999-12-31 is already the year 10000 in UTC): never one stored out of range.
      for reading in [plain, fromDue].compactMap({ $0 }) where !TaskDate(reading).isRepresentable {
        var changes = TodoChanges()
        changes.due = .set(.date(TaskDate(reading)))
        if (try? Validation.changes(changes)) != nil { fatalError("'\(text)' reads as \(TaskDate(reading).text), which would be stored") }
      }
      return plain != nil || fromDue != nil
    case .filters:
      guard let words = try? WordSplitter.split(text) else { return false }
      Self.parse(["update", "--where", text, "+x"])
      return Self.parse(["list"] + words)
    case .config:
      guard let file = try? ConfigFile(text: text, path: "fuzz") else { return false }
      var valid = true
      for entry in file.entries {
        guard let key = try? Configuration.key(entry.key), (try? Configuration.check(entry.value, for: key, now: Self.now)) != nil
        else {
          valid = false
          continue
        }
      }
      return valid
    case .json: return Self.write(try? NativeJSON.records(bytes))
    case .jsonPieces:
      guard let first = bytes.first else { return true }
      let input = Array(bytes.dropFirst())
      let whole = Self.readJSON(input, pieceSize: nil)
      let pieces = Self.readJSON(input, pieceSize: Int(first % 32) + 1)
      guard whole.values.count == pieces.values.count,
        zip(whole.values, pieces.values).allSatisfy({ $0.line == $1.line && $0.value == $1.value }), whole.error == pieces.error
      else {
        fatalError("read in pieces of \(Int(first % 32) + 1) bytes, the input gives \(pieces), not \(whole)")
      }
      return whole.error == nil
    case .taskwarrior: return Self.write(try? Taskwarrior.records(bytes, now: Self.now))
    case .todotxt: return Self.write(try? TodoTxt.records(bytes))
    case .ical: return Self.write(try? ICalendar.records(bytes, now: Self.now))
    }
  }

  @discardableResult
  private static func parse(_ words: [String]) -> Bool {
    let parser = CommandParser(now: now)
    guard let global = try? parser.parseGlobalOptions(words) else { return false }
    return (try? parser.parseCommand(global, configuration: .defaults)) != nil
  }

  /// The top-level values of JSON input with their lines, and the error that stopped the reading:
  /// read whole, or (`pieceSize`) handed over that many bytes at a time.
  private static func readJSON(_ bytes: [UInt8], pieceSize: Int?) -> (values: [(line: Int, value: JSONValue)], error: InterchangeError?) {
    var values: [(line: Int, value: JSONValue)] = []
    var offset = 0
    do throws(InterchangeError) {
      if let pieceSize {
        try JSONReader.forEachRecord(reading: { _ in
          guard offset < bytes.count else { return nil }
          let piece = Array(bytes[offset..<min(offset + pieceSize, bytes.count)])
          offset += piece.count
          return piece
        }) { line, value throws(InterchangeError) in values.append((line, value)) }
      } else {
        try JSONReader.forEachRecord(bytes) { line, value throws(InterchangeError) in values.append((line, value)) }
      }
      return (values, nil)
    } catch {
      return (values, error)
    }
  }

  /// What was read is written back in every format (export must take whatever import took).
  /// Every date read is one a task may hold (years 1970 to 9999): a reader that let another
  /// through (a huge epoch number once crashed an import, and looped a recurrence) stops the
  /// process.
  private static func write(_ records: [TaskRecord]?) -> Bool {
    guard let records else { return false }
    for record in records {
      if let field = TodoStore.unrepresentableDate(in: record) { fatalError("a record was read with its \(field) out of range") }
    }
    _ = ICalendar.Writer(records).calendar(records)
    var json = JSONWriter(format: .compact)
    for record in records {
      _ = TodoTxt.line(record)
      _ = Taskwarrior.line(record)
      json.task(record.todo, extras: record.extras)
      json.endLine()
    }
    return true
  }
}
