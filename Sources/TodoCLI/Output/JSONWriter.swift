/// A streaming JSON builder that appends UTF-8 bytes, for `--json` and `--jsonl` without Foundation.
///
/// Keys come out in the order they are written (`JSONEncoder` would sort or scramble them), and
/// nothing is buffered beyond what has not been drained yet, so `todo list --jsonl` of 100k tasks
/// runs in constant memory: write one object, `drain(into:)` the stream, repeat.
///
/// ```swift
/// var json = JSONWriter(format: .pretty)
/// json.beginObject()
/// json.field("id", 7)
/// json.field("title", "Pay \"rent\"")
/// json.field("due", nil as String?)
/// json.endObject()
/// json.text  // {\n  "id": 7,\n  "title": "Pay \"rent\"",\n  "due": null\n}
/// ```
///
/// Misuse (a value in an object without a key, unbalanced `end…` calls) is a programming error
/// and is caught by assertions in debug builds.
struct JSONWriter {
  /// Layout of the output.
  enum Format: Sendable {
    /// One line, no spaces (`{"id":1,"tags":["a"]}`): for JSON Lines.
    case compact
    /// Two-space indentation, `": "` after keys, `[]`/`{}` for empty containers: for `--json`.
    case pretty
  }

  /// One open array or object.
  private struct Container {
    var isObject: Bool
    var isEmpty = true
  }

  /// The layout used for everything this writer emits.
  let format: Format
  /// The encoded output not yet drained.
  private(set) var bytes: [UInt8] = []
  private var containers: [Container] = []
  private var expectsValueAfterKey = false

  /// Creates an empty writer.
  init(format: Format = .compact, reservingCapacity capacity: Int = 1024) {
    self.format = format
    bytes.reserveCapacity(capacity)
  }

  /// The output so far as a string.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes the output so far to `stream` and empties the writer, keeping any open containers.
  mutating func drain(into stream: OutputStream) {
    stream.write(bytes: bytes)
    bytes.removeAll(keepingCapacity: true)
  }

  /// Ends a top-level value with a line feed: the separator of JSON Lines, and the final
  /// newline of `--json` output.
  mutating func endLine() {
    assert(containers.isEmpty, "line break inside a JSON value")
    bytes.append(UInt8(ascii: "\n"))
  }

  // MARK: Containers

  /// Opens an object (`{`) as the next value.
  mutating func beginObject() {
    beginValue()
    bytes.append(UInt8(ascii: "{"))
    containers.append(Container(isObject: true))
  }

  /// Closes the innermost object.
  mutating func endObject() {
    endContainer(closing: UInt8(ascii: "}"), isObject: true)
  }

  /// Opens an array (`[`) as the next value.
  mutating func beginArray() {
    beginValue()
    bytes.append(UInt8(ascii: "["))
    containers.append(Container(isObject: false))
  }

  /// Closes the innermost array.
  mutating func endArray() {
    endContainer(closing: UInt8(ascii: "]"), isObject: false)
  }

  /// Writes a whole object whose members `body` writes.
  mutating func object(_ body: (inout JSONWriter) -> Void) {
    beginObject()
    body(&self)
    endObject()
  }

  /// Writes a whole array whose elements `body` writes.
  mutating func array(_ body: (inout JSONWriter) -> Void) {
    beginArray()
    body(&self)
    endArray()
  }

  /// Writes the key of the next object member; the next call must write its value.
  mutating func key(_ name: String) {
    assert(containers.last?.isObject == true && !expectsValueAfterKey, "key outside an object")
    startElement()
    appendString(name)
    bytes.append(UInt8(ascii: ":"))
    if format == .pretty { bytes.append(UInt8(ascii: " ")) }
    expectsValueAfterKey = true
  }

  // MARK: Scalars

  /// Writes a string value, escaped per RFC 8259.
  mutating func value(_ string: String) {
    beginValue()
    appendString(string)
  }

  /// Writes an integer value.
  mutating func value(_ integer: Int) {
    beginValue()
    appendInteger(integer)
  }

  /// Writes a floating-point value; NaN and infinities, which JSON cannot express, become `null`.
  mutating func value(_ number: Double) {
    guard number.isFinite else { return nullValue() }
    beginValue()
    if number == number.rounded(.towardZero) && abs(number) < 1e15 {
      appendInteger(Int(number))
    } else {
      bytes.append(contentsOf: number.description.utf8)
    }
  }

  /// Writes `true` or `false`.
  mutating func value(_ boolean: Bool) {
    beginValue()
    bytes.append(contentsOf: boolean ? "true".utf8 : "false".utf8)
  }

  /// Writes `null`.
  mutating func nullValue() {
    beginValue()
    bytes.append(contentsOf: "null".utf8)
  }

  /// Writes a key and a string value, or `null` when absent.
  mutating func field(_ name: String, _ string: String?) {
    key(name)
    if let string { value(string) } else { nullValue() }
  }

  /// Writes a key and an integer value, or `null` when absent.
  mutating func field(_ name: String, _ integer: Int?) {
    key(name)
    if let integer { value(integer) } else { nullValue() }
  }

  /// Writes a key and a boolean value, or `null` when absent.
  mutating func field(_ name: String, _ number: Double) {
    key(name)
    value(number)
  }

  mutating func field(_ name: String, _ boolean: Bool?) {
    key(name)
    if let boolean { value(boolean) } else { nullValue() }
  }

  /// Writes a key and an array of strings.
  mutating func field(_ name: String, _ strings: [String]) {
    key(name)
    beginArray()
    for string in strings { value(string) }
    endArray()
  }

  // MARK: Layout

  /// Emits what must precede any value: nothing after a key, else a comma and indentation.
  private mutating func beginValue() {
    if expectsValueAfterKey {
      expectsValueAfterKey = false
      return
    }
    assert(containers.last?.isObject != true, "value in an object without a key")
    startElement()
  }

  /// Emits the separator and (pretty) line break before an element of the innermost container.
  private mutating func startElement() {
    guard let last = containers.indices.last else { return }
    if !containers[last].isEmpty { bytes.append(UInt8(ascii: ",")) }
    containers[last].isEmpty = false
    if format == .pretty { appendNewline(indentLevel: containers.count) }
  }

  private mutating func endContainer(closing: UInt8, isObject: Bool) {
    assert(containers.last?.isObject == isObject && !expectsValueAfterKey, "unbalanced JSON")
    guard let container = containers.popLast() else { return }
    if format == .pretty && !container.isEmpty { appendNewline(indentLevel: containers.count) }
    bytes.append(closing)
  }

  private mutating func appendNewline(indentLevel: Int) {
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<(indentLevel * 2) { bytes.append(UInt8(ascii: " ")) }
  }

  // MARK: Encoding

  /// Appends the decimal digits of `integer` without going through `String`.
  private mutating func appendInteger(_ integer: Int) {
    if integer < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = integer.magnitude
    // 20 digits hold UInt64.max; fill from the end, then copy the used tail.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Appends `string` quoted, escaping `"`, `\` and U+0000–U+001F as RFC 8259 asks, and DEL,
  /// the C1 controls and the bidirectional controls too (`\u009b`, `\u202e`): JSON read by a
  /// program decodes to the same text, and JSON printed on a terminal cannot drive it.
  /// Everything else (non-ASCII, emoji) is copied as UTF-8.
  private mutating func appendString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    var copy = string
    copy.withUTF8 { utf8 in
      var runStart = 0
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        guard
          byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2
            || byte == 0xD8 || byte == 0xE2
        else {
          index += 1
          continue
        }
        let control = byte >= 0x7F ? Self.terminalControl(in: utf8, at: index) : (scalar: UInt32(byte), length: 1)
        guard let control else {
          index += 1
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        index += control.length
        runStart = index
        if control.scalar < 0x20 || control.scalar == 0x22 || control.scalar == 0x5C {
          appendEscape(for: UInt8(control.scalar))
        } else {
          appendUnicodeEscape(control.scalar)
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The control character a terminal would act on that starts at `index` (DEL, C1, or a
  /// bidirectional or line-separating control; the lead byte is one of 0x7F, 0xC2, 0xD8, 0xE2),
  /// with its length in bytes; nil for any other character.
  private static func terminalControl(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int)? {
    let lead = utf8[index]
    if lead == 0x7F { return (0x7F, 1) }
    guard index + 1 < utf8.count else { return nil }
    let second = utf8[index + 1]
    if lead == 0xC2 { return (0x80...0x9F).contains(second) ? (UInt32(second), 2) : nil }
    if lead == 0xD8 { return second == 0x9C ? (0x061C, 2) : nil }
    guard index + 2 < utf8.count else { return nil }
    let scalar = 0x2000 | (UInt32(second & 0x3F) << 6) | UInt32(utf8[index + 2] & 0x3F)
    guard second == 0x80 || second == 0x81 else { return nil }
    return (0x200E...0x200F).contains(scalar) || (0x2028...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
      ? (scalar, 3) : nil
  }

  /// Appends `\uXXXX` for a scalar of the Basic Multilingual Plane.
  private mutating func appendUnicodeEscape(_ scalar: UInt32) {
    let hexDigits: StaticString = "0123456789abcdef"
    bytes.append(contentsOf: "\\u".utf8)
    for shift in stride(from: 12, through: 0, by: -4) {
      bytes.append(hexDigits.utf8Start[Int((scalar >> UInt32(shift)) & 0xF)])
    }
  }

  /// Appends the escape sequence for one byte that may not appear raw in a JSON string.
  private mutating func appendEscape(for byte: UInt8) {
    let short: UInt8? =
      switch byte {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case 0x08: UInt8(ascii: "b")
      case 0x0C: UInt8(ascii: "f")
      case 0x0A: UInt8(ascii: "n")
      case 0x0D: UInt8(ascii: "r")
      case 0x09: UInt8(ascii: "t")
      default: nil
      }
    bytes.append(UInt8(ascii: "\\"))
    if let short {
      bytes.append(short)
    } else {
      let hexDigits: StaticString = "0123456789abcdef"
      bytes.append(contentsOf: "u00".utf8)
      bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
      bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
    }
  }
}
