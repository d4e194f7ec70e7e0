import Foundation
import Testing

@testable import TodoCLI

/// Every input under `Tests/Fuzz/` goes through its fuzz target again: the seed corpora
/// (`corpus/TARGET/`) and every crash `make fuzz` ever found (`regressions/TARGET/`, named by
/// libFuzzer `crash-…`, `timeout-…`, `oom-…`). They run in `todo-fuzz`, a process of its own per
/// target (bounded in time): a crash or hang fails the test, not the test run, and reading an
/// iCalendar time zone sets `TZ`, which the tests running beside must not see.
@Suite struct FuzzRegressionTests {
  static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [String] {
    let folder = try ManPageTests.repositoryRoot().appendingPathComponent("Tests/Fuzz/\(kind)/\(target.rawValue)")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0).path }
  }

  /// What `todo-fuzz TARGET FILES…` said of each file (`read` or `refused`), by file.
  static func replay(_ target: FuzzTarget, _ files: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: String]
  {
    guard !files.isEmpty else { return [:] }
    let todo = try TodoSandbox(inProcess: false)
    let replayer = TodoSandbox.binary!.deletingLastPathComponent().appendingPathComponent("todo-fuzz")
    let run = todo.launch(replayer, [target.rawValue] + files).wait(seconds: 120)
    #expect(run.status == 0, "todo-fuzz \(target.rawValue) failed: \(run)", sourceLocation: sourceLocation)
    var answers: [String: String] = [:]
    for line in run.lines {
      guard let colon = line.range(of: ": ", options: .backwards) else { continue }
      answers[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
    }
    return answers
  }

  @Test(arguments: FuzzTarget.allCases)
  func everySeedAndEveryFoundCrashRunsThroughItsTarget(_ target: FuzzTarget) throws {
    let seeds = try Self.inputs("corpus", target)
    #expect(!seeds.isEmpty, "\(target.rawValue) has no seeds in Tests/Fuzz/corpus")
    let regressions = try Self.inputs("regressions", target)
    let answers = try Self.replay(target, seeds + regressions)
    #expect(Set(answers.keys) == Set(seeds + regressions), "not every input came back")
    // The inputs libFuzzer starts from are real: each seed is read without an error (a corpus of
    // inputs that all fail at the first byte would explore little).
    for seed in seeds {
      #expect(answers[seed] == "read", "\(target.rawValue) seed \(URL(fileURLWithPath: seed).lastPathComponent): \(answers[seed] ?? "no answer")")
    }
  }
}
