import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// The time zone of the test process, which the C library keeps one of (`TZ`): tests that
/// set it, the command lines run in-process (which must see UTC, as the binary is given) and
/// the parsers that read a time in a named zone (`LocalTime.instant(inZone:wall:)`) take turns
/// through `LocalTime.withProcessZone`, so that none computes a local time in another's zone.
public enum ProcessZone {
  /// Runs `body` with `TZ` set to `zone` (unset for nil), then puts back what was there.
  public static func with<T>(_ zone: String?, _ body: () throws -> T) rethrows -> T {
    keepVariable()
    return try LocalTime.withProcessZone(zone, body)
  }

  /// Sets `TZ` for good (see `variableKept`), for a test that calls a parser that changes the
  /// zone itself (`LocalTime.instant(inZone:wall:)`) before any turn here.
  public static func keepVariable() { Self.variableKept }

  /// `TZ` set for good, to what it means when unset (the system's zone, `/etc/localtime`), so
  /// that the turns only ever replace its value. Adding a variable that was not there, or
  /// removing one, can move the C library's array of variables while another thread reads it
  /// (Foundation reading `TMPDIR`, a spawn copying `environ`); replacing a value never does.
  private static let variableKept: Void = {
    if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 1) }
  }()
}
