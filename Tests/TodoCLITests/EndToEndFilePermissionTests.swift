import Foundation
import Testing

/// What todo creates is private to its user whatever the umask (0600 files, 0700 folders), and
/// a database path that is a symbolic link to another user's file is refused.
@Suite struct EndToEndFilePermissionTests {
  private func mode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
  }

  @Test func everythingTodoCreatesIsPrivateUnderAnOpenUmask() throws {
    let todo = try TodoSandbox()
    let home = todo.folder.path
    // The default places under HOME: no TODO_DB, no XDG variables.
    let environment: [String: String?] = ["TODO_DB": nil]
    let run = todo.shell(
      """
      umask 000
      "$TODO" add Private +home || exit 1
      "$TODO" export --output out.json 2>/dev/null || exit 2
      "$TODO" export --vdir vdir > /dev/null || exit 3
      "$TODO" config set color never > /dev/null || exit 4
      """, environment: environment)
    try #require(run.status == 0, "\(run)")
    let expected: [(String, Int)] = [
      (".local/share/todo", 0o700), (".local/share/todo/todo.db", 0o600), ("out.json", 0o600), ("vdir", 0o700),
      (".config/todo", 0o700), (".config/todo/config", 0o600),
    ]
    for (path, wanted) in expected {
      #expect(mode(home + "/" + path) == wanted, "\(path): \(String(mode(home + "/" + path) ?? 0, radix: 8))")
    }
    let items = try FileManager.default.contentsOfDirectory(atPath: home + "/vdir")
    #expect(items.count == 1)
    for item in items { #expect(mode(home + "/vdir/" + item) == 0o600, "vdir/\(item)") }

    // The write-ahead log and its index, while a shell holds the database open.
    let database = home + "/.local/share/todo/todo.db"
    let shell = todo.launch(
      URL(fileURLWithPath: "/bin/sh"), ["-c", #"umask 000; (echo "add Second"; sleep 3) | "$TODO" shell"#], environment: environment)
    var waited = 0
    while !(FileManager.default.fileExists(atPath: database + "-wal") && FileManager.default.fileExists(atPath: database + "-shm"))
      && waited < 200
    {
      usleep(20_000)
      waited += 1
    }
    #expect(mode(database + "-wal") == 0o600)
    #expect(mode(database + "-shm") == 0o600)
    #expect(shell.wait().status == 0)
  }

  @Test func aDatabaseLinkToAnotherUsersFileIsRefusedAndOnesOwnIsFollowed() throws {
    let todo = try TodoSandbox()
    todo.add("Mine")
    let theirs = todo.folder.appendingPathComponent("theirs.db").path
    try FileManager.default.copyItem(atPath: todo.databasePath, toPath: theirs)
    try #require(chown(theirs, 65534, 65534) == 0, "chown needs root (as 'make test' runs): errno \(errno)")
    let before = todo.contents(of: theirs)
    let link = todo.folder.appendingPathComponent("link.db").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: theirs)
    for arguments in [["list"], ["add", "Planted"], ["--dry-run", "add", "Planted"]] {
      let run = todo.run(["--db", link] + arguments)
      #expect(run.status == 1, "\(arguments): \(run)")
      #expect(
        run.errorLines.first
          == "todo: error: cannot use the database \(link): it is a symbolic link to a file another user owns; give the path of your own file",
        "\(run)")
    }
    #expect(todo.contents(of: theirs) == before)

    let ownLink = todo.folder.appendingPathComponent("own.db").path
    try FileManager.default.createSymbolicLink(atPath: ownLink, withDestinationPath: todo.databasePath)
    let listed = todo.run(["--db", ownLink, "list", "--json"])
    #expect(try listed.jsonArray().compactMap { $0["title"] as? String } == ["Mine"], "\(listed)")
  }
}
