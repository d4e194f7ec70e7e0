import Testing
import TodoCore

@testable import TodoCLI

/// The configuration file's reader and editor, the keys' checks, and the small formats the
/// configuration uses (styles, date patterns, report columns).
@Suite struct ConfigFileTests {
  static let sample = """
    # My todo settings
    default.command = next

    [color]
    ; dim the low ones
    priority.L = dim
    overdue = "bold red "

    [report.mine]
    columns = id, title
    filter = +work # not a comment
    """

  @Test func readsSectionsCommentsAndQuotes() throws {
    let file = try ConfigFile(text: Self.sample, path: "/c")
    #expect(
      file.entries.map(\.key) == [
        "default.command", "color.priority.L", "color.overdue", "report.mine.columns", "report.mine.filter",
      ])
    #expect(file.entries.map(\.line) == [2, 6, 7, 10, 11])
    #expect(file.entries[2].value == "bold red ")
    #expect(file.entries[4].value == "+work # not a comment")
    #expect(file.text == Self.sample + "\n")
  }

  @Test func badLinesNameTheirLineAndKey() {
    func problem(_ text: String) -> ConfigFileError? {
      do {
        _ = try ConfigFile(text: text, path: "/c")
        return nil
      } catch {
        return error
      }
    }
    #expect(problem("a = 1\nnot a setting\n")?.line == 2)
    #expect(problem("[color\n")?.line == 1)
    #expect(problem("[]\n")?.line == 1)
    #expect(problem("x y = 1\n")?.line == 1)
    #expect(problem("a = 1\n\n[s]\nb = \"open\n") == ConfigFileError(path: "/c", line: 4, key: "s.b", reason: "the quote is not closed"))
    let twice = problem("a = 1\n# c\na = 2\n")
    #expect(twice?.line == 3 && twice?.key == "a" && twice?.reason == "it is already set on line 1")
    #expect(problem("a = 1\n")?.message == nil)
    #expect(problem("z\n")?.message == "the configuration file /c, line 1: expected 'key = value', '[section]' or a '#' comment, not 'z'")
  }

  @Test func setAndUnsetKeepEveryOtherLine() throws {
    var file = try ConfigFile(text: Self.sample, path: "/c")
    file.set("color.overdue", "red")
    file.set("color.today", "yellow")
    file.set("report.mine.limit", "5")
    file.set("week.start", "sunday")
    file.set("urgency.due", "10")
    file.set("editor", " vim ")
    #expect(
      file.text == """
        # My todo settings
        default.command = next
        week.start = sunday
        editor = " vim "

        [color]
        ; dim the low ones
        priority.L = dim
        overdue = red
        today = yellow

        [report.mine]
        columns = id, title
        filter = +work # not a comment
        limit = 5

        [urgency]
        due = 10

        """)
    // What was written reads back as it was set.
    let reread = try ConfigFile(text: file.text, path: "/c")
    #expect(reread.entries.first { $0.key == "editor" }?.value == " vim ")
    let removed = file.unset("urgency.due")
    let again = file.unset("urgency.due")
    #expect(removed && !again)
    for key in ["report.mine.columns", "report.mine.filter", "report.mine.limit"] {
      let found = file.unset(key)
      #expect(found)
    }
    #expect(
      file.text == """
        # My todo settings
        default.command = next
        week.start = sunday
        editor = " vim "

        [color]
        ; dim the low ones
        priority.L = dim
        overdue = red
        today = yellow

        """)
  }

  @Test func aTopLevelKeyGoesBeforeTheFirstSection() throws {
    var file = try ConfigFile(text: "[context]\nwork = +work\n", path: "/c")
    file.set("context", "work")
    #expect(file.text == "context = work\n\n[context]\nwork = +work\n")
    file.unset("context")
    #expect(file.text == "[context]\nwork = +work\n")
    var empty = ConfigFile(path: "/c")
    empty.set("context.home", "+home")
    #expect(empty.text == "[context]\nhome = +home\n")
  }

  @Test func valuesAreCheckedAgainstTheirKeys() {
    func reason(_ key: String, _ value: String) -> String? {
      do {
        var configuration = Configuration.defaults
        try configuration.set(key, value, origin: .commandLine, now: 0)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(reason("week.start", "sunday") == nil)
    #expect(reason("week.start", "tuesday") == "expected one of monday, sunday, not 'tuesday'")
    #expect(reason("confirmation.threshold", "-1") == "expected a whole number ≥ 0, not '-1'")
    #expect(reason("hooks.timeout", "0") != nil)
    #expect(reason("hooks", "maybe") == "expected on or off, not 'maybe'")
    #expect(reason("color.today", "bold blu")?.contains("did you mean 'blue'") == true)
    #expect(reason("date.format", "%Q") != nil)
    #expect(reason("report.x.columns", "id,titel")?.contains("did you mean 'title'") == true)
    #expect(reason("report.x.columns", "title") != nil, "a report without id or uuid cannot name its tasks")
    #expect(reason("report.x.sort", "urgency,due") == "urgency sorts alone: write sort = urgency")
    #expect(reason("context.work", "project:") == nil)
    #expect(reason("context.work", "pri:Z") != nil)
    #expect(reason("week.strat", "monday")?.contains("did you mean 'week.start'") == true)
    #expect(reason("urgency.due", "x") == "expected a number, not 'x'")
    #expect(reason("report.add.columns", "id")?.contains("'add' is a command") == true)
    #expect(reason("report.next.limit", "3") == nil)
  }

  @Test func stylesDatePatternsAndTheEnvironmentNames() throws {
    #expect(try TextStyle.parse("bold red") == TextStyle(parameters: "1;31"))
    #expect(try TextStyle.parse("none") == nil)
    #expect(try TextStyle.parse("") == nil)
    let friday = CalendarDay(year: 2026, month: 11, day: 27)
    #expect(try DateFormat("%a %e %b %Y").text(friday) == "Fri 27 Nov 2026")
    #expect(try DateFormat("%d/%m/%y (%A, day %j) 100%%").text(friday) == "27/11/26 (Friday, day 331) 100%")
    #expect(DateFormat.standard.text(friday) == "2026-11-27")
    #expect(ConfigKey.named("week.start")?.environmentVariable == "TODO_WEEK_START")
    #expect(ConfigKey.named("color.priority.H")?.environmentVariable == "TODO_COLOR_PRIORITY_H")
    #expect(Shell.prompt(context: "work") == "todo[work]> " && Shell.prompt(context: nil) == "todo> ")
  }
}
