// Terminal column widths of text, so tables line up with CJK, emoji and combining marks.
//
// The model follows `wcwidth(3)` per Unicode scalar, refined per grapheme cluster (what a
// terminal draws as one glyph): a cluster containing an emoji-presentation scalar, or an emoji
// followed by VS16 (U+FE0F), is 2 columns (flags, ZWJ families, skin tones, keycaps); other
// clusters add up their scalars, where East Asian Wide/Fullwidth is 2, combining marks, format
// characters (ZWJ, variation selectors) and Hangul medial/final jamo are 0, and the rest is 1.
// Control characters count as the escape `sanitizedForTerminal` shows instead of them.

/// The number of terminal columns `text` occupies once passed through `sanitizedForTerminal`.
///
/// ```swift
/// displayWidth(of: "日本")  // 4
/// displayWidth(of: "🇫🇷")   // 2
/// ```
public func displayWidth(of text: String) -> Int {
  if isPrintableASCII(text) { return text.utf8.count }
  // Outside emoji, a cluster is as wide as the sum of its scalars, so grapheme breaking is only
  // needed once an emoji shows up; none is below U+2000.
  var width = 0
  for scalar in text.unicodeScalars {
    if scalar.value >= 0x2000 && (scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation) {
      return clusterWidths(of: text, upTo: Int.max).width
    }
    width += isTerminalControl(scalar) ? escapedControl(scalar).utf8.count : scalarWidth(scalar)
  }
  return width
}

/// The number of terminal columns one grapheme cluster occupies.
public func displayWidth(of character: Character) -> Int {
  clusterWidth(of: character.unicodeScalars)
}

/// Cuts `text` to at most `width` columns, ending with `…` when anything was removed.
///
/// Whole grapheme clusters only, so a wide character that would straddle the limit is left out
/// (the result may then be one column narrower). Spaces before the ellipsis are dropped so the
/// cut reads as `"Pay the…"`, not `"Pay the …"`.
///
/// ```swift
/// truncated("Buy milk and eggs", toWidth: 8)  // "Buy mil…"
/// ```
public func truncated(_ text: String, toWidth width: Int) -> String {
  guard width > 0 else { return "" }
  if displayWidth(of: text) <= width { return text }
  let budget = width - 1  // the ellipsis takes one column
  var kept: Substring
  if isPrintableASCII(text) {
    kept = text[..<text.utf8.index(text.startIndex, offsetBy: budget)]
  } else {
    kept = text[..<clusterWidths(of: text, upTo: budget).end]
  }
  while kept.last == " " { kept.removeLast() }
  return String(kept) + "…"
}

/// Cuts `text` to at most `width` columns from the middle, keeping its start and its last part:
/// a hierarchical project keeps what tells it apart from its siblings (`pers…health`, not
/// `personal…`). The last part (after the last `.`) is kept whole while it leaves room for at
/// least two characters of the start; otherwise the start and the end share the width.
///
/// ```swift
/// truncatedInTheMiddle("personal.health", toWidth: 11)  // "pers…health"
/// ```
public func truncatedInTheMiddle(_ text: String, toWidth width: Int) -> String {
  guard width > 0 else { return "" }
  if displayWidth(of: text) <= width { return text }
  guard width >= 4 else { return truncated(text, toWidth: width) }
  let characters = Array(text)
  let widths = characters.map { displayWidth(of: String($0)) }
  let budget = width - 1
  let lastPart = text.lastIndex(of: ".").map { text.distance(from: text.index(after: $0), to: text.endIndex) } ?? 0
  let lastPartWidth = widths.suffix(lastPart).reduce(0, +)
  let tailBudget = lastPart > 0 && lastPartWidth <= budget - 2 ? lastPartWidth : budget / 2
  var tail = 0
  var tailWidth = 0
  while tail < characters.count, tailWidth + widths[characters.count - 1 - tail] <= tailBudget {
    tailWidth += widths[characters.count - 1 - tail]
    tail += 1
  }
  var head = 0
  var headWidth = 0
  while head < characters.count - tail, headWidth + widths[head] <= budget - tailWidth {
    headWidth += widths[head]
    head += 1
  }
  return String(characters[..<head]) + "…" + String(characters[(characters.count - tail)...])
}

/// Words (a task's tags) cut to a width without cutting one: those that fit, then how many are
/// left out (`errand home +2`), so that no two cells are cut to the same prefix; when not even
/// the first fits beside the count, it is cut in the middle (`gro…ies +1`).
///
/// ```swift
/// truncatedByWords("errand home urgent work", toWidth: 14)  // "errand home +2"
/// ```
public func truncatedByWords(_ text: String, toWidth width: Int) -> String {
  guard width > 0 else { return "" }
  if displayWidth(of: text) <= width { return text }
  let words = text.split(separator: " ").map(String.init)
  var kept: [String] = []
  var used = 0
  for (index, word) in words.enumerated() {
    let rest = words.count - index - 1
    let wordWidth = displayWidth(of: word) + (kept.isEmpty ? 0 : 1)
    let countWidth = rest > 0 ? 2 + String(rest).count : 0
    guard used + wordWidth + countWidth <= width else { break }
    kept.append(word)
    used += wordWidth
  }
  let left = words.count - kept.count
  if kept.isEmpty, let first = words.first {
    let count = left > 1 ? " +\(left - 1)" : ""
    guard width - count.count >= 4 else { return truncatedInTheMiddle(text, toWidth: width) }
    return truncatedInTheMiddle(first, toWidth: width - count.count) + count
  }
  return kept.joined(separator: " ") + (left > 0 ? " +\(left)" : "")
}

/// Renders control characters visibly so a title can neither break a table nor inject escapes.
///
/// Newline, tab and carriage return become `\n`, `\t`, `\r`; every other C0 control, DEL and C1
/// control becomes `\u{XX}` (e.g. ESC is `\u{1B}`). Backslashes are left alone: the point is
/// terminal safety, not a reversible encoding.
///
/// ```swift
/// sanitizedForTerminal("a\u{1B}[31mb\n")  // #"a\u{1B}[31mb\n"#
/// ```
public func sanitizedForTerminal(_ text: String) -> String {
  // C1 controls are U+0080–U+009F, encoded as 0xC2 0x80–0x9F, the line separators, the
  // directional marks and bidirectional overrides start with 0xE2, and the Arabic letter mark
  // with 0xD8: those bytes send us the slow way.
  var bytes = text
  let mayHoldControls = bytes.withUTF8 { utf8 in
    utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 || $0 == 0xD8 }
  }
  guard mayHoldControls else { return text }
  var result = ""
  result.reserveCapacity(text.utf8.count + 8)
  for scalar in text.unicodeScalars {
    if isTerminalControl(scalar) {
      result += escapedControl(scalar)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

// MARK: - Scalars

/// Whether a terminal would interpret `scalar` instead of drawing it: C0, DEL and C1, the line
/// and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates
/// (which could make a title display as something else).
public func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  return value < 0x20 || (0x7F...0x9F).contains(value) || (0x2028...0x202E).contains(value)
    || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
}

/// `sanitizedForTerminal` line by line: a message of several lines (vdirsyncer's output) keeps
/// its line breaks, each line made safe, instead of showing them as `\n`. Every line after the
/// first starts with white space (two spaces are put before one that does not), so that text in
/// a message (a title holding a newline) can never pass for a line of todo's own (`todo: hint:`).
public func sanitizedLinesForTerminal(_ text: String) -> String {
  guard text.utf8.contains(UInt8(ascii: "\n")) else { return sanitizedForTerminal(text) }
  return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
    let safe = sanitizedForTerminal(String(line.hasSuffix("\r") ? line.dropLast() : line))
    return index == 0 || safe.isEmpty || safe.hasPrefix(" ") || safe.hasPrefix("\t") ? safe : "  " + safe
  }.joined(separator: "\n")
}

/// The visible stand-in for a control character.
private func escapedControl(_ scalar: Unicode.Scalar) -> String {
  switch scalar.value {
  case 0x0A: return #"\n"#
  case 0x09: return #"\t"#
  case 0x0D: return #"\r"#
  default:
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return #"\u{"# + (hex.count < 2 ? "0" + hex : hex) + "}"
  }
}

/// Walks the grapheme clusters of `text` while their total width stays within `limit`.
///
/// Returns that total and where the last whole cluster that fits ends. Works on index ranges
/// rather than `Character` values, which would be copied out one by one.
private func clusterWidths(of text: String, upTo limit: Int) -> (width: Int, end: String.Index) {
  var width = 0
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(after: index)
    let byte = text.utf8[index]
    let isPlainASCII = byte >= 0x20 && byte < 0x7F && text.utf8.index(after: index) == next
    let characterWidth = isPlainASCII ? 1 : clusterWidth(of: text.unicodeScalars[index..<next])
    if width + characterWidth > limit { break }
    width += characterWidth
    index = next
  }
  return (width, index)
}

/// The width of one grapheme cluster given as its scalars.
private func clusterWidth(of scalars: some Collection<Unicode.Scalar>) -> Int {
  guard let first = scalars.first else { return 0 }
  if isTerminalControl(first) {
    return scalars.reduce(0) { $0 + (isTerminalControl($1) ? escapedControl($1).utf8.count : scalarWidth($1)) }
  }
  var width = 0
  for scalar in scalars {
    if scalar.properties.isEmojiPresentation { return 2 }
    if scalar.value == 0xFE0F && first.properties.isEmoji { return 2 }
    width += scalarWidth(scalar)
  }
  return width
}

/// Whether every byte of `text` is printable ASCII, where width is simply the byte count.
/// Whether every byte is printable ASCII (0x20–0x7E): then a string is as wide as it is long
/// and needs no escaping. One tight loop over the bytes: this runs for every cell of a list.
public func isPrintableASCII(_ text: String) -> Bool {
  let answer = text.utf8.withContiguousStorageIfAvailable(isPrintableASCII(bytes:))
  if let answer { return answer }
  var text = text
  return text.withUTF8(isPrintableASCII(bytes:))
}

/// Eight bytes at a time: a word has a byte below 0x20 when subtracting 0x20 from every byte
/// borrows into a byte whose top bit was clear, and one at 0x7F or above when adding 1 sets a
/// top bit (or it was set already). Either test is exact about whether such a byte exists.
private func isPrintableASCII(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  let count = bytes.count
  var index = 0
  let high: UInt64 = 0x8080_8080_8080_8080
  while index + 8 <= count {
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    if ((word &- 0x2020_2020_2020_2020) & ~word & high) != 0 || ((word &+ 0x0101_0101_0101_0101) | word) & high != 0 {
      return false
    }
    index += 8
  }
  while index < count {
    let byte = base[index]
    if byte < 0x20 || byte >= 0x7F { return false }
    index += 1
  }
  return true
}

/// A cell's text made safe for the terminal, and its width: the two things a table needs of
/// every cell, in one pass for the usual printable ASCII.
public func terminalTextAndWidth(_ text: String) -> (text: String, width: Int) {
  if isPrintableASCII(text) { return (text, text.utf8.count) }
  let safe = sanitizedForTerminal(text)
  return (safe, displayWidth(of: safe))
}

/// The `wcwidth`-style width of one non-control scalar.
private func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
  let value = scalar.value
  if value < 0x7F { return value < 0x20 ? 0 : 1 }
  switch scalar.properties.generalCategory {
  case .nonspacingMark, .enclosingMark, .format: return 0
  default: break
  }
  if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
  return isEastAsianWide(value) ? 2 : 1
}

/// Whether `value` is East Asian Wide or Fullwidth (emoji are handled by the caller).
private func isEastAsianWide(_ value: UInt32) -> Bool {
  guard value >= 0x1100 else { return false }
  var low = 0
  var high = eastAsianWideRanges.count - 1
  while low <= high {
    let middle = (low + high) / 2
    let range = eastAsianWideRanges[middle]
    if value < range.lowerBound {
      high = middle - 1
    } else if value > range.upperBound {
      low = middle + 1
    } else {
      return true
    }
  }
  return false
}

/// East Asian Wide (W) and Fullwidth (F) blocks of UAX #11, sorted, excluding emoji (which the
/// emoji-presentation property covers) and with unassigned gaps inside blocks folded in.
private let eastAsianWideRanges: [ClosedRange<UInt32>] = [
  0x1100...0x115F,  // Hangul Jamo initial consonants
  0x2329...0x232A,  // angle brackets
  0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols & punctuation
  0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, compat
  0x3400...0x4DBF,  // CJK extension A
  0x4E00...0x9FFF,  // CJK unified ideographs
  0xA000...0xA4CF,  // Yi
  0xA960...0xA97F,  // Hangul Jamo extended A
  0xAC00...0xD7A3,  // Hangul syllables
  0xF900...0xFAFF,  // CJK compatibility ideographs
  0xFE10...0xFE19,  // vertical forms
  0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
  0xFF00...0xFF60,  // fullwidth forms
  0xFFE0...0xFFE6,  // fullwidth signs
  0x16FE0...0x16FE4,  // ideographic symbols
  0x16FF0...0x16FF1,
  0x17000...0x18CFF,  // Tangut, Khitan
  0x18D00...0x18D08,
  0x1AFF0...0x1B2FF,  // kana supplements, Nushu
  0x1F200...0x1F265,  // enclosed ideographic supplement
  0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
  0x30000...0x3FFFD,  // CJK extensions G–H
]
