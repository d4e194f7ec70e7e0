/// Random (version 4) UUIDs in lowercase text, without Foundation.
public enum UUIDGenerator {
  /// Whether `text` is a UUID as `make` writes them: 8-4-4-4-12 lowercase hex digits.
  public static func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        else { return false }
      }
    }
    return true
  }

  /// A new random UUID such as `1c9e44a0-5b7e-4c1d-9f0e-2a6d8b3c4e5f`.
  public static func make() -> String {
    // Two 64-bit draws: each is one getrandom(2) call, where a byte at a time made sixteen.
    var generator = SystemRandomNumberGenerator()
    let high: UInt64 = generator.next()
    let low: UInt64 = generator.next()
    var bytes = (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (UInt64(index % 8) * 8)) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    return text(bytes)
  }
}

extension UUIDGenerator {
  /// The UUID of instance `index` of the series `series` (a name-based, version 5 UUID: SHA-1 of
  /// the series UUID's 16 bytes and the decimal index, RFC 9562 §5.5). Every process and machine
  /// derives the same one, so two completions of one instance can only ever create one next
  /// instance. Nil when `series` is not a UUID.
  static func instance(_ index: Int, of series: String) -> String? {
    let hex = series.lowercased().filter { $0 != "-" }
    guard hex.count == 32 else { return nil }
    var bytes: [UInt8] = []
    var characters = hex.makeIterator()
    while let high = characters.next(), let low = characters.next() {
      guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
      bytes.append(byte)
    }
    return nameBased(bytes + Array(String(index).utf8))
  }

  /// A name-based (version 5) UUID: the SHA-1 of `name`, with the version and variant bits set.
  static func nameBased(_ name: [UInt8]) -> String {
    var digest = SHA1.hash(name)
    digest[6] = (digest[6] & 0x0F) | 0x50  // version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  // RFC 4122 variant
    return text(Array(digest.prefix(16)))
  }

  /// 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
  static func text(_ bytes: [UInt8]) -> String {
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

/// SHA-1 (FIPS 180-4), for name-based UUIDs only: not for anything that needs a secure hash.
enum SHA1 {
  static func hash(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    let bitLength = UInt64(message.count) * 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: data.count, by: 64) {
      for i in 0..<16 {
        w[i] =
          UInt32(data[chunk + 4 * i]) << 24 | UInt32(data[chunk + 4 * i + 1]) << 16
          | UInt32(data[chunk + 4 * i + 2]) << 8 | UInt32(data[chunk + 4 * i + 3])
      }
      for i in 16..<80 {
        let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
        w[i] = x << 1 | x >> 31
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32) =
          switch i {
          case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          default: (b ^ c ^ d, 0xCA62_C1D6)
          }
        let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
        e = d
        d = c
        c = b << 30 | b >> 2
        b = a
        a = temp
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
  }
}
