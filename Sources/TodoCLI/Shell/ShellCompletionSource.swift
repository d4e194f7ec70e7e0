/// What Tab completion in the shell can offer: the command-line vocabulary and, read from the
/// database when Tab is pressed, the tags, projects and pending tasks.
///
/// The shell asks again on every Tab, so a tag added one line earlier completes at once.
/// Implementations should answer quickly (one small query) and return empty arrays rather than
/// fail: a completion never reports an error.
///
/// ```swift
/// struct Fixed: ShellCompletionSource {
///   var commandNames: [String] { ["add", "list"] }
///   func optionNames(forCommand command: String?) -> [String] { ["--json"] }
///   func tagNames() -> [String] { ["home"] }
///   func projectNames() -> [String] { ["work.site"] }
///   func tasks() -> [(id: Int64, title: String)] { [(3, "Buy milk")] }
///   var helpTopics: [String] { ["add", "dates"] }
/// }
/// ```
protocol ShellCompletionSource {
  /// Every command name and alias, such as `add`, `list`, `ls`, `help`, `exit`, `quit`.
  var commandNames: [String] { get }

  /// The options `command` accepts, spelled in full (`--json`, `--tag`, …); with a nil command,
  /// the global options that may come before any command.
  func optionNames(forCommand command: String?) -> [String]

  /// The tags in use in the database, without the leading `+`.
  func tagNames() -> [String]

  /// The projects in use in the database (`work`, `work.site`, …).
  func projectNames() -> [String]

  /// The pending tasks, for completing ids.
  func tasks() -> [(id: Int64, title: String)]

  /// What `help` accepts after it: command names and other topics.
  var helpTopics: [String] { get }

  /// The reports the configuration defines beyond `list`, `next` and `waiting`: each is typed as
  /// a command.
  var reportNames: [String] { get }

  /// The contexts the configuration defines.
  var contextNames: [String] { get }

  /// The configuration keys `config get`, `set` and `unset` take.
  var configKeys: [String] { get }

  /// True in `todo shell`, where `shell` is refused; false for bash, zsh and fish.
  var isInsideShell: Bool { get }
}

extension ShellCompletionSource {
  var reportNames: [String] { [] }
  var contextNames: [String] { [] }
  var configKeys: [String] { [] }
  var isInsideShell: Bool { true }
}
