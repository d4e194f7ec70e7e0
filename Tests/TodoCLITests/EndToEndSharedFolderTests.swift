import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Another user on the machine (the attacker) plants links and files in a shared sticky folder
/// such as /tmp; the user (the victim, the test's own uid) runs `todo`. Nothing is written through
/// a link the attacker made, no special file is replaced by a regular one, and no database, or
/// journal beside it, that another user could read or swap is used. The attacker is uid 65534
/// (nobody), acting through `setpriv`; that needs root, as `make test` runs.
// The binary always: links to the process's own files (/proc/self/fd/1) must name its output.
@Suite(.enabled(if: getuid() == 0, "needs root to act as a second user (make test runs as root)"))
struct EndToEndSharedFolderTests {
  static let attacker: uid_t = 65534

  /// A folder like /tmp (world-writable and sticky) inside the sandbox, which is opened for
  /// other users to pass through.
  private func sharedFolder(_ todo: TodoSandbox) throws -> String {
    let shared = todo.folder.appendingPathComponent("shared").path
    try #require(mkdir(shared, 0o777) == 0)
    try #require(chmod(shared, 0o1777) == 0)
    try #require(chmod(todo.folder.path, 0o755) == 0)
    return shared
  }

  /// Runs a command as the attacker.
  @discardableResult
  private func asAttacker(_ arguments: String...) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = ["--reuid=\(Self.attacker)", "--regid=\(Self.attacker)", "--clear-groups"] + arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  private func fileType(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
  }

  @Test func anExportIsNeverWrittenThroughALinkAnotherUserPlanted() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Private task")
    let shared = try sharedFolder(todo)
    let bashrc = todo.folder.appendingPathComponent("bashrc").path
    try Data("echo hello\n".utf8).write(to: URL(fileURLWithPath: bashrc))
    let planted = shared + "/x.json"
    try #require(try asAttacker("/bin/ln", "-s", bashrc, planted) == 0)

    let run = todo("export", "--output", planted)
    #expect(run.status == 1, "\(run)")
    #expect(
      run.errorLines == [
        "todo: error: cannot write \(planted): it is a symbolic link another user (uid 65534) made; todo does not follow "
          + "links other users plant (remove it, or give the path it points to); nothing was written"
      ], "\(run)")
    #expect(todo.contents(of: bashrc) == Data("echo hello\n".utf8))
    #expect(fileType(planted) == S_IFLNK)

    // A link the user made is theirs to follow: the export lands on its target.
    let ownTarget = todo.folder.appendingPathComponent("mine.json").path
    let ownLink = shared + "/mine.json"
    try #require(symlink(ownTarget, ownLink) == 0)
    let own = todo("export", "--output", ownLink)
    #expect(own.status == 0, "\(own)")
    #expect(fileType(ownLink) == S_IFLNK)
    #expect(String(decoding: todo.contents(of: ownTarget) ?? Data(), as: UTF8.self).contains("Private task"))
  }

  @Test func specialFilesAreWrittenInPlaceAndNeverReplaced() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Through a pipe")
    // A character device like /dev/null, made inside the sandbox (never the machine's own).
    let null = todo.folder.appendingPathComponent("null").path
    try #require(mknod(null, S_IFCHR | 0o666, dev_t(0x103)) == 0)
    let toNull = todo("export", "--output", null)
    #expect(toNull.status == 0, "\(toNull)")
    #expect(fileType(null) == S_IFCHR)

    // A link like /dev/stdout: /proc/self/fd/1 names the pipe or file standard output is.
    let stdoutLink = todo.folder.appendingPathComponent("stdout").path
    try #require(symlink("/proc/self/fd/1", stdoutLink) == 0)
    let toStdout = todo("export", "--output", stdoutLink, "--format", "todotxt")
    #expect(toStdout.status == 0, "\(toStdout)")
    #expect(toStdout.stdout.contains("Through a pipe"), "\(toStdout)")
    #expect(fileType(stdoutLink) == S_IFLNK)

    // `-` is standard output.
    let dash = todo("export", "--output", "-", "--format", "todotxt")
    #expect(dash.status == 0 && dash.stdout.contains("Through a pipe"), "\(dash)")
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent("-").path))

    // A named pipe is written into, for whoever reads it, and stays a pipe.
    let fifo = todo.folder.appendingPathComponent("fifo").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let reader = todo.launch(URL(fileURLWithPath: "/bin/cat"), [fifo])
    let toFifo = todo("export", "--output", fifo, "--format", "todotxt")
    #expect(toFifo.status == 0, "\(toFifo)")
    #expect(reader.wait().stdout.contains("Through a pipe"))
    #expect(fileType(fifo) == S_IFIFO)
  }

  @Test func aLinkAnotherUserPlantedToTheUsersOwnDatabaseIsRefused() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Real task")
    let before = todo.snapshot()
    let shared = try sharedFolder(todo)
    let tour = shared + "/todo-tour.db"
    try #require(try asAttacker("/bin/ln", "-s", todo.databasePath, tour) == 0)
    for arguments in [["list"], ["add", "Tour task"], ["--dry-run", "add", "Tour task"], ["done", "1"]] {
      let run = todo.run(arguments, environment: ["TODO_DB": tour])
      #expect(run.status == 1, "\(arguments): \(run)")
      #expect(
        run.errorLines == [
          "todo: error: cannot use the database \(tour): it is a symbolic link another user (uid 65534) made; todo does not "
            + "follow links other users plant (remove it, or give the path it points to)"
        ], "\(run)")
    }
    #expect(todo.snapshot() == before)
  }

  @Test func aJournalFileAnotherUserMadeBesideTheDatabaseIsRefused() throws {
    let todo = try TodoSandbox(inProcess: false)
    let shared = try sharedFolder(todo)
    for suffix in ["-wal", "-shm", "-journal"] {
      let database = shared + "/tasks\(suffix).db"
      try #require(try asAttacker("/usr/bin/touch", database + suffix) == 0)
      let run = todo("--db", database, "add", "Secret")
      #expect(run.status == 1, "\(run)")
      #expect(
        run.errorLines == [
          "todo: error: cannot use the database \(database): its \(suffix) file is owned by another user (uid 65534), "
            + "who could read or change the tasks through it; remove it"
        ], "\(run)")
      #expect(!FileManager.default.fileExists(atPath: database))
    }
    // The database itself made by another user.
    let theirs = shared + "/theirs.db"
    try #require(try asAttacker("/usr/bin/touch", theirs) == 0)
    let run = todo("--db", theirs, "list")
    #expect(run.status == 1)
    #expect(
      run.errorLines == [
        "todo: error: cannot use the database \(theirs): it is owned by another user (uid 65534); give the path of your own file"
      ], "\(run)")
  }

  @Test func aDatabaseInAFolderOthersMayWriteIsRefusedUnlessTheFolderIsSticky() throws {
    let todo = try TodoSandbox(inProcess: false)
    let open = todo.folder.appendingPathComponent("open").path
    try #require(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
    let run = todo("--db", open + "/todo.db", "add", "Exposed")
    #expect(run.status == 1, "\(run)")
    #expect(
      run.errorLines == [
        "todo: error: cannot use the database \(open)/todo.db: its folder \(open) may be written by other users, who could "
          + "replace the database or its journal; keep it in a folder only you can write (chmod go-w \(open)), or a sticky "
          + "one such as /tmp"
      ], "\(run)")
    #expect(!FileManager.default.fileExists(atPath: open + "/todo.db"))
    // In a sticky folder, a database of one's own is fine.
    let shared = try sharedFolder(todo)
    let own = todo("--db", shared + "/mine.db", "add", "Mine")
    #expect(own.status == 0, "\(own)")
    #expect(todo("--db", shared + "/mine.db", "list").stdout.contains("Mine"))
  }
  @Test func aFIFOAnotherUserPlantedGetsNothing() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Private task")
    let shared = try sharedFolder(todo)
    let planted = shared + "/x.json"
    try #require(try asAttacker("/usr/bin/mkfifo", "-m", "666", planted) == 0)
    let run = todo("export", "--output", planted)
    #expect(run.status == 1, "\(run)")
    #expect(
      run.errorLines == [
        "todo: error: cannot write \(planted): it is a FIFO, socket or device another user (uid 65534) owns; nothing was written"
      ], "\(run)")
  }

  /// `/tmp/tour -> ~/.local/share/todo`, planted: `TODO_DB=/tmp/tour/todo.db` would be the user's
  /// real database, and an export into `/tmp/tour/` would land among their files.
  @Test func aFolderOnTheWayThatIsALinkAnotherUserPlantedIsRefused() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Real task")
    let before = todo.snapshot()
    let shared = try sharedFolder(todo)
    let tour = shared + "/tour"
    try #require(try asAttacker("/bin/ln", "-s", todo.folder.path, tour) == 0)
    let opened = todo.run(["list"], environment: ["TODO_DB": tour + "/todo.db"])
    #expect(opened.status == 1, "\(opened)")
    #expect(
      opened.errorLines == [
        "todo: error: cannot use the database \(tour)/todo.db: the folder \(tour) is a symbolic link another user (uid 65534) "
          + "made; todo does not follow links other users plant"
      ], "\(opened)")
    let exported = todo("export", "--output", tour + "/out.json")
    #expect(exported.status == 1, "\(exported)")
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent("out.json").path))
    #expect(todo.snapshot() == before)
  }

  /// A file another user left at the path (world-readable and writable) is not copied for its
  /// mode: the tasks are written to a private file (and the rename over theirs fails in /tmp).
  @Test func theTemporaryFileNeverTakesTheModeOfAnotherUsersFile() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Private task")
    // In a folder of the user's own, where the rename over another user's file succeeds.
    let theirs = todo.folder.appendingPathComponent("theirs.json").path
    try Data("{}".utf8).write(to: URL(fileURLWithPath: theirs))
    chmod(theirs, 0o666)
    chown(theirs, Self.attacker, Self.attacker)
    let run = todo("export", "--output", theirs)
    #expect(run.status == 0, "\(run)")
    var status = stat()
    #expect(stat(theirs, &status) == 0 && status.st_mode & 0o777 == 0o600 && status.st_uid == getuid(), "\(String(status.st_mode, radix: 8))")
  }
}
