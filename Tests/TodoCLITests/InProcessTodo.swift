import Synchronization

@testable import TodoCLI

#if canImport(Glibc)
import Glibc
#endif

/// Runs a `todo` command line inside the test process, through `Session.execute` as
/// `TodoCommandLine.main` does, with output collected in memory and no standard input (as a
/// run with `/dev/null` for input). No Foundation here: its `OutputStream` is another type.
///
/// One command runs at a time. The week start is the session's own (bound for the command),
/// but the time zone is the C library's, one per process: every in-process run is in UTC, as
/// the sandbox gives the binary, and an import that reads a time in a named zone sets `TZ` for
/// a moment (`LocalTime.instant(inZone:wall:)`), which another run at the same time would see.
enum InProcessTodo {
  private static let oneAtATime = Mutex<Void>(())
  private static let zone: Void = {
    setenv("TZ", "UTC", 1)
    tzset()
  }()

  static func run(_ arguments: [String], environment: [String: String]) -> (status: Int32, output: [UInt8], error: [UInt8]) {
    zone
    return oneAtATime.withLock { _ in
      let output = OutputStream.memory()
      let error = OutputStream.memory()
      let session = Session(environment: environment, standardOutput: output, standardError: error)
      session.readAnswer = { nil }
      let status = session.execute(arguments: arguments)
      return (status, output.collectedBytes, error.collectedBytes)
    }
  }
}
