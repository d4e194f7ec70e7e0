import DataOperation
import TodoCore
import TodoInterchange

/// `export` and `import`: the formats live in TodoInterchange, the import rules in TodoCore; this
/// only reads and writes files and renders the report.
extension CommandRunner {
  func export(_ request: ExportRequest) throws(Failure) {
    if request.vdir != nil || request.format == "ical" {
      throw .environment("iCalendar export (--format ical, --vdir) is not in this version yet; use json, jsonl, taskwarrior or todotxt")
    }
    let records = try perform(TodoStore.records(request.filter, now: now), access: .read)
    let format = request.format ?? request.output.flatMap { InterchangeFormat.byExtension($0)?.rawValue } ?? "json"
    var bytes: [UInt8] = []
    switch format {
    case "json", "jsonl":
      var writer = JSONWriter(format: format == "json" ? .pretty : .compact)
      if format == "json" { writer.beginArray() }
      for record in records {
        writer.task(record.todo, extras: record.extras)
        if format == "jsonl" { writer.endLine() }
      }
      if format == "json" {
        writer.endArray()
        writer.endLine()
      }
      bytes = writer.bytes
    case "taskwarrior":
      // What `task export` writes: an array, one task a line.
      bytes = Array(("[\n" + records.map(Taskwarrior.line).joinedText(",\n") + (records.isEmpty ? "" : "\n") + "]\n").utf8)
    case "todotxt":
      bytes = Array(records.map { TodoTxt.line($0) + "\n" }.joinedText("").utf8)
    default:
      throw .environment("iCalendar export is not in this version yet; use json, jsonl, taskwarrior or todotxt")
    }
    guard let path = request.output else {
      output.write(bytes: bytes)
      return
    }
    if let problem = FileSystem.writeAtomically(bytes, to: path) {
      throw .environment("cannot write \(path): \(problem); nothing was written")
    }
    let noun = records.count == 1 ? "task" : "tasks"
    if self.format == .human {
      session.standardError.write("Exported \(records.count) \(noun) to \(path) (\(format)).\n")
    }
  }

  func importTasks(_ request: ImportRequest) throws(Failure) {
    if request.vdir != nil || request.format == "ical" {
      throw .environment("iCalendar import (--format ical, --vdir) is not in this version yet; use json, jsonl, taskwarrior or todotxt")
    }
    let name = request.path ?? "-"
    if name == "-", session.inputIsTerminal {
      throw .usage(.invalid("import reads a file, or tasks piped in: todo import FILE, or … | todo import -"))
    }
    let bytes: [UInt8]
    switch FileSystem.readAll(name == "-" ? nil : name) {
    case .success(let read): bytes = read
    case .failure(let problem): throw .environment("cannot read \(name == "-" ? "standard input" : name): \(problem.reason)")
    }
    let format =
      request.format.flatMap(InterchangeFormat.init(rawValue:))
      ?? (name == "-" ? nil : InterchangeFormat.byExtension(name)).map { detected in
        // `.json` holds either our objects or Taskwarrior's: the content tells.
        detected == .json || detected == .jsonl ? (InterchangeFormat.byContent(bytes) == .taskwarrior ? .taskwarrior : detected) : detected
      }
      ?? InterchangeFormat.byContent(bytes)
    let records: [TaskRecord]
    do throws(InterchangeError) {
      switch format {
      case .json, .jsonl: records = try NativeJSON.records(bytes)
      case .taskwarrior: records = try Taskwarrior.records(bytes, now: now)
      case .todotxt: records = try TodoTxt.records(bytes)
      case .ical:
        throw InterchangeError(line: 0, "iCalendar import is not in this version yet; use json, jsonl, taskwarrior or todotxt")
      }
    } catch {
      throw .environment("cannot import \(name == "-" ? "standard input" : name) as \(format.rawValue): \(error); nothing was imported")
    }
    let operation = TodoStore.importRecords(records, now: now, command: invocation.commandLine)
    let imported: ImportReport
    do throws(Failure) {
      if invocation.options.dryRun {
        renderImport(try perform(operation, access: .dryRun), from: name, format: format, dryRun: true)
        return
      }
      var confirmed = operation
      if !invocation.options.assumeYes, session.inputIsTerminal, name != "-" {
        let preview = try perform(operation, access: .preview)
        if preview.changedCount > Confirmation.threshold {
          let question =
            "Import \(preview.added.count) new and \(preview.updated.count) updated tasks from \(name)? [y/N] "
          guard session.ask(question) else { throw .cancelled("nothing was imported") }
          confirmed = operation.flatMap { report in
            report == preview ? .pure(report) : .fail(.selectionChanged)
          }
        }
      }
      imported = try perform(confirmed, access: .write)
    } catch {
      // A task that cannot be stored is the file's fault: exit 1, like a line that does not parse.
      if case .domain(.invalid(let reason)) = error {
        throw .environment("cannot import \(name == "-" ? "standard input" : name): \(reason); nothing was imported")
      }
      throw error
    }
    renderImport(imported, from: name, format: format, dryRun: false)
  }

  private func renderImport(_ report: ImportReport, from name: String, format: InterchangeFormat, dryRun: Bool) {
    for warning in report.warnings { session.warn(warning, json: self.format != .human) }
    switch self.format {
    case .human:
      let source = name == "-" ? "standard input" : name
      let verb = dryRun ? "Would import" : "Imported"
      let count = report.added.count + report.updated.count + report.unchanged.count + report.skipped.count
      output.write(
        "\(verb) \(count) \(count == 1 ? "task" : "tasks") from \(source) (\(format.rawValue)): "
          + "\(report.added.count) added, \(report.updated.count) updated, \(report.unchanged.count) unchanged, "
          + "\(report.skipped.count) skipped\(report.skipped.isEmpty ? "" : " (the database's copy is not older)")"
          + "\(dryRun ? "; nothing was changed" : "").\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("format", format.rawValue)
          for (key, ids) in [
            ("added", report.added), ("updated", report.updated), ("unchanged", report.unchanged), ("skipped", report.skipped),
          ] {
            json.key(key)
            json.array { json in for id in ids { json.value(Int(id)) } }
          }
          json.field("warnings", report.warnings)
          json.field("summary", report.summary)
          if dryRun { json.field("dry_run", true) }
        }
      }
    }
  }
}
