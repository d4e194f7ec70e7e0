import DataOperation
import Dispatch
import Foundation
import Testing

/// Many callers on one context: every write is accounted for, nested runs do not deadlock.
@Suite struct ConcurrencyTests {
  @Test func eightThreadsTimesFiveHundredOperationsAreAllApplied() throws {
    let folder = TemporaryFolder()
    let context = try Database(path: folder.path + "/threads.db")
    _ = try schema.migrate().operate(in: context)
    let threads = 8
    let perThread = 500
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread {
        let value = thread * perThread + index
        // Half plain writes, half transactions with a read-back, to mix both paths.
        if index.isMultiple(of: 2) {
          _ = try? logged(value).operate(in: context)
        } else {
          _ = try? logged(value).flatMap { _ in logValues.map(\.count) }.transaction().operate(in: context)
        }
      }
    }
    let values = try logValues.operate(in: context)
    #expect(values.count == threads * perThread)
    #expect(Set(values) == Set(0..<(threads * perThread)))
  }

  @Test func twoHundredConcurrentAsyncTasksAreAllApplied() async throws {
    let context = try makeContext()
    try await withThrowingTaskGroup(of: Int.self) { group in
      for value in 0..<200 {
        group.addTask { try await logged(value).transaction().operateAsync(in: context) }
      }
      var seen: Set<Int> = []
      for try await value in group { seen.insert(value) }
      #expect(seen == Set(0..<200))
    }
    let values = try await logValues.operateAsync(in: context)
    #expect(values.sorted() == Array(0..<200))
  }

  /// Sixteen async callers wait behind a busy context. If `operateAsync` blocked their threads, the
  /// cooperative pool (one thread per core) would be exhausted and the task that releases the
  /// context could never run: the test would hang and hit its time limit instead of passing.
  /// The limit is generous: the pool is shared with every other test running at the same time,
  /// and long synchronous tests (end-to-end runs of the binary) hold its threads for a while.
  @Test(.timeLimit(.minutes(30))) func asyncOperateDoesNotBlockTheCallersThread() async throws {
    let context = try makeContext()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? DataOperation<Void, DatabaseError> { _ in
        started.signal()
        release.wait()
      }.operate(in: context)
    }
    started.wait()
    let waiting = (0..<16).map { value in Task { try await logged(value).operateAsync(in: context) } }
    try await Task.sleep(for: .milliseconds(50))
    _ = await Task { release.signal() }.value
    var results: [Int] = []
    for task in waiting { results.append(try await task.value) }
    #expect(results == Array(0..<16))
  }

  @Test func nestedOperateInsideMapOnTheSameContextCompletes() throws {
    let context = try makeContext()
    let nested = logged(1).map { value in
      // Runs inline on the context's queue instead of deadlocking.
      (try? logged(value + 1).operate(in: context)) ?? -1
    }
    #expect(try nested.operate(in: context) == 2)
    #expect(try logValues.operate(in: context) == [1, 2])
  }

  @Test func nestedOperateInsideFlatMapOnTheSameContextCompletes() throws {
    let context = try makeContext()
    let nested = logged(1).flatMap { value in
      let inner = (try? logValues.operate(in: context)) ?? []
      return logged(value + inner.count)
    }.transaction()
    #expect(try nested.operate(in: context) == 2)
    #expect(try logValues.operate(in: context) == [1, 2])
  }

  @Test func twoContextsOnOneFileBothWriteWithoutLockErrors() throws {
    let folder = TemporaryFolder()
    let path = folder.path + "/shared.db"
    let first = try Database(path: path)
    _ = try schema.migrate().operate(in: first)
    let second = try Database(path: path)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let context = index == 0 ? first : second
      for value in 0..<200 {
        _ = try? logged(index * 1000 + value).transaction().operate(in: context)
      }
    }
    #expect(try logValues.operate(in: first).count == 400)
  }
}
