import TodoCore

/// Reminders as iCalendar alarms (RFC 5545's VALARM, with RFC 9074's `ACKNOWLEDGED`): a
/// reminder relative to the due date is `TRIGGER;RELATED=END:-PT15M`, one relative to the
/// scheduled date (DTSTART) `TRIGGER:-PT1H`, one at an instant `TRIGGER;VALUE=DATE-TIME:…`. A
/// form iCalendar cannot say (`due-1d@09:00`, a snooze) goes out as the instant it rings at, with
/// `X-TODO-REMIND` giving todo's own form back while the trigger still says that instant.
///
/// A display alarm with no more than a trigger, a description, a summary, an acknowledgement and
/// identifiers becomes a reminder; any other (audio, email, repeating, proximity, a snooze of
/// another client's) is kept as it came and written back unchanged.
extension ICalendar {
  /// The properties a modelled alarm may have; those identifiers are not kept.
  static let modelledAlarmProperties: Set<String> = [
    "ACTION", "TRIGGER", "DESCRIPTION", "SUMMARY", "ACKNOWLEDGED", "X-MOZ-LASTACK", "UID", "X-WR-ALARMUID", "X-TODO-REMIND",
    "X-EVOLUTION-ALARM-UID",
  ]

  /// Alarms todo models become the task's reminders (and the alarms as they came, an `alarms`
  /// extra); every other sub-component is kept as it came, after the kept properties (a
  /// component comes after every property). Returns the deliveries the alarms acknowledge: the
  /// instant each rang at → when.
  static func readAlarms(
    of component: Component, into todo: inout Todo, kept: inout [String], extras: inout [TaskExtra], zones: [String: DefinedZone]
  ) -> [Int64: Int64] {
    var acknowledged: [Int64: Int64] = [:]
    var alarms: [String] = []
    for sub in component.components {
      guard let (reminder, ack) = reminder(from: sub, due: todo.due, scheduled: todo.scheduled, zones: zones) else {
        kept += sub.lines
        continue
      }
      if !todo.reminders.contains(reminder) { todo.reminders.append(reminder) }
      // The alarm as it came, with the instant it rang at then: written back while it still says
      // the same (see `writeAlarms`).
      let fire = reminder.fire(due: todo.due, scheduled: todo.scheduled)
      alarms.append(([reminder.text + "\t" + (fire.map(String.init) ?? "")] + sub.lines).joinedText("\n"))
      if let ack, let fire { acknowledged[fire] = ack }
    }
    if !alarms.isEmpty { extras.append(TaskExtra(format: "ical", name: "alarms", value: alarms.joinedText("\n\n"))) }
    return acknowledged
  }

  /// Every reminder of a task as a VALARM: another client's alarm as it came (`kept`, the
  /// `alarms` extra) while its trigger still rings when the reminder does, else one of todo's.
  static func writeAlarms(of record: TaskRecord, kept stored: String?, into writer: inout ContentWriter) {
    let todo = record.todo
    let keptAlarms = keptAlarms(stored)
    for reminder in todo.reminders {
      let fire = reminder.fire(due: todo.due, scheduled: todo.scheduled)
      let kept = keptAlarms[reminder.text].flatMap { kept in kept.fire == fire || !kept.absolute ? kept.lines : nil }
      writeAlarm(reminder, of: todo, acknowledged: fire.flatMap { record.acknowledged[$0] }, kept: kept, into: &writer)
    }
  }

  /// A VALARM as a reminder, with the time it was acknowledged when that is at or after the time
  /// it rings (so it will not ring again); nil for an alarm todo keeps as it came.
  static func reminder(
    from alarm: Component, due: TaskDate?, scheduled: TaskDate?, zones: [String: DefinedZone]
  ) -> (reminder: Reminder, acknowledged: Int64?)? {
    guard alarm.name == "VALARM", alarm.components.isEmpty,
      alarm.properties.allSatisfy({ modelledAlarmProperties.contains($0.name) || $0.name.hasPrefix("X-") && $0.name != "X-APPLE-PROXIMITY" }),
      alarm.properties.first(where: { $0.name == "ACTION" })?.value.trimmingSpaces.uppercased() == "DISPLAY",
      let trigger = alarm.properties.first(where: { $0.name == "TRIGGER" })
    else { return nil }
    var reminder: Reminder
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      guard let instant = try? instant(trigger, zones: zones) else { return nil }
      reminder = Reminder(.at(instant))
    } else {
      guard let offset = duration(trigger.value)?.seconds else { return nil }
      let related = trigger.parameter("RELATED")?.uppercased() ?? "START"
      // Relative to a start the to-do does not have, but to its due date (clients that do not
      // tell the two apart): the due date is what it counts from.
      let anchor: Reminder.Anchor = related == "END" || scheduled == nil && due != nil ? .due : .scheduled
      reminder = Reminder(.relative(anchor, offset: offset, clock: nil))
    }
    // todo's own form, while the trigger is the one todo wrote (`X-TODO-AT`: another client that
    // moved the due date left the alarm as it was, and the reminder moves with the date), or
    // still rings when the form does; a trigger another client changed wins.
    if let own = alarm.properties.first(where: { $0.name == "X-TODO-REMIND" }), let stored = Reminder(stored: own.value.trimmingSpaces) {
      let written = own.parameter("X-TODO-AT").flatMap { at in
        try? instant(ContentLine(name: "X-TODO-AT", parameters: [], value: at, text: "", line: trigger.line), zones: [:])
      }
      let triggerUnchanged = written != nil && written == reminder.fire(due: due, scheduled: scheduled)
      let sameInstant = stored.fire(due: due, scheduled: scheduled) == reminder.fire(due: due, scheduled: scheduled)
      if triggerUnchanged || sameInstant { reminder = stored }
    }
    var acknowledged: Int64?
    if let line = alarm.properties.first(where: { $0.name == "ACKNOWLEDGED" || $0.name == "X-MOZ-LASTACK" }),
      let at = try? instant(line, zones: zones), let fire = reminder.fire(due: due, scheduled: scheduled), at >= fire
    {
      acknowledged = at
    }
    return (reminder, acknowledged)
  }

  /// The VALARM lines of a reminder of `todo` (`acknowledged`: when it was delivered here).
  /// `kept`: the alarm's lines as they came, written back as they are (another client's
  /// description and identifiers), with the acknowledgement added when it was delivered here.
  static func writeAlarm(
    _ reminder: Reminder, of todo: Todo, acknowledged: Int64?, kept: [String]? = nil, into writer: inout ContentWriter
  ) {
    if let kept, kept.first?.uppercased() == "BEGIN:VALARM", kept.last?.uppercased() == "END:VALARM" {
      let acknowledges = kept.contains { $0.uppercased().hasPrefix("ACKNOWLEDGED") }
      for line in kept.dropLast() {
        // Our delivery is the newer news: a kept acknowledgement older than it gives way.
        if let acknowledged, line.uppercased().hasPrefix("ACKNOWLEDGED:") {
          writer.property("ACKNOWLEDGED", Taskwarrior.formatTime(acknowledged))
          continue
        }
        writer.line(line)
      }
      if let acknowledged, !acknowledges { writer.property("ACKNOWLEDGED", Taskwarrior.formatTime(acknowledged)) }
      writer.line(kept.last!)
      return
    }
    writer.line("BEGIN:VALARM")
    writer.property("ACTION", "DISPLAY")
    writer.property("DESCRIPTION", ICalendarText.escape(todo.title))
    let fire = reminder.fire(due: todo.due, scheduled: todo.scheduled)
    var exact = true
    switch reminder.when {
    case .at(let instant):
      writer.property("TRIGGER", [("VALUE", "DATE-TIME")], Taskwarrior.formatTime(instant))
      exact = !reminder.isSnooze
    case .relative(let anchor, let offset, nil):
      if anchor == .due {
        writer.property("TRIGGER", [("RELATED", "END")], durationText(offset))
      } else {
        writer.property("TRIGGER", durationText(offset))
      }
    case .relative(let anchor, let offset, .some):
      exact = false
      if let fire {
        writer.property("TRIGGER", [("VALUE", "DATE-TIME")], Taskwarrior.formatTime(fire))
      } else if anchor == .due {
        writer.property("TRIGGER", [("RELATED", "END")], durationText(offset))
      } else {
        writer.property("TRIGGER", durationText(offset))
      }
    }
    // todo's own form, with the trigger written for it (see `reminder(from:)`).
    if !exact { writer.property("X-TODO-REMIND", fire.map { [("X-TODO-AT", Taskwarrior.formatTime($0))] } ?? [], reminder.text) }
    if let acknowledged { writer.property("ACKNOWLEDGED", Taskwarrior.formatTime(acknowledged)) }
    writer.line("END:VALARM")
  }

  /// An alarm kept as it came: its lines, the instant it rang at when read, and whether its
  /// trigger is an instant (which a moved date leaves behind) rather than an offset.
  struct KeptAlarm {
    var lines: [String]
    var fire: Int64?
    var absolute: Bool
  }

  /// The alarms kept as they came (the `alarms` extra), by the reminder each became.
  static func keptAlarms(_ stored: String?) -> [String: KeptAlarm] {
    var found: [String: KeptAlarm] = [:]
    for entry in (stored ?? "").split(separator: "\n\n") {
      let lines = entry.split(separator: "\n").map(String.init)
      guard let key = lines.first, lines.count > 2 else { continue }
      let parts = key.split(separator: "\t", omittingEmptySubsequences: false)
      let absolute = lines.contains { $0.uppercased().hasPrefix("TRIGGER") && $0.uppercased().contains("VALUE=DATE-TIME") }
      found[String(parts[0])] = KeptAlarm(lines: Array(lines.dropFirst()), fire: parts.count > 1 ? Int64(parts[1]) : nil, absolute: absolute)
    }
    return found
  }

  /// Seconds as RFC 5545's dur-value: `-PT15M`, `-P1D`, `P1DT2H30M`, `PT0S`.
  static func durationText(_ seconds: Int64) -> String {
    let magnitude = seconds.magnitude
    let days = magnitude / 86_400, hours = magnitude % 86_400 / 3_600, minutes = magnitude % 3_600 / 60, rest = magnitude % 60
    var text = (seconds < 0 ? "-" : "") + "P" + (days > 0 ? "\(days)D" : "")
    if hours > 0 || minutes > 0 || rest > 0 || days == 0 {
      text +=
        "T" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "")
        + (rest > 0 || hours == 0 && minutes == 0 ? "\(rest)S" : "")
    }
    return text
  }
}
