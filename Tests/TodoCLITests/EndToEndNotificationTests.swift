import Foundation
import Testing

/// Reminders reach a real notification server: dunst, on a private D-Bus session bus and a
/// virtual X display (Xvfb), all started and stopped by the test by pid. What dunst showed is
/// read back with `dunstctl history`. No time limit: on a loaded 2-core machine a test may wait
/// long for a thread; every step of the scripts is bounded instead.
@Suite struct EndToEndNotificationTests {
  /// Runs `body` (shell commands) with dunst up: `$DISPLAY`, `$DBUS_SESSION_BUS_ADDRESS` set;
  /// prints nothing of its own. Everything started is a child of this shell, killed and reaped.
  func withDunst(_ todo: TodoSandbox, _ body: String) -> TodoRun {
    script(
      todo,
      """
      cd "$HOME" || exit 1
      # dunst's context menu asks dmenu which action to take: this one takes the one named in ./choice.
      printf '#!/bin/sh\\ngrep -i -- "$(cat %s/choice 2>/dev/null)" | head -n 1\\n' "$HOME" > dmenu.sh; chmod 700 dmenu.sh
      printf '[global]\\n    stack_duplicates = false\\n    history_length = 50\\n    dmenu = %s/dmenu.sh\\n' "$HOME" > dunstrc
      wait_for() { i=0; while ! eval "$1" && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; }
      # The test process may have SIGTERM blocked, and its children with it: KILL after a moment.
      stop() { kill "$@" 2>/dev/null; wait_for '! kill -0 '"$*"' 2>/dev/null'; kill -9 "$@" 2>/dev/null; wait; }
      Xvfb -displayfd 3 -nolisten tcp 3>display 2>xvfb.log & XPID=$!
      wait_for '[ -s display ]'
      export DISPLAY=":$(head -n1 display)"
      dbus-daemon --session --nofork --nopidfile --print-address=3 3>bus 2>dbus.log & BPID=$!
      wait_for '[ -s bus ]'
      export DBUS_SESSION_BUS_ADDRESS="$(head -n1 bus)"
      dunst -config dunstrc 2>dunst.log & DPID=$!
      wait_for 'timeout 5 dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true'
      \(body)
      stop $DPID $BPID $XPID
      # A killed Xvfb leaves its lock and socket; remove them only if still ours (the tests run
      # at once, and another's Xvfb may have the number by now).
      if [ "$(cat "/tmp/.X${DISPLAY#:}-lock" 2>/dev/null | tr -d ' \\n')" = "$XPID" ]; then
        rm -f "/tmp/.X${DISPLAY#:}-lock" "/tmp/.X11-unix/X${DISPLAY#:}"
      fi
      """)
  }

  /// Runs a shell script in the sandbox, allowing it longer than a command (a loaded machine
  /// starts an X server slowly); every step in it is bounded.
  func script(_ todo: TodoSandbox, _ text: String) -> TodoRun {
    todo.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", text], shownAs: ["sh -c", text]).wait(seconds: 200)
  }

  /// The notifications dunst has in its history: summary, body, app name.
  func history(_ todo: TodoSandbox) throws -> [(summary: String, body: String, app: String)] {
    let data = try Data(contentsOf: todo.folder.appendingPathComponent("history.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let lists = try #require(object["data"] as? [[[String: Any]]])
    func text(_ item: [String: Any], _ key: String) -> String { (item[key] as? [String: Any])?["data"] as? String ?? "" }
    return (lists.first ?? []).map { (text($0, "summary"), text($0, "body"), text($0, "appname")) }
  }

  @Test func aReminderIsADesktopNotificationOnceThroughNotifySendOrGdbus() throws {
    for tool in ["Xvfb", "dunst", "dunstctl", "notify-send", "gdbus", "dbus-daemon", "dbus-send"] {
      try #require(TodoSandbox.hasTool(tool), "\(tool) is missing: 'make test' installs it (xvfb dunst libnotify-bin dbus libglib2.0-bin)")
    }
    let todo = try TodoSandbox()
    todo("add", "Call <the> dentist", "project:health", "due:2026-11-21T10:00", "remind:due-15min").expectSuccess()
    todo("add", "Water & feed", "remind:2026-11-21T09:00").expectSuccess()
    // Task 3's reminder is due later: delivered with notify-send out of reach (gdbus).
    todo("add", "Through gdbus", "remind:2026-11-21T11:00").expectSuccess()
    try FileManager.default.createDirectory(at: todo.folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: todo.folder.appendingPathComponent("bin/gdbus").path, withDestinationPath: "/usr/bin/gdbus")
    let run = withDunst(
      todo,
      """
      TODO_NOW=2026-11-21T09:46:00Z timeout 60 "$TODO" remind --check; echo "check=$?"
      TODO_NOW=2026-11-21T09:47:00Z timeout 60 "$TODO" remind --check; echo "again=$?"
      TODO_NOW=2026-11-21T11:00:00Z timeout 60 env PATH="$HOME/bin" "$TODO" remind --check; echo "gdbus=$?"
      sleep 0.3; timeout 10 dunstctl close-all; sleep 0.5
      timeout 10 dunstctl history > history.json
      """)
    #expect(run.lines == ["Delivered 2 reminders: task 2, task 1", "check=0", "again=0", "Delivered 1 reminder: task 3", "gdbus=0"], "\(run)")
    let shown = try history(todo)
    #expect(shown.count == 3, "\(shown)")
    let call = try #require(shown.first { $0.summary == "Call <the> dentist" }, "\(shown)")
    #expect(call.app == "todo" && call.body.contains("Due 2026-11-21 10:00 UTC (in 14min)") && call.body.contains("Project health"), "\(call)")
    let missed = try #require(shown.first { $0.summary == "Missed: Water & feed" }, "\(shown)")
    #expect(missed.body.contains("Reminder for 2026-11-21 09:00 UTC"), "\(missed)")
    #expect(shown.contains { $0.summary == "Through gdbus" && $0.app == "todo" }, "\(shown)")
  }

  @Test func doneAndSnoozeOnTheNotificationOfAWatchAreDone() throws {
    for tool in ["Xvfb", "dunst", "dunstctl", "notify-send", "dbus-daemon", "dbus-send"] {
      try #require(TodoSandbox.hasTool(tool), "\(tool) is missing: 'make test' installs it")
    }
    let todo = try TodoSandbox()
    todo.environment["TODO_NOW"] = nil
    let run = withDunst(
      todo,
      """
      "$TODO" add Call the dentist remind:now >/dev/null
      "$TODO" remind --watch > watch.out 2>&1 & WPID=$!
      wait_for 'grep -q "delivered the reminder of task 1" watch.out'
      echo done > choice; sleep 0.3; timeout 5 dunstctl context
      wait_for 'grep -q "task 1 is done" watch.out'
      "$TODO" add Water the plants remind:now >/dev/null
      wait_for 'grep -q "delivered the reminder of task 2" watch.out'
      echo snooze > choice; sleep 0.3; timeout 5 dunstctl context
      wait_for 'grep -q "task 2 snoozed" watch.out'
      kill -9 $WPID
      cat watch.out
      """)
    #expect(run.stdout.contains("task 1 is done (from its notification)"), "\(run)")
    #expect(run.stdout.contains("task 2 snoozed until"), "\(run)")
    #expect(try todo.task(1)["status"] as? String == "done")
    #expect(try (todo.task(2)["remind"] as? [String])?.last?.hasPrefix("snooze@") == true)
    // Each is an undo step.
    todo("undo").expectSuccess()
    #expect(try (todo.task(2)["remind"] as? [String])?.count == 1)
  }

  @Test func withNoNotificationServerTheReminderWaitsForTheNextCheck() throws {
    let todo = try TodoSandbox()
    todo("add", "Call", "remind:2026-11-21T09:00").expectSuccess()
    // A bus with nobody to show notifications (and no auto-start of one: a bus of our own).
    let run = script(
      todo,
      """
      cd "$HOME"; printf '<busconfig><type>session</type><listen>unix:tmpdir=%s</listen><policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>' "$HOME" > bus.conf
      dbus-daemon --config-file=bus.conf --nofork --nopidfile --print-address=3 3>bus & BPID=$!
      i=0; while [ ! -s bus ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
      DBUS_SESSION_BUS_ADDRESS="$(head -n1 bus)" timeout 60 "$TODO" remind --check; echo "check=$?"
      kill -9 $BPID; wait
      """)
    #expect(run.stdout.contains("check=1") && run.stderr.contains("todo: error: cannot deliver a reminder: /usr/bin/notify-send"), "\(run)")
    #expect(run.stderr.contains("1 reminder will be tried again at the next check"), "\(run)")
    #expect(try todo("remind", "--json").jsonArray().first?["state"] as? String == "due")
  }
}
