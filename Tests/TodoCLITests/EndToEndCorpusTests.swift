import Foundation
import Testing

/// The real-world corpus (`Fixtures/corpus`: files from the test suites and samples of Radicale,
/// Nextcloud Tasks, tasks.org, Evolution, ical4android, python icalendar, libical, todo.txt-cli,
/// sleek, topydo, Simpletask, Taskwarrior, tasklib, timewarrior…; `INDEX.tsv` gives each file's
/// origin and licence). Every file imports; what it gives and how it comes back is pinned in
/// `EXPECTED.tsv`: how many tasks it gives and leaves out, and the verdict of `compare.py` on our
/// export of it (`same`: nothing lost or changed; `instants`: the same moments, written in UTC
/// instead of the file's zone; `differs`: with the reason why, in the file). Our own export
/// imported again over the tasks it came from changes nothing.
@Suite struct EndToEndCorpusTests {
  struct Expectation: CustomTestStringConvertible, Sendable {
    let file: String
    let format: String
    let verdict: String
    let imported: Int
    let leftOut: Int
    var testDescription: String { file }
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/corpus")

  static func table(_ name: String) -> [[String]] {
    let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
  }

  static let expectations: [Expectation] = {
    let formats = Dictionary(table("INDEX.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
    return table("EXPECTED.tsv").map { row in
      Expectation(file: row[0], format: formats[row[0]] ?? "?", verdict: row[1], imported: Int(row[2]) ?? -1, leftOut: Int(row[3]) ?? -1)
    }
  }()

  @Test func everyFileOfTheIndexHasAnExpectationAndALicence() {
    let index = Self.table("INDEX.tsv")
    #expect(Set(index.map { $0[0] }) == Set(Self.expectations.map(\.file)))
    #expect(index.count >= 80)
    for row in index {
      #expect(row.count >= 6 && !row[2].isEmpty && !row[5].isEmpty, "\(row)")
      #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(row[0]).path), "\(row[0])")
    }
  }

  @Test(arguments: expectations) func importsAndComesBackAsExpected(_ expected: Expectation) throws {
    try #require(TodoSandbox.hasTool("python3"))
    let todo = try TodoSandbox()
    let path = Self.folder.appendingPathComponent(expected.file).path
    let imported = todo.run(["import", path, "--format", expected.format, "--json"], environment: ["TZ": "UTC"])
    #expect(imported.status == 0, "\(imported)")
    let report = try imported.jsonObject()
    let count = ["added", "updated", "unchanged"].map { (report[$0] as? [Any])?.count ?? 0 }.reduce(0, +)
    #expect(count == expected.imported, "\(imported)")
    #expect((report["rejected"] as? [Any])?.count ?? 0 == expected.leftOut, "\(imported)")

    let exported = todo.folder.appendingPathComponent("export").path
    todo.run(["export", "--format", expected.format, "--output", exported], environment: ["TZ": "UTC"]).expectSuccess()
    let compared = todo.shell(
      "python3 \"\(Self.folder.path)/compare.py\" \(expected.format) \"\(path)\" \"\(exported)\"", environment: ["TZ": "UTC"])
    let verdict = try compared.jsonObject()
    #expect(verdict["verdict"] as? String == expected.verdict, "\(compared.stdout)")

    // An iCalendar export is RFC 5545 for python's icalendar, with a VTIMEZONE for every TZID.
    if expected.format == "ical" {
      let script = """
        import icalendar, re, sys
        try:
            icalendar.Calendar.from_ical(open(sys.argv[2], 'rb').read())
        except Exception:
            print('the input does not parse either'); sys.exit(0)
        data = open(sys.argv[1], 'rb').read()
        calendar = icalendar.Calendar.from_ical(data)
        defined = {str(zone['TZID']) for zone in calendar.walk('VTIMEZONE')}
        named = set(re.findall(r';TZID=([^:;]+)[:;]', data.decode('utf-8').replace('\\r\\n ', '')))
        print(sorted(named - defined))
        """
      let checker = todo.folder.appendingPathComponent("check.py").path
      try script.write(toFile: checker, atomically: true, encoding: .utf8)
      let checked = todo.shell("/usr/bin/python3 \(checker) \"\(exported)\" \"\(path)\"")
      #expect(checked.status == 0 && ["[]\n", "the input does not parse either\n"].contains(checked.stdout), "\(checked)")
    }

    // Our export, imported again: the same tasks, nothing to change.
    let again = todo.run(["import", exported, "--format", expected.format, "--json"], environment: ["TZ": "UTC"])
    #expect(again.status == 0, "\(again)")
    let second = try again.jsonObject()
    #expect((second["added"] as? [Any])?.count ?? 0 == 0 && (second["updated"] as? [Any])?.count ?? 0 == 0, "\(again)")
  }
}
