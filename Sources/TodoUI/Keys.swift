/// A key (or a mouse event, or pasted text) read from the terminal.
public enum Key: Hashable, Sendable {
  case character(Character)
  case up, down, left, right, home, end, pageUp, pageDown
  case enter, tab, backTab, backspace, delete, escape
  /// Ctrl with a letter (`control("l")`), except those that are Tab, Enter and Backspace.
  case control(Character)
  case mouse(MouseEvent)
  /// Text pasted while bracketed paste is on: taken as typed text, never as commands.
  case paste(String)

  /// The name `ui.key.ACTION` settings and the help use: `j`, `Enter`, `Ctrl-L`, `PgDn`.
  public var name: String {
    switch self {
    case .character(" "): return "Space"
    case .character(let character): return String(character)
    case .up: return "Up"
    case .down: return "Down"
    case .left: return "Left"
    case .right: return "Right"
    case .home: return "Home"
    case .end: return "End"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .enter: return "Enter"
    case .tab: return "Tab"
    case .backTab: return "Shift-Tab"
    case .backspace: return "Backspace"
    case .delete: return "Delete"
    case .escape: return "Esc"
    case .control(let character): return "Ctrl-" + character.uppercased()
    case .mouse: return "Mouse"
    case .paste: return "Paste"
    }
  }

  /// The key a name spells (`j`, `Space`, `Enter`, `Ctrl-L`, `PgDn`), case-insensitive for
  /// names longer than one character; nil for a name that is no key.
  public init?(name: String) {
    if name.count == 1, let character = name.first {
      self = .character(character)
      return
    }
    let lowered = name.lowercased()
    if lowered.hasPrefix("ctrl-") || lowered.hasPrefix("c-"), let letter = lowered.split(separator: "-").last, letter.count == 1,
      let character = letter.first, character.isLetter
    {
      self = .control(character)
      return
    }
    let named: [String: Key] = [
      "space": .character(" "), "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
      "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "enter": .enter, "return": .enter,
      "tab": .tab, "shift-tab": .backTab, "backspace": .backspace, "delete": .delete, "del": .delete, "esc": .escape,
      "escape": .escape,
    ]
    guard let key = named[lowered] else { return nil }
    self = key
  }
}

/// A mouse event in SGR encoding (1006): where (0-based row and column) and what.
public struct MouseEvent: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case press(button: Int)
    case release
    case wheelUp, wheelDown
  }
  public var kind: Kind
  public var row: Int
  public var column: Int

  public init(kind: Kind, row: Int, column: Int) {
    self.kind = kind
    self.row = row
    self.column = column
  }
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, CSI and SS3
/// sequences (arrows, Home/End, PgUp/PgDn, Delete, Shift-Tab), SGR mouse reports and bracketed
/// paste. Bytes that end in the middle of a sequence wait for the next read; an Escape alone is
/// only known once no more bytes follow (`flushPendingEscape()`, after a short wait).
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed(Array("j\u{1B}[B".utf8))  // [.character("j"), .down]
/// ```
public struct KeyDecoder: Sendable {
  private var buffer: [UInt8] = []
  private var pasting: [UInt8]?

  public init() {}

  /// Whether bytes wait for the rest of a sequence (a lone Escape among them).
  public var hasPendingBytes: Bool { !buffer.isEmpty }

  /// Decodes what it can of the bytes read so far.
  public mutating func feed(_ bytes: [UInt8]) -> [Key] {
    buffer += bytes
    var keys: [Key] = []
    while !buffer.isEmpty {
      guard let (key, length) = decodeOne() else { break }
      buffer.removeFirst(length)
      if let key { keys.append(key) }
    }
    return keys
  }

  /// After a wait with no more bytes: what is left is an Escape key (and whatever followed it).
  public mutating func flushPendingEscape() -> [Key] {
    guard buffer.first == 0x1B, pasting == nil else { return [] }
    buffer.removeFirst()
    return [.escape] + feed([])
  }

  /// One key from the start of the buffer and the bytes it took; nil when more bytes are needed.
  /// A key of nil with a length: bytes that mean nothing we know (skipped).
  private mutating func decodeOne() -> (Key?, Int)? {
    if pasting != nil { return decodePaste() }
    let byte = buffer[0]
    switch byte {
    case 0x1B: return decodeEscape()
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
    case 0x00, 0x1C...0x1F: return (nil, 1)
    default: return decodeText()
    }
  }

  /// A UTF-8 character (invalid bytes are skipped one at a time).
  private func decodeText() -> (Key?, Int)? {
    let first = buffer[0]
    let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
    guard length > 0 else { return (nil, 1) }
    guard buffer.count >= length else { return nil }
    guard let text = String(validating: buffer[0..<length], as: UTF8.self), let character = text.first else { return (nil, 1) }
    return (.character(character), length)
  }

  private mutating func decodeEscape() -> (Key?, Int)? {
    guard buffer.count >= 2 else { return nil }
    switch buffer[1] {
    case UInt8(ascii: "["):
      return decodeCSI()
    case UInt8(ascii: "O"):
      guard buffer.count >= 3 else { return nil }
      let keys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
      ]
      return (keys[buffer[2]], 3)
    case 0x1B:
      return (.escape, 1)
    default:
      // Alt with a key: the Escape, then the key.
      return (.escape, 1)
    }
  }

  private mutating func decodeCSI() -> (Key?, Int)? {
    var end = 2
    while end < buffer.count, !(0x40...0x7E).contains(buffer[end]) { end += 1 }
    guard end < buffer.count else { return buffer.count > 64 ? (nil, buffer.count) : nil }
    let parameters = String(decoding: buffer[2..<end], as: UTF8.self)
    let final = Character(Unicode.Scalar(buffer[end]))
    let length = end + 1
    if parameters.hasPrefix("<"), final == "M" || final == "m" { return (mouse(parameters.dropFirst(), press: final == "M"), length) }
    switch final {
    case "A": return (.up, length)
    case "B": return (.down, length)
    case "C": return (.right, length)
    case "D": return (.left, length)
    case "H": return (.home, length)
    case "F": return (.end, length)
    case "Z": return (.backTab, length)
    case "~":
      switch parameters.split(separator: ";").first ?? "" {
      case "1", "7": return (.home, length)
      case "4", "8": return (.end, length)
      case "3": return (.delete, length)
      case "5": return (.pageUp, length)
      case "6": return (.pageDown, length)
      case "200":
        pasting = []
        return (nil, length)
      default: return (nil, length)
      }
    default: return (nil, length)
    }
  }

  /// `<button;column;row` of an SGR mouse report (1-based), pressed (`M`) or released (`m`).
  private func mouse(_ parameters: Substring, press: Bool) -> Key? {
    let numbers = parameters.split(separator: ";").compactMap { Int($0) }
    guard numbers.count == 3 else { return nil }
    let (button, column, row) = (numbers[0], numbers[1] - 1, numbers[2] - 1)
    let kind: MouseEvent.Kind
    switch button & ~(4 | 8 | 16) {
    case 64: kind = .wheelUp
    case 65: kind = .wheelDown
    case let plain where plain & 32 != 0: return nil  // motion while pressed
    default: kind = press ? .press(button: button & 3) : .release
    }
    return .mouse(MouseEvent(kind: kind, row: row, column: column))
  }

  /// Bytes up to `ESC [ 201 ~` are pasted text.
  private mutating func decodePaste() -> (Key?, Int)? {
    let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
    var index = 0
    while index + end.count <= buffer.count {
      if Array(buffer[index..<index + end.count]) == end {
        let text = String(decoding: (pasting ?? []) + buffer[0..<index], as: UTF8.self)
        pasting = nil
        return (.paste(text), index + end.count)
      }
      index += 1
    }
    // Keep what might be the start of the end marker; take the rest as pasted.
    let keep = min(buffer.count, end.count - 1)
    let taken = buffer.count - keep
    guard taken > 0 else { return nil }
    pasting? += buffer[0..<taken]
    return (nil, taken)
  }
}
