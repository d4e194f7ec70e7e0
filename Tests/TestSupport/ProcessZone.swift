import TodoSystem

/// The time zone of the test process, which the C library keeps one of (`TZ`): tests that
/// set it, the command lines run in-process (which must see UTC, as the binary is given) and
/// the parsers that read a time in a named zone (`LocalTime.instant(inZone:wall:)`) take turns
/// through `LocalTime.withProcessZone`, so that none computes a local time in another's zone.
public enum ProcessZone {
  /// Runs `body` with `TZ` set to `zone` (unset for nil), then puts back what was there.
  public static func with<T>(_ zone: String?, _ body: () throws -> T) rethrows -> T {
    try LocalTime.withProcessZone(zone, body)
  }
}
