import Foundation
import Testing

/// User-defined attributes (issue 31, item 6): defined as Taskwarrior defines them, set,
/// cleared, checked, shown, filtered, carried by exports and hooks; an attribute word that is
/// neither known nor defined is an error, never title text.
@Suite struct EndToEndUserAttributeTests {
  private func configured() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    for (key, value) in [
      ("uda.client.type", "string"), ("uda.client.label", "Client"), ("uda.size.type", "numeric"), ("uda.size.values", ""),
      ("uda.estimate.type", "duration"), ("uda.deadline.type", "date"), ("uda.tier.values", "gold,silver"),
      ("uda.tier.default", "silver"),
    ] where !value.isEmpty {
      todo("config", "set", key, value).expectSuccess()
    }
    return todo
  }

  @Test func setClearedCheckedAndShown() throws {
    let todo = try configured()
    todo.run(
      ["add", "Call", "client:globex", "size:2.5", "estimate:90min", "deadline:2026-12-04"], environment: ["TODO_NOW": "2026-11-27T09:00:00Z"]
    )
    .expectSuccess()
    let shown = try todo.task(1)
    let udas = try #require(shown["udas"] as? [String: Any])
    #expect(udas["client"] as? String == "globex" && udas["size"] as? Double == 2.5, "\(udas)")
    #expect(udas["estimate"] as? String == "PT1H30M" && udas["tier"] as? String == "silver", "\(udas)")
    #expect(udas["deadline"] as? String == "20261204T000000Z", "\(udas)")
    let lines = todo("show", "1").lines
    #expect(lines.contains("  Client     globex") && lines.contains("  Estimate   PT1H30M") && lines.contains("  Deadline   2026-12-04"), "\(lines)")
    #expect(try todo.task(1)["title"] as? String == "Call")
    // The line after a change names them, as show writes them.
    #expect(todo("update", "1", "client:", "estimate:2h").stdout == "Updated task 1: Call  deadline:2026-12-04 estimate:PT2H size:2.5 tier:silver\n")
    let after = try #require(try todo.task(1)["udas"] as? [String: Any])
    #expect(after["client"] == nil && after["estimate"] as? String == "PT2H", "\(after)")
    // The History says what changed.
    let history = todo("show", "1").lines.last ?? ""
    #expect(history.hasPrefix("    udas: client:globex ") && history.contains("estimate:PT1H30M") && history.contains("→ deadline:"), "\(history)")
    #expect(!history.components(separatedBy: "→").last!.contains("client:"), "\(history)")
    // Undo puts them back.
    todo("undo").expectSuccess()
    #expect((try todo.task(1)["udas"] as? [String: Any])?["client"] as? String == "globex")
    // Values a type does not take, and words that are no attribute, change nothing.
    for (word, complaint) in [
      ("size:big", "size:big is not a number"), ("estimate:soon", "estimate:soon is not a duration"),
      ("tier:bronze", "tier:bronze is not one of the values uda.tier.values allows: gold, silver"),
      ("deadline:whenever", "deadline:whenever is not a date"),
      ("clinet:acme", "'clinet:acme': todo has no attribute 'clinet' (did you mean 'client:'?)"),
      ("store:aldi", "to keep 'store' on tasks, define it (todo config set uda.store.type string), or put -- before the words"),
    ] {
      let run = todo("update", "1", word)
      #expect(run.status == 2 && run.stderr.contains(complaint), "\(word): \(run)")
    }
    #expect((try todo.task(1)["udas"] as? [String: Any])?["size"] as? Double == 2.5)
    // Plain text stays text: no value, a time, a URL, an address, capitals; and after --. In
    // add, a key:value word no attribute reads is title text with a warning (update refuses it:
    // it would rename the task).
    let plain = todo("add", "re:", "rent", "at", "10:30", "https://example.org", "mailto:bob@example.org", "Re:meeting", "TODO:x")
    #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain)")
    let warned = todo("add", "Buy", "milk", "store:aldi")
    #expect(warned.status == 0, "\(warned)")
    #expect(
      warned.errorLines == [
        "todo: warning: 'store:aldi' is not an attribute, so it was read as title text; to make 'store' one: todo config set uda.store.type string"
      ])
    #expect(try todo.task(3)["title"] as? String == "Buy milk store:aldi")
    let status = todo("update", "1", "status:done")
    #expect(status.status == 2 && status.stderr.contains("done, reopen and delete change the status"), "\(status)")
    // A series' next instance keeps them.
    todo("add", "Invoice", "due:2026-12-01", "recur:monthly", "client:acme").expectSuccess()
    let invoice = try #require(todo.ids("Invoice").first)
    todo("done", String(invoice)).expectSuccess()
    let next = try #require(todo.ids("Invoice").first)
    let nextUDAs = try todo.task(next)["udas"] as? [String: Any]
    #expect(next != invoice && nextUDAs?["client"] as? String == "acme")
  }

  @Test func filtersCompareByType() throws {
    let todo = try configured()
    let now = ["TODO_NOW": "2026-11-27T09:00:00Z"]
    for words in [
      ["add", "One", "client:acme", "size:1", "estimate:30min", "deadline:2026-12-01"],
      ["add", "Two", "client:globex", "size:5", "estimate:2h", "deadline:2026-12-10T15:00"],
      ["add", "Three"],
    ] {
      todo.run(words, environment: now).expectSuccess()
    }
    func ids(_ filter: String...) -> [Int] {
      let run = todo.run(["list"] + filter + ["--json"], environment: now)
      #expect(run.status == 0, "\(filter): \(run)")
      return ((try? run.jsonArray()) ?? []).compactMap { $0["id"] as? Int }.sorted()
    }
    #expect(ids("client:acme") == [1])
    #expect(ids("client:") == [3])
    #expect(ids("client.any:") == [1, 2])
    #expect(ids("client.not:acme") == [2, 3])
    // Text compares ignoring case, as every text modifier does.
    #expect(ids("client.has:LOB") == [2] && ids("client.has:lob") == [2])
    #expect(ids("client.hasnt:lob") == [1, 3])
    #expect(ids("size.over:2") == [2] && ids("size.under:2") == [1] && ids("size:5") == [2])
    #expect(ids("estimate.over:1h") == [2] && ids("estimate.below:PT1H") == [1] && ids("estimate:30min") == [1])
    #expect(ids("deadline.before:2026-12-05") == [1] && ids("deadline.after:2026-12-05") == [2])
    #expect(ids("deadline:2026-12-10") == [2])
    #expect(ids("client:acme", "or", "size.over:4") == [1, 2])
    let wrong = todo("list", "size.has:1")
    #expect(wrong.status == 2 && wrong.stderr.contains("size.has: compares text; size is numeric"), "\(wrong)")
    let modifier = todo("list", "size.ovr:1")
    #expect(modifier.status == 2 && modifier.stderr.contains("did you mean 'size.over:'?"), "\(modifier)")
    // +UDA: any value of one (tier has a default); +ORPHAN: a value of one no longer defined.
    #expect(ids("+UDA") == [1, 2, 3] && ids("+ORPHAN") == [])
    todo("config", "unset", "uda.deadline.type").expectSuccess()
    #expect(ids("+ORPHAN") == [1, 2] && ids("-ORPHAN") == [3])
  }

  @Test func reportsShowAndSortByThem() throws {
    let todo = try configured()
    let now = ["TODO_NOW": "2026-11-27T09:00:00Z"]
    for words in [
      ["add", "One", "client:acme", "size:1", "estimate:2h"], ["add", "Two", "client:globex", "size:10", "estimate:30min"],
      ["add", "Three"],
    ] {
      todo.run(words, environment: now).expectSuccess()
    }
    todo("config", "set", "report.work.columns", "id,client,size,estimate,title").expectSuccess()
    todo("config", "set", "report.work.sort", "-size").expectSuccess()
    // A column each, headed by the label; numbers to the right; sorted as numbers (10 after 1).
    #expect(
      todo("work").lines == [
        "ID  Client  Size  Estimate  Title", " 2  globex    10  PT30M     Two", " 1  acme       1  PT2H      One",
        " 3                          Three",
      ], "\(todo("work"))")
    // --sort takes them too, durations by their length; tasks without one last.
    #expect(todo.ids(report: "list") == [1, 2, 3])
    let sorted = todo("list", "--sort", "estimate", "--json")
    #expect(((try? sorted.jsonArray()) ?? []).compactMap { $0["id"] as? Int } == [2, 1, 3], "\(sorted)")
    let byClient = todo("list", "--sort", "-client", "--json")
    #expect(((try? byClient.jsonArray()) ?? []).compactMap { $0["id"] as? Int } == [2, 1, 3], "\(byClient)")
    // A name that is not defined is an error naming the nearest.
    let typo = todo("list", "--sort", "clint")
    #expect(typo.status != 0 && typo.stderr.contains("unknown sort key 'clint'") && typo.stderr.contains("client"), "\(typo)")
    let column = todo("config", "set", "report.work.columns", "id,clint")
    #expect(column.status != 0 && column.stderr.contains("did you mean 'client'?"), "\(column)")
    // list --json and a report's JSON carry them, for the tasks that have some.
    let listed = try todo("list", "--json").jsonArray()
    #expect((listed.first?["udas"] as? [String: Any])?["client"] as? String == "acme", "\(listed)")
    #expect((listed.first?["udas"] as? [String: Any])?["size"] as? Double == 1)
    #expect(listed.last?["udas"] as? [String: Any] != nil, "tier has a default: \(listed)")
    let reported = try todo("work", "--json").jsonArray()
    #expect((reported.first?["udas"] as? [String: Any])?["client"] as? String == "globex", "\(reported)")
    // The urgency coefficients of an attribute rank next.
    todo("config", "set", "urgency.uda.client.globex.coefficient", "20").expectSuccess()
    #expect(todo.ids(report: "next").first == 2)
    // A context's or a report's filter may name them, and its urgency is the configured one.
    todo("context", "define", "acme", "client:acme").expectSuccess()
    todo("context", "acme").expectSuccess()
    #expect(todo.ids() == [1])
    todo("context", "none").expectSuccess()
    todo("config", "set", "report.hot.filter", "urgency.over:19").expectSuccess()
    #expect(todo.ids(report: "hot") == [2])
  }

  /// A Taskwarrior database's UDAs come in, are filtered by once defined, and go back to the
  /// real `task` as themselves; hooks see them and may change a defined one.
  @Test func taskwarriorsUDAsAndHooks() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try configured()
    let rc = ["uda.client.type=string", "uda.estimate.type=duration", "uda.size.type=numeric"]
    todo.taskwarrior("tw", "add From TW client:initech estimate:PT45M size:8", rc: rc).expectSuccess()
    let file = todo.folder.appendingPathComponent("tw.json").path
    try todo.taskwarrior("tw", "export", rc: rc).stdout.write(toFile: file, atomically: true, encoding: .utf8)
    todo("import", file).expectSuccess()
    #expect(todo.ids("client:initech") == [1] && todo.ids("estimate.under:1h") == [1] && todo.ids("size.over:7") == [1])
    todo("update", "1", "client:hooli").expectSuccess()
    let back = todo.folder.appendingPathComponent("back.json").path
    todo("export", "--format", "taskwarrior", "--output", back).expectSuccess()
    todo.taskwarrior("tw", "import \(back)", rc: rc).expectSuccess()
    let again = try todo.taskwarrior("tw", "export", rc: rc).jsonArray()
    #expect(again.count == 1 && again[0]["client"] as? String == "hooli" && again[0]["estimate"] as? String == "PT45M", "\(again)")

    let folder = todo.folder.appendingPathComponent(".config/todo/hooks")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let hook = folder.appendingPathComponent("on-modify-size").path
    try """
    #!/usr/bin/env python3
    import json, sys
    old = json.loads(sys.stdin.readline()); new = json.loads(sys.stdin.readline())
    sys.stderr.write('was %s for %s\\n' % (old.get('size'), new.get('client')))
    new['size'] = 9
    print(json.dumps(new))
    """.write(toFile: hook, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook)
    let run = todo("update", "1", "client:pied")
    run.expectSuccess()
    #expect(run.stderr.contains("was 8 for pied"), "\(run)")
    #expect((try todo.task(1)["udas"] as? [String: Any])?["size"] as? Double == 9)
  }
}
