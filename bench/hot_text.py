#!/usr/bin/env python3
"""`make hot-text`: writes bench/hot-text.order, the functions `todo` runs in everyday commands.

The release link (`make release`) hands this file to the linker (gold's --section-ordering-file),
which puts those functions next to each other at the end of the program's code. A command then
touches a few dozen contiguous pages of code instead of pages scattered over 10 MB, and the
kernel maps them with fewer page faults: 354 fell to 317 for `todo add` (about 9% of its time),
177 to 154 for `todo --version`. It needs every function in a section of its own
(`-function-sections`, in RELEASE_FLAGS). Much of Swift's standard library has sections of its
own too and is ordered with ours; SQLite (Debian's archive) has none, so its code stays put.

The file only orders code: a function it names that no longer exists is ignored, one it misses
stays where it was. It grows stale as the code changes, and is worth making again (with this
script) when `make bench` shows start-up costs creeping up.

How: each command below runs once under valgrind's callgrind, on a small database made for the
purpose, and every function of the todo binary that ran is listed once, in the profiles' order
(callgrind's, by object and source file: the order inside the hot block matters little).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "bench", "hot-text.order")

# What users run most: start-up, the writes, the lists and the reports.
COMMANDS = [
    ["--version"],
    ["add", "Buy milk", "+errand", "project:home", "due:tomorrow"],
    ["list"],
    ["show", "1"],
    ["update", "2", "+later", "priority:H"],
    ["done", "3"],
    ["undo"],
    ["note", "4", "call back"],
    ["delete", "5", "--yes"],
    ["list", "--jsonl", "status:all"],
    ["list", "+errand", "project:home"],
    ["next"],
    ["stats"],
    ["tags"],
    ["projects"],
    ["help"],
]


def main():
    binary = os.path.join(ROOT, ".build", "release", "todo")
    if not os.access(binary, os.X_OK):
        sys.exit("hot_text.py: build the release binary first (make release)")
    if shutil.which("valgrind") is None:
        sys.exit("hot_text.py: valgrind is missing (apt-get install valgrind)")
    seen = {}
    with tempfile.TemporaryDirectory() as scratch:
        database = os.path.join(scratch, "tasks.db")
        environment = dict(os.environ, HOME=scratch, XDG_CONFIG_HOME=scratch, XDG_DATA_HOME=scratch, TZ="UTC")
        setup = "".join(f"add Task {n} +tag{n % 3} project:p{n % 4} due:{n}d\n" for n in range(1, 41))
        subprocess.run([binary, "--db", database, "shell"], input=setup.encode(), env=environment,
                       stdout=subprocess.DEVNULL, check=True)
        for number, arguments in enumerate(COMMANDS):
            profile = os.path.join(scratch, f"callgrind.{number}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                            binary, "--db", database, *arguments],
                           env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            for name in functions_of(profile, binary):
                seen.setdefault(name, None)
    with open(OUTPUT, "w") as out:
        out.write("".join(f".text.{name}\n" for name in seen))
    print(f"{len(seen)} functions written to {os.path.relpath(OUTPUT, ROOT)}")


def functions_of(profile, binary):
    """The functions of `binary` in a callgrind profile, in the order the profile names them."""
    # The profile names each object and function once, at its first mention (in an `ob=`/`fn=`
    # line or in a call's `cob=`/`cfn=`), and by number afterwards.
    objects, functions, current_object, names = {}, {}, None, []
    for line in open(profile, errors="replace"):
        match = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?", line)
        if not match:
            continue
        kind, number, text = match.groups()
        table = objects if kind.endswith("ob") else functions
        if text:
            table[number] = text.strip()
        if kind == "ob":
            current_object = objects.get(number)
        elif kind == "fn" and current_object and os.path.realpath(current_object) == os.path.realpath(binary):
            # Callgrind marks recursion levels with a quote and a number.
            name = re.sub(r"'\d+$", "", functions.get(number, ""))
            # Code without a symbol is named by its address, which means nothing to the linker.
            if name and " " not in name and not name.startswith("0x"):
                names.append(name)
    return names


if __name__ == "__main__":
    main()
