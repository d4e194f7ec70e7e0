// swift-tools-version:6.0
import PackageDescription

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
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    .target(name: "DataOperation", dependencies: ["CSQLite"]),
    .target(name: "TodoCore", dependencies: ["DataOperation"]),
    .target(name: "TodoCLI", dependencies: ["TodoCore", "DataOperation", "CEditLine"]),
    .executableTarget(name: "todo", dependencies: ["TodoCLI"]),
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "DataOperationTests", dependencies: ["DataOperation", "TestSupport"]),
    .testTarget(name: "TodoCoreTests", dependencies: ["TodoCore", "DataOperation", "TestSupport"]),
    .testTarget(name: "TodoCLITests", dependencies: ["TodoCLI", "TodoCore", "todo", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
