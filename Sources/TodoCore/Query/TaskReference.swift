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
  ///
  /// Ids have at most 7 digits and no leading zero; a longer run of digits, or one with a
  /// leading zero, is the start of a UUID (`00000003` is a UUID prefix, not task 3).
  public init?(parsing word: String) {
    if let id = Self.id(word) {
      self = .id(id)
    } else if let dash = word.firstIndex(of: "-"), dash != word.startIndex,
      let low = Self.id(String(word[..<dash])), let high = Self.id(String(word[word.index(after: dash)...]))
    {
      self = .range(min(low, high), max(low, high))
    } else if Self.isUUIDPrefix(word) {
      self = .uuidPrefix(word.lowercased())
    } else {
      return nil
    }
  }

  /// The longest id the grammar reads: 7 digits (ten million tasks).
  static let maximumIDDigits = 7

  private static func id(_ text: String) -> Int64? {
    guard !text.isEmpty, text.count <= maximumIDDigits, text.first != "0",
      text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(text)
    else { return nil }
    return value
  }

  /// 8 to 36 characters in the shape of a UUID (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`).
  private static func isUUIDPrefix(_ word: String) -> Bool {
    guard word.count >= 8, word.count <= 36 else { return false }
    for (offset, character) in word.enumerated() {
      let isDash = offset == 8 || offset == 13 || offset == 18 || offset == 23
      guard isDash ? character == "-" : (character.isASCII && character.isHexDigit) else { return false }
    }
    return true
  }

  /// True for a word of 1 to 7 hex digits that is not an id (`abc1234`, `0042`): most likely a
  /// UUID prefix cut too short.
  public static func isShortUUIDPrefix(_ word: String) -> Bool {
    !word.isEmpty && word.count < 8 && word.allSatisfy { $0.isASCII && $0.isHexDigit } && id(word) == nil
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
}

extension TaskReference {
  /// `3-7`: several tasks.
  public var isRange: Bool {
    if case .range = self { return true }
    return false
  }
}
