#if canImport(Glibc)
import Glibc
#endif

/// The entry point of the `todo` program: turns `argv` into an exit status.
public enum TodoCommandLine {
  /// Runs the program with the process's own arguments and environment.
  public static func main() -> Int32 {
    OutputStream.ignoreBrokenPipe()
    // Ctrl-C, SIGTERM and SIGHUP end todo (a write in progress rolls back), even when the parent
    // left them blocked (a test runner does); ignored ones (`nohup`, a script's `&`) stay ignored.
    var stops = sigset_t()
    sigemptyset(&stops)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, signal) }
    pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    let session = Session(
      environment: Terminal.processEnvironment(), standardOutput: .standardOutput(),
      standardError: .standardError(), outputIsTerminal: Terminal.isTerminal(STDOUT_FILENO),
      inputIsTerminal: Terminal.isTerminal(STDIN_FILENO), errorIsTerminal: Terminal.isTerminal(STDERR_FILENO))
    if session.inputIsTerminal && !Terminal.isTerminal(STDERR_FILENO) {
      let terminal = open("/dev/tty", O_WRONLY | O_CLOEXEC)
      if terminal >= 0 { session.questionStream = OutputStream(fileDescriptor: terminal) }
    }
    guard let arguments = validatedArguments() else {
      let lossy = CommandLine.arguments.dropFirst().map { $0 }
      CommandFailure.usage(.invalid("an argument is not valid UTF-8; todo stores text only as UTF-8"))
        .report(to: session.standardError, json: Session.asksForJSON(lossy))
      session.standardError.flush()
      return 2
    }
    return session.execute(arguments: arguments)
  }

  /// The arguments after the program name, or nil when one is not valid UTF-8 (Swift's
  /// `CommandLine.arguments` would silently replace the bad bytes, altering the user's text).
  static func validatedArguments() -> [String]? {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index], let argument = String(validatingCString: pointer) else {
        return nil
      }
      arguments.append(argument)
    }
    return arguments
  }
}
