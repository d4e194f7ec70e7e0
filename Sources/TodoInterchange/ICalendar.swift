import TodoCore

/// iCalendar to-dos (RFC 5545 `VTODO`), read and written: one calendar with every task (`.ics`),
/// or one file per task (a vdir, the layout vdirsyncer and todoman use).
///
/// | iCalendar | todo |
/// |---|---|
/// | `UID` | uuid (a UID that is not a UUID: the task's UUID is derived from it, the UID kept and written back) |
/// | `SUMMARY` | title |
/// | `DESCRIPTION` | the notes, joined by blank lines (`X-TODO-NOTE` keeps each note with its time) |
/// | `STATUS` | NEEDS-ACTION/IN-PROCESS → pending (IN-PROCESS is written for an active task), COMPLETED → done, CANCELLED → deleted |
/// | `COMPLETED`, `PERCENT-COMPLETE:100` | completion time of a done task |
/// | `PRIORITY` | 1–4 → H, 5 → M, 6–9 → L, 0 → none; written 1/5/9 (another number read is written back while the priority is unchanged) |
/// | `DUE`, `DTSTART` | due, scheduled: all-day as `VALUE=DATE`, timed in UTC; `TZID=` (IANA, Windows, or the calendar's own `VTIMEZONE`) and floating times are read |
/// | `CREATED`, `LAST-MODIFIED` (`DTSTAMP`) | created, modified |
/// | `CATEGORIES` | tags (one line; a category that cannot be a tag, e.g. with a space, is kept and written back) |
/// | `RELATED-TO;RELTYPE=PARENT` / `DEPENDS-ON` | parent / dependencies |
/// | `RRULE` | the series' rule, when it is one `todo` repeats (`FREQ` with `INTERVAL`, weekdays); any other is kept |
/// | `X-TODO-PROJECT`, `-WAIT`, `-UNTIL`, `-REASON`, `-SERIES`, `-INTERVAL`, `-NOTE`, `-EXTRA` | the fields iCalendar has no property for |
///
/// Every other property and sub-component (`VALARM`, `X-*`, `LOCATION`, …) is kept with the task
/// as its unfolded line and written back unchanged.
public enum ICalendar {
  /// The to-dos of a file (one or more `VCALENDAR`s, each with any number of `VTODO`s; events and
  /// time zones are skipped). `now` stands in for a task without any time of its own.
  public static func records(_ bytes: [UInt8], now: Int64, skipping: SkippedRecords? = nil) throws(InterchangeError) -> [TaskRecord] {
    var top = try ICalendarText.components(bytes, skipping: skipping)
    // Components outside a VCALENDAR (Evolution's stored items, RFC examples pasted one after
    // another) read as if in one, as libical and python icalendar read them.
    let bare = top.filter { $0.name != "VCALENDAR" }
    if let first = bare.first {
      top.removeAll { $0.name != "VCALENDAR" }
      top.append(Component(name: "VCALENDAR", components: bare, line: first.line))
    }
    var records: [TaskRecord] = []
    var indexOf: [String: Int] = [:]
    func sequence(of record: TaskRecord) -> Int {
      record.extras.first { $0.format == "ical" && $0.name == "sequence" }.map { TodoStore.sequenceNumber($0.value) } ?? 0
    }
    for calendar in top {
      // A to-do's changed occurrences (RECURRENCE-ID, the same UID) stay with it as they are.
      var todos = calendar.components.filter { $0.name == "VTODO" }
      for other in calendar.components where other.name != "VTODO" && other.name != "VTIMEZONE" {
        skipping?.otherComponents[other.name, default: 0] += 1
      }
      func uid(_ component: Component) -> String? { component.properties.first { $0.name == "UID" }?.value }
      func isOverride(_ component: Component) -> Bool { component.properties.contains { $0.name == "RECURRENCE-ID" } }
      for index in todos.indices where isOverride(todos[index]) {
        if let master = todos.firstIndex(where: { !isOverride($0) && uid($0) != nil && uid($0) == uid(todos[index]) }) {
          todos[master].components.append(todos[index])
          todos[index].name = ""
        }
      }
      // The zones the calendar defines, for TZIDs no zone database knows, and as written (a
      // task keeps those its times name, to write them back).
      var zones: [String: DefinedZone] = [:]
      var zoneLines: [String: [String]] = [:]
      for component in calendar.components where component.name == "VTIMEZONE" {
        guard let id = component.properties.first(where: { $0.name == "TZID" })?.value else { continue }
        zoneLines[id] = component.lines
        if let zone = DefinedZone(component) { zones[id] = zone }
      }
      for component in todos where !component.name.isEmpty {
        do throws(InterchangeError) {
          let record = try record(component, now: now, zones: zones, zoneLines: zoneLines, skipping: skipping)
          // The same UID again (iTIP's REQUEST and its updates one after another, or a producer's
          // slip): one task, as a calendar client takes it: the copy with the higher SEQUENCE,
          // else the later one.
          if let earlier = indexOf[record.todo.uuid] {
            let replaces = sequence(of: record) >= sequence(of: records[earlier])
            let uid = record.extras.first { $0.format == "ical" && $0.name == "uid" }?.value ?? record.todo.uuid
            SkippedRecords.notice(
              InterchangeError(
                line: record.line,
                "UID \(ICalendarText.shown(uid)) again (also at line \(records[earlier].line)): "
                  + (replaces ? "this copy replaces that one" : "that copy, of a higher SEQUENCE, is kept")), in: skipping)
            if replaces { records[earlier] = record }
          } else {
            indexOf[record.todo.uuid] = records.count
            records.append(record)
          }
        } catch {
          try SkippedRecords.skip(error, in: skipping)
        }
      }
    }
    return records
  }

  /// A to-do's categories as tags, and the extras that keep what tags cannot say: categories
  /// that cannot be tags (a space in them), kept as they are and written back; and several
  /// CATEGORIES lines (one per category, as some producers write them) or an empty one, written
  /// back as they came while the tags are what they gave (the first line of the value), instead
  /// of merged into one line or dropped.
  private static func categorized(_ categories: [String], lines: [String], extras: [TaskExtra]) -> (tags: [String], extras: [TaskExtra]) {
    var extras = extras
    var tags: Set<String> = []
    var otherCategories: [String] = []
    for category in categories {
      if (try? Validation.tag(category)) != nil { tags.insert(category) } else { otherCategories.append(category) }
    }
    let sorted = tags.sorted()
    if !otherCategories.isEmpty {
      extras.append(TaskExtra(format: "ical", name: "categories", value: otherCategories.map(ICalendarText.escape).joinedText(",")))
    }
    if lines.count > 1 || (lines.count == 1 && categories.isEmpty) {
      extras.append(TaskExtra(format: "ical", name: "categories-lines", value: ([sorted.joinedText(",")] + lines).joinedText("\n")))
    }
    return (sorted, extras)
  }

  /// The title of a to-do without a SUMMARY or DESCRIPTION.
  static let untitled = "(untitled)"

  /// The title a to-do without a SUMMARY is given: its description's first line (up to 80
  /// characters), or `untitled`.
  static func derivedTitle(_ description: String?) -> String {
    let firstLine = description.flatMap { $0.split(separator: "\n").first.map { String($0.prefix(80)).trimmingSpaces } } ?? ""
    return firstLine.isEmpty ? untitled : firstLine
  }

  /// The UUID of the task an iCalendar UID names: the UID itself when it is a UUID (lower-cased),
  /// else a UUID derived from it (the same UID always gives the same task).
  public static func uuid(forUID uid: String) -> String {
    let bytes = Array(uid.utf8)
    let isUUID =
      bytes.count == 36
      && bytes.enumerated().allSatisfy { index, byte in
        [8, 13, 18, 23].contains(index)
          ? byte == UInt8(ascii: "-")
          : (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
      }
    return isUUID ? uid.lowercased() : RecordUUID.named("ical:" + uid)
  }

  /// A `RELATED-TO` line an item was read with (kept in the extra `related`).
  public struct RelatedLink: Sendable, Equatable {
    public var text: String
    public var isParent: Bool
    public var uid: String
    /// The UUID of the task it names.
    public var target: String

    /// True when the task has no such link: the linked item was never here (or the link was
    /// removed here, see `todo update`).
    public func unlinked(_ todo: Todo) -> Bool {
      isParent ? todo.parentUUID == nil : !todo.depends.contains { $0.uuid == target }
    }
  }

  /// The `RELATED-TO` lines a task's item was read with.
  public static func relatedLinks(_ record: TaskRecord) -> [RelatedLink] {
    guard let value = record.extras.first(where: { $0.format == "ical" && $0.name == "related" })?.value else { return [] }
    return value.split(separator: "\n").compactMap { piece -> RelatedLink? in
      guard let line = try? ICalendarText.parse(String(piece), line: 0) else { return nil }
      let uid = line.value.trimmingSpaces
      return RelatedLink(
        text: line.text, isParent: (line.parameter("RELTYPE") ?? "PARENT").uppercased() == "PARENT", uid: uid,
        target: uuid(forUID: uid))
    }
  }

  /// The property names read into fields (everything else is kept as it is).
  static let modelled: Set<String> = [
    "UID", "SUMMARY", "DESCRIPTION", "STATUS", "COMPLETED", "PRIORITY", "DUE", "DTSTART", "CREATED", "LAST-MODIFIED",
    "DTSTAMP", "SEQUENCE", "CATEGORIES", "X-TODO-PROJECT", "X-TODO-WAIT", "X-TODO-UNTIL", "X-TODO-REASON",
    "X-TODO-SERIES", "X-TODO-INTERVAL", "X-TODO-NOTE", "X-TODO-EXTRA",
  ]

  /// What a VTODO's properties say, read one property at a time (`read`), before the fields
  /// that depend on several of them are worked out (`record`).
  private struct Properties {
    var todo = Todo()
    var extras: [TaskExtra] = []
    var kept: [String] = []
    // The links as written: the UIDs they name, and a link to an item todo never sees (a parent
    // in another list) written back as it was.
    var related: [String] = []
    var uid: String?
    var description: String?
    var statusText: String?
    var completedAt: Int64?, created: Int64?, lastModified: Int64?, stamp: Int64?
    var sequence: Int?
    var categories: [String] = []
    var categoryLines: [String] = []
    var rrule: RecurrenceRule?
    // todo's own properties (X-TODO-SERIES, -INTERVAL, -NOTE, -EXTRA).
    var own = OwnProperties()
    var percent: ContentLine?
    var duration: (text: String, seconds: Int64, days: Int64?)?
    var completedLine = "", rruleLine = ""

    /// Reads one property into its field, or keeps its line as it is.
    mutating func read(_ property: ContentLine, zones: [String: DefinedZone], skipping: SkippedRecords?) throws(InterchangeError) {
      func fail(_ reason: String) -> InterchangeError { InterchangeError(line: property.line, reason) }
      // A time that does not read (`DTSTART:20131009T170000T`) costs that property, not the
      // to-do, unless the import is all or nothing: its line is kept and written back as it came.
      // Taken out and put back (no copy): `readable` below adds to it.
      var kept: [String] = []
      swap(&kept, &self.kept)
      defer { swap(&kept, &self.kept) }
      func readable<Value>(_ read: () throws(InterchangeError) -> Value) throws(InterchangeError) -> Value? {
        do throws(InterchangeError) {
          return try read()
        } catch {
          guard let skipping, !skipping.strict else { throw error }
          kept.append(property.text)
          SkippedRecords.notice(InterchangeError(line: error.line, error.reason + "; the line is kept as it is"), in: skipping)
          return nil
        }
      }
      let text = ICalendarText.unescape(property.value)
      switch property.name {
      case "UID": uid = property.value.isEmpty ? nil : property.value
      case "SUMMARY": todo.title = text
      case "DESCRIPTION": description = text
      case "STATUS": statusText = property.value.uppercased()
      case "COMPLETED":
        completedAt = try readable { () throws(InterchangeError) in try instant(property, zones: zones) }
        if completedAt != nil { completedLine = property.text }
      case "CREATED": created = try readable { () throws(InterchangeError) in try instant(property, zones: zones) }
      case "LAST-MODIFIED": lastModified = try readable { () throws(InterchangeError) in try instant(property, zones: zones) }
      case "DTSTAMP": stamp = try readable { () throws(InterchangeError) in try instant(property, zones: zones) }
      case "SEQUENCE":
        guard let number = Int(property.value.trimmingSpaces), number >= 0 else {
          throw fail("SEQUENCE is not a whole number: '\(ICalendarText.shown(property.value))'")
        }
        sequence = number
      // Horde writes an empty PRIORITY: no priority, and it goes back as it came.
      case "PRIORITY" where property.value.trimmingSpaces.isEmpty:
        extras.append(TaskExtra(format: "ical", name: "priority", value: ""))
      case "PRIORITY":
        guard let number = Int(property.value.trimmingSpaces), (0...9).contains(number) else {
          throw fail("PRIORITY is a number from 0 to 9, not '\(ICalendarText.shown(property.value))'")
        }
        todo.priority = priority(number)
        if ![1, 5, 9].contains(number) { extras.append(TaskExtra(format: "ical", name: "priority", value: String(number))) }
      case "DUE": todo.due = try readable { () throws(InterchangeError) in try date(property, zones: zones) }
      case "DTSTART": todo.scheduled = try readable { () throws(InterchangeError) in try date(property, zones: zones) }
      case "DURATION":
        // DTSTART and DURATION instead of DUE (RFC 5545 allows either): the due date is the
        // start plus the duration, and goes back as the same DURATION while it still is.
        if let parsed = ICalendar.duration(property.value) {
          duration = (property.value, parsed.seconds, parsed.days)
        } else {
          kept.append(property.text)
        }
      case "X-TODO-WAIT": todo.wait = try date(property, zones: zones)
      case "X-TODO-UNTIL": todo.until = try date(property, zones: zones)
      case "X-TODO-REASON": todo.reason = text
      case "X-TODO-PROJECT": todo.project = text.isEmpty ? nil : text
      case "CATEGORIES":
        categories += ICalendarText.list(property.value).filter { !$0.isEmpty }
        categoryLines.append(property.text)
      case "RELATED-TO":
        switch (property.parameter("RELTYPE") ?? "PARENT").uppercased() {
        case "PARENT":
          todo.parentUUID = uuid(forUID: property.value)
          related.append(property.text)
        case "DEPENDS-ON":
          todo.depends.append(TaskLink(id: 0, uuid: uuid(forUID: property.value), isOpen: true))
          related.append(property.text)
        default: kept.append(property.text)
        }
      case "RRULE":
        if let rule = rule(property.value) {
          rrule = rule
          rruleLine = property.text
        } else {
          kept.append(property.text)
        }
      case "PERCENT-COMPLETE": percent = property
      case "X-TODO-SERIES", "X-TODO-INTERVAL", "X-TODO-NOTE", "X-TODO-EXTRA":
        try own.read(property, text: text)
      default: kept.append(property.text)
      }
    }
  }

  static func record(
    _ component: Component, now: Int64, zones: [String: DefinedZone] = [:], zoneLines: [String: [String]] = [:],
    skipping: SkippedRecords? = nil
  ) throws(InterchangeError) -> TaskRecord {
    var read = Properties()
    for property in component.properties { try read.read(property, zones: zones, skipping: skipping) }
    var (todo, extras, kept, own) = (read.todo, read.extras, read.kept, read.own)
    let (related, uid, description, statusText) = (read.related, read.uid, read.description, read.statusText)
    let (completedAt, created, lastModified, stamp, sequence) = (read.completedAt, read.created, read.lastModified, read.stamp, read.sequence)
    let (categories, categoryLines, rrule, percent, duration) = (read.categories, read.categoryLines, read.rrule, read.percent, read.duration)
    let (completedLine, rruleLine) = (read.completedLine, read.rruleLine)
    var notes: [Note] = []
    todo.intervals = own.intervals
    notes = own.notes
    extras += own.extras
    extras += timesAsWritten(component, zoneLines: zoneLines)
    // Identity: the UID, or, for a to-do without one, a UUID derived from its content.
    let identity = uid ?? component.lines.joinedText("\n")
    todo.uuid = uid.map(uuid(forUID:)) ?? RecordUUID.named("ical-content:" + identity)
    if let uid, uid != todo.uuid { extras.append(TaskExtra(format: "ical", name: "uid", value: uid)) }
    // Times: a to-do without CREATED (todoman's recurrence copies) counts from its stamp.
    todo.created = created ?? stamp ?? lastModified ?? now
    todo.modified = max(lastModified ?? stamp ?? todo.created, todo.created)
    switch statusText {
    case nil, "NEEDS-ACTION", "IN-PROCESS":
      todo.status = completedAt != nil && statusText == nil ? .done : .pending
      if statusText == "IN-PROCESS" && !todo.isActive { extras.append(TaskExtra(format: "ical", name: "status", value: "IN-PROCESS")) }
    case "COMPLETED": todo.status = .done
    case "CANCELLED": todo.status = .deleted
    case let other?:
      let line = component.properties.first { $0.name == "STATUS" }?.line ?? component.line
      throw InterchangeError(line: line, "STATUS '\(ICalendarText.shown(other))' is not a to-do's (NEEDS-ACTION, IN-PROCESS, COMPLETED or CANCELLED)")
    }
    switch todo.status {
    case .done: todo.completed = completedAt ?? lastModified ?? todo.modified
    case .deleted: todo.completed = completedAt
    case .pending:
      todo.completed = nil
      // A COMPLETED time on a to-do that is not complete is kept as it is.
      if completedAt != nil { kept.append(completedLine) }
    }
    keepPercentAndDuration(percent, duration, of: &todo, extras: &extras, kept: &kept)
    // After the due date is known (DTSTART and DURATION give it): a trigger may count from it.
    let acknowledged = readAlarms(of: component, into: &todo, kept: &kept, extras: &extras, zones: zones)
    // Notes: each with its time when the description is still what they say; text added by
    // another program after them becomes a new note; a description of its own, one note.
    todo.notes = self.notes(notes, description: description, created: todo.created, modified: todo.modified)
    // SUMMARY is optional (RFC 5545; Radicale's and ical4android's own test items have none): the
    // task gets a title from its description, or one that says it has none, and goes back out
    // without a SUMMARY while that title is unchanged.
    if todo.title.trimmingSpaces.isEmpty {
      todo.title = derivedTitle(description)
      extras.append(TaskExtra(format: "ical", name: "untitled", value: todo.title))
    }
    (todo.tags, extras) = categorized(categories, lines: categoryLines, extras: extras)
    if let sequence { extras.append(TaskExtra(format: "ical", name: "sequence", value: "\(sequence)@\(todo.modified)")) }
    // A series: its rule from RRULE (or X-TODO-RULE for one RRULE cannot say), its UUID and
    // instance from X-TODO-SERIES, else a new series of its own. One without dates stays a task.
    if let rule = rrule ?? own.rule, todo.due != nil || todo.scheduled != nil {
      todo.series = SeriesLink(
        id: 0, uuid: own.seriesUUID ?? RecordUUID.named("series:" + todo.uuid), index: own.seriesIndex, rule: rule, ended: own.seriesEnded)
      // Occurrences another client completed (Thunderbird, eM Client): the task is the next one.
      if own.seriesEnded == nil, let applied = skippingCompleted(completedOccurrences(of: component, zones: zones), rule: rule, todo: &todo) {
        extras.append(TaskExtra(format: "ical", name: "occurrences-done", value: applied))
      }
    } else if rrule != nil {
      kept.append(rruleLine)
    }
    if !kept.isEmpty { extras.append(TaskExtra(format: "ical", name: "properties", value: kept.joinedText("\n"))) }
    if !related.isEmpty { extras.append(TaskExtra(format: "ical", name: "related", value: related.joinedText("\n"))) }
    extras.sort { ($0.format, $0.name) < ($1.format, $1.name) }
    var record = TaskRecord(todo: todo, extras: extras, line: component.line)
    record.acknowledged = acknowledged
    return record
  }

  private static func notes(_ notes: [Note], description: String?, created: Int64, modified: Int64) -> [Note] {
    // `todo` writes a DESCRIPTION whenever it writes notes: without one, they were removed.
    guard let description else { return [] }
    var kept: [Note] = []
    var joined = ""
    for note in notes {
      let next = kept.isEmpty ? note.text : joined + "\n\n" + note.text
      guard description.hasPrefix(next) else { break }
      kept.append(note)
      joined = next
    }
    var rest = Substring(description.dropFirst(joined.count))
    while rest.first == "\n" { rest = rest.dropFirst() }
    if !rest.isEmpty {
      var note = Note()
      note.created = kept.last.map { max(modified, $0.created) } ?? created
      note.text = String(rest)
      kept.append(note)
    }
    return kept
  }

  /// RFC 5545's dur-value (`P7W`, `P1D`, `PT1H30M`, `P1DT12H`, signed): its seconds, and its
  /// days when it is a whole number of days or weeks (an all-day start then gives an all-day due).
  static func duration(_ text: String) -> (seconds: Int64, days: Int64?)? {
    var bytes = Array(text.trimmingSpaces.uppercased().utf8)[...]
    var sign: Int64 = 1
    if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
      if bytes.first == UInt8(ascii: "-") { sign = -1 }
      bytes = bytes.dropFirst()
    }
    guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return nil }
    bytes = bytes.dropFirst()
    var seconds: Int64 = 0, days: Int64 = 0, number: Int64?, inTime = false, timed = false
    for byte in bytes {
      if byte >= 0x30 && byte <= 0x39 {
        number = (number ?? 0) * 10 + Int64(byte - 0x30)
        guard number! < 100_000_000 else { return nil }
        continue
      }
      if byte == UInt8(ascii: "T") && number == nil && !inTime { inTime = true; continue }
      guard let value = number else { return nil }
      switch (byte, inTime) {
      case (UInt8(ascii: "W"), false): days += value * 7
      case (UInt8(ascii: "D"), false): days += value
      case (UInt8(ascii: "H"), true): seconds += value * 3600; timed = true
      case (UInt8(ascii: "M"), true): seconds += value * 60; timed = true
      case (UInt8(ascii: "S"), true): seconds += value; timed = true
      default: return nil
      }
      number = nil
    }
    guard number == nil else { return nil }
    return (sign * (seconds + days * 86_400), timed ? nil : sign * days)
  }

  /// The times a to-do gives in a form other than todo writes (in a zone, `TZID=…`; floating, a
  /// local time without `Z`; a CREATED that is a day), as written, and the VTIMEZONEs they name:
  /// written back as they came while the time they say is the task's (see `Writer`), so a phone's
  /// zone survives a sync and a changed occurrence's RECURRENCE-ID still lines up.
  static func timesAsWritten(_ component: Component, zoneLines: [String: [String]]) -> [TaskExtra] {
    var lines: [String] = []
    var zones: [String] = []
    func zone(_ id: String?) {
      if let id, let definition = zoneLines[id], !zones.contains(id) {
        zones.append(id)
        lines += definition
      }
    }
    for property in component.properties where ["DTSTART", "DUE", "COMPLETED", "CREATED"].contains(property.name) {
      let value = property.value.trimmingSpaces
      let id = property.parameter("TZID")
      guard id != nil || (value.count == 15 && value.contains("T")) || (property.name == "CREATED" && value.count == 8) else { continue }
      // A zone the file does not define (it relied on the reader's zone database) cannot be
      // written with the VTIMEZONE RFC 5545 wants: such a time goes back in UTC.
      if let id, zoneLines[id] == nil { continue }
      lines.append(property.text)
      zone(id)
    }
    // The zones of kept sub-components (changed occurrences, alarms), which are kept as lines.
    func visit(_ part: Component) {
      for property in part.properties { zone(property.parameter("TZID")) }
      part.components.forEach(visit)
    }
    component.components.forEach(visit)
    return lines.isEmpty && zones.isEmpty ? [] : [TaskExtra(format: "ical", name: "times", value: lines.joinedText("\n"))]
  }

  /// The times a task keeps as written (see `timesAsWritten`), read back for the writer.
  struct TimesAsWritten {
    var lines: [ContentLine] = []
    var zoneLines: [String: [String]] = [:]
    var zones: [String: DefinedZone] = [:]

    init(_ text: String?) {
      guard let text, let top = try? ICalendarText.components(Array(("BEGIN:X\n" + text + "\nEND:X\n").utf8)).first else { return }
      lines = top.properties
      for component in top.components where component.name == "VTIMEZONE" {
        guard let id = component.properties.first(where: { $0.name == "TZID" })?.value else { continue }
        zoneLines[id] = component.lines
        if let zone = DefinedZone(component) { zones[id] = zone }
      }
    }

    /// The line of `name` as written, if it still says `date` (an instant the same moment).
    func line(_ name: String, saying date: TaskDate) -> ContentLine? {
      guard let line = lines.first(where: { $0.name == name }), let read = try? ICalendar.date(line, zones: zones) else { return nil }
      switch (read, date) {
      case (.day(let a), .day(let b)): return a == b ? line : nil
      case (.instant(let a), .instant(let b)): return a == b ? line : nil
      // CREATED;VALUE=DATE: the day's start is the task's creation time.
      case (.day(let a), .instant(let b)) where name == "CREATED": return a.start == b ? line : nil
      default: return nil
      }
    }
  }

  /// The occurrences of a repeating to-do another client completed: its changed occurrences
  /// (a VTODO with the same UID and a RECURRENCE-ID) that are COMPLETED, by their RECURRENCE-ID.
  static func completedOccurrences(of component: Component, zones: [String: DefinedZone]) -> [TaskDate] {
    component.components.filter { $0.name == "VTODO" }.compactMap { occurrence in
      let status = occurrence.properties.first { $0.name == "STATUS" }?.value.trimmingSpaces.uppercased()
      let completed = status == "COMPLETED" || (status == nil && occurrence.properties.contains { $0.name == "COMPLETED" })
      guard completed, let id = occurrence.properties.first(where: { $0.name == "RECURRENCE-ID" }) else { return nil }
      return try? date(id, zones: zones)
    }
  }

  /// Moves a series' dates past its first occurrences while each was completed elsewhere (an
  /// occurrence is named by its start, DTSTART, else its due date): the task is the occurrence
  /// still to do, as the client that completed them shows it. Returns the extra that lets the
  /// writer give the master its own dates back (`steps|due|scheduled`), or nil when none moved.
  static func skippingCompleted(_ done: [TaskDate], rule: RecurrenceRule, todo: inout Todo) -> String? {
    guard !done.isEmpty, let anchor = todo.scheduled ?? todo.due else { return nil }
    let instants = Set(done.map(\.sortInstant))
    var steps = 0
    while steps < 100_000, instants.contains(rule.advance(anchor, steps: steps).sortInstant) { steps += 1 }
    guard steps > 0 else { return nil }
    let original = "\(steps)|\(code(todo.due))|\(code(todo.scheduled))"
    todo.due = todo.due.map { rule.advance($0, steps: steps) }
    todo.scheduled = todo.scheduled.map { rule.advance($0, steps: steps) }
    return original
  }

  /// The master's own dates (`skippingCompleted`'s extra), while the task's dates are still
  /// those it moved them to: the file then goes back as it came.
  static func masterDates(_ applied: String?, of todo: Todo) -> (due: TaskDate?, scheduled: TaskDate?)? {
    guard let applied, let rule = todo.series?.rule, todo.series?.ended == nil else { return nil }
    let parts = applied.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let steps = Int(parts[0]), let due = decode(parts[1]), let scheduled = decode(parts[2]) else { return nil }
    guard due.map({ rule.advance($0, steps: steps) }) == todo.due, scheduled.map({ rule.advance($0, steps: steps) }) == todo.scheduled
    else { return nil }
    return (due, scheduled)
  }

  /// A date as the extra writes it: `D2020-09-10`, `I1608505200`, `-` for none.
  private static func code(_ date: TaskDate?) -> String {
    switch date {
    case nil: "-"
    case .day(let day)?: "D" + day.description
    case .instant(let instant)?: "I\(instant)"
    }
  }

  private static func decode(_ text: String) -> TaskDate?? {
    if text == "-" { return .some(nil) }
    if text.hasPrefix("D"), let day = CalendarDay(text: String(text.dropFirst())) { return .some(.day(day)) }
    if text.hasPrefix("I"), let instant = Int64(text.dropFirst()) { return .some(.instant(instant)) }
    return nil
  }

  /// A done to-do's PERCENT-COMPLETE other than 100 (Synology writes 0) goes back as it came;
  /// DTSTART and DURATION instead of DUE give the due date, and go back as the same DURATION.
  private static func keepPercentAndDuration(
    _ percent: ContentLine?, _ duration: (text: String, seconds: Int64, days: Int64?)?, of todo: inout Todo,
    extras: inout [TaskExtra], kept: inout [String]
  ) {
    if let percent, todo.status == .done, percent.value.trimmingSpaces != "100" {
      extras.append(TaskExtra(format: "ical", name: "percent-done", value: percent.value))
    } else if let percent, todo.status != .done {
      kept.append(percent.text)
    }
    guard let duration else { return }
    if todo.due == nil, let start = todo.scheduled, end(of: start, (duration.seconds, duration.days)).isRepresentable {
      todo.due = end(of: start, (duration.seconds, duration.days))
      extras.append(TaskExtra(format: "ical", name: "duration", value: duration.text))
    } else {
      kept.append("DURATION:" + duration.text)
    }
  }

  /// What todo's own properties of a to-do say: its series (X-TODO-SERIES with its instance,
  /// rule and end), its times worked (X-TODO-INTERVAL), its notes (X-TODO-NOTE) and other
  /// programs' fields (X-TODO-EXTRA).
  struct OwnProperties {
    var seriesUUID: String?
    var seriesIndex = 1
    var seriesEnded: Int64?
    var rule: RecurrenceRule?
    var intervals: [WorkInterval] = []
    var notes: [Note] = []
    var extras: [TaskExtra] = []

    mutating func read(_ property: ContentLine, text: String) throws(InterchangeError) {
      func fail(_ reason: String) -> InterchangeError { InterchangeError(line: property.line, reason) }
      switch property.name {
      case "X-TODO-SERIES":
        seriesUUID = property.value.lowercased()
        if let instance = property.parameter("X-TODO-INSTANCE") {
          guard let number = Int(instance), number >= 1 else {
            throw fail("X-TODO-INSTANCE is not a number from 1: '\(ICalendarText.shown(instance))'")
          }
          seriesIndex = number
        }
        if let ruleText = property.parameter("X-TODO-RULE") {
          guard let rule = RecurrenceRule(parsing: ruleText) else {
            throw fail("X-TODO-RULE '\(ICalendarText.shown(ruleText))' is not a rule todo knows")
          }
          self.rule = rule
        }
        if let ended = property.parameter("X-TODO-ENDED") {
          guard let seconds = Taskwarrior.parseTime(ended) else { throw fail("X-TODO-ENDED is not a UTC time: '\(ICalendarText.shown(ended))'") }
          seriesEnded = seconds
        }
      case "X-TODO-INTERVAL":
        let parts = property.value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Taskwarrior.parseTime(String(parts[0])) else {
          throw fail("X-TODO-INTERVAL is START/END in UTC (20261127T090000Z/20261127T100000Z): '\(ICalendarText.shown(property.value))'")
        }
        let end: Int64? = parts[1].isEmpty ? nil : Taskwarrior.parseTime(String(parts[1]))
        if !parts[1].isEmpty && end == nil { throw fail("X-TODO-INTERVAL's end is not a UTC time: '\(ICalendarText.shown(property.value))'") }
        intervals.append(WorkInterval(id: 0, started: start, stopped: end))
      case "X-TODO-NOTE":
        var note = Note()
        guard let time = property.parameter("X-TODO-CREATED").flatMap(Taskwarrior.parseTime) else {
          throw fail("X-TODO-NOTE needs its X-TODO-CREATED time")
        }
        note.created = time
        note.text = text
        notes.append(note)
      case "X-TODO-EXTRA":
        guard let format = property.parameter("X-TODO-FORMAT"), let name = property.parameter("X-TODO-NAME") else {
          throw fail("X-TODO-EXTRA needs X-TODO-FORMAT and X-TODO-NAME")
        }
        // What iCalendar itself says is read from its own properties, never from an X-TODO-EXTRA.
        guard format != "ical" else { throw fail("X-TODO-EXTRA cannot carry format 'ical'") }
        extras.append(TaskExtra(format: format, name: name, value: text))
      default: break
      }
    }
  }

  /// The end of a duration from `start`: an all-day start and whole days give a day.
  static func end(of start: TaskDate, _ duration: (seconds: Int64, days: Int64?)) -> TaskDate {
    if case .day(let day) = start, let days = duration.days { return .day(day.adding(days: days)) }
    return .instant(start.sortInstant + duration.seconds)
  }

  static func priority(_ number: Int) -> Priority? {
    switch number {
    case 1...4: .high
    case 5: .medium
    case 6...9: .low
    default: nil
    }
  }

  /// A DATE (`20261127`) as a day; a DATE-TIME as an instant: UTC (`…Z`), in its `TZID`, or floating
  /// (the local time here).
  static func date(_ property: ContentLine, zones: [String: DefinedZone] = [:]) throws(InterchangeError) -> TaskDate {
    let value = property.value.trimmingSpaces
    let bytes = Array(value.utf8)
    func fail() -> InterchangeError {
      InterchangeError(
        line: property.line, "\(property.name) is not a date or time (20261127, 20261127T170000Z): '\(ICalendarText.shown(value))'")
    }
    func number(_ range: Range<Int>) -> Int? { ICalendarText.digits(bytes, range) }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { throw fail() }
    if bytes.count == 8 {
      guard let calendarDay = CalendarDay(text: four(year) + "-" + two(month) + "-" + two(day)) else { throw fail() }
      return .day(calendarDay)
    }
    guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11), let minute = number(11..<13),
      let second = number(13..<15)
    else { throw fail() }
    let utc = bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")
    guard utc || bytes.count == 15, (1970...9999).contains(year) else { throw fail() }
    func inRange(_ seconds: Int64) throws(InterchangeError) -> TaskDate {
      guard Timestamp.representable.contains(seconds) else { throw fail() }
      return .instant(seconds)
    }
    if utc {
      guard let seconds = Taskwarrior.parseTime(value) else { throw fail() }
      return .instant(seconds)
    }
    guard let zone = property.parameter("TZID") else {
      guard
        let seconds = Timestamp.wallClock(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second)
      else { throw fail() }
      return try inRange(seconds)
    }
    // `/mozilla.org/20070129_1/Europe/Berlin`: the zone is the longest end of the path that is one;
    // Outlook's `W. Europe Standard Time` is the IANA zone Windows means by it.
    let parts = zone.split(separator: "/").map(String.init)
    let candidates = parts.indices.map { Array(parts[$0...]).joinedText("/") } + [WindowsZones.iana(zone)].compactMap { $0 }
    for candidate in candidates {
      if let seconds = Timestamp.wallClock(
        year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second, zone: candidate)
      {
        return try inRange(seconds)
      }
    }
    // A zone of the calendar's own (a display name, an id of Outlook's): its VTIMEZONE's rules.
    if let defined = zones[zone] {
      guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: Int64(year)), hour < 24,
        minute < 60, second < 61
      else { throw fail() }
      return try inRange(defined.instant(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second))
    }
    throw InterchangeError(
      line: property.line,
      "\(property.name): time zone '\(ICalendarText.shown(zone))' is not known here, and the calendar has no VTIMEZONE for it")
  }

  static func instant(_ property: ContentLine, zones: [String: DefinedZone]) throws(InterchangeError) -> Int64 {
    try date(property, zones: zones).sortInstant
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func four(_ value: Int) -> String {
    let digits = "\(value)"
    return String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
  }

  /// An RRULE `todo` can repeat: `FREQ=DAILY|WEEKLY|MONTHLY|YEARLY` with an `INTERVAL` (and
  /// `WKST`), or weekdays (`FREQ=WEEKLY` or `DAILY` with `BYDAY=MO,TU,WE,TH,FR`).
  static func rule(_ value: String) -> RecurrenceRule? {
    var parts: [String: String] = [:]
    for part in value.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { return nil }
      parts[pair[0].uppercased()] = pair[1].uppercased()
    }
    parts["WKST"] = nil
    let interval = parts.removeValue(forKey: "INTERVAL").map { Int($0) } ?? 1
    guard let interval, (1...999).contains(interval), let frequency = parts.removeValue(forKey: "FREQ") else { return nil }
    if let days = parts.removeValue(forKey: "BYDAY") {
      guard parts.isEmpty, interval == 1, frequency == "WEEKLY" || frequency == "DAILY",
        Set(days.split(separator: ",")) == ["MO", "TU", "WE", "TH", "FR"]
      else { return nil }
      return RecurrenceRule(unit: .weekday)
    }
    guard parts.isEmpty else { return nil }
    switch frequency {
    case "DAILY": return RecurrenceRule(unit: .day, count: interval)
    case "WEEKLY": return RecurrenceRule(unit: .week, count: interval)
    case "MONTHLY": return RecurrenceRule(unit: .month, count: interval)
    case "YEARLY": return RecurrenceRule(unit: .year, count: interval)
    default: return nil
    }
  }

  static func rruleText(_ rule: RecurrenceRule) -> String {
    let frequency: String
    switch rule.unit {
    case .weekday: return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
    case .day: frequency = "DAILY"
    case .week: frequency = "WEEKLY"
    case .month: frequency = "MONTHLY"
    case .year: frequency = "YEARLY"
    }
    return "FREQ=" + frequency + (rule.count > 1 ? ";INTERVAL=\(rule.count)" : "")
  }
}

// MARK: - Writing

extension ICalendar {
  /// Writes tasks as iCalendar. Links (parent, dependencies) name the other task's UID, so the
  /// writer is made from every task being written, and the extras of linked tasks outside them.
  public struct Writer {
    private var uidOf: [String: String] = [:]
    /// Every task written: a kept RELATED-TO line to one of them is a link removed here.
    private var known: Set<String> = []

    /// `linkedUIDs`: the UIDs of tasks that the records link to but that are not written (see
    /// `TodoStore.icalUIDsOfLinkedTasks`), so that a link to one names the UID it was read with.
    public init(_ records: [TaskRecord], linkedUIDs: [String: String] = [:]) {
      uidOf = linkedUIDs
      for record in records {
        known.insert(record.todo.uuid)
        if let uid = record.extras.first(where: { $0.format == "ical" && $0.name == "uid" })?.value {
          uidOf[record.todo.uuid] = uid
        }
      }
    }

    /// Every task in one calendar (`todo export --format ical`).
    public func calendar(_ records: [TaskRecord]) -> [UInt8] {
      var writer = ContentWriter()
      Self.begin(&writer)
      var zones: [(id: String, lines: [String])] = []
      for record in records {
        for zone in todo(record, into: &writer) where !zones.contains(where: { $0.id == zone.id }) { zones.append(zone) }
      }
      // The VTIMEZONE of every zone a time written as it came names, once (RFC 5545 wants one).
      for zone in zones { for line in zone.lines { writer.line(line) } }
      writer.line("END:VCALENDAR")
      return writer.bytes
    }

    /// One task in a calendar of its own (a vdir's file).
    public func file(_ record: TaskRecord) -> [UInt8] { calendar([record]) }

    /// The name of a task's file in a vdir: the one it was read from, else its UID (characters
    /// other than letters, digits, `-`, `_`, `.` and `@` as `_`) and `.ics`.
    public func fileName(_ record: TaskRecord) -> String {
      if let file = record.extras.first(where: { $0.format == "ical" && $0.name == "file" })?.value, Self.isSafeFileName(file) {
        return file
      }
      let uid = uid(record.todo.uuid)
      let safe = uid.unicodeScalars.map { scalar -> String in
        let value = scalar.value
        let plain =
          (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
          || "-_.@".unicodeScalars.contains(scalar)
        return plain ? String(scalar) : "_"
      }
      let name = safe.joinedText("")
      // A UID too long for a file name (a folder entry holds 255 bytes) is named by the task's UUID.
      guard name.utf8.count <= 200 else { return record.todo.uuid + ".ics" }
      return (name.hasPrefix(".") ? "_" + name.dropFirst() : name) + ".ics"
    }

    /// A name a vdir file can have: one path component, not hidden, `.ics`, at most 255 bytes.
    static func isSafeFileName(_ name: String) -> Bool {
      !name.contains("/") && !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics") && name.utf8.count <= 255
        && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    private func uid(_ uuid: String) -> String { uidOf[uuid] ?? uuid }

    private static func begin(_ writer: inout ContentWriter) {
      writer.line("BEGIN:VCALENDAR")
      writer.line("VERSION:2.0")
      writer.line("PRODID:-//todo//todo//EN")
    }

    /// Writes one VTODO; returns the zones (their VTIMEZONE lines) of the times it wrote as
    /// they came.
    @discardableResult
    private func todo(_ record: TaskRecord, into writer: inout ContentWriter) -> [(id: String, lines: [String])] {
      let todo = record.todo
      func extra(_ name: String) -> String? {
        record.extras.first { $0.format == "ical" && $0.name == name }?.value
      }
      let time = Taskwarrior.formatTime
      let asWritten = TimesAsWritten(extra("times"))
      var zonesUsed: [(id: String, lines: [String])] = []
      /// The time as it came, while it still says `date`.
      func keptTime(_ name: String, _ date: TaskDate?) -> Bool {
        guard let date, let line = asWritten.line(name, saying: date) else { return false }
        writer.line(line.text)
        if let zone = line.parameter("TZID"), let lines = asWritten.zoneLines[zone], !zonesUsed.contains(where: { $0.id == zone }) {
          zonesUsed.append((zone, lines))
        }
        return true
      }
      writer.line("BEGIN:VTODO")
      writer.property("UID", ICalendarText.escapeUID(uid(todo.uuid)))
      writer.property("DTSTAMP", time(todo.modified))
      if !keptTime("CREATED", .instant(todo.created)) { writer.property("CREATED", time(todo.created)) }
      writer.property("LAST-MODIFIED", time(todo.modified))
      writer.property("SEQUENCE", String(Self.sequence(extra("sequence"), modified: todo.modified)))
      // Left out as it came only while reading what is written gives the same title again.
      let description = todo.notes.isEmpty ? nil : todo.notes.map(\.text).joinedText("\n\n")
      if extra("untitled") == nil || ICalendar.derivedTitle(description) != todo.title {
        writer.property("SUMMARY", ICalendarText.escape(todo.title))
      }
      if !todo.notes.isEmpty {
        writer.property("DESCRIPTION", ICalendarText.escape(todo.notes.map(\.text).joinedText("\n\n")))
      }
      switch todo.status {
      case .pending:
        writer.property("STATUS", todo.isActive || extra("status") == "IN-PROCESS" ? "IN-PROCESS" : "NEEDS-ACTION")
      case .done:
        writer.property("STATUS", "COMPLETED")
        if let completed = todo.completed, !keptTime("COMPLETED", .instant(completed)) { writer.property("COMPLETED", time(completed)) }
        writer.property("PERCENT-COMPLETE", extra("percent-done") ?? "100")
      case .deleted:
        writer.property("STATUS", "CANCELLED")
        // A task done and then deleted keeps when it was done.
        if let completed = todo.completed, !keptTime("COMPLETED", .instant(completed)) { writer.property("COMPLETED", time(completed)) }
      }
      if let priority = todo.priority {
        let read = extra("priority").flatMap { Int($0) }
        let number = read.flatMap { ICalendar.priority($0) == priority ? $0 : nil } ?? ["H": 1, "M": 5, "L": 9][priority.rawValue] ?? 9
        writer.property("PRIORITY", String(number))
      } else if let kept = extra("priority"), kept == "0" || kept.isEmpty {
        writer.property("PRIORITY", kept)
      }
      // A series whose occurrences another client completed: the master's own dates.
      let master = ICalendar.masterDates(extra("occurrences-done"), of: todo)
      var dated = todo
      if let master { (dated.due, dated.scheduled) = master }
      if let scheduled = dated.scheduled, !keptTime("DTSTART", scheduled) { date("DTSTART", scheduled, into: &writer) }
      if let due = dated.due, !Self.writesDuration(extra("duration"), of: dated, into: &writer), !keptTime("DUE", due) {
        date("DUE", due, into: &writer)
      }
      let keptLines = extra("categories-lines").map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
      if let keptLines, keptLines.first == todo.tags.joinedText(",") {
        for line in keptLines.dropFirst() { writer.line(line) }
      } else {
        let categories = todo.tags.map(ICalendarText.escape) + (extra("categories").map { [$0] } ?? [])
        if !categories.isEmpty { writer.property("CATEGORIES", categories.joinedText(",")) }
      }
      // Links name the UID the item was read with; one to a task that is not here (it could not be
      // linked) is written back as it was read.
      let related = ICalendar.relatedLinks(record)
      var namedUID: [String: String] = [:]
      for link in related where link.target == todo.parentUUID || todo.depends.contains(where: { $0.uuid == link.target }) {
        namedUID[link.target] = link.uid
      }
      if let parent = todo.parentUUID {
        writer.property("RELATED-TO", [("RELTYPE", "PARENT")], ICalendarText.escapeUID(namedUID[parent] ?? uid(parent)))
      }
      for link in todo.depends {
        writer.property("RELATED-TO", [("RELTYPE", "DEPENDS-ON")], ICalendarText.escapeUID(namedUID[link.uuid] ?? uid(link.uuid)))
      }
      for link in related where link.unlinked(todo) && !known.contains(link.target) { writer.line(link.text) }
      if let series = todo.series {
        if !series.rule.afterCompletion, series.ended == nil, todo.status == .pending {
          writer.property("RRULE", ICalendar.rruleText(series.rule))
        }
        var parameters = [("X-TODO-INSTANCE", String(series.index)), ("X-TODO-RULE", series.rule.description)]
        if let ended = series.ended { parameters.append(("X-TODO-ENDED", time(ended))) }
        writer.property("X-TODO-SERIES", parameters, series.uuid)
      }
      if let project = todo.project { writer.property("X-TODO-PROJECT", ICalendarText.escape(project)) }
      if let wait = todo.wait { date("X-TODO-WAIT", wait, into: &writer) }
      if let until = todo.until { date("X-TODO-UNTIL", until, into: &writer) }
      if let reason = todo.reason { writer.property("X-TODO-REASON", ICalendarText.escape(reason)) }
      for interval in todo.intervals {
        writer.property("X-TODO-INTERVAL", time(interval.started) + "/" + (interval.stopped.map(time) ?? ""))
      }
      for note in todo.notes {
        writer.property("X-TODO-NOTE", [("X-TODO-CREATED", time(note.created))], ICalendarText.escape(note.text))
      }
      for item in record.extras where item.format != "ical" {
        writer.property(
          "X-TODO-EXTRA", [("X-TODO-FORMAT", item.format), ("X-TODO-NAME", item.name)], ICalendarText.escape(item.value))
      }
      // Kept lines: the to-do's own, its sub-components (VALARM), and its changed occurrences
      // (a VTODO with RECURRENCE-ID), which go after it, as the siblings RFC 5545 makes them.
      let occurrences = extra("properties").map { self.keptLines($0, of: todo, into: &writer) } ?? []
      ICalendar.writeAlarms(of: record, kept: extra("alarms"), into: &writer)  // components after every property
      writer.line("END:VTODO")
      for line in occurrences { writer.line(line) }
      // The zones kept lines name (a changed occurrence's RECURRENCE-ID;TZID=…).
      if let kept = extra("properties") {
        for (zone, lines) in asWritten.zoneLines.sorted(by: { $0.key < $1.key })
        where !zonesUsed.contains(where: { $0.id == zone }) && (kept.contains("TZID=\(zone):") || kept.contains("TZID=\(zone);")) {
          zonesUsed.append((zone, lines))
        }
      }
      return zonesUsed
    }

    /// SEQUENCE: the number another program last wrote (`stored`: `NUMBER@MODIFIED`), one more
    /// once the task changed here since; 0 for a task no other program numbered.
    private static func sequence(_ stored: String?, modified: Int64) -> Int {
      guard let parts = stored?.split(separator: "@"), parts.count == 2, let number = Int(parts[0]), let basis = Int64(parts[1])
      else { return 0 }
      return number + (modified > basis ? 1 : 0)
    }

    /// The lines kept as they came (the to-do's own, its sub-components such as VALARM), written
    /// here; its changed occurrences (a VTODO with RECURRENCE-ID) are returned, to go after it,
    /// as the siblings RFC 5545 makes them.
    private func keptLines(_ kept: String, of todo: Todo, into writer: inout ContentWriter) -> [String] {
      var occurrences: [String] = []
      let writesRule = todo.series != nil
      var open: [String] = []
      var inOccurrence = false
      for piece in kept.split(separator: "\n", omittingEmptySubsequences: true) {
        let line = String(piece.filter { $0 != "\r" })
        let upper = line.uppercased()
        let name = upper.prefix { $0 != ":" && $0 != ";" }
        if upper == "BEGIN:VCALENDAR" || upper == "END:VCALENDAR" { continue }
        if upper.hasPrefix("BEGIN:") {
          if open.isEmpty && upper == "BEGIN:VTODO" { inOccurrence = true }
          open.append(String(upper.dropFirst(6)))
        } else if upper.hasPrefix("END:") {
          // Never an END that would close the to-do early, or one that closes nothing.
          guard open.last == String(upper.dropFirst(4)) else { continue }
          open.removeLast()
        } else if open.isEmpty {
          if name == "PERCENT-COMPLETE" && todo.status == .done { continue }
          if name == "RRULE" && writesRule { continue }
        }
        if inOccurrence { occurrences.append(line) } else { writer.line(line) }
        if open.isEmpty { inOccurrence = false }
      }
      // A component left open is closed, so the file stays well formed.
      for name in open.reversed() {
        if inOccurrence { occurrences.append("END:" + name) } else { writer.line("END:" + name) }
      }
      return occurrences
    }

    /// DURATION as it came (`kept`), while the due date is still the start plus it.
    private static func writesDuration(_ kept: String?, of todo: Todo, into writer: inout ContentWriter) -> Bool {
      guard let kept, let due = todo.due, let scheduled = todo.scheduled, let parsed = ICalendar.duration(kept),
        due == ICalendar.end(of: scheduled, parsed)
      else { return false }
      writer.property("DURATION", kept)
      return true
    }

    private func date(_ name: String, _ date: TaskDate, into writer: inout ContentWriter) {
      switch date {
      case .day(let day):
        writer.property(name, [("VALUE", "DATE")], day.description.filter { $0 != "-" })
      case .instant(let seconds):
        writer.property(name, Taskwarrior.formatTime(seconds))
      }
    }
  }
}

extension ICalendarText {
  /// A UID is written as it was read; only a line break (which cannot be in one) is dropped.
  static func escapeUID(_ uid: String) -> String {
    uid.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) ? uid.filter { $0 != "\n" && $0 != "\r" } : uid
  }
}
