import DataOperation
import Glibc

/// A POSIX extended regular expression (`/fo+/` in a filter), as Taskwarrior's filters read
/// them: matched against titles and notes by the SQL function `todo_regexp(text, pattern,
/// case-insensitive)`, each pattern compiled once per connection.
///
/// ```swift
/// try RegularExpression.check("^Pay .*rent$")   // nil: it compiles
/// ```
public enum RegularExpression {
  static let functionName = "todo_regexp"

  /// UTF-8 characters for the expressions: `.` is one character (not one byte), `[:alnum:]`
  /// holds é, and case is ignored beyond ASCII. Set per thread around each call (`uselocale`),
  /// never for the whole process; nil where the C library has no C.UTF-8 (then bytes).
  nonisolated(unsafe) private static let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

  /// Runs `body` with the UTF-8 locale as this thread's.
  static func inUTF8<Result>(_ body: () -> Result) -> Result {
    guard let locale = utf8Locale else { return body() }
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    return body()
  }

  /// Why the pattern does not compile (regerror's words); nil when it does.
  public static func check(_ pattern: String, ignoringCase: Bool = false) -> String? {
    inUTF8 { compileProblem(pattern, ignoringCase: ignoringCase) }
  }

  private static func compileProblem(_ pattern: String, ignoringCase: Bool) -> String? {
    var expression = regex_t()
    let code = regcomp(&expression, pattern, flags(ignoringCase))
    defer { if code == 0 { regfree(&expression) } }
    guard code != 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: 256)
    regerror(code, &expression, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func flags(_ ignoringCase: Bool) -> Int32 {
    REG_EXTENDED | REG_NOSUB | (ignoringCase ? REG_ICASE : 0)
  }

  /// The compiled patterns of one connection.
  private final class Cache {
    var compiled: [String: UnsafeMutablePointer<regex_t>] = [:]

    func expression(_ pattern: String, ignoringCase: Bool) -> UnsafeMutablePointer<regex_t>? {
      let key = (ignoringCase ? "i" : "c") + pattern
      if let expression = compiled[key] { return expression }
      // At most a few patterns per command; a long-lived shell keeps the last 64.
      if compiled.count >= 64 { clear() }
      let expression = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
      guard regcomp(expression, pattern, RegularExpression.flags(ignoringCase)) == 0 else {
        expression.deallocate()
        return nil
      }
      compiled[key] = expression
      return expression
    }

    func clear() {
      for expression in compiled.values {
        regfree(expression)
        expression.deallocate()
      }
      compiled = [:]
    }

    deinit { clear() }
  }

  /// Defines `todo_regexp(text, pattern, ignoring case)` on a connection: 1 when the text
  /// matches, 0 when not (or the pattern does not compile, which the filter parser refuses
  /// first), NULL for a NULL text.
  static let define = DataOperation<Void, DatabaseError> { connection throws(DatabaseError) in
    let cache = Cache()
    try connection.defineFunction(functionName, argumentCount: 3) { arguments in
      guard case .text(let text) = arguments[0], case .text(let pattern) = arguments[1] else { return .null }
      let ignoringCase = arguments[2] == .integer(1)
      return inUTF8 {
        guard let expression = cache.expression(pattern, ignoringCase: ignoringCase) else { return .integer(0) }
        return .integer(regexec(expression, text, 0, nil, 0) == 0 ? 1 : 0)
      }
    }
  }
}
