import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real Radicale on 127.0.0.1 and a free port, with its own configuration and storage folder,
/// started for one test and stopped by its pid.
final class RadicaleServer {
  let folder: URL
  let port: Int
  private let process: Process
  /// `alice`'s password when the server asks for one (htpasswd), for curl.
  private let password: String?

  /// `password`: the server accepts only `alice` with it (else anyone, unchecked).
  init(password: String? = nil) throws {
    self.password = password
    try #require(TodoSandbox.hasTool("radicale") && TodoSandbox.hasTool("vdirsyncer") && TodoSandbox.hasTool("curl"),
      "make test installs radicale, vdirsyncer and curl")
    var template = Array((FileManager.default.temporaryDirectory.path + "/todo-radicale.XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw EndToEndSetupError(description: "mkdtemp failed") }
    folder = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    // Port 0: the system picks a free port (no race with other tests' servers); the log says which.
    let config = folder.appendingPathComponent("config")
    var auth = "type = none"
    if let password {
      let users = folder.appendingPathComponent("users").path
      try "alice:\(password)\n".write(toFile: users, atomically: true, encoding: .utf8)
      auth = "type = htpasswd\nhtpasswd_filename = \(users)\nhtpasswd_encryption = plain"
    }
    try """
      [server]
      hosts = 127.0.0.1:0
      [auth]
      \(auth)
      [storage]
      filesystem_folder = \(folder.path)/storage
      [logging]
      level = info
      """.write(to: config, atomically: true, encoding: .utf8)
    let log = folder.appendingPathComponent("log").path
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/radicale")
    process.arguments = ["--config", config.path]
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: log)
    try process.run()
    // Ready when it says where it listens (at most 15 s).
    let deadline = Date().addingTimeInterval(15)
    var found: Int?
    while Date() < deadline && found == nil {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if text.contains("server ready"), let match = text.firstMatch(of: #/Listening on '\[127\.0\.0\.1\]:(\d+)'/#) {
        found = Int(match.output.1)
      } else {
        usleep(50_000)
      }
    }
    guard let found else {
      kill(process.processIdentifier, SIGKILL)
      throw EndToEndSetupError(description: "radicale did not start within 15 s: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }
    port = found
  }

  deinit {
    // SIGTERM, then SIGKILL after 3 s: the test process may have blocked SIGTERM in the thread
    // that started it, and the child inherits that.
    kill(process.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(3)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: folder)
  }

  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Runs curl (bounded to 10 s); the output is the body or what `-w` asks for.
  @discardableResult
  func curl(_ arguments: [String]) -> (status: Int32, output: String) {
    // A file, not a pipe: a server another test starts meanwhile could inherit a pipe's end and
    // keep it open.
    let outputPath = folder.appendingPathComponent("curl-\(UUID().uuidString).out").path
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "--max-time", "10"] + (password.map { ["-u", "alice:" + $0] } ?? []) + arguments
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do { try process.run() } catch { return (-1, "") }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self))
  }

  /// A to-do calendar collection at `/alice/NAME/` (MKCOL, as a CalDAV client would).
  func makeCollection(_ name: String) throws {
    curl(["-X", "MKCOL", url("/alice/")])
    let body = """
      <?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><set><prop>\
      <resourcetype><collection/><C:calendar/></resourcetype><C:supported-calendar-component-set><C:comp name="VTODO"/>\
      </C:supported-calendar-component-set></prop></set></mkcol>
      """
    let made = curl(["-X", "MKCOL", "-H", "Content-Type: application/xml", "--data", body, "-w", "%{http_code}", url("/alice/\(name)/")])
    try #require(made.output.hasSuffix("201"), "MKCOL answered \(made.output)")
  }

  /// The hrefs of a collection's items (PROPFIND, depth 1).
  func items(_ name: String) -> [String] {
    let answer = curl(["-X", "PROPFIND", "-H", "Depth: 1", url("/alice/\(name)/")]).output
    return answer.matches(of: #/<href>([^<]*\.ics)</href>/#).map { String($0.output.1) }.sorted()
  }

  /// An item's text as the server gives it.
  func get(_ href: String) -> String { curl([url(href)]).output }
}

/// A clock for a scenario that moves a minute at every step, as on real machines (an item
/// rewritten at the same `modified` can read the same as before, and vdirsyncer, comparing
/// content, then sends nothing).
final class MovingClock {
  private var minutes = 9 * 60 + 30

  /// The next moment, as TODO_NOW (from 09:31 on 21 November 2026).
  func next() -> String {
    minutes += 1
    let (hour, minute) = (minutes / 60, minutes % 60)
    return "2026-11-21T" + (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute):00Z"
  }

  /// Runs a command at the next moment; it must succeed.
  func run(_ todo: TodoSandbox, _ arguments: String...) {
    todo.run(arguments, environment: ["TODO_NOW": next()]).expectSuccess()
  }
}

/// `todo sync` between two databases ("machines" A and B), each with its own HOME (vdir,
/// vdirsyncer configuration and status), through a real Radicale, with todoman as a third client.
@Suite(.timeLimit(.minutes(5))) struct EndToEndSyncTests {
  /// A server with a collection, and machines set up to sync with it.
  private func setUp(machines count: Int = 2) throws -> (RadicaleServer, [TodoSandbox]) {
    let server = try RadicaleServer()
    try server.makeCollection("tasks")
    var machines: [TodoSandbox] = []
    for _ in 0..<count {
      let todo = try TodoSandbox()
      let setup = todo("sync", "--setup", server.url("/alice/tasks/"), "--user", "alice", "--password-command", "echo secret")
      #expect(setup.status == 0, "\(setup)")
      machines.append(todo)
    }
    return (server, machines)
  }

  @discardableResult
  private func sync(_ todo: TodoSandbox, _ extra: String..., now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> TodoRun {
    let run = todo.run(["sync"] + extra, environment: now.map { ["TODO_NOW": $0] } ?? [:])
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    return run
  }

  /// A task by UUID (ids are each machine's own).
  private func task(_ todo: TodoSandbox, _ uuid: String) throws -> [String: Any] {
    try todo("show", uuid, "--json").jsonObject()
  }

  private func uuid(_ todo: TodoSandbox, _ id: Int) throws -> String {
    try #require(try todo.task(id)["uuid"] as? String)
  }

  private func vdir(_ todo: TodoSandbox) -> URL { todo.folder.appendingPathComponent(".local/share/todo/vdir/tasks") }

  private func titles(_ todo: TodoSandbox, _ filter: String = "status:pending") throws -> [String] {
    try todo("list", filter, "--sort", "title", "--json").jsonArray().compactMap { $0["title"] as? String }
  }

  /// Issue 14: a sync killed (SIGKILL) at any moment, vdirsyncer with it, leaves the database
  /// whole; the next sync finishes, and afterwards both machines and the server hold every task
  /// exactly once, with the last change.
  @Test func aSyncKilledAtAnyMomentLeavesEverythingWholeAndTheNextSyncConverges() throws {
    let (server, machines) = try setUp(machines: 2)
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let count = 60
    a("shell", stdin: (1...count).map { "add Task \($0) +crash\n" }.joined()).expectSuccess()
    var killed = 0
    for (round, delay) in [30_000, 150_000, 300_000, 400_000, 600_000, 800_000, 1_100_000, 1_500_000, 2_000_000, 2_500_000].enumerated() {
      // A change to every task each round, so that each sync has work to do.
      a("update", "--where", "+crash", "--title", "Task of round \(round)", "--yes").expectSuccess()
      let run = a.launch(TodoSandbox.binary!, ["sync"])
      usleep(useconds_t(delay))
      if let process = run.process, process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        killed += 1
      }
      _ = run.wait()
      stopStrays(of: a)
      #expect(a.shell("sqlite3 \"$TODO_DB\" 'PRAGMA integrity_check'").stdout == "ok\n", "round \(round)")
      #expect(a("list", "--limit", "1").status == 0, "the next command works after round \(round)")
    }
    #expect(killed > 0, "no sync was stopped (else the test proves nothing)")
    sync(a)
    sync(b)
    for machine in [a, b] {
      let titles = try titles(machine, "+crash")
      #expect(titles.count == count, "\(titles.count) tasks")
      #expect(Set(titles) == ["Task of round 9"], "\(Set(titles))")
    }
    #expect(server.items("tasks").count == count)
  }

  /// Ends what a killed sync left running (its vdirsyncer), found by the machine's folder in
  /// its environment.
  private func stopStrays(of todo: TodoSandbox) {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let strays = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
        // vdirsyncer finds its configuration through VDIRSYNCER_CONFIG, in the sandbox.
        let environment = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
        return String(decoding: environment, as: UTF8.self).contains("VDIRSYNCER_CONFIG=\(todo.folder.path)")
      }
      if strays.isEmpty { return }
      for pid in strays { kill(pid, SIGKILL) }
      usleep(50_000)
    }
    Issue.record("processes of \(todo.folder.path) did not end")
  }

  /// Each machine adds one half of a cycle (A: 1 waits for 2; B: 2 waits for 1), then of a cycle
  /// of parents. The merge would close it: one link (the same on both machines) is dropped with
  /// a warning instead of failing every later sync, and the machines end with the same links.
  @Test func aCycleMadeByTwoMachinesIsBrokenNotFatal() throws {
    let (server, machines) = try setUp(machines: 2)
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    // Each step a minute later, as on real machines (a rewritten item's SEQUENCE moves on).
    let clock = MovingClock()
    let at = clock.next
    clock.run(a, "add", "First")
    clock.run(a, "add", "Second")
    sync(a, now: at())
    sync(b, now: at())
    let (first, second) = (try uuid(a, 1), try uuid(a, 2))
    clock.run(a, "update", first, "depends:\(second)")
    let onB = try #require(try task(b, second)["id"] as? Int)
    let firstOnB = try #require(try task(b, first)["id"] as? Int)
    clock.run(b, "update", String(onB), "depends:\(firstOnB)")
    sync(a, now: at())
    let merged = sync(b, now: at())
    #expect(merged.stderr.contains("made a cycle"), "\(merged)")
    sync(a, now: at())
    sync(b, now: at())
    let links = { (machine: TodoSandbox) throws -> [[String]] in
      [try self.task(machine, first)["depends"] as? [String] ?? [], try self.task(machine, second)["depends"] as? [String] ?? []]
    }
    let (linksA, linksB) = (try links(a), try links(b))
    #expect(!(linksA[0].contains(second) && linksA[1].contains(first)), "a cycle is left on A")
    #expect(linksA == linksB, "first: \(first), second: \(second); A: \(linksA), B: \(linksB)")

    // The same with subtasks: A makes Second a subtask of First, B the other way round.
    clock.run(a, "update", second, "parent:\(first)")
    clock.run(b, "update", String(firstOnB), "parent:\(second)")
    sync(a, now: at())
    let parents = sync(b, now: at())
    #expect(parents.stderr.contains("is no longer a subtask"), "\(parents)")
    sync(a, now: at())
    sync(b, now: at())
    let parentOf = { (machine: TodoSandbox) throws -> [String?] in
      [try self.task(machine, first)["parent"] as? String, try self.task(machine, second)["parent"] as? String]
    }
    let (parentsA, parentsB) = (try parentOf(a), try parentOf(b))
    #expect(!(parentsA[0] == second && parentsA[1] == first), "a cycle of parents is left")
    #expect(parentsA == parentsB, "A: \(parentsA), B: \(parentsB)")
    // The server holds what the machines hold, and nothing is pending on either side.
    let held = server.items("tasks").map { server.get($0) }.joined()
    #expect(held.components(separatedBy: "RELTYPE=DEPENDS-ON").count - 1 == 1, "\(held)")
    #expect(held.components(separatedBy: "RELTYPE=PARENT").count - 1 == 1, "\(held)")
    sync(a, now: at())
    for machine in [a, b] {
      let status = try machine("sync", "--status", "--json").jsonObject()
      #expect(status["pending_here"] as? Int == 0 && status["pending_in_vdir"] as? Int == 0, "\(status)")
    }
  }

  /// A longer cycle, closed by two new links (A: R waits for S; B: S waits for P) around links
  /// synced before (P waits for Q, Q for R): one link goes, the greatest by UUID, the same on both
  /// machines and on the server; the other three stay. The tasks' UUIDs are fixed (imported) so
  /// that the link that goes is an old one, P → Q: every machine must make the same choice even
  /// then (a rule sparing "old" links lets two machines that both met the cycle each drop the
  /// other's new link).
  @Test func aLongerCycleLosesTheSameOneLinkEverywhere() throws {
    let (server, machines) = try setUp(machines: 2)
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let clock = MovingClock()
    let at = clock.next
    let (p, q, r, s) = (
      "f0000000-0000-4000-8000-000000000001", "e0000000-0000-4000-8000-000000000002",
      "20000000-0000-4000-8000-000000000003", "10000000-0000-4000-8000-000000000004"
    )
    let lines = [(p, "P"), (q, "Q"), (r, "R"), (s, "S")].map {
      #"{"uuid":"\#($0.0)","title":"\#($0.1)","status":"pending","created":"2026-11-21T09:00:00Z","modified":"2026-11-21T09:00:00Z"}"#
    }
    a.run(["import", "-", "--format", "jsonl", "--yes"], stdin: lines.joined(separator: "\n") + "\n", environment: ["TODO_NOW": at()])
      .expectSuccess()
    clock.run(a, "update", p, "depends:\(q)")
    clock.run(a, "update", q, "depends:\(r)")
    sync(a, now: at())
    sync(b, now: at())
    clock.run(a, "update", r, "depends:\(s)")
    clock.run(b, "update", s, "depends:\(p)")
    sync(a, now: at())
    #expect(sync(b, now: at()).stderr.contains("made a cycle"))
    sync(a, now: at())
    sync(b, now: at())
    for machine in [a, b] {
      let links = try [p, q, r, s].map { try task(machine, $0)["depends"] as? [String] ?? [] }
      // P → Q is the greatest link by UUID (f… → e…): it goes; Q → R, R → S and S → P stay.
      #expect(links == [[], [r], [s], [p]], "\(links)")
    }
    let held = server.items("tasks").map { server.get($0) }.joined()
    #expect(held.components(separatedBy: "RELTYPE=DEPENDS-ON").count - 1 == 3, "\(held)")
  }



  /// A sync cannot be tried out (the server would not roll back): --dry-run is refused and
  /// nothing is merged, written to the vdir or journaled; --status is the way to look first.
  @Test func aSyncRefusesDryRunAndChangesNothing() throws {
    let (server, machines) = try setUp(machines: 1)
    defer { withExtendedLifetime(server) {} }
    let todo = machines[0]
    todo.add("Before the sync")
    for extra in [["--offline"], []] {
      let refused = todo.run(["sync", "--dry-run"] + extra)
      #expect(refused.status == 2, "\(refused)")
      #expect(refused.stderr.contains("sync has no --dry-run; 'todo sync --status' shows"), "\(refused)")
    }
    let files = (try? FileManager.default.contentsOfDirectory(atPath: vdir(todo).path)) ?? []
    #expect(files.filter { $0.hasSuffix(".ics") }.isEmpty, "\(files)")
    #expect(try todo("history", "--json").jsonArray().count == 1)
    let status = todo("sync", "--status", "--dry-run")
    #expect(status.status == 0, "\(status)")
  }

  /// Scenarios 1, 3, 6 and 8: a task added on A reaches B with its UID and fields (all-day and
  /// timed dues, categories with commas); different fields changed on each side both survive;
  /// tags added on both sides join.
  @Test func tasksAndFieldChangesTravelBothWays() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    a("add", "Buy milk", "+shop", "+a,b", "pri:H", "due:2026-12-01", "project:home").expectSuccess()
    a("add", "Call Bob", "due:2026-12-01T17:00:00Z", "wait:2026-11-28").expectSuccess()
    let first = sync(a)
    #expect(first.lines == ["Synced 2 tasks with \(server.url("/alice/tasks/")): 0 added here, 0 updated here, 2 sent."], "\(first)")
    #expect(server.items("tasks").count == 2)
    #expect(sync(b).lines.first?.contains("2 added here") == true)
    // status:all: the waiting task too.
    let fromA = try a("list", "status:all", "--json", "--sort", "title").jsonArray()
    let onB = try b("list", "status:all", "--json", "--sort", "title").jsonArray()
    try #require(onB.count == 2)
    for key in ["uuid", "title", "priority", "project", "tags", "due", "wait", "created"] {
      #expect(fromA.map { "\($0[key] ?? "nil")" } == onB.map { "\($0[key] ?? "nil")" }, "\(key)")
    }
    #expect(onB[0]["tags"] as? [String] == ["a,b", "shop"])
    #expect(onB[0]["due"] as? String == "2026-12-01" && onB[1]["due"] as? String == "2026-12-01T17:00:00Z")

    // A changes the priority, B the title: both keep both. (Ids are each machine's own.)
    let milk = try uuid(a, 1)
    a("update", milk, "pri:L", "+fromA").expectSuccess()
    b("update", milk, "--title", "Buy oat milk", "+fromB").expectSuccess()
    sync(a)
    sync(b)
    sync(a)
    for machine in [a, b] {
      let task = try task(machine, milk)
      #expect(task["title"] as? String == "Buy oat milk" && task["priority"] as? String == "L")
      #expect(task["tags"] as? [String] == ["a,b", "fromA", "fromB", "shop"])
    }
    // A tag removed on one side stays removed.
    b("update", milk, "-fromA").expectSuccess()
    sync(b)
    sync(a)
    #expect(try task(a, milk)["tags"] as? [String] == ["a,b", "fromB", "shop"])
    // Nothing changed: nothing is sent (no churn), and the vdir files stay as they are.
    let before = try FileManager.default.contentsOfDirectory(atPath: vdir(a).path).sorted().map {
      try Data(contentsOf: vdir(a).appendingPathComponent($0))
    }
    #expect(sync(a).lines.first?.hasSuffix("0 added here, 0 updated here, 0 sent.") == true)
    #expect(sync(b).lines.first?.hasSuffix("0 added here, 0 updated here, 0 sent.") == true)
    let after = try FileManager.default.contentsOfDirectory(atPath: vdir(a).path).sorted().map {
      try Data(contentsOf: vdir(a).appendingPathComponent($0))
    }
    #expect(before == after)
    // The sync's changes are one undo step.
    #expect(try a("history", "--json").jsonArray().first?["command"] as? String == "sync")
  }

  /// Scenario 4: both change the title; the later change wins everywhere and the conflict is listed.
  @Test func aFieldChangedOnBothSidesTakesTheLaterChangeAndIsListed() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
    let (a, b) = (machines[0], machines[1])
    a("add", "Original").expectSuccess()
    sync(a)
    sync(b)
    a("update", "1", "--title", "Earlier on A", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    b("update", "1", "--title", "Later on B", environment: ["TODO_NOW": "2026-11-21T11:00:00Z"]).expectSuccess()
    sync(a, now: "2026-11-21T12:00:00Z")
    let merged = sync(b, now: "2026-11-21T12:01:00Z")
    #expect(merged.stdout.contains("1 conflict (todo sync --conflicts)"), "\(merged)")
    sync(a, now: "2026-11-21T12:02:00Z")
    #expect(try a.task(1)["title"] as? String == "Later on B")
    #expect(try b.task(1)["title"] as? String == "Later on B")
    let conflicts = try b("sync", "--conflicts", "--json").jsonArray()
    #expect(conflicts.count == 1)
    #expect(conflicts.first?["field"] as? String == "title")
    #expect(conflicts.first?["kept"] as? String == "Later on B" && conflicts.first?["lost"] as? String == "Earlier on A")
    #expect(conflicts.first?["kept_from"] as? String == "here")
    #expect(b("sync", "--conflicts").stdout.contains("title: kept 'Later on B' (from here), lost 'Earlier on A'"))
  }

  /// Scenario 5 and a deletion on the server: an edit beats a delete; a file deleted on the
  /// server (and not changed here) deletes the task here.
  @Test func anEditBeatsADeleteAndAServerDeletionDeletesHere() throws {
    let (server, machines) = try setUp()
    let (a, b) = (machines[0], machines[1])
    a("add", "Keep me").expectSuccess()
    a("add", "Remove me").expectSuccess()
    a("add", "Third").expectSuccess()
    sync(a)
    sync(b)
    let keep = try uuid(a, 1)
    a("delete", keep, "--yes").expectSuccess()
    b("update", keep, "pri:H").expectSuccess()
    sync(a)
    let edited = sync(b)
    #expect(edited.stderr.contains("was deleted on the server and changed here; the change wins"), "\(edited)")
    sync(a)
    let back = try task(a, keep)
    #expect(back["status"] as? String == "pending" && back["priority"] as? String == "H")
    #expect(try task(b, keep)["status"] as? String == "pending")

    // A client deletes task 2's item on the server (vdirsyncer names a file by its UID).
    let removed = try uuid(a, 2)
    let href = try #require(server.items("tasks").first { $0.contains(removed) })
    let deletion = server.curl(["-X", "DELETE", "-o", "/dev/null", "-w", "%{http_code}", server.url(href)]).output
    #expect(deletion.hasPrefix("2"), "\(deletion)")
    let deleted = sync(a)
    #expect(deleted.stdout.contains("1 deleted here"), "\(deleted)")
    #expect(try task(a, removed)["status"] as? String == "deleted")
    // It stays gone: the next syncs do not send it back.
    sync(a)
    sync(b)
    #expect(try task(b, removed)["status"] as? String == "deleted")
    #expect(server.items("tasks").count == 2)
  }

  /// Scenario 9: deleting most tasks here waits for --force.
  @Test func aSyncThatWouldDeleteMostTasksNeedsForce() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
    let (a, b) = (machines[0], machines[1])
    for title in ["One", "Two", "Three"] { a("add", title).expectSuccess() }
    sync(a)
    sync(b)
    a("delete", "1-3", "--yes").expectSuccess()
    let refused = a("sync")
    #expect(refused.status == 1)
    #expect(refused.errorLines == [
      "todo: error: this sync would delete 3 of 3 tasks on the server; nothing was changed (if that is what you want: todo sync --force)"
    ], "\(refused)")
    sync(b)
    #expect(try titles(b).count == 3, "nothing reached the server")
    sync(a, "--force")
    // The other machine is asked too: it would lose most of its tasks.
    let asked = b("sync")
    #expect(asked.status == 1 && asked.stderr.contains("would delete 3 of 3 tasks here"), "\(asked)")
    sync(b, "--force")
    #expect(try titles(b).isEmpty)
  }

  /// Scenario 10: undoing a change that was already synced sends the undo as a change.
  @Test func undoAfterASyncReachesTheOtherMachine() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
    let (a, b) = (machines[0], machines[1])
    a("add", "Plain title", "pri:M").expectSuccess()
    sync(a)
    sync(b)
    a("update", "1", "--title", "Changed title", "pri:H").expectSuccess()
    sync(a)
    sync(b)
    #expect(try b.task(1)["title"] as? String == "Changed title")
    a("undo").expectSuccess()
    sync(a)
    sync(b)
    let task = try b.task(1)
    #expect(task["title"] as? String == "Plain title" && task["priority"] as? String == "M")
  }

  /// Scenario 11: the same recurring instance completed on both machines before either syncs:
  /// one next instance everywhere (its UUID is the same on both).
  @Test func aRecurringTaskCompletedOnBothSidesMakesOneNextInstance() throws {
    let (server, machines) = try setUp()
    let (a, b) = (machines[0], machines[1])
    a("add", "Water plants", "due:2026-11-22", "recur:weekly").expectSuccess()
    sync(a)
    sync(b)
    a("done", "1", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    b("done", "1", environment: ["TODO_NOW": "2026-11-21T11:00:00Z"]).expectSuccess()
    sync(a, now: "2026-11-21T12:00:00Z")
    sync(b, now: "2026-11-21T12:01:00Z")
    sync(a, now: "2026-11-21T12:02:00Z")
    for machine in [a, b] {
      let all = try machine("list", "status:all", "--json", "--sort", "id").jsonArray()
      #expect(all.count == 2, "\(all)")
      #expect(all.filter { $0["status"] as? String == "pending" }.compactMap { $0["due"] as? String } == ["2026-11-29"])
    }
    #expect(server.items("tasks").count == 2)
  }

  /// Scenario 7: what todo does not model (a phone's alarm, sort order, a parent link to an item
  /// todo never saw) stays on the server, line for line, when A edits the title.
  @Test func propertiesTodoDoesNotModelStayOnTheServer() throws {
    let (server, machines) = try setUp(machines: 1)
    let a = machines[0]
    let item = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-7@example.org",
      "DTSTAMP:20261120T080000Z", "LAST-MODIFIED:20261120T080000Z", "SUMMARY:From the phone", "X-APPLE-SORT-ORDER:123456",
      "RELATED-TO;RELTYPE=PARENT:unknown-parent@example.org", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M",
      "DESCRIPTION:Reminder", "END:VALARM", "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"
    let put = server.curl([
      "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", item, "-w", "%{http_code}", server.url("/alice/tasks/phone-7.ics"),
    ])
    #expect(put.output.hasPrefix("2"), "\(put)")
    let before = server.get("/alice/tasks/phone-7.ics")
    sync(a)
    #expect(try titles(a) == ["From the phone"])
    a("update", "1", "--title", "Edited on A").expectSuccess()
    sync(a)
    let after = server.get("/alice/tasks/phone-7.ics")
    #expect(server.items("tasks") == ["/alice/tasks/phone-7.ics"], "the item keeps its name")
    func kept(_ text: String) -> [String] {
      text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init).filter { line in
        !["SUMMARY", "LAST-MODIFIED", "DTSTAMP", "SEQUENCE", "PRODID", "CREATED", "STATUS", "X-TODO"].contains { line.hasPrefix($0) }
      }.sorted()
    }
    #expect(after.contains("SUMMARY:Edited on A"), "\(after)")
    #expect(kept(after) == kept(before), "\(before)\n----\n\(after)")

    // The parent arrives later: the task is linked to it, and the item keeps its line.
    let parent = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:unknown-parent@example.org",
      "DTSTAMP:20261120T080000Z", "SUMMARY:The parent", "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"
    server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", parent, "-o", "/dev/null", server.url("/alice/tasks/parent.ics")])
    sync(a)
    let child = try a.task(1)
    #expect(child["title"] as? String == "Edited on A")
    #expect(child["parent_id"] as? Int == 2, "\(child)")
    sync(a)
    #expect(server.get("/alice/tasks/phone-7.ics").contains("RELATED-TO;RELTYPE=PARENT:unknown-parent@example.org"))

    // A link to an item that is never here, removed here: the server's item loses it too.
    let orphan = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-8@example.org",
      "DTSTAMP:20261120T080000Z", "SUMMARY:Orphan", "RELATED-TO;RELTYPE=PARENT:nowhere@example.org", "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"
    server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", orphan, "-o", "/dev/null", server.url("/alice/tasks/phone-8.ics")])
    sync(a)
    a("update", "3", "parent:").expectSuccess()
    sync(a)
    let unlinked = server.get("/alice/tasks/phone-8.ics")
    #expect(unlinked.contains("SUMMARY:Orphan") && !unlinked.contains("RELATED-TO"), "\(unlinked)")
  }

  /// Scenario 2: todoman, with its own vdir and vdirsyncer, adds a task: A and B get it with its
  /// foreign UID; A's change reaches todoman.
  @Test func aTaskTodomanAddsReachesBothMachines() throws {
    try #require(TodoSandbox.hasTool("todoman"), "make test installs todoman")
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let phone = try TodoSandbox()
    let root = phone.folder.appendingPathComponent("calendars").path
    try FileManager.default.createDirectory(atPath: root + "/tasks", withIntermediateDirectories: true)
    try """
      [general]
      status_path = "\(phone.folder.path)/status/"
      [pair phone]
      a = "phone_local"
      b = "phone_remote"
      collections = null
      [storage phone_local]
      type = "filesystem"
      path = "\(root)/tasks/"
      fileext = ".ics"
      [storage phone_remote]
      type = "caldav"
      url = "\(server.url("/alice/tasks/"))"
      """.write(toFile: phone.folder.path + "/vdirsyncer.conf", atomically: true, encoding: .utf8)
    try """
      path = "\(root)/*"
      date_format = "%Y-%m-%d"
      default_list = "tasks"
      cache_path = "\(phone.folder.path)/todoman-cache.sqlite3"
      color = "never"
      """.write(toFile: phone.folder.path + "/todoman.py", atomically: true, encoding: .utf8)
    let vdirsyncer = "VDIRSYNCER_CONFIG=\(phone.folder.path)/vdirsyncer.conf vdirsyncer"
    let todoman = "todoman -c \(phone.folder.path)/todoman.py"
    let made = phone.shell(
      "\(vdirsyncer) discover phone && \(todoman) new --priority high --due 2026-12-24 'Wrap presents' && \(vdirsyncer) sync phone",
      environment: ["TZ": "UTC"])
    #expect(made.status == 0, "\(made)")
    sync(a)
    sync(b)
    for machine in [a, b] {
      let task = try machine.task(1)
      #expect(task["title"] as? String == "Wrap presents" && task["priority"] as? String == "H" && task["due"] as? String == "2026-12-24")
    }
    let exported = a("export", "--format", "ical").stdout
    let uid = try #require(exported.firstMatch(of: #/UID:([^\r\n]+)/#)).output.1
    let phoneFile = try #require(try FileManager.default.contentsOfDirectory(atPath: root + "/tasks").first)
    #expect(try String(contentsOfFile: root + "/tasks/" + phoneFile, encoding: .utf8).contains("UID:\(uid)"))
    // A completes it; todoman sees it done.
    a("done", "1").expectSuccess()
    sync(a)
    let seen = phone.shell("\(vdirsyncer) sync phone && \(todoman) --porcelain list --status ANY", environment: ["TZ": "UTC"])
    #expect(seen.status == 0, "\(seen)")
    let items = try #require(try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [[String: Any]])
    #expect(items.first?["completed"] as? Bool == true, "\(seen)")
  }

  /// Scenario 12 and 13: `todo list` in a loop while A syncs never meets a locked database; and
  /// syncs killed at random moments leave a sound database, and the next sync converges.
  @Test func listingDuringASyncAndKilledSyncs() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
    let (a, b) = (machines[0], machines[1])
    for index in 1...30 { a("add", "Task \(index)", "+t\(index % 3)").expectSuccess() }
    let running = a.launch(TodoSandbox.binary!, ["sync"])
    var lists = 0
    while running.process?.isRunning == true && lists < 200 {
      let listed = a("list", "--json")
      #expect(listed.status == 0 && !listed.stderr.contains("locked"), "\(listed)")
      lists += 1
    }
    #expect(running.wait().status == 0)
    #expect(lists > 0)
    sync(b)
    var generator = SystemRandomNumberGenerator()
    for round in 0..<6 {
      b("update", "\(round + 1)", "--title", "Round \(round)").expectSuccess()
      let killed = b.launch(TodoSandbox.binary!, ["sync"])
      usleep(UInt32.random(in: 50_000...900_000, using: &generator))
      if let process = killed.process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
      _ = killed.wait()
      #expect(b.shell("sqlite3 \"$TODO_DB\" 'PRAGMA integrity_check'").stdout == "ok\n")
    }
    // A vdirsyncer left running by a killed sync holds the lock until it ends.
    var waited = 0
    while b("sync").stderr.contains("another todo sync") && waited < 100 {
      usleep(100_000)
      waited += 1
    }
    sync(b)
    sync(a)
    sync(b)
    #expect(try titles(a) == (try titles(b)))
    #expect(try titles(a).filter { $0.hasPrefix("Round") }.count == 6)
  }

  /// Two syncs of one machine started at once: one runs; the other either says another sync is
  /// running (exit 1, having changed nothing) or runs after it. Nothing is lost or doubled on
  /// either machine, and the next syncs converge.
  @Test func twoSyncsOfOneMachineAtOnceRunOneAtATime() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
    let (a, b) = (machines[0], machines[1])
    for index in 1...20 { a("add", "Task \(index)").expectSuccess() }
    let runs = [a.launch(TodoSandbox.binary!, ["sync"]), a.launch(TodoSandbox.binary!, ["sync"])].map { $0.wait() }
    #expect(runs.contains { $0.status == 0 }, "\(runs)")
    for run in runs where run.status != 0 {
      #expect(run.status == 1 && run.stderr.contains("another todo sync of"), "\(run)")
    }
    #expect(a.shell("sqlite3 \"$TODO_DB\" 'PRAGMA integrity_check'").stdout == "ok\n")
    sync(a)
    sync(b)
    #expect(try Set(titles(a)) == Set((1...20).map { "Task \($0)" }) && titles(a).count == 20)
    #expect(try titles(b) == (try titles(a)))
  }

  /// vdirsyncer's conflict command: an item changed here (merged into the vdir, not yet sent) and
  /// on the server is merged field by field against the copy both last agreed on; a title
  /// changed on both sides is recorded as a conflict on this side too.
  @Test func theConflictCommandMergesAgainstTheCopyBothSidesHad() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    a("add", "Shared", "pri:L").expectSuccess()
    sync(a)
    sync(b)
    let shared = try uuid(a, 1)
    // A's change reaches its vdir only (vdirsyncer not run); B's reaches the server.
    a("update", shared, "--title", "Title from A", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    #expect(sync(a, "--offline").stdout.contains("1 sent"))
    b("update", shared, "pri:H", environment: ["TODO_NOW": "2026-11-21T10:30:00Z"]).expectSuccess()
    sync(b)
    // vdirsyncer finds the item changed on both sides and runs todo sync --resolve.
    sync(a, now: "2026-11-21T11:00:00Z")
    sync(b, now: "2026-11-21T11:01:00Z")
    for machine in [a, b] {
      let task = try task(machine, shared)
      #expect(task["title"] as? String == "Title from A" && task["priority"] as? String == "H", "\(task)")
    }
    // Both sides change the title: the resolver keeps the later and records the other.
    a("update", shared, "--title", "Later on A", environment: ["TODO_NOW": "2026-11-21T12:30:00Z"]).expectSuccess()
    sync(a, "--offline", now: "2026-11-21T12:30:00Z")
    b("update", shared, "--title", "Earlier on B", environment: ["TODO_NOW": "2026-11-21T12:00:00Z"]).expectSuccess()
    sync(b, now: "2026-11-21T12:40:00Z")
    sync(a, now: "2026-11-21T12:50:00Z")
    sync(b, now: "2026-11-21T12:51:00Z")
    #expect(try task(a, shared)["title"] as? String == "Later on A")
    #expect(try task(b, shared)["title"] as? String == "Later on A")
    let conflicts = try a("sync", "--conflicts", "--json").jsonArray()
    #expect(conflicts.first?["lost"] as? String == "Earlier on B", "\(conflicts)")
  }

  /// A broken item on the server is named and skipped, not fatal; an item deleted on the server
  /// and put back restores its task; a purge of most tasks waits for --force; --status counts.
  @Test func brokenItemsRestoredItemsPurgesAndStatus() throws {
    let (server, machines) = try setUp(machines: 1)
    let a = machines[0]
    let empty = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "BEGIN:VTODO", "UID:empty-1@example.org", "SUMMARY:", "END:VTODO", "END:VCALENDAR"]
      .joined(separator: "\r\n") + "\r\n"
    let put = server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", empty, "-o", "/dev/null", "-w", "%{http_code}", server.url("/alice/tasks/empty.ics")])
    #expect(put.output.hasPrefix("2"), "\(put)")
    for title in ["One", "Two", "Three"] { a("add", title).expectSuccess() }
    let first = sync(a)
    #expect(first.stdout.contains("1 files skipped"), "\(first)")
    #expect(first.stderr.contains("skipped ") && first.stderr.contains("title"), "\(first)")
    #expect(try titles(a) == ["One", "Three", "Two"])

    // Deleted on the server, then put back: deleted here, then back here.
    let one = try uuid(a, 1)
    let href = try #require(server.items("tasks").first { $0.contains(one) })
    let item = server.get(href)
    server.curl(["-X", "DELETE", "-o", "/dev/null", server.url(href)])
    #expect(sync(a).stdout.contains("1 deleted here"))
    #expect(try task(a, one)["status"] as? String == "deleted")
    server.curl(["-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", item, "-o", "/dev/null", server.url(href)])
    sync(a)
    #expect(try task(a, one)["status"] as? String == "pending")

    // --status: a change here and a file changed in the vdir, without the network.
    a("update", one, "pri:H").expectSuccess()
    #expect(a("sync", "--status").lines == [
      "1 task changed here and 0 files changed in the vdir since the last sync (changes on \(server.url("/alice/tasks/")) show after todo sync)."
    ])
    sync(a)

    // Deleting and purging most tasks: the server would lose them, so --force is needed.
    a("delete", "1-3", "--yes").expectSuccess()
    a("purge", "--yes").expectSuccess()
    let refused = a("sync")
    #expect(refused.status == 1 && refused.stderr.contains("would delete 3 of 3 tasks on the server"), "\(refused)")
    #expect(server.items("tasks").count == 4)
    sync(a, "--force")
    #expect(server.items("tasks") == ["/alice/tasks/empty.ics"])
  }

  /// Clocks started on two machines: one task is active after the sync, the other's clock
  /// stopped when the later one started.
  @Test func clocksStartedOnTwoMachinesLeaveOneRunning() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    a("add", "Write").expectSuccess()
    a("add", "Read").expectSuccess()
    sync(a)
    sync(b)
    let (write, read) = (try uuid(a, 1), try uuid(a, 2))
    a("start", "1", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    b("start", read, environment: ["TODO_NOW": "2026-11-21T10:30:00Z"]).expectSuccess()
    sync(a, now: "2026-11-21T11:00:00Z")
    let merged = sync(b, now: "2026-11-21T11:01:00Z")
    #expect(merged.stderr.contains("were both started"), "\(merged)")
    sync(a, now: "2026-11-21T11:02:00Z")
    for machine in [a, b] {
      #expect(try task(machine, read)["active"] as? Bool == true)
      let stopped = try task(machine, write)
      #expect(stopped["active"] as? Bool == false)
      let intervals = try #require(stopped["intervals"] as? [[String: Any]])
      #expect(intervals.last?["end"] as? String == "2026-11-21T10:30:00Z", "\(intervals)")
    }
  }

  /// Clear errors: not set up, a server that does not answer, the conflict command's own use.
  @Test func errorsAreClear() throws {
    let todo = try TodoSandbox()
    let unset = todo("sync")
    #expect(unset.status == 1)
    #expect(unset.errorLines == ["todo: error: sync is not set up; run: todo sync --setup URL --user NAME (see todo help sync)"])
    #expect(todo("sync", "--setup", "ftp://x").status == 2)
    #expect(todo("sync", "--user", "x").status == 2)
    #expect(todo("sync", "extra").status == 2)
    let port = 1  // nothing listens on port 1
    let unreachable = todo("sync", "--setup", "http://127.0.0.1:\(port)/alice/tasks/")
    #expect(unreachable.status == 1)
    #expect(unreachable.errorLines.first?.hasPrefix("todo: error: cannot reach the server (http://127.0.0.1:\(port)/alice/tasks/)") == true, "\(unreachable)")
    #expect(!FileManager.default.fileExists(atPath: todo.folder.path + "/.config/todo/vdirsyncer/config"), "a failed setup is not kept")
  }

  /// A configuration an earlier todo wrote with vdirsyncer's own prompt is brought, once, to
  /// todo's question (the rest of the file byte for byte), with a warning.
  @Test func anEarlierSetupsPasswordPromptIsBroughtToTodosQuestion() throws {
    let todo = try TodoSandbox()
    let config = todo.folder.appendingPathComponent(".config/todo/vdirsyncer/config")
    try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
    let vdir = todo.folder.appendingPathComponent(".local/share/todo/vdir/tasks/").path
    let lines = [
      "# Written by `todo sync --setup`; `todo sync` runs vdirsyncer with it.", "[storage todo_local]", "type = \"filesystem\"",
      "path = \"\(vdir)\"", "[storage todo_remote]", "url = \"https://x/\"", "username = \"ann\"",
    ]
    try (lines + [#"password.fetch = ["prompt", "Password for ann at https://x/"]"#]).joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
    let status = todo("sync", "--status")
    #expect(status.status == 0 && status.errorLines.first?.hasPrefix("todo: warning: \(config.path) now has todo ask for the password") == true, "\(status)")
    let upgraded = try String(contentsOf: config, encoding: .utf8)
    #expect(upgraded.hasPrefix(lines.joined(separator: "\n") + "\n"), "\(upgraded)")
    #expect(upgraded.hasSuffix(#"sync", "--ask-password", "Password for ann at https://x/"]"#), "\(upgraded)")
    let again = todo("sync", "--status")
    #expect(again.status == 0 && again.stderr.isEmpty, "once: \(again)")
  }

  /// Without --password-command, todo asks for the password on the terminal itself, without echo,
  /// once a sync (vdirsyncer runs twice), even when the output goes to files; a wrong one is
  /// refused and nothing is set up; with no terminal at all, the sync stops before it starts.
  @Test func withoutAPasswordCommandTodoAsksOnTheTerminalOnceASync() throws {
    try #require(tmuxIsInstalled, "tmux is not installed; 'make test' installs it (apt-get install -y tmux)")
    let password = "s3cret pass"
    let server = try RadicaleServer(password: password)
    defer { withExtendedLifetime(server) {} }
    try server.makeCollection("tasks")
    let sandbox = try ShellSandbox()
    let terminal = ShellTerminal(sandbox: sandbox)
    defer {
      terminal.close()
      sandbox.remove()
    }
    let url = server.url("/alice/tasks/")
    let question = "Password for alice at \(url):"
    let config = sandbox.root.appendingPathComponent("config/todo/vdirsyncer/config").path
    /// The screen after the last `marker` line.
    func after(_ marker: String) -> String {
      let screen = terminal.screen()
      guard let range = screen.range(of: marker, options: .backwards) else { return "" }
      return String(screen[range.upperBound...])
    }
    try terminal.startProgram("bash --norc --noprofile")
    for (round, answer) in ["wrong", password].enumerated() {
      try terminal.type("echo mark-\(round); todo sync --setup \(url) --user alice; echo status=$?")
      try terminal.press("Enter")
      #expect(terminal.waitForScreen(timeout: 15) { _ in after("mark-\(round)").contains(question) }, "\(terminal.screen())")
      try terminal.type(answer)
      try terminal.press("Enter")
      let status = round == 0 ? "status=1" : "status=0"
      #expect(terminal.waitForScreen(timeout: 30) { _ in after("mark-\(round)").contains(status) }, "\(terminal.screen())")
      #expect(!terminal.screen().contains(answer), "the password is not echoed:\n\(terminal.screen())")
      if round == 0 {
        #expect(after("mark-0").contains("refused the user name or password"), "\(terminal.screen())")
        #expect(!FileManager.default.fileExists(atPath: config), "a refused setup is not kept")
      }
    }
    let written = try String(contentsOfFile: config, encoding: .utf8)
    #expect(!written.contains(password) && written.contains("--ask-password"), "\(written)")

    // A sync that sends something runs vdirsyncer twice; the question comes once, on the
    // terminal, while standard output and error go to files.
    #expect(try sandbox.run(["add", "Buy milk"]).status == 0)
    let out = sandbox.root.appendingPathComponent("out.json").path
    let err = sandbox.root.appendingPathComponent("err.txt").path
    try terminal.type("echo mark-sync; todo sync --json >'\(out)' 2>'\(err)'; echo status=$?")
    try terminal.press("Enter")
    #expect(terminal.waitForScreen(timeout: 15) { _ in after("mark-sync").contains(question) }, "\(terminal.screen())")
    try terminal.type(password)
    try terminal.press("Enter")
    #expect(terminal.waitForScreen(timeout: 30) { _ in after("mark-sync").contains("status=") }, "\(terminal.screen())")
    #expect(after("mark-sync").contains("status=0"), "\(terminal.screen())\n\((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
    #expect(after("mark-sync").components(separatedBy: question).count == 2, "asked once:\n\(terminal.screen())")
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
    #expect((report?["sent"] as? [Any])?.count == 1, "\(String(describing: report))")
    #expect(server.items("tasks").count == 1, "the task reached the server")

    // No terminal (a cron job): a clear error at once, nothing run.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
    process.arguments = ["-w", ShellSandbox.binary.path, "sync"]
    process.environment = sandbox.environment
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(message)")
    #expect(message.hasPrefix("todo: error: the server needs a password and there is no terminal to ask for it on"), "\(message)")
  }
}
