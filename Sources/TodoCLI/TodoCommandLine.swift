#if canImport(Glibc)
import Glibc
#endif

/// The entry point of the `todo` program: turns `argv` into an exit status.
public enum TodoCommandLine {
  /// Runs the program with the process's own arguments and environment.
  public static func main() -> Int32 {
    // Placeholder until the command line lands (issue 3).
    return 0
  }
}
