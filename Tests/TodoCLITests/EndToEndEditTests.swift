import Foundation
import Testing

/// `todo edit ID` with scripted editors (shell scripts standing in for `$EDITOR`), through the
/// real binary.
@Suite struct EndToEndEditTests {
  /// An editor script: copies what it was given to `seen.N` (N counting its runs), then runs
  /// `body` on the file (`$1`).
  func editor(_ body: String, in todo: TodoSandbox) throws -> [String: String?] {
    let path = todo.folder.appendingPathComponent("editor.sh").path
    let script = """
      #!/bin/sh
      n=$(cat "$HOME/runs" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$HOME/runs"
      cp "$1" "$HOME/seen.$n"
      echo "$1" > "$HOME/path"
      stat -c %a "$1" > "$HOME/mode"
      \(body)
      """
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o700)
    return ["EDITOR": path, "VISUAL": nil]
  }

  func read(_ todo: TodoSandbox, _ name: String) -> String {
    (try? String(contentsOfFile: todo.folder.appendingPathComponent(name).path, encoding: .utf8)) ?? "(missing)"
  }

  @Test func savedChangesApplyAsOneUpdateAndOneUndo() throws {
    let todo = try TodoSandbox()
    todo.add("Ship release", "+release", "pri:H", "project:work")
    todo.add("Other")
    todo("note", "1", "first note").expectSuccess()
    todo("note", "1", "second note").expectSuccess()
    let before = try todo.task(1)
    let environment = try editor(
      """
      sed -i -e 's/^title: .*/title: Ship the release/' -e 's/^priority: H/priority: M/' -e 's/^tags: release/tags: release urgent/' \\
        -e 's/^due: *$/due: 2026-11-27/' -e 's/^depends: *$/depends: 2/' -e '/^note 1:/d' -e 's/^note 2: .*/note 2: second, edited/' "$1"
      echo 'note: a new one' >> "$1"
      """, in: todo)
    let run = todo("edit", "1", environment: environment)
    run.expectSuccess()
    #expect(run.stdout == "Updated task 1: Ship the release  +release +urgent project:work pri:M due:2026-11-27 depends:2 notes:2\n")
    let seen = read(todo, "seen.1")
    #expect(seen.contains("\ntitle: Ship release\npriority: H\nproject: work\ntags: release\ndue: \n"))
    #expect(seen.contains("\nnote 1: first note\nnote 2: second note\n"))
    #expect(read(todo, "mode") == "600\n")
    #expect(!FileManager.default.fileExists(atPath: read(todo, "path").trimmingCharacters(in: .newlines)))
    let after = try todo.task(1)
    #expect((after["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["second, edited", "a new one"])
    #expect(after["depends_ids"] as? [Int] == [2])
    todo("undo").expectSuccess()
    var restored = try todo.task(1)
    restored["modified"] = before["modified"]
    #expect(NSDictionary(dictionary: restored) == NSDictionary(dictionary: before))
  }

  @Test func userDefinedAttributesAreLinesOfTheForm() throws {
    let todo = try TodoSandbox()
    todo("config", "set", "uda.client.type", "string").expectSuccess()
    todo("config", "set", "uda.estimate.type", "duration").expectSuccess()
    todo.add("Call", "client:acme")
    let environment = try editor(
      "sed -i -e 's/^client: acme/client: globex/' -e 's/^estimate: *$/estimate: 90min/' \"$1\"", in: todo)
    let run = todo("edit", "1", environment: environment)
    run.expectSuccess()
    #expect(read(todo, "seen.1").contains("\ndepends: \nclient: acme\nestimate: \n"), "\(read(todo, "seen.1"))")
    let udas = try #require(try todo.task(1)["udas"] as? [String: Any])
    #expect(udas["client"] as? String == "globex" && udas["estimate"] as? String == "PT1H30M", "\(udas)")
    // Emptied: cleared.
    let clear = try editor("sed -i -e 's/^client: .*/client:/' \"$1\"", in: todo)
    todo("edit", "1", environment: clear).expectSuccess()
    #expect((try todo.task(1)["udas"] as? [String: Any])?["client"] == nil)
  }

  @Test func anErrorReopensTheEditorWithTheErrorAtTheTop() throws {
    let todo = try TodoSandbox()
    todo.add("Pay rent", "due:2026-12-01")
    let environment = try editor(
      """
      if [ $n = 1 ]; then sed -i -e 's/^due: .*/due: someday soon/' -e 's/^project:.*/projekt: home/' "$1"; fi
      if [ $n = 2 ]; then sed -i -e 's/^projekt:/project:/' "$1"; fi
      if [ $n = 3 ]; then sed -i -e 's/^due: .*/due: 2026-12-02/' "$1"; fi
      """, in: todo)
    let run = todo("edit", "1", environment: environment)
    run.expectSuccess()
    #expect(read(todo, "runs") == "3\n")
    #expect(read(todo, "seen.2").hasPrefix("# ERROR: line 7: 'projekt' is not a field (did you mean 'project'?)\n"))
    #expect(read(todo, "seen.3").hasPrefix("# ERROR: cannot read the date 'someday soon'"))
    #expect(read(todo, "seen.3").contains("\nproject: home\n"))
    let task = try todo.task(1)
    #expect(task["due"] as? String == "2026-12-02" && task["project"] as? String == "home")
  }

  @Test func anUnchangedEmptyOrAbandonedEditChangesNothing() throws {
    let todo = try TodoSandbox()
    todo.add("Keep", "+x")
    let before = todo.snapshot()
    let unchanged = todo("edit", "1", environment: try editor("true", in: todo))
    #expect(unchanged.stdout == "No changes: task 1 was not changed.\n")
    let empty = todo("edit", "1", environment: try editor(": > \"$1\"", in: todo))
    #expect(empty.stdout == "The file was empty: task 1 was not changed.\n")
    let failed = todo("edit", "1", environment: try editor("sed -i 's/^title: .*/title: Gone/' \"$1\"; exit 1", in: todo))
    #expect(failed.status == 1 && failed.stderr.contains("exited with status 1; nothing was changed"))
    // Killed by a signal: nothing changes, and the file is gone.
    let killed = todo("edit", "1", environment: try editor("sed -i 's/^title: .*/title: Gone/' \"$1\"; kill -9 $$", in: todo))
    #expect(killed.status == 1 && killed.stderr.contains("exited with status 137"))
    #expect(!FileManager.default.fileExists(atPath: read(todo, "path").trimmingCharacters(in: .newlines)))
    // An error saved again unfixed gives up.
    let stuck = todo("edit", "1", environment: try editor("sed -i 's/^tags: .*/colour: red/' \"$1\"", in: todo))
    #expect(stuck.status == 2 && stuck.stderr.contains("'colour' is not a field"))
    #expect(todo.snapshot() == before)
  }

  @Test func aTaskChangedWhileItWasEditedIsNotOverwritten() throws {
    let todo = try TodoSandbox()
    todo.add("Shared")
    let environment = try editor(
      """
      "$TODO" update 1 +fromelsewhere > /dev/null
      sed -i 's/^title: .*/title: Mine/' "$1"
      """, in: todo)
    let run = todo("edit", "1", environment: environment)
    #expect(run.status == 1)
    #expect(run.stderr.contains("task 1 was changed by another command while it was being edited; nothing was changed"))
    let task = try todo.task(1)
    #expect(task["title"] as? String == "Shared" && task["tags"] as? [String] == ["fromelsewhere"])
    #expect(todo("update", "1", "x").status == 0, "edit is no longer update's alias, and update still works")
  }

  @Test func notesKeepTheirSpacesAndLineBreaksAndStoreErrorsReopenTheEditor() throws {
    let todo = try TodoSandbox()
    todo.add("Plain")
    todo.add("Noted")
    // Notes with what an edit must not lose: leading spaces, a tab, a line break (by import).
    let imported =
      #"[{"uuid":"0d9e6e1a-2d5f-4b1e-9c43-6f2f9b0d2a11","title":"Noted","status":"pending","notes":[{"text":"  indented\tand\nbroken ","created":"2026-11-20T10:00:00Z"}],"created":"2026-11-20T10:00:00Z","modified":"2026-11-20T10:00:00Z"}]"#
    todo("import", "-", "--format", "json", stdin: imported).expectSuccess()
    let id = try todo("list", "Noted", "--json").jsonArray().last?["id"] as? Int ?? 0
    let note = try todo.task(id)["notes"] as? [[String: Any]]
    let environment = try editor(
      """
      if [ $n = 1 ]; then sed -i -e 's/^priority: *$/priority: H/' -e 's/^depends: *$/depends: 99/' "$1"; fi
      if [ $n = 2 ]; then sed -i -e 's/^depends: 99/depends:/' "$1"; fi
      """, in: todo)
    let run = todo("edit", String(id), environment: environment)
    run.expectSuccess()
    #expect(read(todo, "seen.2").hasPrefix("# ERROR: "))
    let after = try todo.task(id)
    #expect(after["priority"] as? String == "H")
    #expect(NSArray(array: after["notes"] as? [[String: Any]] ?? []) == NSArray(array: note ?? []))
    // A note number on a task without notes is an error to fix, not a crash.
    let plain = try editor("if [ $n = 1 ]; then echo 'note 1: hi' >> \"$1\"; else sed -i '/^note 1:/d' \"$1\"; fi", in: todo)
    try? FileManager.default.removeItem(atPath: todo.folder.appendingPathComponent("runs").path)
    let numbered = todo("edit", "1", environment: plain)
    #expect(numbered.status == 0 && numbered.stdout == "No changes: task 1 was not changed.\n")
    #expect(read(todo, "seen.2").contains("# ERROR: line ") && read(todo, "seen.2").contains("the task has no notes"))
    // An editor that saves with CRLF line endings.
    try? FileManager.default.removeItem(atPath: todo.folder.appendingPathComponent("runs").path)
    let crlf = try editor("sed -i -e 's/^title: .*/title: Windows/' -e 's/$/\\r/' \"$1\"", in: todo)
    #expect(todo("edit", "1", environment: crlf).stdout == "Updated task 1: Windows\n")
  }
}
