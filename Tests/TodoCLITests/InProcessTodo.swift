import TestSupport

@testable import TodoCLI

/// Runs a `todo` command line inside the test process, through `Session.execute` as
/// `TodoCommandLine.main` does, with output collected in memory, no standard input (as a run
/// with `/dev/null` for input) and no terminal. No Foundation here: its `OutputStream` is
/// another type.
///
/// The week start is the session's own (bound for its command), but the time zone is the C
/// library's, one per process: each run holds the process's zone at UTC, as the sandbox gives
/// the binary, and takes its turn (`ProcessZone`, that is `LocalTime.withProcessZone`) with the
/// tests that set another and with the parsers that read a time in a named zone, so that none
/// of them changes `TZ` under a run.
enum InProcessTodo {
  static func run(_ arguments: [String], environment: [String: String]) -> (status: Int32, output: [UInt8], error: [UInt8]) {
    ProcessZone.with("UTC") {
      let output = OutputStream.memory()
      let error = OutputStream.memory()
      let session = Session(environment: environment, standardOutput: output, standardError: error, errorIsTerminal: false)
      session.readAnswer = { nil }
      let status = session.execute(arguments: arguments)
      return (status, output.collectedBytes, error.collectedBytes)
    }
  }
}
