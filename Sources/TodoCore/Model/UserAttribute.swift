import DataOperation

/// A user-defined attribute (Taskwarrior's UDA), defined in the configuration as Taskwarrior
/// defines one (`uda.NAME.type`, `.label`, `.values`, `.default`), set with `NAME:VALUE` and
/// cleared with `NAME:`.
///
/// A task's value is stored as Taskwarrior's export holds it: an extra of format `taskwarrior`
/// named `NAME`, its value JSON text (`"acme"`, `3`, `"20261201T090000Z"`, `"PT1H30M"`). So a
/// value imported from Taskwarrior is the same value as one typed here, and both go back to
/// Taskwarrior as themselves and to iCalendar as an `X-TODO-EXTRA` property.
///
/// ```swift
/// let estimate = UserAttribute(name: "estimate", kind: .duration)
/// try estimate.stored("90min", now: now)   // "\"PT1H30M\""
/// ```
public struct UserAttribute: Sendable, Equatable {
  /// Taskwarrior's types.
  public enum Kind: String, Sendable, CaseIterable {
    case string, numeric, date, duration
  }

  /// How a filter compares a task's value with the one it gives.
  public enum Comparison: String, Sendable, CaseIterable {
    /// `NAME:VALUE` (`NAME:` alone: has none).
    case equal
    /// `NAME.not:VALUE`: any other value, or none.
    case notEqual
    /// `NAME.any:`, `NAME.none:`.
    case any, none
    /// `NAME.over:`, `NAME.under:` (also `above`/`below`, `after`/`before`).
    case over, under
    /// `NAME.has:TEXT`, `NAME.hasnt:TEXT` (a string's text).
    case has, hasnt
  }

  public var name: String
  public var kind: Kind
  /// The column heading and the name `show` gives it (Taskwarrior's `label`).
  public var label: String
  /// The values a string may take (empty: any).
  public var values: [String]
  /// The value a new task gets when `add` gives none (as typed in the configuration).
  public var defaultValue: String?

  public init(name: String, kind: Kind = .string, label: String? = nil, values: [String] = [], defaultValue: String? = nil) {
    self.name = name
    self.kind = kind
    self.label = label ?? (name.prefix(1).uppercased() + name.dropFirst())
    self.values = values
    self.defaultValue = defaultValue
  }

  /// Names Taskwarrior and todo use for their own attributes, which no user attribute may take.
  public static let reservedNames: Set<String> = [
    "description", "title", "status", "project", "priority", "pri", "due", "wait", "scheduled", "sched", "until", "entry",
    "end", "start", "modified", "created", "completed", "tags", "tag", "id", "uuid", "depends", "dep", "blocks", "parent",
    "recur", "mask", "imask", "rtype", "urgency", "annotations", "limit", "rc", "desc", "remind",
  ]

  /// What a name must be.
  public static let nameRule = "a name is letters, digits and '_', starting with a letter, and not one of todo's or Taskwarrior's own attributes"

  /// Whether `name` can name a user-defined attribute (see `nameRule`).
  public static func isName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic, !reservedNames.contains(name.lowercased()),
      !name.lowercased().hasPrefix("todo_")
    else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
  }

  /// The stored form (JSON text) of a value typed by a user.
  ///
  /// - Throws: `TodoError.invalid` naming what the type takes.
  public func stored(_ text: String, now: Int64) throws(TodoError) -> String {
    switch kind {
    case .string:
      guard values.isEmpty || values.contains(text) else {
        throw .invalid("\(name):\(text) is not one of the values uda.\(name).values allows: \(values.joinedText(", "))")
      }
      return JSONText.string(text)
    case .numeric:
      guard let number = Double(text), number.isFinite, abs(number) < 1e15 else {
        throw .invalid("\(name):\(text) is not a number (\(name) is numeric: 3, 2.5, -1)")
      }
      return Self.numberText(number)
    case .date:
      return JSONText.string(Self.taskwarriorTime(try reading(text, now: now).instant))
    case .duration:
      guard let seconds = Self.seconds(text) else {
        throw .invalid("\(name):\(text) is not a duration (\(name) is a duration: PT1H30M, 90min, 2h, 3d, 1w)")
      }
      return JSONText.string(Self.isoDuration(seconds))
    }
  }

  private func reading(_ text: String, now: Int64) throws(TodoError) -> DateReading {
    do throws(DateExpressionError) {
      return try DateExpressionParser(now: now).read(text)
    } catch {
      throw .invalid("\(name):\(text) is not a date (\(name) is a date: 2026-12-01, fri, eom, tomorrow 9:00): \(error.reason)")
    }
  }

  /// A stored value as JSON output writes it.
  public enum PlainValue: Equatable, Sendable {
    case text(String), number(Double)
  }

  /// A stored value (JSON text) as a string or a number; any other JSON as its text.
  public static func plain(_ stored: String) -> PlainValue {
    if let text = JSONText.stringValue(stored) { return .text(text) }
    if let number = Double(stored), number.isFinite { return .number(number) }
    return .text(stored)
  }

  /// A stored value as `show` and tables write it (a string's text, a number, a date, a duration).
  public func shown(_ stored: String) -> String {
    let text = JSONText.stringValue(stored) ?? stored
    switch kind {
    case .date:
      guard let seconds = Self.parseTaskwarriorTime(text) else { return text }
      let day = CalendarDay.local(seconds)
      return day.start == seconds ? day.description : Timestamp.rfc3339(seconds)
    default: return text
    }
  }

  /// The number a stored value sorts and compares by: a number, seconds of a date or a duration;
  /// nil for a string or a value that does not read.
  public func magnitude(_ stored: String) -> Double? {
    let text = JSONText.stringValue(stored) ?? stored
    switch kind {
    case .string: return nil
    case .numeric: return Double(text)
    case .date: return Self.parseTaskwarriorTime(text).map(Double.init)
    case .duration: return Self.seconds(text).map(Double.init)
    }
  }

  /// The filter term of `comparison` with `value` (as typed; ignored by `any` and `none`).
  ///
  /// - Throws: `TodoError.invalid` for a value the type does not take, or a comparison it has
  ///   no sense for (`over` a string, `has` a number).
  public func term(_ comparison: Comparison, _ value: String, now: Int64) throws(TodoError) -> FilterTerm {
    let own = "extra.todo_id = todo.id AND extra.format = 'taskwarrior' AND extra.name = ?"
    func exists(_ condition: String = "", _ arguments: [SQLValue] = []) -> FilterTerm {
      .sql(Predicate(sql: "EXISTS (SELECT 1 FROM extra WHERE \(own)\(condition))", arguments: [.text(name)] + arguments))
    }
    switch comparison {
    case .any: return exists()
    case .none: return .not(exists())
    case .equal, .notEqual:
      // A date compares by its day when the value names a day (`due:2026-12-01`-like).
      let term: FilterTerm
      if kind == .string {
        // The text, whatever escapes the JSON that holds it used; a value outside `values` (one
        // imported) can be found too.
        term = exists(" AND json_extract(extra.value, '$') = ?", [.text(value)])
      } else if kind == .date, let day = try reading(value, now: now).day {
        term = exists(
          " AND todo_uda_magnitude(extra.value, 'date') >= ? AND todo_uda_magnitude(extra.value, 'date') < ?",
          [.real(Double(day.start)), .real(Double(day.adding(days: 1).start))])
      } else {
        let number = magnitude(try stored(value, now: now)) ?? 0
        term = exists(" AND todo_uda_magnitude(extra.value, ?) = ?", [.text(kind.rawValue), .real(number)])
      }
      return comparison == .equal ? term : .not(term)
    case .over, .under:
      guard kind != .string else {
        throw .invalid("\(name) is a string: compare it with \(name):, \(name).not:, \(name).has: or \(name).hasnt:")
      }
      let number = magnitude(try stored(value, now: now)) ?? 0
      return exists(
        " AND todo_uda_magnitude(extra.value, ?) \(comparison == .over ? ">" : "<") ?", [.text(kind.rawValue), .real(number)])
    case .has, .hasnt:
      guard kind == .string else { throw .invalid("\(name).\(comparison.rawValue): compares text; \(name) is \(kind.rawValue)") }
      let escaped = value.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
      let term = exists(" AND json_extract(extra.value, '$') LIKE ? ESCAPE '\\'", [.text("%" + escaped + "%")])
      return comparison == .has ? term : .not(term)
    }
  }

  /// Defines `todo_uda_magnitude(stored value, kind)` on a connection: the number a stored value
  /// compares by (see `magnitude`), NULL when it has none.
  static let define = DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
    try connection.defineFunction("todo_uda_magnitude", argumentCount: 2) { arguments in
      guard case .text(let stored) = arguments[0], case .text(let kindName) = arguments[1], let kind = Kind(rawValue: kindName)
      else { return .null }
      return UserAttribute(name: "", kind: kind).magnitude(stored).map { .real($0) } ?? .null
    }
  }

  // MARK: - Numbers, times and durations

  static func numberText(_ number: Double) -> String {
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }

  /// `YYYYMMDDTHHMMSSZ`.
  static func taskwarriorTime(_ seconds: Int64) -> String {
    Timestamp.rfc3339(seconds).filter { $0 != "-" && $0 != ":" }
  }

  static func parseTaskwarriorTime(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return Int64(text) }
    let iso =
      String(decoding: bytes[0..<4], as: UTF8.self) + "-" + String(decoding: bytes[4..<6], as: UTF8.self) + "-"
      + String(decoding: bytes[6..<8], as: UTF8.self) + "T" + String(decoding: bytes[9..<11], as: UTF8.self) + ":"
      + String(decoding: bytes[11..<13], as: UTF8.self) + ":" + String(decoding: bytes[13..<15], as: UTF8.self) + "Z"
    return Timestamp.parseTaskTime(iso)
  }

  /// Seconds of a duration: ISO 8601 (`PT1H30M`, `P1D`, `P2W`), Taskwarrior's and todo's
  /// words (`90min`, `2h`, `3d`, `1w`, `1h30min`), or plain seconds.
  public static func seconds(_ text: String) -> Int64? {
    let word = text.filter { $0 != " " }.lowercased()
    guard !word.isEmpty else { return nil }
    if let plain = Int64(word), plain >= 0 { return plain }
    var total: Int64 = 0
    var number: Int64?
    var unit = ""
    var inTime = false
    var parts = 0
    let iso = word.hasPrefix("p")
    func flush() -> Bool {
      guard let value = number else { return unit.isEmpty }
      parts += 1
      let scale: Int64
      switch (unit, iso, inTime) {
      case ("y", true, false), ("y", false, _), ("year", false, _), ("years", false, _): scale = 365 * 86_400
      case ("m", true, false), ("mo", false, _), ("month", false, _), ("months", false, _): scale = 30 * 86_400
      case ("w", _, false), ("week", false, _), ("weeks", false, _), ("wk", false, _): scale = 7 * 86_400
      case ("d", _, false), ("day", false, _), ("days", false, _): scale = 86_400
      case ("h", _, _), ("hour", false, _), ("hours", false, _), ("hr", false, _), ("hrs", false, _): scale = 3_600
      case ("m", true, true), ("min", false, _), ("mins", false, _), ("minute", false, _), ("minutes", false, _): scale = 60
      case ("s", _, _), ("sec", false, _), ("secs", false, _), ("second", false, _), ("seconds", false, _): scale = 1
      default: return false
      }
      total += value * scale
      number = nil
      unit = ""
      return true
    }
    for character in (iso ? word.dropFirst() : Substring(word)) {
      if let digit = character.wholeNumberValue, character.isASCII {
        if !unit.isEmpty { guard flush() else { return nil } }
        number = (number ?? 0) * 10 + Int64(digit)
        guard number! < 1_000_000_000 else { return nil }
      } else if iso && character == "t" && number == nil && unit.isEmpty {
        inTime = true
      } else if character.isLetter {
        guard number != nil else { return nil }
        unit.append(character)
        if iso { guard flush() else { return nil } }
      } else {
        return nil
      }
    }
    guard flush(), number == nil, parts > 0 else { return nil }
    return total
  }

  /// Seconds as ISO 8601, as Taskwarrior writes a duration: `P1DT2H30M`, `PT45M`, `PT0S`.
  public static func isoDuration(_ seconds: Int64) -> String {
    let days = seconds / 86_400, hours = seconds % 86_400 / 3_600, minutes = seconds % 3_600 / 60, rest = seconds % 60
    var text = "P" + (days > 0 ? "\(days)D" : "")
    if hours > 0 || minutes > 0 || rest > 0 || days == 0 {
      text +=
        "T" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "")
        + (rest > 0 || (hours == 0 && minutes == 0) ? "\(rest)S" : "")
    }
    return text
  }
}

/// JSON strings, written and read: the one writer every JSON todo writes goes through (our
/// export, Taskwarrior's, user attributes' stored values).
public enum JSONText {
  /// A quoted JSON string.
  static func string(_ text: String) -> String {
    var out = ""
    write(text, into: &out)
    return out
  }

  /// A JSON array of strings.
  static func array(_ texts: [String]) -> String {
    var out = "["
    for (index, text) in texts.enumerated() {
      if index > 0 { out += "," }
      write(text, into: &out)
    }
    return out + "]"
  }

  /// Writes a quoted JSON string. RFC 8259 asks for U+0000–U+001F to be escaped; DEL, C1 and
  /// the bidirectional and line-separating controls are escaped too, so that a file shown on a
  /// terminal cannot drive it.
  public static func write(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x2028...0x202E).contains(scalar.value)
        || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E || scalar.value == 0x200F
        || scalar.value == 0x061C:
        let digits = Array("0123456789abcdef")
        output += "\\u" + (0..<4).reversed().map { String(digits[Int(scalar.value >> UInt32(4 * $0)) & 0xF]) }.joined()
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// The text of a JSON string (`"acme"` → `acme`); nil when the text is not one.
  static func stringValue(_ json: String) -> String? {
    guard json.count >= 2, json.first == "\"", json.last == "\"" else { return nil }
    var out = ""
    var escaped = false
    var scalars = json.unicodeScalars.dropFirst().dropLast().makeIterator()
    while let scalar = scalars.next() {
      if escaped {
        escaped = false
        switch scalar {
        case "n": out += "\n"
        case "r": out += "\r"
        case "t": out += "\t"
        case "b": out += "\u{8}"
        case "f": out += "\u{c}"
        case "u":
          var hex = ""
          for _ in 0..<4 { if let next = scalars.next() { hex.unicodeScalars.append(next) } }
          if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { out.unicodeScalars.append(decoded) }
        default: out.unicodeScalars.append(scalar)
        }
      } else if scalar == "\\" {
        escaped = true
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension TodoStore {
  /// The user-defined attributes tasks hold (every `taskwarrior` extra named as one can be: a
  /// defined attribute's or one Taskwarrior had that is not defined here), by task id, each
  /// task's as (name, stored JSON text) sorted by name.
  public static func userAttributes(of ids: [Int64]) -> DataOperation<[Int64: [(name: String, value: String)]], TodoError> {
    DataOperation { connection throws(DatabaseError) in
      guard !ids.isEmpty else { return [:] }
      var values: [Int64: [(name: String, value: String)]] = [:]
      try connection.query(
        """
        SELECT todo_id, name, value FROM extra
        WHERE format = 'taskwarrior' AND todo_id IN (SELECT value FROM json_each(?)) ORDER BY todo_id, name
        """, [.text("[" + ids.map(String.init).joinedText(",") + "]")]
      ) { row throws(DatabaseError) in
        let name = try row.text(at: 1) ?? ""
        guard UserAttribute.isName(name) else { return }
        values[try row.integer(at: 0) ?? 0, default: []].append((name, try row.text(at: 2) ?? ""))
      }
      return values
    }.mapError(TodoError.init)
  }
}
