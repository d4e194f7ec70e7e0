import Foundation
import Synchronization
import TestSupport
import Testing
import TodoSystem

/// The in-process harness is only as good as its likeness to the binary: the same command
/// lines, run both ways on two sandboxes, print the same bytes and end with the same status.
@Suite struct InProcessParityTests {
  static let lines: [[String]] = [
    ["add", "Buy milk", "+home", "due:tomorrow", "pri:H"],
    ["add", "Call mum", "project:family", "wait:monday"],
    ["add", "Fix bike", "+home", "--note", "chain"],
    ["list"], ["list", "--json"], ["list", "status:all", "--jsonl"], ["next"], ["waiting"],
    ["show", "1"], ["show", "2", "--json"],
    ["update", "1", "+errand", "due:friday"], ["done", "3"], ["undo"], ["journal", "--json"],
    ["tags"], ["projects"], ["stats"], ["summary"], ["calendar"], ["agenda"], ["burndown"], ["date", "sow"],
    ["-c", "week.start=sunday", "date", "sow"], ["list", "+WEEK"], ["count", "+home"], ["_get", "1.due"],
    ["export", "--format", "todotxt"], ["export", "--format", "ical"],
    // Refusals: a word not understood, an unknown command, a missing task, a usage error in JSON.
    ["list", "prio:H"], ["lsit"], ["show", "99"], ["update", "--json"], ["help", "add"], ["list", "--bogus"],
  ]

  @Test func theSameCommandLinesPrintTheSameEitherWay() throws {
    let inProcess = try TodoSandbox()
    let binary = try TodoSandbox(inProcess: false)
    for line in Self.lines {
      #expect(!inProcess.needsRealProcess(line, environment: inProcess.environment), "\(line) would start the binary")
      let here = inProcess.run(line)
      let there = binary.run(line)
      #expect(here.status == there.status, "\(line): \(here.status) here, \(there.status) from the binary")
      #expect(Self.withoutUUIDs(here.stdout) == Self.withoutUUIDs(there.stdout), "\(line)")
      #expect(Self.withoutUUIDs(here.stderr) == Self.withoutUUIDs(there.stderr), "\(line)")
    }
  }

  /// Text with each UUID (random, so different in the two sandboxes) replaced by `UUID`.
  static func withoutUUIDs(_ text: String) -> String {
    text.replacing(#/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/#, with: "UUID")
  }

  /// A parser reading a time in a named zone (an iCalendar `TZID`) sets the process's `TZ` for a
  /// moment. It waits for its turn, and so does every reading of local time: a command line
  /// running in-process meanwhile still sees UTC, and a test that reads local time without a
  /// turn of its own sees the process's zone (CI once failed when a unit test's parse changed
  /// the zone under in-process runs).
  @Test func aNamedZoneReadOnAnotherThreadNeverChangesTheZoneOfARunOrAReading() throws {
    ProcessZone.keepVariable()
    // Without the zone's file the parse changes nothing, and the test would prove nothing.
    let tokyo = LocalTime.instant(inZone: "Asia/Tokyo", wall: 1_800_000_000)
    #expect(tokyo == Int64(1_800_000_000 - 9 * 3600), "Asia/Tokyo: \(String(describing: tokyo))")
    let todo = try TodoSandbox()
    #expect(todo.run(["add", "Meet", "due:2026-11-23T10:00"]).status == 0)
    let expected = todo.run(["show", "1"])
    #expect(expected.stdout.contains("2026-11-23 10:00 UTC"), "\(expected.stdout)")
    let ownZone = LocalTime.fields(1_800_000_000)?.zone
    let stop = Atomic<Bool>(false)
    let stopped = Atomic<Bool>(false)
    let reader = Thread {
      while !stop.load(ordering: .relaxed) {
        _ = LocalTime.instant(inZone: "Asia/Tokyo", wall: 1_800_000_000)
        usleep(50)  // room for the others' turns: the mutex is not fair
      }
      stopped.store(true, ordering: .sequentiallyConsistent)
    }
    reader.start()
    var differences: [String] = []
    var readings: [String] = []
    for _ in 0..<100 {
      let run = todo.run(["show", "1"])
      if run.stdout != expected.stdout { differences.append(run.stdout.split(separator: "\n").filter { $0.contains("Due") }.joined()) }
      for _ in 0..<50 {
        let zone = LocalTime.fields(1_800_000_000)?.zone
        if zone != ownZone { readings.append(zone ?? "nil") }
      }
    }
    stop.store(true, ordering: .sequentiallyConsistent)
    while !stopped.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    #expect(differences.isEmpty, "\(differences.count) of 100 runs saw another zone: \(differences.prefix(3))")
    #expect(readings.isEmpty, "\(readings.count) of 5,000 readings saw another zone than \(ownZone ?? "nil"): \(readings.prefix(3))")
  }

  @Test func whatNeedsARealProcessStartsTheBinary() throws {
    let todo = try TodoSandbox()
    let environment = todo.environment
    #expect(!todo.needsRealProcess(["list", "+home", "--json"], environment: environment))
    #expect(!todo.needsRealProcess(["export", "--output", todo.folder.path + "/out.json"], environment: environment))
    for line in [
      ["shell"], ["ui"], ["edit", "1"], ["sync"], ["remind", "--check"], ["import", "tasks.json"], ["migrate", "taskwarrior"],
      ["export", "--output", "out.json"], ["export", "--output=out.json"], ["--db", "other.db", "list"], ["export", "--output", "/dev/stdout"],
    ] {
      #expect(todo.needsRealProcess(line, environment: environment), "\(line)")
    }
    var zoned = environment
    zoned["TZ"] = "Europe/Berlin"
    #expect(todo.needsRealProcess(["list"], environment: zoned))
    var relative = environment
    relative["TODO_DB"] = "todo.db"
    #expect(todo.needsRealProcess(["list"], environment: relative))
  }
}
