extension Array where Element == String {
  /// The strings with `separator` between them: the standard `joined(separator:)`, written as
  /// plain appends. The standard one is generic and not inlined here, so its first call in a
  /// process builds its metadata at run time (about 100k instructions, in every command).
  ///
  /// ```swift
  /// ["a", "b"].joinedText(", ")  // "a, b"
  /// ```
  public func joinedText(_ separator: String) -> String {
    var text = ""
    for (index, element) in enumerated() {
      if index > 0 { text += separator }
      text += element
    }
    return text
  }
}
