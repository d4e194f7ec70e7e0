import Foundation
import Testing

/// `make install` and `make uninstall`, run for real into a scratch DESTDIR with the built
/// binary (`install-files`, the recipe `install` runs after building the release binary): the
/// files land where each program looks, the installed binary runs, bash and fish find their
/// completions on their own, the man page renders, and uninstall removes exactly what was put.
@Suite(.serialized)
struct InstallTests {
  static let installed = [
    "usr/local/bin/todo", "usr/local/share/man/man1/todo.1", "usr/local/share/bash-completion/completions/todo",
    "usr/local/share/zsh/site-functions/_todo", "usr/local/share/fish/vendor_completions.d/todo.fish",
    "usr/local/share/todo/todo.schema.json",
  ]

  @Test func installPutsEveryFileWhereItsProgramLooksAndUninstallRemovesThem() throws {
    let todo = try TodoSandbox(inProcess: false)
    let root = try ManPageTests.repositoryRoot()
    let destination = todo.folder.appendingPathComponent("stage").path
    // Something of the user's in the same folders must survive the uninstall.
    let other = destination + "/usr/local/share/man/man1/other.1"
    try FileManager.default.createDirectory(atPath: destination + "/usr/local/share/man/man1", withIntermediateDirectories: true)
    try "keep".write(toFile: other, atomically: true, encoding: .utf8)

    let install = make(["install-files", "BINARY=\(TodoSandbox.binary!.path)", "PREFIX=/usr/local", "DESTDIR=\(destination)"], in: root, todo)
    try #require(install.status == 0, "\(install)")
    for file in Self.installed {
      #expect(FileManager.default.fileExists(atPath: destination + "/" + file), "not installed: \(file)")
    }
    let modes = try Self.installed.map { try FileManager.default.attributesOfItem(atPath: destination + "/" + $0)[.posixPermissions] as? Int }
    #expect(modes == [0o755, 0o644, 0o644, 0o644, 0o644, 0o644])

    // The installed binary runs, and its completion scripts are the ones it prints.
    let binary = destination + "/usr/local/bin/todo"
    let version = todo.shell("'\(binary)' --version")
    #expect(version.status == 0 && version.stdout.hasPrefix("todo "), "\(version)")
    let bashScript = todo.shell("'\(binary)' completions bash")
    #expect(bashScript.stdoutBytes == FileManager.default.contents(atPath: destination + "/usr/local/share/bash-completion/completions/todo"))
    let schema = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: destination + "/usr/local/share/todo/todo.schema.json")))
    #expect((schema as? [String: Any])?["$defs"] != nil)

    // The man page renders.
    let page = todo.shell("mandoc -Tutf8 '\(destination)/usr/local/share/man/man1/todo.1' | col -b")
    #expect(page.status == 0, "\(page.stderr)")
    #expect(page.stdout.contains("completions bash | zsh | fish"))
    #expect(page.stdout.contains("EXAMPLES"))

    // bash-completion (its loader returns 124: "loaded, try again") and fish find the scripts through XDG_DATA_DIRS, as with /usr/local/share.
    let environment: [String: String?] = [
      "PATH": destination + "/usr/local/bin:/usr/bin:/bin", "XDG_DATA_DIRS": destination + "/usr/local/share",
    ]
    let bash = todo.shell(
      "bash --norc --noprofile -c 'source /usr/share/bash-completion/bash_completion ; _completion_loader todo; complete -p todo'",
      environment: environment)
    #expect(bash.stdout == "complete -F _todo todo\n", "\(bash)")
    let fish = todo.shell("fish -c 'complete -C \"todo li\"'", environment: environment)
    #expect(fish.stdout == "list\n", "\(fish)")

    let uninstall = make(["uninstall", "PREFIX=/usr/local", "DESTDIR=\(destination)"], in: root, todo)
    #expect(uninstall.status == 0, "\(uninstall)")
    let left = FileManager.default.enumerator(atPath: destination)?.compactMap { path -> String? in
      guard let path = path as? String else { return nil }
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: destination + "/" + path, isDirectory: &isFolder)
      return exists && !isFolder.boolValue ? path : nil
    }
    #expect(left == ["usr/local/share/man/man1/other.1"])
  }

  /// Runs make in the repository with the sandbox's environment (none of an outer make's
  /// MAKEFLAGS: `make test` runs these tests).
  private func make(_ arguments: [String], in root: URL, _ todo: TodoSandbox) -> TodoRun {
    todo.shell(
      "cd '\(root.path)' && make -s " + arguments.map { "'\($0)'" }.joined(separator: " "),
      environment: ["MAKEFLAGS": nil, "MAKELEVEL": nil, "MFLAGS": nil])
  }
}
