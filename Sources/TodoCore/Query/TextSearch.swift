import DataOperation

/// Search words match titles and notes the way people read text: without regard to case, in
/// any script (`CAFÉ` finds "Café", `ΣΟΦΙΑ` finds "σοφια"), and whatever Unicode form the text
/// was typed in (`cafe` + U+0301 finds "café"). SQLite's LIKE folds ASCII letters only, so the
/// comparison is an SQL function written in Swift: `todo_contains(text, folded word)`.
///
/// ```swift
/// TextSearch.contains("Café au lait", folded: TextSearch.folded("CAFÉ"))  // true
/// ```
public enum TextSearch {
  /// The SQL function's name.
  static let functionName = "todo_contains"

  /// Text as it is compared: lower-cased in every script, then folded where lower case still
  /// keeps two forms apart: Greek final sigma (ς) is σ, German ß is ss, and the dot that
  /// lower-casing the Turkish İ leaves (i + U+0307) is dropped, so `istanbul` finds "İstanbul".
  public static func folded(_ text: String) -> String {
    let lowered = text.lowercased()
    guard lowered.unicodeScalars.contains(where: { $0 == "ς" || $0 == "ß" || $0 == "\u{307}" }) else { return lowered }
    var result = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in lowered.unicodeScalars {
      switch scalar {
      case "ς": result.append("σ")
      case "ß": result.append(contentsOf: "ss".unicodeScalars)
      case "\u{307}" where previous == "i": break
      default: result.append(scalar)
      }
      previous = scalar
    }
    return String(result)
  }

  /// Whether `text` contains the already folded `word`, comparing characters by canonical
  /// equivalence (a precomposed é equals e + U+0301).
  public static func contains(_ text: String, folded word: String) -> Bool {
    folded(text).contains(word)
  }

  /// Defines `todo_contains(text, word)` on a connection: 1 when it matches, 0 when not, NULL
  /// for a NULL text.
  static let define = DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
    try connection.defineFunction(functionName, argumentCount: 2) { arguments in
      guard case .text(let text) = arguments[0], case .text(let word) = arguments[1] else { return .null }
      return .integer(contains(text, folded: word) ? 1 : 0)
    }
  }
}
