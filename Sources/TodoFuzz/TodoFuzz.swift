import TodoCLI

#if canImport(Glibc)
import Glibc
#endif

// `todo-fuzz`: the fuzz targets of `FuzzTarget`.
//
// Built by `make fuzz` (with -sanitize=fuzzer,address and -D FUZZING), this file has no `main`:
// libFuzzer's own runs the target that TODO_FUZZ_TARGET names, with libFuzzer's arguments
// (corpus folders, -max_total_time=…). Built plainly, `todo-fuzz TARGET FILE…` runs each file
// through the target once and prints `FILE: read` or `FILE: refused` (an error, which is a fine
// answer): how a crash's input is replayed, by hand and by FuzzRegressionTests.

/// Writes a message to standard error.
func complain(_ message: String) {
  _ = message.withCString { write(2, $0, strlen($0)) }
}

#if FUZZING
/// The target TODO_FUZZ_TARGET names, read at the first input.
nonisolated(unsafe) var fuzzTarget: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  if fuzzTarget == nil {
    guard let name = getenv("TODO_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
      complain("todo-fuzz: set TODO_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n")
      exit(2)
    }
    fuzzTarget = target
  }
  fuzzTarget?.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM names an executable's entry point `<module>_main` (and points `main` at it).
@_cdecl("todo_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
  var count = argc
  var arguments = argv
  return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
#else
@main
struct Replay {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
      complain("usage: todo-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE…\n")
      exit(2)
    }
    for path in arguments.dropFirst() {
      guard let file = fopen(path, "rb") else {
        complain("todo-fuzz: cannot read \(path)\n")
        exit(1)
      }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
      }
      fclose(file)
      print("\(path): \(target.run(bytes) ? "read" : "refused")")
    }
  }
}
#endif
