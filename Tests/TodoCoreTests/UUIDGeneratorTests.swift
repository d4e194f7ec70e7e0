import Testing

@testable import TodoCore

/// Random UUIDs: well formed, version 4, never repeated, and random in every position but the
/// version and variant digits.
struct UUIDGeneratorTests {
  @Test func randomUUIDsAreVersion4AndDistinct() {
    let uuids = (0..<2_000).map { _ in UUIDGenerator.make() }
    #expect(Set(uuids).count == uuids.count)
    for uuid in uuids {
      #expect(UUIDGenerator.isUUID(uuid), "\(uuid)")
      let digits = Array(uuid)
      #expect(digits[14] == "4", "version digit of \(uuid)")
      #expect("89ab".contains(digits[19]), "variant digit of \(uuid)")
    }
  }

  @Test func everyRandomDigitVaries() {
    let uuids = (0..<500).map { _ in Array(UUIDGenerator.make()) }
    for position in 0..<36 where ![8, 13, 14, 18, 23].contains(position) {
      let seen = Set(uuids.map { $0[position] })
      // 500 draws of a random hex digit (or of 4 values, for the variant) show at least 4 values.
      #expect(seen.count >= 4, "position \(position) takes only \(seen.sorted())")
    }
  }

  @Test func theSixteenBytesAreDrawnIndependently() {
    // Bytes copied from one another (a wrong shift, one draw used twice) agree far more often
    // than random bytes, which agree once in 256 draws.
    let draws = (0..<500).map { _ in bytes(of: UUIDGenerator.make()) }
    for first in 0..<16 {
      for second in (first + 1)..<16 {
        let agreeing = draws.filter { $0[first] == $0[second] }.count
        #expect(agreeing < 25, "bytes \(first) and \(second) agree in \(agreeing) of 500 UUIDs")
      }
    }
  }

  private func bytes(of uuid: String) -> [UInt8] {
    let hex = Array(uuid.filter { $0 != "-" })
    return stride(from: 0, to: 32, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
  }
}
