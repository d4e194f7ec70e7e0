import DataOperation
import TodoCore
import TodoInterchange
import TodoSync
import TodoSystem

/// `export` and `import`: the formats live in TodoInterchange, the import rules in TodoCore; this
/// only reads and writes files and renders the report.
extension CommandRunner {
  func export(_ request: ExportRequest) throws(CommandFailure) {
    // `--format`, else the file's extension, else `--jsonl` (JSON Lines) or JSON.
    let format =
      request.vdir != nil
      ? "ical"
      : request.format ?? request.output.flatMap { InterchangeFormat.byExtension($0)?.rawValue }
        ?? (self.format == .jsonLines ? "jsonl" : "json")
    // iCalendar links name the UID a task was read with, those outside the filter too: their
    // extras are read in the same transaction as the tasks.
    // Taskwarrior's format writes each series' template too, from the same transaction.
    let (records, linked, templates) = try perform(
      TodoStore.records(request.filter, now: now).flatMap { records -> DataOperation<([TaskRecord], [String: String], [SeriesTemplate]), TodoError> in
        switch format {
        case "ical": TodoStore.icalUIDsOfLinkedTasks(outside: records).map { linked in (records, linked, [SeriesTemplate]()) }
        case "taskwarrior": TodoStore.seriesTemplates(of: records).map { templates in (records, [:], templates) }
        default: .pure((records, [:], [SeriesTemplate]()))
        }
      }, access: .read)
    if let folder = request.vdir {
      try exportVdir(records, linked: linked, to: folder)
      return
    }
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
      bytes = Array(Taskwarrior.document(records, templates: templates).utf8)
    case "todotxt":
      bytes = Array(records.map { TodoTxt.line($0, withID: !request.noIDs) + "\n" }.joinedText("").utf8)
    default:
      bytes = ICalendar.Writer(records, linkedUIDs: linked).calendar(records)
    }
    // `--output -` is standard output, as for most tools that take a file name.
    guard let path = request.output, path != "-" else {
      // On a terminal, text a file or server brought (an escape in a title) is shown, not obeyed;
      // JSON escapes it already, and output to a file or a pipe is byte for byte the format's.
      if session.outputIsTerminal, format == "todotxt" || format == "ical" {
        output.write(sanitizedLinesForTerminal(String(decoding: bytes, as: UTF8.self)))
      } else {
        output.write(bytes: bytes)
      }
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

  /// One `.ics` file per task in a folder (created if missing): each task's file keeps its name
  /// (the one it was imported from, else its UID); a file whose content would not change is not
  /// rewritten, so a sync program sees only real changes. Other files are left alone.
  private func exportVdir(_ records: [TaskRecord], linked: [String: String], to folder: String) throws(CommandFailure) {
    if let problem = FileSystem.createParentFolders(of: folder + "/x") {
      throw .environment("cannot write to \(folder): \(problem); nothing was written")
    }
    if FileSystem.exists(folder), !FileSystem.isDirectory(folder) {
      throw .environment("\(folder) is not a folder; nothing was written")
    }
    let writer = ICalendar.Writer(records, linkedUIDs: linked)
    // Written without a flush each, then flushed once (as a sync writes its vdir).
    let vdir = Vdir(folder: folder)
    defer { vdir.flush() }
    var used: Set<String> = []
    var written = 0
    for record in records {
      var name = writer.fileName(record)
      // Two UIDs that read the same once made safe for a file name: the second is named by UUID.
      if !used.insert(name).inserted {
        name = record.todo.uuid + ".ics"
        used.insert(name)
      }
      let bytes = writer.file(record)
      if case .success(let old) = vdir.read(name), old == bytes { continue }
      if let problem = vdir.write(bytes, to: name) {
        throw .environment(
          "cannot write \(folder)/\(name): \(problem); \(written) of \(records.count) files were written before it")
      }
      written += 1
    }
    switch self.format {
    case .human:
      let noun = records.count == 1 ? "task" : "tasks"
      session.standardError.write(
        "Exported \(records.count) \(noun) to \(folder) (ical, one file each): \(written) written, \(records.count - written) unchanged.\n")
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("format", "ical")
          json.field("vdir", folder)
          json.field("exported", records.count)
          json.field("written", written)
          json.field("unchanged", records.count - written)
        }
      }
    }
  }

  /// Every `.ics` file of a folder, each task knowing its file (so an export writes it back there).
  private func vdirRecords(_ folder: String, strict: Bool, skipped: inout [String]) throws(CommandFailure) -> [TaskRecord] {
    let names: [String]
    switch FileSystem.files(in: folder, endingIn: ".ics") {
    case .success(let found): names = found
    case .failure(let problem): throw .environment("cannot read the folder \(folder): \(problem.reason)")
    }
    var records: [TaskRecord] = []
    for name in names {
      let bytes: [UInt8]
      switch FileSystem.readAll(folder + "/" + name) {
      case .success(let read): bytes = read
      case .failure(let problem):
        guard !strict else { throw .environment("cannot read \(folder)/\(name): \(problem.reason); nothing was imported") }
        skipped.append("\(name): cannot read it: \(problem.reason)")
        continue
      }
      // One item a vdir holds that cannot be read costs that item (its file), not the folder.
      var found: [TaskRecord]
      do throws(InterchangeError) {
        found = try ICalendar.records(bytes, now: now)
      } catch {
        guard !strict else { throw .environment("cannot import \(folder)/\(name) as ical: \(error); nothing was imported") }
        skipped.append("\(name) \(error)")
        continue
      }
      // A vdir holds one item per file, and each task is written back to its own file.
      guard found.count <= 1 else {
        guard !strict else {
          throw .environment(
            "\(folder)/\(name) holds \(found.count) to-dos, and a vdir has one per file; nothing was imported "
              + "(import it on its own with: todo import \(folder)/\(name))")
        }
        skipped.append(
          "\(name): it holds \(found.count) to-dos, and a vdir has one per file (import it on its own with: todo import \(folder)/\(name))")
        continue
      }
      for index in found.indices {
        found[index].source = name
        found[index].extras.append(TaskExtra(format: "ical", name: "file", value: name))
        found[index].extras.sort { ($0.format, $0.name) < ($1.format, $1.name) }
      }
      records += found
    }
    return records
  }

  func importTasks(_ request: ImportRequest) throws(CommandFailure) {
    if let folder = request.vdir {
      var skipped: [String] = []
      let records = try vdirRecords(folder, strict: request.strict, skipped: &skipped)
      try importRecords(records, from: folder, format: .ical, strict: request.strict, unread: skipped)
      return
    }
    let name = request.path ?? "-"
    if name == "-", session.inputIsTerminal {
      throw .usage(.invalid("import reads a file, or tasks piped in: todo import FILE, or … | todo import -"))
    }
    let source = name == "-" ? "standard input" : name
    // The input is read piece by piece: our JSON Lines become tasks as they come, so that a
    // large file is not held twice (as bytes and as tasks); the other formats are read whole.
    var readProblem: FileSystem.ReadProblem?
    let input: FileSystem.InputFile
    do throws(FileSystem.ReadProblem) {
      input = try FileSystem.InputFile(name == "-" ? nil : name)
    } catch {
      throw .environment("cannot read \(source): \(error.reason)")
    }
    // Whatever the format, no more than `import.limit` is read: an endless input (/dev/zero, a
    // pipe that never closes) is refused once past it instead of filling the memory.
    let limit = configuration.importLimit
    var total = 0
    func next(_ atLeast: Int) -> [UInt8]? {
      guard readProblem == nil else { return nil }
      do throws(FileSystem.ReadProblem) {
        guard let piece = try input.read(atLeast: min(atLeast, limit + 1 - total)) else { return nil }
        total += piece.count
        if total > limit {
          readProblem = .init(reason: "it is larger than \(limit >> 20) MiB (import.limit; -c import.limit=N reads more)")
          return nil
        }
        return piece
      } catch {
        readProblem = error
        return nil
      }
    }
    // Enough of the start to tell the format by (see `InterchangeFormat.byContent`).
    var head: [UInt8]? = next(8_192) ?? []
    if let readProblem { throw .environment("cannot read \(source): \(readProblem.reason)") }
    let start = head ?? []
    let format =
      request.format.flatMap(InterchangeFormat.init(rawValue:))
      ?? (name == "-" ? InterchangeFormat.byContent(start) : InterchangeFormat.of(name: name, start: start))
    var records: [TaskRecord]
    // Records that cannot be read are left out, each with a warning, unless --strict.
    let skipping: SkippedRecords? = SkippedRecords(strict: request.strict)
    do throws(InterchangeError) {
      switch format {
      case .json, .jsonl:
        records = try NativeJSON.records(
          skipping: skipping,
          reading: { atLeast in
            if let first = head {
              head = nil
              if !first.isEmpty { return first }
            }
            return next(atLeast)
          })
      case .taskwarrior, .todotxt, .ical:
        var bytes = start
        head = nil
        // todo.txt has a line per task: one longer than a task's line can be (no newline in the
        // first megabyte of /dev/zero) is refused as soon as it is, by the reader, below.
        var lineStart = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        var lineTooLong = false
        while let piece = next(1 << 20) {
          let offset = bytes.count
          bytes += piece
          if let newline = piece.lastIndex(of: UInt8(ascii: "\n")) { lineStart = offset + newline + 1 }
          // (One byte more than a line may hold: a CR before its newline is not the line's.)
          if format == .todotxt, bytes.count - lineStart > TodoTxt.maximumLineBytes + 1 {
            lineTooLong = true
            break
          }
        }
        // An input past import.limit is not read as tasks at all (millions of lines would be).
        // (The catch below reports the read's problem.)
        if let readProblem { throw InterchangeError(line: 0, readProblem.reason) }
        switch format {
        case .taskwarrior: records = try Taskwarrior.records(bytes, now: now, skipping: skipping)
        case .todotxt:
          if lineTooLong {
            let line = bytes[..<lineStart].count { $0 == UInt8(ascii: "\n") } + 1
            throw InterchangeError(line: line, "the line is longer than 1,000,000 bytes; a task's line is far shorter")
          }
          records = try TodoTxt.records(bytes, skipping: skipping)
        default: records = try ICalendar.records(bytes, now: now, skipping: skipping)
        }
      }
    } catch {
      if let readProblem { throw .environment("cannot read \(source): \(readProblem.reason)") }
      throw .environment("cannot import \(source) as \(format.rawValue): \(error); nothing was imported")
    }
    // A read that failed part of the way ends the input early: nothing is imported from it.
    if let readProblem { throw .environment("cannot read \(source): \(readProblem.reason); nothing was imported") }
    if format == .todotxt, !records.isEmpty { try matchChangedLines(&records) }
    if let skipping { warnAboutLeftOut(skipping, source: source) }
    // Nothing read, or nearly nothing of a file of some size (nine in ten of ten or more records: a
    // binary file, a file of another format): the input is not what it was taken for, and
    // nothing of it is imported. (A few bad lines in a small file cost those lines only.)
    if let problems = skipping?.problems, let first = problems.first,
      records.isEmpty || (problems.count >= 10 && problems.count * 10 >= (problems.count + records.count) * 9)
    {
      let some = records.isEmpty ? "" : " (\(problems.count) of \(problems.count + records.count) records do not read)"
      throw .environment("cannot import \(source) as \(format.rawValue): \(first)\(some); nothing was imported")
    }
    try importRecords(
      records, from: name, format: format, strict: request.strict, unread: skipping?.problems.map(\.description) ?? [])
  }

  /// The warnings of a read that left things out: components other than to-dos, and its notices.
  private func warnAboutLeftOut(_ skipping: SkippedRecords, source: String) {
    if !skipping.otherComponents.isEmpty {
      let others = skipping.otherComponents
      let count = others.values.reduce(0, +)
      let kinds = others.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joinedText(", ")
      session.warn(
        "\(source) holds \(count) \(count == 1 ? "component" : "components") besides to-dos (\(kinds)), which todo does not keep",
        json: format != .human)
    }
    for notice in skipping.notices {
      session.warn("\(source) \(notice)", json: format != .human)
    }
  }

  /// A todo.txt line another app changed (marked done, reworded) and that has no `uuid:` is the
  /// task it was, when that is unambiguous, not a new one beside it (see `TodoTxt.matches`).
  private func matchChangedLines(_ records: inout [TaskRecord]) throws(CommandFailure) {
    let (known, stored) = try perform(TodoStore.todoTxtLines(among: records.map(\.todo.uuid)), access: .read)
    let unknown = records.indices.filter { !known.contains(records[$0].todo.uuid) }
    guard !unknown.isEmpty, !stored.isEmpty else { return }
    for (position, uuid) in TodoTxt.matches(unknown.map { records[$0] }, stored: stored) {
      records[unknown[position]].todo.uuid = uuid
    }
  }

  /// Imports what was read from `name` (a file, `-`, or a vdir's folder), asking first on a terminal
  /// when more than a few tasks change.
  /// `unread`: the records the reader left out (their place and why), reported with those the
  /// store refuses.
  func importRecords(
    _ records: [TaskRecord], from name: String, format: InterchangeFormat, strict: Bool, unread: [String]
  ) throws(CommandFailure) {
    let operation = TodoStore.importRecords(records, now: now, command: invocation.commandLine, strict: strict).flatMap {
      report -> DataOperation<ImportReport, TodoError> in
      var report = report
      report.rejected = unread + report.rejected
      // Every record left out: the input gives nothing, which is an error, not a warning.
      let kept = report.added.count + report.updated.count + report.unchanged.count + report.skipped.count
      if kept == 0, let first = report.rejected.first { return .fail(.invalid(first)) }
      return .pure(report)
    }
    let imported: ImportReport
    do throws(CommandFailure) {
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
      if let hooks, configuration.hooksRunForImport {
        // As Taskwarrior's import: on-add for each new task, on-modify for each one it updates.
        confirmed = try hooked(confirmed, adds: true, hooks: hooks) { report in
          TodoStore.tasks(ids: report.added).flatMap { added in
            TodoStore.tasks(ids: report.updated).map { updated in
              ChangeReport(tasks: added, unchanged: [], summary: "", others: updated)
            }
          }
        }
      }
      imported = try perform(confirmed, access: .write)
    } catch {
      // A task that cannot be stored is the file's fault: exit 1, like a line that does not parse.
      if case .domain(let domain) = error, domain.isUsageError {
        let reason = domain.description
        throw .environment("cannot import \(name == "-" ? "standard input" : name): \(reason); nothing was imported")
      }
      throw error
    }
    renderImport(imported, from: name, format: format, dryRun: false)
  }

  private func renderImport(_ report: ImportReport, from name: String, format: InterchangeFormat, dryRun: Bool) {
    let source = name == "-" ? "standard input" : name
    // Each record left out, with its place: one bad record costs that record, said out loud.
    for rejected in report.rejected { session.warn("\(source) \(rejected); left out", json: self.format != .human) }
    for warning in report.warnings { session.warn(warning, json: self.format != .human) }
    switch self.format {
    case .human:
      let verb = dryRun ? "Would import" : "Imported"
      let count = report.added.count + report.updated.count + report.unchanged.count + report.skipped.count
      let leftOut = report.rejected.isEmpty ? "" : "; \(report.rejected.count) left out: see above"
      output.write(
        "\(verb) \(count) \(count == 1 ? "task" : "tasks") from \(source) (\(format.rawValue)): "
          + "\(report.added.count) added, \(report.updated.count) updated, \(report.unchanged.count) unchanged, "
          + "\(report.skipped.count) skipped\(report.skipped.isEmpty ? "" : " (the database's copy is not older)")"
          + "\(leftOut)\(dryRun ? "; nothing was changed" : "").\n")
      if !report.nextInstances.isEmpty {
        let count = report.nextInstances.count
        output.write(
          "\(count == 1 ? "A series" : "\(count) series") without a pending instance went on to the next one: "
            + "\(report.nextInstances.map { "task \($0)" }.joinedText(", "))\(dryRun ? " (not made: a dry run)" : "").\n")
      }
      if !report.linked.isEmpty {
        let ids = Array(Set(report.linked)).sorted()
        output.write(
          "Linked to what this import brought (a parent or dependency they named before it was here): "
            + "\(ids.map { "task \($0)" }.joinedText(", ")).\n")
      }
    case .json, .jsonLines:
      writeJSON { json in
        json.object { json in
          json.field("format", format.rawValue)
          for (key, ids) in [
            ("added", report.added), ("updated", report.updated), ("unchanged", report.unchanged), ("skipped", report.skipped),
            ("next_instances", report.nextInstances), ("linked", Array(Set(report.linked)).sorted()),
          ] {
            json.key(key)
            json.array { json in for id in ids { json.value(Int(id)) } }
          }
          json.field("warnings", report.warnings)
          json.field("rejected", report.rejected)
          json.field("summary", report.summary)
          if dryRun { json.field("dry_run", true) }
        }
      }
    }
  }
}

// MARK: - Decoding

extension ArgumentDecoder {
  /// `export [FILTER] [--format F] [--output FILE] [--vdir DIR]`: every status unless the filter
  /// names one.
  mutating func exportRequest(_ tokens: [Token]) throws(UsageError) -> ExportRequest {
    var request = ExportRequest()
    var words: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--format", let value): request.format = try format(value)
      case .option("--output", let value):
        guard !value.isEmpty else { throw .badValue(option: "--output", value: value, reason: "give a file name") }
        request.output = value
      case .option("--vdir", let value):
        guard !value.isEmpty else { throw .badValue(option: "--vdir", value: value, reason: "give a folder") }
        request.vdir = value
      case .flag("--no-ids"): request.noIDs = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let afterDoubleDash): words.append(FilterWord(word, plain: afterDoubleDash, at: reader.position))
      }
    }
    if request.vdir != nil {
      guard request.format == nil || request.format == "ical" else {
        throw .invalid("--vdir writes iCalendar files; drop --format or give --format ical")
      }
      guard request.output == nil else { throw .invalid("give either --output or --vdir, not both") }
      request.format = "ical"
    }
    if request.noIDs, request.format.map({ $0 != "todotxt" }) ?? !(request.output ?? "").lowercased().hasSuffix(".txt") {
      throw .invalid("--no-ids is for --format todotxt (the other formats name every task by its UUID)")
    }
    request.filter = try filter(words)
    request.filter.defaultStatus = .all
    return request
  }

  /// `import [FILE|-] [--format F] [--vdir DIR]`.
  mutating func importRequest(_ tokens: [Token]) throws(UsageError) -> ImportRequest {
    var request = ImportRequest()
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .option("--format", let value): request.format = try format(value)
      case .option("--vdir", let value):
        guard !value.isEmpty else { throw .badValue(option: "--vdir", value: value, reason: "give a folder") }
        request.vdir = value
      case .flag("--strict"): request.strict = true
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, _):
        guard request.path == nil else { throw .invalid("import reads one file; '\(word)' is a second one") }
        request.path = word
      }
    }
    if request.vdir != nil {
      guard request.path == nil else { throw .invalid("give either a file or --vdir, not both") }
      guard request.format == nil || request.format == "ical" else {
        throw .invalid("--vdir reads iCalendar files; drop --format or give --format ical")
      }
      request.format = "ical"
    }
    return request
  }
}
