/// The text of `todo help` and `todo help TOPIC`.
enum Help {
  static let overview = """
    todo: a command-line todo manager

    Usage: todo [global options] <command> [arguments]
           todo [filter]                 with no command: the pending list
           todo FILTER <command> …       filter first, as in Taskwarrior:
                                         todo 3 done, todo +home list
           todo ID                       show that task
    Taskwarrior's names work too: modify, mod (update), info (show), annotate
    (note), denotate ID TEXT; rc.KEY=VALUE is -c KEY=VALUE ('man todo').

    Commands:
      add WORDS… [attributes]        create a task; prints its id
      log WORDS… [attributes]        add a task that is already done
      duplicate ID [attributes]      a new task copied from another
      list, ls [filter]              list tasks (pending unless the filter says so)
      next [filter]                  what to do next: most urgent first
      tree [filter]                  tasks with their subtasks (also list --tree)
      waiting [filter]               list the tasks hidden until their wait date
      show ID…                       tasks with every field and their notes
      why ID                         how a task's urgency is made up
      update ID… [WORDS…] [attributes]
                                     change the title and attributes of tasks
                                     (--series: the series too)
      edit ID                        change a task in your text editor
      append, prepend ID… WORDS…     add words to the end or start of titles
      done ID…|FILTER                mark tasks done
      reopen ID…|FILTER              mark done or deleted tasks pending again
      delete, rm ID…|FILTER          delete tasks ('todo undo' brings them back)
      purge [FILTER]                 remove deleted tasks for good
      note ID TEXT…                  add a timestamped note to a task
                                     (--edit N TEXT, --remove N)
      start ID, stop [ID]            work on a task: record the time
      timesheet [filter]             time worked per task, day, week or project
      export [filter] [--format F]   write tasks as JSON, Taskwarrior or todo.txt
      import [FILE] [--format F]     read tasks from JSON, Taskwarrior or todo.txt
      migrate taskwarrior            move over from Taskwarrior: settings and tasks
      sync [--setup URL]             sync with a CalDAV server through vdirsyncer
      undo                           revert the last command (all tasks it changed)
      journal [--limit N]            list the undo journal, newest first
      tags, projects, stats          summaries with counts
      calendar [MONTHS] [filter]     month grids with the days tasks are due
      agenda [day|week|N] [filter]   each day's tasks, at their times
      burndown [daily|weekly|monthly]
                                     pending, active and done over time
      summary [filter]               projects as a tree: remaining, % done
      history, ghistory [PERIOD]     tasks added, done, deleted per period
      remind [filter] [--next]       the reminders to come (remind: sets them);
                                     --check delivers, --watch stays running,
                                     --install a timer; snooze, dismiss ID
      count, ids, uuids [filter]     the number, ids or UUIDs of tasks
      _ids _uuids _get _unique _projects _tags
                                     the same for scripts ('help count')
      config [get|set|unset KEY …]   list or change the settings
      context [NAME|none|define …]   a named filter that lists always apply
      NAME [filter]                  a report of the configuration's
      date EXPR…                     show how a date expression is read
      completions bash|zsh|fish      print a Tab-completion script for that shell
      check                          check the database file for damage
      diag                           version, commit, SQLite, schema and paths
      recover FILE                   copy what can be read of a damaged database
      shell                          interactive shell (line editing, completion)
      ui [REPORT] [FILTER]           a full-screen interface: list, details,
                                     sidebar, keys
      all, completed, active, blocked, blocking
                                     Taskwarrior's reports, built in
      unblocked, ready, newest, oldest, recurring
                                     (and a filter: todo completed +home)
      help [COMMAND|TOPIC]           this text, or help on a command; topics:
                                     dates, filters, attributes, recurrence,
                                     output, reports, hooks

    Global options (anywhere before --):
      --db PATH             the database (else $TODO_DB, else
                            ${XDG_DATA_HOME:-~/.local/share}/todo/todo.db)
      --json                JSON output: an array for lists, an object for one task
      --jsonl               JSON Lines: one object per line
      --dry-run             show what a change would do, and change nothing
      -y, --yes             answer yes to the question a large change asks
      --color WHEN          auto (colour on a terminal unless NO_COLOR is set or
                            TERM=dumb), always or never; --no-color: never
      -c, --config KEY=VALUE
                            a setting for this command only (repeatable);
                            see 'todo help config'
      --no-hooks            run no hooks (see 'todo help hooks')
      -h, --help            help; 'todo COMMAND --help' for one command
      --version             the version (--verbose: 'todo diag')
    On a terminal, a change of more than 3 tasks chosen by a filter or a range
    (or of more than 1 chosen by search words) lists them and asks first.
    Settings: ${XDG_CONFIG_HOME:-~/.config}/todo/config ('todo help config').

    Attributes (add, update):  +tag  -tag  project:NAME  pri:H|M|L  due:DATE
                               wait:DATE  scheduled:DATE  until:DATE
                               recur:RULE  parent:ID  depends:ID,…  blocks:ID,…
                               remind:due-15min,fri@9:00
      or in GNU form:          --tag TAG  --project NAME  --priority H|M|L
                               --due DATE  --wait DATE  --scheduled DATE
                               --until DATE  --note TEXT  --title TEXT
    Filters (list, done, reopen, delete, update --where):
      ID  3-7  1,4  UUID-PREFIX  +tag  -tag  project:A,B  pri:H  +OVERDUE
      status:pending|done|deleted|closed|all  due:DATE  due.by:DATE
      due.before:DATE  due.after:DATE  due.none:  title.has:TEXT  or  not  ( )
      +BLOCKED  +READY  +RECURRING  +PARENT  +CHILD  +ACTIVE
      WORDS (in titles and notes, in any case); see 'todo help filters'

    Examples:
      todo add Buy milk +home due:tomorrow
      todo add "Pay rent" project:home pri:H due:eom
      todo list +home
      todo done 3                    (or: todo 3 done)
      todo --dry-run delete +errand
      todo undo
      todo list --json | jq '.[].title'

    Exit status: 0 success; 1 failure at run time (not found, nothing to undo,
    database error, a question answered no, a bad configuration file, a hook
    that refused); 2 usage error (unknown command or option, bad value,
    unreadable date).
    See also: man todo
    """

  /// `todo help count` and the other helpers Taskwarrior's scripts call.
  static let taskwarriorHelpers = """
    Usage: todo count [FILTER]          how many tasks the filter selects
           todo ids [FILTER]            their ids, runs as ranges: 1-3 5
           todo _ids [FILTER]           their ids, one a line
           todo uuids [FILTER]          their UUIDs on one line
           todo _uuids [FILTER]         their UUIDs, one a line
           todo _get ID.ATTRIBUTE…      values on one line: todo _get 3.due
           todo _unique ATTRIBUTE [FILTER]   each value once, sorted
           todo _projects, todo _tags   the names in use, one a line

    Taskwarrior's commands of these names, for scripts written for it. The
    filter is pending tasks unless it names a status. Attributes: id, uuid,
    title (description), status, priority, project, tags, due, wait,
    scheduled, until, created (entry), modified, completed (end), parent,
    depends, recur, urgency, notes. Times are RFC 3339 UTC, an all-day date
    YYYY-MM-DD, lists are joined by commas; a task that is not there gives
    an empty value. --json gives {"count": N} or an array.
    """

  static let topics: [String: String] = [
    "add": """
    Usage: todo add WORDS… [attributes]

    Create a task. Words that are not attributes form the title, verbatim
    ("re: rent" stays). Prints the new task's id and everything stored; with
    --json, the task object.

    Attributes:
      +TAG, --tag TAG            add a tag (one word)
      project:NAME, --project NAME
                                 the project; dotted names nest (work.q4 is
                                 inside work)
      pri:H|M|L, --priority H|M|L
                                 priority high, medium or low
      due:DATE, --due DATE       the due date (see 'todo help dates'): a day
                                 (due:fri) or a time (due:fri 17:00)
      wait:DATE, --wait DATE     hidden from lists until then
      scheduled:DATE, --scheduled DATE
                                 the earliest start (+READY from then on)
      until:DATE, --until DATE   expires after it (deleted, reason expired)
                                 wait, scheduled and until may count from
                                 the due date: wait:due-3d, until:due+1w
      recur:RULE, --recur RULE   repeat ('todo help recurrence')
      parent:ID, --parent ID     make it a subtask of ID
      depends:ID,…, --depends ID,…
                                 wait for these tasks (dep: too)
      blocks:ID,…, --blocks ID,…
                                 these tasks wait for this one
      --title TEXT               the title as one argument, instead of WORDS
      --note TEXT                a note; may be repeated
      --                         every word after it is title text
    Each field may be given once. A word close to an attribute (proj:x) stays
    title text, with a warning. A due: word that is not a date is an error;
    to keep such words as title text, put -- before them.

    Examples:
      todo add Buy milk +home +errand
      todo add Ship release project:work.q4 pri:H due:friday
      todo add -- -5 degrees: buy a coat
    """,
    "list": """
    Usage: todo list [filter] [options]     (alias: ls; also plain 'todo [filter]')

    List tasks: pending ones unless the filter names a status or ids.
    A parent's title is followed by its subtasks' progress (2/5); --tree
    draws subtasks under their parents (as 'todo tree').
    A table on a terminal (id, priority, due, project, tags, title), fitted to
    its width: project and tags are cut, then left out, before the title gets
    narrow; into a pipe nothing is cut. --json prints an array of task
    objects, --jsonl one object per line.

    Filter terms (all must match; project:a,b or pri:H,M for either):
      ID, 3-7, 1,4, UUID-PREFIX   those tasks (any status)
      +TAG / -TAG                 with / without a tag
      project:NAME                in a project or its sub-projects;
                                  project: alone, no project
      pri:H  pri:H,M  pri:        priority; pri: alone, no priority
      status:pending|done|deleted|closed|all     (closed: done or deleted)
      due:DATE  due.by:DATE  due.before:DATE  due.after:DATE  due.none:
                                  and the same for wait, scheduled, until,
                                  created, modified, completed
      +OVERDUE +TODAY +WEEK +WAITING +READY …   virtual tags; -TAG negates
      or, not, ( )                see 'todo help filters'
      WORDS                       match in title and notes, in any case
    Tasks whose wait date is still ahead are hidden unless the filter asks
    about wait (+WAITING, wait.any:) or names ids; 'todo waiting' lists them.
    The active context's filter is added ('todo help context'); list is a
    report whose columns and order can be changed ('todo help reports').
    Options:
      --status S  --project NAME  --priority P  --tag TAG
                    the same as status:S  project:NAME  pri:P  +TAG
      --sort KEYS   comma-separated: id, due, priority, project, title,
                    status, created, modified, completed, wait, scheduled,
                    until; a leading - sorts descending (default:
                    due,-priority,id). Tasks without a due date come last;
                    ties break by due, then id. Sorting by completed,
                    created or modified adds that column.
      --limit N     at most N tasks (N is 1 or more)

    Examples:
      todo list +home project:work
      todo list status:done --sort -completed --limit 10
      todo list overdue --json
    """,
    "show": """
    Usage: todo show ID…     (also: todo info ID…, todo ID)

    Tasks with every field and their notes, then their History: each command
    that changed the task, as far back as the undo journal goes, and what it
    changed (priority: - → H). IDs are ids, ranges (3-7), lists (1,4) or UUID
    prefixes (8 or more hex digits). With --json: an object for one id or
    UUID prefix, an array otherwise (without the history).

    Examples:
      todo show 3
      todo show 3-5 9
      todo show 3 --json
    """,
    "update": """
    Usage: todo update ID… [WORDS…] [attributes]
           todo update --where "FILTER" [attributes]
           todo update --series ID… [attributes]   (the series too)
           todo FILTER update [attributes]    (Taskwarrior's order; also
                                               modify and mod)
           todo update ID /old/new/[g]        replace text in the title,
                                               or else in the notes

    Change tasks. Leading ids (3, 3-7, 1,4, UUID prefixes) name the tasks;
    attributes change fields:
      +TAG / -TAG                add / remove a tag
      project:NAME, project:     set / clear the project
      pri:H|M|L, pri:            set / clear the priority
      due:DATE, due:             set / clear the due date (due:due+1d
                               postpones it by a day)
    wait:DATE, scheduled:DATE, until:DATE (and wait: … to clear)
                               set the other dates; they may count from
                               each task's due date: wait:due-3d
      recur:RULE, recur:         change / stop the series (--series: its
                               template too)
      parent:ID, parent:         make it a subtask / a task of its own
      depends:ID,…, depends:-ID  wait / no longer wait for tasks (dep: too)
      blocks:ID,…, blocks:-ID    make tasks wait / no longer wait for it
    The GNU forms: --tag TAG, --project NAME, --priority P, --due DATE,
    --wait DATE, --scheduled DATE, --until DATE, --recur RULE, --parent ID,
    --depends ID,…, --blocks ID,… (an empty value clears, as key: does).
      --title TEXT               the new title as one argument
      --note TEXT                append a note (may be repeated)
      --where FILTER             change every task the filter selects
    WORDS after the ids replace the title only when exactly one task is
    named; with several ids, a range or --where they are an error (to give
    them all one title, use --title TEXT). A field given twice (pri:H
    --priority L), or a tag both added and removed (+a -a), is an error.
    Prints each changed task as stored; a change of many tasks is one undo
    step. On a terminal, more than 3 tasks chosen by --where or a range (or
    more than 1 by search words) are listed first, with a question; --yes
    answers it, --dry-run only shows the change. 'todo edit ID' changes a
    task in a text editor.

    Examples:
      todo update 3 pri:H due:friday
    todo update 3 wait:due-2d due:fri 17:00
      todo update 3 Call the bank -errand
      todo update 1-4 +q4
      todo update --where "+home overdue" due:tomorrow
      todo update --where +errand --title "Errand" --dry-run
    """,
    "done": """
    Usage: todo done ID…|FILTER
           todo done --where "FILTER"

    Mark tasks done (their completed time is now). Bulk forms are one undo
    step. A task being worked on stops. The pending instance of a series
    makes the next one (see 'todo help recurrence'). A parent with open
    subtasks is refused unless --yes, which completes them too (a terminal
    asks). A task that still waits for a pending one asks on a terminal and
    is completed with a warning elsewhere.
    On a terminal, a change of more than 3 tasks chosen by a filter or
    a range (or of more than 1 chosen by search words) lists them and asks
    "Complete 18 tasks? [y/N]"; only y or yes goes on. Ids named one by one
    never ask. --yes (-y) answers yes; --dry-run shows, changes nothing.

    Examples:
      todo done 3                    (or: todo 3 done)
      todo done 3-7 9
      todo done +errand project:home
      todo done --where "+errand project:home" --dry-run
    """,
    "reopen": """
    Usage: todo reopen ID…|FILTER
           todo reopen --where "FILTER"

    Mark done or deleted tasks pending again. A filter selects done and
    deleted tasks (status:closed) unless it names a status; ids select tasks
    of any status. On a terminal, a change of more than 3 tasks chosen by a
    filter or a range (or of more than 1 chosen by search words) lists them
    and asks first; --yes (-y) answers yes; --dry-run changes nothing.

    Examples:
      todo reopen 3
      todo reopen +errand status:done
      todo reopen --where "project:home" --yes
    """,
    "delete": """
    Usage: todo delete ID…|FILTER     (alias: rm)
           todo delete --where "FILTER"
           todo delete --series ID…

    Delete tasks. They keep their ids (never reused) and stay in the journal,
    so 'todo undo' (or 'todo reopen ID') brings them back;
    'todo list status:deleted' shows them. Subtasks and series are treated
    as by done; --series ends each task's series (its pending instance is
    deleted and none follows). On a terminal, a change of more
    than 3 tasks chosen by a filter or a range (or of more than 1 chosen by
    search words) lists them and asks "Delete 18 tasks? [y/N]"; only y or
    yes goes on. Ids named one by one never ask. --yes (-y) answers yes;
    --dry-run shows what would be deleted and changes nothing.

    Examples:
      todo delete 4                  (or: todo 4 delete)
      todo delete +chore --dry-run
      todo delete --where "project:old" --yes
    """,
    "note": """
    Usage: todo note ID TEXT…
           todo note ID --edit N TEXT…
           todo note ID --remove N
           todo annotate ID TEXT…, todo denotate ID TEXT   (Taskwarrior's:
                                denotate removes the note with that text)

    Add a timestamped note to a task; 'todo show ID' lists its notes,
    numbered from 1 (the oldest). --edit N replaces the text of note N;
    --remove N removes it. Each is one undo step. A word starting with --
    is taken for an option; put -- first to make it text.

    Examples:
      todo note 3 called the landlord, waiting for a reply
      todo note 3 --edit 1 called the landlord twice
      todo note 3 --remove 2
    """,
    "log": """
    Usage: todo log WORDS… [attributes]

    Add a task that is already done (completed now), as 'add' takes it,
    with the same attributes and options: --tag, --project, --priority,
    --due, --wait, --scheduled, --until, --recur, --parent, --depends,
    --blocks, --note, --title (see 'todo help add').

    Example:
      todo log Took out the bins +home
    """,
    "duplicate": """
    Usage: todo duplicate ID [attributes]

    A new pending task copied from another: title, priority, project, tags,
    dates, parent and dependencies, with the attributes applied to the copy.
    Notes, times worked and the series are not copied. The attributes and
    options are those of 'add': --tag, --project, --priority, --due, --wait,
    --scheduled, --until, --recur, --parent, --depends, --blocks, --note,
    --title; depends:-3 and blocks:-3 remove a link the copy got.

    Example:
      todo duplicate 4 due:fri
    """,
    "append": """
    Usage: todo append ID… WORDS…
           todo append --where "FILTER" WORDS…

    Add words at the end of the titles of tasks ('prepend' adds them at the
    start). Several tasks are one undo step and ask on a terminal like any
    bulk change.

    Example:
      todo append 3 and the spare key
    """,
    "prepend": """
    Usage: todo prepend ID… WORDS…
           todo prepend --where "FILTER" WORDS…

    Add words at the start of the titles of tasks ('append' adds them at the
    end).

    Example:
      todo prepend 3 URGENT:
    """,
    "purge": """
    Usage: todo purge [FILTER]
           todo purge --where "FILTER"

    Remove deleted tasks for good: their notes, links and times, and every
    undo step that touched them. This cannot be undone. Without a
    filter, every deleted task; ids or a filter naming a task that is not
    deleted are refused. Asks on a terminal; elsewhere needs --yes.

    Examples:
      todo purge --dry-run
      todo purge +old --yes
    """,
    "next": """
    Usage: todo next [FILTER] [--limit N]

    The pending tasks that are not waiting and not blocked, most urgent
    first (the first 10 unless --limit). --tag, --project, --priority and
    --status filter as in 'todo list'. Urgency is Taskwarrior's: each
    term's factor (0 to 1) times its coefficient, summed:
      next tag 15, due 12 (0.2 two weeks ahead … 1 a week overdue),
      blocking 8, priority H 6 / M 3.9 / L 1.8, scheduled passed 5,
      active 4, age 2 (over 365 days), notes 1, tags 1, project 1,
      blocked -5, waiting -3.
    The urgency.* settings change the coefficients, and [report.next] the
    columns, filter and limit ('todo help config', 'todo help reports');
    urgency.user.tag.T.coefficient, urgency.user.project.P.coefficient,
    urgency.uda.NAME.coefficient and urgency.uda.NAME.VALUE.coefficient
    add terms of your own. urgency.over:N selects by urgency.
    'todo why ID' shows the terms of one task. --json adds "urgency".
    """,
    "why": """
    Usage: todo why ID

    Each term of a task's urgency: why it applies, its factor (0 to 1), its
    coefficient and what it adds, and the total (see 'todo help next').
    """,
    "tree": """
    Usage: todo tree [FILTER] [--sort KEYS] [--limit N]
           todo list --tree [FILTER]

    --tag TAG, --project NAME, --priority P and --status S filter as in
    'todo list'.

    The selected tasks with their subtasks drawn under them; a parent shows
    how many of its subtasks are done (2/5), a done task ✓, a deleted one ✗.
    A selected subtask whose parent is not selected starts its own tree.
    Make a subtask with parent:ID (or --parent ID).

    Example:
      todo tree project:trip status:all
    """,
    "start": """
    Usage: todo start ID

    Start working on a task: an interval begins now. Other active tasks go
    on (several may be active, as in Taskwarrior); with tracking.exclusive
    = yes they stop, in the same undo step. 'todo stop' ends them; 'done' of
    an active task stops it too; +ACTIVE selects them; 'todo show ID' lists
    a task's intervals and total.
    """,
    "stop": """
    Usage: todo stop [ID]

    Stop working on every active task (or on ID only).
    """,
    "export": """
    Usage: todo export [FILTER] [--format FORMAT] [--output FILE] [--no-ids]
           todo export [FILTER] --vdir DIR

    Write tasks (every status unless the filter names one) to standard
    output (also --output -), or to FILE atomically (a temporary file, then
    renamed). A link at FILE is followed only if you or root made it; a
    FIFO, terminal or device (/dev/null) is written in place. FORMAT:
      json         our task objects in an array, with "extras" (default)
      jsonl        the same, one object a line
      taskwarrior  what 'task import' reads (dates YYYYMMDDTHHMMSSZ,
                   annotations, depends, each series as its template and
                   instances, user-defined attributes given back)
      todotxt      one line a task: (A)/(B)/(C) for H/M/L, +project,
                   @tag, due:, t: (wait), rec:, pri: on done lines,
                   uuid: (not with --no-ids); an imported line that has
                   not changed since is written back byte for byte
      ical         iCalendar VTODOs (RFC 5545) in one calendar: UID,
                   SUMMARY, DESCRIPTION (the notes), STATUS, COMPLETED,
                   PRIORITY 1/5/9 for H/M/L, DUE and DTSTART (scheduled;
                   all-day as VALUE=DATE, timed in UTC), CATEGORIES
                   (tags), RELATED-TO (PARENT, DEPENDS-ON), RRULE, and
                   X-TODO-PROJECT, -WAIT, -UNTIL, -REASON, -NOTE, -SERIES,
                   -INTERVAL for what iCalendar has no property for, and
                   X-TODO-EXTRA for other programs' fields; properties
                   another program wrote (VALARM, LOCATION, X-...) are
                   written back as they came. CRLF, folded at 75 octets.
    --vdir DIR writes one .ics file per task into DIR (the layout of
    vdirsyncer and todoman), created if missing: a task keeps the file
    it was imported from (else its UID with characters other than
    letters, digits, - _ . @ as _, then .ics), files whose content would
    not change are not rewritten, other files are left alone. Export
    every task there (no filter), or a task closed here keeps its file
    open elsewhere.
    Without --format, FILE's extension chooses (.json .jsonl .txt .ics).
    Notes, subtasks, dependencies and times do not fit in todo.txt;
    subtasks do not fit in Taskwarrior's format.

    Examples:
      todo export --output tasks.json
      todo export project:work --format taskwarrior > work.json
      todo export --format jsonl | jq -c 'select(.priority == "H")'
      todo export --vdir ~/.local/share/todo/vdir/tasks
    """,
    "import": """
    Usage: todo import [FILE|-] [--format FORMAT] [--strict] [--dry-run]
           todo import --vdir DIR [--strict] [--dry-run]

    Read tasks from FILE (standard input for - or none): the formats of
    'todo help export'. Without --format, the extension and then the
    content choose (Taskwarrior JSON has "description", ours "title").
    --vdir DIR reads every .ics file in DIR, each task remembering its
    file. iCalendar: PRIORITY 1-4 is H, 5 M, 6-9 L, 0 none; a UID that is
    not a UUID is kept (the task's UUID is derived from it); TZID= and
    floating times are read; CANCELLED is deleted; text added to a
    DESCRIPTION elsewhere becomes a new note; categories that cannot be
    tags (a space in them) are kept and written back.
    One transaction and one undo step. A task whose UUID is known is
    updated when the incoming copy is newer (modified) and different,
    else counted unchanged or skipped; todo.txt lines, which carry no
    times, update when they differ. Parents and dependencies are linked
    by UUID. A record that cannot be read or stored (a bad date, an
    unknown status, an empty title, a line that is not UTF-8) costs that
    record: it is left out with a warning naming its line, and the rest is
    imported ('2 left out: see above'); a vdir item that does not read costs
    that item. --strict refuses the whole input at the first one instead.
    An input of which nothing reads, or JSON that does not parse, fails
    with its line, exit 1, and nothing written. A VTODO without SUMMARY
    takes its description's first line as its title (or "(untitled)");
    Taskwarrior's "Home Office" is Home_Office here and goes back as it
    came, and its own priorities (A, B, C) are kept. More than 3 tasks
    added or updated ask first on a terminal (--yes answers).

    Examples:
      task export > tw.json && todo import tw.json
      todo import ~/todo.txt --dry-run
      todo import --vdir ~/.local/share/todo/vdir/tasks
    """,
    "migrate": """
    Usage: todo migrate taskwarrior [--taskrc FILE] [--from FILE] [--dry-run]

    Moves a Taskwarrior user over in one command: the settings of the
    taskrc (--taskrc, else $TASKRC, else ~/.taskrc) become todo's, and the
    tasks 'task export' prints (or the export file --from names) are
    imported, as todo import would. It prints, line by line, what each
    setting became and what it could not move, and why. Moved: weekstart,
    dateformat (days only), default.command, color, context.NAME (and 2.6's
    context.NAME.read), context, report.NAME.description, columns (those
    todo has), labels, sort, filter, uda.NAME.type, label, values and
    default, urgency coefficients (urgency.due.coefficient is urgency.due,
    urgency.uda.priority.H.coefficient urgency.priority.H,
    urgency.user.tag/project, urgency.uda.NAME), search.case.sensitive and
    verbose. Not
    moved: themes and colours, include lines, data.location, confirmation,
    uda.priority.values and what todo has no setting for. --dry-run shows
    it all and changes nothing. Running it again later brings over what
    changed in Taskwarrior (settings are set again; the import updates
    newer tasks and adds new ones).

    Examples:
      todo migrate taskwarrior --dry-run
      todo migrate taskwarrior
      todo migrate taskwarrior --taskrc ~/.config/task/taskrc --from tw.json
    """,
    "sync": """
    Usage: todo sync [--force] [--offline]
           todo sync --setup URL [--user NAME] [--password-command CMD]
                     [--collection NAME] [--force]
           todo sync --status | --conflicts
           todo sync --resolve A B | --ask-password QUESTION

    Syncs the tasks with a CalDAV collection (Radicale, Nextcloud,
    Fastmail, Baikal...) through vdirsyncer, so they show in phone and
    desktop task apps and on other machines. todo keeps a vdir (one .ics
    file per task) in ${XDG_DATA_HOME:-~/.local/share}/todo/vdir/NAME/:
    todo sync runs 'vdirsyncer sync', merges the vdir into the database,
    writes the tasks changed here back to it, and runs vdirsyncer again.
    It takes no --dry-run (a server cannot take a change back): --status
    shows what a sync would send and receive, and changes nothing.
    vdirsyncer never runs while the database is locked.
    The merge is per field, against the copy of the last sync: a field
    changed on one side takes that side; changed on both, the later change
    wins and the other is recorded (--conflicts lists them). Tags,
    dependencies and notes merge as sets. An edit beats a delete. A file
    deleted on the server deletes its task here; a task deleted here is
    sent as CANCELLED. A sync that would delete more than half of the
    synced tasks on either side, or that finds either side emptied, stops
    unless --force. What todo does not model (alarms, other apps' X-
    properties) is kept and sent back. The
    sync's changes here are one undo step; undoing a synced change is sent
    as a change by the next sync. Integer ids never leave this machine.
      --setup URL              write vdirsyncer's configuration for the
                               collection at URL (in ${XDG_CONFIG_HOME:-
                               ~/.config}/todo/vdirsyncer/config) and run
                               its discovery; --force replaces one
      --user NAME              the account's user name
      --password-command CMD   a command that prints the password (run by
                               vdirsyncer through sh -c; the password is
                               never stored by todo); without it todo asks
                               on the terminal, once a sync
      --collection NAME        the vdir's name (default: the URL's last part)
      --status                 tasks changed here and files changed in the
                               vdir since the last sync (no network), and
                               whether it would need --force
      --conflicts              fields both sides changed, and what was kept
      --offline                merge the vdir without running vdirsyncer (for
                               when you run vdirsyncer yourself)
      --resolve A B            the command vdirsyncer runs when an item
                               changed on both sides: writes the merged item
                               into both files
      --ask-password QUESTION  the command vdirsyncer runs for the password

    Examples:
      todo sync --setup https://dav.example.org/alice/tasks/ --user alice \\
        --password-command 'pass show dav'
      todo sync
      todo sync --conflicts --json | jq '.[].field'
    """,
    "timesheet": """
    Usage: todo timesheet [FILTER] [--since DATE] [--until DATE]
                          [--by task|day|week|project]

    Time worked, totalled per task (the default), local day, week (from
    Monday) or project, with a total. An interval across midnight counts on
    both days; one still running counts until now. The filter selects tasks
    of any status unless it names one; --since and --until cut the
    intervals to that period (an all-day --until includes its day).

    Examples:
      todo timesheet --since mon --by day
      todo timesheet project:work --since som --json
    """,
    "recurrence": """
    recur:RULE on a task with a due or scheduled date makes it a series
    with one pending instance. RULE: daily, weekly, biweekly, monthly,
    quarterly, yearly, weekdays, or a number and unit (4d, 2w, 3mo, 1y).
      On a schedule (default): the next dates follow the series' dates
      (monthly from the 31st: the last day of shorter months); dates
      already past are skipped, never created.
      After completion (+ in front, recur:+1w): the next dates count from
      the day the previous instance was completed.
    Completing or deleting the latest instance creates the next one, with
    the template's title, priority, project and tags and its dates moved
    together (wait and scheduled keep their distance from due). Instance N
    has a UUID derived from the series' UUID and N: two completions of one
    instance can never make two. until: ends the series.
      update ID …            changes that instance only
      update --series ID …   changes the series (its template) too
      delete --series ID     ends the series
      update ID recur:       stops it; recur:RULE on an instance changes it
      undo (after done)      removes the instance the done created
    'todo show ID' prints the rule and the next dates; +RECURRING selects
    the instances of series that go on.
    """,
    "undo": """
    Usage: todo undo

    Revert the last command that changed tasks: all the tasks it changed, as
    one step (a bulk 'done 3-7' is undone at once). Run it again to go
    further back; 'todo journal' lists the steps. Undoing an add removes the
    task (its id is not reused). 'todo --dry-run undo' shows what it would do.
    """,
    "journal": """
    Usage: todo journal [--limit N]

    The undo journal, newest first: when, what each command did and the
    command as typed. --limit N (1 or more) shows the newest N. It was
    'todo history' before; that name is now Taskwarrior's report.
    """,
    "calendar": """
    Usage: todo calendar [MONTHS] [FILTER] [--details]

    Month grids from this month on, as many beside each other as the width
    holds (MONTHS: 1 to 24; without it, the months of one row, at most 3).
    Weeks start on week.start; calendar.weeknumbers=on adds ISO week numbers.
    A day with pending tasks carries a mark: ! overdue, * due, ~ scheduled
    (in colour too: color.overdue, color.today, color.scheduled); today is
    drawn in color.calendar.today, or marked < without colour. --details
    lists the tasks under the grid; --json gives the days and their ids.
    The filter narrows the tasks (pending ones; the context applies).

    Examples:
      todo calendar 6
      todo calendar project:work --details
    """,
    "agenda": """
    Usage: todo agenda [day|week|N [days|weeks]] [FILTER] [--ascii]

    One timeline from today, for a day, a week (the default), N days or N
    weeks (up to 92 days): first what is overdue from before (the 10 most
    recent, and how many more), then each day with its all-day due and
    scheduled tasks at the top and timed ones at their time, the free time
    between timed ones (an hour or more), active tasks marked and today's
    time worked. --json gives all of it as data.

    Examples:
      todo agenda day
      todo agenda 14 days +work
    """,
    "burndown": """
    Usage: todo burndown [daily|weekly|monthly] [FILTER] [--ascii]

    A stacked bar for each day, week (the default) or month up to now, as
    many as the width holds: the tasks done, active and pending at its end
    (color.chart.done, .active, .pending; without colour, shades). Under
    it, the tasks added and done per period and, at those rates, when the
    pending ones would all be done. The filter selects tasks of any status;
    a deleted task counts as pending until it was deleted. --ascii (or
    TERM=dumb) draws with ASCII characters: X done, > active, + pending.
    Taskwarrior's burndown.daily, .weekly and .monthly work too.
    """,
    "summary": """
    Usage: todo summary [FILTER] [--ascii]

    Every project with pending tasks, as a tree (a project counts its
    sub-projects' tasks): remaining tasks, their average age, the percent
    done (of pending and done tasks; deleted ones are not counted) and a
    bar. Tasks without a project are "(none)".
    """,
    "history": """
    Usage: todo history [daily|weekly|monthly|annual] [FILTER]
           todo ghistory [daily|weekly|monthly|annual] [FILTER] [--ascii]

    The tasks added, completed and deleted in each period (monthly unless
    named; day, week, month and year say the same) that saw any, with the
    net change and the average; ghistory draws each period as a bar
    (color.chart.added, color.chart.done, color.chart.deleted; + X - with
    --ascii). The filter selects tasks of any status. A deleted task counts
    when it was last changed. Taskwarrior's history.monthly,
    ghistory.annual, … work too. The undo journal is 'todo journal'.
    """,
    "ghistory": """
    Usage: todo ghistory [daily|weekly|monthly|annual] [FILTER] [--ascii]

    'todo history' as a chart: see 'todo help history'.
    """,
    "remind": """
    Usage: todo remind [FILTER] [--next] [--all]
           todo remind --check | --watch
           todo remind --install [--cron] | --uninstall
           todo remind snooze ID [DURATION]
           todo remind dismiss ID…

    remind:WHEN on add and update sets a task's reminders (several: comma-
    separated, or remind: given twice; remind: alone clears them). WHEN is
    an instant ('fri 17:00', 2026-12-01T09:00, now+1h, tomorrow@9:00) or
    counts from the due or scheduled date: due-15min, scheduled-1h, due,
    due-1d@09:00 (the day before, at 9). One counting from a date follows
    it, and goes on to a series' next instance. Filters: +REMINDER,
    remind.before:DATE, remind.after:DATE, remind.by:DATE, remind.none:.

    'todo remind' lists the reminders to come (--all: delivered ones too,
    with what became of them); --next prints the first on one line, for a
    status bar. --check delivers every reminder whose time has come, once
    (recorded in the database: two checks or two machines never double
    one); one missed while the machine was off comes marked as missed,
    unless it is older than remind.missed.limit (1d): that is recorded, not
    shown. remind.quiet = 22:00-07:00 holds them until the hours end.
    --watch stays running and delivers each at its time, looking again at
    once when another process changes the database; its notifications
    carry Done and Snooze, which it does (each an undo step). --install writes a
    systemd user timer that runs --check every minute (and says how to
    start it); --cron, or no systemd, prints the crontab line instead;
    --uninstall removes what --install wrote. snooze rings the task again
    after DURATION (remind.snooze, 10min; an undo step); dismiss makes the
    due reminders (or else the next one) of tasks not ring.

    Delivery, remind.notify (comma-separated): desktop (a notification
    through notify-send or gdbus), terminal (a line on this command's
    output, and before the next prompt of a running todo shell),
    command (remind.command gets the reminder as JSON on its input,
    under the hooks' rules and time limit). Reminders are VALARMs in
    iCalendar and sync (ACKNOWLEDGED says one was delivered), and a
    remind attribute in Taskwarrior's format.

    Examples:
      todo add Call the dentist due:'fri 10:00' remind:due-1h
      todo remind --next
      todo remind --install
    """,
    "check": """
    Usage: todo check

    SQLite's integrity check of the whole database file: every page, not only
    those a command reads (a command stops at damage it meets, but damage in
    pages it does not read goes unseen). It also names the triggers and views
    the file holds, which todo never makes (a trigger runs its own SQL when
    what it watches changes). Prints what it found; exit status 1 when the
    file is damaged or holds either. It only reads the file.
    """,
    "diag": """
    Usage: todo diag             (also: todo --version --verbose)

    What a bug report needs: the version and the commit it was built from,
    the platform, the SQLite library, the database (its path, its schema
    version and this program's, how many tasks and undo steps), and the
    paths of the configuration, the hooks (how many), the sync folders and
    the shell's history. It only reads, and makes no database. Taskwarrior's
    'diagnostics' is the same.
    """,
    "recover": """
    Usage: todo recover FILE

    Copies every row that can still be read from the database (which may be
    damaged; it is only read) into a new database at FILE, which must not
    exist. Each table is read forwards until the damage, then backwards from
    its end: only rows stored in the damaged part are lost, and the report
    names the tables where that happened. Rows left pointing at lost ones
    (tags of a lost task, say) are removed. Look at the copy with
    'todo --db FILE list status:all', then put it in place of the damaged
    file. (sqlite3's .recover, where it is built in, is another way.)
    With --dry-run the copy is made in memory and only reported: nothing is
    written, not even FILE's folder.
    """,
    "count": taskwarriorHelpers,
    "ids": taskwarriorHelpers,
    "uuids": taskwarriorHelpers,
    "_ids": taskwarriorHelpers,
    "_uuids": taskwarriorHelpers,
    "_get": taskwarriorHelpers,
    "_unique": taskwarriorHelpers,
    "_projects": taskwarriorHelpers,
    "_tags": taskwarriorHelpers,
    "tags": """
    Usage: todo tags

    Every tag with its number of pending tasks and of all tasks (deleted ones
    not counted).
    """,
    "projects": """
    Usage: todo projects

    Every project with its number of pending tasks and of all tasks; a
    project counts its sub-projects' tasks too.
    """,
    "stats": """
    Usage: todo stats

    Counts: pending, done, deleted, overdue, due in the next 7 days, done in
    the last 7 days, tags, projects, undo steps, and the oldest pending task's
    creation time.
    """,
    "waiting": """
    Usage: todo waiting [filter] [options]

    List the pending tasks whose wait date is still ahead (the same as
    'todo list +WAITING'): they are hidden from every other list until then.
    Takes the filter terms and options of 'todo list': --tag TAG,
    --project NAME, --priority P, --status S, --sort KEYS, --limit N.
    """,
    "date": """
    Usage: todo date EXPR…

    Show how a date expression is read: local time, UTC, and relative to now.

    Examples:
      todo date friday
      todo date in 3 days
    """,
    "completions": """
    Usage: todo completions bash|zsh|fish

    Print a script that makes Tab complete todo's command lines in that shell:
    commands, options, attribute keys (due:, pri:, project: …), date words after
    a date key, +tags, project names, contexts, reports, configuration keys, and
    task ids with their titles. The script asks todo itself (a hidden, read-only
    'todo __complete') for what is in the database.

    Load it for this shell only, or install it for good:
      bash  source <(todo completions bash)
            todo completions bash > ~/.local/share/bash-completion/completions/todo
      zsh   source <(todo completions zsh)          (after compinit)
            todo completions zsh > DIR/_todo        (DIR: a folder on $fpath)
      fish  todo completions fish | source
            todo completions fish > ~/.config/fish/completions/todo.fish
    'make install' puts all three where each shell looks.
    """,
    "shell": """
    Usage: todo shell

    An interactive shell: type commands without the 'todo' word (a leading
    'todo' is accepted too). Line editing and history (saved in
    $XDG_STATE_HOME/todo/history; shells open at once keep each other's
    lines); Tab completes commands, options, +tags, project: names and ids;
    Ctrl-C cancels the line; Ctrl-D, 'exit' or 'quit' leaves. Lines starting
    with # are comments. Large changes ask first, as on the command line.
    With standard input not a terminal, it runs commands line by line, an
    error names its line (todo: error: line 3: …), and it exits 1 if any
    command failed. With 'todo --json shell', each command prints one JSON
    value on one line (JSON Lines).
    """,
    "ui": """
    Usage: todo ui [REPORT] [FILTER]

    A full-screen interface: a list (the report next unless another is
    named: todo ui list project:home; todo ui tree: subtasks under their
    parents), a sidebar (contexts, projects with
    counts, tags, reports) and a status line with the last command run, as
    the todo command it was (todo done 3 — Completed task 3 … · u undoes
    it). Enter shows the selected task's details (what 'todo show' says)
    beside or below the list. Every action runs the command line's own
    command, in-process: a large change asks the same question, listing
    the tasks it would change (as --dry-run does); hooks run; each is one
    undo step. What another process changes (another terminal, sync, cron)
    shows within a second, the selection staying on the same task. With
    terminal in remind.notify, a reminder whose time has come shows on the
    status line.

    Keys (the defaults):
      j Down, k Up            next, previous task
      g Home, G End           first, last task
      PgDn Ctrl-F, PgUp Ctrl-B   a page down, up
      Enter                   the selected task's details, shown or hidden
      J, K                    scroll the details down, up
      b                       the sidebar, shown or hidden
      Tab                     move between the list and the sidebar
      a                       add a task (todo add …)
      m                       change the selected task (update ID …)
      d, x                    done, delete
      s                       start or stop work on it
      n                       add a note to it
      e                       edit it in $EDITOR (the screen is suspended,
                              then restored)
      u                       undo
      /                       filter the list, live (the filter language);
                              Enter keeps it, Esc puts back the previous
      r, c                    choose a report, a context, in the sidebar
      t                       subtasks under their parents (a tree), or not
      Space                   mark a task: d, x and m then act on the
                              marked tasks, after a question showing what
                              --dry-run says (Esc clears the marks)
      :                       any todo command line (its output shown over
                              the list)
      q, Ctrl-L, ?            quit, redraw, the key list
    In a prompt: Tab completes as in 'todo shell'; Ctrl-A, Ctrl-E go to the
    start, the end; Ctrl-U cuts to the start; Esc cancels. Mouse: a click
    selects a task or a sidebar line; the wheel scrolls.

    ui.key.ACTION = KEY binds another key. Actions: down up top bottom
    page-down page-up detail detail-down detail-up sidebar focus add
    modify done delete start
    note edit undo filter report context tree mark command quit redraw
    help. Keys: a character, Space, Enter, Tab, Esc, Up, Down, Left,
    Right, PgUp, PgDn, Home, End, Ctrl-X. ui.mouse = off leaves the mouse
    to the terminal (to select text). Colour follows color, --color,
    NO_COLOR and TERM=dumb (without it, the selection is in reverse video).
    Ctrl-Z suspends (fg redraws); the terminal is restored on q, on an
    error or a crash, and on SIGINT, SIGTERM or SIGHUP. With standard
    input or output not a terminal it is an error (exit 2); there is no
    --json (scripts use 'todo list --json').

    Examples:
      todo ui
      todo ui list project:home
      todo ui tree +release
      todo config set ui.key.done D
    """,
    "config": """
    Usage: todo config [list]
           todo config get KEY
           todo config set KEY VALUE…
           todo config unset KEY

    The settings. 'todo config' (or 'config list') lists every key, its
    value and where the value comes from: default, file:LINE, env:VARIABLE
    or -c. get prints one value. set writes KEY = VALUE into the
    configuration file (the words after KEY are joined by spaces; no quotes
    needed), under the key's [section], made if needed; unset removes the
    key's line. set and unset check the whole configuration first, keep
    the file's comments and order, and write it atomically; with --dry-run
    they only check. With --json, list and get print {"key", "value",
    "default", "origin"} objects.

    The file is ${XDG_CONFIG_HOME:-~/.config}/todo/config, or the one
    TODO_CONFIG names: 'key = value' lines, [section] headers (overdue
    under [color] is color.overdue), and comment lines starting with # or ;
      # Start with what to do next.
      default.command = next

      [color]
      overdue = bold underline red

      [report.next]
      limit = 5
    A value runs to the end of its line (a # in it is part of it); "…"
    keeps spaces at its ends. A line that does not read, an unknown key or
    a bad value is an error naming the file, line and key, and no command
    but help, --version, config and context runs (they mend the file one key
    at a time). A file others may change is not read (its editor runs
    through sh). A value typed (config set, context define, -c, TODO_<KEY>)
    holds no control characters. The strongest setting wins: -c KEY=VALUE
    (any command, may be repeated), then TODO_<KEY> (upper case, . and - as
    _: TODO_WEEK_START, TODO_COLOR_PRIORITY_H; not context.NAME and report
    keys), then the file, then the default.

    Keys ('todo config' shows every default; 'man todo' explains each):
      default.command          what 'todo' alone runs (list)
      confirmation.threshold   more tasks than this, chosen by a filter,
                               ask first on a terminal (3)
      week.start               monday or sunday
      date.format              how dates are written in full: %Y-%m-%d,
                               or with %y %m %d %e %b %B %a %A %j %%
      color                    auto, always or never (--color beats it)
      color.ROLE               ROLE: overdue today priority.H priority.M
                               priority.L active done deleted project tag;
                               words: bold dim italic underline inverse,
                               red green … gray, bright-red …, on-blue …,
                               or none
      urgency.TERM             the coefficients of 'todo help next' (next
                               due blocking priority.H … waiting, age.max)
      hooks, hooks.timeout     on or off; seconds a hook may run (5, ≤ 60)
      hooks.import             import runs on-add and on-modify (off)
      hooks.sync               sync runs on-add and on-modify (off)
      import.limit             the most MiB an import reads (256)
      tracking.exclusive       start stops the other active tasks (off)
      editor                   the editor of 'todo edit'
      context, context.NAME    the active context; a context's filter
                               ('todo help context')
      report.NAME.KEY          a report ('todo help reports')
      uda.NAME.KEY             a user-defined attribute: type, label,
                               values, default ('todo help attributes')

    Examples:
      todo config set week.start sunday
      todo config set color.overdue bold underline red
      todo config get date.format
      todo config unset week.start
      todo -c color=never -c report.next.limit=3 next
      TODO_HOOKS=off todo add Quiet task
    """,
    "context": """
    Usage: todo context [show]
           todo context NAME
           todo context none
           todo context list
           todo context define NAME FILTER…
           todo context delete NAME

    A context is a named filter that, while it is active, is added to what
    list, next, waiting, tree and every report show: 'todo context work'
    and 'todo' lists only work. Other commands are not narrowed: changes by
    id or filter (done +x, update --where …), show, export, timesheet,
    tags, projects and stats see every task. add and log in a context give
    the new task the context's +tags, and its project when the filter
    names exactly one, unless the command line says otherwise. The shell's
    prompt names the active context: todo[work]>.
      define NAME FILTER…  store a filter (checked as 'todo list' reads
                           it) as context.NAME in the configuration file
      NAME                 make it the active one (the context key)
      none                 no context is active
      list                 every context, its filter, and which is active
      show                 the active context and its filter (also
                           'todo context' alone)
      delete NAME          remove one; if it was active, none is
    A name starts with a letter (letters, digits, _ and -). -c context=NAME
    (or TODO_CONTEXT=NAME) makes one active for one command; -c context=
    (empty) makes none active. --dry-run checks and writes nothing.

    Examples:
      todo context define work +work project:acme
      todo context work
      todo add Prepare the slides        (gets +work and project:acme)
      todo -c context= list
      todo context none
    """,
    "edit": """
    Usage: todo edit ID

    Change a task in a text editor. The file shows the task's fields, one
    a line (title, priority, project, tags, due, wait, scheduled, until,
    recur, parent, depends), then its notes as 'note N: TEXT' lines:
      change a value to change the field; empty it to clear the field;
      edit a 'note N:' line to change that note, delete it to remove it;
      add 'note: TEXT' lines for new notes ('\\n' is a line break).
    Values are read as 'todo update' reads them (dates as in
    'todo help dates'), and the saved changes are one update: one undo
    step. Lines starting with # are left out.
    The editor is the editor setting ('todo help config'), else $VISUAL,
    else $EDITOR, else vi; it runs through sh -c, as git runs it, with the
    file as its argument (so editor = code --wait works). The file is
    private (mode 0600), in $TMPDIR or /tmp, and removed afterwards.
    A value that does not read opens the editor again with '# ERROR: …' at
    the top; saving that unchanged gives up (exit 2). Saving the file
    unchanged or empty changes nothing; an editor that exits with an error
    changes nothing (exit 1); a task another command changed meanwhile is
    not changed (run 'todo edit ID' again). --dry-run shows the change and
    writes nothing.

    Examples:
      todo edit 3
      EDITOR=nano todo edit 3
      todo -c 'editor=code --wait' edit 3
    """,
    "reports": """
    A report is a named list, defined in the configuration file ('todo help
    config') by a [report.NAME] section, and run with 'todo NAME [FILTER]'.
    Its keys:
      columns      comma-separated, from: id uuid status priority due wait
                   (the date) remaining (until wait) scheduled until project
                   tags title urgency age progress active notes created
                   modified completed, and the name of each user-defined
                   attribute (uda.NAME.type); id or uuid must be one of them
                   (default: those of list)
      labels       the column headings, comma-separated, one per column
                   (default: the usual headings)
      sort         fields, comma-separated, a - before one for descending
                   (due,-priority; a user-defined attribute too), as list
                   --sort takes them; or urgency
                   (most urgent first), which sorts alone. Default: list's
      filter       filter terms every run adds ('todo help filters')
      limit        show at most this many tasks; 0 (the default): all
      description  what the report shows
    list, next and waiting are reports defined the same way, and a
    [report.list], [report.next] or [report.waiting] section changes them:
      list      id,status,priority,due,project,tags,title
      next      id,urgency,priority,due,project,tags,title; sort urgency;
                filter -BLOCKED; limit 10
      waiting   id,wait,remaining,priority,due,project,tags,title; sort
                wait;
                filter +WAITING
    Taskwarrior's reports are built in the same way (list's columns unless
    said): all (status:all), completed (status:done, the last completed
    first, with a Completed column), active (+ACTIVE), blocked (+BLOCKED),
    blocking (+BLOCKING), unblocked (-BLOCKED), ready (+READY, most urgent
    first), newest and oldest (by creation, 10 of them, with a Created
    column), recurring (+RECURRING).
    The active context's filter and the terms typed after NAME are added to
    the report's filter; a typed --sort or --limit replaces the report's.
    With --json, the task objects, with "urgency" when the report shows or
    sorts by it. 'todo config' lists the built-in reports' keys.

    Example, in the configuration file:
      [report.urgent]
      description = high priority, soonest due first
      columns = id,due,project,title
      labels = ID,Due,Project,Task
      sort = due
      filter = pri:H
      limit = 20
    and then:
      todo urgent project:work
      todo -c report.next.limit=3 next
    """,
    "hooks": """
    Hooks are programs that todo runs during a command, as Taskwarrior
    does: the executable files in ${XDG_CONFIG_HOME:-~/.config}/todo/hooks/
    whose names start with an event, run in name order.
      on-launch…   before any command but help, --version, date, config,
                   context, shell and ui (the commands run in those two
                   run hooks); gets nothing on standard input
      on-add…      before a new task is written (add, log, duplicate);
                   gets the task and prints it back
      on-modify…   before a change is written (update, edit, append,
                   prepend, done, reopen, delete, note, start, stop); gets
                   the task before and after, and prints the after back
      on-exit…     after the change is written; gets every changed task
    With hooks.import = on, import runs on-add for each task it adds and
    on-modify for each one it updates, as Taskwarrior's import does; with
    hooks.sync = on, sync runs them for the tasks the server brings or
    changes (what a hook changes there is sent at the next sync). Each task
    is a run of each hook: a first sync or a large import runs them often.
    Tasks are Taskwarrior JSON, one a line. Each hook gets Taskwarrior's
    arguments: api:2 args:todo … command:NAME rc:CONFIG-FILE
    data:DATABASE-FOLDER version:VERSION.
    An on-add or on-modify hook prints the task back on one JSON line,
    changed or not: its changes to description, project, priority, tags,
    due, wait, scheduled, until and new annotations are checked like typed
    values and made in the same undo step. Every other line a hook prints
    is shown on standard error. A hook that exits with a status other than
    0 refuses the command: its first line is shown and nothing is written
    (exit 1). An on-exit hook's failure is an error too, but the change is
    written ('todo undo' reverts it).
    Hooks run before the write, on a preview of the change, so a slow hook
    never holds the database; the write then checks that the tasks are
    those the hooks saw. A hook may run hooks.timeout seconds (default 5,
    at most 60); then its process group is killed and the command fails,
    nothing written. No hook runs, and the command fails with an error,
    when a hook is not owned by you or root or others may change it (group
    or world writable), or when the hooks folder or a folder above it or
    above a hook's file is another user's or others may change it (sticky
    folders such as /tmp excepted above the hooks folder); a hook may be a
    link to a script root owns. --no-hooks or
    hooks = off turns hooks off; dry runs run none. import, sync, undo and
    purge run no on-add, on-modify or on-exit hooks. A change a hook makes
    that todo does not take (status, removed annotations, UDAs) is refused.

    Example, hooks/on-add-project (chmod 700), which refuses a task
    without a project:
      #!/bin/sh
      read -r task
      case $task in
        *'"project":'*) echo "$task" ;;
        *) echo "give the task a project"; exit 1 ;;
      esac
    """,
    "help": """
    Usage: todo help [COMMAND|TOPIC]

    Topics: dates, filters, attributes, recurrence, output, reports, hooks.
    'todo NAME --help' for a report NAME gives the reports topic.
    With --json: {"topic": "add", "text": "…"} (topic is null for the overview).
    """,
    "dates": """
    Date expressions (in the local time zone; TZ is honoured; stored as UTC):
      2026-12-01, dec 24, 24 dec, december 24 2027
                               that day (without a year: the next one)
      today, tomorrow, yesterday
      monday … sunday, mon … sun, next monday
                               the next such day (not today)
      1st, 15th, 31st          the next such day of a month (not today)
      next week|month|quarter|year         the first day of it
      sod sow som soq soy      start of day, ISO week, month, quarter, year
      eod eow eom eoq eoy      their last days (all day; as an instant,
                               23:59:59); also 'end of month', 'start of
                               week'. In filters due.before:eow counts the
                               last day in, and created.after:sod the first
      later, someday           9999-12-30
      jan … dec, january …     the 1st of the next such month
      soww eoww                the work week: Monday, Friday (23:59:59)
      socm eocm                the current month (as som, eom)
      sopw eonw sonm eopq …    so/eo + p (previous) or n (next) + d, w, m,
                               q, y: that period's start or end
      easter eastermonday goodfriday ascension pentecost midsommar
      midsommarafton juhannus  the next such day
      20261201T140000Z         Taskwarrior's form (without Z: local time;
                               20261201 alone: that day)
      17:00, 9am, 5:30pm, noon, midnight   the next such time (today if ahead)
      tomorrow 9am, fri 17:00, friday at 5pm, 2026-12-24 17:00, dec 24 9:30
      2026-12-01T17:00Z        an exact instant (also +01:00 style offsets)
      now                      this instant
      +3d, 3d, 2w, 2mo, 1y, 12h, 30min, 1d12h    from now (-2d for the past)
      in 3 days, in 90 min, in 1d12h
      eom+1d, now-2h, friday+16h           any of them plus or minus a time
      3days, 2weeks, 1month, 2hrs   the long units, as Taskwarrior writes them
      P1W, PT2H, P1DT12H       ISO 8601 durations, from now
    Units: min, h, d, w, mo, y; a bare m (30m) is refused as ambiguous.
      due, due-3d, due+1w      in wait:, scheduled:, until: (and due:): the
                               task's own due date, moved
    Days, weeks, months and years move the calendar date and keep the time
    of day; hours and minutes are exact. A date without a time of day is an
    all-day date: stored as that calendar day, due until the day ends where
    you are (not overdue at 08:30), and the same day in any time zone; the
    end-of forms (eow, eom) name their last day. With a time it is an exact
    instant. Words after a date key that continue the date belong to it:
    due:fri 17:00, due:friday at 5pm, wait:dec 24 (quotes work too). An
    unreadable date is a usage error (exit 2). 'todo date EXPR' shows how
    one is read. JSON writes an all-day date as 2026-11-23 and an instant as
    RFC 3339 UTC (2026-11-23T16:00:00Z).
    """,
    "filters": """
    Filters select tasks for list, done, reopen, delete and update --where:
      ID, 3-7, 1,4, UUID-PREFIX   those tasks (any status unless status: is
                                  given); an id has 1 to 7 digits, a UUID
                                  prefix 8 or more hex digits
      +TAG / -TAG                 with / without a tag
      project:NAME                the project and its sub-projects;
                                  project: alone = none
      pri:H, pri:H,M, pri:        priority; pri: alone = none
      status:pending|done|deleted|closed|all
                                  (closed = done or deleted; default:
                                  pending, or closed for reopen)
      project:A,B                 either project; project.not:NAME; also
                                  project.none: and project.any:
      title.has:TEXT, title.not:TEXT   the title contains (or not) TEXT
      DATE TERMS, for due, wait, scheduled, until, created, modified,
      completed (DATE as in 'todo help dates'):
        due:DATE                  on that day (an all-day DATE), or at that
                                  instant (a DATE with a time)
        due.by:DATE               at or before: due.by:eow is everything due
                                  this week or earlier, Sunday included
        due.before:DATE, due.after:DATE    strictly before, after (a day
                                  DATE is the whole day)
        due.none:, due.any:       without / with that date; due: = due.none:
      VIRTUAL TAGS (capitals; -TAG negates):
        +OVERDUE                  pending, due before now (all-day: once the
                                  day has ended)
        +TODAY +TOMORROW +WEEK +MONTH   due today, tomorrow, this ISO week,
                                  this month
        +DUE                      pending, not overdue, due within 7 days
        +WAITING                  pending with a wait date still ahead
        +READY                    pending, not waiting, not blocked, scheduled
                                  (if at all) no later than now
        +BLOCKED +BLOCKING        waits for a pending task; a pending task
                                  waits for it
        +PARENT +CHILD            has subtasks; is a subtask
        +RECURRING +ACTIVE        in a series that goes on; being worked on
        +SCHEDULED +UNTIL +TAGGED +NOTED +PROJECT +PRIORITY
                                  has that date, a tag, a note, a project,
                                  a priority
        +PENDING +DONE +DELETED   that status (no status is then assumed)
        +ANNOTATED +COMPLETED +UNBLOCKED +DUETODAY   Taskwarrior's names of
                                  +NOTED +DONE -BLOCKED +TODAY
        +YESTERDAY +QUARTER +YEAR due yesterday, this quarter, this year
        +INSTANCE +TEMPLATE +LATEST   in a series (ended or not); a template
                                  (never a task here); the task added last
        +UDA +ORPHAN              with a value of a user-defined attribute;
                                  of one the configuration does not define
      overdue                     the same as +OVERDUE
      /REGEX/                     title or notes match a POSIX extended
                                  expression (case counts unless
                                  search.case.sensitive is off)
      limit:N                     show at most N tasks (lists, reports)
      id:3-5, uuid:PREFIX         by id; by the start of the UUID
      tags:T, tags.has:T, tags.hasnt:T, tags.any:, tags.none:   as +T, -T
      depends:ID, parent:ID, depends.any:, parent.none:, recur.any: …
                                  waits for; is a subtask of; has a link;
                                  is in a series
      TAIL MODIFIERS OF TEXT (title, description, project), any case:
        .is .equals .isnt .has .contains .hasnt .startswith .left
        .endswith .right .word .noword; description:X = starts with X
      pri.above:M, pri.below:M    higher, lower (no priority is below L)
      due.is: due.isnt: due.above: due.below:   also for dates; entry is
                                  created, end is completed
      status:completed, status:waiting   status:done, +WAITING
      urgency.over:N, urgency.under:N   urgency (as next ranks) above,
                                  below N; closed tasks have 0
      start.before:DATE, start.after:, start.any:, start.none:   being
                                  worked on since before, after DATE; at all
      WORDS                       match in title and notes, in any case and
                                  Unicode form (CAFÉ finds Café)
      --                          every word after it is a plain word to match
    A filter may come first, before the command: todo +home list, todo
    project:x done, todo +x update due:fri. One quoted argument is the
    filter it spells: todo list 'project:home or +errand'.
    Terms combine with AND. 'or' joins alternatives, 'not' (or a - before a
    tag or an attribute: -project:work) negates the next term, and ( )
    group, each as a word of its own (quote them for the shell):
      todo list '(' +home or project:work ')' not pri:L
    not binds tighter than AND, AND tighter than or. Ids and status: stay
    outside or and parentheses. Use -- before a word 'or' to search for it.
    Parentheses and not nest at most 16 deep; a filter holds at most 2,000
    terms (each value of a comma list counts).
    Lists leave out tasks whose wait date is still ahead, unless the filter
    asks about wait (+WAITING, wait.any:, wait.by:…) or names ids; a change
    (done, update --where …) selects them like any other task.
    Tags and projects are case-sensitive; one that exists only in another
    case gives a warning (no tag +Chore; did you mean +chore?). A mistyped
    key (p:H, proj:x, due.befor:fri, nosuchkey:x) is an error naming the
    word, its position and the nearest key; put -- before it to search for
    it as text. A bare word close to a term (overdu) stays a search word,
    with a warning.
    A change (done, reopen, delete, update --where) needs ids or a term that
    selects tasks: a status alone, or an empty word, is refused rather than
    applied to every task.
    """,
    "attributes": """
    Attributes set fields in add and update (compact and GNU forms are the same):
      +TAG            --tag TAG            add a tag; -TAG removes it (update)
      project:NAME    --project NAME       project: clears it (update)
      pri:H|M|L       --priority H|M|L     pri: clears it (update);
                                           priority: is the same key
      due:DATE        --due DATE           due: clears it (update)
      wait:DATE       --wait DATE          hidden from lists until then
      scheduled:DATE  --scheduled DATE     earliest start (sched: too)
      until:DATE      --until DATE         expires after it: the next
                                           command that writes deletes it
                                           (status deleted, reason expired)
      recur:RULE      --recur RULE         repeat (see 'todo help recurrence');
                                           recur: stops it (update)
      parent:ID       --parent ID          make it a subtask; parent: undoes it
      depends:ID,…    --depends ID,…       wait for tasks (dep: too);
                                           depends:-3 stops waiting (update)
      blocks:ID,…     --blocks ID,…        these tasks wait for this one
      remind:WHEN,…                        reminders: due-15min, scheduled-1h,
                                           due-1d@09:00, 'fri 17:00', now+1h;
                                           remind: clears them ('help remind')
                      --title TEXT         the title as one argument
                      --note TEXT          append a note (may be repeated)
    DATE is a day (all day) or an instant, as in 'todo help dates'; wait,
    scheduled and until may count from the task's due date (wait:due-3d),
    and due:due+1d postpones by a day. Virtual tag names (+OVERDUE …) cannot
    be set. A field may be given once, and a tag not both added and removed.
    Words that are not attributes are title text, kept verbatim; a KEY:VALUE
    word whose KEY is no attribute (client:acme) is an error, unless it is
    plainly text (re: rent, 10:30, a URL); '--' makes every following word
    title text. -y always means --yes, so it cannot remove a tag named y.

    User-defined attributes (Taskwarrior's UDAs), defined in the
    configuration: uda.NAME.type (string, numeric, date or duration),
    uda.NAME.label (shown by show), uda.NAME.values (a string's allowed
    values, comma-separated), uda.NAME.default (what add sets when none is
    given). NAME:VALUE sets one, NAME: clears it (update); show and
    show --json ("udas") show them, export and hooks carry them (to and from
    Taskwarrior as themselves). Filters: NAME:VALUE, NAME: (none),
    NAME.any:, NAME.not:VALUE, NAME.over:/under: (numbers, dates,
    durations; also above/below, after/before), NAME.has:/hasnt: (text).
      todo config set uda.estimate.type duration
      todo add Write report estimate:90min      (stored as PT1H30M)
      todo list estimate.over:1h
    """,
    "output": """
    Output:
      On a terminal: a table fitted to its width (project and tags are cut,
      then left out, before the title gets narrow); into a pipe nothing is
      cut. Colour on a terminal unless NO_COLOR is set, TERM=dumb or
      --no-color (see --color): overdue bold red, due today yellow,
      priority H bold, L dim, projects magenta, tags cyan; the color.*
      settings change them, and date.format how dates are written in full
      ('todo help config'). Warnings: 'todo: warning: …' on stderr.
      --json: an array for lists, an object for add and show ID (an array
      for several), the changed tasks (an array) for update/done/reopen/
      delete/note; undo prints {"undone", "tasks", "removed_ids"};
      --dry-run adds "dry_run": true. --jsonl: one object per line.
      Errors: 'todo: error: …' on stderr, or with --json a JSON object
      {"error": {"code", "message", "hint", "exit_status"}} on stderr;
      warnings are {"warning": "…"} lines.
      Task keys: id, uuid, title, status, priority, project, tags, due,
      wait, scheduled, until, reason, created, modified, completed, parent,
      parent_id, depends [UUIDs], depends_ids, recur {rule, mode, series,
      instance, ended} or null, progress {done, total} or null, active,
      intervals [{start, end}], notes [{created, text}], remind
      [reminders as written: due-15min, 2026-12-01T08:00:00Z]; next adds
      urgency; times are RFC 3339 UTC, an all-day date is
      YYYY-MM-DD; reason is "expired" for a task its until date deleted;
      absent values are null. Tasks an expiry deleted during a change are
      named on stderr ({"warning": …}) with --json.
    """,
  ]

  /// Every topic name, for completion and "did you mean".
  static var topicNames: [String] { topics.keys.sorted() }

  /// The overview or one topic (aliases resolve to their command).
  static func text(topic: String?) throws(CommandFailure) -> String {
    guard let topic else { return overview }
    // A built-in report (`completed`, `newest`) is told about under reports.
    let name = CommandName.spellings[topic]?.rawValue ?? (ReportDefinition.builtInNames.contains(topic) ? "reports" : topic)
    guard let text = topics[name] else {
      throw .usage(.unknownHelpTopic(topic, suggestion: closestMatch(to: topic, in: CommandName.allSpellings + topicNames)))
    }
    return text
  }
}
