import Foundation
import Testing

/// A filter nests at most 16 deep (parentheses and `not`) and holds at most 2,000 terms, each
/// refused with a clear error instead of overflowing a stack (todo's, or SQLite's parser's, whose
/// message carried the internal SQL); long `or` chains are built in linear time and run. A
/// configuration whose filter breaks the limits still lets help, the version and `config`
/// repair it.
@Suite struct EndToEndFilterLimitsTests {
  private func words(_ count: Int, _ word: String) -> [String] { Array(repeating: word, count: count) }

  @Test func nestingUpToTheLimitRunsInSQLiteAndOneMoreIsRefused() throws {
    let todo = try TodoSandbox()
    todo.add("Alpha", "+a")
    todo.add("Beta", "+b", "due:tomorrow")
    // The shapes whose SQL nests deepest, at the limit: each must run, not meet SQLite's limits.
    let mixed = ["not", "(", "project:x", "or", "due.after:today", "and", "not", "(", "+b", "or"]
    let shapes: [[String]] = [
      words(16, "(") + ["+a"] + words(16, ")"),
      Array(repeating: ["not", "("], count: 8).flatMap { $0 } + ["+a"] + words(8, ")"),
      Array(repeating: mixed, count: 4).flatMap { $0 } + ["+a"] + words(8, ")"),
      // 16 groups, each the one before or-ed with 120 terms: runs of 64 nest as a balanced tree
      // inside each group, and the groups nest 16 deep (1,937 terms).
      (0..<16).reduce(["+a"]) { inner, level in
        ["("] + inner + (0..<120).flatMap { ["or", "+t\(level)x\($0)"] } + [")"]
      },
    ]
    for shape in shapes {
      let run = todo.run(["list", "--json"] + shape)
      #expect(run.status == 0, "\(shape): \(run)")
    }
    let tooDeep = todo.run(["list"] + words(17, "(") + ["+a"] + words(17, ")"))
    #expect(tooDeep.status == 2)
    #expect(tooDeep.errorLines == ["todo: error: filter: parentheses and 'not' nest more than 16 deep at word 18; write it flatter"], "\(tooDeep)")
    let manyNots = todo.run(["list"] + words(15_000, "not") + ["+a"])
    #expect(manyNots.status == 2)
    #expect(manyNots.errorLines == ["todo: error: filter: parentheses and 'not' nest more than 16 deep at word 18; write it flatter"], "\(manyNots)")
  }

  @Test func aLongOrChainRunsAndOnePastTheLimitIsRefused() throws {
    let todo = try TodoSandbox()
    todo.add("Alpha", "+a")
    todo.add("Beta", "+b")
    // 2,000 terms: 1,999 tags nobody has, then +a, joined by `or`.
    let chain = (0..<1_999).flatMap { ["+t\($0)", "or"] } + ["+a"]
    let run = todo.run(["list", "--json"] + chain)
    #expect(run.status == 0, "\(run)")
    #expect(try run.jsonArray().compactMap { $0["title"] as? String } == ["Alpha"])
    // The values of a comma list count, and ids too (a shell line is not bounded by the kernel's
    // limit on an argument): SQLite would refuse past 32,766 values, with its SQL in the message.
    let projects = todo.run(["list", "project:" + (0...2_000).map { "p\($0)" }.joined(separator: ",")])
    #expect(projects.status == 2)
    #expect(
      projects.errorLines.first == "todo: error: filter: more than 2000 terms (2001); use ranges (1-500), a tag or a project instead",
      "\(projects)")
    let ids = todo("shell", stdin: "list " + (1...40_000).map(String.init).joined(separator: ",") + "\n")
    #expect(ids.status == 1, "\(ids)")
    #expect(
      ids.errorLines.first == "todo: error: line 1: filter: more than 2000 terms (40000); use ranges (1-500), a tag or a project instead",
      "\(ids)")
    let long = todo.run(["list"] + (0..<16_000).flatMap { ["+t\($0)", "or"] } + ["+a"])
    #expect(long.status == 2)
    #expect(long.errorLines.first == "todo: error: filter: more than 2000 terms (16001); use ranges (1-500), a tag or a project instead", "\(long)")
  }

  @Test func aConfigurationWithADeepFilterCanStillBeRepairedWithTodo() throws {
    let todo = try TodoSandbox()
    todo.add("Alpha", "+a")
    let config = todo.folder.appendingPathComponent(".config/todo")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    let deep = (words(15_000, "(") + ["+a"] + words(15_000, ")")).joined(separator: " ")
    try "context.deep = \(deep)\nreport.deep.filter = \(deep)\n".write(
      to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    let list = todo("list")
    #expect(list.status == 1, "\(list)")
    #expect(
      list.errorLines.first?.hasSuffix("line 1 (context.deep): filter: parentheses and 'not' nest more than 16 deep at word 17; write it flatter")
        == true, "\(list)")
    #expect(todo("--version").status == 0)
    #expect(todo("help").status == 0)
    // Mended one key at a time: the first change leaves the file still broken, and says so.
    let first = todo("config", "unset", "context.deep")
    #expect(first.status == 0, "\(first)")
    #expect(
      first.errorLines == [
        "todo: warning: the configuration still does not read: filter: parentheses and 'not' nest more than 16 deep at word 17; "
          + "write it flatter (report.deep.filter)"
      ], "\(first)")
    let second = todo("config", "unset", "report.deep.filter")
    #expect(second.status == 0 && second.errorLines.isEmpty, "\(second)")
    #expect(todo("list").stdout.contains("Alpha"))
    // A file that reads is never broken by a change.
    let breaking = todo.run(["context", "define", "deep"] + words(20, "(") + ["+a"] + words(20, ")"))
    #expect(breaking.status == 2, "\(breaking)")
  }
}
