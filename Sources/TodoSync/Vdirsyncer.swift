import TodoInterchange

#if canImport(Glibc)
import Glibc
#endif

/// Driving vdirsyncer: the configuration `todo sync --setup` writes (a pair named `todo` between
/// the vdir, `todo_local`, and the CalDAV collection, `todo_remote`), and running it.
public enum Vdirsyncer {
  /// A value as vdirsyncer's configuration reads it (a JSON string).
  static func quoted(_ text: String) -> String {
    var result = ""
    JSONValue.writeString(text, into: &result)
    return result
  }

  /// The configuration for one collection. The password is never written: vdirsyncer runs
  /// `passwordCommand` (through `sh -c`) for it, or `todo sync --ask-password`. A conflict vdirsyncer
  /// finds (an item changed in the vdir and on the server since its last run) is answered by
  /// `todo sync --resolve`, the field merge.
  public static func configuration(
    paths: SyncPaths, collection: String, url: String, user: String?, passwordCommand: String?, todo: String
  ) -> String {
    var lines = [
      "# Written by `todo sync --setup`; `todo sync` runs vdirsyncer with it.",
      "# The pair and storage names are todo's: change the rest as vdirsyncer's manual says.",
      "[general]",
      "status_path = \(quoted(paths.status))",
      "",
      "[pair todo]",
      "a = \"todo_local\"",
      "b = \"todo_remote\"",
      "collections = null",
      "conflict_resolution = [\"command\", \(quoted(todo)), \"sync\", \"--resolve\"]",
      "",
      "[storage todo_local]",
      "type = \"filesystem\"",
      "path = \(quoted(paths.vdir(collection) + "/"))",
      "fileext = \".ics\"",
      "",
      "[storage todo_remote]",
      "type = \"caldav\"",
      "url = \(quoted(url))",
      "item_types = [\"VTODO\"]",
    ]
    if let user {
      lines.append("username = \(quoted(user))")
      if let passwordCommand {
        lines.append("password.fetch = [\"command\", \"sh\", \"-c\", \(quoted(passwordCommand))]")
      } else {
        // todo asks, on the terminal itself, once a sync (vdirsyncer's own prompt writes its
        // question to its output, which todo collects, and asks again at each run).
        lines.append(
          "password.fetch = [\"command\", \(quoted(todo)), \"sync\", \"\(askPasswordOption)\", \(quoted("Password for \(user) at \(url)"))]")
      }
    }
    return lines.joinedText("\n") + "\n"
  }

  /// The text of `key`'s value in `[section]`, as Python's configparser (which vdirsyncer uses)
  /// reads it: `key = value` or `key: value`, the key in any case, indented lines after it
  /// continuing the value, whole-line `#` and `;` comments left out. Nil when it is not there.
  public static func rawValue(_ key: String, in section: String, of text: String) -> String? {
    var current = ""
    var found: String?
    /// After a key's line (any key's): indented lines go on with its value.
    var inValue = false
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = rawLine.trimmingSpaces()
      let indented = rawLine.first == " " || rawLine.first == "\t"
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if indented && inValue {
        if found != nil { found! += "\n" + line }
        continue
      }
      // The next key or section ends the value found.
      if found != nil { break }
      inValue = false
      if line.hasPrefix("["), let close = line.lastIndex(of: "]") {
        // `[section]`, perhaps with a comment after it.
        current = String(line[...close])
        continue
      }
      guard let delimiter = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
      inValue = true
      if current == "[" + section + "]", line[..<delimiter].trimmingSpaces().lowercased() == key.lowercased() {
        found = line[line.index(after: delimiter)...].trimmingSpaces()
      }
    }
    return found
  }

  /// A value of a configuration as vdirsyncer reads it: JSON (`key = "a string"`, `["a", "list"]`).
  /// Nil when it is not there; `.failure` with the text when it is not JSON (vdirsyncer refuses
  /// such a file too: an unquoted path is the usual slip).
  public static func jsonValue(_ key: String, in section: String, of text: String) -> Result<JSONValue, ValueProblem>? {
    guard let raw = rawValue(key, in: section, of: text) else { return nil }
    var reader = JSONReader(bytes: Array(raw.utf8))
    guard let value = try? reader.value(), reader.atEnd() else {
      return .failure(ValueProblem(key: key, section: section, text: raw))
    }
    return .success(value)
  }

  /// A value that is not JSON.
  public struct ValueProblem: Error, Equatable {
    public var key: String
    public var section: String
    public var text: String

    public var message: String {
      "\(key) in [\(section)] is \(text), which vdirsyncer cannot read: its values are JSON, so text is quoted (\(key) = \(quoted(text)))"
    }
  }

  /// A string value of a configuration (`key = "JSON string"` in `[section]`), unescaped, with a
  /// leading `~` expanded to `home` (vdirsyncer expands paths so); nil when it is missing or not
  /// a string.
  public static func value(_ key: String, in section: String, of text: String, home: String?) -> String? {
    guard case .success(.string(var value))? = jsonValue(key, in: section, of: text) else { return nil }
    if let home, value == "~" || value.hasPrefix("~/") { value = home + value.dropFirst() }
    return value
  }

  /// The prompt of the password todo asks for itself (`password.fetch` is `todo sync
  /// --ask-password PROMPT`, as `--setup` without `--password-command` writes it); nil when the
  /// configuration gets the password otherwise, or needs none.
  public static func passwordPrompt(inConfiguration text: String) -> String? {
    guard case .success(.array(let parts))? = jsonValue("password.fetch", in: "storage todo_remote", of: text),
      parts.count == 5, case .string("command") = parts[0], case .string("sync") = parts[2],
      case .string(askPasswordOption) = parts[3], case .string(let prompt) = parts[4]
    else { return nil }
    return prompt
  }

  /// A configuration `--setup` wrote before todo asked for the password itself (vdirsyncer's own
  /// `["prompt", QUESTION]`, whose question is lost in todo's collected output and asked at each
  /// of vdirsyncer's runs), with that line in the form `--setup` writes now; nil when it has no
  /// such line or is not todo's.
  public static func upgradingPasswordPrompt(inConfiguration text: String, todo: String) -> String? {
    guard text.hasPrefix("# Written by `todo sync --setup`"),
      case .success(.array(let parts))? = jsonValue("password.fetch", in: "storage todo_remote", of: text),
      parts.count == 2, case .string("prompt") = parts[0], case .string(let question) = parts[1]
    else { return nil }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let index = lines.firstIndex(where: { $0.hasPrefix("password.fetch = [\"prompt\"") }) else { return nil }
    lines[index] = "password.fetch = [\"command\", \(quoted(todo)), \"sync\", \"\(askPasswordOption)\", \(quoted(question))]"
    return lines.joinedText("\n")
  }

  /// The option of `todo sync` that vdirsyncer runs for the password.
  public static let askPasswordOption = "--ask-password"

  /// The vdir folder a configuration syncs (`path` of `[storage todo_local]`), without its
  /// trailing slash; nil when the file has none.
  public static func vdirFolder(inConfiguration text: String, home: String?) -> String? {
    guard var path = value("path", in: "storage todo_local", of: text, home: home), !path.isEmpty else { return nil }
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// A sentence for a failed vdirsyncer run, from what it printed.
  public static func explain(_ output: String, url: String?) -> String {
    let lower = output.lowercased()
    let server = url.map { " (\($0))" } ?? ""
    // Words, not bare status numbers: a UID in the output can hold "401".
    if lower.contains("unauthorized") || lower.contains("forbidden") || lower.contains("status: 401")
      || lower.contains("status: 403")
    {
      return "the server\(server) refused the user name or password"
    }
    if lower.contains("cannot connect") || lower.contains("connection refused") || lower.contains("connect call failed")
      || lower.contains("name or service not known") || lower.contains("timeout")
    {
      return "cannot reach the server\(server)"
    }
    // vdirsyncer's own guard: one side has no item left (all deleted on the server, or every
    // task deleted and purged here) and would empty the other.
    if lower.contains("todo_remote\" was completely emptied") {
      return
        "every item of the collection on the server\(server) is gone; a sync would delete every task here, so it was stopped; if that is what you want, run todo sync --force"
    }
    if lower.contains("todo_local\" was completely emptied") {
      return
        "the vdir has no item left, so vdirsyncer stopped rather than delete every item on the server\(server); if every task here was deleted on purpose, run todo sync --force; if the vdir folder was moved or emptied by accident, put its files back (todo sync --force does not empty the server then)"
    }
    if lower.contains("not found") || lower.contains("status: 404") {
      return "the server\(server) has no such collection; check the URL, or create the collection first"
    }
    return "vdirsyncer failed"
  }

  /// The last lines vdirsyncer printed, for an error message.
  public static func tail(_ output: String, lines count: Int = 6) -> String {
    output.split(separator: "\n").suffix(count).map { "  " + $0 }.joinedText("\n")
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
  }
}

extension String {
  func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}

extension Vdirsyncer {
  /// Where vdirsyncer's password command (`todo sync --ask-password`) finds the password this
  /// sync asked for, so that it is asked once a sync, not at each of vdirsyncer's runs.
  public static let passwordVariable = "TODO_SYNC_PASSWORD"

  /// Whether a URL names this machine (127.0.0.0/8, localhost, [::1]): nothing sent there
  /// crosses a network.
  public static func isLoopback(_ url: String) -> Bool {
    guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return false }
    var host = url[schemeEnd...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
    if host.hasPrefix("[") { return host.hasPrefix("[::1]") }
    let name = host.prefix { $0 != ":" }.lowercased()
    // 127.0.0.0/8 as a dotted address (not a name such as 127.example.com).
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    let dotted = parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    return name == "localhost" || (dotted && parts[0] == "127")
  }

  /// The URL with the password of its `user:password@` part shown as `***`, when it has one;
  /// nil when it has none.
  public static func urlWithoutPassword(_ url: String) -> String? {
    guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return nil }
    let rest = url[schemeEnd...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
    return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
  }
}
