#if canImport(Glibc)
import Glibc
#endif

/// Running another program (vdirsyncer) and collecting what it prints.
public enum Subprocess {
  /// The full path of a program on `PATH`, or nil.
  public static func find(_ program: String, path: String) -> String? {
    if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = folder + "/" + program
      if access(candidate, X_OK) == 0 && !FileSystem.isDirectory(candidate) { return candidate }
    }
    return nil
  }

  /// Starts `arguments` (the first is the program's full path) with exactly `environment`, by
  /// `posix_spawn` (no shell), with the file actions and attributes given; the process id, or
  /// why it could not start.
  public static func spawn(
    _ arguments: [String], environment: [String: String], actions: UnsafePointer<posix_spawn_file_actions_t>?,
    attributes: UnsafePointer<posix_spawnattr_t>?
  ) -> Result<pid_t, FileSystem.ReadProblem> {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup($0.key + "=" + $0.value) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, arguments[0], actions, attributes, argv, envp)
    guard status == 0 else { return .failure(.init(reason: String(cString: strerror(status)))) }
    return .success(pid)
  }

  /// Runs `arguments` (the first is the program's full path) with `environment`, standard input
  /// inherited, and standard output and error collected together; `echo` also copies them to our
  /// standard error as they come (so a password prompt shows). Returns the exit status (128 + the
  /// signal when killed) and the output, or the reason it could not start.
  public static func run(_ arguments: [String], environment: [String: String], echo: Bool) -> Result<
    (status: Int32, output: String), FileSystem.ReadProblem
  > {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return .failure(.init(reason: String(cString: strerror(errno)))) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    let spawned = spawn(arguments, environment: environment, actions: &actions, attributes: nil)
    close(pipeEnds[1])
    guard case .success(let pid) = spawned else {
      close(pipeEnds[0])
      if case .failure(let problem) = spawned { return .failure(problem) }
      return .failure(.init(reason: "cannot start it"))
    }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      output.append(contentsOf: chunk[0..<count])
      if echo { _ = chunk.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, count) } }
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = status & 0x7f == 0
    let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return .success((code, String(decoding: output, as: UTF8.self)))
  }

  /// This program's own path (for the command vdirsyncer calls back).
  public static func ownPath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
