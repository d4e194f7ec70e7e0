import TodoCore

/// Finds the attribute or filter key a mistyped `key:value` word most likely meant, for a
/// warning: the word itself keeps its meaning (title text or a search word), since guessing
/// would silently change what was typed.
///
/// ```swift
/// KeySuggestion.forWord("proj:x", includeBareWords: false)    // "project:x"
/// KeySuggestion.forWord("p:H", includeBareWords: false)       // "pri:H"
/// KeySuggestion.forWord("overdu", includeBareWords: true)     // "overdue"
/// KeySuggestion.forWord("re:", includeBareWords: false)       // nil
/// ```
enum KeySuggestion {
  /// The keys of `key:value` words, longest spelling first where two mean the same.
  static let keys = [
    "project", "priority", "pri", "status", "due", "due.by", "due.before", "due.after", "wait", "scheduled", "until",
    "title.has",
  ]
  /// Filter words without a value.
  static let bareWords = ["overdue"]

  /// The corrected word, or nil when the word is not close to any key.
  static func forWord(_ word: String, includeBareWords: Bool) -> String? {
    guard let colon = word.firstIndex(of: ":") else {
      guard includeBareWords, word.count >= 5 else { return nil }
      let lowered = word.lowercased()
      return bareWords.first { $0 != lowered && optimalStringAlignmentDistance(Array(lowered), Array($0)) <= 2 }
    }
    let key = word[..<colon].lowercased()
    let value = String(word[word.index(after: colon)...])
    // `re: rent`, URLs and times (`10:30`) are text, not keys.
    guard !key.isEmpty, !keys.contains(key), !value.hasPrefix("/"),
      key.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == ".") })
    else { return nil }
    let candidates = keys.filter { candidate in
      candidate.hasPrefix(key) || optimalStringAlignmentDistance(Array(key), Array(candidate)) <= max(1, key.count / 3)
    }
    guard !candidates.isEmpty else { return nil }
    // Several keys fit the letters (`p:` is pri or project): the value decides.
    let fitting = candidates.filter { fits(value, key: $0) }
    let chosen = (fitting.isEmpty ? candidates : fitting)
    // pri and priority are the same attribute: prefer the short spelling users type.
    let best = chosen.contains("pri") ? "pri" : chosen[0]
    return best + ":" + value
  }

  /// Whether `value` reads as a value of `key`.
  private static func fits(_ value: String, key: String) -> Bool {
    switch key {
    case "pri", "priority": Priority(parsing: value) != nil
    case "status": StatusFilter(rawValue: value.lowercased()) != nil
    case "project": (try? Validation.project(value)) != nil && Priority(parsing: value) == nil
    default: true
    }
  }
}
