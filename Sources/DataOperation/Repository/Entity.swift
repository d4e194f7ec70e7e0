import CSQLite

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

/// One column an entity writes: its name and value.
public struct Column: Sendable {
  /// The column's name, as the table names it.
  public var name: String
  /// The value to write.
  public var value: SQLValue
}

/// The column values an entity writes, in the order it writes them.
///
/// ```swift
/// columns["title"] = "Dune"
/// columns["due"] = Optional<Int64>.none
/// ```
///
/// The repository's usual insert and update bind each value straight into the prepared
/// statement as the entity sets it: nothing is collected and no array is made. Otherwise (a
/// diff, or an entity that writes other columns than usual, or reads one back) the values are
/// collected in `values`.
public struct Columns {
  /// The column names and values, in insertion order (empty while binding).
  public private(set) var values: [Column] = []
  /// The names an entity of the type is known to write, in order (the repository's columns),
  /// and whether the entity still follows them: then a name that matches the next expected one
  /// is taken without searching the earlier ones (the same literal, so one pointer compare), and
  /// the repository uses its prepared statements without comparing every name.
  private let expected: [String]
  private var followsExpected = true
  /// How many of the expected columns were set.
  private var written = 0
  /// While binding: the statement's handle (its parameters are the expected columns, in order;
  /// the statement outlives the columns), and SQLite's code for the first value that could not
  /// be bound, thrown once the entity has written its columns. Plain values, so that setting a
  /// column retains nothing and copies no error.
  private let statement: OpaquePointer?
  private let textSlots: TextSlots?
  private(set) var bindingFailure = SQLITE_OK

  /// An empty set of columns.
  public init() {
    expected = []
    statement = nil
    textSlots = nil
  }

  /// An empty set of columns with room for `capacity` of them.
  public init(capacity: Int) {
    self.init()
    values.reserveCapacity(capacity)
  }

  /// An empty set of columns that expects `names` in this order (each at most once).
  init(expecting names: [String]) {
    expected = names
    statement = nil
    textSlots = nil
    values.reserveCapacity(names.count)
  }

  /// Columns bound into `statement`, whose first parameters are `names` in this order.
  init(binding statement: Statement, expecting names: [String]) {
    expected = names
    self.statement = statement.handle
    textSlots = statement.textSlots
  }

  /// True when exactly the expected names were written, in order (each once).
  var isExpectedShape: Bool { followsExpected && written == expected.count }

  /// Sets a column's value (replacing an earlier one of the same name); reads it back typed.
  /// Generic rather than `any SQLValueConvertible`, so that encoding a row boxes nothing.
  public subscript<Value: SQLValueConvertible>(name: String) -> Value? {
    mutating get {
      // While binding nothing was kept to read back: give up binding, so that the repository
      // encodes the entity again, collecting, where this read sees what was set.
      if statement != nil { followsExpected = false }
      return values.first { $0.name == name }.flatMap { Value(sqlValue: $0.value) }
    }
    set {
      // While the columns so far are a prefix of the (distinct) expected names, the next
      // expected name cannot be among them.
      let isNextExpected = followsExpected && written < expected.count && expected[written] == name
      if let statement {
        // Binding: any other shape is left to the caller, who encodes again and collects.
        guard isNextExpected else {
          followsExpected = false
          return
        }
        written += 1
        guard bindingFailure == SQLITE_OK else { return }
        // Text and integers are bound as they are, without wrapping them in an SQLValue first
        // (the casts are resolved when the setter is specialised for the column's type).
        let index = Int32(written)
        switch newValue {
        case nil: bindingFailure = sqlite3_bind_null(statement, index)
        case let text as String: bindingFailure = bindText(text, at: index, to: statement, slots: textSlots)
        case let integer as Int64: bindingFailure = sqlite3_bind_int64(statement, index, integer)
        case let value?: bindingFailure = bindValue(value.sqlValue, at: index, to: statement, slots: textSlots)
        }
        return
      }
      let value = newValue?.sqlValue ?? .null
      if isNextExpected {
        written += 1
        values.append(Column(name: name, value: value))
      } else if let index = values.firstIndex(where: { $0.name == name }) {
        values[index].value = value
      } else {
        followsExpected = false
        values.append(Column(name: name, value: value))
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
