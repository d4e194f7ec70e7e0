import TodoCore

/// One iCalendar content line, unfolded: `NAME;PARAM=value:VALUE` (RFC 5545 §3.1).
struct ContentLine: Sendable, Equatable {
  /// Upper-cased.
  var name: String
  /// Names upper-cased; values without their quotes (a list stays comma-separated).
  var parameters: [(name: String, value: String)]
  /// The value as written (TEXT still escaped).
  var value: String
  /// The whole line as read, unfolded: what is written back for a property `todo` does not model.
  var text: String
  /// The file line it starts on (1-based).
  var line: Int

  static func == (a: ContentLine, b: ContentLine) -> Bool { a.text == b.text && a.line == b.line }

  func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
}

/// A component (`VCALENDAR`, `VTODO`, `VALARM`…) with its properties and sub-components.
struct Component: Sendable {
  var name: String
  var properties: [ContentLine] = []
  var components: [Component] = []
  var line: Int

  /// The component as content lines, as read (for one `todo` keeps without modelling it).
  var lines: [String] {
    ["BEGIN:" + name] + properties.map(\.text) + components.flatMap(\.lines) + ["END:" + name]
  }
}

/// Reading and writing iCalendar's text layer: folding, content lines, components, TEXT escapes.
enum ICalendarText {
  /// The top-level components of a file (normally one `VCALENDAR`). Lines are unfolded (CRLF or
  /// LF, then a space or tab); a byte-order mark and blank lines are tolerated.
  static func components(_ bytes: [UInt8], skipping: SkippedRecords? = nil) throws(InterchangeError) -> [Component] {
    var top: [Component] = []
    var open: [Component] = []
    for line in try contentLines(bytes, skipping: skipping) {
      switch line.name {
      case "BEGIN":
        guard open.count < 32 else { throw InterchangeError(line: line.line, "components are nested more than 32 deep") }
        let name = line.value.uppercased()
        guard !name.isEmpty else { throw InterchangeError(line: line.line, "BEGIN needs a component name") }
        open.append(Component(name: name, line: line.line))
      case "END":
        guard let last = open.popLast() else {
          throw InterchangeError(line: line.line, "END:\(shown(line.value)) without its BEGIN")
        }
        guard last.name == line.value.uppercased() else {
          throw InterchangeError(
            line: line.line, "END:\(shown(line.value)) where END:\(shown(last.name)) was expected (BEGIN at line \(last.line))")
        }
        if open.isEmpty { top.append(last) } else { open[open.count - 1].components.append(last) }
      default:
        guard !open.isEmpty else {
          throw InterchangeError(line: line.line, "'\(shown(line.name))' outside BEGIN:VCALENDAR … END:VCALENDAR")
        }
        open[open.count - 1].properties.append(line)
      }
    }
    if let unclosed = open.last {
      throw InterchangeError(line: unclosed.line, "BEGIN:\(shown(unclosed.name)) has no END:\(shown(unclosed.name))")
    }
    return top
  }

  /// The unfolded content lines of a file. A line that is not UTF-8 (RFC 5545's only charset)
  /// is read as Latin-1, with a notice, when the reader goes on past bad records (`skipping`):
  /// older producers wrote their platform's charset, and each of its bytes is a character there.
  static func contentLines(_ bytes: [UInt8], skipping: SkippedRecords? = nil) throws(InterchangeError) -> [ContentLine] {
    var lines: [ContentLine] = []
    var current: [UInt8] = []
    var currentLine = 0
    func flush() throws(InterchangeError) {
      defer { current.removeAll(keepingCapacity: true) }
      guard !current.isEmpty else { return }
      var text = String(validating: current, as: UTF8.self)
      if text == nil, skipping != nil {
        text = String(String.UnicodeScalarView(current.map { Unicode.Scalar($0) }))
        SkippedRecords.notice(
          InterchangeError(line: currentLine, "the line is not UTF-8; read as Latin-1 (ISO 8859-1), and written back as UTF-8"), in: skipping)
      }
      guard let text else {
        throw InterchangeError(line: currentLine, "the line is not valid UTF-8")
      }
      lines.append(try parse(text, line: currentLine))
    }
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var number = 0
    while start < bytes.count {
      number += 1
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      var last = end
      if last > start, bytes[last - 1] == 0x0D { last -= 1 }
      if last > start, bytes[start] == 0x20 || bytes[start] == 0x09, !current.isEmpty {
        current.append(contentsOf: bytes[(start + 1)..<last])
      } else {
        try flush()
        current.append(contentsOf: bytes[start..<last])
        currentLine = number
      }
      start = end + 1
    }
    try flush()
    return lines
  }

  /// Splits one unfolded line into its name, parameters and value.
  static func parse(_ text: String, line: Int) throws(InterchangeError) -> ContentLine {
    let bytes = Array(text.utf8)
    func fail(_ reason: String) -> InterchangeError {
      InterchangeError(line: line, "\(reason): '\(shown(text))'")
    }
    // Letters, digits and '-' as RFC 5545 says, and '_', which producers write (Synology's
    // PERCENT_COMPLETE) and other readers take: such a property is kept as it came.
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        || byte == 0x5F
    }
    var index = 0
    while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
    guard index > 0 else { throw fail("a content line starts with a property name (NAME:value)") }
    let name = String(decoding: bytes[0..<index], as: UTF8.self).uppercased()
    var parameters: [(name: String, value: String)] = []
    while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
      index += 1
      let nameStart = index
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        // A parameter without its name (Evolution wrote `COMPLETED;America/New_York:…`): left
        // out, as libical leaves it; the line itself still reads.
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: ":") { index += 1 }
        guard index < bytes.count else { throw fail("a parameter is NAME=value") }
        continue
      }
      let parameterName = String(decoding: bytes[nameStart..<index], as: UTF8.self).uppercased()
      index += 1
      var values: [String] = []
      while true {
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
          let valueStart = index + 1
          index = valueStart
          while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
          guard index < bytes.count else { throw fail("a quoted parameter value has no closing quote") }
          values.append(String(decoding: bytes[valueStart..<index], as: UTF8.self))
          index += 1
        } else {
          let valueStart = index
          while index < bytes.count, ![UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "\"")].contains(bytes[index]) {
            index += 1
          }
          values.append(String(decoding: bytes[valueStart..<index], as: UTF8.self))
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
        index += 1
      }
      parameters.append((parameterName, values.joinedText(",")))
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("a content line needs ':' before its value") }
    let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
    return ContentLine(name: name, parameters: parameters, value: value, text: text, line: line)
  }

  /// A value as an error message shows it: at most 60 characters, control characters as `?`.
  /// The decimal number the ASCII digits of `bytes` in `range` spell (`2026` of `20261127`);
  /// nil when one is not a digit or the range runs past the end. For DATE and DATE-TIME values.
  static func digits(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    var result = 0
    for index in range {
      guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
      result = result * 10 + Int(bytes[index] - 0x30)
    }
    return result
  }

  static func shown(_ value: String) -> String {
    let cut = value.prefix(60).map { character -> String in
      character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "?" : String(character)
    }
    return cut.joinedText("") + (value.count > 60 ? "…" : "")
  }

  /// A TEXT value read: `\\` `\;` `\,` `\n` (`\N`) unescaped; any other backslash kept.
  static func unescape(_ value: String) -> String {
    guard value.contains("\\") else { return value }
    var result = ""
    var escaping = false
    for character in value {
      if escaping {
        switch character {
        case "n", "N": result.append("\n")
        case "\\", ";", ",": result.append(character)
        default:
          result.append("\\")
          result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    if escaping { result.append("\\") }
    return result
  }

  /// A TEXT list (`CATEGORIES:a,b\,c`) split on its unescaped commas, each item unescaped.
  static func list(_ value: String) -> [String] {
    var items: [String] = []
    var current = ""
    var escaping = false
    for character in value {
      if escaping {
        current.append("\\")
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        items.append(unescape(current))
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaping { current.append("\\") }
    items.append(unescape(current))
    return items
  }

  /// A TEXT value written: backslash, `;`, `,` escaped; a line break (LF, CRLF or CR) as `\n`.
  static func escape(_ text: String) -> String {
    // Most text has nothing to escape: it is returned as it is.
    guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "\\": result.append("\\\\")
      case ";": result.append("\\;")
      case ",": result.append("\\,")
      case "\n", "\r\n", "\r": result.append("\\n")
      default: result.append(character)
      }
    }
    return result
  }

  /// A parameter value, quoted when it holds `:` `;` or `,` (a `"` cannot be written, and is dropped).
  static func parameterValue(_ value: String) -> String {
    if !value.utf8.contains(where: { $0 == 0x22 || $0 == 0x0A || $0 == 0x0D || $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }) {
      return value
    }
    let clean = value.filter { $0 != "\"" && $0 != "\n" && $0 != "\r" }
    return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"" + clean + "\"" : clean
  }
}

/// Writes content lines folded at 75 octets (never inside a UTF-8 character), each ending in CRLF.
/// A property's pieces are appended as they are, without joining them into a string first.
struct ContentWriter {
  private(set) var bytes: [UInt8] = []
  /// Octets on the line being written (a continuation line's leading space counts).
  private var octets = 0

  /// Appends text to the line, folding it before a character that would pass 75 octets.
  private mutating func append(_ text: String) {
    let utf8 = text.utf8
    if octets + utf8.count <= 75 {
      bytes.append(contentsOf: utf8)
      octets += utf8.count
      return
    }
    for byte in utf8 {
      // A character's first byte decides where the line folds; its continuation bytes follow it.
      if byte & 0xC0 != 0x80 {
        let width = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        if octets + width > 75 {
          bytes.append(0x0D)
          bytes.append(0x0A)
          bytes.append(0x20)
          octets = 1
        }
        octets += width
      }
      bytes.append(byte)
    }
  }

  private mutating func endLine() {
    bytes.append(0x0D)
    bytes.append(0x0A)
    octets = 0
  }

  mutating func line(_ text: String) {
    append(text)
    endLine()
  }

  mutating func property(_ name: String, _ value: String) {
    append(name)
    append(":")
    append(value)
    endLine()
  }

  mutating func property(_ name: String, _ parameters: [(String, String)], _ value: String) {
    append(name)
    for (key, parameter) in parameters {
      append(";")
      append(key)
      append("=")
      append(ICalendarText.parameterValue(parameter))
    }
    append(":")
    append(value)
    endLine()
  }
}
