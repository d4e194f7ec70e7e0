import Foundation
import Testing

@testable import TodoCLI
@testable import TodoCore

/// The documentation tells the truth: every option, key, word and event the program knows is in
/// the man page, and every example of the man page's EXAMPLES and of the README's tour runs.
@Suite struct DocumentationTests {
  /// The man page source with mdoc's `\-` and `\&` read as the characters they print.
  private static func manPageText() throws -> String {
    try ManPageTests.lines().joined(separator: "\n").replacingOccurrences(of: "\\-", with: "-")
      .replacingOccurrences(of: "\\&", with: "")
  }

  /// Every option of every command, and every global option, as an `Fl` of the man page and in
  /// `todo help` (the command's topic, the attributes topic or the overview).
  @Test func everyOptionTheParserKnowsIsInTheManPageAndTheHelp() throws {
    let page = try Self.manPageText()
    var options = Set(GlobalOptionNames.all + ["-y", "-h", "--config", "--colour"])
    for command in CommandName.allCases { options.formUnion(command.valueOptions + command.flagOptions) }
    // `Fl -json` prints --json, `Fl c` prints -c.
    let missing = options.sorted().filter { !page.contains("Fl " + $0.dropFirst()) }
    #expect(missing.isEmpty, "man/todo.1 has no 'Fl' for \(missing)")
    for command in CommandName.allCases {
      let topic = Help.topics[command.rawValue] ?? ""
      for option in command.valueOptions + command.flagOptions {
        #expect(
          topic.contains(option) || Help.topics["attributes"]!.contains(option),
          "'todo help \(command.rawValue)' does not mention \(option)")
      }
    }
    for option in GlobalOptionNames.all {
      #expect(Help.overview.contains(option), "'todo help' does not mention \(option)")
    }
  }

  /// The vocabulary: configuration keys, virtual tags, filter keys, date words, recurrence
  /// words, report columns, hook events, export formats and the completion shells.
  @Test func everyKeyWordAndEventIsInTheManPage() throws {
    let page = try Self.manPageText()
    // Filter keys are a field and a modifier (`wait.before:`); the page gives the modifiers
    // with `due` and names the other date fields that take them. Weekdays are given as `monday ... sunday`.
    let filterKeys = FilterKey.filterSpellings.map { $0.split(separator: ".").map(String.init) }
    let weekdays = ["tuesday", "wednesday", "thursday", "friday", "saturday"]
    let words: [(kind: String, words: [String])] = [
      ("configuration key", ConfigKey.listed.map(\.name).filter { !$0.hasPrefix("report.") }),
      ("report key", ["report.", ".description", ".columns", ".labels", ".sort", ".filter", ".limit"]),
      ("virtual tag", VirtualTag.allCases.map { "+" + $0.rawValue }),
      ("filter field", Array(Set(filterKeys.map { "Cm " + $0[0] }))),
      ("filter modifier", Array(Set(filterKeys.compactMap { $0.count > 1 ? "." + $0[1] + ":" : nil }))),
      ("attribute key", ShellCompletion.attributeKeys),
      ("date word", ShellCompletion.dateWords.filter { !weekdays.contains($0) } + ["monday No ... Cm sunday"]),
      ("recurrence word", ShellCompletion.recurrenceWords),
      ("report column", ReportColumn.allCases.map(\.rawValue)),
      ("hook event", ["on-launch", "on-add", "on-modify", "on-exit"]),
      ("format", ["json", "jsonl", "taskwarrior", "todotxt", "ical"]),
      ("shell", ["bash", "zsh", "fish"]),
    ]
    for (kind, list) in words {
      let missing = list.filter { !page.contains($0) }
      #expect(missing.isEmpty, "man/todo.1 does not mention the \(kind)s \(missing)")
    }
  }

  /// Every `$ ` line of the `.Bd -literal` blocks of EXAMPLES, run in order by bash with
  /// `pipefail` (a todo that fails before `| jq` fails the line) against one scratch database and
  /// HOME, with `todo` on the PATH, exits 0.
  @Test func everyManPageExampleRunsInOrder() throws {
    var examples: [String] = []
    var inBlock = false
    for line in try ManPageTests.lines(inSection: "EXAMPLES") {
      if line.hasPrefix(".Bd -literal") { inBlock = true } else if line == ".Ed" { inBlock = false }
      // mdoc's `\e` prints a backslash.
      if inBlock, line.hasPrefix("$ ") { examples.append(String(line.dropFirst(2)).replacingOccurrences(of: "\\e", with: "\\")) }
    }
    #expect(examples.count >= 50, "EXAMPLES has \(examples.count) examples")
    let todo = try TodoSandbox()
    let path = TodoSandbox.binary!.deletingLastPathComponent().path + ":" + todo.environment["PATH"]!
    for example in examples {
      let run = todo.launch(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", example], environment: ["PATH": path]).wait()
      #expect(run.status == 0, "man page example failed: \(example)\n\(run)")
    }
  }

  /// The README's tour: every `$ ` line of its `console` blocks, run in order against a scratch
  /// database at the README's own "now", prints what the README shows (task UUIDs aside).
  @Test func theReadmeTourRunsAndPrintsWhatItShows() throws {
    let readme = try String(contentsOf: ManPageTests.repositoryRoot().appendingPathComponent("README.md"), encoding: .utf8)
    var steps: [(command: String, output: [String])] = []
    var inConsole = false
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        inConsole = line == "```console"
        continue
      }
      guard inConsole else { continue }
      if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), []))
      } else if !steps.isEmpty {
        steps[steps.count - 1].output.append(line)
      }
    }
    #expect(steps.count >= 20, "the tour has \(steps.count) commands")
    let todo = try TodoSandbox()
    let path = TodoSandbox.binary!.deletingLastPathComponent().path + ":" + todo.environment["PATH"]!
    let environment: [String: String?] = ["PATH": path, "TODO_NOW": Self.readmeNow, "COLUMNS": nil]
    for (command, expected) in steps {
      let run = todo.launch(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", command], environment: environment).wait()
      #expect(run.status == 0, "README tour: \(command)\n\(run)")
      let printed = TodoRun.lines(of: run.stdout + run.stderr).map(Self.withoutUUIDs)
      #expect(printed == expected.map(Self.withoutUUIDs), "README tour: \(command)")
    }
  }

  /// The moment the README's outputs were made at: Saturday 21 November 2026, 10:42 UTC.
  static let readmeNow = "2026-11-21T10:42:00Z"

  /// A task's UUID is new on every run: compared as `UUID`.
  private static func withoutUUIDs(_ line: String) -> String {
    line.replacingOccurrences(
      of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "UUID", options: .regularExpression)
  }
}
