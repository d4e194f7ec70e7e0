#!/bin/sh
# Part of `make test`: installs the Debian package with dpkg (as root; otherwise unpacks it) and
# the tarball with its install.sh, runs a round of commands with each, removes them and checks
# that nothing is left. Usage: test-package.sh VERSION DEB TARBALL
set -eu
version=$1 deb=$2 tarball=$3
root=$(CDPATH= cd -- "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
installed=0
# Whatever happens, the machine is left as it was: the package removed, the scratch folder gone.
cleanup() {
  if [ "$installed" = 1 ]; then dpkg --purge todo >/dev/null 2>&1 || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
fail() { echo "test-package: $*" >&2; exit 1; }
commit=$(git -C "$root" rev-parse --short=7 HEAD 2>/dev/null || true)

# A round of commands, as a new user: a fresh HOME (nothing of the caller's: no TODO_DB, no
# XDG folders, no hooks), a task added, listed, done, undone, a report.
round() {
  todo=$1
  home=$scratch/home-$2
  mkdir -p "$home"
  unset TODO_DB TODO_CONFIG XDG_DATA_HOME XDG_CONFIG_HOME XDG_STATE_HOME
  line=$(HOME=$home "$todo" --version)
  case "$line" in
    "todo $version ($commit"*) ;;
    "todo $version") [ -z "$commit" ] || fail "$todo --version says '$line', not the commit $commit" ;;
    *) fail "$todo --version says '$line', not todo $version" ;;
  esac
  HOME=$home "$todo" add Try the package +new due:tomorrow >/dev/null
  HOME=$home "$todo" list | grep -q "Try the package" || fail "$todo: the task is not listed"
  HOME=$home "$todo" done 1 >/dev/null
  HOME=$home "$todo" undo >/dev/null
  HOME=$home "$todo" calendar 1 >/dev/null
  HOME=$home "$todo" diag --json | grep -q "\"version\": \"$version\"" || fail "$todo diag"
  HOME=$home "$todo" count | grep -qx 1 || fail "$todo: undo did not bring the task back"
}

# The Debian package.
files=$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' | grep -v '/$')
if [ "$(id -u)" = 0 ]; then
  if dpkg -s todo >/dev/null 2>&1 || [ -e /usr/bin/todo ]; then
    fail "a todo is installed already (dpkg -s todo, /usr/bin/todo): this test installs and removes the package"
  fi
  installed=1
  dpkg -i "$deb" >/dev/null
  round /usr/bin/todo deb
  man -w todo >/dev/null 2>&1 || [ -f /usr/share/man/man1/todo.1.gz ] || fail "the man page is not installed"
  [ -f /usr/share/bash-completion/completions/todo ] || fail "no bash completion"
  dpkg -r todo >/dev/null
  installed=0
  for file in $files; do [ ! -e "$file" ] || fail "$file is left after dpkg -r"; done
  # No configuration files: removing it leaves nothing for a purge.
  dpkg -s todo >/dev/null 2>&1 && fail "dpkg still knows todo after dpkg -r: $(dpkg-query -W -f='${Status}' todo)"
  echo "test-package: the package installs, runs a round of commands and removes cleanly"
else
  dpkg-deb -x "$deb" "$scratch/deb"
  round "$scratch/deb/usr/bin/todo" deb
  echo "test-package: not root, so the package was unpacked rather than installed"
fi

# The tarball: its checksum, then install.sh under a PREFIX and --uninstall.
(cd "$(dirname "$tarball")" && sha256sum -c --quiet "$(basename "$tarball").sha256") || fail "the checksum does not match"
tar -xzf "$tarball" -C "$scratch"
folder=$scratch/$(basename "$tarball" .tar.gz)
for file in README.md CHANGELOG.md LICENSE install.sh bin/todo share/man/man1/todo.1; do
  [ -e "$folder/$file" ] || fail "the tarball has no $file"
done
PREFIX=$scratch/prefix "$folder/install.sh" >/dev/null
round "$scratch/prefix/bin/todo" dist
PREFIX=$scratch/prefix "$folder/install.sh" --uninstall >/dev/null
left=$(find "$scratch/prefix" -type f | head -5)
[ -z "$left" ] || fail "install.sh --uninstall left: $left"
echo "test-package: the tarball installs under PREFIX, runs and uninstalls cleanly"
