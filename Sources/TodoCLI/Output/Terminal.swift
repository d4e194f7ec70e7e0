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
    "TODO_DB", "HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "NO_COLOR", "TERM", "COLUMNS",
  ]

  /// The variables todo reads (`variables`), as a dictionary, from the process environment.
  static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    result.reserveCapacity(variables.count)
    for name in variables {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }
}

/// An ANSI text style (SGR sequence) for the human output.
enum TextStyle: Sendable, CaseIterable {
  case bold
  case dim
  case underline
  /// Bold and underlined: table headers.
  case heading
  case red
  /// Bold red: overdue.
  case alarm
  case green
  case yellow
  case blue
  case magenta
  case cyan
  case gray

  /// The SGR parameters that switch this style on.
  var parameters: String {
    switch self {
    case .bold: "1"
    case .dim: "2"
    case .underline: "4"
    case .heading: "1;4"
    case .red: "31"
    case .alarm: "1;31"
    case .green: "32"
    case .yellow: "33"
    case .blue: "34"
    case .magenta: "35"
    case .cyan: "36"
    case .gray: "90"
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
