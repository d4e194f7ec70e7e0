/// Why a shell line could not be split into words.
enum WordSplitError: Error, Equatable, Sendable {
  /// A `'` or `"` opened a quote that the line never closes.
  case unterminatedQuote

  /// The text after `todo: error: `.
  var message: String {
    switch self {
    case .unterminatedQuote: "unterminated quote"
    }
  }
}

/// Turns one line typed in the shell into the words of a command line, the way a POSIX shell
/// splits words, without any expansion (no `$`, globs, `~` or history `!`).
///
/// - Words are separated by unquoted spaces, tabs and newlines; other white space (such as
///   U+00A0) is ordinary text. A backslash before a newline joins the lines.
/// - `'…'` keeps everything literally, up to the next `'`.
/// - `"…"` keeps everything literally except that a backslash escapes `"`, `\`, `$` and `` ` ``;
///   before any other character the backslash stays.
/// - Outside quotes a backslash makes the next character literal (`\ ` is a space inside a
///   word). A backslash that ends the line stays a backslash: a shell line cannot continue.
/// - Quotes join the word they touch (`pro"ject:x"` is `project:x`); `''` is an empty word.
///
/// ```swift
/// try WordSplitter.split(#"add "Buy milk" +home -- 're: rent'"#)
/// // ["add", "Buy milk", "+home", "--", "re: rent"]
/// ```
enum WordSplitter {
  /// What scanning a line found, including an unfinished last word (for completion).
  struct Scan: Equatable, Sendable {
    /// The words, with quotes and escapes removed.
    var words: [String]
    /// The raw text of the last word when the line ends inside it (no blank after it);
    /// nil when the line is empty or ends with a blank.
    var trailingRawWord: String?
    /// Whether the line ends inside a quote.
    var endsInsideQuote: Bool
  }

  /// Splits `line` into words.
  ///
  /// - Throws: `WordSplitError.unterminatedQuote` when a quote is left open.
  static func split(_ line: String) throws(WordSplitError) -> [String] {
    let scan = scan(line)
    if scan.endsInsideQuote { throw .unterminatedQuote }
    return scan.words
  }

  /// Splits `line` without failing: an open quote is reported, and the text after it kept.
  static func scan(_ line: String) -> Scan {
    enum Quote { case none, single, double }

    let scalars = Array(line.unicodeScalars)
    var words: [String] = []
    var word = String.UnicodeScalarView()
    var wordStart: Int?
    var quote = Quote.none
    var index = 0

    func finishWord() {
      words.append(String(word))
      word = String.UnicodeScalarView()
      wordStart = nil
    }

    while index < scalars.count {
      let scalar = scalars[index]
      // A backslash before a newline continues the line (a shell's command line, as bash, zsh
      // and fish hand it to completion, can span lines); outside quotes a newline separates.
      if scalar == "\\", quote != .single, index + 1 < scalars.count, scalars[index + 1] == "\n" {
        index += 2
        continue
      }
      if scalar == "\n", quote == .none {
        if wordStart != nil { finishWord() }
        index += 1
        continue
      }
      switch quote {
      case .single:
        if scalar == "'" { quote = .none } else { word.append(scalar) }
      case .double:
        if scalar == "\"" {
          quote = .none
        } else if scalar == "\\", index + 1 < scalars.count,
          ["\"", "\\", "$", "`"].contains(scalars[index + 1])
        {
          index += 1
          word.append(scalars[index])
        } else {
          word.append(scalar)
        }
      case .none:
        if scalar == " " || scalar == "\t" {
          if wordStart != nil { finishWord() }
        } else {
          if wordStart == nil { wordStart = index }
          switch scalar {
          case "'": quote = .single
          case "\"": quote = .double
          case "\\" where index + 1 < scalars.count:
            index += 1
            word.append(scalars[index])
          default:
            word.append(scalar)
          }
        }
      }
      index += 1
    }

    var trailingRawWord: String?
    if let start = wordStart {
      var raw = String.UnicodeScalarView()
      raw.append(contentsOf: scalars[start...])
      trailingRawWord = String(raw)
      finishWord()
    }
    return Scan(words: words, trailingRawWord: trailingRawWord, endsInsideQuote: quote != .none)
  }
}
