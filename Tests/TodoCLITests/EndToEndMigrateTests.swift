import Foundation
import Testing

/// `todo migrate taskwarrior` (issue 31, item 7): a Taskwarrior user's taskrc and tasks, moved
/// over by one command that says line by line what it did and did not, that --dry-run shows
/// first, and that can run again later.
@Suite struct EndToEndMigrateTests {
  static let taskrc = """
    # a user's taskrc
    include /usr/share/taskwarrior/dark-256.theme
    weekstart=Sunday
    dateformat=D.M.Y
    default.command=next
    confirmation=off
    uda.client.type=string
    uda.client.label=Client
    uda.estimate.type=duration
    uda.priority.values=H,M,,L
    urgency.user.tag.errand.coefficient=5.0
    urgency.uda.priority.H.coefficient=8.0
    urgency.annotations.coefficient=1.5
    context.work=project:work or +work
    context.home.read=+home
    report.mine.description=My tasks
    report.mine.columns=id,start.age,priority,project,description.count,due.relative,client,urgency
    report.mine.labels=ID,Active,P,Project,Description,Due,Client,Urg
    report.mine.sort=urgency-,due+
    report.mine.filter=status:pending
    color.active=rgb555 on rgb410
    urgency.uda.client.acme.coefficient=2.5

    """

  @Test func settingsAndTasksComeOverLineByLine() throws {
    try #require(TodoSandbox.hasTool("task"), "make test installs taskwarrior")
    let todo = try TodoSandbox()
    let home = todo.folder.appendingPathComponent("tw").path
    try FileManager.default.createDirectory(atPath: home + "/data", withIntermediateDirectories: true)
    let rc = home + "/taskrc"
    try ("data.location=\(home)/data\n" + Self.taskrc).write(toFile: rc, atomically: true, encoding: .utf8)
    for command in ["add Pay the plumber project:work client:acme estimate:PT1H", "add Buy stamps +errand due:2030-01-02"] {
      todo.shell("TASKRC=\(rc) task rc.verbose=nothing rc.confirmation=off \(command)").expectSuccess()
    }
    let environment: [String: String?] = ["TASKRC": rc]
    // A dry run shows everything and changes nothing.
    let dry = todo.run(["migrate", "taskwarrior", "--dry-run"], environment: environment)
    dry.expectSuccess()
    #expect(dry.lines.contains("  line 4: weekstart=Sunday") && dry.lines.contains("    Would set week.start = sunday"), "\(dry)")
    #expect(dry.lines.contains("    Would set date.format = %d.%m.%Y"))
    #expect(dry.lines.contains("    Would set urgency.priority.H = 8.0") && dry.lines.contains("    Would set urgency.notes = 1.5"))
    #expect(dry.lines.contains("    Would set context.home = +home"))
    #expect(dry.lines.contains("    Would set urgency.uda.client.acme.coefficient = 2.5"), "\(dry)")
    #expect(dry.lines.contains("    Would set report.mine.columns = id,active,priority,project,title,due,client,urgency"), "\(dry)")
    #expect(dry.lines.contains("    Would set report.mine.labels = ID,Active,P,Project,Description,Due,Client,Urg"))
    #expect(
      dry.lines.contains("    Would set report.mine.sort = urgency") && dry.lines.contains("    not moved: urgency ranks alone here; due left out"))
    #expect(dry.lines.contains("  line 3: include /usr/share/taskwarrior/dark-256.theme"))
    #expect(dry.lines.contains("  line 22: color.active=rgb555 on rgb410") && dry.lines.contains("    not moved: todo has no setting for it"))
    #expect(dry.lines.last == "Would import 2 tasks from task export (taskwarrior): 2 added, 0 updated, 0 unchanged, 0 skipped; nothing was changed.")
    #expect(todo("config", "get", "week.start").stdout == "monday\n")
    #expect(todo.ids("status:all") == [])

    let run = todo.run(["migrate", "taskwarrior"], environment: environment)
    run.expectSuccess()
    #expect(run.lines.contains("    Set uda.client.type = string") && run.lines.last?.hasPrefix("Imported 2 tasks") == true, "\(run)")
    #expect(todo("config", "get", "week.start").stdout == "sunday\n")
    #expect(todo("config", "get", "default.command").stdout == "next\n")
    #expect(todo.ids("client:acme") == [1] && todo.ids("estimate.over:30min") == [1])
    #expect(todo.ids(report: "mine").sorted() == [1, 2])
    let mine = todo("mine")
    #expect(mine.lines.first?.contains("Client") == true && mine.lines.contains { $0.contains("acme") }, "\(mine)")
    // Again later: what changed in Taskwarrior comes over, nothing twice.
    todo.shell("TASKRC=\(rc) task rc.verbose=nothing rc.confirmation=off add Third one").expectSuccess()
    let again = todo.run(["migrate", "taskwarrior"], environment: environment)
    #expect(again.lines.last == "Imported 3 tasks from task export (taskwarrior): 1 added, 0 updated, 2 unchanged, 0 skipped.", "\(again)")

    // From an export file, with no taskrc: only the tasks.
    let other = try TodoSandbox()
    let file = other.folder.appendingPathComponent("tw.json").path
    try todo.shell("TASKRC=\(rc) task export").stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let fromFile = other.run(["migrate", "taskwarrior", "--from", file], environment: ["TASKRC": other.folder.appendingPathComponent("none").path])
    #expect(fromFile.status == 0 && fromFile.lines.last?.hasPrefix("Imported 3 tasks from \(file)") == true, "\(fromFile)")
  }

  @Test func mistakesAreErrorsThatChangeNothing() throws {
    let todo = try TodoSandbox()
    for (arguments, complaint) in [
      (["migrate"], "migrate moves over from taskwarrior: todo migrate taskwarrior"),
      (["migrate", "taskwarior"], "(did you mean 'taskwarrior'?)"),
      (["migrate", "todotxt"], "todo.txt and iCalendar files are read by todo import"),
      (["migrate", "taskwarrior", "--taskrc", "/nonexistent/taskrc"], "cannot read /nonexistent/taskrc: there is no such file"),
      (["migrate", "taskwarrior", "--json"], "migrate reports to people"),
    ] {
      let run = todo.run(arguments, environment: ["TASKRC": "/nonexistent/rc", "PATH": "/nonexistent"])
      #expect(run.status != 0 && run.stderr.contains(complaint), "\(arguments): \(run)")
    }
    let noTask = todo.run(["migrate", "taskwarrior"], environment: ["TASKRC": "/nonexistent/rc", "PATH": "/nonexistent"])
    #expect(noTask.stderr.contains("cannot find Taskwarrior's 'task' on PATH to run 'task export'; give its output with --from FILE"), "\(noTask)")
    #expect(todo.ids("status:all") == [])
  }
}
