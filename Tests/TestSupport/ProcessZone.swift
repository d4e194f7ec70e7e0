import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The time zone of the test process, which the C library keeps one of (`TZ`): tests that
/// set it, and the command lines run in-process (which must see UTC, as the binary is given),
/// take turns here, so that none computes a local time in another's zone.
public enum ProcessZone {
  private static let turn = Mutex<Void>(())

  /// Runs `body` with `TZ` set to `zone` (unset for nil), then puts back what was there.
  public static func with<T>(_ zone: String?, _ body: () throws -> T) rethrows -> T {
    try turn.withLock { _ in
      let saved = getenv("TZ").map { String(cString: $0) }
      func apply(_ value: String?) {
        if let value { setenv("TZ", value, 1) } else { unsetenv("TZ") }
        tzset()
      }
      apply(zone)
      defer { apply(saved) }
      return try body()
    }
  }
}
