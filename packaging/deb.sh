#!/bin/sh
# make deb: OUT/todo_VERSION_ARCH.deb from the release binary, then lintian on it (no error, no
# warning). Usage: deb.sh VERSION ARCH BINARY OUT
set -eu
version=$1 arch=$2 binary=$(realpath "$3") out=$4
root=$(CDPATH= cd -- "$(dirname "$0")/.." && pwd)
umask 022
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/deb/todo_${version}_$arch
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
cd "$stage"
install -d usr/bin usr/share/man/man1 usr/share/bash-completion/completions usr/share/zsh/vendor-completions \
  usr/share/fish/vendor_completions.d usr/share/todo usr/share/doc/todo
install -m 0755 "$binary" usr/bin/todo
# Symbols are for debugging; Swift's metadata lives in allocated sections strip keeps.
strip --strip-unneeded --remove-section=.comment --remove-section=.note usr/bin/todo
gzip -9n < "$root/man/todo.1" > usr/share/man/man1/todo.1.gz
usr/bin/todo completions bash > usr/share/bash-completion/completions/todo
usr/bin/todo completions zsh > usr/share/zsh/vendor-completions/_todo
usr/bin/todo completions fish > usr/share/fish/vendor_completions.d/todo.fish
install -m 0644 "$root/docs/todo.schema.json" usr/share/todo/todo.schema.json
install -m 0644 "$root/packaging/copyright" usr/share/doc/todo/copyright
gzip -9n < "$root/CHANGELOG.md" > usr/share/doc/todo/NEWS.md.gz
# A native package's changelog: this version, pointing at what changed.
date=$(TZ=UTC date -R -d "@$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)")
printf 'todo (%s) unstable; urgency=medium\n\n  * Version %s: see /usr/share/doc/todo/NEWS.md.gz for what changed.\n\n -- %s  %s\n' \
  "$version" "$version" "$(sed -n 's/^Maintainer: //p' "$root/packaging/control")" "$date" | gzip -9n > usr/share/doc/todo/changelog.gz
chmod 0644 usr/share/man/man1/todo.1.gz usr/share/bash-completion/completions/todo usr/share/zsh/vendor-completions/_todo \
  usr/share/fish/vendor_completions.d/todo.fish usr/share/doc/todo/NEWS.md.gz usr/share/doc/todo/changelog.gz
# Depends: what the binary still links (libc, libm), as dpkg-shlibdeps works it out.
mkdir -p "$out/deb/shlibs/debian"
printf 'Source: todo\n\nPackage: todo\nArchitecture: any\n' > "$out/deb/shlibs/debian/control"
rm -f "$out/deb/substvars"
(cd "$out/deb/shlibs" && dpkg-shlibdeps -T"$out/deb/substvars" "$stage/usr/bin/todo")
depends=$(sed -n 's/^shlibs:Depends=//p' "$out/deb/substvars")
[ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size=$(du -sk --apparent-size usr | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$size/" \
  "$root/packaging/control" > DEBIAN/control
find usr -type f | sort | xargs md5sum > DEBIAN/md5sums
chmod 0644 DEBIAN/control DEBIAN/md5sums
cd "$out"
dpkg-deb --root-owner-group -Zxz --build "$stage" "todo_${version}_$arch.deb" >/dev/null
echo "built $out/todo_${version}_$arch.deb"
lintian --fail-on error,warning --display-info "todo_${version}_$arch.deb"
echo "lintian: no error, no warning"
