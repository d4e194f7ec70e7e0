/// A small deterministic random generator (SplitMix64) for property tests: the same seed gives
/// the same inputs on every run, so a failure can be replayed.
///
/// ```swift
/// var random = SeededGenerator(seed: 42)
/// let value = Int.random(in: 0..<100, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A random integer in `0..<bound`.
  public mutating func next(below bound: Int) -> Int { Int(next(upperBound: UInt64(bound))) }
}
