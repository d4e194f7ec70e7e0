import Foundation
import TestSupport
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
    try #require(
      TodoSandbox.hasTool("radicale") && TodoSandbox.hasTool("vdirsyncer") && TodoSandbox.hasTool("curl"),
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
@Suite(.timeLimit(.minutes(30))) struct EndToEndSyncTests {
  /// A server with a collection, and machines set up to sync with it.
  private func setUp(machines count: Int = 2) throws -> (RadicaleServer, [TodoSandbox]) {
    let server = try RadicaleServer()
    try server.makeCollection("tasks")
    var machines: [TodoSandbox] = []
    for _ in 0..<count {
      let todo = try TodoSandbox(inProcess: false)
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

  /// The item files of a vdir folder (`.ics`, not hidden), sorted.
  private func icsFiles(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted()
  }

  /// Where `needle` first occurs in `bytes` (byte for byte), from `start` on; nil when nowhere.
  private func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
    guard !needle.isEmpty else { return start }
    var index = start
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }

  /// The first content line of an item that starts with `prefix`, as raw bytes: with its folds
  /// (CRLF and a space) and its closing CRLF.
  private func rawLine(_ prefix: String, in bytes: [UInt8]) -> [UInt8]? {
    guard let found = find(Array(("\n" + prefix).utf8), in: bytes) else { return nil }
    let start = found + 1
    var end = start
    while let lineEnd = find([13, 10], in: bytes, from: end) {
      end = lineEnd + 2
      if end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09) { continue }
      return Array(bytes[start..<end])
    }
    return nil
  }

  /// A component of an item as raw bytes, from its `begin` line through its `end` line's CRLF.
  private func rawBlock(_ begin: String, _ end: String, in bytes: [UInt8]) -> [UInt8]? {
    guard let found = find(Array(("\n" + begin + "\r\n").utf8), in: bytes),
      let last = find(Array(("\n" + end + "\r\n").utf8), in: bytes, from: found)
    else { return nil }
    return Array(bytes[(found + 1)..<(last + 1 + end.utf8.count + 2)])
  }

  private func titles(_ todo: TodoSandbox, _ filter: String = "status:pending") throws -> [String] {
    try todo("list", filter, "--sort", "title", "--json").jsonArray().compactMap { $0["title"] as? String }
  }

  /// Issue 14: a sync stopped (SIGKILL, SIGINT, SIGTERM) at random moments, vdirsyncer with it,
  /// leaves the database whole, until 10 stops have landed while it ran; the next sync finishes,
  /// and afterwards both machines and the server hold every task exactly once, with the last
  /// change.
  @Test(arguments: [SIGKILL, SIGINT, SIGTERM]) func aSyncStoppedAtAnyMomentLeavesEverythingWholeAndTheNextSyncConverges(signal: Int32) throws {
    let (server, machines) = try setUp(machines: 2)
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let count = 60
    a("shell", stdin: (1...count).map { "add Task \($0) +crash\n" }.joined()).expectSuccess()
    // The moments are drawn from the time one whole sync with work to do takes.
    a("update", "--where", "+crash", "--title", "Task before", "--yes").expectSuccess()
    let started = Date()
    sync(a)
    var window = Int(Date().timeIntervalSince(started) * 1_000_000)
    let seed = UInt64.random(in: 1...UInt64.max)
    var random = SeededGenerator(seed: seed)
    var landed = 0
    var round = 0
    while landed < 10 && round < 40 {
      round += 1
      // A change to every task each round, so that each sync has work to do.
      a("update", "--where", "+crash", "--title", "Task of round \(round)", "--yes").expectSuccess()
      let launched = Date()
      let run = a.launch(TodoSandbox.binary!, ["sync"])
      usleep(useconds_t(random.next(below: window)))
      if let process = run.process, process.isRunning { kill(process.processIdentifier, signal) }
      let result = run.wait()
      if result.status == 128 + signal {
        landed += 1
      } else {
        #expect(result.status == 0, "round \(round): \(result)")
        // Finished before the stop (the measured sync was slower than this one, on a loaded
        // machine): draw the next moments from this sync's time.
        window = max(10_000, min(window, Int(Date().timeIntervalSince(launched) * 1_000_000)))
      }
      stopStrays(of: a)
      #expect(a.shell("sqlite3 \"$TODO_DB\" 'PRAGMA integrity_check'").stdout == "ok\n", "round \(round)")
      #expect(a("list", "--limit", "1").status == 0, "the next command works after round \(round)")
    }
    #expect(landed >= 10, "\(landed) of \(round) stops landed in the sync (seed \(seed))")
    sync(a)
    sync(b)
    for machine in [a, b] {
      let titles = try titles(machine, "+crash")
      #expect(titles.count == count, "\(titles.count) tasks")
      #expect(Set(titles) == ["Task of round \(round)"], "\(Set(titles))")
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
    #expect(try todo("journal", "--json").jsonArray().count == 1)
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
    #expect(try a("journal", "--json").jsonArray().first?["command"] as? String == "sync")
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
    #expect(
      refused.errorLines == [
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

  /// A vdir emptied behind todo's back (the folder wiped or moved) is never carried to the
  /// server, not even with --force: every task stays here and on the server.
  @Test func aVdirEmptiedBehindTodosBackNeverEmptiesTheServer() throws {
    let (server, machines) = try setUp(machines: 1)
    defer { withExtendedLifetime(server) {} }
    let a = machines[0]
    for title in ["One", "Two", "Three"] { a("add", title).expectSuccess() }
    sync(a)
    #expect(server.items("tasks").count == 3)
    for name in try FileManager.default.contentsOfDirectory(atPath: vdir(a).path) {
      try FileManager.default.removeItem(at: vdir(a).appendingPathComponent(name))
    }
    let before = a.snapshot()
    for arguments in [["sync"], ["sync", "--force"]] {
      let run = a.run(arguments)
      #expect(run.status == 1, "\(run)")
      #expect(run.stderr.contains("the vdir has no item left, so vdirsyncer stopped rather than delete every item on the server"), "\(run)")
      #expect(server.items("tasks").count == 3, "\(arguments) emptied the server")
      #expect(a.snapshot() == before, "\(arguments) changed the tasks here")
    }
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

  /// Scenario 7: what todo does not model (a phone's alarm, sort order, a long note of its own,
  /// a parent link to an item todo never saw) stays on the server byte for byte when A edits the
  /// title: each line and the alarm block identical (CRLF and folding included), in their order.
  @Test func propertiesTodoDoesNotModelStayOnTheServer() throws {
    let (server, machines) = try setUp(machines: 1)
    let a = machines[0]
    // Longer than 75 octets, so folded on the wire, with two-byte characters in it. (No comma:
    // Radicale's vobject reads an unknown property's commas as a list and keeps the first part.)
    let note =
      "X-PHONE-NOTE:A note from the phone that runs past the seventy-five octets of one line (café crème) and goes on for a while longer still"
    let item =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-7@example.org",
        "DTSTAMP:20261120T080000Z", "LAST-MODIFIED:20261120T080000Z", "SUMMARY:From the phone", "X-APPLE-SORT-ORDER:123456", note,
        "RELATED-TO;RELTYPE=PARENT:unknown-parent@example.org", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M",
        "DESCRIPTION:Reminder", "END:VALARM", "END:VTODO", "END:VCALENDAR",
      ].joined(separator: "\r\n") + "\r\n"
    let put = server.curl([
      "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", item, "-w", "%{http_code}", server.url("/alice/tasks/phone-7.ics"),
    ])
    #expect(put.output.hasPrefix("2"), "\(put)")
    // Radicale stores every item in its own canonical form (properties sorted by name, the alarm
    // among them, lines folded at 75 octets, CRLF): that form is what other clients get, and
    // what must come back.
    let before = Array(server.get("/alice/tasks/phone-7.ics").utf8)
    let alarm = try #require(rawBlock("BEGIN:VALARM", "END:VALARM", in: before), "\(String(decoding: before, as: UTF8.self))")
    let related = try #require(rawLine("RELATED-TO;RELTYPE=PARENT:unknown-parent@example.org", in: before))
    let sortOrder = try #require(rawLine("X-APPLE-SORT-ORDER:123456", in: before))
    let longNote = try #require(rawLine("X-PHONE-NOTE:", in: before))
    #expect(find([13, 10, 32], in: longNote) != nil, "the note is folded: \(String(decoding: longNote, as: UTF8.self))")
    let kept = [related, alarm, sortOrder, longNote]
    sync(a)
    #expect(try titles(a) == ["From the phone"])
    a("update", "1", "--title", "Edited on A").expectSuccess()
    sync(a)
    let afterText = server.get("/alice/tasks/phone-7.ics")
    let after = Array(afterText.utf8)
    #expect(server.items("tasks") == ["/alice/tasks/phone-7.ics"], "the item keeps its name")
    #expect(afterText.contains("SUMMARY:Edited on A"), "\(afterText)")
    // On the server: each kept line and the alarm block byte for byte, in the order they had.
    let placesBefore = kept.map { find($0, in: before) }
    let placesAfter = kept.map { find($0, in: after) }
    for (index, piece) in kept.enumerated() {
      #expect(placesAfter[index] != nil, "missing on the server:\n\(String(decoding: piece, as: UTF8.self))\n----\n\(afterText)")
    }
    let order = kept.indices.sorted { (placesBefore[$0] ?? 0) < (placesBefore[$1] ?? 0) }
    #expect(order.map { placesAfter[$0] ?? -1 } == order.map { placesAfter[$0] ?? -1 }.sorted(), "\(afterText)")
    // In A's vdir, the file todo wrote (before Radicale's rewrite). The writer (ICalendar.Writer)
    // writes its own properties first; a RELATED-TO to an item that is not here in the links'
    // place; then the kept lines, last in the to-do: the to-do's own properties in the order they
    // were read, then its sub-components (the alarm) in theirs. Kept lines are stored unfolded and
    // folded again at 75 octets, never inside a character: where Radicale folds them too, so the
    // raw bytes are the same.
    let files = icsFiles(vdir(a).path)
    try #require(files.count == 1, "\(files)")
    let written = try Array(Data(contentsOf: vdir(a).appendingPathComponent(files[0])))
    let writtenText = String(decoding: written, as: UTF8.self)
    let summary = try #require(find(Array("\r\nSUMMARY:Edited on A\r\n".utf8), in: written), "\(writtenText)")
    #expect((find(related, in: written) ?? -1) > summary, "\(writtenText)")
    #expect(find(sortOrder + longNote + alarm + Array("END:VTODO\r\n".utf8), in: written) != nil, "\(writtenText)")
    #expect(!writtenText.contains("From the phone"), "\(writtenText)")

    // The parent arrives later: the task is linked to it, and the item keeps its line.
    let parent =
      [
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
    let orphan =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:phone-8@example.org",
        "DTSTAMP:20261120T080000Z", "SUMMARY:Orphan", "RELATED-TO;RELTYPE=PARENT:nowhere@example.org", "END:VTODO", "END:VCALENDAR",
      ].joined(separator: "\r\n") + "\r\n"
    server.curl([
      "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", orphan, "-o", "/dev/null", server.url("/alice/tasks/phone-8.ics"),
    ])
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
    let phone = try TodoSandbox(inProcess: false)
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
    // The foreign UID (todoman's HEX@HOST, its file HEX@HOST.ics) is kept on both machines.
    let phoneFiles = icsFiles(root + "/tasks")
    try #require(phoneFiles.count == 1, "\(phoneFiles)")
    let phoneFile = phoneFiles[0]
    let phoneText = try String(contentsOfFile: root + "/tasks/" + phoneFile, encoding: .utf8)
    let uidLine = try #require(phoneText.split(whereSeparator: \.isNewline).first { $0.hasPrefix("UID:") }, "\(phoneText)")
    let uid = String(uidLine.dropFirst(4))
    #expect(uid.contains("@") && phoneFile == uid + ".ics", "todoman names its file by the UID: \(phoneFile), \(uid)")
    for machine in [a, b] {
      let exported = machine("export", "--format", "ical").stdout.replacingOccurrences(of: "\r\n ", with: "")
      #expect(exported.contains("UID:\(uid)\r\n"), "\(exported)")
    }
    // File names: vdirsyncer (0.19) names an item it copies to a storage after its UID only when
    // the UID is made of letters, digits and `_.-+`; todoman's has an `@`, so the server's href and
    // each machine's vdir file get a name vdirsyncer picks (it is not todoman's HEX@HOST.ics).
    // What todo owns is that a name, once given, is kept: an edit here rewrites the same file, and
    // the server keeps the item at its href (no second item); todoman's file keeps its name too.
    let hrefs = server.items("tasks")
    try #require(hrefs.count == 1, "\(hrefs)")
    let (namesA, namesB) = (icsFiles(vdir(a).path), icsFiles(vdir(b).path))
    #expect(namesA.count == 1 && namesB.count == 1, "A: \(namesA), B: \(namesB)")
    a("update", "1", "--title", "Wrap all presents").expectSuccess()
    sync(a)
    sync(b)
    #expect(server.items("tasks") == hrefs, "the item keeps its href")
    #expect(server.get(hrefs.first ?? "").contains("SUMMARY:Wrap all presents"))
    #expect(icsFiles(vdir(a).path) == namesA && icsFiles(vdir(b).path) == namesB, "\(icsFiles(vdir(a).path)) \(icsFiles(vdir(b).path))")
    #expect(try b.task(1)["title"] as? String == "Wrap all presents")
    // A completes it; todoman sees it done, in the file it wrote.
    a("done", "1").expectSuccess()
    sync(a)
    #expect(server.items("tasks") == hrefs, "the item keeps its href")
    #expect(icsFiles(vdir(a).path) == namesA)
    let seen = phone.shell("\(vdirsyncer) sync phone && \(todoman) --porcelain list --status ANY", environment: ["TZ": "UTC"])
    #expect(seen.status == 0, "\(seen)")
    let items = try #require(try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [[String: Any]])
    #expect(items.count == 1 && items.first?["completed"] as? Bool == true, "\(seen)")
    #expect(items.first?["summary"] as? String == "Wrap all presents", "\(seen)")
    #expect(icsFiles(root + "/tasks") == [phoneFile], "todoman's file keeps its name")
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

  /// With hooks.sync on, what the server brings goes through on-add, and what it changes
  /// through on-modify; what a hook changes is this side's change, sent at the next sync.
  @Test func hooksSeeWhatASyncBringsWhenAskedTo() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let hooks = b.folder.appendingPathComponent(".config/todo/hooks")
    try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
    for (name, text) in [
      (
        "on-add.log",
        """
        #!/usr/bin/env python3
        import json, os, sys
        task = json.loads(sys.stdin.readline())
        open(os.environ["HOME"] + "/hooked", "a").write("add " + task["description"] + "\\n")
        task.setdefault("tags", []).append("fromserver")
        print(json.dumps(task))
        """
      ),
      (
        "on-modify.log",
        """
        #!/usr/bin/env python3
        import json, os, sys
        old = json.loads(sys.stdin.readline())
        new = json.loads(sys.stdin.readline())
        open(os.environ["HOME"] + "/hooked", "a").write("modify " + old["description"] + " -> " + new["description"] + "\\n")
        print(json.dumps(new))
        """
      ),
    ] {
      let path = hooks.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      chmod(path, 0o700)
    }
    let log = b.folder.appendingPathComponent("hooked").path
    a("add", "Quiet one").expectSuccess()
    sync(a)
    // Off by default.
    sync(b)
    #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "") == "")
    b("config", "set", "hooks.sync", "on").expectSuccess()
    a("add", "Buy milk").expectSuccess()
    a("update", "1", "--title", "Quiet one, renamed", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    sync(a, now: "2026-11-21T10:00:00Z")
    sync(b, now: "2026-11-21T10:01:00Z")
    #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "") == "add Buy milk\nmodify Quiet one -> Quiet one, renamed\n")
    let milk = try uuid(a, 2)
    #expect(try task(b, milk)["tags"] as? [String] == ["fromserver"])
    // The hook's change goes back to the server, and so to A.
    sync(b, now: "2026-11-21T10:02:00Z")
    sync(a, now: "2026-11-21T10:03:00Z")
    #expect(try task(a, milk)["tags"] as? [String] == ["fromserver"])
  }

  /// A broken item on the server is named and skipped, not fatal; an item deleted on the server
  /// and put back restores its task; a purge of most tasks waits for --force; --status counts.
  @Test func brokenItemsRestoredItemsPurgesAndStatus() throws {
    let (server, machines) = try setUp(machines: 1)
    let a = machines[0]
    // (A to-do without a SUMMARY is no longer broken: it is "(untitled)". One that is its own
    // parent is, and Radicale takes it.)
    let empty =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "BEGIN:VTODO", "UID:empty-1@example.org", "SUMMARY:Broken",
        "RELATED-TO;RELTYPE=PARENT:empty-1@example.org", "END:VTODO", "END:VCALENDAR",
      ]
      .joined(separator: "\r\n") + "\r\n"
    let put = server.curl([
      "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", empty, "-o", "/dev/null", "-w", "%{http_code}",
      server.url("/alice/tasks/empty.ics"),
    ])
    #expect(put.output.hasPrefix("2"), "\(put)")
    for title in ["One", "Two", "Three"] { a("add", title).expectSuccess() }
    let first = sync(a)
    #expect(first.stdout.contains("1 files skipped"), "\(first)")
    #expect(first.stderr.contains("skipped ") && first.stderr.contains("its own parent"), "\(first)")
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
    #expect(
      a("sync", "--status").lines == [
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

  /// With tracking.exclusive, clocks started on two machines: one task is active after the sync,
  /// the other's clock stopped when the later one started.
  @Test func clocksStartedOnTwoMachinesLeaveOneRunning() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    for machine in machines { machine.environment["TODO_TRACKING_EXCLUSIVE"] = "yes" }
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

  /// Without it (the default, as in Taskwarrior), every clock runs on: two tasks started here, and
  /// one on the other machine, are all active everywhere after the syncs.
  @Test func severalClocksRunOnThroughASync() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    for title in ["Write", "Read", "Listen"] { a("add", title).expectSuccess() }
    sync(a)
    sync(b)
    let uuids = try (1...3).map { try uuid(a, $0) }
    a("start", "1", environment: ["TODO_NOW": "2026-11-21T10:00:00Z"]).expectSuccess()
    a("start", "2", environment: ["TODO_NOW": "2026-11-21T10:10:00Z"]).expectSuccess()
    b("start", uuids[2], environment: ["TODO_NOW": "2026-11-21T10:30:00Z"]).expectSuccess()
    let first = sync(a, now: "2026-11-21T11:00:00Z")
    #expect(!first.stderr.contains("were both started"), "\(first)")
    sync(b, now: "2026-11-21T11:01:00Z")
    sync(a, now: "2026-11-21T11:02:00Z")
    for machine in [a, b] {
      for uuid in uuids { #expect(try task(machine, uuid)["active"] as? Bool == true, "\(uuid)") }
    }
  }

  /// Clear errors: not set up, a server that does not answer, the conflict command's own use.
  @Test func errorsAreClear() throws {
    let todo = try TodoSandbox(inProcess: false)
    let unset = todo("sync")
    #expect(unset.status == 1)
    #expect(unset.errorLines == ["todo: error: sync is not set up; run: todo sync --setup URL --user NAME (see todo help sync)"])
    #expect(todo("sync", "--setup", "ftp://x").status == 2)
    #expect(todo("sync", "--user", "x").status == 2)
    #expect(todo("sync", "extra").status == 2)
    let port = 1  // nothing listens on port 1
    let unreachable = todo("sync", "--setup", "http://127.0.0.1:\(port)/alice/tasks/")
    #expect(unreachable.status == 1)
    #expect(
      unreachable.errorLines.first?.hasPrefix("todo: error: cannot reach the server (http://127.0.0.1:\(port)/alice/tasks/)") == true,
      "\(unreachable)")
    #expect(!FileManager.default.fileExists(atPath: todo.folder.path + "/.config/todo/vdirsyncer/config"), "a failed setup is not kept")
  }

  /// vdirsyncer missing: the sync (and a setup) says how to install it, exits 1 and changes
  /// nothing. todo looks it up on its PATH and needs nothing else from the PATH to get that far.
  @Test func aSyncWithoutVdirsyncerSaysHowToInstallIt() throws {
    let (server, machines) = try setUp(machines: 1)
    defer { withExtendedLifetime(server) {} }
    let a = machines[0]
    a("add", "Not sent yet").expectSuccess()
    let empty = a.folder.appendingPathComponent("empty-bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let message = "todo: error: sync needs vdirsyncer, which is not installed; install it with: sudo apt-get install vdirsyncer"
    let before = a.snapshot()
    let missing = a("sync", environment: ["PATH": empty.path])
    #expect(missing.status == 1, "\(missing)")
    #expect(missing.errorLines == [message], "\(missing)")
    #expect(missing.stdout.isEmpty, "\(missing)")
    #expect(a.snapshot() == before, "the database is unchanged")
    #expect(icsFiles(vdir(a).path).isEmpty, "nothing was written to the vdir")
    #expect(server.items("tasks").isEmpty)
    let fresh = try TodoSandbox(inProcess: false)
    let setup = fresh(
      "sync", "--setup", server.url("/alice/tasks/"), "--user", "alice", "--password-command", "echo secret",
      environment: ["PATH": empty.path])
    #expect(setup.status == 1 && setup.errorLines == [message], "\(setup)")
    #expect(!FileManager.default.fileExists(atPath: fresh.folder.path + "/.config/todo/vdirsyncer/config"), "nothing is set up")
  }

  /// A collection that does not exist on the server (vdirsyncer says "Not Found" for Radicale's
  /// 404): a setup against one is refused and not kept; a collection deleted after the setup stops
  /// the sync before anything is merged.
  @Test func aCollectionThatDoesNotExistIsNamed() throws {
    let (server, machines) = try setUp(machines: 1)
    defer { withExtendedLifetime(server) {} }
    let a = machines[0]
    let fresh = try TodoSandbox(inProcess: false)
    let neverMade = server.url("/alice/never-made/")
    let refused = fresh("sync", "--setup", neverMade, "--user", "alice", "--password-command", "echo secret")
    #expect(refused.status == 1, "\(refused)")
    #expect(
      refused.errorLines.first?.hasPrefix(
        "todo: error: the server (\(neverMade)) has no such collection; check the URL, or create the collection first") == true,
      "\(refused)")
    #expect(!FileManager.default.fileExists(atPath: fresh.folder.path + "/.config/todo/vdirsyncer/config"), "a failed setup is not kept")

    a("add", "Kept here").expectSuccess()
    sync(a)
    let deletion = server.curl(["-X", "DELETE", "-o", "/dev/null", "-w", "%{http_code}", server.url("/alice/tasks/")]).output
    #expect(deletion.hasPrefix("2"), "\(deletion)")
    a("update", "1", "pri:H").expectSuccess()
    let before = a.snapshot()
    let gone = a("sync")
    #expect(gone.status == 1, "\(gone)")
    #expect(
      gone.errorLines.first?.hasPrefix(
        "todo: error: the server (\(server.url("/alice/tasks/"))) has no such collection; check the URL, or create the collection first")
        == true, "\(gone)")
    #expect(gone.stderr.contains("nothing was merged"), "\(gone)")
    #expect(a.snapshot() == before, "the database is unchanged")
  }

  /// A broken item on the server. Radicale refuses one that is not iCalendar, or whose VTODO is
  /// never closed (400), so no such item can be put there over HTTP (and a file dropped into its
  /// storage makes it fail every listing of the collection, with a 500). One it accepts that todo
  /// cannot read (PRIORITY is a number) is named by its file in the vdir, skipped and reported at
  /// every sync, and not fatal: the other tasks go both ways and the sync exits 0.
  @Test func anItemTodoCannotReadIsNamedAndSkipped() throws {
    let (server, machines) = try setUp(machines: 1)
    defer { withExtendedLifetime(server) {} }
    let a = machines[0]
    func put(_ lines: [String], named name: String) -> String {
      let body = lines.joined(separator: "\r\n") + "\r\n"
      return server.curl([
        "-X", "PUT", "-H", "Content-Type: text/calendar", "--data-binary", body, "-o", "/dev/null", "-w", "%{http_code}",
        server.url("/alice/tasks/\(name)"),
      ]).output
    }
    func calendar(_ uid: String, _ lines: [String]) -> [String] {
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261120T080000Z"] + lines
        + ["END:VTODO", "END:VCALENDAR"]
    }
    #expect(put(["this is not iCalendar at all"], named: "junk.ics") == "400")
    let unclosed = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN", "BEGIN:VTODO", "UID:open-1@example.org", "SUMMARY:Open", "END:VCALENDAR"]
    #expect(put(unclosed, named: "open.ics") == "400")
    #expect(put(calendar("broken-1@example.org", ["SUMMARY:Broken", "PRIORITY:high"]), named: "broken.ics").hasPrefix("2"))
    #expect(put(calendar("good-1@example.org", ["SUMMARY:Good"]), named: "good.ics").hasPrefix("2"))
    a("add", "Mine").expectSuccess()
    let first = sync(a)
    let files = icsFiles(vdir(a).path)
    let broken = try #require(
      files.first { name in
        (try? String(contentsOfFile: vdir(a).path + "/" + name, encoding: .utf8))?.contains("broken-1@example.org") == true
      }, "\(files)")
    #expect(
      first.errorLines.contains {
        $0.hasPrefix("todo: warning: skipped \(broken): ") && $0.contains("PRIORITY is a number from 0 to 9, not 'high'")
      }, "\(first)")
    #expect(first.stdout.contains("1 files skipped"), "\(first)")
    #expect(try titles(a) == ["Good", "Mine"])
    #expect(server.items("tasks").count == 3, "Mine was sent: \(server.items("tasks"))")
    let again = sync(a)
    #expect(again.errorLines.contains { $0.hasPrefix("todo: warning: skipped \(broken): ") }, "\(again)")
    #expect(try titles(a) == ["Good", "Mine"])
  }

  /// No write lock on the database while vdirsyncer runs: a stand-in `vdirsyncer`, first on the
  /// PATH (todo looks vdirsyncer up there), takes the write lock for a moment without waiting
  /// (`BEGIN IMMEDIATE` with a zero timeout fails at once with "database is locked" while anyone
  /// holds it), and adds a task with todo, at each of the sync's two runs; then it runs the real
  /// vdirsyncer. Every probe and every add works, and the tasks added are kept and sent.
  @Test func aSyncHoldsNoWriteLockWhileVdirsyncerRuns() throws {
    try #require(TodoSandbox.hasTool("sqlite3"), "make test installs sqlite3")
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    // Changes on both sides: the sync has something to fetch and something to send.
    b("add", "From B").expectSuccess()
    sync(b)
    a("add", "From A").expectSuccess()
    // todo gives vdirsyncer its whole environment with TODO_DB set; the paths are also written
    // into the stand-in, so that it depends on neither (the log says whether TODO_DB matched).
    let bin = a.folder.appendingPathComponent("stand-in-bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let log = a.folder.appendingPathComponent("probes.log").path
    let addLog = a.folder.appendingPathComponent("adds.log").path
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let script = """
      #!/bin/sh
      log='\(log)'
      database='\(a.databasePath)'
      probe=$(sqlite3 -cmd '.timeout 0' "$database" 'BEGIN IMMEDIATE; ROLLBACK;' 2>&1)
      probed=$?
      run=$(( $(wc -l < "$log") + 1 ))
      TODO_DB="$database" '\(TodoSandbox.binary!.path)' add "Added while vdirsyncer ran $run" >>'\(addLog)' 2>&1
      added=$?
      same=no
      [ "$TODO_DB" = "$database" ] && same=yes
      echo "probe=$probed add=$added todo_db=$same $probe" >> "$log"
      exec /usr/bin/vdirsyncer "$@"

      """
    let standIn = bin.appendingPathComponent("vdirsyncer").path
    try script.write(toFile: standIn, atomically: true, encoding: .utf8)
    chmod(standIn, 0o755)
    let run = a("sync", environment: ["PATH": bin.path + ":/usr/local/bin:/usr/bin:/bin"])
    #expect(run.status == 0, "\(run)")
    let probes = TodoRun.lines(of: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    let adds = (try? String(contentsOfFile: addLog, encoding: .utf8)) ?? ""
    #expect(probes.count >= 2, "vdirsyncer ran \(probes.count) times: \(probes)")
    for probe in probes {
      #expect(probe.hasPrefix("probe=0 add=0 todo_db=yes"), "\(probes)\n\(adds)")
    }
    // The first run's task was merged and sent by the same sync; the second's, by the next one.
    let added = (0..<probes.count).map { "Added while vdirsyncer ran \($0 + 1)" }
    let everything = Set(added + ["From A", "From B"])
    let onA = try titles(a)
    #expect(Set(onA) == everything && onA.count == everything.count, "\(onA)")
    sync(a)
    sync(b)
    let onB = try titles(b)
    #expect(Set(onB) == everything && onB.count == everything.count, "\(onB)")
    #expect(server.items("tasks").count == everything.count)
  }

  /// Undo across a sync, when the other machine changed the field since: A's title command reached
  /// B, B changed the title again, then A undoes its command (before it syncs again). Undo puts the
  /// task back exactly as it was before the command, its time of change included, so at the next
  /// sync B's later change wins the field and A's old value is listed as the loser: the field goes
  /// back only where nobody changed it since.
  @Test func undoOfACommandTheOtherMachineChangedSinceKeepsTheirChange() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let clock = MovingClock()
    let at = clock.next
    clock.run(a, "add", "T0")
    sync(a, now: at())
    sync(b, now: at())
    let shared = try uuid(a, 1)
    clock.run(a, "update", shared, "--title", "T1")
    sync(a, now: at())
    sync(b, now: at())
    #expect(try task(b, shared)["title"] as? String == "T1")
    clock.run(b, "update", shared, "--title", "T2")
    sync(b, now: at())
    let undo = a.run(["undo"], environment: ["TODO_NOW": at()])
    #expect(undo.status == 0 && undo.lines.first?.hasPrefix("Undid: update ") == true, "A's own command is undone: \(undo)")
    #expect(try task(a, shared)["title"] as? String == "T0")
    sync(a, now: at())
    sync(b, now: at())
    sync(a, now: at())
    for machine in [a, b] {
      #expect(try task(machine, shared)["title"] as? String == "T2")
    }
    let conflicts = try a("sync", "--conflicts", "--json").jsonArray()
    let newest = conflicts.first ?? [:]
    #expect(
      newest["field"] as? String == "title" && newest["kept"] as? String == "T2" && newest["lost"] as? String == "T0",
      "\(conflicts)")
  }

  /// Undoing a sync's own step (here, the sync that brought B's new title) puts the task back as it
  /// was here before that sync. The undo is a change here like any other: the next sync sends it,
  /// B takes it (B has not changed the task since), and then nothing goes back and forth.
  @Test func undoingASyncsStepIsSentLikeAnyChange() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    let clock = MovingClock()
    let at = clock.next
    clock.run(a, "add", "Title from A")
    sync(a, now: at())
    sync(b, now: at())
    let shared = try uuid(a, 1)
    clock.run(b, "update", shared, "--title", "Title from B")
    sync(b, now: at())
    let brought = sync(a, now: at())
    #expect(brought.stdout.contains(" 1 updated here"), "\(brought)")
    #expect(try task(a, shared)["title"] as? String == "Title from B")
    let undo = a.run(["undo"], environment: ["TODO_NOW": at()])
    #expect(undo.status == 0 && undo.lines.first?.hasPrefix("Undid: sync") == true, "\(undo)")
    #expect(try task(a, shared)["title"] as? String == "Title from A")
    #expect(try a("sync", "--status", "--json").jsonObject()["pending_here"] as? Int == 1)
    let sent = sync(a, now: at())
    #expect(sent.stdout.contains(" 1 sent"), "\(sent)")
    sync(b, now: at())
    for machine in [a, b] {
      #expect(try task(machine, shared)["title"] as? String == "Title from A")
    }
    // Settled: nothing goes either way any more.
    for machine in [a, b, a, b] {
      let settled = sync(machine, now: at())
      #expect(settled.lines.first?.hasSuffix("0 added here, 0 updated here, 0 sent.") == true, "\(settled)")
    }
    for machine in [a, b] {
      #expect(try task(machine, shared)["title"] as? String == "Title from A")
    }
  }

  /// `sync --status` when a sync would delete most tasks: it says so (the counts, and that the
  /// sync needs --force) as a warning, prints its usual report (the JSON keeps its keys), exits 0
  /// and changes nothing; the sync itself still refuses. Both directions.
  @Test func statusSaysWhenASyncWouldNeedForce() throws {
    let (server, machines) = try setUp()
    defer { withExtendedLifetime(server) {} }
    let (a, b) = (machines[0], machines[1])
    for title in ["One", "Two", "Three"] { a("add", title).expectSuccess() }
    sync(a)
    sync(b)
    a("delete", "1-3", "--yes").expectSuccess()
    let before = a.snapshot()
    let status = a("sync", "--status")
    #expect(status.status == 0, "\(status)")
    #expect(
      status.lines == [
        "3 tasks changed here and 0 files changed in the vdir since the last sync (changes on \(server.url("/alice/tasks/")) show after todo sync)."
      ], "\(status)")
    #expect(
      status.errorLines == [
        "todo: warning: a sync now would delete 3 of 3 tasks on the server, so todo sync refuses it without --force (if that is what you want: todo sync --force)"
      ], "\(status)")
    let json = a("sync", "--status", "--json")
    #expect(json.status == 0, "\(json)")
    let object = try json.jsonObject()
    #expect(Set(object.keys) == ["pending_here", "pending_in_vdir", "items"], "\(object)")
    #expect(object["pending_here"] as? Int == 3 && object["pending_in_vdir"] as? Int == 0 && object["items"] as? Int == 3, "\(object)")
    let warning = try json.errorObject()
    #expect((warning["warning"] as? String)?.contains("would delete 3 of 3 tasks on the server") == true, "\(json)")
    #expect(a.snapshot() == before, "--status changes nothing")
    let refused = a("sync")
    #expect(refused.status == 1 && refused.stderr.contains("this sync would delete 3 of 3 tasks on the server"), "\(refused)")
    #expect(server.items("tasks").count == 3)
    // Purged here too: their files would go, and --status still counts them and says so.
    a("purge", "--yes").expectSuccess()
    let purged = a("sync", "--status")
    #expect(purged.status == 0 && purged.lines.first?.hasPrefix("3 tasks changed here and 0 files changed") == true, "\(purged)")
    #expect(purged.stderr.contains("a sync now would delete 3 of 3 tasks on the server"), "\(purged)")

    // The other way: once A's deletions are on the server (every item removed), B's sync is
    // stopped before anything is deleted here, with what to do if that is what is wanted.
    sync(a, "--force")
    #expect(server.items("tasks").isEmpty)
    let asked = b("sync")
    // vdirsyncer's own guard stops it first, and todo says what it means and what to do.
    #expect(
      asked.status == 1 && asked.stderr.contains("every item of the collection on the server (\(server.url("/alice/tasks/"))) is gone;")
        && asked.stderr.contains("if that is what you want, run todo sync --force"), "\(asked)")
    #expect(try titles(b).count == 3, "nothing was deleted on B")
    // With --force the emptying is meant: B's tasks go too, and the sides agree.
    sync(b, "--force")
    #expect(try titles(b).isEmpty)
    #expect(server.items("tasks").isEmpty)
  }

  /// A configuration an earlier todo wrote with vdirsyncer's own prompt is brought, once, to
  /// todo's question (the rest of the file byte for byte), with a warning.
  @Test func anEarlierSetupsPasswordPromptIsBroughtToTodosQuestion() throws {
    let todo = try TodoSandbox(inProcess: false)
    let config = todo.folder.appendingPathComponent(".config/todo/vdirsyncer/config")
    try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
    let vdir = todo.folder.appendingPathComponent(".local/share/todo/vdir/tasks/").path
    let lines = [
      "# Written by `todo sync --setup`; `todo sync` runs vdirsyncer with it.", "[storage todo_local]", "type = \"filesystem\"",
      "path = \"\(vdir)\"", "[storage todo_remote]", "url = \"https://x/\"", "username = \"ann\"",
    ]
    try (lines + [#"password.fetch = ["prompt", "Password for ann at https://x/"]"#]).joined(separator: "\n").write(
      to: config, atomically: true, encoding: .utf8)
    let status = todo("sync", "--status")
    #expect(
      status.status == 0 && status.errorLines.first?.hasPrefix("todo: warning: \(config.path) now has todo ask for the password") == true, "\(status)"
    )
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
