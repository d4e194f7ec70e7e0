/// Runs two operations, in order, on the same connection in the same run, and pairs their results
/// (like `Swift.zip` for sequences). The first failure stops the rest.
///
/// ```swift
/// let (books, authors) = try zip(Repository<Book>().fetch(), Repository<Author>().fetch()).operate(in: context)
/// ```
public func zip<A, B, Failure: Error>(
  _ first: DataOperation<A, Failure>, _ second: DataOperation<B, Failure>
) -> DataOperation<(A, B), Failure> {
  DataOperation { connection throws(Failure) in
    let a = try first.run(connection)
    let b = try second.run(connection)
    return (a, b)
  }
}

/// Runs three operations, in order, on the same connection and collects their results.
///
/// ```swift
/// let (a, b, c) = try zip(countBooks, countAuthors, countNotes).operate(in: context)
/// ```
public func zip<A, B, C, Failure: Error>(
  _ first: DataOperation<A, Failure>, _ second: DataOperation<B, Failure>,
  _ third: DataOperation<C, Failure>
) -> DataOperation<(A, B, C), Failure> {
  DataOperation { connection throws(Failure) in
    let a = try first.run(connection)
    let b = try second.run(connection)
    let c = try third.run(connection)
    return (a, b, c)
  }
}

/// Runs four operations, in order, on the same connection and collects their results.
///
/// ```swift
/// let (a, b, c, d) = try zip(one, two, three, four).operate(in: context)
/// ```
public func zip<A, B, C, D, Failure: Error>(
  _ first: DataOperation<A, Failure>, _ second: DataOperation<B, Failure>,
  _ third: DataOperation<C, Failure>, _ fourth: DataOperation<D, Failure>
) -> DataOperation<(A, B, C, D), Failure> {
  DataOperation { connection throws(Failure) in
    let a = try first.run(connection)
    let b = try second.run(connection)
    let c = try third.run(connection)
    let d = try fourth.run(connection)
    return (a, b, c, d)
  }
}

extension DataOperation {
  /// Turns an array of operations into one operation of an array: runs them in order on the same
  /// connection and keeps their order (like `sequence` for Haskell's `traverse`).
  ///
  /// ```swift
  /// let books = try DataOperation.sequence(ids.map { Repository<Book>().object(id: $0) }).operate(in: context)
  /// ```
  public static func sequence<Item>(
    _ operations: [DataOperation<Item, Failure>]
  ) -> DataOperation<[Item], Failure> where Element == [Item] {
    DataOperation<[Item], Failure> { connection throws(Failure) in
      var results: [Item] = []
      results.reserveCapacity(operations.count)
      for operation in operations {
        results.append(try operation.run(connection))
      }
      return results
    }
  }
}

extension Array {
  /// The operations of this array as one operation of an array, in order.
  ///
  /// ```swift
  /// let books = try ids.map { Repository<Book>().object(id: $0) }.sequence().operate(in: context)
  /// ```
  public func sequence<Item, Failure: Error>() -> DataOperation<[Item], Failure>
  where Element == DataOperation<Item, Failure> {
    DataOperation<[Item], Failure>.sequence(self)
  }
}
