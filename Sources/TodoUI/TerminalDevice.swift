import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The terminal the full-screen interface draws on: raw mode, the alternate screen, the mouse,
/// bracketed paste, and putting all of it back on every way out.
///
/// What is restored and when: `leave()` on a normal exit and around `$EDITOR` and Ctrl-Z; a
/// handler for SIGTERM, SIGHUP, SIGINT, SIGQUIT and the crashes (SIGILL, SIGTRAP, SIGABRT,
/// SIGBUS, SIGFPE, SIGSEGV) that restores the terminal (with `write(2)`
/// and `tcsetattr(3)`, both async-signal-safe) and then dies of the signal as it would have;
/// SIGTSTP sent from outside (`kill -TSTP`) restores and stops, and SIGCONT brings the screen
/// back (`takeResumed()`). SIGWINCH sets a flag (`takeResized()`).
///
/// ```swift
/// let terminal = try TerminalDevice()
/// terminal.enter(mouse: true)
/// defer { terminal.leave() }
/// ```
public final class TerminalDevice {
  public let input: Int32
  public let output: Int32

  /// Signals a handler of this type saw: read (and cleared) by the loop.
  private static let resized = Atomic<Bool>(false)
  private static let resumed = Atomic<Bool>(false)

  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Whether both ends are a terminal.
  public var isTerminal: Bool { isatty(input) == 1 && isatty(output) == 1 }

  /// Columns and rows (80×24 when the terminal does not say).
  public var size: (width: Int, height: Int) {
    var window = winsize()
    if ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
      return (Int(window.ws_col), Int(window.ws_row))
    }
    return (80, 24)
  }

  /// Raw mode (keys one at a time, no echo, no signals from keys: Ctrl-C, Ctrl-Z are keys), the
  /// alternate screen, no cursor, no line wrap, bracketed paste and, with `mouse`, SGR mouse
  /// reports. Signal handlers are installed the first time.
  public func enter(mouse: Bool) {
    if !TerminalState.saved {
      _ = tcgetattr(input, &TerminalState.original)
      TerminalState.saved = true
    }
    var raw = TerminalState.original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    // Everything a handler needs is in place before the terminal changes.
    TerminalState.prepareRestoreSequences()
    TerminalState.mouse = mouse
    TerminalState.outputDescriptor = output
    TerminalState.inputDescriptor = input
    TerminalState.active = true
    installHandlers()
    _ = tcsetattr(input, TCSADRAIN, &raw)
    let start = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h" + (mouse ? "\u{1B}[?1000h\u{1B}[?1006h" : "")
    write(start)
  }

  /// Puts the terminal back as it was before `enter`: main screen, cursor, wrap, cooked mode.
  public func leave() {
    guard TerminalState.active else { return }
    TerminalState.restore()
  }

  /// Stops the process as Ctrl-Z would in a shell (the terminal restored first); returns when
  /// it is continued (`fg`), with the screen to be entered again by the caller.
  public func suspend() {
    leave()
    signal(SIGTSTP, SIG_DFL)
    raise(SIGTSTP)
    // Continued.
    _ = Self.resumed.exchange(false, ordering: .sequentiallyConsistent)
  }

  /// Writes text to the terminal, all of it (retrying after a signal).
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(output, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return
        }
        offset += written
      }
    }
  }

  /// Waits up to `milliseconds` (forever when negative) for bytes from the terminal and returns
  /// them; empty after the wait, after a signal, or when input ended (`ended`).
  public func read(waiting milliseconds: Int32) -> (bytes: [UInt8], ended: Bool) {
    var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, milliseconds)
    guard ready > 0 else { return ([], false) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = Glibc.read(input, &buffer, buffer.count)
    if count < 0 { return ([], errno != EINTR && errno != EAGAIN) }
    if count == 0 { return ([], true) }
    return (Array(buffer[0..<count]), false)
  }

  /// Whether the window changed size since the last call.
  public func takeResized() -> Bool {
    Self.resized.exchange(false, ordering: .sequentiallyConsistent)
  }

  /// Whether the process was continued after a stop since the last call.
  public func takeResumed() -> Bool {
    Self.resumed.exchange(false, ordering: .sequentiallyConsistent)
  }

  private func installHandlers() {
    guard !TerminalState.handlersInstalled else {
      signal(SIGTSTP, TerminalState.onStop)
      return
    }
    TerminalState.handlersInstalled = true
    _ = Self.resized.load(ordering: .sequentiallyConsistent)
    _ = Self.resumed.load(ordering: .sequentiallyConsistent)
    // A crash (a trap, a bad access) puts the terminal back too, then dies as it would have.
    for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = TerminalState.onFatal
      sigemptyset(&action.sa_mask)
      action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
      _ = sigaction(number, &action, nil)
    }
    var resize = sigaction()
    resize.__sigaction_handler.sa_handler = { _ in TerminalDevice.resized.store(true, ordering: .sequentiallyConsistent) }
    sigemptyset(&resize.sa_mask)
    _ = sigaction(SIGWINCH, &resize, nil)
    var resume = sigaction()
    resume.__sigaction_handler.sa_handler = { _ in TerminalDevice.resumed.store(true, ordering: .sequentiallyConsistent) }
    sigemptyset(&resume.sa_mask)
    _ = sigaction(SIGCONT, &resume, nil)
    signal(SIGTSTP, TerminalState.onStop)
    // A parent may have started us with these blocked (test runners do): unblock them.
    var set = sigset_t()
    sigemptyset(&set)
    for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH, SIGCONT, SIGTSTP] { sigaddset(&set, number) }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}

/// What the signal handlers need, kept where a C function pointer can reach it: written before
/// the handlers are installed, only read in them.
private enum TerminalState {
  nonisolated(unsafe) static var original = termios()
  nonisolated(unsafe) static var saved = false
  nonisolated(unsafe) static var active = false
  nonisolated(unsafe) static var handlersInstalled = false
  nonisolated(unsafe) static var inputDescriptor: Int32 = STDIN_FILENO
  nonisolated(unsafe) static var outputDescriptor: Int32 = STDOUT_FILENO
  nonisolated(unsafe) static var mouse = false
  /// The bytes that undo `enter` (with the mouse, and without), allocated once and never freed:
  /// a handler only reads them.
  nonisolated(unsafe) static var withMouse: (UnsafeMutablePointer<CChar>, Int)?
  nonisolated(unsafe) static var withoutMouse: (UnsafeMutablePointer<CChar>, Int)?

  static func prepareRestoreSequences() {
    guard withMouse == nil else { return }
    func allocate(_ text: String) -> (UnsafeMutablePointer<CChar>, Int) {
      let bytes = Array(text.utf8CString)
      let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
      pointer.initialize(from: bytes, count: bytes.count)
      return (pointer, bytes.count - 1)
    }
    let common = "\u{1B}[?2004l\u{1B}[?7h\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    withoutMouse = allocate(common)
    withMouse = allocate("\u{1B}[?1006l\u{1B}[?1000l" + common)
  }

  /// Async-signal-safe: `write(2)` and `tcsetattr(3)` only.
  static func restore() {
    active = false
    if let (bytes, count) = mouse ? withMouse : withoutMouse { _ = Glibc.write(outputDescriptor, bytes, count) }
    _ = tcsetattr(inputDescriptor, TCSAFLUSH, &original)
  }

  static let onFatal: @convention(c) (Int32) -> Void = { number in
    if TerminalState.active { TerminalState.restore() }
    // SA_RESETHAND put the default action back: die of the signal, as without us.
    raise(number)
  }

  static let onStop: @convention(c) (Int32) -> Void = { _ in
    if TerminalState.active { TerminalState.restore() }
    signal(SIGTSTP, SIG_DFL)
    raise(SIGTSTP)
  }
}
