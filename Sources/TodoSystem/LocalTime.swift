// The only code that talks to the C library's time-zone machinery (tzset, localtime_r, and TZ
// for a named zone): the platform's, below the core, which never reads the environment itself.
// Everything in UTC is plain arithmetic (see `Civil` in Timestamp.swift), so it is exact for
// every Int64 and never depends on `TZ`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A broken-down local wall-clock time, as `localtime_r` reports it.
public struct LocalFields: Equatable, Sendable {
  public var year: Int64
  public var month: Int  // 1...12
  public var day: Int  // 1...31
  public var hour: Int
  public var minute: Int
  public var second: Int
  public var weekday: Int  // 0 = Sunday ... 6 = Saturday
  public var zone: String  // abbreviation, e.g. "CET"; a numeric offset if the C library has none
}

/// Conversions between instants and local wall-clock time in the process's time zone (`TZ`).
public enum LocalTime {
  /// `tzset()` once per process; later changes of `TZ` must call `tzset()` themselves.
  private static let zoneLoaded: Void = tzset()

  /// The local wall-clock time of an instant, or nil if the C library cannot represent it.
  public static func fields(_ seconds: Int64) -> LocalFields? {
    guard let parts = brokenDown(seconds) else { return nil }
    return LocalFields(
      year: Int64(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
      hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
      weekday: Int(parts.tm_wday), zone: zoneName(parts))
  }

  /// The instant of a local wall-clock time, or nil if the C library cannot represent it.
  ///
  /// The fields must be in range (month 1...12, day valid for the month, ...). DST edges:
  /// - a time in a spring-forward gap (02:30 when clocks jump 02:00 → 03:00) is read with the
  ///   offset in force before the gap, so 02:30 EST becomes 03:30 EDT (what glibc's `mktime`
  ///   with `tm_isdst = -1` returns);
  /// - an ambiguous time in an autumn overlap (01:30 when clocks fall back 02:00 → 01:00) is
  ///   the earlier of its two instants (the DST reading).
  ///
  /// `mktime` is not used: glibc's `mktime` caches the last offset it saw in a static, so its
  /// answer for an ambiguous time depends on the previous call (and the cache is a data race).
  /// Only `localtime_r` is asked, which is deterministic and thread-safe.
  ///
  /// `wall`: the wall-clock time as seconds since the epoch read as UTC (the core's
  /// `Civil.seconds`; `LocalTime.instant(year:month:day:…)` in TodoCore makes it).
  public static func instant(wall: Int64) -> Int64? {
    // Offsets are within ±26 h, so the instant lies in wall ± 26 h; the offsets 27.8 h either
    // side are the ones in force before and after any transition inside that window.
    guard let before = offset(at: wall - 100_000), let after = offset(at: wall + 100_000)
    else { return nil }
    let readBefore = wall - before
    let readAfter = wall - after
    switch (offset(at: readBefore) == before, offset(at: readAfter) == after) {
    case (true, true): return min(readBefore, readAfter)  // one offset, or an overlap
    case (true, false): return readBefore
    case (false, true): return readAfter
    case (false, false): return readBefore  // a gap: read with the offset before it
    }
  }

  /// The instant of a wall-clock time in a named IANA zone (`Europe/Berlin`), or nil when the
  /// system has no such zone (a file under `$TZDIR`, else `/usr/share/zoneinfo`, that starts with `TZif`).
  ///
  /// The C library knows one zone per process, so this sets `TZ` to the zone for the call and
  /// restores it after, in its turn (`withProcessZone`): other threads' local-time work waits
  /// meanwhile, and never sees this zone.
  public static func instant(inZone zone: String, wall: Int64) -> Int64? {
    let allowed = zone.utf8.allSatisfy { byte in
      (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }
    guard allowed, !zone.isEmpty, !zone.hasPrefix("/"), !zone.contains(".."),
      isZoneFile((getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo") + "/" + zone)
    else { return nil }
    return withProcessZone(zone) { instant(wall: wall) }
  }

  /// Runs `body` with the process's zone (`TZ`) set to `zone` (unset for nil), then puts back
  /// what was there. The C library keeps one zone per process, so every change of it goes
  /// through here, one at a time, and every reading (`fields`, `instant(wall:)`) takes its turn
  /// as well: a thread that asks while another holds the turn waits, and `body` may ask again
  /// on the same thread (an import's parse inside a test's turn). A program that runs one
  /// command does this once per named zone; a test process running command lines on many
  /// threads (and tests that set `TZ`) needs the turns.
  public static func withProcessZone<T>(_ zone: String?, _ body: () throws -> T) rethrows -> T {
    _ = zoneLoaded
    zoneTurn.lock()
    defer { zoneTurn.unlock() }
    let saved = getenv("TZ").map { String(cString: $0) }
    func apply(_ value: String?) {
      if let value { setenv("TZ", value, 1) } else { unsetenv("TZ") }
      tzset()
    }
    apply(zone)
    defer { apply(saved) }
    return try body()
  }

  /// The turn for `TZ`: a recursive mutex, so that a body holding it may ask again.
  private static let zoneTurn = RecursiveMutex()

  /// Whether a path is a compiled time-zone file (glibc reads anything else as UTC, silently).
  private static func isZoneFile(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var magic = [UInt8](repeating: 0, count: 4)
    let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
    return count == 4 && magic == Array("TZif".utf8)
  }

  /// The local offset from UTC in seconds (east positive) at an instant.
  private static func offset(at seconds: Int64) -> Int64? {
    guard let parts = brokenDown(seconds) else { return nil }
    return Int64(parts.tm_gmtoff)
  }

  /// Every reading of the zone takes its turn too, so that it sees one zone: never another
  /// thread's for a moment (an uncontended lock, some 20 ns beside `localtime_r`'s own).
  private static func brokenDown(_ seconds: Int64) -> tm? {
    _ = zoneLoaded
    guard var t = time_t(exactly: seconds) else { return nil }
    var parts = tm()
    zoneTurn.lock()
    defer { zoneTurn.unlock() }
    guard localtime_r(&t, &parts) != nil else { return nil }
    return parts
  }

  private static func zoneName(_ parts: tm) -> String {
    if let name = parts.tm_zone, name.pointee != 0 { return String(cString: name) }
    let offset = Int(parts.tm_gmtoff)
    let magnitude = abs(offset) / 60
    let hours = magnitude / 60
    let minutes = magnitude % 60
    return (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours)
      + (minutes < 10 ? "0" : "") + String(minutes)
  }
}

/// A pthread mutex that the thread holding it may lock again (`PTHREAD_MUTEX_RECURSIVE`).
private final class RecursiveMutex: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init() {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}
