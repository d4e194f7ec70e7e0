import Foundation
import Testing

@testable import TodoCLI

/// The bad-input matrix, generated from the parser's own tables so that a new option or command
/// is in it without anyone remembering to add it: every option of every command without its
/// value, and an unknown option given to every command, each through the real binary. Each is a
/// usage error (exit 2) whose one `todo: error:` line names the option, and leaves the database
/// byte for byte as it was.
@Suite struct EndToEndBadInputMatrixTests {
  /// A database with a task of each kind a command may need (a pending one, a done one, notes).
  private func sandbox() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    todo("add", "First", "+a", "--note", "a note").expectSuccess()
    todo("add", "Second", "project:p").expectSuccess()
    todo("done", "2").expectSuccess()
    return todo
  }

  /// The arguments a command needs before its options, so that the missing value is what fails.
  private static func leading(_ command: CommandName) -> [String] {
    switch command {
    case .show, .why, .update, .append, .prepend, .duplicate, .done, .reopen, .delete, .purge, .start, .stop, .edit: ["1"]
    case .note: ["1"]
    case .add, .log: ["New", "task"]
    case .date: ["today"]
    default: []
    }
  }

  @Test func everyOptionWithoutItsValueIsAUsageErrorThatNamesItAndWritesNothing() throws {
    let todo = try sandbox()
    let before = todo.contents(of: todo.databasePath)
    var tried = 0
    for command in CommandName.allCases {
      for option in command.valueOptions {
        let arguments = [command.rawValue] + Self.leading(command) + [option]
        let run = todo.run(arguments)
        tried += 1
        #expect(run.status == 2, "\(arguments): \(run)")
        #expect(run.errorLines.first?.hasPrefix("todo: error: ") == true, "\(arguments): \(run)")
        #expect(run.errorLines.first?.contains(option) == true, "\(arguments) does not name \(option): \(run)")
        #expect(run.stdout.isEmpty, "\(arguments): \(run)")
      }
    }
    // (`-c` without `key=value` after it is the filter term "without the tag c", as `todo -c`.)
    for option in GlobalOptionNames.valueTaking + ["--config"] where option != "-c" {
      let run = todo.run([option])
      tried += 1
      #expect(run.status == 2 && run.errorLines.first?.contains(option) == true, "\(option): \(run)")
    }
    #expect(tried > 40, "only \(tried) options were tried")
    #expect(todo.contents(of: todo.databasePath) == before, "a failed command changed the database")
  }

  @Test func anUnknownOptionIsAUsageErrorForEveryCommandAndWritesNothing() throws {
    let todo = try sandbox()
    let before = todo.contents(of: todo.databasePath)
    for command in CommandName.allCases where command != .help {
      let arguments = [command.rawValue] + Self.leading(command) + ["--no-such-option"]
      let run = todo.run(arguments)
      #expect(run.status == 2, "\(arguments): \(run)")
      #expect(run.errorLines.first?.hasPrefix("todo: error: ") == true, "\(arguments): \(run)")
      #expect(run.errorLines.first?.contains("--no-such-option") == true, "\(arguments): \(run)")
    }
    // Free text (a note, its new text) is no place for a mistyped option either.
    for arguments in [["note", "1", "--no-such-option"], ["note", "1", "--edit", "1", "--no-such-option"], ["recover", "--verbose"]] {
      let run = todo.run(arguments)
      #expect(run.status == 2 && run.errorLines.first?.contains(arguments.last!) == true, "\(arguments): \(run)")
    }
    #expect(todo.contents(of: todo.databasePath) == before, "a failed command changed the database")
    let files = try FileManager.default.contentsOfDirectory(atPath: todo.folder.path).filter { $0.hasPrefix("-") }
    #expect(files.isEmpty, "files named after options: \(files)")
  }
}
