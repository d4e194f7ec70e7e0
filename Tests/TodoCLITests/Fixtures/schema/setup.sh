#!/bin/sh
# Populates a scratch todo database for the JSON schema cases (cases.tsv beside this file).
# Needs TODO_DB, XDG_CONFIG_HOME and XDG_DATA_HOME (scratch folders: it replaces todo's config,
# vdir, vdirsyncer and hooks folders there; HOME should be scratch too), and TODO (the binary;
# default: todo on PATH). Writes fixture files next to the database. Each case runs with that
# folder as its working directory, `todo` on PATH, TODO_NOW=2026-11-21T10:42:00Z and TZ=UTC,
# against a fresh copy of what this script made: JSONSchemaTests does all that.
set -eu
: "${TODO_DB:?set TODO_DB to a scratch database path}"
: "${XDG_CONFIG_HOME:?set XDG_CONFIG_HOME to a scratch folder}"
: "${XDG_DATA_HOME:?set XDG_DATA_HOME to a scratch folder}"
TODO=${TODO:-todo}
export TZ=${TZ:-UTC}
DIR=$(dirname "$TODO_DB")
if [ -f "$XDG_CONFIG_HOME/todo/config" ] && ! head -1 "$XDG_CONFIG_HOME/todo/config" | grep -q '^# scratch configuration for the schema cases'; then
  echo "schema-setup: $XDG_CONFIG_HOME/todo/config is not a scratch configuration; refusing" >&2; exit 1
fi
rm -rf "$XDG_DATA_HOME/todo/vdir" "$XDG_DATA_HOME/todo/vdirsyncer" "$XDG_CONFIG_HOME/todo/vdirsyncer" "$XDG_CONFIG_HOME/todo/hooks"
mkdir -p "$DIR" "$XDG_CONFIG_HOME/todo" "$XDG_DATA_HOME"
rm -f "$TODO_DB" "$TODO_DB-wal" "$TODO_DB-shm"
unset VISUAL EDITOR
# at TIME ARGS...: run todo with the clock at TIME, quietly.
at() { t=$1; shift; TODO_NOW=$t "$TODO" --no-hooks -y "$@" >/dev/null; }

cat > "$XDG_CONFIG_HOME/todo/config" <<'CFG'
# scratch configuration for the schema cases
week.start = monday
context.work = project:work
context.home = project:home or +home

[report.ranked]
description = pending tasks with their urgency, by due date
columns = id,priority,urgency,due,title
sort = due
CFG

# 1-8: a variety of pending tasks (ids in order)
at 2026-11-18T09:00:00Z add Pay rent project:home pri:H due:2026-11-30 +bills +home
at 2026-11-18T09:05:00Z add Weekly review recur:weekly due:2026-11-16 project:work
at 2026-11-18T09:10:00Z add Plan the trip project:travel pri:M scheduled:2026-11-25T08:00:00Z
at 2026-11-18T09:11:00Z add Book flights parent:3 due:2026-12-01T16:00:00Z +travel
at 2026-11-18T09:12:00Z add Reserve a hotel parent:3 wait:2026-12-05 until:2027-01-01
at 2026-11-18T09:13:00Z add Compare prices parent:4 pri:L
at 2026-11-18T09:20:00Z add Call the bank depends:1 pri:L --note "ask about the fees"
at 2026-11-18T09:30:00Z add Write report project:work due:2026-11-20 +Report
# 9: deleted; 10: logged done; 11: expires (until passed) at the next write
at 2026-11-18T09:40:00Z add Old idea +someday
at 2026-11-18T09:41:00Z delete 9
at 2026-11-18T09:42:00Z log Bought milk +errand
at 2026-11-18T09:43:00Z add Concert tickets until:2026-11-20T18:00:00Z
# 12: recurs after completion; completed once -> 13 is its next instance
at 2026-11-18T09:50:00Z add Water plants recur:+3d due:2026-11-19
at 2026-11-21T08:00:00Z done 12
# notes, an edit of one, a dependency added with blocks:
at 2026-11-19T10:00:00Z note 1 called the landlord
at 2026-11-19T10:05:00Z note 1 "paid by transfer"
at 2026-11-19T10:06:00Z note 1 --edit 2 will pay by transfer
at 2026-11-19T10:10:00Z update 8 blocks:2
# time tracking: 1 worked on and stopped, 8 worked on and still active
at 2026-11-20T09:00:00Z start 1
at 2026-11-20T09:30:00Z stop
at 2026-11-21T10:00:00Z start 8
# a done subtask, so the parent's progress counts one
at 2026-11-21T10:10:00Z done 6
# 14: to purge (deleted); 15: a series to end (delete --series)
at 2026-11-21T10:15:00Z add Scratch task
at 2026-11-21T10:16:00Z delete 14
at 2026-11-21T10:20:00Z add Daily standup recur:daily due:2026-11-22 project:work
at 2026-11-21T10:21:00Z delete --series 15

# Taskwarrior export with UDAs, to import (16, 17)
cat > "$DIR/tw.json" <<'TW'
[
{"uuid":"5b6a4b0e-3c0e-4e8a-9f39-0a1b2c3d4e5f","description":"Imported from taskwarrior","status":"pending","entry":"20261110T080000Z","modified":"20261110T090000Z","project":"home","tags":["tw"],"priority":"M","due":"20261201T120000Z","estimate":"3h","reviewed":"20261111T000000Z","annotations":[{"entry":"20261110T081500Z","description":"an annotation"}]},
{"uuid":"6c7b5c1f-4d1f-4f9b-8a4a-1b2c3d4e5f60","description":"Done in taskwarrior","status":"completed","entry":"20261101T080000Z","modified":"20261102T090000Z","end":"20261102T090000Z","estimate":"1h"}
]
TW
at 2026-11-21T10:25:00Z import "$DIR/tw.json" --format taskwarrior

# an iCalendar file with a property todo does not model, to import (18)
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VTODO\r\nUID:ical-1@example.org\r\nDTSTAMP:20261115T100000Z\r\nLAST-MODIFIED:20261115T100000Z\r\nSUMMARY:From a calendar\r\nLOCATION:Office\r\nPRIORITY:1\r\nDUE;VALUE=DATE:20261210\r\nCATEGORIES:cal\r\nEND:VTODO\r\nEND:VCALENDAR\r\n' > "$DIR/one.ics"
at 2026-11-21T10:26:00Z import "$DIR/one.ics"

# fixtures for import cases (not imported here)
printf '(A) Call mom +family @phone due:2026-11-28\nx 2026-11-20 2026-11-19 Took out the trash @home\n' > "$DIR/todo.txt"
"$TODO" export 1 --format jsonl > "$DIR/one.jsonl"
cat > "$DIR/new-tw.json" <<'TW'
[{"uuid":"7d8c6d20-5e20-4a0c-9b5b-2c3d4e5f6071","description":"New from taskwarrior","status":"pending","entry":"20261120T080000Z","modified":"20261120T080000Z","size":"large","depends":"8e9d7e31-6f31-4b1d-8c6c-3d4e5f607182"}]
TW

# sync: a hand-written vdirsyncer configuration (no server needed for --status, --offline,
# --conflicts), a first offline merge, then the same title changed on both sides -> a conflict
VDIR="$XDG_DATA_HOME/todo/vdir/tasks"
mkdir -p "$XDG_CONFIG_HOME/todo/vdirsyncer" "$VDIR"
cat > "$XDG_CONFIG_HOME/todo/vdirsyncer/config" <<CFG
[general]
status_path = "$XDG_DATA_HOME/todo/vdirsyncer/status/"

[pair todo]
a = "todo_local"
b = "todo_remote"
collections = null
conflict_resolution = ["command", "todo", "sync", "--resolve"]

[storage todo_local]
type = "filesystem"
path = "$VDIR"
fileext = ".ics"

[storage todo_remote]
type = "caldav"
url = "https://dav.example.org/alice/tasks/"
username = "alice"
CFG
at 2026-11-21T10:30:00Z sync --offline
# 17 deleted after the first sync (the second sends it as CANCELLED), purged after that (the next sync removes its file)
at 2026-11-21T10:31:00Z delete 17
F=$(grep -l 'SUMMARY:Pay rent' "$VDIR"/*.ics)
sed -e 's/^SUMMARY:Pay rent/SUMMARY:Pay the rent (server)/' -e 's/^LAST-MODIFIED:.*/LAST-MODIFIED:20261121T103500Z\r/' "$F" > "$F.tmp" && mv "$F.tmp" "$F"
at 2026-11-21T10:33:00Z update 1 --title "Pay rent (here)"
at 2026-11-21T10:36:00Z sync --offline
# something changed here since, for sync --status
at 2026-11-21T10:37:00Z update 7 +phone
# a title changed on both sides and not merged yet: the next sync --offline reports a conflict
F=$(grep -l 'SUMMARY:Plan the trip' "$VDIR"/*.ics)
sed -e 's/^SUMMARY:Plan the trip/SUMMARY:Plan the trip (server)/' -e 's/^LAST-MODIFIED:.*/LAST-MODIFIED:20261121T103800Z\r/' "$F" > "$F.tmp" && mv "$F.tmp" "$F"
at 2026-11-21T10:39:00Z update 3 --title "Plan the journey"
at 2026-11-21T10:40:00Z purge 17
# the other side's changes, not merged yet: a new file (added), a changed one (updated), the file of an
# unchanged task removed (deleted here) and of a task changed here (restored)
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VTODO\r\nUID:new-1@example.org\r\nDTSTAMP:20261121T100000Z\r\nLAST-MODIFIED:20261121T100000Z\r\nSUMMARY:Made on the phone\r\nEND:VTODO\r\nEND:VCALENDAR\r\n' > "$VDIR/new.ics"
F=$(grep -l 'SUMMARY:Book flights' "$VDIR"/*.ics)
sed -e 's/^SUMMARY:Book flights/SUMMARY:Book the flights/' -e 's/^LAST-MODIFIED:.*/LAST-MODIFIED:20261121T104100Z\r/' "$F" > "$F.tmp" && mv "$F.tmp" "$F"
rm "$(grep -l 'SUMMARY:Call the bank' "$VDIR"/*.ics)" "$(grep -l 'SUMMARY:Reserve a hotel' "$VDIR"/*.ics)"
ln -sfn "$VDIR" "$DIR/vdir"
# a newer copy of task 1 (import updates it)
"$TODO" export 1 --format jsonl | sed -e 's/"title":"[^"]*"/"title":"Pay rent (imported)"/' -e 's/"modified":"[^"]*"/"modified":"2026-11-21T10:41:00Z"/' > "$DIR/newer.jsonl"
# a vdir file sync cannot read (a case copies it into vdir/)
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VTODO\r\nUID:empty-1@example.org\r\nSUMMARY:\r\nEND:VTODO\r\nEND:VCALENDAR\r\n' > "$DIR/broken.ics"
# a stand-in vdirsyncer that does nothing, for sync and sync --setup without a server
mkdir -p "$DIR/fakebin"
printf '#!/bin/sh\nexit 0\n' > "$DIR/fakebin/vdirsyncer"
chmod +x "$DIR/fakebin/vdirsyncer"
# a shell script with a failing line, for the error's line key
printf 'show 1\nshow 999\n' > "$DIR/script.todo"
# hooks to copy into $XDG_CONFIG_HOME/todo/hooks/: one that refuses every command, one that speaks after a change
mkdir -p "$DIR/hooks-deny" "$DIR/hooks-say"
printf '#!/bin/sh\necho "not today"\nexit 1\n' > "$DIR/hooks-deny/on-launch-deny"
printf '#!/bin/sh\ncat >/dev/null\necho "backed up"\n' > "$DIR/hooks-say/on-exit-say"
chmod +x "$DIR/hooks-deny/on-launch-deny" "$DIR/hooks-say/on-exit-say"
