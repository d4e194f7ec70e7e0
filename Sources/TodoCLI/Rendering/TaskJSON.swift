import TodoCore

/// The JSON form of tasks and other results: `snake_case` keys, RFC 3339 UTC times, `null` for
/// absent values. The task object's keys are fixed (see man/todo.1, JSON OUTPUT).
extension JSONWriter {
  /// Writes one task object.
  /// `extras`: written (as `extras`) by `export` only, so that an import gives them back.
  /// `attributes`: the task's user-defined attributes (`show`), written as `udas`, each value as
  /// the JSON it is stored as (a string, a number; a date and a duration as Taskwarrior's text).
  mutating func task(
    _ todo: Todo, dryRun: Bool = false, urgency: Double? = nil, extras: [TaskExtra]? = nil,
    attributes: [(name: String, value: String)]? = nil
  ) {
    object { json in
      json.field("id", Int(todo.id))
      json.field("uuid", todo.uuid)
      json.field("title", todo.title)
      json.field("status", todo.status.rawValue)
      json.field("priority", todo.priority?.rawValue)
      json.field("project", todo.project)
      json.field("tags", todo.tags)
      json.field("due", todo.due?.text)
      json.field("wait", todo.wait?.text)
      json.field("scheduled", todo.scheduled?.text)
      json.field("until", todo.until?.text)
      json.field("remind", todo.reminders.map(\.text))
      json.field("reason", todo.reason)
      json.field("created", Timestamp.rfc3339(todo.created))
      json.field("modified", Timestamp.rfc3339(todo.modified))
      json.field("completed", todo.completed.map(Timestamp.rfc3339))
      json.field("parent", todo.parentUUID)
      json.field("parent_id", todo.parentID.map { Int($0) })
      json.field("depends", todo.depends.map(\.uuid))
      json.key("depends_ids")
      // A dependency kept by UUID (its task is not here) has no id.
      json.array { json in for link in todo.depends where link.id != 0 { json.value(Int(link.id)) } }
      json.key("recur")
      if let series = todo.series {
        json.object { json in
          json.field("rule", series.rule.description)
          json.field("mode", series.rule.mode)
          json.field("series", series.uuid)
          json.field("instance", series.index)
          json.field("ended", series.ended.map(Timestamp.rfc3339))
        }
      } else {
        json.nullValue()
      }
      json.key("progress")
      if let progress = todo.progress {
        json.object { json in
          json.field("done", progress.done)
          json.field("total", progress.total)
        }
      } else {
        json.nullValue()
      }
      json.field("active", todo.isActive)
      json.key("intervals")
      json.array { json in
        for interval in todo.intervals {
          json.object { json in
            json.field("start", Timestamp.rfc3339(interval.started))
            json.field("end", interval.stopped.map(Timestamp.rfc3339))
          }
        }
      }
      if let urgency { json.field("urgency", (urgency * 1000).rounded() / 1000) }
      json.key("notes")
      json.array { json in
        for note in todo.notes {
          json.object { json in
            json.field("created", Timestamp.rfc3339(note.created))
            json.field("text", note.text)
          }
        }
      }
      if let attributes {
        json.key("udas")
        json.object { json in
          for (name, value) in attributes {
            json.key(name)
            switch UserAttribute.plain(value) {
            case .text(let text): json.value(text)
            case .number(let number): json.value(number)
            }
          }
        }
      }
      if let extras {
        json.key("extras")
        json.array { json in
          for extra in extras {
            json.object { json in
              json.field("format", extra.format)
              json.field("name", extra.name)
              json.field("value", extra.value)
            }
          }
        }
      }
      if dryRun { json.field("dry_run", true) }
    }
  }

  /// Writes an array of task objects.
  mutating func tasks(_ todos: [Todo]) {
    array { json in
      for todo in todos { json.task(todo) }
    }
  }

  /// Writes one journal entry object.
  mutating func journalEntry(_ entry: JournalEntry) {
    object { json in
      json.field("id", Int(entry.id))
      json.field("created", Timestamp.rfc3339(entry.created))
      json.field("command", entry.command)
      json.field("summary", entry.summary)
      json.field("task_count", entry.changeCount)
    }
  }
}

/// Writes tasks as they stream out of the database: `--json` as one array, `--jsonl` one object
/// a line, without holding the list in memory.
final class StreamingTaskWriter: @unchecked Sendable {
  // @unchecked: used only inside one operation run, while the calling thread waits for it.
  private let stream: OutputStream
  private var writer: JSONWriter
  private let lines: Bool
  private var count = 0

  init(stream: OutputStream, lines: Bool, format: JSONWriter.Format) {
    self.stream = stream
    self.lines = lines
    writer = JSONWriter(format: format, reservingCapacity: 64 * 1024)
    if !lines {
      writer.beginArray()
    }
  }

  func write(_ todo: Todo, attributes: [(name: String, value: String)]? = nil) {
    writer.task(todo, attributes: attributes)
    if lines { writer.endLine() }
    count += 1
    if writer.bytes.count > 32 * 1024 { writer.drain(into: stream) }
  }

  func finish() {
    if !lines {
      writer.endArray()
      writer.endLine()
    }
    writer.drain(into: stream)
  }
}
