// `todo-bench`: the helper `make bench` runs. It makes the benchmark databases through the
// program's own store code (never hand-written SQL that could drift from the schema) and times the
// data layer against the SQLite C API in one process.
//
//   todo-bench generate PATH COUNT     a deterministic database of COUNT tasks at PATH
//   todo-bench datalayer [COUNT [ROUNDS]]  DataOperation vs C API: point reads and inserts, as ratios

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "generate":
    guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else { throw BenchError.usage }
    try DataSet.generate(path: arguments[1], count: count)
  case "datalayer":
    guard arguments.count <= 3 else { throw BenchError.usage }
    var benchmark = DataLayerBenchmark(count: 100_000)
    if arguments.count > 1 {
      guard let count = Int(arguments[1]), count > 0 else { throw BenchError.usage }
      benchmark.count = count
    }
    if arguments.count > 2 {
      // Fewer rounds, for a profiler (the budget is measured with the default).
      guard let rounds = Int(arguments[2]), rounds > 0 else { throw BenchError.usage }
      benchmark.rounds = rounds
    }
    try benchmark.run()
  default:
    throw BenchError.usage
  }
} catch {
  let message = "todo-bench: \(error)\n"
  _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  exit(error is BenchError ? 2 : 1)
}

enum BenchError: Error, CustomStringConvertible {
  case usage
  case failed(String)

  var description: String {
    switch self {
    case .usage: "usage: todo-bench generate PATH COUNT | todo-bench datalayer [COUNT [ROUNDS]]"
    case .failed(let reason): reason
    }
  }
}
