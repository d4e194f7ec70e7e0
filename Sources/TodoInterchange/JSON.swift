import TodoCore

/// A JSON value as read, keeping numbers as their text and object keys in order (so a value a
/// format does not model can be written back exactly as it came).
public indirect enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// The number's text as written (`3`, `3.000000`, `-1e5`).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  public static func == (left: JSONValue, right: JSONValue) -> Bool {
    switch (left, right) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// The value of `key` in an object (the first one); nil for other values.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// Compact JSON text (`{"a":1}`), strings escaped as RFC 8259 requires.
  public var text: String {
    var output = ""
    write(into: &output)
    return output
  }

  public func write(into output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let text): output += text
    case .string(let string): JSONValue.writeString(string, into: &output)
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(into: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { output += "," }
        JSONValue.writeString(member.key, into: &output)
        output += ":"
        member.value.write(into: &output)
      }
      output += "}"
    }
  }

  /// Writes a quoted JSON string (see `JSONText.write`).
  public static func writeString(_ string: String, into output: inout String) {
    JSONText.write(string, into: &output)
  }
}

/// Why a file could not be read: the line (1-based) and the reason.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var reason: String

  public init(line: Int, _ reason: String) {
    self.line = line
    self.reason = reason
  }

  public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}

/// Reads JSON values from bytes one after another (an array, one object, or JSON Lines), keeping
/// track of the line each value starts on. Strings must be valid UTF-8; nesting is limited to
/// 256 levels so that hostile input cannot exhaust the stack.
public struct JSONReader {
  private let bytes: [UInt8]
  private var index = 0
  public private(set) var line = 1
  private var depth = 0

  public init(bytes: [UInt8]) {
    self.bytes = bytes
    // A UTF-8 byte order mark is not part of the text.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// A reader of a later piece of an input, whose first byte is on line `line`, `depth` levels
  /// into it (1 inside a top-level array).
  private init(piece: [UInt8], line: Int, depth: Int) {
    bytes = piece
    self.line = line
    self.depth = depth
  }

  /// True when only whitespace is left.
  public mutating func atEnd() -> Bool {
    skipWhitespace()
    return index >= bytes.count
  }

  /// The next byte after whitespace, without consuming it.
  public mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  /// Consumes `byte` (after whitespace) if it is next.
  public mutating func consume(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// Reads one value.
  public mutating func value() throws(InterchangeError) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw error("the input ends where a value should be") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected \(describe(bytes[index])) where a JSON value should be")
    }
  }

  public func error(_ reason: String) -> InterchangeError { InterchangeError(line: line, reason) }

  private func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\n"): line += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
      default: return
      }
      index += 1
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(InterchangeError) -> JSONValue {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
    else { throw error("unexpected text where a JSON value should be") }
    index += count
    return value
  }

  private mutating func number() throws(InterchangeError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() -> Int {
      let from = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - from
    }
    guard digits() > 0 else { throw error("a number needs digits") }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("a number needs digits after its '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("a number needs digits in its exponent") }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func string() throws(InterchangeError) -> String {
    index += 1  // the opening quote
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ end: Int) throws(InterchangeError) {
      guard runStart < end else { return }
      guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
        throw error("a string is not valid UTF-8")
      }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        // No escape in it (nearly always): the bytes are the string.
        if scalars.isEmpty {
          guard let text = String(validating: bytes[runStart..<index], as: UTF8.self) else {
            throw error("a string is not valid UTF-8")
          }
          index += 1
          return text
        }
        try flush(index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flush(index)
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
              throw error("a string has an unpaired surrogate \\u escape")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("a string has an unpaired surrogate \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("a string has an unpaired surrogate \\u escape") }
          scalars.append(scalar)
        default: throw error("a string has an unknown escape \\\(describe(escape))")
        }
        runStart = index
      case 0..<0x20:
        throw error(byte == UInt8(ascii: "\n") ? "a string is not closed on its line" : "a string contains a raw control character")
      default:
        index += 1
      }
    }
    throw error("a string is not closed before the input ends")
  }

  private mutating func hex4() throws(InterchangeError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("a \\u escape needs four hex digits")
      }
      value = value * 16 + UInt32(digit)
      index += 1
    }
    return value
  }

  private mutating func array() throws(InterchangeError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var values: [JSONValue] = []
    if consume(UInt8(ascii: "]")) { return .array(values) }
    while true {
      values.append(try value())
      if consume(UInt8(ascii: ",")) { continue }
      if consume(UInt8(ascii: "]")) { return .array(values) }
      throw error("an array needs ',' or ']' here")
    }
  }

  private mutating func object() throws(InterchangeError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    if consume(UInt8(ascii: "}")) { return .object(members) }
    while true {
      guard peek() == UInt8(ascii: "\"") else { throw error("an object needs a quoted key here") }
      let key = try string()
      guard consume(UInt8(ascii: ":")) else { throw error("an object needs ':' after the key \"\(key)\"") }
      members.append((key, try value()))
      if consume(UInt8(ascii: ",")) { continue }
      if consume(UInt8(ascii: "}")) { return .object(members) }
      throw error("an object needs ',' or '}' here")
    }
  }

  private mutating func enter() throws(InterchangeError) {
    depth += 1
    guard depth <= 256 else { throw error("the JSON is nested more than 256 levels deep") }
  }

  /// Every top-level value with the line it starts on: the elements of a top-level array, or the
  /// values one after another (JSON Lines, or a single object).
  public static func records(_ bytes: [UInt8]) throws(InterchangeError) -> [(line: Int, value: JSONValue)] {
    var records: [(line: Int, value: JSONValue)] = []
    try forEachRecord(bytes) { line, value throws(InterchangeError) in records.append((line, value)) }
    return records
  }

  /// `forEachRecord(_:_:)` over an input read piece by piece, so that a large file is never held
  /// whole: `next(atLeast:)` gives the next piece of the input (at least that many bytes unless
  /// the input ends; nil at its end). Values one after another (JSON Lines), or the elements of a
  /// top-level array, are read as the pieces come, and only the bytes of the value being read
  /// are kept; a value cut by the end of a piece is read again once the next one has come
  /// (asking for twice as much, so that even a 100 MB line is read again only a few times).
  public static func forEachRecord(
    reading next: (_ atLeast: Int) throws(InterchangeError) -> [UInt8]?,
    _ body: (Int, JSONValue) throws(InterchangeError) -> Void
  ) throws(InterchangeError) {
    let pieceSize = 1 << 20
    var buffer: [UInt8] = []
    var exhausted = false
    func read(_ atLeast: Int) throws(InterchangeError) {
      // An empty piece ends the input too (else the loops below would wait for it forever).
      if let piece = try next(atLeast), !piece.isEmpty { buffer += piece } else { exhausted = true }
    }
    // Enough to see the first value's first byte, past any amount of whitespace.
    var first: JSONReader
    repeat {
      try read(pieceSize)
      first = JSONReader(bytes: buffer)
    } while !exhausted && (buffer.count < 4 || first.peek() == nil)
    // Where the reader is: between values one after another (JSON Lines), or in a top-level
    // array, whose elements are the values (each read as it comes, as lines are).
    enum Place {
      case lines
      case arrayStart, element, afterElement, afterArray
    }
    var place = Place.lines
    var reader = first
    if reader.peek() == UInt8(ascii: "[") {
      reader.index += 1
      reader.depth = 1
      place = .arrayStart
    }
    while true {
      // Everything whole in the buffer; `kept` is where what is not yet read starts.
      var kept = reader.index
      var keptLine = reader.line
      var progressed = false
      func keep() {
        kept = reader.index
        keptLine = reader.line
        progressed = true
      }
      /// The next value, handed on; false when it needs more input first.
      func value() throws(InterchangeError) -> Bool {
        let line = reader.line
        let value: JSONValue
        do {
          value = try reader.value()
        } catch {
          // Cut by the end of the piece: read it again with more input. The reader goes forwards
          // and stops at the first byte that cannot be right, so a value that is only cut fails
          // at the very end, or a few bytes before it (looking ahead for the four digits of a
          // `\u` escape or the second half of a surrogate pair). An error further back is one
          // whatever follows: it is thrown at once, without reading the rest of the input.
          if !exhausted && reader.index + Self.lookahead >= reader.bytes.count { return false }
          throw error
        }
        // A value up to the very end may go on in the next piece (a number: `12` of `123`).
        if !exhausted && reader.index >= reader.bytes.count { return false }
        try body(line, value)
        return true
      }
      reading: while true {
        switch place {
        case .lines:
          if reader.atEnd() { break reading }
          guard try value() else { break reading }
          keep()
        case .arrayStart, .element:
          // (At the very end, `value()` throws what reading the whole input throws.)
          guard reader.peek() != nil || exhausted else { break reading }
          if place == .arrayStart, reader.consume(UInt8(ascii: "]")) {
            place = .afterArray
            keep()
            continue
          }
          guard try value() else { break reading }
          place = .afterElement
          keep()
        case .afterElement:
          guard reader.peek() != nil || exhausted else { break reading }
          if reader.consume(UInt8(ascii: ",")) {
            place = .element
          } else if reader.consume(UInt8(ascii: "]")) {
            place = .afterArray
          } else {
            throw reader.error("the array needs ',' or ']' here")
          }
          keep()
        case .afterArray:
          if reader.atEnd() { break reading }
          throw reader.error("text after the end of the JSON array")
        }
      }
      if exhausted { return }
      let unread = Array(buffer[kept...])
      // Nothing whole in the buffer: the value is longer; ask for as much again at once.
      let wanted = progressed ? pieceSize : max(pieceSize, buffer.count)
      buffer = unread
      try read(wanted)
      reader = JSONReader(piece: buffer, line: keptLine, depth: place == .lines || place == .afterArray ? 0 : 1)
    }
  }

  /// How far before the end of its input the reader can fail for want of what follows (a
  /// surrogate pair: `\uD83D\uDE00`, twelve bytes).
  static let lookahead = 16

  /// Hands each top-level value to `body` as soon as it is read, so that a large input is never
  /// held as one tree of values (an import keeps only the tasks made from them).
  public static func forEachRecord(
    _ bytes: [UInt8], _ body: (Int, JSONValue) throws(InterchangeError) -> Void
  ) throws(InterchangeError) {
    // The piecewise reader, given the whole input as its one piece: one reading of arrays and
    // of values one after another, not two to keep alike.
    var piece: [UInt8]? = bytes
    try forEachRecord(
      reading: { _ in
        defer { piece = nil }
        return piece
      }, body)
  }

}
