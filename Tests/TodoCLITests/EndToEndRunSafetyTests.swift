import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What todo runs (hooks, the editor the configuration names) is only what the user or root
/// could have put there; a configuration value cannot smuggle in a line of its own; and the file
/// `todo edit` writes the task's text to never outlives a stop.
@Suite struct EndToEndRunSafetyTests {
  private func hooksFolder(_ todo: TodoSandbox) throws -> String {
    let folder = todo.folder.appendingPathComponent(".config/todo/hooks").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A hook that leaves a mark when it runs.
  private func markingHook(_ path: String, mark: String) throws {
    try "#!/bin/sh\ntouch '\(mark)'\ncat\n".write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
  }

  @Test(.enabled(if: getuid() == 0, "needs root to give files to another user"))
  func noHookRunsFromAFolderAnotherUserCouldChange() throws {
    let todo = try TodoSandbox()
    let folder = try hooksFolder(todo)
    let mark = todo.folder.appendingPathComponent("ran").path
    try markingHook(folder + "/on-add-mark", mark: mark)
    let cases: [(setUp: () -> Void, reason: String)] = [
      ({ chmod(folder, 0o777) }, "the hooks folder \(folder) can be changed by other users (chmod go-w \(folder) makes it safe)"),
      ({ chmod(folder, 0o1777) }, "the hooks folder \(folder) can be changed by other users (chmod go-w \(folder) makes it safe)"),
      ({ chown(folder, 65534, 65534) }, "the hooks folder \(folder) is owned by another user (uid 65534), not by you or root"),
      (
        { chmod(todo.folder.appendingPathComponent(".config/todo").path, 0o777) },
        "the folder \(todo.folder.path)/.config/todo can be changed by other users (chmod go-w \(todo.folder.path)/.config/todo makes it safe)"
      ),
      ({ chown(folder + "/on-add-mark", 65534, 65534) }, "the hook \(folder)/on-add-mark is owned by another user (uid 65534), not by you or root"),
    ]
    for (setUp, reason) in cases {
      setUp()
      let run = todo("add", "Guarded")
      #expect(run.status == 1, "\(reason): \(run)")
      #expect(run.errorLines == ["todo: error: \(reason), so no hook was run; nothing was changed"], "\(run)")
      #expect(!FileManager.default.fileExists(atPath: mark), "a hook ran: \(reason)")
      // Put back as it was.
      chmod(folder, 0o700)
      chown(folder, 0, 0)
      chown(folder + "/on-add-mark", 0, 0)
      chmod(todo.folder.appendingPathComponent(".config/todo").path, 0o700)
    }
    #expect(todo("list", "--json").stdout == "[]\n")
    // All safe again: the hook runs.
    #expect(todo("add", "Allowed").status == 0)
    #expect(FileManager.default.fileExists(atPath: mark))
  }

  /// As a user other than root: a hook linked to a root-owned packaged script runs (it blocked
  /// every command), and one linked to another user's file does not.
  @Test(.enabled(if: getuid() == 0 && TodoSandbox.hasTool("setpriv"), "needs root to act as a second user"))
  func aHookLinkedToARootOwnedScriptRunsForAnOrdinaryUser() throws {
    let todo = try TodoSandbox()
    let user: uid_t = 4242
    let packaged = todo.folder.appendingPathComponent("packaged").path
    try FileManager.default.createDirectory(atPath: packaged, withIntermediateDirectories: true)
    let mark = todo.folder.appendingPathComponent("home/ran").path
    let home = todo.folder.appendingPathComponent("home").path
    try FileManager.default.createDirectory(atPath: home + "/.config/todo/hooks", withIntermediateDirectories: true)
    try markingHook(packaged + "/on-add-packaged", mark: mark)
    chmod(packaged, 0o755)
    chmod(todo.folder.path, 0o755)
    try FileManager.default.createSymbolicLink(
      atPath: home + "/.config/todo/hooks/on-add-packaged", withDestinationPath: packaged + "/on-add-packaged")
    for path in [home, home + "/.config", home + "/.config/todo", home + "/.config/todo/hooks"] {
      chown(path, user, user)
      chmod(path, 0o700)
    }
    lchown(home + "/.config/todo/hooks/on-add-packaged", user, user)
    func asUser(_ arguments: [String]) -> TodoRun {
      todo.launch(
        URL(fileURLWithPath: "/usr/bin/setpriv"),
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", TodoSandbox.binary!.path] + arguments,
        environment: ["HOME": home, "TODO_DB": home + "/todo.db"], shownAs: arguments
      ).wait()
    }
    let run = asUser(["add", "Packaged"])
    #expect(run.status == 0, "\(run)")
    #expect(FileManager.default.fileExists(atPath: mark))

    // The same link to a script another user owns is refused.
    let theirs = todo.folder.appendingPathComponent("theirs").path
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
    chmod(theirs, 0o755)
    try markingHook(theirs + "/on-add-theirs", mark: mark + "2")
    chown(theirs + "/on-add-theirs", 65534, 65534)
    try FileManager.default.createSymbolicLink(atPath: home + "/.config/todo/hooks/on-add-theirs", withDestinationPath: theirs + "/on-add-theirs")
    let refused = asUser(["add", "Theirs"])
    #expect(refused.status == 1, "\(refused)")
    #expect(
      refused.errorLines == [
        "todo: error: the hook \(home)/.config/todo/hooks/on-add-theirs is owned by another user (uid 65534), not by you or root, "
          + "so no hook was run; nothing was changed"
      ], "\(refused)")
    #expect(!FileManager.default.fileExists(atPath: mark + "2"))
  }

  @Test func aConfigurationValueCannotHoldALineOfItsOwn() throws {
    let todo = try TodoSandbox()
    for value in ["vim\r\nhooks = off", "vim\rhooks = off", "vim\nhooks = off", "vi\u{1B}[2J", "vi\u{85}x"] {
      let run = todo("config", "set", "editor", value)
      #expect(run.status == 2, "\(run)")
      #expect(run.errorLines.first?.hasPrefix("todo: error: a value is one line of text, without control characters (it holds U+") == true, "\(run)")
      let context = todo("context", "define", "work", "+work", value)
      #expect(context.status == 2, "\(context)")
      let override = todo("-c", "editor=" + value, "list")
      #expect(override.status == 2, "\(override)")
    }
    #expect(!FileManager.default.fileExists(atPath: todo.folder.appendingPathComponent(".config/todo/config").path))
  }

  @Test func aConfigurationFileOthersCouldChangeIsNotRead() throws {
    let todo = try TodoSandbox()
    #expect(todo("config", "set", "editor", "true").status == 0)
    let file = todo.folder.appendingPathComponent(".config/todo/config").path
    // Group-writable with a group others belong to (nogroup, which is no user's own here).
    let group = getuid() == 0 ? gid_t(65534) : getgid()
    for mode: mode_t in [0o620, 0o602, 0o666] {
      chown(file, getuid(), group)
      chmod(file, mode)
      let run = todo("list")
      #expect(run.status == 1, "\(run)")
      #expect(
        run.errorLines.first
          == "todo: error: the configuration file \(file): it can be changed by other users (chmod go-w \(file) makes it safe), so it was not read",
        "\(run)")
      // Help and the version still run.
      #expect(todo("--version").status == 0)
    }
    chmod(file, 0o600)
    #expect(todo("list").status == 0)
    // Group-writable by the user's own private group (Debian's user groups, umask 002): read,
    // as Debian's OpenSSH allows it.
    if getuid() == 0, let root = getgrgid(0), root.pointee.gr_mem.pointee == nil {
      chown(file, 0, 0)
      chmod(file, 0o660)
      let run = todo("list")
      #expect(run.status == 0, "\(run)")
    }
  }

  /// SIGTERM or SIGHUP while the editor runs: todo ends as the signal says, and the file with the
  /// task's text is gone; nothing is changed.
  @Test(arguments: [SIGTERM, SIGHUP])
  func theEditFileIsRemovedWhenTodoIsStopped(signal: Int32) throws {
    let todo = try TodoSandbox()
    todo.add("Secret plans")
    let scratch = todo.folder.appendingPathComponent("tmp").path
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let started = todo.folder.appendingPathComponent("editing").path
    // An editor that changes the title, says it has started, and takes its time.
    let editor = todo.folder.appendingPathComponent("slow-editor").path
    // A sleep of its own length, so that each case stops only its own editor.
    let sleep = "sleep 30.\(signal)"
    try "#!/bin/sh\nsed -i 's/Secret plans/Changed/' \"$1\"\ntouch '\(started)'\nexec \(sleep)\n".write(
      toFile: editor, atomically: true, encoding: .utf8)
    chmod(editor, 0o755)
    let process = todo.launch(TodoSandbox.binary!, ["edit", "1"], environment: ["EDITOR": editor, "TMPDIR": scratch])
    var waited = 0
    while !FileManager.default.fileExists(atPath: started) && waited < 1_500 {
      usleep(20_000)
      waited += 1
    }
    try #require(FileManager.default.fileExists(atPath: started), "the editor never started")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).count == 1, "the file being edited")
    kill(process.process!.processIdentifier, signal)
    // The editor runs on (a terminal's hang-up would reach it too); end it as a terminal would.
    _ = todo.shell("pkill -f '\(sleep)'")
    let run = process.wait()
    #expect(run.status == 128 + signal, "\(run)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [], "the edit file was left behind")
    #expect(try todo.task(1)["title"] as? String == "Secret plans")
  }
  /// A password written into the sync URL would be stored in vdirsyncer's configuration and
  /// echoed at every sync: refused, and never shown back. A password for a plain http:// server
  /// elsewhere is warned of. (PATH holds no vdirsyncer, so nothing goes out.)
  @Test func aPasswordInTheSyncURLIsRefusedAndHTTPIsWarnedOf() throws {
    let todo = try TodoSandbox()
    let empty = todo.folder.appendingPathComponent("bin").path
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let run = todo.run(["sync", "--setup", "https://alice:s3cret@dav.example.com/alice/tasks/"], environment: ["PATH": empty])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.errorLines.first
        == "todo: error: bad value 'https://alice:***@dav.example.com/alice/tasks/' for --setup: the URL holds a password, which would be "
        + "stored in vdirsyncer's configuration and shown at every sync; give --user NAME, and --password-command CMD or nothing (todo then asks)",
      "\(run)")
    #expect(!run.stderr.contains("s3cret"))
    // A user name alone, or an @ after the host, is no password.
    for url in ["https://alice@dav.example.com/tasks/", "https://dav.example.com/a:b@c/"] {
      let plain = todo.run(["sync", "--setup", url, "--user", "alice"], environment: ["PATH": empty])
      #expect(plain.status == 1 && plain.stderr.contains("vdirsyncer"), "\(plain)")
    }
    for remote in ["http://dav.example.com/alice/tasks/", "http://127.example.com/tasks/", "http://127.0.0.1.example.com/"] {
      let http = todo.run(["sync", "--setup", remote, "--user", "alice"], environment: ["PATH": empty])
      #expect(
        http.errorLines.first
          == "todo: warning: the password will cross the network unencrypted (http://); use https:// unless the server is on this machine",
        "\(http)")
    }
    for local in ["http://127.0.0.1:5232/alice/tasks/", "http://localhost/tasks/", "http://[::1]:80/tasks/"] {
      let loopback = todo.run(["sync", "--setup", local, "--user", "alice"], environment: ["PATH": empty])
      #expect(!loopback.stderr.contains("warning"), "\(loopback)")
    }
  }
}
