#!/usr/bin/env python3
"""`make bench`: todo side by side with SQLite's own CLI (and Taskwarrior), as ratios.

Every budget compares two commands timed in the same hyperfine invocation (warm-up, at least ten
runs each, interleaved in rounds), so a busy machine slows both sides alike; the ratio is the
median of the rounds' ratios. The data sets are made by
`todo-bench generate`, that is by the program's own store code, and cached in bench/data/ under
a key of the sources that make them.

    bench.py [--quick] [--smoke] [--out FILE]

--quick: 1k and 10k only (`make bench-quick`). --smoke: a tiny data set, one run, no budgets
(part of `make test`, so the script cannot rot). The table is printed and written to
bench/RESULTS.md (not with --smoke).
"""
import argparse
import datetime
import hashlib
import json
import statistics
import os
import platform
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data")
NOW = "2026-11-21T09:30:00Z"
NOW_SECONDS = 1795253400
SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1M": 1_000_000}

# Pending tasks that are not waiting (a wait date still ahead hides a task from lists).
NOT_WAITING = f"(wait IS NULL OR wait <= {NOW_SECONDS}) AND (until IS NULL OR until >= {NOW_SECONDS})"
# (Lists leave out tasks past their until date too, which the next write deletes.)
# The SELECT `todo list` runs, written for the sqlite3 CLI: the same columns, rows and order.
LIST_SQL = (
    "SELECT id, priority, due, due_day, project, (SELECT group_concat(name, ' ') FROM tag WHERE tag.todo_id = todo.id), title "
    f"FROM todo WHERE status = 'pending' AND {NOT_WAITING} ORDER BY due ASC NULLS LAST, "
    "CASE priority WHEN 'H' THEN 3 WHEN 'M' THEN 2 WHEN 'L' THEN 1 END DESC NULLS LAST, id"
)
# `todo list --jsonl status:all` as JSON objects built by SQLite.
JSONL_SQL = (
    "SELECT json_object('id', id, 'uuid', uuid, 'title', title, 'status', status, 'priority', priority, "
    "'project', project, 'tags', json((SELECT json_group_array(name) FROM tag WHERE tag.todo_id = todo.id)), "
    "'due', coalesce(due_day, strftime('%Y-%m-%dT%H:%M:%SZ', due, 'unixepoch')), "
    "'wait', coalesce(wait_day, strftime('%Y-%m-%dT%H:%M:%SZ', wait, 'unixepoch')), "
    "'scheduled', coalesce(scheduled_day, strftime('%Y-%m-%dT%H:%M:%SZ', scheduled, 'unixepoch')), "
    "'until', coalesce(until_day, strftime('%Y-%m-%dT%H:%M:%SZ', until, 'unixepoch')), 'reason', end_reason, "
    "'created', strftime('%Y-%m-%dT%H:%M:%SZ', created, 'unixepoch'), "
    "'modified', strftime('%Y-%m-%dT%H:%M:%SZ', modified, 'unixepoch'), "
    "'completed', strftime('%Y-%m-%dT%H:%M:%SZ', completed, 'unixepoch'), "
    "'notes', json((SELECT json_group_array(json_object('created', strftime('%Y-%m-%dT%H:%M:%SZ', note.created, 'unixepoch'), "
    "'text', note.text)) FROM note WHERE note.todo_id = todo.id))) "
    "FROM todo ORDER BY due ASC NULLS LAST, CASE priority WHEN 'H' THEN 3 WHEN 'M' THEN 2 WHEN 'L' THEN 1 END DESC NULLS LAST, id"
)
# `todo list +tag7 project:work`.
FILTER_SQL = (
    "SELECT id, priority, due, due_day, project, (SELECT group_concat(name, ' ') FROM tag WHERE tag.todo_id = todo.id), title "
    f"FROM todo WHERE status = 'pending' AND {NOT_WAITING} AND todo.id IN (SELECT todo_id FROM tag WHERE name = 'tag7') "
    "AND (project = 'work' OR (project >= 'work.' AND project < 'work/')) "
    "ORDER BY due ASC NULLS LAST, CASE priority WHEN 'H' THEN 3 WHEN 'M' THEN 2 WHEN 'L' THEN 1 END DESC NULLS LAST, id"
)
# `todo list project:work.a.x`.
PROJECT_SQL = (
    "SELECT id, priority, due, due_day, project, (SELECT group_concat(name, ' ') FROM tag WHERE tag.todo_id = todo.id), title "
    f"FROM todo WHERE status = 'pending' AND {NOT_WAITING} AND (project = 'work.a.x' OR (project >= 'work.a.x.' AND project < 'work.a.x/')) "
    "ORDER BY due ASC NULLS LAST, CASE priority WHEN 'H' THEN 3 WHEN 'M' THEN 2 WHEN 'L' THEN 1 END DESC NULLS LAST, id"
)
TAGS_SQL = (
    "SELECT tag.name, sum(todo.status = 'pending'), count(*) FROM tag JOIN todo ON todo.id = tag.todo_id "
    "WHERE todo.status <> 'deleted' GROUP BY tag.name ORDER BY tag.name"
)
PROJECTS_SQL = (
    "SELECT project, sum(status = 'pending'), count(*) FROM todo WHERE project IS NOT NULL AND status <> 'deleted' "
    "GROUP BY project"
)
STATS_SQL = (
    f"SELECT sum(status = 'pending'), sum(status = 'done'), sum(status = 'deleted'), "
    # Overdue and due within 7 days, all-day dates as whole days (the bench runs with TZ=UTC).
    f"sum(status = 'pending' AND CASE WHEN due_day IS NULL THEN due < {NOW_SECONDS} ELSE due_day < '{NOW[:10]}' END), "
    f"sum(status = 'pending' AND CASE WHEN due_day IS NULL THEN due >= {NOW_SECONDS} AND due <= {NOW_SECONDS} + 604800 "
    f"ELSE due_day >= '{NOW[:10]}' AND due_day <= date('{NOW[:10]}', '+7 days') END), "
    f"sum(status = 'done' AND completed >= {NOW_SECONDS} - 604800), min(CASE WHEN status = 'pending' THEN created END), "
    "(SELECT count(*) FROM journal_entry) FROM todo; "
    "SELECT count(DISTINCT tag.name) FROM tag JOIN todo ON todo.id = tag.todo_id WHERE todo.status <> 'deleted'; "
    + PROJECTS_SQL
)
# The reports people look at, against the aggregate SQL that counts the same: `summary` sums per
# project; `history` and `ghistory` group the tasks added, done and deleted per month; `burndown`
# (weekly) groups the same events and the work intervals per week, from which its bars are made;
# `calendar` (3 months) and `agenda` (7 days) read the pending tasks due or scheduled in their
# range or overdue (and the agenda the time worked today).
SUMMARY_SQL = (
    f"SELECT coalesce(project, ''), sum(status = 'pending'), sum(status = 'done'), "
    f"sum(CASE WHEN status = 'pending' THEN max({NOW_SECONDS} - created, 0) ELSE 0 END) FROM todo "
    "WHERE status <> 'deleted' GROUP BY 1"
)
HISTORY_SQL = (
    "SELECT strftime('%Y-%m', created, 'unixepoch'), count(*) FROM todo GROUP BY 1; "
    "SELECT strftime('%Y-%m', coalesce(completed, modified), 'unixepoch'), count(*) FROM todo WHERE status = 'done' GROUP BY 1; "
    "SELECT strftime('%Y-%m', modified, 'unixepoch'), count(*) FROM todo WHERE status = 'deleted' GROUP BY 1"
)
BURNDOWN_SQL = (
    "SELECT created / 604800, count(*) FROM todo GROUP BY 1; "
    "SELECT coalesce(completed, modified) / 604800, count(*) FROM todo WHERE status = 'done' GROUP BY 1; "
    "SELECT modified / 604800, count(*) FROM todo WHERE status = 'deleted' GROUP BY 1; "
    "SELECT started / 604800, count(*) FROM interval GROUP BY 1"
)
CALENDAR_START = NOW_SECONDS - 21 * 86400
CALENDAR_SQL = (
    "SELECT id, title, due, due_day, scheduled, scheduled_day FROM todo WHERE status = 'pending' AND "
    f"((due >= {CALENDAR_START} AND due < {CALENDAR_START + 92 * 86400}) OR "
    f"(scheduled >= {CALENDAR_START} AND scheduled < {CALENDAR_START + 92 * 86400}) OR due < {NOW_SECONDS}) "
    "ORDER BY min(coalesce(due, scheduled), coalesce(scheduled, due)), id"
)
AGENDA_SQL = (
    "SELECT id, title, due, due_day, scheduled, scheduled_day FROM todo WHERE status = 'pending' AND "
    f"((due >= {NOW_SECONDS} AND due < {NOW_SECONDS + 7 * 86400}) OR "
    f"(scheduled >= {NOW_SECONDS} AND scheduled < {NOW_SECONDS + 7 * 86400}) OR due < {NOW_SECONDS}) "
    "ORDER BY min(coalesce(due, scheduled), coalesce(scheduled, due)), id; "
    f"SELECT sum(min(coalesce(stopped, {NOW_SECONDS}), {NOW_SECONDS}) - max(started, {NOW_SECONDS - 34200})) FROM interval "
    f"WHERE started < {NOW_SECONDS} AND coalesce(stopped, {NOW_SECONDS}) > {NOW_SECONDS - 34200}"
)
# What `todo add Benchmark task +bench` writes, as statements in one transaction.
ADD_SQL = (
    "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE; "
    f"INSERT INTO journal_entry (created, command, summary) VALUES ({NOW_SECONDS}, 'add Benchmark task +bench', ''); "
    "INSERT INTO todo (uuid, title, status, priority, project, due, created, modified, completed) VALUES "
    f"(lower(hex(randomblob(16))), 'Benchmark task', 'pending', NULL, NULL, NULL, {NOW_SECONDS}, {NOW_SECONDS}, NULL); "
    "INSERT OR IGNORE INTO journal_change (journal_id, todo_id, sequence, before) "
    "VALUES ((SELECT max(id) FROM journal_entry), last_insert_rowid(), 0, NULL); "
    "INSERT INTO tag (todo_id, name) VALUES ((SELECT max(id) FROM todo), 'bench'); "
    # The expiry check every writing command makes (see TodoStore.expire).
    "SELECT id, until, until_day FROM todo INDEXED BY todo_by_until "
    f"WHERE until < {NOW_SECONDS + 172800} AND status = 'pending' ORDER BY id; "
    "SELECT * FROM todo WHERE id = (SELECT max(id) FROM todo); "
    "UPDATE journal_entry SET summary = 'added task' WHERE id = (SELECT max(id) FROM journal_entry); "
    "COMMIT;"
)
SNAPSHOT = (
    "json_object('id', id, 'uuid', uuid, 'title', title, 'status', status, 'priority', priority, 'project', project, "
    "'due', due, 'due_day', due_day, 'wait', wait, 'wait_day', wait_day, 'scheduled', scheduled, "
    "'scheduled_day', scheduled_day, 'until', until, 'until_day', until_day, 'end_reason', end_reason, "
    "'created', created, 'modified', modified, 'completed', completed, "
    "'tags', json((SELECT json_group_array(name) FROM tag WHERE tag.todo_id = todo.id)), "
    "'notes', json((SELECT json_group_array(json_object('id', id, 'created', created, 'text', text)) "
    "FROM note WHERE note.todo_id = todo.id)))"
)
BULK_WHERE = "status = 'pending' AND (project = 'work.a.x' OR (project >= 'work.a.x.' AND project < 'work.a.x/'))"
# `update --where project:work.a.x +bulk` (1.2% of the tasks), set-based: the journal snapshots, then one UPDATE.
BULK_UPDATE_SQL = (
    "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE; "
    f"INSERT INTO journal_entry (created, command, summary) VALUES ({NOW_SECONDS}, 'update --where project:work.a.x +bulk', ''); "
    "INSERT INTO journal_change (journal_id, todo_id, sequence, before) "
    f"SELECT (SELECT max(id) FROM journal_entry), id, row_number() OVER (ORDER BY id) - 1, {SNAPSHOT} "
    f"FROM todo WHERE {BULK_WHERE}; "
    "INSERT OR IGNORE INTO tag (todo_id, name) SELECT todo_id, 'bulk' FROM journal_change "
    "WHERE journal_id = (SELECT max(id) FROM journal_entry); "
    f"UPDATE todo SET modified = {NOW_SECONDS} WHERE id IN "
    "(SELECT todo_id FROM journal_change WHERE journal_id = (SELECT max(id) FROM journal_entry)); "
    "UPDATE journal_entry SET summary = 'updated' WHERE id = (SELECT max(id) FROM journal_entry); "
    "COMMIT;"
)
# Its undo, set-based: rows, tags and notes put back from the snapshots, the entry (and, through
# the foreign key, its changes) removed. Like todo, it turns foreign keys on.
BULK_UNDO_SQL = (
    "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE; "
    "INSERT INTO todo (id, uuid, title, status, priority, project, due, due_day, wait, wait_day, scheduled, "
    "scheduled_day, until, until_day, end_reason, created, modified, completed) "
    "SELECT before ->> 'id', before ->> 'uuid', before ->> 'title', before ->> 'status', before ->> 'priority', "
    "before ->> 'project', before ->> 'due', before ->> 'due_day', before ->> 'wait', before ->> 'wait_day', "
    "before ->> 'scheduled', before ->> 'scheduled_day', before ->> 'until', before ->> 'until_day', "
    "before ->> 'end_reason', before ->> 'created', before ->> 'modified', before ->> 'completed' "
    "FROM journal_change WHERE journal_id = (SELECT max(id) FROM journal_entry) AND true "
    "ON CONFLICT (id) DO UPDATE SET uuid = excluded.uuid, title = excluded.title, status = excluded.status, "
    "priority = excluded.priority, project = excluded.project, due = excluded.due, due_day = excluded.due_day, "
    "wait = excluded.wait, wait_day = excluded.wait_day, scheduled = excluded.scheduled, "
    "scheduled_day = excluded.scheduled_day, until = excluded.until, until_day = excluded.until_day, "
    "end_reason = excluded.end_reason, created = excluded.created, "
    "modified = excluded.modified, completed = excluded.completed; "
    "DELETE FROM tag WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = (SELECT max(id) FROM journal_entry)); "
    "INSERT INTO tag (todo_id, name) SELECT journal_change.todo_id, value FROM journal_change, json_each(before, '$.tags') "
    "WHERE journal_id = (SELECT max(id) FROM journal_entry); "
    "DELETE FROM note WHERE todo_id IN (SELECT todo_id FROM journal_change WHERE journal_id = (SELECT max(id) FROM journal_entry)); "
    "INSERT INTO note (id, todo_id, created, text) SELECT value ->> 'id', journal_change.todo_id, value ->> 'created', "
    "value ->> 'text' FROM journal_change, json_each(before, '$.notes') WHERE journal_id = (SELECT max(id) FROM journal_entry); "
    "DELETE FROM journal_entry WHERE id = (SELECT max(id) FROM journal_entry); "
    "COMMIT;"
)


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def binaries(smoke):
    """The todo and todo-bench executables: the release build `make release` makes (as `make
    install` installs it), or the debug build for --smoke."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    configuration = ["-c", "debug"]
    if not smoke:
        run(["make", "-s", "release"], cwd=ROOT, stdout=subprocess.DEVNULL)
        configuration = ["-c", "release"]
    folder = subprocess.run([swift, "build"] + configuration + ["--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(folder, "todo"), os.path.join(folder, "todo-bench")


def data_key():
    """A hash of the sources that decide what a generated database holds: the generator, the
    domain and the data layer (a change to the command line keeps the cached data sets)."""
    digest = hashlib.sha256()
    folders = ["Sources/TodoBench", "Sources/TodoCore", "Sources/DataOperation"]
    for folder in folders:
        for base, _, files in sorted(os.walk(os.path.join(ROOT, folder))):
            for name in sorted(files):
                with open(os.path.join(base, name), "rb") as handle:
                    digest.update(name.encode() + handle.read())
    return digest.hexdigest()[:12]


def dataset(generator, label, count, folder):
    """The cached database of `count` tasks, generated when missing."""
    path = os.path.join(folder, f"tasks-{label}.db")
    if not os.path.exists(path):
        print(f"generating {label} tasks …", file=sys.stderr, flush=True)
        partial = path + ".partial"
        for suffix in ["", "-wal", "-shm"]:
            if os.path.exists(partial + suffix):
                os.remove(partial + suffix)
        run([generator, "generate", partial, str(count)])
        run(["sqlite3", partial, "PRAGMA wal_checkpoint(TRUNCATE);"], stdout=subprocess.DEVNULL)
        os.rename(partial, path)
    return path


def working_copy(path, scratch, name):
    """A copy to write to, so the cached data set stays as generated."""
    copy = os.path.join(scratch, name)
    shutil.copyfile(path, copy)
    return copy


def hyperfine(commands, runs, warmup, prepare=None, shell=False, rounds=5):
    """Median seconds of each command. The runs are split into rounds, and each round times every
    command in turn (hyperfine itself runs all of one command's runs before the next one's): on a
    shared, noisy machine a slow spell then lands on both sides of a ratio instead of one.

    A command of a few milliseconds varies by a page fault or a scheduler tick from one run to the
    next (σ of 15-20% here), and the median of ten such runs moved a ratio from 1.08 to 1.32
    between two runs of the same binaries; a slow spell of the machine (a virtual machine's
    stolen time) lasting a second also fell on one side only, in rounds of a second per side.
    So when the first round shows every command under FAST_SECONDS (the full-screen interface
    with 400 keys typed ahead varies by 5-6 ms in 50), the runs grow to FAST_RUNS,
    in short rounds of FAST_ROUND runs each (a few seconds more per row).

    Of two commands, the first's median carries `paired`: the second's median and the median of
    the rounds' own ratios (each round's two medians, taken back to back), which a table's ratio
    is. A slow spell that lands on one side of a few rounds moves those rounds' ratios, not the
    result: `projects`, measured 1.08-1.10x in four runs of its own, once came out at 1.38x as a
    ratio of the whole run's medians."""
    total = runs
    rounds = max(1, min(rounds, total // 3))
    samples = [[] for _ in commands]
    rounds_taken = []
    taken = 0
    round_index = -1
    while round_index + 1 < rounds:
        round_index += 1
        left = rounds - round_index
        round_runs = (total - taken) // left + (1 if (total - taken) % left else 0)
        taken += round_runs
        with tempfile.NamedTemporaryFile(suffix=".json") as export:
            arguments = ["hyperfine", "--style", "none", "--warmup", str(warmup if round_index == 0 else 1),
                         "--runs", str(round_runs), "--export-json", export.name]
            if not shell:
                arguments.append("-N")
            # Alternate which command goes first, so neither always follows the other's writes.
            order = list(range(len(commands)))
            if round_index % 2:
                order.reverse()
            if prepare:
                # One preparation for all, or one for each command (given in the commands' order).
                for index in order:
                    arguments += ["--prepare", prepare[index] if isinstance(prepare, list) else prepare]
            arguments += [commands[index] for index in order]
            done = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  env=bench_environment())
            if done.returncode != 0:
                raise SystemExit(f"hyperfine failed on {commands}:\n{done.stderr}")
            results = json.load(open(export.name))["results"]
        this_round = [None] * len(commands)
        for position, index in enumerate(order):
            samples[index] += results[position]["times"]
            this_round[index] = results[position]["times"]
        rounds_taken.append(this_round)
        if round_index == 0 and 10 <= total < FAST_RUNS and max(map(statistics.median, samples)) < FAST_SECONDS:
            total, rounds = FAST_RUNS, FAST_RUNS // FAST_ROUND
    medians = [Median(statistics.median(times)) for times in samples]
    if len(commands) == 2:
        ratios = [statistics.median(first) / statistics.median(second) for first, second in rounds_taken]
        medians[0].paired = (medians[1], statistics.median(ratios))
    return medians


class Median(float):
    """A median time; see `hyperfine` for `paired`."""
    paired = None


# See `hyperfine`: commands this quick are run this many times on each side.
FAST_SECONDS = 0.1
FAST_RUNS = 100
FAST_ROUND = 4


def peak_memory(command):
    """Peak resident memory of a command, in MiB (GNU time's %M)."""
    output = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, check=True, env=bench_environment()).stderr
    return int(output.strip().splitlines()[-1]) / 1024


def bench_environment():
    environment = dict(os.environ)
    environment.update({"TODO_NOW": NOW, "TZ": "UTC", "LANG": "C.UTF-8"})
    environment.pop("COLUMNS", None)
    return environment


def quoted(word):
    return "'" + word.replace("'", "'\\''") + "'"


class Table:
    def __init__(self):
        self.rows = []

    def add(self, workload, size, ours, reference, budget, unit="ms", ratio=None):
        if ratio is None and getattr(ours, "paired", None) and ours.paired[0] is reference:
            ratio = ours.paired[1]
        if ratio is None:
            ratio = ours / reference if reference else float("inf")
        passed = "pass" if budget is None or ratio <= budget else "FAIL"
        if budget is None:
            passed = "reported"
        self.rows.append((workload, size, ours, reference, ratio, budget, passed, unit))
        print(f"{workload:44} {size:>5} {fmt(ours, unit):>10} {fmt(reference, unit):>10} {ratio:7.2f}x "
              f"{('≤ %.2fx' % budget) if budget else '':>8} {passed}", flush=True)

    def markdown(self):
        lines = ["| workload | size | ours | reference | ratio | budget | result |", "|---|---|---|---|---|---|---|"]
        for workload, size, ours, reference, ratio, budget, passed, unit in self.rows:
            lines.append(f"| {workload} | {size} | {fmt(ours, unit)} | {fmt(reference, unit)} | {ratio:.2f}× | "
                         f"{('≤ %.2f×' % budget) if budget else '—'} | {passed} |")
        return "\n".join(lines)

    @property
    def failed(self):
        return [row for row in self.rows if row[6] == "FAIL"]


def commit():
    """The commit measured (with `+` when the working tree differs from it)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/RESULTS.md"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    return (head or "unknown") + ("+" if dirty else "")


def fmt(value, unit):
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value * 1000:.1f} ms"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    return f"{value:.3f} {unit}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1k and 10k only")
    parser.add_argument("--smoke", action="store_true", help="a tiny run without budgets, for make test")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    options = parser.parse_args()

    todo, generator = binaries(options.smoke)
    sizes = {"200": 200} if options.smoke else (
        {k: SIZES[k] for k in ["1k", "10k"]} if options.quick else dict(SIZES))
    runs, warmup = (2, 0) if options.smoke else (10, 3)
    folder = os.path.join(DATA, ("smoke-" if options.smoke else "") + data_key())
    os.makedirs(folder, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="todo-bench-")
    table = Table()
    print(f"{'workload':44} {'size':>5} {'ours':>10} {'reference':>10} {'ratio':>8} {'budget':>8} result")
    try:
        data = {label: dataset(generator, label, count, folder) for label, count in sizes.items()}
        smallest = list(sizes)[0]
        largest = list(sizes)[-1]
        budget = (lambda value: None) if options.smoke else (lambda value: value)

        # Two milliseconds each: ten runs are at the mercy of one slow page fault, so many more.
        short_runs, short_warmup = (runs, warmup) if options.smoke else (100, 10)
        ours, reference = hyperfine([f"{todo} --version", "sqlite3 :memory: 'select 1'"], short_runs, short_warmup)
        table.add("todo --version vs sqlite3 :memory:", "—", ours, reference, budget(1.3))

        for label in sizes:
            if label == "1k" and len(sizes) > 2:
                continue
            path = data[label]
            ours, reference = hyperfine(
                [f"{todo} --db {path} list", f"sqlite3 {path} {quoted(LIST_SQL)}"], runs, warmup)
            table.add("list (pending, table, to a file)", label, ours, reference, budget(1.5))

        jsonl_size = "100k" if "100k" in sizes else largest
        path = data[jsonl_size]
        ours, reference = hyperfine(
            [f"{todo} --db {path} list --jsonl status:all", f"sqlite3 {path} {quoted(JSONL_SQL)}"], runs, warmup)
        table.add("list --jsonl status:all", jsonl_size, ours, reference, budget(1.2))

        # Commands on one task take a few milliseconds, mostly waiting for the disk (fsync): ten runs
        # let one slow flush decide a ratio (add at 1M measured 1.08x in one full run and 1.27x in
        # the next, and 1.06x in 40 paired runs), so fifty.
        one_runs = runs if options.smoke else 50
        # Commands on one task: flat from the smallest to the largest data set.
        small = working_copy(data[smallest], scratch, "small.db")
        large = working_copy(data[largest], scratch, "large.db")
        one = {"small": 500 if not options.smoke else 100, "large": SIZES.get(largest, 200) // 2}
        one["large"] = min(one["large"], sizes[largest] // 2)
        for name, template, shell in [
            ("show N", "{todo} --db {db} show {id}", False),
            ("done N + undo", "{todo} --db {db} done {id} >/dev/null && {todo} --db {db} undo >/dev/null", True),
            ("update N +x (and -x)", "{todo} --db {db} update {id} +x >/dev/null && {todo} --db {db} update {id} -x >/dev/null", True),
        ]:
            commands = [template.format(todo=todo, db=large, id=one["large"]), template.format(todo=todo, db=small, id=one["small"])]
            ours, reference = hyperfine(commands, one_runs, warmup, shell=shell)
            table.add(f"{name}: {largest} vs {smallest}", largest, ours, reference, budget(1.3))

        for label in dict.fromkeys(l for l in ["10k", largest] if l in sizes):
            target = working_copy(data[label], scratch, f"add-{label}.db")
            reference_copy = working_copy(data[label], scratch, f"add-ref-{label}.db")
            ours, reference = hyperfine(
                [f"{todo} --db {target} add Benchmark task +bench", f"sqlite3 {reference_copy} {quoted(ADD_SQL)}"],
                one_runs, warmup)
            table.add("add (one task)", label, ours, reference, budget(1.3))
            if label == largest:
                add_large = ours
            if label == "10k":
                add_small = ours
        if "10k" in sizes and largest != "10k":
            table.add(f"add: {largest} vs 10k (flat)", largest, add_large, add_small, budget(1.3))

        path = data[largest]
        analyzed = working_copy(path, scratch, "analyzed.db")
        run(["sqlite3", analyzed, "ANALYZE;"])
        ours, reference = hyperfine(
            [f"{todo} --db {path} list +tag7 project:work", f"sqlite3 {analyzed} {quoted(FILTER_SQL)}"], runs, warmup)
        table.add("list +tag project:x vs ANALYZEd sqlite3", largest, ours, reference, budget(1.2))
        ours, reference = hyperfine(
            [f"{todo} --db {path} list project:work.a.x", f"sqlite3 {analyzed} {quoted(PROJECT_SQL)}"], runs, warmup)
        table.add("list project:x vs ANALYZEd sqlite3", largest, ours, reference, budget(1.2))
        # todo reads its file's first 8 MiB through a memory map (TodoDatabase.mappedBytes); the
        # sqlite3 shell reads every page with a system call unless asked. The same query with the
        # shell asked so, for the record.
        mapped_sql = f"sqlite3 -cmd {quoted('PRAGMA mmap_size=8388608')} {analyzed} {quoted(PROJECT_SQL)}"
        ours, reference = hyperfine([f"{todo} --db {path} list project:work.a.x", mapped_sql], runs, warmup)
        table.add("list project:x vs sqlite3 with the same memory map", largest, ours, reference, None)

        ours_db = working_copy(path, scratch, "bulk.db")
        reference_db = working_copy(path, scratch, "bulk-ref.db")
        ours, reference = hyperfine(
            [f"{todo} --db {ours_db} --yes update --where project:work.a.x +bulk >/dev/null && {todo} --db {ours_db} undo >/dev/null",
             f"sqlite3 {reference_db} {quoted(BULK_UPDATE_SQL)} && sqlite3 {reference_db} {quoted(BULK_UNDO_SQL)}"],
            runs, warmup, shell=True)
        table.add("update --where (~1%) + undo vs set-based SQL", largest, ours, reference, budget(1.5))

        import_size = "100k" if "100k" in sizes else largest
        ours, reference, memory, size = import_workload(todo, data[import_size], scratch, runs, 1 if warmup else 0)
        table.add("import (JSON Lines) vs sqlite3 INSERTs", import_size, ours, reference, budget(3.0))
        # No budget: reported against the size of the input (it is read in pieces, never whole).
        table.add("peak memory: import (JSON Lines) vs its file", import_size, memory, size, None, unit="MiB")

        for name, command, sql in [("tags", "tags", TAGS_SQL), ("projects", "projects", PROJECTS_SQL), ("stats", "stats", STATS_SQL)]:
            ours, reference = hyperfine([f"{todo} --db {path} {command}", f"sqlite3 {path} {quoted(sql)}"], runs, warmup)
            table.add(f"{name} vs minimal SQL", largest, ours, reference, budget(1.2))

        # Each report at the largest size (100k in `make bench`), its output to a file.
        report_size = "100k" if "100k" in sizes else largest
        path = data[report_size]
        for name, command, sql in [
            ("summary", "summary", SUMMARY_SQL), ("history (monthly)", "history", HISTORY_SQL),
            ("ghistory (monthly)", "ghistory", HISTORY_SQL), ("burndown (weekly)", "burndown", BURNDOWN_SQL),
            ("calendar (3 months)", "calendar 3", CALENDAR_SQL), ("agenda (a week)", "agenda", AGENDA_SQL),
        ]:
            ours, reference = hyperfine([f"{todo} --db {path} {command}", f"sqlite3 {path} {quoted(sql)}"], runs, warmup)
            table.add(f"{name} vs aggregate SQL", report_size, ours, reference, budget(1.5))
        path = data[largest]

        # `remind --check` runs every minute: with nothing due (1% of the pending tasks have a
        # reminder, none of them due) it costs no more than `todo list` with no filter. A
        # reminder counting from a due date only where that date is more than an hour ahead: one
        # in the last day is delivered as missed (35 of them at 1M, where the check then failed on
        # a machine with no desktop to show them).
        reminders = working_copy(path, scratch, "reminders.db")
        run([todo, "--db", reminders, "count"], stdout=subprocess.DEVNULL)
        run(["sqlite3", reminders, "UPDATE todo SET remind = CASE WHEN due > "
             f"{NOW_SECONDS + 3600} THEN '2099-01-01T00:00:00Z,due-15min' ELSE '2099-01-01T00:00:00Z' END "
             "WHERE id % 100 = 0 AND status = 'pending';"])
        ours, reference = hyperfine([f"{todo} --db {reminders} remind --check", f"{todo} --db {reminders} list"], runs, warmup)
        table.add("remind --check (nothing due) vs list", largest, ours, reference, budget(1.0))

        # `todo ui` to its first frame (then `q`, typed ahead) against `todo list`, both on a
        # terminal (`script`'s pty): the interface reads one screen of rows, the list all of them.
        for size in [name for name in sizes if name in ("10k", "100k")] or [largest]:
            screen = data[size]
            ours, reference = hyperfine(
                [f"printf q | script -qec {quoted(f'{todo} --db {screen} ui')} /dev/null > /dev/null",
                 f"printf q | script -qec {quoted(f'{todo} --db {screen} list')} /dev/null > /dev/null"], runs, warmup, shell=True)
            table.add("ui: start to first frame vs list (on a pty)", size, ours, reference, budget(1.0))
        # The keys' own work: 400 moves (through pages, to the end and back) typed ahead, so
        # handled in a batch and drawn once, against none.
        keys = "j" * 300 + "G" + "k" * 99 + "q"
        ours, reference = hyperfine(
            [f"printf {keys} | script -qec {quoted(f'{todo} --db {path} ui')} /dev/null > /dev/null",
             f"printf q | script -qec {quoted(f'{todo} --db {path} ui')} /dev/null > /dev/null"], runs, warmup, shell=True)
        table.add("ui: 400 keys vs none (the keys' work)", largest, ours, reference, budget(1.1))
        memory = peak_memory(["sh", "-c", f"printf q | script -qec {quoted(f'{todo} --db {path} ui')} /dev/null"])
        table.add("peak memory: ui (first frame)", largest, memory, 30.0, None if options.smoke else 1.0, unit="MiB")

        for name, arguments in [("peak memory: list (table)", ["list"]), ("peak memory: list --jsonl status:all", ["list", "--jsonl", "status:all"])]:
            memory = peak_memory([todo, "--db", path] + arguments)
            table.add(name, largest, memory, 30.0, None if options.smoke else 1.0, unit="MiB")

        layer = subprocess.run([generator, "datalayer", "2000" if options.smoke else "100000"], capture_output=True, text=True,
                               check=True).stdout.splitlines()[1:]
        for line in layer:
            kind, count, ours, reference, ratio = line.split("\t")
            # The ratio is the median of each round's ratio (see DataLayerBenchmark.swift). The C
            # API binding text without a copy is reported beside the budget's C (which binds a
            # Swift string, so SQLite copies it), with no budget.
            name, limit = (("insert, C binding text without a copy", None) if kind == "insert-copy-free"
                           else (kind, budget(1.1)))
            table.add(f"DataOperation vs C API: {name}", count, float(ours), float(reference), limit, ratio=float(ratio))

        if shutil.which("task") and "10k" in sizes:
            taskwarrior(table, todo, data["10k"], scratch, runs, warmup)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    if options.smoke:
        print("bench smoke run: every workload ran")
        return 0
    machine = f"{platform.node()}, {os.cpu_count()} cores, {platform.platform()}"
    with open(options.out, "w") as results:
        results.write(f"# Benchmark results\n\n{datetime.date.today().isoformat()}, {machine}; "
                      f"`make {'bench-quick' if options.quick else 'bench'}`. Medians of hyperfine runs "
                      "(warm-up 3, 10 runs, 50 for the commands on one task, 100 for any command under 100 ms, "
                      "interleaved in rounds); a ratio is the median of the rounds' ratios of ours to reference "
                      f"(both timed back to back in each round), so it can differ a little from the medians' quotient. Commit {commit()}.\n\n")
        results.write(table.markdown() + "\n")
    print(f"written to {os.path.relpath(options.out, ROOT)}")
    if table.failed:
        print(f"{len(table.failed)} budget(s) failed", file=sys.stderr)
        return 1
    return 0


# The tables a task's fields live in (the journal aside): what an import writes, as rows.
TASK_TABLES = ["todo", "tag", "note", "dependency", "interval", "extra", "series"]


def import_workload(todo, path, scratch, runs, warmup):
    """`todo import` of a data set's JSON Lines export into an empty database, against the sqlite3
    CLI executing the same rows as INSERT statements in one transaction on the same empty
    database. Both start from a fresh copy of it before every run."""
    exported = os.path.join(scratch, "import.jsonl")
    run([todo, "--db", path, "export", "--format", "jsonl", "--output", exported], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, env=bench_environment())
    empty = os.path.join(scratch, "import-empty.db")
    nothing = os.path.join(scratch, "nothing.jsonl")
    open(nothing, "w").close()
    run([todo, "--db", empty, "import", nothing], stdout=subprocess.DEVNULL, env=bench_environment())
    if os.path.exists(empty + "-wal"):
        raise SystemExit("the empty database kept a -wal file; the copies would miss its schema")
    statements = os.path.join(scratch, "import.sql")
    with open(statements, "w") as handle:
        handle.write("PRAGMA foreign_keys = ON; BEGIN IMMEDIATE;\n")
        handle.flush()
        for table in TASK_TABLES:
            run(["sqlite3", "-cmd", f".mode insert {table}", path, f"SELECT * FROM {table}"], stdout=handle)
        handle.write("COMMIT;\n")
    ours_db, reference_db = os.path.join(scratch, "imported.db"), os.path.join(scratch, "imported-ref.db")
    # Each side starts from its own fresh copy (hyperfine -N runs a preparation without a shell too).
    prepare = [f"sh -c {quoted(f'rm -f {db}* && cp {empty} {db}')}" for db in [ours_db, reference_db]]
    timings = hyperfine([f"{todo} --db {ours_db} --yes import {exported}", f"sqlite3 {reference_db} '.read {statements}'"],
                        runs, warmup, prepare=prepare, rounds=2)
    # The same tasks, tags and notes on both sides (ours also writes its undo journal, which the
    # reference leaves out: the budget's 3x covers it).
    counts = [subprocess.run(["sqlite3", db, "SELECT (SELECT count(*) FROM todo), (SELECT count(*) FROM tag), "
                              "(SELECT count(*) FROM note), (SELECT count(*) FROM todo WHERE status = 'pending')"],
                             capture_output=True, text=True, check=True).stdout.strip() for db in [path, ours_db, reference_db]]
    if len(set(counts)) != 1:
        raise SystemExit(f"import workload: counts differ (data set, ours, reference): {counts}")
    memory_db = os.path.join(scratch, "imported-memory.db")
    shutil.copyfile(empty, memory_db)
    memory = peak_memory([todo, "--db", memory_db, "--yes", "import", exported])
    return timings + [memory, os.path.getsize(exported) / (1 << 20)]


def taskwarrior(table, todo, path, scratch, runs, warmup):
    """Taskwarrior 2.6 loaded with the same 10k tasks, side by side (reported, no budget)."""
    data = os.path.join(scratch, "taskwarrior")
    os.makedirs(data)
    rc = os.path.join(scratch, "taskrc")
    with open(rc, "w") as handle:
        handle.write(f"data.location={data}\nconfirmation=off\nverbose=nothing\nhooks=off\nrecurrence=off\n")
    exported = subprocess.run([todo, "--db", path, "list", "--jsonl", "status:all"], capture_output=True, text=True,
                              check=True, env=bench_environment()).stdout
    status = {"pending": "pending", "done": "completed", "deleted": "deleted"}
    tasks = []
    for line in exported.splitlines():
        task = json.loads(line)
        converted = {"uuid": task["uuid"], "description": task["title"], "status": status[task["status"]],
                     "entry": task["created"].replace("-", "").replace(":", ""),
                     "modified": task["modified"].replace("-", "").replace(":", "")}
        if task["project"]:
            converted["project"] = task["project"]
        if task["priority"]:
            converted["priority"] = task["priority"]
        if task["tags"]:
            converted["tags"] = task["tags"]
        if task["due"]:
            # An all-day date (2026-11-27) is midnight to Taskwarrior.
            due = task["due"] if "T" in task["due"] else task["due"] + "T00:00:00Z"
            converted["due"] = due.replace("-", "").replace(":", "")
        if task["completed"]:
            converted["end"] = task["completed"].replace("-", "").replace(":", "")
        elif task["status"] == "deleted":
            converted["end"] = converted["modified"]
        tasks.append(converted)
    imported = os.path.join(scratch, "import.json")
    with open(imported, "w") as handle:
        json.dump(tasks, handle)
    environment = bench_environment()
    environment["TASKRC"] = rc
    subprocess.run(["task", "import", imported], env=environment, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    work = working_copy(path, scratch, "tw-todo.db")
    prefix = f"TASKRC={rc} task rc.gc=off"
    for name, ours_command, theirs in [
        ("list", f"{todo} --db {work} list", f"{prefix} list"),
        ("add", f"{todo} --db {work} add Benchmark task +bench", f"{prefix} add Benchmark task +bench"),
        ("+tag list", f"{todo} --db {work} list +tag7", f"{prefix} +tag7 list"),
        ("export", f"{todo} --db {work} list --json status:all", f"{prefix} export"),
    ]:
        ours, reference = hyperfine([ours_command, theirs], runs, warmup, shell=True)
        table.add(f"vs Taskwarrior 2.6: {name}", "10k", ours, reference, None)


if __name__ == "__main__":
    sys.exit(main())
