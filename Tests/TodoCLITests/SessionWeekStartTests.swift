import Dispatch
import Synchronization
import Testing

@testable import TodoCLI

/// The week start is each session's own: sessions running at once in one process (the shell's
/// commands, the tests' in-process runs) never see each other's `week.start`.
@Suite struct SessionWeekStartTests {
  @Test func sessionsAtOnceEachSeeTheirOwnWeekStart() {
    let wrong = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 400) { index in
      let sunday = index % 2 == 0
      let output = OutputStream.memory()
      let error = OutputStream.memory()
      let session = Session(
        environment: ["HOME": "/nonexistent", "TZ": "UTC", "TODO_NOW": "2026-11-26T10:00:00Z"], standardOutput: output,
        standardError: error)
      let status = session.execute(arguments: (sunday ? ["-c", "week.start=sunday"] : []) + ["date", "sow", "--json"])
      let expected = sunday ? "\"day\": \"2026-11-22\"" : "\"day\": \"2026-11-23\""
      if status != 0 || !output.collectedText.contains(expected) {
        wrong.withLock { $0.append("\(sunday ? "sunday" : "monday"): \(status) \(output.collectedText)\(error.collectedText)") }
      }
    }
    #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(3) })")
  }
}
