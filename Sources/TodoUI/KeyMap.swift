/// What a key does in the list. Each action has default keys; `ui.key.ACTION = KEY` in the
/// configuration binds another (which then replaces the action's first default key).
public enum UIAction: String, CaseIterable, Sendable {
  case down, up, top, bottom, pageDown = "page-down", pageUp = "page-up"
  case detail, detailDown = "detail-down", detailUp = "detail-up", sidebar, focus, add, modify, done, delete, start, note, edit, undo
  case filter, report, context, tree, mark, command, quit, redraw, help

  /// The default keys.
  var defaultKeys: [Key] {
    switch self {
    case .down: [.character("j"), .down]
    case .up: [.character("k"), .up]
    case .top: [.character("g"), .home]
    case .bottom: [.character("G"), .end]
    case .pageDown: [.pageDown, .control("f")]
    case .pageUp: [.pageUp, .control("b")]
    case .detail: [.enter]
    case .detailDown: [.character("J")]
    case .detailUp: [.character("K")]
    case .sidebar: [.character("b")]
    case .focus: [.tab]
    case .add: [.character("a")]
    case .modify: [.character("m")]
    case .done: [.character("d")]
    case .delete: [.character("x")]
    case .start: [.character("s")]
    case .note: [.character("n")]
    case .edit: [.character("e")]
    case .undo: [.character("u")]
    case .filter: [.character("/")]
    case .report: [.character("r")]
    case .context: [.character("c")]
    case .tree: [.character("t")]
    case .mark: [.character(" ")]
    case .command: [.character(":")]
    case .quit: [.character("q")]
    case .redraw: [.control("l")]
    case .help: [.character("?")]
    }
  }

  /// What the help screen says it does.
  public var summary: String {
    switch self {
    case .down: "next task"
    case .up: "previous task"
    case .top: "first task"
    case .bottom: "last task"
    case .pageDown: "a page down"
    case .pageUp: "a page up"
    case .detail: "show or hide the selected task's details"
    case .detailDown: "scroll the details down"
    case .detailUp: "scroll the details up"
    case .sidebar: "show or hide the sidebar"
    case .focus: "move between the list and the sidebar"
    case .add: "add a task (as todo add)"
    case .modify: "change the selected task (todo update ID …)"
    case .done: "complete the selected or marked tasks"
    case .delete: "delete the selected or marked tasks"
    case .start: "start or stop work on the selected task"
    case .note: "add a note to the selected task"
    case .edit: "edit the selected task in $EDITOR"
    case .undo: "undo the last change"
    case .filter: "filter the list (the filter language, live)"
    case .report: "choose a report in the sidebar"
    case .context: "choose a context in the sidebar"
    case .tree: "subtasks under their parents, or not"
    case .mark: "mark or unmark the selected task"
    case .command: "run any todo command line"
    case .quit: "quit"
    case .redraw: "redraw the screen"
    case .help: "this help"
    }
  }
}

/// Keys to actions: the defaults, with the configuration's `ui.key.ACTION` bindings over them.
public struct KeyMap: Sendable {
  public private(set) var actions: [Key: UIAction] = [:]
  public private(set) var keys: [UIAction: [Key]] = [:]

  /// The default map with `bindings` (action name → key name) applied; an unknown action or
  /// key is an error that names it.
  public init(bindings: [String: String] = [:]) throws(UIFailure) {
    var keys: [UIAction: [Key]] = [:]
    for action in UIAction.allCases { keys[action] = action.defaultKeys }
    for (name, keyName) in bindings.sorted(by: { $0.key < $1.key }) {
      guard let action = UIAction(rawValue: name) else {
        throw UIFailure("'ui.key.\(name)' names no action; actions: \(UIAction.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      guard let key = Key(name: keyName) else {
        throw UIFailure(
          "'\(keyName)' (ui.key.\(name)) is not a key; say a character, Space, Enter, Tab, Esc, Up, Down, PgUp, PgDn, Home, End or Ctrl-X")
      }
      // The new key replaces the first default; a key taken from another action leaves it.
      for other in UIAction.allCases { keys[other]?.removeAll { $0 == key } }
      var list = keys[action] ?? []
      if !list.isEmpty && action.defaultKeys.first == list.first { list.removeFirst() }
      keys[action] = [key] + list
    }
    self.keys = keys
    for action in UIAction.allCases {
      for key in keys[action] ?? [] { actions[key] = action }
    }
  }

  /// The name of an action's first default key (`ui.key.ACTION`'s default).
  public static func defaultKeyName(of action: UIAction) -> String {
    action.defaultKeys.first?.name ?? ""
  }

  /// The action a key does, if any.
  public func action(for key: Key) -> UIAction? {
    actions[key]
  }

  /// The names of an action's keys, for help: `j Down`.
  public func keyNames(of action: UIAction) -> String {
    (keys[action] ?? []).map(\.name).joined(separator: " ")
  }
}
