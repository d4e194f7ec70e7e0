import CEditLine
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// Line editing on the terminal through libedit's readline emulation: the prompt, emacs keys
/// (arrows, Ctrl-A/E, Ctrl-R incremental search, `~/.editrc` lines starting `todo:`),
/// history kept in a file, and Tab completion. The only type that touches libedit.
///
/// libedit's quirks, and what this type does about them:
/// - It is loaded with `dlopen` when the first editor is made (`CEditLine`), so commands other
///   than the shell never map it; without it, `init` fails and `loadError` says why.
/// - Without `setlocale` libedit drops every non-ASCII key, even under `LANG=C.UTF-8`, and it
///   reads the locale once, in `rl_initialize()`: `prepareLocale()` runs first.
/// - Its globals are mutable C globals, which Swift 6 rejects: they are set through the
///   functions of `CEditLine`, which also hold the pointers `dlsym` found.
/// - `readline()` returns NULL both for Ctrl-D and for an interrupted read: `InterruptHandler`
///   tells them apart.
/// - The completion function is a C function pointer and cannot capture: the completer lives
///   in a static property for the time the editor is open (one editor at a time).
/// - Completion offsets count characters, not bytes; candidates are handed back in the
///   malloc'ed array libedit frees itself.
///
/// ```swift
/// let editor = LineEditor(historyFile: path) { before in completion.candidates(forLineBeforeCursor: before) }
/// if case .line(let text) = editor?.readLine(prompt: "todo> ") { editor?.remember(text) }
/// ```
///
/// Not `Sendable`: libedit's state is process-wide and belongs to the thread that reads lines.
final class LineEditor {
  /// What one call of `readLine` got.
  enum Input: Equatable {
    /// A line, without its newline.
    case line(String)
    /// Ctrl-C: the line was dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of input.
    case endOfInput
    /// A line longer than `InputLines.maximumLineBytes` (a paste gone wrong): dropped, never
    /// made a string nor kept in the history.
    case tooLong
  }

  /// Why libedit could not be loaded (the dynamic loader's message), after `init` returned nil.
  nonisolated(unsafe) private(set) static var loadError: String?

  /// The most entries the history keeps, in memory and in its file.
  static let historyCapacity: Int32 = 1000

  /// Computes the candidates for the text between the start of the line and the cursor.
  typealias Completer = (String) -> [ShellCompletion.Candidate]

  /// The completer of the open editor, for the C completion function (which cannot capture).
  /// Only touched on the thread that calls `readLine`, from inside `readline()`.
  nonisolated(unsafe) fileprivate static var completer: Completer?

  /// Where the history is saved, or nil to keep it in memory only.
  private let historyFile: String?
  /// The newest history entry, so that a line repeated at once is stored once.
  private var newestEntry: String?
  /// Problems with the history file, for the shell to print. History is a comfort, not worth
  /// ending the shell for: after the first failed save, later failures are not reported again.
  private var historyWarnings: [String] = []
  private var reportedHistoryWarning = false

  /// Sets up libedit and loads the history from `historyFile`; nil when libedit cannot start
  /// (it could not allocate its state or read the terminal's description).
  init?(historyFile: String?, completer: @escaping Completer) {
    self.historyFile = historyFile
    guard todo_editline_load() == 1 else {
      Self.loadError = String(cString: todo_editline_load_error())
      return nil
    }
    Self.prepareLocale()
    todo_editline_configure()
    todo_editline_set_completion_function(completeWord)
    guard todo_editline_initialize() == 0 else { return nil }
    Self.completer = completer
    todo_editline_stifle_history(Self.historyCapacity)
    if let historyFile {
      let lock = HistoryLock(path: historyFile, exclusive: false)
      let status = Self.readHistory(historyFile)
      lock?.release()
      if status != 0 && status != ENOENT {
        historyWarnings.append("cannot read history \(historyFile): \(String(cString: strerror(status)))")
      }
    }
    newestEntry = Self.newestHistoryEntry()
  }

  deinit {
    Self.completer = nil
    todo_editline_set_completion_function(nil)
  }

  /// Shows `prompt` and edits one line.
  func readLine(prompt: String) -> Input {
    InterruptHandler.clearPending()
    guard let pointer = todo_editline_readline(prompt) else {
      return InterruptHandler.takePending() ? .interrupted : .endOfInput
    }
    defer { free(pointer) }
    // A Ctrl-C that raced with Enter: the line was typed in full, so keep it.
    InterruptHandler.clearPending()
    guard strlen(pointer) <= InputLines.maximumLineBytes else { return .tooLong }
    return .line(String(cString: pointer))
  }

  /// Adds `line` to the history and saves the history file, unless the line is blank or the
  /// same as the newest entry.
  func remember(_ line: String) {
    guard line.contains(where: { $0 != " " && $0 != "\t" }), line != newestEntry else { return }
    guard let historyFile else {
      _ = todo_editline_add_history(line)
      newestEntry = line
      return
    }
    save(line, to: historyFile)
  }

  /// The problems met with the history file since the last call.
  func takeHistoryWarnings() -> [String] {
    defer { historyWarnings = [] }
    return historyWarnings
  }

  /// Appends `line` to the history file without losing what other shells saved meanwhile
  /// (like bash's `histappend`): under an exclusive lock on the file, the history is read back
  /// from it, the line added, and the whole (capped) history written again. Rewriting 1000 short
  /// lines costs little, and libedit's `append_history` writes more entries than asked for.
  private func save(_ line: String, to historyFile: String) {
    if let problem = FileSystem.createParentFolders(of: historyFile) {
      _ = todo_editline_add_history(line)
      newestEntry = line
      warnOnce("cannot save history: \(problem)")
      return
    }
    // The lock also creates the file, with mode 0600: `write_history` would use fopen's
    // 0666 & ~umask, and the history holds everything typed.
    let lock = HistoryLock(path: historyFile, exclusive: true)
    defer { lock?.release() }
    // The file is read back first, into a fresh history. When it cannot be read (no permission,
    // or not a history file), it is not rewritten: the line is kept in memory only, and the
    // history of this session stays as it was.
    guard lock != nil, Self.canRead(historyFile) else {
      _ = todo_editline_add_history(line)
      newestEntry = line
      warnOnce("cannot read history \(historyFile); this session's history is not saved")
      return
    }
    todo_editline_clear_history()
    let status = Self.readHistory(historyFile)
    if status != 0 && status != ENOENT {
      warnOnce("cannot read history \(historyFile): \(String(cString: strerror(status)))")
    }
    if line != Self.newestHistoryEntry() { _ = todo_editline_add_history(line) }
    newestEntry = line
    let written = todo_editline_write_history(historyFile)
    if written != 0 {
      warnOnce("cannot save history \(historyFile): \(String(cString: strerror(written)))")
    }
  }

  /// Reads the history file into the history; 0 or an errno. An empty file (the lock made it)
  /// holds no history: libedit's reader calls it EINVAL, which the first command of a new
  /// shell showed as "cannot read history: Invalid argument".
  private static func readHistory(_ path: String) -> Int32 {
    var status = stat()
    if stat(path, &status) == 0, status.st_size == 0 { return 0 }
    return todo_editline_read_history(path)
  }

  /// Whether `path` is empty, missing, or starts like a libedit history file, and can be read:
  /// only then may it be replaced by what is read back from it plus a line.
  private static func canRead(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return errno == ENOENT }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 12)
    let count = read(descriptor, &header, header.count)
    return count == 0 || (count == 12 && header == Array("_HiStOrY_V2_".utf8))
  }

  private func warnOnce(_ message: String) {
    guard !reportedHistoryWarning else { return }
    reportedHistoryWarning = true
    historyWarnings.append(message)
  }

  /// The newest entry of libedit's history, or nil when it is empty.
  private static func newestHistoryEntry() -> String? {
    todo_editline_newest_history_line().map { String(cString: $0) }
  }

  /// Makes libedit decode UTF-8 keys: the user's locale, or C.UTF-8 for character handling when
  /// that locale is unset or not UTF-8 (LANG=C, or POSIX, in a container).
  ///
  /// Numbers stay in the C locale whatever the user's: C-library number formatting and parsing
  /// must not turn `1.5` into `1,5` under a German locale.
  static func prepareLocale() {
    _ = setlocale(LC_ALL, "")
    _ = setlocale(LC_NUMERIC, "C")
    if !codesetIsUTF8() {
      for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
        break
      }
    }
  }

  /// Whether the character-handling locale encodes text as UTF-8.
  static func codesetIsUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).lowercased()
    return name == "utf-8" || name == "utf8"
  }
}

/// An advisory lock (`flock`) on the history file, held while it is read or rewritten, so that
/// shells running at once never interleave their rewrites.
private struct HistoryLock {
  private let descriptor: Int32

  /// Opens (creating with mode 0600) and locks the file; nil when it cannot be opened, in which
  /// case reading and writing go ahead unlocked and report their own errors.
  init?(path: String, exclusive: Bool) {
    let descriptor = open(path, (exclusive ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {}
    self.descriptor = descriptor
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}

/// libedit's completion function (`rl_attempted_completion_function`): asks the open editor's
/// completer and returns the matches in readline's layout.
///
/// Layout: element 0 is what replaces the word (the one candidate, or the common prefix of
/// several), then the candidates libedit lists on a second Tab, then NULL. Listing shows the
/// candidates' display text (`12  Buy milk`) while only element 0 is ever inserted, which is
/// how ids are shown with their titles: libedit ignores `rl_completion_display_matches_hook`.
private func completeWord(
  _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
  // Never fall back to libedit's file-name completion.
  todo_editline_set_completion_over(1)
  guard let completer = LineEditor.completer, let buffer = todo_editline_line_buffer()
  else { return nil }
  // `end` counts characters (wchar_t, one per Unicode scalar here), not bytes.
  let line = String(cString: buffer)
  var beforeCursor = String.UnicodeScalarView()
  beforeCursor.append(contentsOf: line.unicodeScalars.prefix(Int(max(end, 0))))
  let candidates = completer(String(beforeCursor))
  guard !candidates.isEmpty else { return nil }

  var entries: [String]
  if candidates.count == 1 {
    // libedit treats `[x, x]` as a unique match and appends the append character.
    entries = [candidates[0].replacement, candidates[0].replacement]
    todo_editline_set_completion_append_character(candidates[0].appendsSpace ? 0x20 : 0)
  } else {
    entries = [ShellCompletion.commonPrefix(of: candidates)] + candidates.map(\.display)
  }
  guard
    let matches = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))?
      .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
  else { return nil }
  for (index, entry) in entries.enumerated() {
    matches[index] = strdup(entry)
  }
  matches[entries.count] = nil
  return matches
}
