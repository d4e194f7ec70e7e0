#if canImport(Glibc)
import Glibc
#endif

/// Asking for a password on the terminal itself (`/dev/tty`), whatever standard input, output
/// and error are (a sync's `--json` goes to a pipe; its question must still be seen), without
/// echoing what is typed.
enum SecretPrompt {
  enum Answer: Equatable {
    case typed(String)
    /// No controlling terminal (a cron job, a service): nobody could answer.
    case noTerminal
    /// Ctrl-C, or Ctrl-D on an empty answer.
    case cancelled
  }

  /// The terminal and its settings while a question is open, for the signal handler that puts
  /// them back (a `kill` must not leave the terminal without echo).
  nonisolated(unsafe) private static var open: (descriptor: Int32, saved: termios)?

  static func ask(_ prompt: String) -> Answer {
    let terminal = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    guard terminal >= 0 else { return .noTerminal }
    defer { close(terminal) }
    var saved = termios()
    guard tcgetattr(terminal, &saved) == 0 else { return .noTerminal }
    // No echo, a byte at a time, and Ctrl-C read as a byte (so the settings are always put back).
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
    withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    open = (terminal, saved)
    let previous = [SIGINT, SIGTERM, SIGHUP, SIGQUIT].map { ($0, signal($0, restoreAndDie)) }
    defer {
      var settings = saved
      tcsetattr(terminal, TCSADRAIN, &settings)
      open = nil
      for (number, handler) in previous { signal(number, handler) }
    }
    guard tcsetattr(terminal, TCSAFLUSH, &quiet) == 0 else { return .noTerminal }
    write(terminal, prompt)
    var typed: [UInt8] = []
    var byte: UInt8 = 0
    var escape = Escape.none
    reading: while true {
      let count = read(terminal, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      // The terminal gone (hung up): no half-typed password is sent.
      guard count == 1 else {
        write(terminal, "\n")
        return .cancelled
      }
      // An escape sequence (an arrow, a function key: ESC [ … final, or ESC O x) is skipped whole.
      switch escape {
      case .after:
        escape = byte == 0x5B || byte == 0x4F ? .sequence : .none
        continue
      case .sequence:
        if (0x40...0x7E).contains(byte) { escape = .none }
        continue
      case .none: break
      }
      switch byte {
      case 0x0A, 0x0D: break reading
      case 0x1B: escape = .after
      case 0x03:  // Ctrl-C
        write(terminal, "\n")
        return .cancelled
      case 0x04:  // Ctrl-D: cancels an empty answer, and is no part of a password.
        if typed.isEmpty {
          write(terminal, "\n")
          return .cancelled
        }
      case 0x7F, 0x08:  // Backspace: the last character, all its bytes.
        while let last = typed.popLast(), last & 0xC0 == 0x80 {}
      case 0x15:  // Ctrl-U
        typed.removeAll()
      case 0x00..<0x20:  // Other control keys (an arrow's escape sequence starts so): no part of it.
        break
      default:
        typed.append(byte)
      }
    }
    write(terminal, "\n")
    return .typed(String(decoding: typed, as: UTF8.self))
  }

  private enum Escape { case none, after, sequence }

  private static func write(_ descriptor: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
  }

  /// Puts the terminal back as it was and ends the process by the same signal.
  private static let restoreAndDie: @convention(c) (Int32) -> Void = { number in
    if var state = SecretPrompt.open { tcsetattr(state.descriptor, TCSANOW, &state.saved) }
    signal(number, SIG_DFL)
    raise(number)
  }
}
