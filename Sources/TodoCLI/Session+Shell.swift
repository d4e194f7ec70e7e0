extension Session {
  /// Starts the interactive shell (issue 4).
  func runShell(options: GlobalOptions) -> Int32 {
    Failure.environment("the shell is not available yet").report(to: standardError, json: false)
    return 1
  }
}
