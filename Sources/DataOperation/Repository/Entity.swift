/// A type stored as the rows of one table, with an integer primary key that SQLite assigns.
///
/// The table name is derived from the type name (`JournalEntry` → `journal_entry`) unless the type
/// overrides `tableName`.
///
/// ```swift
/// struct Book: Entity {
///   var id: Int64 = 0
///   var title = ""
///   init() {}
///   init(row: Row) throws(DatabaseError) { id = try row.decode("id"); title = try row.decode("title") }
///   func encode(to columns: inout Columns) { columns["title"] = title }
/// }
/// ```
public protocol Entity: Sendable {
  /// The table's name; by default the type name in snake_case.
  static var tableName: String { get }
  /// The primary key column; by default `id`.
  static var primaryKey: String { get }
  /// The primary key's value; 0 until the entity has been added.
  var id: Int64 { get set }
  /// A blank entity, which `Repository.add` hands to its builder closure.
  init()
  /// Decodes an entity from a row of its table.
  /// - Throws: `DatabaseError.decoding` naming the column that could not be read.
  init(row: Row) throws(DatabaseError)
  /// Writes every column except the primary key.
  func encode(to columns: inout Columns)
}

extension Entity {
  /// The type's name in snake_case: `Book` → `book`, `JournalEntry` → `journal_entry`.
  public static var tableName: String { snakeCase("\(Self.self)") }
  /// `id`.
  public static var primaryKey: String { "id" }
}

/// The column values an entity writes, in the order it writes them.
///
/// ```swift
/// columns["title"] = "Dune"
/// columns["due"] = Optional<Int64>.none
/// ```
public struct Columns: Sendable {
  /// The column names and values, in insertion order.
  public private(set) var values: [(name: String, value: SQLValue)] = []

  /// An empty set of columns.
  public init() {}

  /// An empty set of columns with room for `capacity` of them.
  public init(capacity: Int) {
    values.reserveCapacity(capacity)
  }

  /// Sets a column's value (replacing an earlier one of the same name); reads it back typed.
  /// Generic rather than `any SQLValueConvertible`, so that encoding a row boxes nothing.
  public subscript<Value: SQLValueConvertible>(name: String) -> Value? {
    get { values.first { $0.name == name }.flatMap { Value(sqlValue: $0.value) } }
    set {
      let value = newValue?.sqlValue ?? .null
      if let index = values.firstIndex(where: { $0.name == name }) {
        values[index].value = value
      } else {
        values.append((name, value))
      }
    }
  }
}

/// Converts `CamelCase` to `snake_case`.
func snakeCase(_ name: String) -> String {
  var result = ""
  let characters = Array(name)
  for (index, character) in characters.enumerated() {
    if character.isUppercase {
      let previousIsLower = index > 0 && (characters[index - 1].isLowercase || characters[index - 1].isNumber)
      let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
      let previousIsUpper = index > 0 && characters[index - 1].isUppercase
      if index > 0 && (previousIsLower || (previousIsUpper && nextIsLower)) { result += "_" }
      result += character.lowercased()
    } else {
      result.append(character)
    }
  }
  return result
}

/// Quotes an SQL identifier (`"name"`, doubling embedded quotes), so that names are never
/// injected as SQL.
public func quoteIdentifier(_ name: String) -> String {
  // Names almost never hold a quote: skip the (slow, generic) replacement for them.
  guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
  return "\"" + name.replacing("\"", with: "\"\"") + "\""
}
