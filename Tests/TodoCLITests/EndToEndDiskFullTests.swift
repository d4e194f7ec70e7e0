import Foundation
import Testing

/// A real full file system: a small tmpfs mounted by the test (the tests run as root, as
/// `make test` does on a fresh machine; a failed mount fails the test, saying why). On it, every
/// write fails with one clear error and exit 1, the database stays byte for byte as it was and
/// readable (even while the disk is full), and an export leaves no partial file.
@Suite(.serialized)
struct EndToEndDiskFullTests {
  /// A tmpfs of `kilobytes` mounted in the sandbox for `body`, unmounted after it.
  private func withSmallDisk(kilobytes: Int, _ body: (TodoSandbox, String) throws -> Void) throws {
    let todo = try TodoSandbox()
    let disk = todo.folder.appendingPathComponent("disk").path
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mount = todo.shell("mount -t tmpfs -o size=\(kilobytes)k,mode=0700 tmpfs '\(disk)'")
    try #require(
      mount.status == 0,
      "cannot mount a tmpfs to fill (the test needs root, as 'make test' runs on a fresh machine): \(mount.stderr)")
    defer {
      let unmounted = todo.shell("umount '\(disk)' || umount -l '\(disk)'")
      #expect(unmounted.status == 0, "the tmpfs at \(disk) is still mounted: \(unmounted)")
    }
    try body(todo, disk)
  }

  /// Fills the disk; `leaving` bytes stay free (about: tmpfs counts in pages).
  private func fill(_ todo: TodoSandbox, _ disk: String, leaving: Int = 0) {
    todo.shell("head -c 100M /dev/zero > '\(disk)/filler' 2>/dev/null; exit 0")
    if leaving > 0 { todo.shell("truncate -s -\(leaving) '\(disk)/filler'") }
  }

  private func integrity(_ path: String, _ todo: TodoSandbox) -> String {
    todo.shell("sqlite3 '\(path)' 'PRAGMA integrity_check'").stdout
  }

  @Test func writesOnAFullDiskFailClearlyAndReadsStillWork() throws {
    try withSmallDisk(kilobytes: 2048) { todo, disk in
      let database = disk + "/todo.db"
      let environment: [String: String?] = ["TODO_DB": database]
      for title in ["First", "Second", "Third"] {
        #expect(todo.run(["add", title, "+home"], environment: environment).status == 0)
      }
      fill(todo, disk)
      let before = todo.contents(of: database)
      for change in [["add", "Fourth"], ["done", "1"], ["update", "--where", "+home", "pri:H", "--yes"], ["undo"], ["note", "2", "hello"]] {
        let run = todo.run(change, environment: environment)
        #expect(run.status == 1, "\(change): \(run)")
        #expect(
          run.errorLines.first == "todo: error: cannot write the database \(database): the disk is full; nothing was written",
          "\(change): \(run)")
        #expect(run.errorLines.dropFirst().first?.hasPrefix("todo: hint: free some space") == true, "\(run)")
        #expect(todo.contents(of: database) == before, "\(change) changed the file")
      }
      let json = todo.run(["add", "Fifth", "--json"], environment: environment)
      #expect(json.status == 1)
      #expect(json.stderr.contains(#""message":"cannot write the database \#(database): the disk is full; nothing was written""#), "\(json)")

      // Reading needs no room: the tasks are all there.
      let listed = todo.run(["list", "--json"], environment: environment)
      #expect(listed.status == 0, "\(listed)")
      let titles = try listed.jsonArray().compactMap { $0["title"] as? String }
      #expect(titles == ["First", "Second", "Third"])
      #expect(todo.run(["stats"], environment: environment).status == 0)
      // The shell starts and reads too; its writes fail like any other.
      let shell = todo.run(["shell"], stdin: "list\nadd Sixth\n", environment: environment)
      #expect(shell.status == 1, "\(shell)")
      #expect(shell.stdout.contains("Third"), "\(shell)")
      #expect(shell.stderr.contains("line 2: cannot write the database"), "\(shell)")
      #expect(todo.contents(of: database) == before)

      todo.shell("rm '\(disk)/filler'")
      #expect(todo.run(["add", "Fourth"], environment: environment).status == 0)
      #expect(integrity(database, todo) == "ok\n")
    }
  }

  /// The disk fills in the middle of a large import: the transaction rolls back whole.
  @Test func anImportThatFillsTheDiskLeavesNothingBehind() throws {
    try withSmallDisk(kilobytes: 1024) { todo, disk in
      let database = disk + "/todo.db"
      let environment: [String: String?] = ["TODO_DB": database]
      #expect(todo.run(["add", "Already here"], environment: environment).status == 0)
      // 3000 tasks with long notes, in a file outside the small disk: far more than fits.
      let note = String(repeating: "n", count: 400)
      let lines = (1...3000).map {
        #"{"uuid":"00000000-0000-4000-8000-\#(String(format: "%012d", $0))","title":"Imported \#($0)","status":"pending","created":"2026-11-20T10:00:00Z","modified":"2026-11-20T10:00:00Z","notes":[{"created":"2026-11-20T10:00:00Z","text":"\#(note)"}]}"#
      }
      let input = todo.folder.appendingPathComponent("big.jsonl").path
      try lines.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
      fill(todo, disk, leaving: 256 * 1024)
      let imported = todo.run(["import", input, "--yes"], environment: environment)
      #expect(imported.status == 1, "\(imported)")
      #expect(imported.stderr.contains("the disk is full"), "\(imported)")
      let titles = try todo.run(["list", "status:all", "--json"], environment: environment).jsonArray().compactMap { $0["title"] as? String }
      #expect(titles == ["Already here"])
      #expect(integrity(database, todo) == "ok\n")
      let history = try todo.run(["journal", "--json"], environment: environment).jsonArray()
      #expect(history.count == 1)
    }
  }

  @Test func anExportToAFullDiskLeavesNoPartialFile() throws {
    try withSmallDisk(kilobytes: 256) { todo, disk in
      for index in 1...50 { todo.add("Task \(index) " + String(repeating: "x", count: 200)) }
      fill(todo, disk, leaving: 4096)
      let before = try FileManager.default.contentsOfDirectory(atPath: disk)
      let export = todo("export", "--output", disk + "/tasks.json")
      #expect(export.status == 1, "\(export)")
      #expect(export.stderr.contains("cannot write \(disk)/tasks.json: No space left on device; nothing was written"), "\(export)")
      let after = try FileManager.default.contentsOfDirectory(atPath: disk)
      #expect(after == before)
    }
  }
}
