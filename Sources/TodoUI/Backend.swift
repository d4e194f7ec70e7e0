/// What the full-screen interface asks of the program that runs it: the tasks to show, their
/// rows and details, the sidebar, and the running of commands. The command-line front end
/// provides it by running its own commands in-process (the same declarations, confirmation,
/// hooks and undo steps as `todo` typed in a shell): the interface only draws and reads keys.
public protocol UIBackend: AnyObject {
  /// The tasks a report shows with a filter (as typed: `project:home +errand`), in the report's
  /// order, with its columns; in tree order (subtasks under their parents) with `tree`. Only ids:
  /// the rows are read for what is on screen (`rows(_:)`). An error is a message to show.
  func list(_ request: ListRequest) -> Result<ListSnapshot, UIFailure>

  /// The rows of these tasks, in this order (a task gone since the list was read is left out).
  func rows(_ ids: [Int64], of snapshot: ListSnapshot) -> [UIRow]

  /// What `todo show ID` says of a task, laid out for `width` columns, as styled lines.
  func detail(of id: Int64, width: Int) -> [[StyledText]]

  /// Contexts, reports, projects and tags, with counts.
  func sidebar() -> [SidebarSection]

  /// The active context's name, if one is.
  func activeContext() -> String?

  /// Runs a `todo` command line (the words after `todo`) and returns what it wrote and its exit
  /// status. `ask` answers a question the command asks (a confirmation), given its text.
  func run(_ words: [String], ask: (String) -> Bool) -> CommandOutcome

  /// A number that changes when another process changes the database (`PRAGMA data_version`).
  func dataVersion() -> Int64

  /// Tab completion of a command line, as the shell completes it: the line completed as far as
  /// it can be, and the candidates when there are several.
  func complete(_ line: String) -> (line: String, candidates: [String])

  /// Splits a typed line into words as the shell does (quotes), or says why it cannot.
  func words(of line: String) -> Result<[String], UIFailure>

  /// With `terminal` in `remind.notify`: a line for each reminder whose time has come and that
  /// was not shown yet in this run (as `todo shell` shows them). Nothing is recorded.
  func dueReminders() -> [String]
}

extension UIBackend {
  public func dueReminders() -> [String] { [] }
}

/// A message for the status line (an error the backend reports).
public struct UIFailure: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) {
    self.message = message
  }
}

/// What a command run from the interface did.
public struct CommandOutcome: Equatable, Sendable {
  public var status: Int32
  public var output: String
  public var error: String
  /// It changed tasks, so that `undo` takes it back (the status line says so).
  public var undoable: Bool

  public init(status: Int32, output: String, error: String, undoable: Bool = false) {
    self.status = status
    self.output = output
    self.error = error
    self.undoable = undoable
  }
}

/// Which tasks the list shows.
public struct ListRequest: Equatable, Sendable {
  public var report: String
  public var filter: String
  public var tree: Bool

  public init(report: String, filter: String = "", tree: Bool = false) {
    self.report = report
    self.filter = filter
    self.tree = tree
  }
}

/// A column of the list.
public struct UIColumn: Equatable, Sendable {
  public var header: String
  public var alignsRight: Bool
  /// Takes the width left over (the title).
  public var isFlexible: Bool
  /// Left out first on a narrow screen.
  public var mayDrop: Bool

  public init(header: String, alignsRight: Bool = false, isFlexible: Bool = false, mayDrop: Bool = false) {
    self.header = header
    self.alignsRight = alignsRight
    self.isFlexible = isFlexible
    self.mayDrop = mayDrop
  }
}

/// The tasks a list shows, as ids in order (a few bytes each, at 100k tasks), and its columns.
public struct ListSnapshot: Equatable, Sendable {
  public var columns: [UIColumn]
  public var ids: [Int64]
  /// In tree order, how deep each task is (0 for a top-level task); empty otherwise.
  public var depths: [Int]
  /// What the list is, for the top line: `next`, `list project:home`.
  public var title: String
  /// What to say when there is nothing to show.
  public var emptyMessage: String

  public init(columns: [UIColumn], ids: [Int64], depths: [Int] = [], title: String, emptyMessage: String) {
    self.columns = columns
    self.ids = ids
    self.depths = depths
    self.title = title
    self.emptyMessage = emptyMessage
  }
}

/// One task's row: one cell per column.
public struct UIRow: Equatable, Sendable {
  public var id: Int64
  public var cells: [StyledText]
  /// Being worked on (so `s` stops it).
  public var isActive: Bool

  public init(id: Int64, cells: [StyledText], isActive: Bool = false) {
    self.id = id
    self.cells = cells
    self.isActive = isActive
  }
}

/// A part of the sidebar: contexts, reports, projects, tags.
public struct SidebarSection: Equatable, Sendable {
  public var title: String
  public var items: [SidebarItem]

  public init(title: String, items: [SidebarItem]) {
    self.title = title
    self.items = items
  }
}

/// A line of the sidebar and what choosing it does.
public struct SidebarItem: Equatable, Sendable {
  public enum Action: Equatable, Sendable {
    /// Show this report.
    case report(String)
    /// Run this command (`context work`, `context none`).
    case command([String])
    /// Show tasks with this filter (`project:home`, `+errand`).
    case filter(String)
  }
  public var label: String
  public var count: Int?
  public var depth: Int
  public var action: Action
  public var isCurrent: Bool

  public init(label: String, count: Int? = nil, depth: Int = 0, action: Action, isCurrent: Bool = false) {
    self.label = label
    self.count = count
    self.depth = depth
    self.action = action
    self.isCurrent = isCurrent
  }
}
