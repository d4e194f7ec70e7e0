import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C in the interactive shell: SIGINT becomes a flag instead of ending the process.
///
/// How it cancels the line being edited: libedit (with `rl_catch_signals` left at its default)
/// installs its own SIGINT handler while `readline()` waits for a key. That handler puts the
/// terminal back in cooked mode, reinstalls the handler that was there before (this one) and
/// raises the signal again, with `kill(0, SIGINT)`: to the whole process group, so a
/// non-interactive parent shell that shares the group (`bash -c 'todo shell; …'`, no job control)
/// gets Ctrl-C twice, and bash 5.2 can take the second one for its own and exit while the shell
/// goes on. Interactive shells run `todo` in a group of its own. Because this handler is
/// installed without `SA_RESTART`, the `read(2)` libedit is blocked in fails with `EINTR`,
/// libedit drops the line and `readline()` returns NULL, which alone would look like Ctrl-D;
/// the flag tells the two apart.
///
/// SIGINT is also unblocked in the calling thread (the one that will run `readline()`): a
/// blocked mask is inherited across `exec`, and a parent that ran us with SIGINT blocked (seen
/// with test runners) would otherwise leave Ctrl-C without effect.
///
/// A Ctrl-C while a command runs only sets the flag, which the shell clears before the next
/// prompt: the command finishes its transaction. The other signals stay libedit's business
/// (with its handlers, Ctrl-Z then `fg` redraws the line and window resizes are followed).
///
/// ```swift
/// let interrupts = InterruptHandler.install()
/// defer { interrupts.restore() }
/// InterruptHandler.clearPending()
/// // … readline() returned NULL …
/// if InterruptHandler.takePending() { /* Ctrl-C */ } else { /* Ctrl-D */ }
/// ```
struct InterruptHandler {
  /// Set by the signal handler. An atomic, not a plain global, because it is written from a
  /// signal handler and read by the shell's loop.
  private static let pending = Atomic<Bool>(false)

  /// The SIGINT action in place before `install()`, restored by `restore()`.
  private var previousAction = sigaction()
  /// The calling thread's signal mask before `install()`, restored by `restore()`.
  private var previousMask = sigset_t()

  private init() {}

  /// Catches SIGINT (without `SA_RESTART`, so a blocked `read(2)` returns `EINTR`).
  static func install() -> InterruptHandler {
    // Touch the flag first: its lazy initialisation must not happen inside the handler.
    pending.store(false, ordering: .sequentiallyConsistent)
    var handler = InterruptHandler()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      InterruptHandler.pending.store(true, ordering: .sequentiallyConsistent)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    _ = sigaction(SIGINT, &action, &handler.previousAction)
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    _ = pthread_sigmask(SIG_UNBLOCK, &interrupt, &handler.previousMask)
    return handler
  }

  /// Puts back the SIGINT action and the signal mask that were in place before `install()`.
  func restore() {
    var action = previousAction
    var mask = previousMask
    _ = sigaction(SIGINT, &action, nil)
    _ = pthread_sigmask(SIG_SETMASK, &mask, nil)
  }

  /// Forgets a Ctrl-C that came while no line was being edited.
  static func clearPending() {
    pending.store(false, ordering: .sequentiallyConsistent)
  }

  /// Whether Ctrl-C was pressed since the last call (or `clearPending()`), clearing the flag.
  static func takePending() -> Bool {
    pending.exchange(false, ordering: .sequentiallyConsistent)
  }
}
