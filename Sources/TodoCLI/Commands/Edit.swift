import TodoCore
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `todo edit ID`: the task in the editor, applied as one `update` (one undo step).
extension CommandRunner {
  func edit(_ reference: TaskReference) throws(CommandFailure) {
    // The file holds the task's whole text: it is removed whatever stops todo (SIGTERM, SIGHUP
    // while the editor runs), and the signal then ends todo as usual.
    try ChildProcess.holdingStopSignals { () throws(CommandFailure) in try editHeld(reference) }
  }

  private func editHeld(_ reference: TaskReference) throws(CommandFailure) {
    let todo = try perform(TodoStore.task(reference), access: .read)
    var form = TaskEditForm(todo: todo)
    // Each attribute the configuration defines (a note's name aside: its lines are notes).
    let defined = configuration.userAttributes.values.filter { $0.name != "note" }.sorted { $0.name < $1.name }
    if !defined.isEmpty {
      let stored = Dictionary(
        (try perform(TodoStore.userAttributes(of: [todo.id]), access: .read)[todo.id] ?? []).map { ($0.name, $0.value) },
        uniquingKeysWith: { first, _ in first })
      form.attributes = defined.map { ($0, stored[$0.name]) }
    }
    let editor = configuration.editor(environment: session.environment)
    let folder = session.environment["TMPDIR"].flatMap { $0.hasPrefix("/") && FileSystem.isDirectory($0) ? $0 : nil } ?? "/tmp"
    var template = Array("\(folder)/todo-edit-\(todo.id)-XXXXXX.txt".utf8CString)
    // mkstemps makes the file 0600, private to its owner, whatever the umask.
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard descriptor >= 0 else {
      throw .environment("cannot make a file to edit in \(folder): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    var text = form.text()
    while true {
      if let problem = FileSystem.writeAtomically(Array(text.utf8), to: path, durable: false) {
        throw .environment("cannot write \(path): \(problem)")
      }
      // As git runs its editor: the command through the shell, the file as its argument (never
      // part of the command text).
      let status: Int32
      switch ChildProcess.runInteractive(
        ["/bin/sh", "-c", editor + " \"$@\"", editor, path], environment: Terminal.childEnvironment(session.environment))
      {
      case .failure(let problem): throw .environment("cannot start the editor '\(editor)': \(problem.reason)")
      case .success(let code): status = code
      }
      guard !ChildProcess.stopIsPending() else { throw .environment("todo was stopped while the editor ran; nothing was changed") }
      guard status == 0 else {
        throw .environment("the editor '\(editor)' exited with status \(status); nothing was changed")
      }
      let edited: String
      switch FileSystem.readAll(path) {
      case .failure(let problem): throw .environment("cannot read \(path): \(problem.reason)")
      case .success(let bytes):
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
          throw .environment("the edited file is not UTF-8 text; nothing was changed")
        }
        edited = decoded
      }
      let content = TaskEditForm.lines(of: edited).filter { !String($0).trimmingWhitespace().isEmpty && !$0.hasPrefix("#") }
      if content.isEmpty || edited == text {
        if text != form.text() && !content.isEmpty {
          // Saved again without fixing the error: give up.
          throw .usage(.invalid("the task was not changed: the edit still has an error (\(Self.firstError(in: text) ?? "see the file"))"))
        }
        say(content.isEmpty ? "The file was empty: task \(todo.id) was not changed." : "No changes: task \(todo.id) was not changed.")
        return
      }
      var request: (filter: TodoFilter, changes: TodoChanges)?
      do throws(UsageError) {
        guard let asked = try form.changes(in: edited) else {
          say("No changes: task \(todo.id) was not changed.")
          return
        }
        var decoder = ArgumentDecoder(command: .update, now: now, configuration: configuration)
        var changes = TodoChanges()
        var filter = TodoFilter()
        filter.references = [.id(todo.id)]
        if !asked.words.isEmpty {
          let tokens = ([String(todo.id)] + asked.words).enumerated().map { Token(text: $0.element, position: $0.offset + 1) }
          guard case .update(let selection, let decoded) = try decoder.decode(tokens) else { return }
          filter = selection
          changes = decoded
        }
        changes.editedNotes = asked.edited
        changes.removedNotes = asked.removed
        changes.notes = asked.added
        try ArgumentDecoder.checked { () throws(TodoError) in try Validation.changes(changes) }
        request = (filter, changes)
      } catch {
        text = TaskEditForm.replacingError(in: edited, with: error.message, form: form)
      }
      guard let (filter, changes) = request else { continue }
      let shown = todo
      let (now, command) = (self.now, invocation.commandLine)
      let operation = TodoStore.task(.id(todo.id)).flatMap { current in
        current == shown
          ? TodoStore.update(filter, changes, now: now, command: command)
          : .fail(
            .refused(
              "task \(shown.id) was changed by another command while it was being edited; nothing was changed (run 'todo edit \(shown.id)' again)"))
      }
      do throws(CommandFailure) {
        try change(operation, verb: .update, selection: nil)
        return
      } catch .domain(let error) where Self.reopens(error) {
        // What the store refuses (a dependency on a task that does not exist, a cycle, a
        // recurrence without a date) is shown in the editor too, with the text as it was typed.
        text = TaskEditForm.replacingError(in: edited, with: error.description, form: form)
      }
    }
  }

  private func say(_ message: String) {
    if format == .human {
      output.write(message + "\n")
    } else {
      writeJSONList([Todo]()) { _, _ in }
    }
  }

  /// Store errors an edit can fix (not "changed meanwhile", which editing again cannot).
  static func reopens(_ error: TodoError) -> Bool {
    switch error {
    case .invalid, .cycle, .noSuchNote, .notFound, .ambiguous: true
    default: false
    }
  }

  static func firstError(in text: String) -> String? {
    text.split(separator: "\n").first { $0.hasPrefix("# ERROR: ") }.map { String($0.dropFirst(9)) }
  }
}

extension TaskEditForm {
  /// The edited text with the error at the top (in place of an earlier one).
  static func replacingError(in edited: String, with error: String, form: TaskEditForm) -> String {
    var lines = TaskEditForm.lines(of: edited).map(String.init)
    while let first = lines.first, first.hasPrefix("# ERROR: ") || first.hasPrefix("# Fix the line and save again") {
      lines.removeFirst()
    }
    let header = form.text(error: error).split(separator: "\n").prefix(2).map(String.init)
    return (header + lines).joinedText("\n")
  }
}
