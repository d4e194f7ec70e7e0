import TodoCore

/// The commands that change tasks (`add`, `log`, `duplicate`, `update`, `done`, `reopen`,
/// `delete`, `note`, `start`, `stop`): one `TodoStore` operation each, shown, asked about and
/// written by `change` (or `closing`, which asks about open subtasks first). Their decoding is
/// the attribute and filter reading in `ArgumentDecoder`, which they share.
extension CommandRunner {
  func runChange(_ command: Command) throws(CommandFailure) {
    switch command {
    case .add(let changes):
      try change(TodoStore.add(Self.withUUID(changes), now: now, command: invocation.commandLine), verb: .add, selection: nil, oneObject: true)
    case .update(let filter, let changes):
      try change(TodoStore.update(filter, changes, now: now, command: invocation.commandLine), verb: .update, selection: filter)
    case .log(let changes):
      try change(
        TodoStore.add(Self.withUUID(changes), now: now, command: invocation.commandLine, done: true, copying: nil), verb: .log, selection: nil,
        oneObject: true)
    case .duplicate(let reference, let changes):
      try change(
        TodoStore.add(Self.withUUID(changes), now: now, command: invocation.commandLine, done: false, copying: reference), verb: .duplicate,
        selection: nil, oneObject: true)
    case .updateSeries(let filter, let changes):
      try change(
        TodoStore.update(filter, changes, now: now, command: invocation.commandLine, series: true), verb: .update, selection: filter)
    case .done(let filter):
      try closing(filter, verb: .complete) { withSubtasks in
        TodoStore.complete(filter, now: now, command: invocation.commandLine, withSubtasks: withSubtasks)
      }
    case .deleteSeries(let filter):
      try closing(filter, verb: .delete) { withSubtasks in
        TodoStore.delete(filter, now: now, command: invocation.commandLine, withSubtasks: withSubtasks, series: true)
      }
    case .editNote(let reference, let number, let note):
      try change(
        TodoStore.changeNote(of: reference, number: number, text: note, now: now, command: invocation.commandLine), verb: .note,
        selection: nil)
    case .removeNote(let reference, let number):
      try change(
        TodoStore.changeNote(of: reference, number: number, text: nil, now: now, command: invocation.commandLine), verb: .removeNote,
        selection: nil)
    case .start(let reference):
      try change(
        TodoStore.start(reference, now: now, command: invocation.commandLine, exclusive: configuration.trackingIsExclusive),
        verb: .start, selection: nil)
    case .stop(let reference):
      try change(TodoStore.stop(reference, now: now, command: invocation.commandLine), verb: .stop, selection: nil)
    case .reopen(let filter):
      try change(TodoStore.reopen(filter, now: now, command: invocation.commandLine), verb: .reopen, selection: filter)
    case .delete(let filter):
      try closing(filter, verb: .delete) { withSubtasks in
        TodoStore.delete(filter, now: now, command: invocation.commandLine, withSubtasks: withSubtasks)
      }
    case .note(let reference, let note):
      try change(
        TodoStore.addNote(to: reference, text: note, now: now, command: invocation.commandLine), verb: .note, selection: nil)
    default:
      preconditionFailure("not a command that changes tasks: \(command)")
    }
  }
}
