import Synchronization
import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// Running another program: the editor of `todo edit` (on our terminal), and hooks (fed on
/// standard input, read on standard output, stopped after a time limit). Programs are started
/// with `posix_spawn` and an argument vector: no shell ever sees task text.
public enum ChildProcess {
  /// Why a program could not be started.
  public struct StartError: Error, Sendable {
    public var reason: String
  }

  /// What a program did.
  public struct Outcome: Sendable {
    /// The exit status; 128 + the signal when a signal ended it.
    public var status: Int32
    public var output: [UInt8]
    public var errors: [UInt8]
    public var timedOut: Bool
  }

  /// The most output kept of a hook, per stream.
  public static let outputLimit = 4 << 20

  /// The signal (SIGINT, SIGTERM, SIGHUP) that came while a hook ran; 0: none.
  private static let stopSignal = Atomic<Int32>(0)

  /// While a hook runs, a signal that would end todo (SIGINT, SIGTERM, SIGHUP) first stops the
  /// hook's process group (which the terminal's Ctrl-C does not reach: it is a group of its
  /// own), then is handed to what was in place before: the default action ends todo as the
  /// signal would have; a handler (the shell's Ctrl-C) runs, and the hook counts as failed
  /// (`interrupted`). A signal that was ignored stays ignored.
  private static func catchingStopSignals<Value>(_ body: () -> Value) -> (value: Value, interrupted: Bool) {
    stopSignal.store(0, ordering: .sequentiallyConsistent)
    let signals = [SIGINT, SIGTERM, SIGHUP]
    var previous: [Int32: sigaction] = [:]
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { signal in
      ChildProcess.stopSignal.store(signal, ordering: .sequentiallyConsistent)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    var stops = sigset_t()
    sigemptyset(&stops)
    for signal in signals {
      var old = sigaction()
      sigaction(signal, nil, &old)
      // SIG_IGN is 1: an ignored signal (nohup, a script's `&`) is left alone.
      guard unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) != 1 else { continue }
      previous[signal] = old
      sigaction(signal, &action, nil)
      sigaddset(&stops, signal)
    }
    // Caught even when the parent left them blocked (a test runner does).
    var mask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &stops, &mask)
    let value = body()
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    for (signal, old) in previous {
      var old = old
      sigaction(signal, &old, nil)
    }
    let caught = stopSignal.exchange(0, ordering: .sequentiallyConsistent)
    guard caught != 0 else { return (value, false) }
    // Held by todo itself (`holdingStopSignals`: a file to remove first): left pending, to be
    // delivered when the hold ends.
    if heldByTodo.load(ordering: .sequentiallyConsistent) {
      raise(caught)
      return (value, true)
    }
    // Handed to what was there before, even where the parent left it blocked.
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, caught)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(caught)
    pthread_sigmask(SIG_SETMASK, &mask, nil)
    return (value, true)
  }

  /// True while `holdingStopSignals` runs.
  private static let heldByTodo = Atomic<Bool>(false)

  /// Runs `body` with SIGINT, SIGTERM, SIGHUP and SIGQUIT held off (blocked), so that what it
  /// cleans up on its way out (`todo edit`'s file, which holds the task's whole text) is cleaned
  /// up whatever stop comes: a signal that came meanwhile is delivered, with its usual effect,
  /// once `body` has returned. Programs started meanwhile get them as usual.
  public static func holdingStopSignals<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    var stops = sigset_t()
    var saved = sigset_t()
    sigemptyset(&stops)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&stops, signal) }
    pthread_sigmask(SIG_BLOCK, &stops, &saved)
    heldByTodo.store(true, ordering: .sequentiallyConsistent)
    defer {
      heldByTodo.store(false, ordering: .sequentiallyConsistent)
      pthread_sigmask(SIG_SETMASK, &saved, nil)
    }
    return try body()
  }

  /// Whether a signal that ends todo (SIGTERM, SIGHUP) is waiting, held off by
  /// `holdingStopSignals`: what todo was doing should stop without changing anything.
  public static func stopIsPending() -> Bool {
    var pending = sigset_t()
    sigpending(&pending)
    return sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGHUP) == 1
  }

  /// Runs a program on our terminal (standard input, output and error inherited) and waits for
  /// it; Ctrl-C and Ctrl-\ are the program's while it runs, not ours. Returns its exit status,
  /// or the reason it could not start.
  public static func runInteractive(_ arguments: [String], environment: [String: String]) -> Result<Int32, StartError> {
    var ignore = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    var oldInterrupt = sigaction()
    var oldQuit = sigaction()
    sigaction(SIGINT, &ignore, &oldInterrupt)
    sigaction(SIGQUIT, &ignore, &oldQuit)
    defer {
      sigaction(SIGINT, &oldInterrupt, nil)
      sigaction(SIGQUIT, &oldQuit, nil)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGQUIT)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    // With no signal held off, whatever todo holds (`holdingStopSignals`).
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    // The editor gets the terminal and nothing else todo holds open (the database).
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in openDescriptors() where descriptor > 2 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    switch spawn(arguments, environment: environment, actions: &actions, attributes: &attributes) {
    case .failure(let reason): return .failure(reason)
    case .success(let pid): return .success(wait(for: pid, deadline: nil).status)
    }
  }

  /// Runs a program with `input` on its standard input, collecting its standard output and
  /// error, in a process group of its own, which is killed when it runs longer than `timeout`
  /// seconds.
  public static func run(_ arguments: [String], environment: [String: String], input: [UInt8], timeout: Double)
    -> Result<Outcome, StartError>
  {
    let (result, interrupted) = catchingStopSignals {
      runCaught(arguments, environment: environment, input: input, timeout: timeout)
    }
    return interrupted ? .failure(StartError(reason: "it was interrupted")) : result
  }

  private static func runCaught(_ arguments: [String], environment: [String: String], input: [UInt8], timeout: Double)
    -> Result<Outcome, StartError>
  {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    var errorsFromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errorsFromChild) == 0 else {
      return .failure(StartError(reason: String(cString: strerror(errno))))
    }
    for descriptor in toChild + fromChild + errorsFromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], STDERR_FILENO)
    // Nothing else todo holds open reaches the hook (nor what it leaves running): a descriptor
    // someone waits on for its end (a parent's pipe) would otherwise stay open with them.
    for descriptor in openDescriptors() where descriptor > 2 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setpgroup(&attributes, 0)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let spawned = spawn(arguments, environment: environment, actions: &actions, attributes: &attributes)
    close(toChild[0])
    close(fromChild[1])
    close(errorsFromChild[1])
    guard case .success(let pid) = spawned else {
      close(toChild[1])
      close(fromChild[0])
      close(errorsFromChild[0])
      if case .failure(let reason) = spawned { return .failure(reason) }
      return .failure(StartError(reason: "cannot start it"))
    }
    let deadline = monotonicSeconds() + timeout
    var input = input[...]
    var writing: Int32? = toChild[1]
    if input.isEmpty {
      close(toChild[1])
      writing = nil
    } else {
      _ = fcntl(toChild[1], F_SETFL, fcntl(toChild[1], F_GETFL) | O_NONBLOCK)
    }
    var reading: [Int32: [UInt8]] = [fromChild[0]: [], errorsFromChild[0]: []]
    var open = [fromChild[0], errorsFromChild[0]]
    var timedOut = false
    var buffer = [UInt8](repeating: 0, count: 65_536)
    // Once the program has exited, what it wrote is read for a moment more; a program it left
    // running in the background may hold the pipes open for as long as it likes.
    var exited: Int32?
    var drainUntil = Double.infinity
    while !open.isEmpty || writing != nil {
      if exited == nil {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
          exited = decoded(status)
          drainUntil = monotonicSeconds() + 0.2
        }
      }
      if monotonicSeconds() >= drainUntil { break }
      if stopSignal.load(ordering: .sequentiallyConsistent) != 0 {
        timedOut = exited == nil
        break
      }
      let left = min(deadline, drainUntil) - monotonicSeconds()
      if left <= 0 {
        timedOut = exited == nil
        break
      }
      var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if let writing { descriptors.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(left * 1000, exited == nil ? 50 : 1000)) + 1)
      if ready < 0 && errno != EINTR { break }
      for descriptor in descriptors where descriptor.revents != 0 {
        if descriptor.fd == writing {
          let count = input.withUnsafeBytes { write(descriptor.fd, $0.baseAddress, $0.count) }
          if count > 0 { input = input.dropFirst(count) }
          if (count < 0 && errno != EAGAIN && errno != EINTR) || input.isEmpty {
            close(descriptor.fd)
            writing = nil
          }
        } else {
          let count = read(descriptor.fd, &buffer, buffer.count)
          if count > 0 {
            if reading[descriptor.fd]!.count < outputLimit { reading[descriptor.fd]!.append(contentsOf: buffer[0..<count]) }
          } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            close(descriptor.fd)
            open.removeAll { $0 == descriptor.fd }
          }
        }
      }
    }
    if let writing { close(writing) }
    for descriptor in open { close(descriptor) }
    var result: (status: Int32, timedOut: Bool) =
      if let exited { (exited, false) } else if timedOut { (Int32(128 + SIGKILL), true) } else { wait(for: pid, deadline: deadline) }
    if timedOut || result.timedOut {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      result = (wait(for: pid, deadline: nil).status, true)
    }
    return .success(
      Outcome(status: result.status, output: reading[fromChild[0]]!, errors: reading[errorsFromChild[0]]!, timedOut: result.timedOut))
  }

  private static func spawn(
    _ arguments: [String], environment: [String: String], actions: UnsafePointer<posix_spawn_file_actions_t>?,
    attributes: UnsafePointer<posix_spawnattr_t>
  ) -> Result<pid_t, StartError> {
    Subprocess.spawn(arguments, environment: environment, actions: actions, attributes: attributes).mapError {
      StartError(reason: $0.reason)
    }
  }

  /// Waits for a child; with a deadline, gives up when it passes (`timedOut`).
  private static func wait(for pid: pid_t, deadline: Double?) -> (status: Int32, timedOut: Bool) {
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { return (127, false) }
      if let deadline {
        // Past the time limit, or todo is being stopped: the caller kills the hook's group.
        if monotonicSeconds() >= deadline || stopSignal.load(ordering: .sequentiallyConsistent) != 0 {
          return (Int32(128 + SIGKILL), true)
        }
        usleep(5_000)
      }
    }
    return (decoded(status), false)
  }

  /// An exit status as a shell shows it: the code, or 128 + the signal (WIFEXITED,
  /// WEXITSTATUS and WTERMSIG, which Swift does not import as macros).
  private static func decoded(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// The file descriptors open in this process (from /proc/self/fd), the one reading the folder
  /// left out.
  private static func openDescriptors() -> [Int32] {
    guard let folder = opendir("/proc/self/fd") else { return [] }
    defer { closedir(folder) }
    let own = dirfd(folder)
    var descriptors: [Int32] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let descriptor = Int32(name), descriptor != own { descriptors.append(descriptor) }
    }
    return descriptors
  }

  public static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
