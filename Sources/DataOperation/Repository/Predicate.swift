/// A parameterised SQL condition: text with `?` placeholders and the values to bind to them.
///
/// Values always travel as arguments, never inside the SQL text.
///
/// ```swift
/// let recent: Predicate = .column("year", .greaterThan, 1990) && .column("author_id", .equal, 3)
/// ```
public struct Predicate: Sendable, Equatable {
  /// The SQL text of the condition.
  public let sql: String
  /// The values for its `?` placeholders, in order.
  public let arguments: [SQLValue]

  /// A condition from raw SQL and its arguments.
  ///
  /// ```swift
  /// let predicate = Predicate(sql: "title LIKE ? ESCAPE '\\'", arguments: [.text("%milk%")])
  /// ```
  public init(sql: String, arguments: [SQLValue] = []) {
    self.sql = sql
    self.arguments = arguments
  }

  /// A comparison operator for `column(_:_:_:)`.
  public enum Comparison: String, Sendable {
    case equal = "="
    case notEqual = "<>"
    case lessThan = "<"
    case lessThanOrEqual = "<="
    case greaterThan = ">"
    case greaterThanOrEqual = ">="
    case like = "LIKE"
  }

  /// Compares a column with a value (the column name is quoted; the value is bound).
  ///
  /// ```swift
  /// let predicate = Predicate.column("title", .equal, "Dune")
  /// ```
  public static func column(_ name: String, _ comparison: Comparison, _ value: some SQLValueConvertible) -> Predicate {
    Predicate(sql: "\(quoteIdentifier(name)) \(comparison.rawValue) ?", arguments: [value.sqlValue])
  }

  /// True when the column is NULL.
  ///
  /// ```swift
  /// let undated = Predicate.isNull("due")
  /// ```
  public static func isNull(_ name: String) -> Predicate {
    Predicate(sql: "\(quoteIdentifier(name)) IS NULL")
  }

  /// True when the column's value is one of `values`.
  ///
  /// ```swift
  /// let some = Predicate.column("id", in: [1, 4, 7])
  /// ```
  public static func column(_ name: String, in values: [some SQLValueConvertible]) -> Predicate {
    guard !values.isEmpty else { return Predicate(sql: "0") }
    let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
    return Predicate(sql: "\(quoteIdentifier(name)) IN (\(marks))", arguments: values.map(\.sqlValue))
  }

  /// Both conditions.
  public static func && (left: Predicate, right: Predicate) -> Predicate {
    Predicate(sql: "(\(left.sql)) AND (\(right.sql))", arguments: left.arguments + right.arguments)
  }

  /// Either condition.
  public static func || (left: Predicate, right: Predicate) -> Predicate {
    Predicate(sql: "(\(left.sql)) OR (\(right.sql))", arguments: left.arguments + right.arguments)
  }

  /// The negated condition.
  public static prefix func ! (predicate: Predicate) -> Predicate {
    Predicate(sql: "NOT (\(predicate.sql))", arguments: predicate.arguments)
  }

  /// All of the conditions (true when there are none).
  ///
  /// ```swift
  /// let all = Predicate.all([.isNull("due"), .column("year", .lessThan, 2000)])
  /// ```
  public static func all(_ predicates: [Predicate]) -> Predicate {
    joined(predicates[...], "AND", empty: "1")
  }

  /// Any of the conditions (false when there are none).
  ///
  /// ```swift
  /// let any = Predicate.any([.isNull("due"), .column("year", .lessThan, 2000)])
  /// ```
  public static func any(_ predicates: [Predicate]) -> Predicate {
    joined(predicates[...], "OR", empty: "0")
  }

  /// How many conditions one level of `all`/`any` joins before it nests.
  static let joinedPerLevel = 64

  /// The conditions joined by `AND` or `OR` in time linear in their number: up to
  /// `joinedPerLevel` side by side, more as a balanced tree of such runs. SQLite parses `a OR b OR
  /// c` into a tree as deep as the run is long (at most 1,000 deep) and each level of
  /// parentheses costs its parser stack (about 30 levels in all): a balanced tree of runs keeps
  /// both small for tens of thousands of conditions, where `(a) OR (b)` folded one at a time took
  /// quadratic time and overflowed the parser's stack at 80.
  private static func joined(_ predicates: ArraySlice<Predicate>, _ operator: String, empty: String) -> Predicate {
    switch predicates.count {
    case 0: return Predicate(sql: empty)
    case 1: return predicates[predicates.startIndex]
    case ...joinedPerLevel:
      var sql = ""
      var arguments: [SQLValue] = []
      for predicate in predicates {
        sql += sql.isEmpty ? "(" : ") \(`operator`) ("
        sql += predicate.sql
        arguments += predicate.arguments
      }
      return Predicate(sql: sql + ")", arguments: arguments)
    default:
      // Split into up to `joinedPerLevel` parts, each joined the same way.
      let partSize = (predicates.count + joinedPerLevel - 1) / joinedPerLevel
      let parts = stride(from: predicates.startIndex, to: predicates.endIndex, by: partSize).map { start in
        joined(predicates[start..<min(start + partSize, predicates.endIndex)], `operator`, empty: empty)
      }
      return joined(parts[...], `operator`, empty: empty)
    }
  }
}

/// One key of a sort order.
///
/// ```swift
/// let order: [Ordering] = [.ascending("due", nullsLast: true), .descending("id")]
/// ```
public struct Ordering: Sendable, Equatable {
  /// The column (quoted when rendered) or, with `expression`, raw SQL.
  public let sql: String
  /// Ascending or not.
  public let ascending: Bool
  /// Put NULLs after the values whatever the direction.
  public let nullsLast: Bool

  /// Sorts by a column, smallest first.
  public static func ascending(_ column: String, nullsLast: Bool = false) -> Ordering {
    Ordering(sql: quoteIdentifier(column), ascending: true, nullsLast: nullsLast)
  }

  /// Sorts by a column, largest first.
  public static func descending(_ column: String, nullsLast: Bool = false) -> Ordering {
    Ordering(sql: quoteIdentifier(column), ascending: false, nullsLast: nullsLast)
  }

  /// Sorts by an SQL expression written by the program (never by user text).
  public static func expression(_ sql: String, ascending: Bool = true, nullsLast: Bool = false) -> Ordering {
    Ordering(sql: sql, ascending: ascending, nullsLast: nullsLast)
  }

  /// The ORDER BY term.
  public var clause: String {
    "\(sql) \(ascending ? "ASC" : "DESC")\(nullsLast ? " NULLS LAST" : "")"
  }
}
