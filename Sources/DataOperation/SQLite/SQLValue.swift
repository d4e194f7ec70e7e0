/// A value as SQLite stores it: one of its five storage classes.
///
/// ```swift
/// let arguments: [SQLValue] = [.text("home"), .integer(3), .null]
/// ```
public enum SQLValue: Equatable, Hashable, Sendable {
  /// SQL NULL: no value.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE 754 double.
  case real(Double)
  /// UTF-8 text (it may contain NUL characters).
  case text(String)
  /// Raw bytes.
  case blob([UInt8])

  /// The storage class's name, as errors show it.
  public var typeName: String {
    switch self {
    case .null: "NULL"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text: "TEXT"
    case .blob: "BLOB"
    }
  }
}

/// A Swift type that converts to and from an `SQLValue`.
///
/// ```swift
/// extension Priority: SQLValueConvertible { … }
/// try row.decode("priority", as: Priority.self)
/// ```
public protocol SQLValueConvertible: Sendable {
  /// The value to bind.
  var sqlValue: SQLValue { get }
  /// Reads a value back; nil when the stored value has another type.
  init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
  public var sqlValue: SQLValue { self }
  public init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(self) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Int: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(Int64(self)) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue, let int = Int(exactly: value) else { return nil }
    self = int
  }
}

extension Double: SQLValueConvertible {
  public var sqlValue: SQLValue { .real(self) }
  public init?(sqlValue: SQLValue) {
    switch sqlValue {
    case .real(let value): self = value
    case .integer(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Bool: SQLValueConvertible {
  public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
  public init?(sqlValue: SQLValue) {
    guard case .integer(let value) = sqlValue else { return nil }
    self = value != 0
  }
}

extension String: SQLValueConvertible {
  public var sqlValue: SQLValue { .text(self) }
  public init?(sqlValue: SQLValue) {
    guard case .text(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Array: SQLValueConvertible where Element == UInt8 {
  public var sqlValue: SQLValue { .blob(self) }
  public init?(sqlValue: SQLValue) {
    guard case .blob(let value) = sqlValue else { return nil }
    self = value
  }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
  public var sqlValue: SQLValue { self?.sqlValue ?? .null }
  /// `.null` reads as `nil`; any other value must convert to `Wrapped`.
  public init?(sqlValue: SQLValue) {
    if case .null = sqlValue {
      self = .none
    } else if let value = Wrapped(sqlValue: sqlValue) {
      self = .some(value)
    } else {
      return nil
    }
  }
}
