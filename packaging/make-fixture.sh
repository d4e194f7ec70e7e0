#!/bin/sh
# make-fixture.sh BINARY OUT.db: the database Tests/TodoCLITests/Fixtures/made-by-VERSION.db holds,
# made by that version's binary with the same commands each time (ReleaseTests opens it). At each
# release: packaging/make-fixture.sh .build/debug/todo Tests/TodoCLITests/Fixtures/made-by-VERSION.db
set -eu
T=$1; OUT=$2
dir=$(mktemp -d); export HOME=$dir TODO_DB=$dir/t.db TZ=UTC
at() { t=$1; shift; TODO_NOW=$t "$T" --no-hooks -y "$@" >/dev/null; }
at 2026-11-20T09:00:00Z add Buy milk +errand +home due:2026-11-22 pri:M
at 2026-11-20T09:01:00Z add Pay rent project:home pri:H due:eom
at 2026-11-20T09:02:00Z note 2 landlord wants it by the 1st
at 2026-11-20T09:03:00Z add "Café 日本 🎉" project:work.q4 pri:L scheduled:2026-11-23T08:30:00Z
at 2026-11-20T09:04:00Z add Water the plants recur:weekly due:2026-11-21 +home
at 2026-11-20T09:05:00Z add Pack bags depends:2 wait:2026-11-24
at 2026-11-20T09:06:00Z start 1
at 2026-11-20T09:36:00Z stop 1
at 2026-11-21T09:00:00Z done 4
at 2026-11-21T09:10:00Z add Old task
at 2026-11-21T09:11:00Z done 7
at 2026-11-21T09:12:00Z add Gone
at 2026-11-21T09:13:00Z delete 8
at 2026-11-21T09:14:00Z update 1 pri:H
sqlite3 "$TODO_DB" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
cp "$TODO_DB" "$OUT"
rm -rf "$dir"
