#if canImport(Glibc)
import Glibc
#endif

/// Where files live, and the few file-system calls the command line makes (Glibc, no Foundation).
public enum FileSystem {
  /// The database path: `--db`, else `$TODO_DB`, else `${XDG_DATA_HOME:-$HOME/.local/share}/todo/todo.db`.
  /// Returns nil when no path can be worked out (no HOME).
  public static func databasePath(option: String?, environment: [String: String]) -> (path: String, isDefault: Bool)? {
    if let option, !option.isEmpty { return (option, false) }
    if let fromEnvironment = environment["TODO_DB"], !fromEnvironment.isEmpty { return (fromEnvironment, false) }
    guard let base = xdgDirectory("XDG_DATA_HOME", fallback: ".local/share", environment: environment) else { return nil }
    return (base + "/todo/todo.db", true)
  }

  /// The shell's history file: `${XDG_STATE_HOME:-$HOME/.local/state}/todo/history`.
  public static func historyPath(environment: [String: String]) -> String? {
    xdgDirectory("XDG_STATE_HOME", fallback: ".local/state", environment: environment).map { $0 + "/todo/history" }
  }

  /// An XDG base directory; relative values are ignored, as the specification says.
  public static func xdgDirectory(_ variable: String, fallback: String, environment: [String: String]) -> String? {
    if let value = environment[variable], value.hasPrefix("/") { return value }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return (home == "/" ? "" : home) + "/" + fallback
  }

  /// The folder part of a path (`.` for a bare file name).
  public static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// True when this process may write the file.
  public static func isWritable(_ path: String) -> Bool {
    access(path, W_OK) == 0
  }

  /// True when `path` is a regular file (following symbolic links).
  public static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// True when `path` is a directory (following symbolic links).
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The first `count` bytes of a regular file (fewer when it is shorter), or nil when it cannot
  /// be read.
  public static func prefix(of path: String, count: Int) -> [UInt8]? {
    guard isRegularFile(path) else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
    guard read >= 0 else { return nil }
    return Array(bytes.prefix(read))
  }

  /// True when a file (or anything) exists at `path`.
  public static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Creates an empty file with mode 0600 when nothing exists at `path` (an empty file is an
  /// empty SQLite database; SQLite's journal files take the database file's mode).
  public static func createPrivateFile(_ path: String) {
    guard !exists(path) else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
  }

  /// Creates the folder that will hold `path` and its missing parents, with mode 0700.
  /// Returns an error message when it cannot.
  public static func createParentFolders(of path: String) -> String? {
    var created: [String] = []
    return createParentFolders(of: path, created: &created)
  }

  /// `createParentFolders(of:)`, adding the folders it made (not those already there) to
  /// `created`, outermost first, so that a command that fails can take them away again.
  public static func createParentFolders(of path: String, created: inout [String]) -> String? {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
    let folder = String(path[..<slash])
    // A relative path's folders are made from the current folder, not from the root.
    var current = path.hasPrefix("/") ? "" : "."
    for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
      current += "/" + part
      if mkdir(current, 0o700) == 0 {
        created.append(current)
      } else if errno != EEXIST {
        return "cannot create folder \(current): \(String(cString: strerror(errno)))"
      }
    }
    return nil
  }

  /// Why a file could not be read.
  public struct ReadProblem: Error {
    public var reason: String
    public init(reason: String) { self.reason = reason }
  }

  /// Every byte of a file, or of standard input when `path` is nil.
  public static func readAll(_ path: String?) -> Result<[UInt8], ReadProblem> {
    do throws(ReadProblem) {
      let input = try InputFile(path)
      var bytes: [UInt8] = []
      while let piece = try input.read(atLeast: 1 << 16) { bytes += piece }
      return .success(bytes)
    } catch {
      return .failure(error)
    }
  }

  /// A file (or standard input) read piece by piece, for inputs too large to hold twice.
  public final class InputFile {
    private let descriptor: Int32
    private let owned: Bool
    /// True once a read met the end: later reads return nil without reading (or allocating).
    private var ended = false

    /// Opens `path`, or standard input when it is nil.
    public init(_ path: String?) throws(ReadProblem) {
      if let path {
        if FileSystem.isDirectory(path) { throw ReadProblem(reason: "it is a directory") }
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadProblem(reason: String(cString: strerror(errno))) }
        owned = true
      } else {
        descriptor = STDIN_FILENO
        owned = false
      }
    }

    deinit { if owned { close(descriptor) } }

    /// The next `atLeast` bytes (fewer only at the end of the input); nil at its end.
    public func read(atLeast wanted: Int) throws(ReadProblem) -> [UInt8]? {
      guard !ended else { return nil }
      var bytes = [UInt8](repeating: 0, count: max(wanted, 1))
      var filled = 0
      while filled < bytes.count {
        let count = bytes.withUnsafeMutableBytes { buffer in
          Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw ReadProblem(reason: String(cString: strerror(errno)))
        }
        if count == 0 {
          ended = true
          break
        }
        filled += count
      }
      guard filled > 0 else { return nil }
      bytes.removeSubrange(filled...)
      return bytes
    }
  }

  /// Writes a file atomically: a temporary file in the same folder, written and flushed to disk,
  /// then renamed over `path`, and the folder flushed. A symbolic link at `path` is followed to
  /// its target only when the user, root or the owner of its folder made it (`writeTarget`): one
  /// another user planted in a shared folder is refused. A FIFO, terminal or device at `path`
  /// (`/dev/stdout`, `/dev/null`) is written in place, never replaced by a regular file.
  /// A file that exists keeps its permissions; a new one is private (0600), as the tasks in it
  /// are. On any failure the temporary file is removed and `path` is left as it was. Returns the
  /// reason on failure.
  ///
  /// The temporary file is made by `mkstemps` (`NAME.todo-XXXXXX.tmp`, a name nobody can guess
  /// beforehand, created 0600 and never through a link). SIGINT, SIGTERM, SIGHUP and SIGQUIT
  /// are held off while it exists, so a stop at any moment finds either the old file or the new
  /// one and no temporary file behind: the signal is delivered, with its usual effect, once the
  /// file is renamed or removed. SIGKILL, which nothing can hold off, or a crash can leave one (a
  /// sync removes those of its vdir; `removeLeftoverTemporaryFiles`).
  ///
  /// `durable` false skips flushing the file and its folder to disk (many files written in a row
  /// are flushed once with `flushFileSystem(of:)`).
  public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) -> String? {
    let target: String
    switch writeTarget(path) {
    case .failure(let problem): return problem.reason
    case .success(.inPlace(let special)): return writeInPlace(bytes, to: special, followingLink: false)
    case .success(.throughDescriptorLink(let link)): return writeInPlace(bytes, to: link, followingLink: true)
    case .success(.replace(let file)): target = file
    }
    var status = stat()
    // A file of the user's keeps its mode; a new one, or one another user made (0666 in a shared
    // folder would open the temporary file to them), is private.
    let mode: mode_t = stat(target, &status) == 0 && status.st_uid == geteuid() ? status.st_mode & 0o7777 : 0o600
    let suffix = ".tmp"
    var template = Array((target + ".todo-XXXXXX" + suffix).utf8CString)
    var stops = sigset_t()
    var mask = sigset_t()
    sigemptyset(&stops)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&stops, signal) }
    pthread_sigmask(SIG_BLOCK, &stops, &mask)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    let descriptor = mkstemps(&template, Int32(suffix.utf8.count))
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    // No child (a hook, vdirsyncer) inherits it.
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    let temporary = String(cString: template)
    var written = 0
    var problem: String?
    // mkstemps makes the file 0600 less the umask: set the mode exactly (a file that exists keeps its own).
    if fchmod(descriptor, mode) != 0 { problem = String(cString: strerror(errno)) }
    while problem == nil, written < bytes.count {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 {
        if errno == EINTR { continue }
        problem = String(cString: strerror(errno))
        break
      }
      written += count
    }
    if problem == nil, durable, fsync(descriptor) != 0 { problem = String(cString: strerror(errno)) }
    if close(descriptor) != 0, problem == nil { problem = String(cString: strerror(errno)) }
    if problem == nil, Glibc.rename(temporary, target) != 0 { problem = String(cString: strerror(errno)) }
    if problem != nil {
      unlink(temporary)
      return problem
    }
    guard durable else { return nil }
    let directory = open(folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
    return nil
  }

  /// Removes the temporary files `writeAtomically` left in a vdir `folder` for its items
  /// (`NAME.ics.todo-XXXXXX.tmp`, regular files): only a process killed with SIGKILL between making
  /// one and renaming it leaves one. The caller must hold whatever lock keeps other writers out.
  public static func removeLeftoverTemporaryFiles(in folder: String) {
    guard case .success(let names) = files(in: folder, endingIn: ".tmp") else { return }
    for name in names where isLeftoverTemporaryName(name) { unlink(folder + "/" + name) }
  }

  /// Whether `name` is one `writeAtomically` gives the temporary file of a vdir item:
  /// `….ics.todo-XXXXXX.tmp`, the X letters and digits.
  public static func isLeftoverTemporaryName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    let marker = Array(".ics.todo-".utf8)
    let tail = Array(".tmp".utf8)
    let randomCount = 6
    guard bytes.count > marker.count + randomCount + tail.count, bytes.suffix(tail.count).elementsEqual(tail) else { return false }
    let randomStart = bytes.count - tail.count - randomCount
    let markerStart = randomStart - marker.count
    let isAlphanumeric = { (byte: UInt8) in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
    return bytes[markerStart..<randomStart].elementsEqual(marker)
      && bytes[randomStart..<(randomStart + randomCount)].allSatisfy(isAlphanumeric)
  }

  /// The names of the regular files in a folder whose names end in `suffix` (hidden ones left
  /// out), sorted by their bytes.
  public static func files(in folder: String, endingIn suffix: String) -> Result<[String], ReadProblem> {
    guard let directory = opendir(folder) else { return .failure(ReadProblem(reason: String(cString: strerror(errno)))) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix("."), name.lowercased().hasSuffix(suffix) else { continue }
      var status = stat()
      guard stat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      names.append(name)
    }
    return .success(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  /// The file's modification time (nanoseconds) and size, as text: what changes when anyone
  /// writes it (vdirsyncer uses the same as a local file's etag). Nil when it cannot be read.
  public static func stamp(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec);\(status.st_size)"
  }

  /// Moves a file to `target` in the same file system, failing (and moving nothing) when
  /// `target` exists: a hard link, then the old name removed. The reason when it cannot.
  public static func moveWithoutReplacing(_ path: String, to target: String) -> String? {
    guard link(path, target) == 0 else {
      return errno == EEXIST ? "it exists now; nothing was replaced" : String(cString: strerror(errno))
    }
    unlink(path)
    return nil
  }

  /// Removes a file; the reason when it cannot (a file already gone is not a problem).
  public static func remove(_ path: String) -> String? {
    unlink(path) == 0 || errno == ENOENT ? nil : String(cString: strerror(errno))
  }

  /// Flushes the file system that holds `path` to disk (one call after many non-durable writes).
  public static func flushFileSystem(of path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = flushFileSystemCall(descriptor)
    close(descriptor)
  }
}

/// `syncfs(2)`, which Glibc's module leaves out (it needs `_GNU_SOURCE`).
@_silgen_name("syncfs")
private func flushFileSystemCall(_ descriptor: Int32) -> Int32
