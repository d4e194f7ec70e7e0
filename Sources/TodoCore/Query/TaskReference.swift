/// One way the user names tasks: an id, a range of ids, or a UUID prefix.
///
/// ```swift
/// TaskReference(parsing: "3-7") == .range(3, 7)
/// TaskReference(parsing: "1c9e44a0") == .uuidPrefix("1c9e44a0")
/// ```
public enum TaskReference: Sendable, Equatable, Hashable {
  case id(Int64)
  case range(Int64, Int64)
  case uuidPrefix(String)

  /// Reads one reference; nil when the word is not one.
  public init?(parsing word: String) {
    if let id = Self.positiveInteger(word) {
      self = .id(id)
    } else if let dash = word.firstIndex(of: "-"), dash != word.startIndex,
      let low = Self.positiveInteger(String(word[..<dash])),
      let high = Self.positiveInteger(String(word[word.index(after: dash)...]))
    {
      self = .range(min(low, high), max(low, high))
    } else if word.count >= 8, word.count <= 36,
      word.allSatisfy({ $0.isHexDigit || $0 == "-" }), word.first?.isHexDigit == true,
      word.contains(where: \.isLetter) || word.count >= 9
    {
      self = .uuidPrefix(word.lowercased())
    } else {
      return nil
    }
  }

  /// Reads a comma-separated list (`1,4,7-9`); nil when any part is not a reference.
  ///
  /// ```swift
  /// TaskReference.list("1,4") == [.id(1), .id(4)]
  /// ```
  public static func list(_ word: String) -> [TaskReference]? {
    let parts = word.split(separator: ",", omittingEmptySubsequences: false)
    guard !parts.isEmpty else { return nil }
    var references: [TaskReference] = []
    for part in parts {
      guard let reference = TaskReference(parsing: String(part)) else { return nil }
      references.append(reference)
    }
    return references
  }

  private static func positiveInteger(_ text: String) -> Int64? {
    guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
      let value = Int64(text), value > 0
    else { return nil }
    return value
  }
}
