extension DataOperation {
  /// Runs the operation that `transform` makes from this one's result, on the same connection in
  /// the same run (like `Result.flatMap`). A failure stops the chain: later steps do not run.
  ///
  /// ```swift
  /// let renamed = Repository<Book>().object(id: 1).flatMap { book in
  ///   Repository<Book>().update(book.with(title: "Emma"))
  /// }
  /// ```
  public func flatMap<NewElement>(
    _ transform: @escaping @Sendable (Element) -> DataOperation<NewElement, Failure>
  ) -> DataOperation<NewElement, Failure> {
    DataOperation<NewElement, Failure> { connection throws(Failure) in
      try transform(try self.run(connection)).run(connection)
    }
  }
}

extension DataOperation where Failure == Never {
  /// Chains a fallible operation after an infallible one, without lifting by hand.
  ///
  /// ```swift
  /// let op: DataOperation<Book, DatabaseError> = DataOperation<Int64, Never>.pure(1).flatMap { Repository<Book>().object(id: $0) }
  /// ```
  public func flatMap<NewElement, NewFailure: Error>(
    _ transform: @escaping @Sendable (Element) -> DataOperation<NewElement, NewFailure>
  ) -> DataOperation<NewElement, NewFailure> {
    DataOperation<NewElement, NewFailure> { connection throws(NewFailure) in
      try transform(self.run(connection)).run(connection)
    }
  }
}
