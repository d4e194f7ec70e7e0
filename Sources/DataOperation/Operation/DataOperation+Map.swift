extension DataOperation {
  /// Transforms the result, on the context's queue, inside the same run (like `Result.map`).
  ///
  /// ```swift
  /// let count: DataOperation<Int, DatabaseError> = Repository<Book>().fetch().map(\.count)
  /// ```
  public func map<NewElement>(
    _ transform: @escaping @Sendable (Element) -> NewElement
  ) -> DataOperation<NewElement, Failure> {
    DataOperation<NewElement, Failure> { connection throws(Failure) in
      transform(try self.run(connection))
    }
  }

  /// Transforms the failure, leaving a success as it is (like `Result.mapError`).
  ///
  /// ```swift
  /// let domain = Repository<Book>().fetch().mapError(AppError.database)
  /// ```
  public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> DataOperation<Element, NewFailure> {
    DataOperation<Element, NewFailure> { connection throws(NewFailure) in
      do throws(Failure) {
        return try self.run(connection)
      } catch {
        throw transform(error)
      }
    }
  }
}

extension DataOperation where Failure == Never {
  /// Lifts an infallible operation into one with a failure type, so it composes with fallible ones
  /// (the seeds' `lift` from `FunctionalDataOperation` into `ResultFDO`).
  ///
  /// ```swift
  /// let lifted: DataOperation<Int, DatabaseError> = DataOperation<Int, Never>.pure(1).setFailureType(to: DatabaseError.self)
  /// ```
  public func setFailureType<NewFailure: Error>(
    to failureType: NewFailure.Type
  ) -> DataOperation<Element, NewFailure> {
    DataOperation<Element, NewFailure> { connection in self.run(connection) }
  }
}

extension DataOperation where Element: Sendable {
  /// Lifts a plain `Result` into an operation (the seeds' `lift` from `Result`).
  ///
  /// ```swift
  /// let parsed = DataOperation(result: Result<Int, DatabaseError>.success(3))
  /// ```
  public init(result: Result<Element, Failure>) {
    self.init { _ throws(Failure) in try result.get() }
  }
}
