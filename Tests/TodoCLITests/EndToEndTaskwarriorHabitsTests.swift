import Foundation
import Testing

/// What a Taskwarrior user types: a filter before the command, Taskwarrior's command names and
/// helpers, its filter language and `rc.` settings. Each form works or is an error that names
/// the word; none is silently a search that matches nothing. The filters are also run side by
/// side with the real `task` 2.6 on the same tasks. "Now" is Saturday 2026-11-21 09:30 UTC.
@Suite struct EndToEndTaskwarriorHabitsTests {
  /// Two errands, a home project with a sub-project, a blocked task and a note.
  private func errands() throws -> TodoSandbox {
    let todo = try TodoSandbox()
    todo.add("Buy milk", "+errand")
    todo.add("Call Bob", "+errand", "project:home")
    todo.add("Pay the rent", "project:home", "pri:H", "due:2026-11-30")
    todo.add("rent car", "project:home.car")
    todo.add("Read", "depends:3")
    return todo
  }

  // MARK: the command line

  @Test func aFilterBeforeTheCommandIsTheCommandsFilter() throws {
    let todo = try errands()
    #expect(todo("+errand", "list", "--json").stdout == todo("list", "+errand", "--json").stdout)
    #expect(todo.ids("+errand") == [1, 2])
    let done = todo("project:home", "pri:H", "done")
    #expect(done.status == 0, "\(done)")
    #expect(done.stdout.hasPrefix("Completed task 3: Pay the rent"))
    // Before update, the filter chooses the tasks and the words after the command are the change.
    let update = todo("+errand", "modify", "pri:L")
    #expect(update.status == 0, "\(update)")
    #expect(try todo.task(1)["priority"] as? String == "L")
    #expect(try todo.task(2)["priority"] as? String == "L")
    #expect(try todo.task(4)["priority"] == nil || (try todo.task(4)["priority"]) is NSNull)
    // Title words there would rename every task: refused, nothing changed.
    let before = todo.snapshot()
    let rename = todo("+errand", "update", "Shop")
    #expect(rename.status == 2)
    #expect(rename.stderr.contains("would become the title of every task the filter selects"))
    #expect(todo.snapshot() == before)
  }

  @Test func wordsAfterAFilterAndACloseCommandAreAMistakeNotASearch() throws {
    let todo = try errands()
    let before = todo.snapshot()
    let run = todo("4", "done", "foo")
    #expect(run.status == 2)
    #expect(run.errorLines.first == "todo: error: 'done' does not take 'foo'")
    #expect(todo.snapshot() == before)
    // A command that takes one task takes only ids before it.
    let show = todo("+errand", "show")
    #expect(show.status == 2)
    #expect(show.errorLines.first == "todo: error: bad value '+errand' for show: takes task ids before it (3, 3-7, 1,4), not a filter")
    // A command that takes no filter says so.
    #expect(todo("+errand", "add", "x").errorLines.first == "todo: error: 'add' does not take '+errand'")
  }

  @Test func anIDAloneShowsTheTask() throws {
    let todo = try errands()
    let run = todo("3")
    #expect(run.status == 0)
    #expect(run.lines.first == "Task 3: Pay the rent")
    #expect(todo("3", "--json").stdout == todo("show", "3", "--json").stdout)
    // A range alone still lists.
    #expect(todo("2-3").lines.first?.hasPrefix("ID") == true)
  }

  @Test func taskwarriorsCommandNamesAreOurs() throws {
    let todo = try errands()
    #expect(todo("info", "1").lines.first == "Task 1: Buy milk")
    #expect(todo("mod", "1", "+shop").status == 0)
    #expect(try todo.task(1)["tags"] as? [String] == ["errand", "shop"])
    #expect(todo("1", "annotate", "at the corner shop").status == 0)
    #expect(todo("1", "annotate", "oat milk").status == 0)
    // denotate removes the note with that text, else the one note containing it.
    let ambiguous = todo("denotate", "1", "o")
    #expect(ambiguous.status == 2)
    #expect(ambiguous.stderr.contains("notes 1, 2 of task 1 contain 'o'"))
    #expect(todo("1", "denotate", "OAT").status == 0)
    let notes = try todo.task(1)["notes"] as? [[String: Any]]
    #expect(notes?.map { $0["text"] as? String } == ["at the corner shop"])
    #expect(todo("denotate", "1", "nothing like it").status == 2)
  }

  @Test func countIDsAndUUIDsForScripts() throws {
    let todo = try errands()
    todo("done", "4").expectSuccess()
    #expect(todo("count").stdout == "4\n")
    #expect(todo("+errand", "count").stdout == "2\n")
    #expect(todo("count", "status:all").stdout == "5\n")
    #expect(todo("count", "--json").stdout == "{\n  \"count\": 4\n}\n")
    #expect(todo("ids").stdout == "1-3 5\n")
    #expect(todo("_ids", "project:home").lines == ["2", "3"])
    let uuids = todo("_uuids", "+errand").lines
    #expect(uuids.count == 2)
    #expect(todo("uuids", "+errand").stdout == uuids.joined(separator: " ") + "\n")
    #expect(try todo.task(1)["uuid"] as? String == uuids[0])
  }

  @Test func getAndUniqueReadAttributes() throws {
    let todo = try errands()
    #expect(todo("_get", "3.description", "3.project", "3.due", "3.priority", "1.tags").stdout == "Pay the rent home 2026-11-30 H errand\n")
    // A task that is not there gives an empty value, as in Taskwarrior.
    #expect(todo("_get", "99.title", "1.title").stdout == " Buy milk\n")
    let unknown = todo("_get", "1.descripton")
    #expect(unknown.status == 2)
    #expect(unknown.errorLines.first == "todo: error: bad value 'descripton' for _get: no attribute of that name; did you mean 'description'?")
    #expect(todo("_unique", "project").lines == ["home", "home.car"])
    #expect(todo("_unique", "tags", "project:home").lines == ["errand"])
    #expect(todo("_projects").lines == ["home", "home.car"])
    #expect(todo("_tags").lines == ["errand"])
  }

  @Test func taskwarriorsReportsAreBuiltIn() throws {
    let todo = try errands()
    todo("done", "1").expectSuccess()
    todo("start", "2").expectSuccess()
    #expect(todo.ids(report: "completed") == [1])
    #expect(todo.ids(report: "active") == [2])
    #expect(todo.ids(report: "blocked") == [5])
    #expect(todo.ids(report: "blocking") == [3])
    #expect(todo.ids(report: "unblocked") == [3, 2, 4])
    #expect(Set(todo.ids(report: "all")) == [1, 2, 3, 4, 5])
    #expect(todo.ids(report: "newest").first == 5)
    #expect(todo.ids(report: "oldest").first == 2)
  }

  @Test func substitutionReplacesInTheTitleOrElseTheNotesAndUndoes() throws {
    let todo = try errands()
    #expect(todo("update", "3", "/rent/bills/").stdout.hasPrefix("Updated task 3: Pay the bills"))
    todo("note", "5", "chapter one, chapter two").expectSuccess()
    todo("update", "5", "/chapter/part/g").expectSuccess()
    #expect((try todo.task(5)["notes"] as? [[String: Any]])?.first?["text"] as? String == "part one, part two")
    #expect(try todo.task(5)["title"] as? String == "Read")
    todo("undo").expectSuccess()
    #expect((try todo.task(5)["notes"] as? [[String: Any]])?.first?["text"] as? String == "chapter one, chapter two")
    let before = todo.snapshot()
    let missing = todo("update", "5", "/nowhere/x/")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("task 5 has no 'nowhere' in its title or notes"))
    #expect(todo.snapshot() == before)
  }

  @Test func rcSettingsMapOrAreRefused() throws {
    let todo = try errands()
    #expect(todo("rc.report.next.limit=1", "next").lines.last == "1 of 4 tasks; --limit N shows more.")
    #expect(todo("rc.confirmation=off", "rc.verbose=nothing", "rc.color=off", "+errand", "done").status == 0)
    let unknown = todo("rc.nosuch.key=1", "list")
    #expect(unknown.status == 2)
    #expect(unknown.errorLines.first?.hasPrefix("todo: error: rc.nosuch.key: todo has no such setting") == true)
    #expect(
      todo("rc:/tmp/x", "list").errorLines.first
        == "todo: error: rc:/tmp/x: todo reads its settings from one file of its own; run: TODO_CONFIG=/tmp/x todo …")
  }

  // MARK: the filter language

  @Test func regexLimitAndModifiers() throws {
    let todo = try errands()
    #expect(todo.ids("/ren+t/") == [3, 4])
    #expect(todo.ids("/RENT/") == [])
    #expect(todo.ids("-c", "search.case.sensitive=off", "/RENT/") == [3, 4])
    #expect(todo("list", "/[/").errorLines.first?.hasPrefix("todo: error: bad value '/[/' for filter: not a regular expression") == true)
    #expect(todo.ids("limit:1") == [3])
    #expect(todo("done", "+errand", "limit:1").errorLines.first == "todo: error: limit: applies to lists and reports, not to 'done'")
    #expect(todo.ids("description:rent") == [4])
    #expect(todo.ids("description.has:RENT") == [3, 4])
    #expect(todo.ids("description.endswith:rent") == [3])
    #expect(todo.ids("description.word:the") == [3])
    #expect(todo.ids("description.noword:the") == [1, 2, 4, 5])
    #expect(todo.ids("description.is:read") == [5])
    #expect(todo.ids("project:home") == [3, 2, 4])
    #expect(todo.ids("project.is:home") == [3, 2])
    #expect(todo.ids("project.has:car") == [4])
    #expect(todo.ids("project.isnt:home") == [1, 5])
    #expect(todo.ids("pri.above:M") == [3])
    #expect(todo.ids("tags:errand") == [1, 2])
    #expect(todo.ids("tags.hasnt:errand") == [3, 4, 5])
    #expect(todo.ids("depends:3") == [5])
    #expect(todo.ids("depends.any:") == [5])
    #expect(todo.ids("id:2-3") == [3, 2])
    #expect(todo.ids("entry.before:tomorrow") == [3, 1, 2, 4, 5])
    #expect(todo.ids("recur:weekly") == [])
    #expect(todo("list", "recur:fortnightly-ish").status == 2)
    #expect(todo.ids("+UNBLOCKED", "+PROJECT") == [3, 2, 4])
    #expect(todo.ids("+LATEST") == [5])
  }

  @Test func anUnknownKeyIsAnErrorWithTheNearestKey() throws {
    let todo = try errands()
    let misspelled = todo("list", "entry.befor:x")
    #expect(misspelled.status == 2)
    #expect(misspelled.errorLines.first == "todo: error: filter: unknown attribute 'entry.befor' at word 2; did you mean 'entry.before:'?")
    let unknown = todo("list", "nosuchkey.before:x")
    #expect(unknown.status == 2)
    #expect(unknown.errorLines.first?.hasPrefix("todo: error: filter: unknown attribute 'nosuchkey.before' at word 2;") == true)
    #expect(todo("list", "estimat:3").status == 2)
    // After --, it is text to search for.
    #expect(todo("list", "--", "nosuchkey:x").stdout == "No matching tasks.\n")
  }

  @Test func aQuotedFilterIsTheFilterItSpells() throws {
    let todo = try errands()
    #expect(todo.ids("project:home.car or +errand") == [1, 2, 4])
    #expect(todo.ids("project:home.car or +errand", "status:all") == [1, 2, 4])
    // A quoted phrase of plain words is still one phrase.
    #expect(todo.ids("pay the") == [3])
    #expect(todo("context", "define", "shop", "+errand or project:home.car").status == 0)
    #expect(todo("context", "shop").status == 0)
    #expect(todo.ids() == [1, 2, 4])
  }

  @Test func aQuotedPhraseWithoutAFiltersStructureStaysAPhrase() throws {
    let todo = try TodoSandbox()
    todo.add("top 10 films")
    todo.add("do not disturb sign")
    todo.add("Give +1 to the plan")
    todo.add("Buy milk", "+errand")
    #expect(todo.ids("top 10 films") == [1])
    #expect(todo.ids("not disturb") == [2])
    #expect(todo.ids("Give +1") == [3])
    #expect(todo.ids("title.not:Buy milk") == [1, 2, 3])
    // A change by such a phrase changes what it names, never the rest.
    #expect(todo("delete", "not disturb", "--yes").lines.first == "Deleted task 2: do not disturb sign  status:deleted")
    #expect(todo.ids() == [1, 3, 4])
  }

  @Test func rcWordsAfterAChangesCommandAreText() throws {
    let todo = try TodoSandbox()
    #expect(todo("add", "edit", "rc.local", "on", "server").stdout == "Added task 1: edit rc.local on server\n")
    #expect(todo("add", "call", "rc:club").stdout == "Added task 2: call rc:club\n")
    // After a command that only reads, and before any, they are settings; a key keeps its case.
    todo("update", "1", "+Home").expectSuccess()
    let why = todo("rc.urgency.user.tag.Home.coefficient=20", "why", "1")
    #expect(why.stdout.contains("tagged +Home"), "\(why)")
    #expect(todo("list", "rc.color=off", "limit:1", "--json").status == 0)
    // After a change's command word, a word that names a setting is still one, as in Taskwarrior.
    #expect(todo("1", "modify", "pri:H", "rc.confirmation=off").stdout.hasPrefix("Updated task 1: edit rc.local on server  +Home pri:H"))
    #expect(todo("1", "annotate", "rc.color=off").stderr.contains("needs"))
  }

  @Test func aTagInCapitalsCloseToAVirtualTagIsSaidToBeOne() throws {
    let todo = try errands()
    let run = todo("list", "+OVERDUEX")
    #expect(run.stdout == "No matching tasks.\n")
    #expect(
      run.errorLines.first == "todo: warning: +OVERDUEX is not a virtual tag, so it was looked for as a tag of that name; did you mean +OVERDUE?")
    #expect(todo("list", "+URGENT").stderr == "")
  }

  @Test func regularExpressionsReadCharactersNotBytes() throws {
    let todo = try TodoSandbox()
    todo.add("Café crème", "project:Épicerie")
    todo.add("Cafés")
    #expect(todo.ids("/^Caf. crème$/") == [1])
    #expect(todo.ids("-c", "search.case.sensitive=off", "/^CAFÉ/") == [1, 2])
    #expect(todo.ids("project.is:épicerie") == [1])
    #expect(todo.ids("description.word:Caf") == [])
    #expect(todo.ids("description.word:Cafés") == [2])
  }

  @Test func moreFilterFormsMayComeFirst() throws {
    let todo = try errands()
    #expect(todo("/ren+t/", "list", "--json").stdout == todo("list", "/ren+t/", "--json").stdout)
    #expect(try todo("limit:2", "list", "--json").jsonArray().count == 2)
    #expect(try todo("/ren+t/", "--json").jsonArray().count == 2)
    // One of Taskwarrior's command words that is not ours, where a command stands, is refused
    // with what to run instead; after --, it is a word to search for.
    #expect(todo("+errand", "news").errorLines.first == "todo: error: unknown command 'news'")
    #expect(todo("+errand", "--", "news").stdout == "No matching tasks.\n")
    #expect(todo("+errand", "news", "today").stdout == "No matching tasks.\n")
  }

  @Test func taskwarriorsAttributesInAChange() throws {
    let todo = try errands()
    #expect(todo("1", "modify", "description:Get", "oat", "milk").stdout.hasPrefix("Updated task 1: Get oat milk"))
    #expect(todo("1", "modify", "tags:a,b").stdout.hasPrefix("Updated task 1: Get oat milk  +a +b +errand"))
    let before = todo.snapshot()
    let unclosed = todo("update", "1", "/milk/MILK")
    #expect(unclosed.status == 2)
    #expect(
      unclosed.errorLines.first
        == "todo: error: '/milk/MILK' looks like a substitution without its last '/': write /milk/MILK/ to replace the text, or put -- before it to make it the title"
    )
    #expect(todo.snapshot() == before)
  }

  @Test func theHelpersSelectWaitingTasksToo() throws {
    let todo = try errands()
    todo("update", "1", "wait:2026-12-24").expectSuccess()
    #expect(todo.ids("+errand") == [2])
    #expect(todo("+errand", "_ids").lines == ["1", "2"])
    #expect(todo("+errand", "count").stdout == "2\n")
    #expect(todo("ids", "limit:2").stdout == "1-2\n")
    #expect(todo("count", "limit:2").status == 2)
  }

  @Test func tablesShowWhatTellsTasksApart() throws {
    let todo = try TodoSandbox()
    todo.add("Buy milk", "+errand")
    todo("done", "1").expectSuccess()
    // A list of done tasks says when they were done.
    #expect(todo("list", "status:done").lines == ["ID  Status  Completed  Tags    Title", " 1  done    now        errand  Buy milk"])
    // A narrow table cuts a project in the middle: its siblings stay apart.
    todo.add("Walk the dog around the long block twice", "project:personal.health.fitness")
    todo.add("Read a good book about something", "project:personal.hobbies.reading")
    let narrow = todo.run(["list"], environment: ["COLUMNS": "34"])
    #expect(narrow.lines == ["ID  Project      Title", " 2  per…fitness  Walk the dog aro…", " 3  per…reading  Read a good book…"], "\(narrow)")
    // Tags are cut between tags, saying how many are left out: never two cells cut alike.
    let tags = try TodoSandbox()
    tags.add("Buy milk", "+errand")
    tags.add("Pick up the parcel from the post office", "+errand", "+home", "+urgent", "+weekend")
    tags.add("Fix the garden fence before winter", "+home", "+garden", "+weekend")
    let cut = tags.run(["list"], environment: ["COLUMNS": "40"])
    #expect(
      cut.lines == [
        "ID  Tags            Title", " 1  errand          Buy milk", " 2  errand home +2  Pick up the parcel…",
        " 3  garden home +1  Fix the garden fenc…",
      ], "\(cut)")
  }

  @Test func feedbackSaysWhatAChangeDidBesides() throws {
    let todo = try errands()
    // Task 5 waits for 3: completing 3 unblocks it, and says how far home has come.
    let done = todo("done", "3")
    #expect(
      done.lines == [
        "Completed task 3: Pay the rent  project:home pri:H due:2026-11-30 status:done", "Unblocked task 5 'Read'.",
        "Project home is 33% complete (2 of 3 tasks remaining).",
      ], "\(done)")
    // A wait date cleared or moved into the past takes the task out of waiting, and says so.
    todo("update", "1", "wait:2030-01-01").expectSuccess()
    #expect(todo("update", "1", "wait:").lines == ["Updated task 1: Buy milk  +errand", "Task 1 'Buy milk' is no longer waiting."])
    todo("update", "1", "wait:2030-01-01").expectSuccess()
    #expect(todo("update", "1", "wait:yesterday").lines.last == "Task 1 'Buy milk' is no longer waiting.")
    // A task that was not waiting says nothing; verbose turns each note off.
    #expect(todo("update", "1", "wait:").lines == ["Updated task 1: Buy milk  +errand"])
    todo("update", "2", "wait:2030-01-01").expectSuccess()
    #expect(todo("-c", "verbose=project", "update", "2", "wait:").lines == ["Updated task 2: Call Bob  +errand project:home"])
  }

  @Test func taskwarriorsStatusNames() throws {
    let todo = try errands()
    todo("done", "1").expectSuccess()
    todo("update", "2", "wait:2026-12-24").expectSuccess()
    #expect(todo.ids("status:completed") == [1])
    #expect(todo.ids("status:waiting") == [2])
  }

  @Test func reportsWeDoNotHaveSayWhereTheyAre() throws {
    let todo = try errands()
    // Taskwarrior's reports are ours now (EndToEndChartTests); what is left says so.
    #expect(todo("burndown.daily").status == 0)
    let news = todo("news")
    #expect(news.status == 2)
    #expect(news.errorLines.last == "todo: hint: todo has no 'news' command yet; 'todo help' lists the commands")
    #expect(todo("long").errorLines.last == "todo: hint: did you mean 'list'?")
    #expect(todo("+errand", "complete").errorLines == ["todo: error: unknown command 'complete'", "todo: hint: did you mean 'done'?"])
  }

  // MARK: side by side with Taskwarrior

  /// The real `task`, beside this sandbox, with Taskwarrior's default case-sensitive search.
  private func taskwarrior(_ todo: TodoSandbox, _ arguments: String) -> TodoRun {
    todo.taskwarrior("tw", arguments, rc: ["search.case.sensitive=yes"])
  }

  @Test func theSameFiltersSelectTheSameTasksAsTaskwarrior() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try TodoSandbox()
    for command in [
      "add Buy milk +errand", "add Call Bob +errand project:home", "add Pay the rent project:home priority:H due:2030-01-15",
      "add rent car project:home.car priority:L", "add Read depends:3", "add Water plants +home due:2020-01-01",
      "add Write the report project:work priority:M", "1 annotate at the corner shop",
    ] {
      taskwarrior(todo, command).expectSuccess()
    }
    let file = todo.folder.appendingPathComponent("tw.json").path
    try taskwarrior(todo, "export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
    todo("import", file).expectSuccess()
    let filters = [
      "+errand", "-errand", "project:home", "project.not:home", "project.is:home", "project.has:car", "priority:H",
      "description.has:rent", "description.contains:corner", "description.startswith:Pay", "description.left:rent",
      "description.endswith:rent", "description.right:report", "description.word:the", "description.noword:the",
      "description:rent", "/ren+t/", "/^[A-Z]/", "+ANNOTATED", "+BLOCKED", "+UNBLOCKED", "+BLOCKING", "+OVERDUE",
      "+PROJECT", "+TAGGED", "+PRIORITY", "tags.has:errand", "tags.hasnt:errand", "tags:errand", "due.before:2030-01-20",
      "due.after:2029-12-31", "due.any:", "due.none:", "entry.before:2099-01-01", "entry.after:2000-01-01", "depends.any:", "+errand or +home",
      "( project:home or +errand ) -BLOCKED",
    ]
    var differences: [String] = []
    for filter in filters {
      let quoted = filter.split(separator: " ").map { "'\($0)'" }.joined(separator: " ")
      let theirs = Set(taskwarrior(todo, "status:pending \(quoted) _uuids").lines.filter { !$0.isEmpty })
      let ours = Set(todo.run(["_uuids"] + filter.split(separator: " ").map(String.init)).lines.filter { !$0.isEmpty })
      if theirs != ours || theirs.isEmpty && filter != "+OVERDUE" && !filter.hasPrefix("due.none") {
        differences.append("\(filter): task \(theirs.count), todo \(ours.count)")
      }
    }
    #expect(differences.isEmpty, "\(differences)")
    // The same numbers from count and ids.
    #expect(taskwarrior(todo, "status:pending +errand count").stdout == todo("+errand", "count").stdout)
  }

  @Test func urgencyWithUserAttributesAndStartFiltersSelectWhatTaskwarriorSelects() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try TodoSandbox()
    let rc = ["uda.client.type=string", "urgency.uda.client.coefficient=3", "urgency.uda.client.acme.coefficient=4"]
    for command in [
      "add Alpha client:acme priority:H", "add Beta client:globex due:2030-01-15", "add Gamma +home", "add Delta project:work",
      "2 start",
    ] {
      todo.taskwarrior("tw", command, rc: rc).expectSuccess()
    }
    let file = todo.folder.appendingPathComponent("tw.json").path
    try todo.taskwarrior("tw", "export", rc: rc).stdout.write(toFile: file, atomically: true, encoding: .utf8)
    for setting in rc {
      let parts = setting.split(separator: "=").map(String.init)
      todo("config", "set", parts[0], parts[1]).expectSuccess()
    }
    todo("import", file).expectSuccess()
    // Alpha 6 + 3 + 4, Beta 2.4 + 3 + 4 (started), Gamma 0.8, Delta 1 (and a trace of age).
    let why = todo("why", "1").lines
    #expect(why.contains { $0.hasPrefix("uda.client ") && $0.hasSuffix("+3") }, "\(why)")
    #expect(why.contains { $0.hasPrefix("uda.client.acme ") && $0.hasSuffix("+4") }, "\(why)")
    var differences: [String] = []
    for filter in [
      "urgency.over:5", "urgency.under:2", "urgency.above:10", "urgency.below:9.5", "start.any:", "start.none:",
      "start.before:2099-01-01", "start.after:2000-01-01", "urgency.over:5 start.none:",
    ] {
      let theirs = Set(todo.taskwarrior("tw", "status:pending \(filter) _uuids", rc: rc).lines.filter { !$0.isEmpty })
      let ours = Set(todo.run(["_uuids"] + filter.split(separator: " ").map(String.init)).lines.filter { !$0.isEmpty })
      if theirs != ours || theirs.isEmpty { differences.append("\(filter): task \(theirs.count), todo \(ours.count)") }
    }
    #expect(differences.isEmpty, "\(differences)")
    // Ranked the same way: next puts the attribute's tasks first.
    #expect(todo.ids(report: "next") == [1, 2, 4, 3])
    // Not a number, or a modifier urgency does not take: an error naming it.
    #expect(
      todo("list", "urgency.over:high").errorLines.first
        == "todo: error: bad value 'high' for urgency.over: give a number, like urgency.over:5 (word 2)")
    #expect(
      todo("list", "urgency.abve:3").errorLines.first
        == "todo: error: filter: unknown attribute 'urgency.abve' at word 2; did you mean 'urgency.above:'?")
    // A change by urgency changes what the list shows.
    #expect(todo("done", "urgency.over:10").lines.first == "Completed task 1: Alpha  pri:H client:acme status:done")
  }
}
