import Foundation
import Testing
import TodoCore

@testable import TodoCLI

/// The question a large change asks on a terminal, run in-process with the answer given by the
/// test: what asks, what it shows, and that no means nothing is written.
@Suite struct ConfirmationTests {
  /// A session on a fresh database file, with standard input taken for a terminal.
  final class Harness {
    let folder: String
    let session: Session
    let output = OutputStream.memory()
    let errors = OutputStream.memory()
    var answers: [String?] = []
    private(set) var questions: [String] = []
    /// What the last `run` wrote to standard error.
    private(set) var lastErrors = ""

    init(tasks titles: [String], errorIsTerminal: Bool = true) throws {
      var template = Array((NSTemporaryDirectory() + "todo-confirm.XXXXXX").utf8CString)
      folder = String(cString: try #require(mkdtemp(&template)))
      session = Session(
        environment: ["TODO_DB": folder + "/todo.db", "HOME": folder], standardOutput: output, standardError: errors,
        inputIsTerminal: true, errorIsTerminal: errorIsTerminal)
      session.readAnswer = { [unowned self] in self.answers.isEmpty ? nil : self.answers.removeFirst() }
      for title in titles { #expect(run("add", title, "--yes") == 0) }
      _ = errors.takeText()
      _ = output.takeText()
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func run(_ arguments: String...) -> Int32 {
      let status = session.execute(arguments: arguments)
      lastErrors = errors.takeText()
      if let range = lastErrors.range(of: "? [y/N] ", options: .backwards) {
        questions.append(String(lastErrors[..<range.upperBound]))
      }
      return status
    }

    func statuses() throws -> [String] {
      _ = output.takeText()
      #expect(session.execute(arguments: ["list", "status:all", "--sort", "id", "--jsonl"]) == 0)
      return output.takeText().split(separator: "\n").map { line in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["status"] as? String ?? "?"
      }
    }
  }

  @Test func aFilterChangingMoreThanThreeTasksAsksAndNoChangesNothing() throws {
    let harness = try Harness(tasks: (1...6).map { "errand \($0)" } + ["other"])
    harness.answers = ["n"]
    #expect(harness.run("delete", "errand") == 1)
    let question = try #require(harness.questions.last)
    #expect(
      question
        == "  1  errand 1\n  2  errand 2\n  3  errand 3\n  4  errand 4\n  5  errand 5\n  … and 1 more\nDelete 6 tasks? [y/N] ")
    #expect(harness.lastErrors.hasSuffix("? [y/N] \ntodo: error: nothing was changed\n") == false)
    #expect(harness.lastErrors.hasSuffix("[y/N] todo: error: nothing was changed\n"), "\(harness.lastErrors)")
    #expect(try harness.statuses() == Array(repeating: "pending", count: 7))
    #expect(harness.session.execute(arguments: ["journal", "--jsonl"]) == 0)
    #expect(harness.output.takeText().components(separatedBy: "\n").filter { $0.contains("delete") }.isEmpty)
  }

  /// With standard error redirected (`2>errors`, or `--json` read by a program) and no terminal
  /// to ask on, the typed answer is echoed elsewhere: the question's line is ended, so that the
  /// next line (a JSON error object) starts a line of its own.
  @Test func aQuestionOnARedirectedStandardErrorEndsItsLine() throws {
    let harness = try Harness(tasks: (1...6).map { "errand \($0)" }, errorIsTerminal: false)
    harness.answers = ["n"]
    #expect(harness.run("delete", "errand", "--json") == 1)
    let lines = harness.lastErrors.split(separator: "\n").map(String.init)
    #expect(lines.suffix(2).first == "Delete 6 tasks? [y/N] ", "\(harness.lastErrors)")
    let error = try #require(lines.last)
    #expect(error.hasPrefix("{\"error\":{\"code\":\"cancelled\""), "\(error)")
  }

  /// With a terminal to ask on (`/dev/tty`, when standard error is redirected), the question goes
  /// there and standard error holds only the outcome: one JSON error line, nothing else.
  @Test func aQuestionGoesToTheTerminalWhenStandardErrorIsRedirected() throws {
    let harness = try Harness(tasks: (1...6).map { "errand \($0)" }, errorIsTerminal: false)
    let terminal = OutputStream.memory()
    harness.session.questionStream = terminal
    harness.answers = ["n"]
    #expect(harness.run("delete", "errand", "--json") == 1)
    #expect(terminal.takeText().hasSuffix("Delete 6 tasks? [y/N] "))
    let lines = harness.lastErrors.split(separator: "\n").map(String.init)
    #expect(lines.count == 1 && lines[0].hasPrefix("{\"error\":{\"code\":\"cancelled\""), "\(harness.lastErrors)")
  }

  @Test func yesChangesExactlyTheTasksShown() throws {
    let harness = try Harness(tasks: (1...5).map { "errand \($0)" } + ["other"])
    harness.answers = ["y"]
    #expect(harness.run("done", "errand") == 0)
    #expect(harness.questions.last?.hasSuffix("Complete 5 tasks? [y/N] ") == true)
    #expect(try harness.statuses() == Array(repeating: "done", count: 5) + ["pending"])
  }

  @Test func onlyYOrYesIsYes() {
    for answer in ["y", "Y", "yes", " YES ", "y\r"] { #expect(Confirmation.isYes(answer), "\(answer)") }
    for answer: String? in [nil, "", "n", "no", "yess", "ja", "1"] { #expect(!Confirmation.isYes(answer), "\(answer ?? "nil")") }
  }

  @Test func searchWordsAskForMoreThanOneTaskAndIdsNeverAsk() throws {
    // `done -- 3` matches every task whose text holds a 3: two of them, so it asks.
    let harness = try Harness(tasks: ["call 3 people", "buy 3 pens", "water plants", "a", "b", "c"])
    harness.answers = ["n"]
    #expect(harness.run("done", "--", "3") == 1)
    #expect(harness.questions.count == 1)
    // Four tasks named one by one: each was typed on purpose.
    #expect(harness.run("done", "3", "4", "5", "6") == 0)
    #expect(harness.questions.count == 1)
    // A range of more than three asks.
    harness.answers = ["n"]
    #expect(harness.run("reopen", "3-6") == 1)
    #expect(harness.questions.count == 2)
    #expect(harness.questions.last?.hasSuffix("Reopen 4 tasks? [y/N] ") == true)
    // --yes answers for the user; so does -y.
    #expect(harness.run("reopen", "3-6", "--yes") == 0)
    #expect(harness.run("delete", "-y", "3-6") == 0)
    #expect(harness.questions.count == 2)
    // --dry-run never asks and never writes.
    #expect(harness.run("reopen", "3-6", "--dry-run") == 0)
    #expect(harness.questions.count == 2)
    #expect(try harness.statuses() == ["pending", "pending", "deleted", "deleted", "deleted", "deleted"])
  }

  @Test func aSelectionThatChangesWhileTheQuestionWaitsChangesNothing() throws {
    let harness = try Harness(tasks: (1...4).map { "errand \($0)" })
    // While the user reads the question, another process completes one of the tasks.
    harness.session.readAnswer = {
      let other = Session(
        environment: harness.session.environment, standardOutput: .memory(), standardError: .memory())
      #expect(other.execute(arguments: ["done", "2"]) == 0)
      return "y"
    }
    #expect(harness.run("delete", "errand") == 1)
    #expect(harness.lastErrors.contains("todo: error: the tasks changed while the question waited, so nothing was changed"))
    #expect(try harness.statuses() == ["pending", "done", "pending", "pending"])
  }

  /// The session's clock: `TODO_NOW` from its own environment (never the process's), else the
  /// system clock; an invalid value is ignored.
  @Test func theSessionsClockHonoursItsTODO_NOW() {
    let fixed = Session(environment: ["TODO_NOW": "2026-11-21T10:30:00+01:00"], standardOutput: .memory(), standardError: .memory())
    #expect(fixed.now() == 1_795_253_400)
    for environment in [["TODO_NOW": "garbage"], [:]] {
      let clock = Int64(time(nil))
      let now = Session(environment: environment, standardOutput: .memory(), standardError: .memory()).now()
      #expect(now >= clock && now <= clock + 5)
    }
  }

  @Test func withoutATerminalNothingAsks() throws {
    var template = Array((NSTemporaryDirectory() + "todo-confirm.XXXXXX").utf8CString)
    let folder = String(cString: try #require(mkdtemp(&template)))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let session = Session(
      environment: ["TODO_DB": folder + "/todo.db"], standardOutput: .memory(), standardError: .memory(),
      inputIsTerminal: false)
    session.readAnswer = {
      Issue.record("nothing should ask without a terminal")
      return "n"
    }
    for index in 1...5 { #expect(session.execute(arguments: ["add", "errand \(index)"]) == 0) }
    let output = OutputStream.memory()
    let deleting = Session(
      environment: ["TODO_DB": folder + "/todo.db"], standardOutput: output, standardError: .memory(), inputIsTerminal: false)
    deleting.readAnswer = session.readAnswer
    #expect(deleting.execute(arguments: ["delete", "errand"]) == 0)
    #expect(output.collectedText.hasSuffix("Deleted 5 tasks; 'todo undo' reverts them together.\n"))
  }

  @Test func theRuleOfWhenToAsk() {
    func filter(_ configure: (inout TodoFilter) -> Void) -> TodoFilter {
      var filter = TodoFilter()
      configure(&filter)
      return filter
    }
    let ids = filter { $0.references = [.id(1), .id(2), .id(3), .id(4), .id(5)] }
    #expect(!Confirmation.isNeeded(for: ids, changing: 5))
    let range = filter { $0.references = [.range(1, 5)] }
    #expect(!Confirmation.isNeeded(for: range, changing: 3))
    #expect(Confirmation.isNeeded(for: range, changing: 4))
    let tag = filter { $0.includeTags = ["home"] }
    #expect(!Confirmation.isNeeded(for: tag, changing: 3))
    #expect(Confirmation.isNeeded(for: tag, changing: 4))
    let words = filter { $0.words = ["3"] }
    #expect(!Confirmation.isNeeded(for: words, changing: 1))
    #expect(Confirmation.isNeeded(for: words, changing: 2))
    let idsAndTag = filter {
      $0.references = [.id(1), .id(2), .id(3), .id(4)]
      $0.includeTags = ["home"]
    }
    #expect(Confirmation.isNeeded(for: idsAndTag, changing: 4))
  }
}
