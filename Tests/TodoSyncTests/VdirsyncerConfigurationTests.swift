import Foundation
import Testing
import TodoInterchange
import TodoSystem

@testable import TodoSync

/// Reading vdirsyncer's configuration as vdirsyncer does (configparser, values in JSON), and the
/// configuration `--setup` writes.
@Suite struct VdirsyncerConfigurationTests {
  private let paths = SyncPaths(environment: ["HOME": "/home/ann"])!

  @Test func theConfigurationSetupWritesReadsBack() {
    let text = Vdirsyncer.configuration(
      paths: paths, collection: "tasks", url: "https://dav.example.org/ann/tasks/", user: "ann", passwordCommand: nil,
      todo: "/usr/bin/todo")
    #expect(Vdirsyncer.vdirFolder(inConfiguration: text, home: "/home/ann") == "/home/ann/.local/share/todo/vdir/tasks")
    #expect(Vdirsyncer.value("url", in: "storage todo_remote", of: text, home: nil) == "https://dav.example.org/ann/tasks/")
    #expect(Vdirsyncer.passwordPrompt(inConfiguration: text) == "Password for ann at https://dav.example.org/ann/tasks/")
    let withCommand = Vdirsyncer.configuration(
      paths: paths, collection: "tasks", url: "https://x/", user: "ann", passwordCommand: "pass show dav", todo: "/usr/bin/todo")
    #expect(Vdirsyncer.passwordPrompt(inConfiguration: withCommand) == nil)
    #expect(Vdirsyncer.rawValue("password.fetch", in: "storage todo_remote", of: withCommand) == #"["command", "sh", "-c", "pass show dav"]"#)
  }

  /// configparser's forms: `key: value`, a key in any case, comments, a value over indented
  /// lines; JSON escapes; `~` for the home folder.
  @Test func valuesAreReadAsConfigparserAndJSONReadThem() {
    let text = """
      [general]
      status_path = "~/status/"

      [storage todo_local]
      # a comment = "not a value"
      ; another
      Type: "filesystem"
      PATH = "~/vdir/caf\\u00e9/"

      [storage todo_remote]
      password.fetch = ["command",
        "todo", "sync", "--ask-password",
        "Password for ann"]
      url = "https://x/"
      """
    #expect(Vdirsyncer.value("type", in: "storage todo_local", of: text, home: nil) == "filesystem")
    #expect(Vdirsyncer.vdirFolder(inConfiguration: text, home: "/home/ann") == "/home/ann/vdir/café")
    #expect(Vdirsyncer.passwordPrompt(inConfiguration: text) == "Password for ann")
    #expect(Vdirsyncer.value("url", in: "storage todo_remote", of: text, home: nil) == "https://x/")
    #expect(Vdirsyncer.value("path", in: "storage todo_remote", of: text, home: nil) == nil)
  }

  /// An unquoted value is not JSON: vdirsyncer refuses the file, and todo says why rather than
  /// "no path".
  @Test func anUnquotedValueIsNamedAsVdirsyncerWouldRefuseIt() {
    let text = """
      [storage todo_local]
      type = "filesystem"
      path = /home/ann/vdir/
      """
    #expect(Vdirsyncer.vdirFolder(inConfiguration: text, home: nil) == nil)
    guard case .failure(let problem)? = Vdirsyncer.jsonValue("path", in: "storage todo_local", of: text) else {
      Issue.record("an unquoted path read as JSON")
      return
    }
    #expect(
      problem.message
        == #"path in [storage todo_local] is /home/ann/vdir/, which vdirsyncer cannot read: its values are JSON, so text is quoted (path = "/home/ann/vdir/")"#
    )
    // Trailing text after a JSON value is not JSON either.
    #expect(Vdirsyncer.jsonValue("x", in: "s", of: "[s]\nx = \"a\" b") == .failure(.init(key: "x", section: "s", text: "\"a\" b")))
  }
}

/// configparser's continuation lines belong to the key above them, whichever key it is, and a
/// configuration `--setup` wrote with vdirsyncer's own prompt is brought to todo's question.
@Suite struct VdirsyncerConfigurationEdgeTests {
  @Test func anIndentedLineGoesOnWithTheKeyAboveItWhicheverItIs() {
    let text = """
      [storage todo_remote] # the server
      item_types = [
        "VTODO"]
      other = [
        url = "not this"]
      url = "https://x/"
      """
    #expect(Vdirsyncer.value("url", in: "storage todo_remote", of: text, home: nil) == "https://x/")
    #expect(Vdirsyncer.rawValue("item_types", in: "storage todo_remote", of: text) == "[\n\"VTODO\"]")
  }

  @Test func anOldSetupsPromptBecomesTodosQuestion() {
    let paths = SyncPaths(environment: ["HOME": "/home/ann"])!
    let current = Vdirsyncer.configuration(
      paths: paths, collection: "tasks", url: "https://x/", user: "ann", passwordCommand: nil, todo: "/usr/bin/todo")
    let old = current.replacingOccurrences(
      of: #"password.fetch = ["command", "/usr/bin/todo", "sync", "--ask-password", "Password for ann at https://x/"]"#,
      with: #"password.fetch = ["prompt", "Password for ann at https://x/"]"#)
    #expect(old != current)
    #expect(Vdirsyncer.passwordPrompt(inConfiguration: old) == nil)
    #expect(Vdirsyncer.upgradingPasswordPrompt(inConfiguration: old, todo: "/usr/bin/todo") == current)
    #expect(Vdirsyncer.upgradingPasswordPrompt(inConfiguration: current, todo: "/usr/bin/todo") == nil)
    // Not todo's file: left as it is.
    #expect(Vdirsyncer.upgradingPasswordPrompt(inConfiguration: String(old.drop { $0 != "\n" }), todo: "/usr/bin/todo") == nil)
  }
}

/// Only the temporary files `writeAtomically` makes for vdir items count as leftovers.
@Test func onlyTodosTemporaryItemFilesAreLeftovers() {
  #expect(FileSystem.isLeftoverTemporaryName("0c5a.ics.todo-a1B2c3.tmp"))
  #expect(FileSystem.isLeftoverTemporaryName("abc@host.ics.todo-XXXXXX.tmp"))
  for name in [
    "notes.todo-backup.tmp", "x.ics.todo-12345.tmp", "x.ics.todo-1234567.tmp", "x.ics.todo-12_456.tmp",
    "x.todo-123456.tmp", "x.ics", "x.ics.todo-123456.tm", ".ics.todo-123456.tmp",
  ] {
    #expect(!FileSystem.isLeftoverTemporaryName(name), "\(name)")
  }
}
