/// The text of `todo help` and `todo help TOPIC`.
enum Help {
  static let overview = """
    todo: a command-line todo manager

    Usage: todo [global options] <command> [arguments]
           todo [filter]                 with no command: the pending list

    Commands:
      add WORDS… [attributes]        create a task; prints its id
      list, ls [filter]              list tasks (pending unless the filter says otherwise)
      show ID                        one task: every field and its notes
      update, edit ID… [WORDS…] [attributes]
                                     change the title and attributes of tasks
      done ID…|FILTER                mark tasks done
      reopen ID…|FILTER              mark done or deleted tasks pending again
      delete, rm ID…|FILTER          delete tasks ('todo undo' brings them back)
      note ID TEXT…                  add a timestamped note to a task
      undo                           revert the last command (all tasks it changed)
      history [--limit N]            list the undo journal, newest first
      tags, projects, stats          summaries with counts
      date EXPR…                     show how a date expression is read
      shell                          interactive shell with line editing and completion
      help [COMMAND|TOPIC]           this text, or help on a command; topics: dates, filters, attributes, output

    Global options (anywhere before --):
      --db PATH             the database (else $TODO_DB, else $XDG_DATA_HOME/todo/todo.db,
                            else ~/.local/share/todo/todo.db)
      --json                JSON output: an array for lists, an object for one task
      --jsonl               JSON Lines: one object per line
      --color WHEN          auto (default: colour on a terminal unless NO_COLOR is set), always, never
      -h, --help            help; 'todo COMMAND --help' for one command
      --version             the version

    Attributes (add, update):  +tag  -tag  project:NAME  pri:H|M|L  due:DATE
      or in GNU form:          --tag TAG  --project NAME  --priority H|M|L  --due DATE  --note TEXT
    Filters (list, done, reopen, delete):
      ID  3-7  1,4  UUID-PREFIX  +tag  -tag  project:NAME  pri:H  status:pending|done|deleted|all
      due.before:DATE  due.after:DATE  overdue  WORDS (case-insensitive, in titles and notes)

    Examples:
      todo add Buy milk +home due:tomorrow
      todo add "Pay rent" project:home pri:H due:eom
      todo list +home
      todo done 3
      todo undo
      todo list --json | jq '.[].title'

    Exit status: 0 success, 1 failure at run time (not found, database error, nothing to undo),
    2 usage error (unknown command or option, bad value, unreadable date).
    See also: man todo
    """

  static let topics: [String: String] = [
    "add": """
      Usage: todo add WORDS… [attributes]

      Create a task. Words that are not attributes form the title, verbatim ("re: rent" stays).
      Prints the new task's id and everything stored; with --json, the task object.

      Attributes:
        +TAG, --tag TAG            add a tag (one word)
        project:NAME, --project NAME
                                   the project; dotted names nest (work.q4 is inside work)
        pri:H|M|L, --priority H|M|L
                                   priority high, medium or low
        due:DATE, --due DATE       the due date (see 'todo help dates')
        --note TEXT                a first note
        --                         every word after it is title text

      Examples:
        todo add Buy milk +home +errand
        todo add Ship release project:work.q4 pri:H due:friday
        todo add -- -5 degrees: buy a coat
      """,
    "list": """
      Usage: todo list [filter] [--sort KEYS] [--limit N]    (alias: ls; also plain 'todo [filter]')

      List tasks: pending ones unless the filter names a status or ids.
      A table on a terminal (id, priority, due, project, tags, title), fitted to its width;
      --json prints an array of task objects, --jsonl one object per line.

      Filter terms (all must match; several project: or pri: terms match any of them):
        ID, 3-7, 1,4, UUID-PREFIX   those tasks (any status)
        +TAG / -TAG                 with / without a tag (also --tag TAG)
        project:NAME                in a project or its sub-projects; project: alone, no project
        pri:H  pri:H,M  pri:        priority; pri: alone, no priority
        status:pending|done|deleted|all
        due.before:DATE  due.after:DATE  overdue
        WORDS                       case-insensitive match in title and notes (ASCII letters fold)
      --sort KEYS   comma-separated: id, due, priority, project, title, status, created, modified,
                    completed; a leading - sorts descending (default: due,-priority,id)
      --limit N     at most N tasks

      Examples:
        todo list +home project:work
        todo list status:done --sort -completed --limit 10
        todo list overdue --json
      """,
    "show": """
      Usage: todo show ID

      One task with every field and its notes. ID may be an id or a UUID prefix (8+ hex digits).

      Example:
        todo show 3
        todo show 3 --json
      """,
    "update": """
      Usage: todo update ID… [WORDS…] [attributes]     (alias: edit)
             todo update --where "FILTER" [attributes]

      Change tasks. Leading ids (3, 3-7, 1,4, UUID prefixes) name the tasks; words after them
      replace the title; attributes change fields:
        +TAG / -TAG                add / remove a tag
        project:NAME, project:     set / clear the project
        pri:H|M|L, pri:            set / clear the priority
        due:DATE, due:             set / clear the due date
        --title TEXT               the new title as one argument
        --note TEXT                append a note
        --where FILTER             change every task the filter selects (one undo step)
      Prints each changed task as stored.

      Examples:
        todo update 3 pri:H due:friday
        todo update 3 Call the bank -errand
        todo update 1-4 +q4
        todo update --where "+home overdue" due:tomorrow
      """,
    "done": """
      Usage: todo done ID…|FILTER

      Mark tasks done (their completed time is now). Bulk forms are one undo step.

      Examples:
        todo done 3
        todo done 3-7 9
        todo done +errand project:home
      """,
    "reopen": """
      Usage: todo reopen ID…|FILTER

      Mark done or deleted tasks pending again.

      Example:
        todo reopen 3
      """,
    "delete": """
      Usage: todo delete ID…|FILTER     (alias: rm)

      Delete tasks. They keep their ids (never reused) and stay in the journal, so 'todo undo'
      (or 'todo reopen ID') brings them back; 'todo list status:deleted' shows them.

      Example:
        todo delete 4
      """,
    "note": """
      Usage: todo note ID TEXT…

      Add a timestamped note to a task; 'todo show ID' lists its notes.

      Example:
        todo note 3 called the landlord, waiting for a reply
      """,
    "undo": """
      Usage: todo undo

      Revert the last command that changed tasks: all the tasks it changed, as one step
      (a bulk 'done 3-7' is undone at once). Run it again to go further back; 'todo history'
      lists the steps. Undoing an add removes the task (its id is not reused).
      """,
    "history": """
      Usage: todo history [--limit N]

      The undo journal, newest first: when, what each command did and the command as typed.
      """,
    "tags": """
      Usage: todo tags

      Every tag with its number of pending tasks and of all tasks (deleted ones not counted).
      """,
    "projects": """
      Usage: todo projects

      Every project with its number of pending tasks and of all tasks; a project counts its
      sub-projects' tasks too.
      """,
    "stats": """
      Usage: todo stats

      Counts: pending, done, deleted, overdue, due in the next 7 days, done in the last 7 days,
      tags, projects, undo steps, and the oldest pending task's creation time.
      """,
    "date": """
      Usage: todo date EXPR…

      Show how a date expression is read: local time, UTC, and relative to now.

      Examples:
        todo date friday
        todo date in 3 days
      """,
    "shell": """
      Usage: todo shell

      An interactive shell: type commands without the 'todo' word. Line editing and history
      (saved in $XDG_STATE_HOME/todo/history), Tab completes commands, options, +tags,
      project: names and ids; Ctrl-C cancels the line; Ctrl-D or 'exit' leaves.
      With standard input not a terminal, it runs commands line by line and exits 1 if any failed.
      """,
    "help": """
      Usage: todo help [COMMAND|TOPIC]

      Topics: dates, filters, attributes, output.
      """,
    "dates": """
      Date expressions (in the local time zone; TZ is honoured; stored as UTC):
        2026-12-01               that day at 00:00
        2026-12-01T17:00         that local time (also with :SS, or a space instead of T)
        2026-12-01T17:00Z        an exact instant (also +01:00 style offsets)
        now                      this instant
        today, tomorrow, yesterday           00:00 of that day
        monday … sunday, mon … sun           the next such day (never today), 00:00
        +3d, 3d, 2w, 1m, 1y, 12h, 30min      from now (-2d for the past); m is months
        in 3 days, in 1 week, in 2 months, in 5 hours
        eod, eow, eom, eoy       end of day, ISO week (Sunday), month, year (23:59:59)
        sod, sow, som, soy       their starts
      An unreadable date is a usage error (exit 2). 'todo date EXPR' shows how one is read.
      """,
    "filters": """
      Filters select tasks for list, done, reopen, delete and update --where:
        ID, 3-7, 1,4, UUID-PREFIX   those tasks (any status unless status: is given); an id has
                                    1 to 7 digits, 8 or more hex digits start a UUID
        +TAG / -TAG                 with / without a tag
        project:NAME                the project and its sub-projects; project: alone = none
        pri:H, pri:H,M, pri:        priority; pri: alone = none
        status:pending|done|deleted|all      (default: pending)
        due.before:DATE, due.after:DATE, overdue (due before now)
        WORDS                       case-insensitive match in title and notes
        --                          every word after it is a plain word to match
      A change (done, reopen, delete, update --where) needs ids or a term that selects tasks:
      a status alone, or an empty word, is refused rather than applied to every task.
      """,
    "attributes": """
      Attributes set fields in add and update (compact and GNU forms are the same):
        +TAG            --tag TAG            add a tag; -TAG removes it (update)
        project:NAME    --project NAME       project: clears it (update)
        pri:H|M|L       --priority H|M|L     pri: clears it (update); priority: is the same
        due:DATE        --due DATE           due: clears it (update)
                        --note TEXT          append a note
      Words that are not attributes are title text, kept verbatim; '--' makes every
      following word title text.
      """,
    "output": """
      Output:
        On a terminal: a table sized to its width; colour unless NO_COLOR is set (--color).
        --json: an array for lists, an object for show and add, the changed tasks (an array) for
        update/done/reopen/delete/note; undo prints {"undone", "tasks", "removed_ids"}.
        --jsonl: one object per line. Errors: 'todo: error: …' on stderr, or with --json a
        JSON object {"error": {"code", "message", "hint", "exit_status"}} on stderr.
        Task keys: id, uuid, title, status, priority, project, tags, due, created, modified,
        completed, notes [{created, text}]; times are RFC 3339 UTC; absent values are null.
      """,
  ]

  /// Every topic name, for completion and "did you mean".
  static var topicNames: [String] { topics.keys.sorted() }

  /// The overview or one topic (aliases resolve to their command).
  static func text(topic: String?) throws(Failure) -> String {
    guard let topic else { return overview }
    let name = CommandName.spellings[topic]?.rawValue ?? topic
    guard let text = topics[name] else {
      throw .usage(.unknownHelpTopic(topic, suggestion: closestMatch(to: topic, in: CommandName.allSpellings + topicNames)))
    }
    return text
  }
}
