/// One word of the command line, remembering where it stood (for error messages).
struct Token: Equatable, Sendable {
  /// The word exactly as given.
  var text: String
  /// Its position among the arguments, counting from 1 (the word after `todo`).
  var position: Int

  /// Splits arguments into tokens; `--name=value` stays one token, split by the parser.
  static func tokenize(_ arguments: [String]) -> [Token] {
    arguments.enumerated().map { Token(text: $0.element, position: $0.offset + 1) }
  }
}
