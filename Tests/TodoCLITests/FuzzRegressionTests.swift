import Foundation
import Testing

@testable import TodoCLI

/// Every input under `Tests/Fuzz/` goes through its fuzz target again: the seed corpora
/// (`corpus/TARGET/`) and every crash `make fuzz` ever found (`regressions/TARGET/`, named by
/// libFuzzer `crash-…`, `timeout-…`, `oom-…`). A target must return on each of them; a crash
/// ends the test run, a hang hits the time limit.
@Suite(.timeLimit(.minutes(2))) struct FuzzRegressionTests {
  static func inputs() throws -> [(target: FuzzTarget, file: URL)] {
    let root = try ManPageTests.repositoryRoot().appendingPathComponent("Tests/Fuzz")
    var found: [(FuzzTarget, URL)] = []
    for kind in ["corpus", "regressions"] {
      for target in FuzzTarget.allCases {
        let folder = root.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files.sorted(by: { $0.path < $1.path }) where !file.lastPathComponent.hasPrefix(".") {
          found.append((target, file))
        }
      }
    }
    return found
  }

  @Test func everySeedAndEveryFoundCrashRunsThroughItsTarget() throws {
    let inputs = try Self.inputs()
    // Every target has seeds.
    let seeded = Set(inputs.filter { $0.file.path.contains("/corpus/") }.map(\.target))
    #expect(seeded == Set(FuzzTarget.allCases), "targets without seeds: \(Set(FuzzTarget.allCases).subtracting(seeded))")
    for (target, file) in inputs {
      target.run(Array(try Data(contentsOf: file)))
    }
  }

  /// The inputs libFuzzer starts from are real: each seed is read without an error by its
  /// target (a corpus of inputs that all fail at the first byte would explore little).
  @Test func theSeedsAreValidInputs() throws {
    for (target, file) in try Self.inputs() where file.path.contains("/corpus/") {
      let accepted = target.run(Array(try Data(contentsOf: file)))
      #expect(accepted, "\(target.rawValue)/\(file.lastPathComponent) is not read without an error")
    }
  }
}
