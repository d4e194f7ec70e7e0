// swift-tools-version:6.0
import PackageDescription

/// Release builds let the compiler specialise generic code across modules (`Row.decode`,
/// `Repository<Todo>`…) instead of resolving type metadata per value at run time: the data layer
/// and the list are measured against the SQLite C API (`make bench`).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
  name: "todo",
  products: [
    .executable(name: "todo", targets: ["todo"]),
    .library(name: "DataOperation", targets: ["DataOperation"]),
    .library(name: "TodoCore", targets: ["TodoCore"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // libedit, loaded with dlopen by the interactive shell only (see its header).
    .target(name: "CEditLine", linkerSettings: [.linkedLibrary("dl")]),
    // The commit a build was made from, when `make` wrote it down (see its header).
    .target(name: "CBuildInfo"),
    .target(name: "DataOperation", dependencies: ["CSQLite"], swiftSettings: crossModule),
    .target(name: "TodoCore", dependencies: ["DataOperation", "TodoSystem"], swiftSettings: crossModule),
    // The platform: paths, files written atomically and safely, locks, child processes (Glibc only).
    .target(name: "TodoSystem", swiftSettings: crossModule),
    // Formats: pure parse and serialize (JSON, Taskwarrior, todo.txt, iCalendar); no SQLite, no files.
    .target(name: "TodoInterchange", dependencies: ["TodoCore"], swiftSettings: crossModule),
    // Sync: the vdir mirror, the three-way field merge, the sync state, driving vdirsyncer.
    .target(name: "TodoSync", dependencies: ["TodoInterchange", "TodoCore", "TodoSystem", "DataOperation"], swiftSettings: crossModule),
    // The full-screen interface: a termios/ANSI layer, a cell grid, its views and keys; it runs
    // commands through a backend the command line provides (the same commands, in-process).
    .target(name: "TodoUI", dependencies: ["TodoSystem"], swiftSettings: crossModule),
    .target(
      name: "TodoCLI",
      dependencies: ["TodoCore", "TodoInterchange", "TodoSync", "TodoSystem", "TodoUI", "DataOperation", "CEditLine", "CBuildInfo"],
      swiftSettings: crossModule),
    .executableTarget(name: "todo", dependencies: ["TodoCLI"]),
    // `make bench`'s helper: makes the benchmark databases and times the data layer.
    .executableTarget(name: "todo-bench", dependencies: ["TodoCore", "DataOperation", "CSQLite"], path: "Sources/TodoBench"),
    // `make fuzz`'s libFuzzer driver (built with -sanitize=fuzzer); plainly built, it replays inputs.
    .executableTarget(name: "todo-fuzz", dependencies: ["TodoCLI"], path: "Sources/TodoFuzz"),
    .target(name: "TestSupport", dependencies: ["TodoSystem"], path: "Tests/TestSupport"),
    .testTarget(name: "DataOperationTests", dependencies: ["DataOperation", "TestSupport"]),
    .testTarget(name: "TodoCoreTests", dependencies: ["TodoCore", "DataOperation", "TestSupport"]),
    .testTarget(name: "TodoInterchangeTests", dependencies: ["TodoInterchange", "TodoCore", "TestSupport"]),
    .testTarget(name: "TodoUITests", dependencies: ["TodoUI", "TodoSystem"]),
    .testTarget(name: "TodoSyncTests", dependencies: ["TodoSync", "TodoSystem", "TodoInterchange", "TodoCore", "DataOperation"]),
    // Fixtures/ holds files the tests copy and open by path (a database made by version 0.1.0).
    .testTarget(
      name: "TodoCLITests", dependencies: ["TodoCLI", "TodoCore", "TodoSystem", "TodoUI", "DataOperation", "todo", "TestSupport"],
      exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
