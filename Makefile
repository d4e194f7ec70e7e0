# todo: build, run, test, install. Every target that needs the system packages runs `deps` first.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
ARGS ?=
DEBUG_BIN = .build/debug/todo
# Release builds link the Swift standard library statically, and libstdc++ too (the Swift
# runtime's only C++ dependency): binding libstdc++'s symbols at every start was a third of
# `todo --version`. The static archive is reached through a linker script named libstdc++.so
# in a folder searched first; without the archive, the build links libstdc++ dynamically.
# The release binary is linked as a fixed-address executable (-no-pie), as Go links its programs:
# a position-independent one spends a quarter of `todo --version` having the loader relocate
# 26k pointers and copy the ~65 pages holding them (measured: 2.40 ms against 1.83 ms; packed
# relative relocations alone gave 2.26 ms). Libraries keep their address randomisation; `make
# release PIE=1` links a position-independent binary.
# SQLite is linked statically the same way (libsqlite3.a from libsqlite3-dev): the loader then
# neither maps libsqlite3.so nor binds its symbols at every start (a sixth of `todo list`'s
# instructions on 10k tasks went to the dynamic loader). It is the same SQLite, Debian's.
STATIC_CXX_ARCHIVE = $(shell c++ -print-file-name=libstdc++.a 2>/dev/null)
STATIC_SQLITE_ARCHIVE = $(shell c++ -print-file-name=libsqlite3.a 2>/dev/null)
STATIC_CXX_DIR = $(CURDIR)/.build/static-libs
STATIC_CXX_FLAGS = $(if $(filter /%,$(STATIC_CXX_ARCHIVE) $(STATIC_SQLITE_ARCHIVE)),-Xlinker -L$(STATIC_CXX_DIR))
PIE ?=
# --disable-local-rpath: no $ORIGIN search path, where the loader looked for libc and libm in
# eleven folders next to the binary before the system's at every start.
# Every function in a section of its own, and those that everyday commands run laid out together
# (bench/hot-text.order, made by `make hot-text`): `todo add` then takes 317 page faults instead
# of 354, and about 9% less time. The ordering option is gold's (bfd and lld refuse it), so gold
# is asked for by name; without the file, the build links in the usual order.
HOT_TEXT_ORDER = $(wildcard $(CURDIR)/bench/hot-text.order)
HOT_TEXT_FLAGS = $(if $(HOT_TEXT_ORDER),-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=gold \
  -Xlinker --section-ordering-file -Xlinker $(HOT_TEXT_ORDER))
# A generic type used with concrete arguments (an array of tokens, a dictionary of strings) gets
# its metadata at first use. By default the compiler asks for it by mangled name, which the
# runtime demangles: about 20,000 instructions each, some 40 times in a `todo list` (12% of
# its instructions). Metadata accessor functions instead cost a fraction of that: `list
# project:x` went from 6.14 to 5.67 million instructions, `--version` from 0.81 to 0.65, for
# 80 KB more code.
METADATA_FLAGS = -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_CODEGEN_FLAGS = -c release --static-swift-stdlib --disable-local-rpath $(STATIC_CXX_FLAGS) $(HOT_TEXT_FLAGS) $(METADATA_FLAGS)
# The program exports no symbols. Swift links an executable with its every public symbol in the
# dynamic symbol table (4,295 of them, 360 KB), which nothing links against; the runtime's start
# (dladdr, finding the folder of its crash reporter) walked the table whole: 190,000 of the 10.7
# million instructions of `todo projects` on 10k tasks, and a dozen page faults. (A crash's
# backtrace names functions from the symbol table, which the package's stripped binary lacks
# either way; the exported table only ever named the public ones.)
RELEASE_LINK_FLAGS = -Xlinker --no-export-dynamic
RELEASE_FLAGS = $(RELEASE_CODEGEN_FLAGS) $(if $(PIE),,-Xlinker -no-pie) $(RELEASE_LINK_FLAGS)
# The release flags of the last release build. The compiler skips writing an object file whose
# code did not change, and code generation options such as -function-sections do not count as a
# change: when the flags change, the old objects are removed so that they are made again. The
# linker's -no-pie is not among them (Swift's code is position-independent either way): PIE=1
# only links again.
RELEASE_STAMP = .build/release-flags
# The sqlite3 that SwiftPM asks pkg-config for, in release builds: the static archive's folder.
RELEASE_ENV = $(if $(filter /%,$(STATIC_SQLITE_ARCHIVE)),PKG_CONFIG_PATH=$(STATIC_CXX_DIR))

# System packages: the libraries to build with, what the tests drive (tmux, mandoc, and the
# bench script's smoke run), and what the benchmarks compare with (Taskwarrior).
BUILD_PACKAGES = libsqlite3-dev libedit-dev pkg-config
TEST_PACKAGES = tmux mandoc sqlite3 hyperfine time python3 taskwarrior todotxt-cli todoman python3-icalendar radicale vdirsyncer curl zsh fish jq python3-jsonschema bash-completion xvfb dunst libnotify-bin dbus libglib2.0-bin
BENCH_PACKAGES = sqlite3 hyperfine time python3 taskwarrior

.PHONY: lint test-run all build build-info deb dist test-package package-deps release hot-text static-cxx deps test-deps bench-deps run test test-tsan test-asan bench bench-quick install install-files uninstall fuzz clean

all: build

# Installs what is missing with apt-get when root; otherwise prints the exact command and stops.
define ensure_packages
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || exit 1; \
	  else \
	    echo "missing system packages:$$missing"; \
	    echo "run: sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps: deps
	$(call ensure_packages,$(TEST_PACKAGES))

bench-deps: deps
	$(call ensure_packages,$(BENCH_PACKAGES))

build: deps build-info
	$(SWIFT) build

# The commit the programs are built from, for `todo --version` (Sources/CBuildInfo): written
# only when it changes, and build_info.c touched so that it alone is compiled again. Outside a
# git checkout of this tree (a source tarball, even one unpacked inside another repository): "".
BUILD_COMMIT_HEADER = Sources/CBuildInfo/include/todo-build-commit.h
build-info:
	@commit=""; \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
	  commit=$$(git rev-parse --short=7 HEAD 2>/dev/null || true); \
	  if [ -n "$$commit" ] && [ -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$$commit-dirty"; fi; \
	fi; \
	line="#define TODO_BUILD_COMMIT \"$$commit\""; \
	if [ "$$(cat $(BUILD_COMMIT_HEADER) 2>/dev/null)" != "$$line" ]; then \
	  echo "$$line" > $(BUILD_COMMIT_HEADER); touch Sources/CBuildInfo/build_info.c; fi

# The optimised binary `make install` installs and `make bench` measures.
release: deps static-cxx build-info
	@mkdir -p .build; if [ "$$(cat $(RELEASE_STAMP) 2>/dev/null)" != "$(RELEASE_CODEGEN_FLAGS)" ]; then \
	  rm -f .build/*/release/*.build/*.o; printf '%s\n' "$(RELEASE_CODEGEN_FLAGS)" > $(RELEASE_STAMP); fi
	@# A new order file is no input SwiftPM knows of: remove the programs so that they are linked again.
	@if [ bench/hot-text.order -nt .build/release/todo ]; then rm -f .build/*/release/todo .build/*/release/todo-bench .build/*/release/todo-fuzz; fi
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE_FLAGS)

# Makes bench/hot-text.order again from the release binary (see bench/hot_text.py), and links
# the release programs with it.
hot-text: release
	$(call ensure_packages,valgrind)
	python3 bench/hot_text.py
	$(MAKE) release

static-cxx:
	@mkdir -p $(STATIC_CXX_DIR)
	@case "$(STATIC_CXX_ARCHIVE)" in /*) echo 'INPUT($(STATIC_CXX_ARCHIVE))' > $(STATIC_CXX_DIR)/libstdc++.so;; esac
	@case "$(STATIC_SQLITE_ARCHIVE)" in /*) echo 'INPUT($(STATIC_SQLITE_ARCHIVE) -lm)' > $(STATIC_CXX_DIR)/libsqlite3.so; \
	  printf 'Name: SQLite\nDescription: SQLite, linked statically\nVersion: %s\nLibs: -L%s -lsqlite3\nCflags:\n' \
	    "$$(pkg-config --modversion sqlite3)" "$(STATIC_CXX_DIR)" > $(STATIC_CXX_DIR)/sqlite3.pc;; esac

run: build
	@if [ -z "$(ARGS)" ]; then exec $(DEBUG_BIN) shell; else exec $(DEBUG_BIN) $(ARGS); fi

# A tiny run of the benchmark script (no budgets) so that it cannot rot, every test, then the
# Debian package and the tarball made, installed, tried and removed (test-package).
#
# The tests run as two processes at once, each with a share of the suites (`test-run`). A test
# that waits for a program (vdirsyncer and Radicale, tmux, a command stopped at a random moment)
# holds one of its process's threads, one per core, while it waits: one process kept a 2-core
# machine 1.45 cores busy (412 s of wall time for 596 s of CPU); two keep it 1.8 busy (359 s).
# The first share is the suites that wait most. SwiftPM lets one `swift test` at a time use a
# build folder, so the test bundle is run directly; each line says which share wrote it, and
# each share's log is kept in .build/.
TEST_SHARE = EndToEndSyncTests|EndToEndReminderSyncTests|PreviousVersionSyncTests|EndToEndUITests|ShellTerminalTests
test-run:
	$(SWIFT) build --build-tests
	@bundle="$$($(SWIFT) build --show-bin-path)/todoPackageTests.xctest"; \
	rm -f .build/test-share-*.status; \
	( "$$bundle" --testing-library swift-testing --filter '$(TEST_SHARE)' 2>&1; echo $$? > .build/test-share-1.status ) \
	  | tee .build/test-share-1.log | sed -u 's/^/1| /' & \
	( "$$bundle" --testing-library swift-testing --skip '$(TEST_SHARE)' 2>&1; echo $$? > .build/test-share-2.status ) \
	  | tee .build/test-share-2.log | sed -u 's/^/2| /'; \
	wait; \
	grep -h "Test run with" .build/test-share-1.log .build/test-share-2.log; \
	if grep -q "✘" .build/test-share-1.log .build/test-share-2.log; then \
	  echo "What failed (CI keeps only the end of the output, so it is repeated here):"; \
	  grep -h "✘" .build/test-share-1.log .build/test-share-2.log | grep -v "Test run with" | cut -c1-400 | head -80; \
	fi; \
	[ "$$(cat .build/test-share-1.status 2>/dev/null)" = 0 ] && [ "$$(cat .build/test-share-2.status 2>/dev/null)" = 0 ]

test: test-deps build-info lint
	$(SWIFT) build
	python3 bench/bench.py --smoke
	$(MAKE) test-run
	$(MAKE) test-package

# The code's layout, checked against .swift-format (the formatter that ships with the toolchain):
# `swift format format -i -r Sources Tests Package.swift` mends what this finds.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

test-tsan: test-deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Every test under AddressSanitizer; the end-to-end and terminal tests run the instrumented
# binary. XCTest leaks a little on its own, so leak detection is off.
test-asan: test-deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan

# libFuzzer on the fuzz targets (Sources/TodoCLI/FuzzTarget.swift), built with the fuzzer and
# AddressSanitizer in .build-fuzz; FUZZ_SECONDS each (FUZZ_TARGETS to choose). Starts from the
# committed seeds (Tests/Fuzz/corpus/TARGET) and keeps what it learns in .build-fuzz/corpus;
# a crash, hang or memory blow-up is written to Tests/Fuzz/regressions/TARGET/, which
# FuzzRegressionTests replays in `make test` from then on; libFuzzer starts from those too. Not
# part of `make test`.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= command-line dates filters config json json-pieces taskwarrior todotxt ical
fuzz: deps
	$(SWIFT) build --product todo-fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p .build-fuzz/corpus/$$target Tests/Fuzz/regressions/$$target; \
	  echo "== fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  TODO_FUZZ_TARGET=$$target .build-fuzz/debug/todo-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix=Tests/Fuzz/regressions/$$target/ \
	    .build-fuzz/corpus/$$target Tests/Fuzz/corpus/$$target Tests/Fuzz/regressions/$$target || exit 1; \
	done

# The budgets of shared/DESIGN.md as ratios measured side by side (1k to 1M tasks); the table
# goes to bench/RESULTS.md. bench-quick: 1k and 10k only.
bench: bench-deps
	python3 bench/bench.py

bench-quick: bench-deps
	python3 bench/bench.py --quick

# `make install PREFIX=/usr/local DESTDIR=…`: the release binary, the man page, the completion
# scripts where each shell looks, and the JSON schema; `make uninstall` removes exactly those.
# install-files installs a given BINARY (the tests install the debug one into a scratch DESTDIR).
BINARY ?=
INSTALLED_FILES = bin/todo share/man/man1/todo.1 share/bash-completion/completions/todo \
	share/zsh/site-functions/_todo share/fish/vendor_completions.d/todo.fish share/todo/todo.schema.json

install: release
	$(MAKE) install-files BINARY="$$($(RELEASE_ENV) $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/todo"

DEST = $(DESTDIR)$(PREFIX)

install-files:
	@test -x "$(BINARY)" || { echo "install-files: BINARY=$(BINARY) is not an executable"; exit 1; }
	install -d "$(DEST)/bin" "$(DEST)/share/man/man1" "$(DEST)/share/bash-completion/completions" \
	  "$(DEST)/share/zsh/site-functions" "$(DEST)/share/fish/vendor_completions.d" "$(DEST)/share/todo"
	install -m 0755 "$(BINARY)" "$(DEST)/bin/todo"
	install -m 0644 man/todo.1 "$(DEST)/share/man/man1/todo.1"
	"$(BINARY)" completions bash > "$(DEST)/share/bash-completion/completions/todo"
	"$(BINARY)" completions zsh > "$(DEST)/share/zsh/site-functions/_todo"
	"$(BINARY)" completions fish > "$(DEST)/share/fish/vendor_completions.d/todo.fish"
	chmod 0644 "$(DEST)/share/bash-completion/completions/todo" "$(DEST)/share/zsh/site-functions/_todo" \
	  "$(DEST)/share/fish/vendor_completions.d/todo.fish"
	install -m 0644 docs/todo.schema.json "$(DEST)/share/todo/todo.schema.json"

uninstall:
	for file in $(INSTALLED_FILES); do rm -f "$(DEST)/$$file"; done
	rmdir "$(DEST)/share/todo" 2>/dev/null || true

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz bench/data

# Releases. The version is the program's own (Version.current in CommandRunner.swift), which
# CHANGELOG.md has an entry for (a test checks).
VERSION = $(shell sed -n 's/^  static let current = "\(.*\)"$$/\1/p' Sources/TodoCLI/Commands/CommandRunner.swift)
ifeq ($(VERSION),)
  $(error cannot read the version (Version.current) from Sources/TodoCLI/Commands/CommandRunner.swift)
endif
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DIST_ARCH = $(shell uname -m)
PACKAGE_PACKAGES = dpkg-dev lintian
DIST = .build/dist

package-deps: deps
	$(call ensure_packages,$(PACKAGE_PACKAGES))

# `make deb`: .build/dist/todo_VERSION_ARCH.deb, the release binary (stripped), the man page,
# the completions of bash, zsh and fish, the JSON schema, the copyright and the changelog;
# checked by lintian (no error, no warning). See packaging/deb.sh. Debian builds every program
# position-independent (hardening: the loader places it at a random address), so the package's
# binary is linked so too (PIE=1), at about half a millisecond of startup.
deb: package-deps
	$(MAKE) release PIE=1
	sh packaging/deb.sh "$(VERSION)" "$(DEB_ARCH)" "$$($(RELEASE_ENV) $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/todo" $(DIST)

# `make dist`: .build/dist/todo-VERSION-linux-ARCH.tar.gz and its .sha256: the same files
# (the same position-independent binary) and an install.sh that copies them under PREFIX. See
# packaging/dist.sh.
dist: deps
	$(MAKE) release PIE=1
	sh packaging/dist.sh "$(VERSION)" "$(DIST_ARCH)" "$$($(RELEASE_ENV) $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/todo" $(DIST)

# Part of `make test`: builds both, installs the package with dpkg and the tarball with its
# install.sh, runs a round of commands, removes them and checks nothing is left.
test-package:
	$(MAKE) deb
	$(MAKE) dist
	sh packaging/test-package.sh "$(VERSION)" $(DIST)/todo_$(VERSION)_$(DEB_ARCH).deb $(DIST)/todo-$(VERSION)-linux-$(DIST_ARCH).tar.gz
