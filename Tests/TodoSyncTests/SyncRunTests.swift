import DataOperation
import Foundation
import Testing
import TodoCore

@testable import TodoSync

/// The order of a sync (`SyncRun`) with a host that records what it is asked, an in-memory
/// database and a configuration in a temporary HOME: what runs before vdirsyncer is needed, and
/// `--offline`, which merges the vdir without it.
@Suite struct SyncRunTests {
  /// 2026-11-21T09:30:00Z.
  static let now: Int64 = 1_795_253_400

  /// A host on an in-memory database that records each call.
  final class Host: SyncHost {
    let database: Database
    var calls: [String] = []
    var warnings: [String] = []

    init() throws { database = try TodoDatabase.open(path: ":memory:") }

    func read<Value: Sendable>(_ operation: DataOperation<Value, TodoError>) throws(SyncProblem) -> Value {
      calls.append("read")
      do throws(TodoError) { return try operation.operate(in: database) } catch { throw .environment("\(error)") }
    }

    func write(merge: @escaping @Sendable (Bool) -> DataOperation<SyncReport, TodoError>) throws(SyncProblem) -> SyncReport {
      calls.append("write")
      do throws(TodoError) { return try merge(true).operate(in: database) } catch { throw .environment("\(error)") }
    }

    func password(_ prompt: String, setup: Bool) throws(SyncProblem) -> String? {
      calls.append("password")
      return "secret"
    }

    func failure(_ problem: SyncProblem) -> SyncProblem { problem }

    func warn(_ text: String) { warnings.append(text) }
  }

  /// A temporary HOME, removed when the test ends.
  final class Home {
    let folder: String
    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-syncrun-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: folder) }
  }

  func run(_ host: Host, home: Home, path: String = "/nonexistent") throws -> SyncRun<Host> {
    let environment = ["HOME": home.folder, "PATH": path]
    let paths = try #require(SyncPaths(environment: environment))
    return SyncRun(host: host, paths: paths, environment: environment, childEnvironment: environment, databasePath: nil, echo: false)
  }

  /// A merge as the command line makes it.
  let merge: @Sendable (String, Vdir, Bool, Bool) -> DataOperation<SyncReport, TodoError> = { collection, vdir, apply, files in
    SyncEngine.merge(collection: collection, vdir: vdir, now: SyncRunTests.now, force: false, apply: apply, command: "sync", files: files)
  }

  /// Writes the configuration `sync --setup` writes, with a password todo asks for.
  func setUp(_ run: SyncRun<Host>, home: Home, url: String = "https://dav.example.com/alice/tasks/") throws -> String {
    let text = Vdirsyncer.configuration(paths: run.paths, collection: "tasks", url: url, user: "alice", passwordCommand: nil, todo: "/usr/bin/todo")
    let folder = URL(fileURLWithPath: run.paths.config).deletingLastPathComponent().path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(toFile: run.paths.config, atomically: true, encoding: .utf8)
    return run.paths.vdir("tasks")
  }

  /// The sentence of the problem `body` ends with; nil when it ends well.
  func problem(_ body: () throws(SyncProblem) -> Void) -> String? {
    do throws(SyncProblem) {
      try body()
      return nil
    } catch {
      switch error {
      case .environment(let text), .cancelled(let text): return text
      }
    }
  }

  @Test func aSyncThatIsNotSetUpSaysHowToSetItUp() throws {
    let host = try Host()
    let home = try Home()
    let run = try run(host, home: home)
    for offline in [true, false] {
      let text = problem { () throws(SyncProblem) in _ = try run.sync(force: false, offline: offline, apply: true, merge: merge) }
      #expect(text?.hasPrefix("sync is not set up; run: todo sync --setup URL") == true, "\(String(describing: text))")
    }
    #expect(host.calls.isEmpty, "nothing was read or merged: \(host.calls)")
  }

  @Test func withoutVdirsyncerNothingIsMergedAndNoPasswordIsAsked() throws {
    let host = try Host()
    let home = try Home()
    let run = try run(host, home: home)
    _ = try setUp(run, home: home)
    let text = problem { () throws(SyncProblem) in _ = try run.sync(force: false, offline: false, apply: true, merge: merge) }
    #expect(text?.hasPrefix("sync needs vdirsyncer, which is not installed") == true, "\(String(describing: text))")
    #expect(host.calls.isEmpty, "\(host.calls)")
    // Setting up needs it as well, and leaves the configuration there as it was.
    let before = try String(contentsOfFile: run.paths.config, encoding: .utf8)
    let setup = problem { () throws(SyncProblem) in
      _ = try run.setup(url: "https://other.example.com/", collection: "tasks", user: nil, passwordCommand: nil, force: true)
    }
    #expect(setup?.hasPrefix("sync needs vdirsyncer") == true, "\(String(describing: setup))")
    #expect(try String(contentsOfFile: run.paths.config, encoding: .utf8) == before)
  }

  @Test func aPasswordInTheConfiguredURLIsNeverShown() throws {
    let host = try Host()
    let home = try Home()
    let run = try run(host, home: home)
    _ = try setUp(run, home: home, url: "https://alice:hunter2@dav.example.com/tasks/")
    let status = try run.sync(force: false, offline: true, apply: false, merge: merge)
    #expect(status.url == "https://alice:***@dav.example.com/tasks/")
  }

  @Test func offlineTheVdirIsMergedOnceWithoutAPasswordAndStatusOnlyReads() throws {
    let host = try Host()
    let home = try Home()
    let run = try run(host, home: home)
    let vdir = try setUp(run, home: home)
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Phone//Tasks//EN\r
    BEGIN:VTODO\r
    UID:5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93\r
    DTSTAMP:20261121T080000Z\r
    SUMMARY:Call Bob\r
    STATUS:NEEDS-ACTION\r
    END:VTODO\r
    END:VCALENDAR\r

    """.write(toFile: vdir + "/phone.ics", atomically: true, encoding: .utf8)
    let status = try run.sync(force: false, offline: true, apply: false, merge: merge)
    #expect(status.report.pendingThere == 1 && status.url == "https://dav.example.com/alice/tasks/")
    #expect(host.calls == ["read"])
    let outcome = try run.sync(force: false, offline: true, apply: true, merge: merge)
    #expect(outcome.report.added == ["5f0c2a8e-7d1b-4c3a-9e6f-2b8d4a1c0e93"])
    #expect(host.calls == ["read", "write"], "merged once, no password asked offline: \(host.calls)")
    #expect(host.warnings.isEmpty, "\(host.warnings)")
    // The lock was let go: the next sync runs.
    _ = try run.sync(force: false, offline: true, apply: true, merge: merge)
    #expect(host.calls == ["read", "write", "write"])
  }
}
