#!/bin/sh
# Installs todo from this folder under PREFIX (default /usr/local; DESTDIR is put before it):
#   ./install.sh                     PREFIX=$HOME/.local ./install.sh
#   ./install.sh --uninstall         removes exactly what it installs
set -eu
here=$(CDPATH= cd -- "$(dirname "$0")" && pwd)
prefix=${PREFIX:-/usr/local}
dest=${DESTDIR:-}$prefix
files="bin/todo share/man/man1/todo.1 share/bash-completion/completions/todo share/zsh/site-functions/_todo
share/fish/vendor_completions.d/todo.fish share/todo/todo.schema.json"
if [ "${1:-}" = "--uninstall" ]; then
  for file in $files; do rm -f "$dest/$file"; done
  rmdir "$dest/share/todo" 2>/dev/null || true
  echo "removed todo from $dest"
  exit 0
fi
if [ $# -gt 0 ]; then
  echo "usage: [PREFIX=DIR] [DESTDIR=DIR] $0 [--uninstall]" >&2
  exit 2
fi
for file in $files; do
  mode=0644
  [ "$file" = bin/todo ] && mode=0755
  install -d "$dest/$(dirname "$file")"
  install -m "$mode" "$here/$file" "$dest/$file"
done
echo "installed todo in $dest: run $prefix/bin/todo (man todo for the manual)"
