import Foundation
import Testing

/// Input that never ends, or whose one line never does, is refused early and read in constant
/// memory: a shell line is at most 1 MiB (a 20 MB one took 1.25 GB), an import reads at most
/// `import.limit` MiB whatever the format (`/dev/zero` was read until memory ran out), and a
/// todo.txt line past 1 MB stops the reading at once.
@Suite struct EndToEndInputLimitsTests {
  /// The peak memory (KiB) of a shell command, by GNU time.
  private func peakKiB(_ todo: TodoSandbox, _ script: String) throws -> (run: TodoRun, kib: Int) {
    let run = todo.shell("/usr/bin/time -f '%M' -o peak.txt sh -c \(TodoSandbox.quoted(script))")
    let text = String(decoding: todo.contents(of: todo.folder.appendingPathComponent("peak.txt").path) ?? Data(), as: UTF8.self)
    let kib = try #require(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(text)")
    return (run, kib)
  }

  @Test(.enabled(if: TodoSandbox.hasTool("time"), "needs GNU time"))
  func aShellLineOfTwentyMegabytesIsRefusedInConstantMemory() throws {
    let todo = try TodoSandbox()
    let (run, kib) = try peakKiB(
      todo, #"(echo "add first"; head -c 20000000 /dev/zero | tr '\0' a; echo; echo "add second") | "$TODO" shell"#)
    #expect(run.status == 1, "\(run)")
    #expect(run.errorLines == ["todo: error: line 2: the line is longer than 1 MiB; a command line is far shorter"], "\(run)")
    #expect(run.lines == ["Added task 1: first", "Added task 2: second"], "\(run)")
    #expect(kib < 200_000, "peak \(kib) KiB")
    // A title as long as a line may be is refused by its own limit, and the shell goes on.
    let title = todo("shell", stdin: "add " + String(repeating: "t", count: 200_000) + "\nlist\n")
    #expect(title.stderr.contains("longer than 100,000 bytes"), "\(title)")
  }

  @Test(arguments: ["todotxt", "taskwarrior", "ical", "json", "jsonl"])
  func anEndlessImportIsRefused(format: String) throws {
    let todo = try TodoSandbox()
    let run = todo("-c", "import.limit=4", "import", "--format", format, "/dev/zero")
    #expect(run.status == 1, "\(run)")
    let expected =
      switch format {
      case "todotxt":
        "todo: error: cannot import /dev/zero as todotxt: line 1: the line is longer than 1,000,000 bytes; a task's line is far shorter; nothing was imported"
      case "json", "jsonl":
        "todo: error: cannot import /dev/zero as \(format): line 1: unexpected byte 0x0 where a JSON value should be; nothing was imported"
      default: "todo: error: cannot read /dev/zero: it is larger than 4 MiB (import.limit; -c import.limit=N reads more)"
      }
    #expect(run.errorLines == [expected], "\(run)")
    // Whitespace forever after a JSON array's start, or endless short lines: the limit, not the
    // memory, ends it.
    let input = format == "json" || format == "jsonl" ? "(echo '['; yes '   ')" : "yes 'x'"
    let spaces = todo.shell(input + #" 2>/dev/null | "$TODO" -c import.limit=4 import --format \#(format) -"#)
    #expect(spaces.status == 1)
    #expect(
      spaces.errorLines == ["todo: error: cannot read standard input: it is larger than 4 MiB (import.limit; -c import.limit=N reads more)"],
      "\(spaces)")
  }

  @Test func theImportLimitIsASettingWithADefault() throws {
    let todo = try TodoSandbox()
    #expect(todo("config", "get", "import.limit").stdout == "256\n")
    let small = todo.folder.appendingPathComponent("t.txt").path
    try String(repeating: "a task\n", count: 200_000).write(toFile: small, atomically: true, encoding: .utf8)
    let refused = todo("-c", "import.limit=1", "import", small)
    #expect(refused.status == 1 && refused.stderr.contains("larger than 1 MiB"), "\(refused)")
    #expect(todo("list", "--json").stdout == "[]\n")
  }
}
