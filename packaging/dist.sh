#!/bin/sh
# make dist: OUT/todo-VERSION-linux-ARCH.tar.gz and its .sha256: the release binary, the man
# page, the completions, the JSON schema, README, CHANGELOG, LICENSE and install.sh.
# Usage: dist.sh VERSION ARCH BINARY OUT
set -eu
version=$1 arch=$2 binary=$(realpath "$3") out=$4
root=$(CDPATH= cd -- "$(dirname "$0")/.." && pwd)
umask 022
mkdir -p "$out"
out=$(cd "$out" && pwd)
name=todo-$version-linux-$arch
stage=$out/tar/$name
rm -rf "$stage"
mkdir -p "$stage"
cd "$stage"
install -d bin share/man/man1 share/bash-completion/completions share/zsh/site-functions share/fish/vendor_completions.d share/todo
install -m 0755 "$binary" bin/todo
strip --strip-unneeded --remove-section=.comment --remove-section=.note bin/todo
install -m 0644 "$root/man/todo.1" share/man/man1/todo.1
bin/todo completions bash > share/bash-completion/completions/todo
bin/todo completions zsh > share/zsh/site-functions/_todo
bin/todo completions fish > share/fish/vendor_completions.d/todo.fish
chmod 0644 share/bash-completion/completions/todo share/zsh/site-functions/_todo share/fish/vendor_completions.d/todo.fish
install -m 0644 "$root/docs/todo.schema.json" share/todo/todo.schema.json
install -m 0644 "$root/README.md" "$root/CHANGELOG.md" "$root/LICENSE" .
install -m 0755 "$root/packaging/install.sh" install.sh
cd "$out/tar"
# The same bytes from the same tree: names sorted, owners and times fixed.
mtime=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
rm -f "$out/$name.tar" "$out/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -cf "$out/$name.tar" "$name"
gzip -9n "$out/$name.tar"
cd "$out"
sha256sum "$name.tar.gz" > "$name.tar.gz.sha256"
echo "built $out/$name.tar.gz"
cat "$name.tar.gz.sha256"
