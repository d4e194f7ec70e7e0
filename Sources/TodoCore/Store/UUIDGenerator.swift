/// Random (version 4) UUIDs in lowercase text, without Foundation.
enum UUIDGenerator {
  /// A new random UUID such as `1c9e44a0-5b7e-4c1d-9f0e-2a6d8b3c4e5f`.
  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    let digits = Array("0123456789abcdef")
    var text = ""
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append("-") }
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return text
  }
}
