import Foundation
import Testing

/// Taskwarrior-compatible hooks, with real hook programs (sh and python3), through the real
/// binary.
@Suite struct EndToEndHookTests {
  /// Writes an executable hook (0700) into the sandbox's hooks folder.
  @discardableResult
  func hook(_ name: String, _ text: String, in todo: TodoSandbox, mode: mode_t = 0o700) throws -> String {
    let folder = todo.folder.appendingPathComponent(".config/todo/hooks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, mode)
    return path
  }

  func read(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  /// Written the way timewarrior's `on-modify.timewarrior` is: two `readline()`s of JSON, the
  /// new task printed back with `json.dumps` before anything else, then its own output.
  static let timewarriorStyle = """
    #!/usr/bin/env python3
    import json
    import sys

    input_stream = sys.stdin.buffer
    old = json.loads(input_stream.readline().decode("utf-8", errors="replace"))
    new = json.loads(input_stream.readline().decode("utf-8", errors="replace"))
    print(json.dumps(new))

    with open(sys.argv[0] + ".log", "a") as log:
        log.write(json.dumps({"argv": sys.argv[1:], "old": old, "new": new}) + "\\n")
    if "start" in new and "start" not in old:
        print("Tracking " + new["description"] + " " + " ".join(new.get("tags", [])))
    elif "start" not in new and "start" in old:
        print("Recorded " + new["description"])
    """

  @Test func aTimewarriorStyleOnModifyHookWorksUnchanged() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Write report", "+work")
    let path = try hook("on-modify.timewarrior", Self.timewarriorStyle, in: todo)
    let start = todo("start", "1")
    start.expectSuccess()
    #expect(start.stdout == "Started task 1: Write report  +work active\n")
    #expect(start.stderr == "Tracking Write report work\n")
    let stop = todo("stop")
    #expect(stop.stderr == "Recorded Write report\n")
    let calls = read(path + ".log").split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(calls.count == 2)
    let argv = calls.first?["argv"] as? [String] ?? []
    #expect(argv.count == 6 && argv[0] == "api:2" && argv[1] == "args:todo start 1" && argv[2] == "command:start")
    #expect(argv[3].hasPrefix("rc:") && argv[3].hasSuffix("/.config/todo/config") && argv[5].hasPrefix("version:"))
    let new = calls.first?["new"] as? [String: Any]
    #expect(new?["description"] as? String == "Write report" && new?["start"] is String)
    #expect((calls.first?["old"] as? [String: Any])?["start"] == nil)
    // The task was changed once each, and the hook changed nothing itself.
    #expect(try todo.task(1)["tags"] as? [String] == ["work"])
    #expect(todo("journal", "--json").stdout.components(separatedBy: "\"command\"").count == 4)
  }

  @Test func onAddAndOnModifyHooksChangeTheTaskInTheSameUndoStep() throws {
    let todo = try TodoSandbox(inProcess: false)
    try hook(
      "on-add.upper",
      """
      #!/usr/bin/env python3
      import json, os, sys
      task = json.loads(sys.stdin.readline())
      task["description"] = task["description"].upper()
      open(os.environ["HOME"] + "/seen-uuid", "w").write(task["uuid"])
      task.setdefault("tags", []).append("hooked")
      task["project"] = "inbox"
      task.setdefault("annotations", []).append({"entry": "20261121T093000Z", "description": "seen by a hook"})
      print(json.dumps(task))
      print("on-add saw it")
      """, in: todo)
    try hook(
      "on-modify.priority",
      """
      #!/usr/bin/env python3
      import json, sys
      old = json.loads(sys.stdin.readline())
      new = json.loads(sys.stdin.readline())
      if new.get("status") == "completed":
          new["priority"] = "L"
      print(json.dumps(new))
      """, in: todo)
    let add = todo("add", "buy milk", "+home")
    add.expectSuccess()
    #expect(add.stdout == "Added task 1: BUY MILK  +home +hooked project:inbox notes:1\n")
    #expect(add.stderr == "on-add saw it\n")
    let task = try todo.task(1)
    #expect(task["project"] as? String == "inbox")
    // The hook saw the UUID the task is stored with.
    #expect(read(todo.folder.appendingPathComponent("seen-uuid").path) == task["uuid"] as? String)
    #expect((task["notes"] as? [[String: Any]])?.first?["text"] as? String == "seen by a hook")
    todo("done", "1").expectSuccess()
    #expect(try todo.task(1)["priority"] as? String == "L")
    // One undo reverts the command and what its hook did.
    todo("undo").expectSuccess()
    let reopened = try todo.task(1)
    #expect(reopened["status"] as? String == "pending" && reopened["priority"] is NSNull)
    todo("undo").expectSuccess()
    #expect(todo("list", "status:all", "--json").stdout == "[]\n")
  }

  @Test func importRunsOnAddAndOnModifyWhenHooksImportIsOn() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Old one", "+home")
    let uuid = try todo.task(1)["uuid"] as! String
    try hook(
      "on-add.tag",
      """
      #!/usr/bin/env python3
      import json, os, sys
      task = json.loads(sys.stdin.readline())
      open(os.environ["HOME"] + "/added", "a").write(task["description"] + "\\n")
      task.setdefault("tags", []).append("imported")
      print(json.dumps(task))
      """, in: todo)
    try hook(
      "on-modify.log",
      """
      #!/usr/bin/env python3
      import json, os, sys
      old = json.loads(sys.stdin.readline())
      new = json.loads(sys.stdin.readline())
      open(os.environ["HOME"] + "/modified", "a").write(old["description"] + " -> " + new["description"] + "\\n")
      new["priority"] = "H"
      print(json.dumps(new))
      """, in: todo)
    let file = todo.folder.appendingPathComponent("in.json").path
    let lines = [
      #"{"uuid":"\#(uuid)","description":"Old one, renamed","status":"pending","entry":"20261120T090000Z","modified":"20261125T090000Z","tags":["home"]}"#,
      #"{"uuid":"6c3f1a9e-0d5b-4a57-9a43-2d6c7f1e8b01","description":"New one","status":"pending","entry":"20261121T090000Z","modified":"20261121T090000Z"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    // Off by default: an import is not a command a hook was written for.
    let quiet = todo.folder.appendingPathComponent("quiet.json").path
    try (#"{"uuid":"0a5e8f7c-1b2d-4c3e-8f9a-0b1c2d3e4f50","description":"Quiet","status":"pending","entry":"20261121T090000Z"}"# + "\n")
      .write(toFile: quiet, atomically: true, encoding: .utf8)
    todo("import", quiet).expectSuccess()
    #expect(read(todo.folder.appendingPathComponent("added").path) == "")
    todo("config", "set", "hooks.import", "on").expectSuccess()
    todo("import", file).expectSuccess()
    #expect(read(todo.folder.appendingPathComponent("added").path) == "New one\n")
    #expect(read(todo.folder.appendingPathComponent("modified").path) == "Old one -> Old one, renamed\n")
    #expect(try todo.task(1)["priority"] as? String == "H")
    #expect(try todo.task(3)["tags"] as? [String] == ["imported"])
    // One undo takes back the import and what the hooks did.
    todo("undo").expectSuccess()
    #expect(try todo.task(1)["title"] as? String == "Old one" && todo.ids("status:all") == [1, 2])
  }

  @Test func everyOnModifyHookGetsTheOriginalAndTheChangedTask() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Write report", "+work")
    // Two Timewarrior-style hooks (two readline()s each): the second one crashed when it got
    // only the first one's answer.
    try hook("on-modify.a-timewarrior", Self.timewarriorStyle, in: todo)
    let second = try hook("on-modify.b-timewarrior", Self.timewarriorStyle, in: todo)
    try hook(
      "on-modify.c-priority",
      """
      #!/usr/bin/env python3
      import json, sys
      old = json.loads(sys.stdin.readline())
      new = json.loads(sys.stdin.readline())
      new["priority"] = "H" if old.get("priority") != "H" else "L"
      print(json.dumps(new))
      """, in: todo)
    let start = todo("start", "1")
    start.expectSuccess()
    #expect(start.stderr == "Tracking Write report work\nTracking Write report work\n")
    let calls = read(second + ".log").split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect((calls.first?["old"] as? [String: Any])?["start"] == nil)
    #expect((calls.first?["new"] as? [String: Any])?["start"] is String)
    #expect(try todo.task(1)["priority"] as? String == "H")
  }

  @Test func aHookThatRefusesOrAnswersBadlyWritesNothing() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Keep")
    try hook(
      "on-add.guard",
      """
      #!/bin/sh
      read task
      case "$task" in
        *secret*) echo "no secrets in tasks, please"; exit 3 ;;
        *twice*) echo "$task"; echo "$task" ;;
        *other*) echo '{"uuid":"00000000-0000-4000-8000-000000000000","description":"x","status":"pending","entry":"20261121T093000Z"}' ;;
        *) echo "$task" ;;
      esac
      """, in: todo)
    let before = todo.snapshot()
    let refused = todo("add", "my secret plan")
    #expect(refused.status == 1)
    #expect(
      refused.stderr == "todo: error: the hook on-add.guard refused the command (exit status 3): no secrets in tasks, please; nothing was changed\n")
    let twice = todo("add", "twice")
    #expect(twice.status == 1 && twice.stderr.contains("answered with 2 JSON tasks, not 1"))
    let other = todo("add", "other task")
    #expect(other.status == 1 && other.stderr.contains("answered for another task"))
    #expect(todo.snapshot() == before)
    #expect(todo("add", "fine").status == 0)
    // Off by option and by configuration.
    #expect(todo("--no-hooks", "add", "a secret").status == 0)
    #expect(todo("-c", "hooks=off", "add", "another secret").status == 0)
    #expect(todo.ids().count == 4)
    // A dry run runs no hook.
    #expect(todo("add", "secret", "--dry-run").status == 0)
  }

  @Test func onLaunchCanStopACommandAndOnExitSeesWhatChanged() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("First")
    let log = todo.folder.appendingPathComponent("exit.log").path
    try hook("on-exit.log", "#!/bin/sh\ncat > '\(log)'\necho \"exit hook ran\"\n", in: todo)
    try hook("on-launch.gate", "#!/bin/sh\nif [ -e \"$HOME/closed\" ]; then echo 'the shop is closed'; exit 1; fi\necho open >&2\n", in: todo)
    let done = todo("done", "1")
    done.expectSuccess()
    #expect(done.stderr == "open\nexit hook ran\n")
    let lines = read(log).split(separator: "\n")
    #expect(lines.count == 1 && lines[0].contains("\"status\":\"completed\""))
    _ = FileManager.default.createFile(atPath: todo.folder.appendingPathComponent("closed").path, contents: nil)
    let before = todo.snapshot()
    let stopped = todo("add", "Second")
    #expect(stopped.status == 1 && stopped.stderr.contains("the hook on-launch.gate refused the command (exit status 1): the shop is closed"))
    #expect(todo.snapshot() == before)
  }

  /// The password a sync hands vdirsyncer never reaches a hook: the fetch runs no hooks, and a
  /// command's hooks do not get the variable.
  @Test func hooksNeverSeeTheSyncPassword() throws {
    let todo = try TodoSandbox(inProcess: false)
    let seen = todo.folder.appendingPathComponent("seen").path
    try hook("on-launch.spy", "#!/bin/sh\necho \"ran:${TODO_SYNC_PASSWORD:-none}\" >> '\(seen)'\n", in: todo)
    let fetched = todo.run(["sync", "--ask-password", "Password for ann"], environment: ["TODO_SYNC_PASSWORD": "s3cret"])
    #expect(fetched.status == 0 && fetched.stdout == "s3cret\n", "\(fetched)")
    #expect(read(seen).isEmpty, "a hook ran for the password: \(read(seen))")
    todo.run(["list"], environment: ["TODO_SYNC_PASSWORD": "s3cret"]).expectSuccess()
    #expect(read(seen) == "ran:none\n", "\(read(seen))")
  }

  @Test func aSlowHookIsStoppedAndNeverHoldsTheDatabase() throws {
    let todo = try TodoSandbox(inProcess: false)
    try hook("on-add.slow", "#!/bin/sh\nsleep 30\n", in: todo)
    let started = Date()
    // While the slow hook runs, another todo writes without waiting for it.
    let run = todo.shell(
      """
      "$TODO" -c hooks.timeout=2 add slow task > slow.out 2> slow.err &
      sleep 0.5
      "$TODO" --no-hooks add quick task || exit 9
      wait $!
      echo "slow exit $?"
      cat slow.err
      """)
    #expect(Date().timeIntervalSince(started) < 15)
    #expect(run.lines.first == "Added task 1: quick task")
    #expect(run.lines.contains("slow exit 1"))
    #expect(run.stdout.contains("todo: error: the hook on-add.slow ran longer than 2s (hooks.timeout) and was stopped; nothing was changed"))
    #expect(todo.ids() == [1])
  }

  @Test func hooksOthersCouldChangeAreRefused() throws {
    let todo = try TodoSandbox(inProcess: false)
    let path = try hook("on-add.open", "#!/bin/sh\ncat\n", in: todo, mode: 0o777)
    let run = todo("add", "x")
    #expect(run.status == 1)
    #expect(
      run.stderr.contains(
        "the hook \(path) can be changed by other users (chmod go-w \(path) makes it safe), so no hook was run; nothing was changed"))
    chmod(path, 0o755)
    #expect(todo("add", "x").status == 0)
    // A file that is not executable is not a hook (a README beside them).
    try hook("on-add.README", "notes", in: todo, mode: 0o644)
    #expect(todo("add", "y").status == 0)
  }
}

/// What reviews of the hooks found, kept found.
@Suite struct EndToEndHookEdgeTests {
  let helper = EndToEndHookTests()

  @Test func aHookThatChangesNothingLeavesEveryOtherUndoStepAlone() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Shared")
    // While the hook runs, another command adds +x; the hook then asks for +x too, which
    // changes nothing any more.
    try helper.hook(
      "on-modify.late",
      """
      #!/usr/bin/env python3
      import json, os, subprocess, sys
      old = json.loads(sys.stdin.readline())
      new = json.loads(sys.stdin.readline())
      subprocess.run([os.environ["TODO"], "--no-hooks", "update", "1", "+x"], stdout=subprocess.DEVNULL, check=True)
      new.setdefault("tags", []).append("x")
      print(json.dumps(new))
      """, in: todo)
    todo("update", "1", "pri:H").expectSuccess()
    let history = try todo("journal", "--json").jsonArray().map { $0["command"] as? String }
    // Each command its own undo step: the hook's update, which changed nothing, folded nothing.
    #expect(history == ["update 1 pri:H", "update 1 +x", "add Shared"])
    todo("undo").expectSuccess()
    let task = try todo.task(1)
    #expect(task["priority"] is NSNull && task["tags"] as? [String] == ["x"])
  }

  @Test func aHookThatLeavesAProgramRunningIsNotWaitedFor() throws {
    let todo = try TodoSandbox(inProcess: false)
    try helper.hook("on-add.background", "#!/bin/sh\nread t\n(sleep 20 &)\necho \"$t\"\n", in: todo)
    let started = Date()
    todo("-c", "hooks.timeout=15", "add", "quick").expectSuccess()
    #expect(Date().timeIntervalSince(started) < 8)
  }

  @Test func tasksChangedOrMadeOnTheSideGoThroughHooksToo() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Water plants", "due:2026-11-21", "recur:weekly")
    todo.add("Write")
    todo.add("Read")
    let log = todo.folder.appendingPathComponent("hooks.log").path
    for event in ["on-add", "on-modify"] {
      try helper.hook(
        "\(event).log",
        """
        #!/usr/bin/env python3
        import json, sys
        tasks = [json.loads(line) for line in sys.stdin]
        with open("\(log)", "a") as log:
            log.write("\(event) " + tasks[-1]["description"] + " " + tasks[-1]["status"] + "\\n")
        print(json.dumps(tasks[-1]))
        """, in: todo)
    }
    todo("done", "1").expectSuccess()
    todo("start", "2").expectSuccess()
    todo("-c", "tracking.exclusive=yes", "start", "3").expectSuccess()
    #expect(
      helper.read(log).split(separator: "\n") == [
        "on-modify Water plants completed", "on-add Water plants pending",
        "on-modify Write pending",
        "on-modify Read pending", "on-modify Write pending",
      ])
  }

  @Test func stoppingTodoStopsItsHook() throws {
    let todo = try TodoSandbox(inProcess: false)
    try helper.hook("on-add.slow", "#!/bin/sh\ntouch \"$HOME/hook-started\"\nsleep 3\ntouch \"$HOME/hook-finished\"\ncat\n", in: todo)
    let run = todo.shell(
      """
      "$TODO" -c hooks.timeout=10 add never &
      n=0; while [ ! -e hook-started ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
      kill -TERM $!
      wait $!
      echo "exit $?"
      sleep 3.5
      test -e hook-finished && echo "the hook ran on"
      exit 0
      """)
    #expect(run.lines == ["exit 143"])
    #expect(todo.ids() == [])
  }

  @Test func aRecurringTasksOnAddHookSeesTheUUIDItIsStoredWith() throws {
    let todo = try TodoSandbox(inProcess: false)
    try helper.hook(
      "on-add.uuid",
      """
      #!/usr/bin/env python3
      import json, os, sys
      task = json.loads(sys.stdin.readline())
      open(os.environ["HOME"] + "/seen-uuid", "a").write(task["uuid"] + "\\n")
      print(json.dumps(task))
      """, in: todo)
    todo("add", "Water plants", "due:2026-11-21", "recur:daily").expectSuccess()
    todo("done", "1").expectSuccess()
    let seen = helper.read(todo.folder.appendingPathComponent("seen-uuid").path).split(separator: "\n").map(String.init)
    let stored = try todo("list", "status:all", "--sort", "id", "--json").jsonArray().compactMap { $0["uuid"] as? String }
    #expect(seen == stored && seen.count == 2)
  }

  @Test func whatTodoDoesNotTakeFromAHookIsRefusedNotDropped() throws {
    let todo = try TodoSandbox(inProcess: false)
    todo.add("Keep")
    try helper.hook(
      "on-modify.status",
      """
      #!/usr/bin/env python3
      import json, sys
      old = json.loads(sys.stdin.readline())
      new = json.loads(sys.stdin.readline())
      new["status"] = "deleted"
      new["estimate"] = "3h"
      print(json.dumps(new))
      """, in: todo)
    let before = todo.snapshot()
    let run = todo("update", "1", "pri:L")
    #expect(run.status == 1)
    #expect(
      run.stderr.contains("changed what todo does not take from hooks (status; estimate (not defined: uda.estimate.type)); nothing was changed"),
      "\(run)")
    #expect(todo.snapshot() == before)
  }
}
