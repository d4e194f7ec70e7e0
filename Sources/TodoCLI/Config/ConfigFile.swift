/// A problem in the configuration file: where it is and what is wrong, for
/// `todo: error: /home/ann/.config/todo/config, line 7: …`.
struct ConfigFileError: Error, Equatable, Sendable {
  var path: String
  /// 1-based; nil when the problem is the whole file (it cannot be read).
  var line: Int?
  /// The key the line sets, when it got that far.
  var key: String?
  var reason: String

  var message: String {
    var text = "the configuration file \(path)"
    if let line { text += ", line \(line)" }
    if let key { text += " (\(key))" }
    return text + ": " + reason
  }
}

/// The configuration file, line by line: what it sets, and the means to change one key while
/// keeping every other line (comments, blank lines, order) as it was written.
///
/// The format: `key = value` lines, `[section]` headers (a key under `[color]` named `overdue`
/// is `color.overdue`), and `#` or `;` comment lines. Blank lines are ignored. A value is the
/// text after `=` with the white space around it removed; `"…"` quotes keep white space at its
/// ends (with `\"` and `\\` inside). A `#` after a value is part of the value, not a comment.
///
/// ```swift
/// var file = try ConfigFile(text: "[color]\noverdue = red\n", path: path)
/// file.entries                    // [("color.overdue", "red", line 2)]
/// file.set("color.today", "yellow")
/// file.text                       // "[color]\noverdue = red\ntoday = yellow\n"
/// ```
struct ConfigFile: Sendable {
  /// One line, as read (the text is kept so that an edit rewrites only the line it changes).
  enum Line: Sendable, Equatable {
    /// A blank or comment line.
    case other(String)
    case section(name: String, text: String)
    /// `name` is the key as written under its section; `key` the full key.
    case entry(key: String, name: String, value: String, text: String)
  }

  struct Entry: Sendable, Equatable {
    var key: String
    var value: String
    var line: Int
  }

  let path: String
  private(set) var lines: [Line]

  /// An empty file (none on disk yet).
  init(path: String) {
    self.path = path
    lines = []
  }

  init(text: String, path: String) throws(ConfigFileError) {
    self.path = path
    lines = []
    var section: String?
    var seen: [String: Int] = [:]
    // "\r\n" is one Character: split on both, and drop a byte-order mark.
    var body = Substring(text)
    if body.first == "\u{FEFF}" { body.removeFirst() }
    var rawLines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    if rawLines.last == "" { rawLines.removeLast() }
    for (index, raw) in rawLines.enumerated() {
      let number = index + 1
      var line = String(raw)
      if line.hasSuffix("\r") { line.removeLast() }
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") {
        lines.append(.other(line))
        continue
      }
      if trimmed.hasPrefix("[") {
        guard trimmed.hasSuffix("]"), trimmed.count > 2 else {
          throw ConfigFileError(path: path, line: number, reason: "a section header is written [name]")
        }
        let name = String(trimmed.dropFirst().dropLast()).trimmingWhitespace()
        guard Self.isKeyName(name) else {
          throw ConfigFileError(
            path: path, line: number, reason: "'\(name)' is not a section name (letters, digits, '.', '_' and '-')")
        }
        section = name
        lines.append(.section(name: name, text: line))
        continue
      }
      guard let equals = trimmed.firstIndex(of: "=") else {
        throw ConfigFileError(
          path: path, line: number, reason: "expected 'key = value', '[section]' or a '#' comment, not '\(trimmed)'")
      }
      let name = String(trimmed[..<equals]).trimmingWhitespace()
      guard Self.isKeyName(name) else {
        throw ConfigFileError(
          path: path, line: number, reason: "'\(name)' is not a key name (letters, digits, '.', '_' and '-')")
      }
      let key = section.map { "\($0).\(name)" } ?? name
      let value: String
      do throws(ConfigFileError) {
        value = try Self.unquoted(String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace())
      } catch {
        throw ConfigFileError(path: path, line: number, key: key, reason: error.reason)
      }
      if let first = seen[key] {
        throw ConfigFileError(path: path, line: number, key: key, reason: "it is already set on line \(first)")
      }
      seen[key] = number
      lines.append(.entry(key: key, name: name, value: value, text: line))
    }
  }

  /// Every key the file sets, in file order.
  var entries: [Entry] {
    lines.enumerated().compactMap { index, line in
      if case .entry(let key, _, let value, _) = line { return Entry(key: key, value: value, line: index + 1) }
      return nil
    }
  }

  /// The file's text, every line as it was except those `set` and `unset` changed.
  var text: String {
    var text = ""
    for line in lines {
      switch line {
      case .other(let line), .section(_, let line), .entry(_, _, _, let line): text += line + "\n"
      }
    }
    return text
  }

  /// Sets `key` to `value`: on its own line when the file has one, else under the section the
  /// key belongs to (`[report.next]` for `report.next.limit`, the nearest enclosing section that
  /// exists, else a new one at the end), or among the keys before the first section for a key
  /// without a dot.
  mutating func set(_ key: String, _ value: String) {
    let written = Self.quotedIfNeeded(value)
    if let index = lines.firstIndex(where: { if case .entry(key, _, _, _) = $0 { true } else { false } }) {
      guard case .entry(_, let name, _, let text) = lines[index] else { return }
      let indent = String(text.prefix { $0 == " " || $0 == "\t" })
      lines[index] = .entry(key: key, name: name, value: value, text: "\(indent)\(name) = \(written)")
      return
    }
    // The longest section that encloses the key.
    var best: (index: Int, name: String)?
    for (index, line) in lines.enumerated() {
      if case .section(let name, _) = line, key.hasPrefix(name + "."), name.count > (best?.name.count ?? 0) {
        best = (index, name)
      }
    }
    if let best {
      let name = String(key.dropFirst(best.name.count + 1))
      // After the section's last entry (its trailing comments and blank lines stay below).
      var insertAt = best.index + 1
      var index = best.index + 1
      while index < lines.count {
        if case .section = lines[index] { break }
        if case .entry = lines[index] { insertAt = index + 1 }
        index += 1
      }
      lines.insert(.entry(key: key, name: name, value: value, text: "\(name) = \(written)"), at: insertAt)
      return
    }
    // Families of keys go in sections (`[color]`, `[report.next]`); the others stand alone
    // before the first section (`week.start = sunday`), however many dots they have.
    let family = key.split(separator: ".").first.map(String.init) ?? ""
    guard Self.sectionFamilies.contains(family), let dot = key.lastIndex(of: ".") else {
      // A top-level key: after the last one, or before the first section.
      let firstSection = lines.firstIndex { if case .section = $0 { true } else { false } } ?? lines.count
      var insertAt = 0
      for index in 0..<firstSection { if case .entry = lines[index] { insertAt = index + 1 } }
      if insertAt == 0 {
        // After the comments that open the file, when a blank line ends them.
        insertAt = lines[..<firstSection].firstIndex(of: .other("")) ?? firstSection
        if insertAt == firstSection && firstSection < lines.count {
          lines.insert(.other(""), at: firstSection)
        }
      }
      lines.insert(.entry(key: key, name: key, value: value, text: "\(key) = \(written)"), at: insertAt)
      return
    }
    let section = String(key[..<dot])
    let name = String(key[key.index(after: dot)...])
    if let last = lines.last, last != .other("") { lines.append(.other("")) }
    lines.append(.section(name: section, text: "[\(section)]"))
    lines.append(.entry(key: key, name: name, value: value, text: "\(name) = \(written)"))
  }

  /// Removes `key`'s line; a section left with neither keys nor comments goes too. Returns
  /// whether the file set the key.
  @discardableResult
  mutating func unset(_ key: String) -> Bool {
    guard let index = lines.firstIndex(where: { if case .entry(key, _, _, _) = $0 { true } else { false } }) else {
      return false
    }
    lines.remove(at: index)
    // A top-level key that was alone before the first section: its separating blank line goes.
    if index == 0, lines.first == .other("") { lines.removeFirst() }
    // The section header above, when nothing but blank lines is left under it.
    var header = index - 1
    while header >= 0, lines[header] == .other("") { header -= 1 }
    guard header >= 0, case .section = lines[header] else { return true }
    var end = header + 1
    while end < lines.count {
      if case .section = lines[end] { break }
      guard lines[end] == .other("") else { return true }
      end += 1
    }
    lines.removeSubrange(header..<end)
    // One blank line between what was above and what follows; none at the end.
    if header == lines.count {
      if header > 0 && lines[header - 1] == .other("") { lines.remove(at: header - 1) }
    } else if header > 0 && lines[header - 1] != .other("") {
      lines.insert(.other(""), at: header)
    }
    return true
  }

  /// The first words of the keys `set` writes under a section.
  static let sectionFamilies: Set<String> = ["color", "urgency", "context", "report"]

  /// Letters, digits, `.`, `_` and `-`; not starting or ending with a dot.
  static func isKeyName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix(".") && !name.contains("..")
      && name.unicodeScalars.allSatisfy { scalar in
        (scalar.value < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
          || scalar == "." || scalar == "_" || scalar == "-"
      }
  }

  /// The value as written: `"…"` loses its quotes and escapes.
  private static func unquoted(_ text: String) throws(ConfigFileError) -> String {
    guard text.hasPrefix("\"") else { return text }
    var value = ""
    var escaped = false
    var closed = false
    for character in text.dropFirst() {
      if closed { throw ConfigFileError(path: "", reason: "text after the closing quote") }
      if escaped {
        guard character == "\"" || character == "\\" else {
          throw ConfigFileError(path: "", reason: "'\\\(character)' inside quotes: only \\\" and \\\\ are escapes")
        }
        value.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        closed = true
      } else {
        value.append(character)
      }
    }
    guard closed else { throw ConfigFileError(path: "", reason: "the quote is not closed") }
    return value
  }

  /// The value as it is written in the file: quoted when it has white space at an end or starts
  /// with a quote (so that reading it back gives it unchanged), else as it is.
  static func quotedIfNeeded(_ value: String) -> String {
    let needsQuotes =
      value.hasPrefix("\"") || value.first?.isWhitespace == true || value.last?.isWhitespace == true
    guard needsQuotes else { return value }
    var text = "\""
    for character in value {
      if character == "\"" || character == "\\" { text.append("\\") }
      text.append(character)
    }
    return text + "\""
  }
}
