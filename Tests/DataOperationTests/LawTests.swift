import DataOperation
import TestSupport
import Testing

/// Functor and monad laws, each checked over 100+ random inputs. Every operation in these
/// properties writes to the log table, so "equivalent" means the same result *and* the same effects.
@Suite struct LawTests {
  static let iterations = 120

  /// A random affine function and its logged operation.
  struct Affine: Sendable {
    let a: Int
    let b: Int
    init<G: RandomNumberGenerator>(using generator: inout G) {
      a = Int.random(in: -50...50, using: &generator)
      b = Int.random(in: -1000...1000, using: &generator)
    }
    func callAsFunction(_ x: Int) -> Int { a &* x &+ b }
    var operation: @Sendable (Int) -> DataOperation<Int, DatabaseError> { { x in logged(a &* x &+ b) } }
  }

  /// Runs an operation on a fresh database; returns its result and what it logged.
  func outcome(_ operation: DataOperation<Int, DatabaseError>) throws -> [Int] {
    let context = try makeContext()
    let result = try operation.operate(in: context)
    return [result] + (try logValues.operate(in: context))
  }

  func forAll(seed: UInt64 = 0x5EED, _ property: (inout SeededGenerator, Int) throws -> Void) rethrows {
    var generator = SeededGenerator(seed: seed)
    for iteration in 0..<Self.iterations {
      try property(&generator, iteration)
    }
  }

  @Test func mapIdentityLeavesResultAndEffectsUnchanged() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let x = Int.random(in: -10_000...10_000, using: &generator)
      #expect(try outcome(logged(x).map { $0 }) == outcome(logged(x)))
    }
  }

  @Test func mapCompositionEqualsMappingTheComposedFunction() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let x = Int.random(in: -10_000...10_000, using: &generator)
      let f = Affine(using: &generator)
      let g = Affine(using: &generator)
      let twice = logged(x).map { f($0) }.map { g($0) }
      let once = logged(x).map { g(f($0)) }
      #expect(try outcome(twice) == outcome(once))
      #expect(try outcome(once)[0] == g(f(x)))
    }
  }

  @Test func flatMapLeftIdentity() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let x = Int.random(in: -10_000...10_000, using: &generator)
      let f = Affine(using: &generator).operation
      #expect(try outcome(DataOperation<Int, DatabaseError>.pure(x).flatMap(f)) == outcome(f(x)))
    }
  }

  @Test func flatMapRightIdentity() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let x = Int.random(in: -10_000...10_000, using: &generator)
      #expect(try outcome(logged(x).flatMap { .pure($0) }) == outcome(logged(x)))
    }
  }

  @Test func flatMapAssociativity() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let x = Int.random(in: -10_000...10_000, using: &generator)
      let f = Affine(using: &generator).operation
      let g = Affine(using: &generator).operation
      let left = logged(x).flatMap(f).flatMap(g)
      let right = logged(x).flatMap { f($0).flatMap(g) }
      let result = try outcome(left)
      #expect(result == (try outcome(right)))
      #expect(result.count == 4)  // the result and three logged values
    }
  }

  @Test func zipKeepsOrderOfResultsAndEffects() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let a = Int.random(in: -10_000...10_000, using: &generator)
      let b = Int.random(in: -10_000...10_000, using: &generator)
      let c = Int.random(in: -10_000...10_000, using: &generator)
      let context = try makeContext()
      let pair = try zip(logged(a), logged(b)).operate(in: context)
      #expect(pair == (a, b))
      let triple = try zip(logged(c), logged(a), logged(b)).operate(in: context)
      #expect(triple == (c, a, b))
      #expect(try logValues.operate(in: context) == [a, b, c, a, b])
    }
  }

  @Test func sequenceKeepsOrderOfResultsAndEffects() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let values = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        Int.random(in: -10_000...10_000, using: &generator)
      }
      let context = try makeContext()
      let results = try values.map(logged).sequence().operate(in: context)
      #expect(results == values)
      #expect(try logValues.operate(in: context) == values)
    }
  }

  /// The identity of the connection each step ran on, and whether a transaction was open.
  static let probe = DataOperation<(ObjectIdentifier, Int), DatabaseError> { connection in
    (ObjectIdentifier(connection), connection.transactionDepth)
  }

  @Test func zipAndSequenceRunOnOneConnectionInOneTransaction() throws {
    let context = try makeContext()
    let (first, second) = try zip(Self.probe, Self.probe).transaction().operate(in: context)
    #expect(first.0 == second.0)
    #expect(first.1 == 1 && second.1 == 1)
    let all = try Array(repeating: Self.probe, count: 5).sequence().transaction().operate(in: context)
    #expect(Set(all.map(\.0)).count == 1)
    #expect(all.allSatisfy { $0.1 == 1 })
  }

  @Test func aFailingStepInZipOrSequenceRollsBackTheWholeTransaction() throws {
    try forAll { (generator: inout SeededGenerator, _: Int) throws in
      let values = (0..<Int.random(in: 1...6, using: &generator)).map { _ in Int.random(in: 0...100, using: &generator) }
      let context = try makeContext()
      let failing = DataOperation<Int, DatabaseError>.fail(.notFound(table: "log", key: "x"))
      #expect(throws: DatabaseError.notFound(table: "log", key: "x")) {
        try (values.map(logged) + [failing]).sequence().transaction().operate(in: context)
      }
      #expect(throws: DatabaseError.notFound(table: "log", key: "x")) {
        try zip(logged(values[0]), failing).transaction().operate(in: context)
      }
      #expect(try logValues.operate(in: context) == [])
    }
  }
}
