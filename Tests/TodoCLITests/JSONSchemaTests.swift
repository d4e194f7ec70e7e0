import Foundation
import Testing

/// `docs/todo.schema.json` describes every object `--json` and `--jsonl` print, with no room for
/// a key it does not name: real outputs of every command (Fixtures/schema/cases.tsv, each run on
/// a fresh copy of the data Fixtures/schema/setup.sh makes) are validated by Python's
/// `jsonschema` (Debian's python3-jsonschema, which `make test` installs), in one run of
/// `docs/validate-json.py`.
@Suite struct JSONSchemaTests {
  struct Case {
    var definition: String
    var lines: Bool
    var command: String
  }

  static func cases() throws -> [Case] {
    let file = try ManPageTests.repositoryRoot().appendingPathComponent("Tests/TodoCLITests/Fixtures/schema/cases.tsv")
    return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), !line.isEmpty else { return nil }
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3, ["doc", "lines"].contains(fields[1]) else { throw ManPageTestError("bad case line: \(line)") }
      return Case(definition: fields[0], lines: fields[1] == "lines", command: fields[2])
    }
  }

  @Test func everyCommandsJSONOutputMatchesTheSchema() throws {
    let root = try ManPageTests.repositoryRoot()
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "/usr/bin/python3 is missing")
    let check = try ManPageTests.run("/usr/bin/python3", ["-c", "import jsonschema"])
    try #require(check.status == 0, "python3-jsonschema is not installed; 'make test' installs it: \(check.output)")

    let todo = try TodoSandbox()
    let work = todo.folder.appendingPathComponent("work").path
    let template = todo.folder.appendingPathComponent("template").path
    let outputs = todo.folder.appendingPathComponent("outputs").path
    try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
    let binFolder = TodoSandbox.binary!.deletingLastPathComponent().path
    let environment: [String: String?] = [
      "PATH": binFolder + ":/usr/local/bin:/usr/bin:/bin", "TODO_DB": work + "/t.db", "TODO_NOW": DocumentationTests.readmeNow,
      "HOME": work + "/home", "XDG_CONFIG_HOME": work + "/home/.config", "XDG_DATA_HOME": work + "/home/.local/share",
      "XDG_STATE_HOME": work + "/home/.local/state", "NO_COLOR": "1", "COLUMNS": nil, "TODO": nil,
    ]
    let setupScript = root.appendingPathComponent("Tests/TodoCLITests/Fixtures/schema/setup.sh").path
    let setup = todo.shell("mkdir -p '\(work)' && sh '\(setupScript)' && cp -a '\(work)' '\(template)'", environment: environment)
    try #require(setup.status == 0, "setup: \(setup)")

    let cases = try Self.cases()
    #expect(cases.count >= 150)
    var covered: Set<String> = []
    for (index, testCase) in cases.enumerated() {
      let output = "\(outputs)/\(index + 1).\(testCase.definition).\(testCase.lines ? "lines" : "doc")"
      todo.shell(
        "rm -rf '\(work)' && cp -a '\(template)' '\(work)' && cd '\(work)' && { \(testCase.command) ; } < /dev/null > '\(output)'",
        environment: environment)
      covered.insert(testCase.definition)
    }
    let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("docs/todo.schema.json")))
    let definitions = Set(((schema as? [String: Any])?["$defs"] as? [String: Any])?.keys.map { $0 } ?? [])
    // Every object the schema names is printed by some case (the shared pieces are parts of them).
    let parts: Set<String> = [
      "timestamp", "day", "taskDate", "uuid", "taskId", "note", "interval", "recurrence", "progress", "extra", "urgencyTerm",
      "timesheetRow", "syncConflict", "syncSkippedFile", "historyEntry", "contextEntry", "tagCount", "projectCount",
      "syncConflictRecord", "dryRunTask", "rankedTask", "exportedTask", "calendarDay", "agendaItem",
    ]
    #expect(
      definitions.subtracting(parts).subtracting(covered).isEmpty, "no case prints \(definitions.subtracting(parts).subtracting(covered).sorted())")

    let validate = try ManPageTests.run(
      "/usr/bin/python3",
      [root.appendingPathComponent("docs/validate-json.py").path, root.appendingPathComponent("docs/todo.schema.json").path, "--outputs", outputs])
    #expect(validate.status == 0, "\(validate.output)")
    #expect(validate.output.contains("\(cases.count) outputs checked, 0 problems"), "\(validate.output)")
  }
}
