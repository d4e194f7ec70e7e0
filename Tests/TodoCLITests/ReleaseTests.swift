import Foundation
import Testing

@testable import TodoCLI

/// Versions: the one in the code has its CHANGELOG entry, and a database made by every released
/// version (Fixtures/made-by-VERSION.db, each made by that version's own binary with the same
/// commands: packaging/make-fixture.sh) opens in this one with its tasks and undo steps. The
/// versions before 0.3.0 were named after the fact: 0.2.0 is commit cdc516e (whose binary still
/// called itself 0.1.0), the last of the second wave; 0.1.0 is 22b6dc2.
@Suite struct ReleaseTests {
  static func changelog() throws -> String {
    try String(contentsOf: ManPageTests.repositoryRoot().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
  }

  /// The versions CHANGELOG.md has released (`## [0.3.0] - 2026-11-27`), newest first.
  static func releasedVersions() throws -> [String] {
    try changelog().split(separator: "\n").compactMap { line in
      guard line.hasPrefix("## ["), let end = line.firstIndex(of: "]") else { return nil }
      let version = String(line[line.index(line.startIndex, offsetBy: 4)..<end])
      return version == "Unreleased" ? nil : version
    }
  }

  @Test func theVersionInTheCodeHasAChangelogEntry() throws {
    let versions = try Self.releasedVersions()
    #expect(versions.first == Version.current, "CHANGELOG.md's newest entry is \(versions.first ?? "none"), the code says \(Version.current)")
    #expect(try Self.changelog().contains("## [\(Version.current)] - 20"), "the entry has a date")
    // Semantic versions, each newer than the next.
    let numbers = versions.map { $0.split(separator: ".").compactMap { Int($0) } }
    #expect(numbers.allSatisfy { $0.count == 3 })
    #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) == false })
  }

  @Test func aDatabaseOfEveryReleasedVersionOpens() throws {
    let fixtures = try ManPageTests.repositoryRoot().appendingPathComponent("Tests/TodoCLITests/Fixtures")
    for version in try Self.releasedVersions() {
      let fixture = fixtures.appendingPathComponent("made-by-\(version).db")
      #expect(FileManager.default.fileExists(atPath: fixture.path), "no database made by \(version): packaging/make-fixture.sh makes one")
      guard FileManager.default.fileExists(atPath: fixture.path), version != "0.1.0" else { continue }  // 0.1.0: PreviousVersionTests
      let todo = try TodoSandbox(inProcess: false)
      try FileManager.default.copyItem(atPath: fixture.path, toPath: todo.databasePath)
      let tasks = try todo("list", "status:all", "--sort", "id", "--json").jsonArray()
      #expect(
        tasks.map { $0["title"] as? String }
          == ["Buy milk", "Pay rent", "Café 日本 🎉", "Water the plants", "Pack bags", "Water the plants", "Old task", "Gone"],
        "\(version)")
      #expect(tasks.map { $0["status"] as? String } == ["pending", "pending", "pending", "done", "pending", "pending", "done", "deleted"])
      #expect(tasks[0]["priority"] as? String == "H" && tasks[0]["due"] as? String == "2026-11-22", "\(version)")
      #expect((tasks[1]["notes"] as? [[String: Any]])?.first?["text"] as? String == "landlord wants it by the 1st")
      #expect(tasks[2]["scheduled"] as? String == "2026-11-23T08:30:00Z")
      #expect(tasks[5]["due"] as? String == "2026-11-28", "the series' next instance")
      #expect(jsonStrings(tasks[4]["depends"])?.count == 1)
      #expect((try todo.task(1)["intervals"] as? [[String: Any]])?.count == 1, "\(version): the time worked")
      // The journal undoes what that version did; a new change works.
      #expect(todo("journal", "--json").jsonArrayCount == 14)
      #expect(todo("undo").status == 0)
      #expect(try todo.task(1)["priority"] as? String == "M", "\(version): update 1 pri:H undone")
      #expect(todo("add", "After the upgrade", "+new").status == 0)
      #expect(todo("check").status == 0)
    }
  }
}
