import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// `todo shell`: runs command lines one after another on one session (one database).
///
/// On a terminal: the prompt `todo> `, line editing, history and Tab completion (`LineEditor`);
/// Ctrl-C drops the line being typed, Ctrl-D on an empty line (or `exit`, `quit`) leaves with
/// status 0. An error is printed and the shell goes on; the status is 0 unless the shell could
/// not start.
///
/// With standard input not a terminal it runs a script: one command per line, no prompt, no
/// history; the status is 1 when any line failed, else 0.
///
/// In both modes a line is split into words like a POSIX shell would (`WordSplitter`), blank
/// lines and lines starting with `#` do nothing, and every other line runs through
/// `Session.execute`, which prints exactly what the same words print on the command line.
///
/// ```swift
/// let status = Shell(session: session, completions: source).run()
/// ```
final class Shell {
  /// What a line asked for.
  enum Outcome: Equatable {
    /// A command ran (or the line was refused) with this exit status.
    case ran(Int32)
    /// `exit` or `quit`.
    case exit
  }

  /// The prompt on a terminal: `todo> `, or `todo[work]> ` in the context work.
  static func prompt(context: String?) -> String {
    context.map { "todo[\($0)]> " } ?? "todo> "
  }

  private let session: Session
  private let completions: any ShellCompletionSource

  init(session: Session, completions: any ShellCompletionSource) {
    self.session = session
    self.completions = completions
  }

  /// Runs until `exit`, Ctrl-D or the end of input, and returns the exit status.
  func run() -> Int32 {
    Terminal.isTerminal(STDIN_FILENO) ? runInteractive() : runScript()
  }

  /// Runs one line: a comment, a blank line, `exit`/`quit`, or a command.
  func perform(_ line: String) -> Outcome {
    let text = line.drop { $0 == " " || $0 == "\t" }
    if text.isEmpty || text.hasPrefix("#") { return .ran(0) }
    var words: [String]
    do {
      words = try WordSplitter.split(line)
    } catch {
      return .ran(report(error.message))
    }
    // Commands copied from a terminal or the docs start with the program's name.
    if words.first == "todo" { words.removeFirst() }
    if words.isEmpty { return .ran(0) }
    switch words.first {
    case "exit", "quit":
      guard words.count == 1 else { return .ran(report("'\(words[0])' takes no arguments")) }
      return .exit
    case "shell":
      return .ran(report("already in the shell"))
    default:
      return .ran(session.execute(arguments: words))
    }
  }

  private func runInteractive() -> Int32 {
    let completion = ShellCompletion(source: completions)
    let historyFile = FileSystem.historyPath(environment: session.environment)
    guard let editor = LineEditor(historyFile: historyFile, completer: { completion.candidates(forLineBeforeCursor: $0) })
    else {
      if let problem = LineEditor.loadError {
        _ = report("cannot start line editing: \(problem) (install libedit2, or pipe commands into 'todo shell')")
      } else {
        _ = report("cannot start line editing on this terminal")
      }
      return 1
    }
    let interrupts = InterruptHandler.install()
    defer { interrupts.restore() }

    var reminded = Set<String>()
    while true {
      for line in session.reminderLines(shown: &reminded) { session.standardOutput.write(line + "\n") }
      for warning in editor.takeHistoryWarnings() {
        session.standardError.write("todo: warning: \(sanitizedLinesForTerminal(warning))\n")
      }
      session.standardError.flush()
      session.standardOutput.flush()
      switch editor.readLine(prompt: Self.prompt(context: session.promptContext())) {
      case .endOfInput:
        // libedit leaves the cursor after the prompt (and its `^D`).
        session.standardOutput.write("\n")
        session.standardOutput.flush()
        return 0
      case .interrupted:
        session.standardOutput.write("^C\n")
      case .tooLong:
        _ = report("the line is longer than \(InputLines.maximumLineBytes >> 20) MiB; a command line is far shorter")
      case .line(let line):
        editor.remember(line)
        if perform(line) == .exit { return 0 }
      }
    }
  }

  private func runScript() -> Int32 {
    var lines = InputLines(fileDescriptor: STDIN_FILENO)
    var failed = false
    var number = 0
    while let next = lines.next() {
      number += 1
      guard case .bytes(let bytes) = next else {
        // Never held: what was read of it was dropped as it came.
        session.scriptLine = number
        _ = report("the line is longer than \(InputLines.maximumLineBytes >> 20) MiB; a command line is far shorter")
        session.scriptLine = nil
        failed = true
        continue
      }
      guard let line = String(validating: bytes, as: UTF8.self) else {
        // Repairing the bytes would store a title that differs from the one given.
        session.scriptLine = number
        _ = report("the line is not valid UTF-8")
        session.scriptLine = nil
        failed = true
        continue
      }
      session.scriptLine = number
      defer { session.scriptLine = nil }
      switch perform(line) {
      case .exit: return failed ? 1 : 0
      case .ran(let status): failed = failed || status != 0
      }
    }
    if let readError = lines.readError {
      _ = report("cannot read standard input: \(String(cString: strerror(readError)))")
      failed = true
    }
    return failed ? 1 : 0
  }

  /// Prints `todo: error: message` (with the script's line number) and returns the usage-error status.
  private func report(_ message: String) -> Int32 {
    let line = session.scriptLine.map { "line \($0): " } ?? ""
    session.standardError.write("todo: error: \(line)\(message)\n")
    session.standardError.flush()
    return 2
  }
}

/// The lines of a file descriptor, read in large blocks, without their `\n` (or `\r\n`).
/// A last line without a newline counts. A line longer than `maximumLineBytes` is not kept: its
/// bytes are dropped as they are read (a 20 MB line took 1.25 GB), and it comes as `tooLong`.
struct InputLines {
  enum Line {
    case bytes(ArraySlice<UInt8>)
    case tooLong
  }

  static let maximumLineBytes = 1 << 20
  private let fileDescriptor: Int32
  private var buffer: [UInt8] = []
  /// What one read fills (64 KiB), reused.
  private var block = [UInt8](repeating: 0, count: 64 * 1024)
  private var start = 0
  /// Where the search for the next newline goes on from (the bytes before it have none).
  private var searched = 0
  /// True while the bytes read belong to a line already too long.
  private var skipping = false
  private var atEnd = false
  /// The `errno` of a failed read, which ends the lines.
  private(set) var readError: Int32?

  init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  mutating func next() -> Line? {
    while true {
      if let newline = Self.newline(in: buffer, from: max(start, searched)) {
        defer {
          start = newline + 1
          searched = start
        }
        if skipping {
          skipping = false
          return .tooLong
        }
        var end = newline
        if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return end - start > Self.maximumLineBytes ? .tooLong : .bytes(buffer[start..<end])
      }
      searched = buffer.count
      if atEnd {
        defer { start = buffer.count }
        if skipping {
          skipping = false
          return .tooLong
        }
        guard start < buffer.count else { return nil }
        return buffer.count - start > Self.maximumLineBytes ? .tooLong : .bytes(buffer[start...])
      }
      if skipping || buffer.count - start > Self.maximumLineBytes {
        skipping = true
        start = buffer.count
      }
      fill()
    }
  }

  /// The index of the first `\n` at or after `from` (memchr: a megabyte is searched at once).
  private static func newline(in buffer: [UInt8], from: Int) -> Int? {
    guard from < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { bytes -> Int? in
      let base = UnsafeRawPointer(bytes.baseAddress!)
      guard let found = memchr(base + from, Int32(UInt8(ascii: "\n")), bytes.count - from) else { return nil }
      return UnsafeRawPointer(found) - base
    }
  }

  /// Reads the next block, first dropping the lines already handed out.
  private mutating func fill() {
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
    } else if start > 0 {
      buffer.removeSubrange(..<start)
    }
    searched -= start
    start = 0
    var count = 0
    repeat {
      count = block.withUnsafeMutableBytes { bytes in read(fileDescriptor, bytes.baseAddress!, bytes.count) }
    } while count < 0 && errno == EINTR
    if count < 0 { readError = errno }
    if count > 0 { buffer.append(contentsOf: block[0..<count]) }
    if count <= 0 { atEnd = true }
  }
}
