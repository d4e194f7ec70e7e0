import TodoCore

#if canImport(Glibc)
import Glibc
#endif

/// The `--color` option: whether output may contain ANSI styles.
enum ColorMode: String, CaseIterable, Sendable {
  /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
  case auto
  /// Always colour, even into a pipe (and despite `NO_COLOR`, which an explicit flag overrides).
  case always
  /// Never colour.
  case never
}

/// Decides whether to colour output, following <https://no-color.org>; a terminal that says it
/// is dumb (`TERM=dumb`, as Emacs shells do) gets none either.
///
/// ```swift
/// colorEnabled(mode: .auto, isTTY: true, environment: ["NO_COLOR": "1"])  // false
/// colorEnabled(mode: .auto, isTTY: true, environment: ["TERM": "dumb"])   // false
/// ```
func colorEnabled(mode: ColorMode, isTTY: Bool, environment: [String: String]) -> Bool {
  switch mode {
  case .always: true
  case .never: false
  case .auto: isTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }
}

/// The platform side of the terminal: `isatty`, window size and the process environment.
enum Terminal {
  /// The width used when it cannot be measured (output into a pipe or a file).
  static let defaultWidth = 80

  /// Whether `fileDescriptor` refers to a terminal.
  static func isTerminal(_ fileDescriptor: Int32) -> Bool {
    isatty(fileDescriptor) == 1
  }

  /// The number of columns to fit output into, or nil for no limit.
  ///
  /// `COLUMNS` wins when it is a positive integer (so scripts and tests can pin the width);
  /// else the window size of `fileDescriptor` when it is a terminal (`defaultWidth` when it
  /// cannot be read); else nil: into a pipe or a file nothing is cut, like `ls` and `git`.
  static func width(of fileDescriptor: Int32 = STDOUT_FILENO, environment: [String: String]) -> Int? {
    if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
      return columns
    }
    guard isTerminal(fileDescriptor) else { return nil }
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return defaultWidth
    }
    return Int(size.ws_col)
  }

  /// The environment variables todo reads. A command reads only these, rather than hashing
  /// every variable of the process into a dictionary at each start.
  static let variables = [
    "TODO_DB", "HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "NO_COLOR", "TERM", "COLUMNS", "TODO_CONFIG",
    "VISUAL", "EDITOR", "TMPDIR", "PATH", "TASKRC",
  ]

  /// The whole environment of the process, for the programs todo starts (the editor, hooks),
  /// with `overrides` (the session's own, which tests set) on top.
  /// The password a sync asked for (`Vdirsyncer.passwordVariable`) is never passed on: only
  /// vdirsyncer gets it, set there on purpose, and not a hook or an editor.
  static func childEnvironment(_ overrides: [String: String]) -> [String: String] {
    var result: [String: String] = [:]
    addVariables(to: &result) { _ in true }
    for (name, value) in overrides { result[name] = value }
    result["TODO_SYNC_PASSWORD"] = nil
    return result
  }

  /// Adds the process's variables whose `NAME=value` entry `keep` accepts (it sees the C string,
  /// so that a test of its first bytes costs no String).
  private static func addVariables(to result: inout [String: String], keeping keep: (UnsafePointer<CChar>) -> Bool) {
    var pointer = environ
    while let entry = pointer.pointee {
      if keep(entry) {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
          result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
      }
      pointer += 1
    }
  }

  /// The variables todo reads (`variables`), as a dictionary, from the process environment.
  static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    result.reserveCapacity(variables.count)
    for name in variables {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    // The configuration's variables (`TODO_WEEK_START`): only those set, found by their prefix
    // without building the list of every key.
    addVariables(to: &result) { entry in  // "TODO_"
      entry[0] == 0x54 && entry[1] == 0x4F && entry[2] == 0x44 && entry[3] == 0x4F && entry[4] == 0x5F
    }
    return result
  }

}

/// An ANSI text style (SGR sequence) for the human output.
struct TextStyle: Sendable, Equatable {
  /// Up to four SGR codes (`1`, `31`), packed one a byte from the lowest: a style is a plain
  /// value, copied into every table cell without reference counting.
  private var codes: UInt32

  /// The SGR parameters that switch this style on (`1;31`).
  var parameters: String {
    var text = ""
    var rest = codes
    while rest != 0 {
      if !text.isEmpty { text += ";" }
      text += String(rest & 0xFF)
      rest >>= 8
    }
    return text
  }

  private init(codes: UInt32) {
    self.codes = codes
  }

  /// A style from its SGR parameters (`"1;31"`); at most four codes, each 1…255.
  init(parameters: String) {
    var codes: UInt32 = 0
    for (index, part) in parameters.split(separator: ";").prefix(4).enumerated() {
      codes |= UInt32(UInt8(part) ?? 0) << (8 * UInt32(index))
    }
    self.codes = codes
  }

  static let bold = TextStyle(codes: 1)
  static let dim = TextStyle(codes: 2)
  static let underline = TextStyle(codes: 4)
  /// Bold and underlined: table headers.
  static let heading = TextStyle(codes: 1 | 4 << 8)
  static let red = TextStyle(codes: 31)
  /// Bold red: overdue.
  static let alarm = TextStyle(codes: 1 | 31 << 8)
  static let green = TextStyle(codes: 32)
  static let yellow = TextStyle(codes: 33)
  static let blue = TextStyle(codes: 34)
  static let magenta = TextStyle(codes: 35)
  static let cyan = TextStyle(codes: 36)
  static let gray = TextStyle(codes: 90)
  static let inverse = TextStyle(codes: 7)

  /// The words a style is written with in the configuration, and their SGR parameters.
  static let words: [(String, String)] = [
    ("bold", "1"), ("dim", "2"), ("italic", "3"), ("underline", "4"), ("inverse", "7"), ("black", "30"), ("red", "31"),
    ("green", "32"), ("yellow", "33"), ("blue", "34"), ("magenta", "35"), ("cyan", "36"), ("white", "37"),
    ("gray", "90"), ("grey", "90"), ("bright-red", "91"), ("bright-green", "92"), ("bright-yellow", "93"),
    ("bright-blue", "94"), ("bright-magenta", "95"), ("bright-cyan", "96"), ("bright-white", "97"),
    ("on-black", "40"), ("on-red", "41"), ("on-green", "42"), ("on-yellow", "43"), ("on-blue", "44"),
    ("on-magenta", "45"), ("on-cyan", "46"), ("on-white", "47"), ("on-gray", "100"), ("on-grey", "100"),
  ]

  /// Reads a style from the configuration: words separated by spaces (`bold red`,
  /// `underline on-yellow`), or `none` (or nothing) for plain text. Nil: plain. Throws the reason
  /// a word is not a style.
  static func parse(_ text: String) throws(UsageError) -> TextStyle? {
    var parameters: [String] = []
    for word in text.split(separator: " ") where !word.isEmpty {
      let word = word.lowercased()
      if word == "none" { continue }
      guard let code = words.first(where: { $0.0 == word })?.1 else {
        let known = words.map(\.0)
        let meant = closestMatch(to: word, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        throw .invalid("'\(word)' is not a style\(meant); use words such as bold, dim, underline, red, on-blue, or none")
      }
      parameters.append(code)
    }
    if parameters.count > 4 { throw .invalid("'\(text)' has more than four style words") }
    return parameters.isEmpty ? nil : TextStyle(parameters: parameters.joinedText(";"))
  }

  /// The looks of the things lists colour, which the configuration may change (`color.ROLE`).
  struct Palette: Sendable {
    var overdue: TextStyle? = .alarm
    var today: TextStyle? = .yellow
    var high: TextStyle? = .bold
    var medium: TextStyle?
    var low: TextStyle? = .dim
    var active: TextStyle? = .green
    var done: TextStyle? = .green
    var deleted: TextStyle? = .gray
    var project: TextStyle? = .magenta
    var tag: TextStyle? = .cyan
    var scheduled: TextStyle? = .blue
    var calendarToday: TextStyle? = .inverse
    var chartPending: TextStyle? = .red
    var chartActive: TextStyle? = .yellow
    var chartDone: TextStyle? = .green
    var chartAdded: TextStyle? = .red
    var chartDeleted: TextStyle? = .gray

    /// Each role's configuration name (after `color.`) and default, in that order.
    static let roles: [(String, String)] = [
      ("overdue", "bold red"), ("today", "yellow"), ("priority.H", "bold"), ("priority.M", "none"), ("priority.L", "dim"),
      ("active", "green"), ("done", "green"), ("deleted", "gray"), ("project", "magenta"), ("tag", "cyan"),
      ("scheduled", "blue"), ("calendar.today", "inverse"), ("chart.pending", "red"), ("chart.active", "yellow"),
      ("chart.done", "green"), ("chart.added", "red"), ("chart.deleted", "gray"),
    ]

    static var paths: [String: WritableKeyPath<Palette, TextStyle?>] {
      [
        "overdue": \.overdue, "today": \.today, "priority.H": \.high, "priority.M": \.medium, "priority.L": \.low,
        "active": \.active, "done": \.done, "deleted": \.deleted, "project": \.project, "tag": \.tag,
        "scheduled": \.scheduled, "calendar.today": \.calendarToday, "chart.pending": \.chartPending,
        "chart.active": \.chartActive, "chart.done": \.chartDone, "chart.added": \.chartAdded, "chart.deleted": \.chartDeleted,
      ]
    }

    /// The look of a priority.
    func style(of priority: Priority?) -> TextStyle? {
      switch priority {
      case .high: high
      case .medium: medium
      case .low: low
      case nil: nil
      }
    }
  }

  /// Wraps `text` in this style's escape sequence and a reset, only when colour is on.
  ///
  /// Empty text stays empty so that blank cells carry no escape sequences.
  ///
  /// ```swift
  /// TextStyle.red.apply(to: "overdue", colorEnabled: true)  // "\u{1B}[31moverdue\u{1B}[0m"
  /// ```
  func apply(to text: String, colorEnabled: Bool) -> String {
    guard colorEnabled, !text.isEmpty else { return text }
    return "\u{1B}[" + parameters + "m" + text + "\u{1B}[0m"
  }
}
