#if canImport(Glibc)
import Glibc
#endif

/// How `todo` follows symbolic links at the end of a path it writes or opens: as the kernel's
/// `protected_symlinks` would in a shared folder, but everywhere, because a write replaces a file
/// by renaming, which never opens it through the link (so the kernel's check cannot help).
extension FileSystem {
  /// Why a path cannot be used.
  public struct PathProblem: Error, Equatable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
  }

  /// What writing a path means once its links are followed.
  public enum WriteTarget: Equatable {
    /// A regular file, or nothing yet: written to a temporary file beside it and renamed over it.
    case replace(String)
    /// A FIFO, a terminal, a device or a socket of the user's or root's (`/dev/null`, a named
    /// pipe): written where it is, never replaced by a regular file.
    case inPlace(String)
    /// A link the kernel resolves itself (`/proc/self/fd/1`, which `/dev/stdout` names): what it
    /// leads to (a pipe, a terminal) is written where it is.
    case throughDescriptorLink(String)
  }

  /// The most links followed at the end of one path (the kernel's own limit).
  static let maximumLinks = 40

  /// Whether a symbolic link may be followed: one the user or root made. A link another user
  /// planted (in a shared folder such as `/tmp`, or a folder of theirs) is not followed.
  static func isTrustedLink(_ link: stat) -> Bool {
    link.st_uid == geteuid() || link.st_uid == 0
  }

  /// The refusal of a link that `isTrustedLink` does not trust.
  static func untrustedLinkProblem(_ path: String, _ link: stat) -> PathProblem {
    PathProblem(
      reason: "it is a symbolic link another user (uid \(link.st_uid)) made; todo does not follow links other users "
        + "plant (remove it, or give the path it points to)")
  }

  /// The first folder on the way to `path` (`/tmp/tour` of `/tmp/tour/todo.db`) that is a link
  /// another user made: a planted `/tmp/tour -> ~/.local/share/todo` would lead a path that looks
  /// like a scratch one to the user's own files.
  static func untrustedFolderLink(on path: String) -> PathProblem? {
    let parts = folder(of: path).split(separator: "/", omittingEmptySubsequences: true)
    var current = path.hasPrefix("/") ? "" : "."
    for part in parts {
      current += "/" + part
      var status = stat()
      guard lstat(current, &status) == 0 else { return nil }
      if status.st_mode & S_IFMT == S_IFLNK, !isTrustedLink(status) {
        return PathProblem(
          reason: "the folder \(current) is a symbolic link another user (uid \(status.st_uid)) made; todo does not follow "
            + "links other users plant")
      }
    }
    return nil
  }

  /// `untrustedFolderLink`, and the last part of the path too.
  static func untrustedLink(on path: String) -> PathProblem? {
    if let problem = untrustedFolderLink(on: path) { return problem }
    var status = stat()
    if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, !isTrustedLink(status) {
      return untrustedLinkProblem(path, status)
    }
    return nil
  }

  /// Follows the links at the end of `path`, each of which must be trusted, to what a write
  /// should write: the file to replace (which may not exist yet), or a special file to write in
  /// place. A directory, a loop of links or an untrusted link is a problem.
  public static func writeTarget(_ path: String) -> Result<WriteTarget, PathProblem> {
    var current = path
    for _ in 0..<maximumLinks {
      if let problem = untrustedFolderLink(on: current) { return .failure(problem) }
      var status = stat()
      guard lstat(current, &status) == 0 else {
        if errno == ENOENT { return .success(.replace(current)) }
        return .failure(PathProblem(reason: String(cString: strerror(errno))))
      }
      switch status.st_mode & S_IFMT {
      case S_IFREG: return .success(.replace(current))
      case S_IFDIR: return .failure(PathProblem(reason: "it is a directory"))
      case S_IFLNK:
        let folder = folder(of: current)
        guard isTrustedLink(status) else { return .failure(untrustedLinkProblem(current, status)) }
        guard let destination = readLink(current) else { return .failure(PathProblem(reason: String(cString: strerror(errno)))) }
        let next = destination.hasPrefix("/") ? destination : folder + "/" + destination
        var nextStatus = stat()
        var followed = stat()
        // A link the kernel resolves itself (`/proc/self/fd/1` names a pipe or a terminal, not
        // a path): what it leads to is written in place.
        if lstat(next, &nextStatus) != 0, errno == ENOENT, stat(current, &followed) == 0,
          followed.st_mode & S_IFMT != S_IFREG, followed.st_mode & S_IFMT != S_IFDIR
        {
          return .success(.throughDescriptorLink(current))
        }
        current = next
      default:
        // A FIFO another user made in /tmp would get the export (and hang todo until read).
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
          return .failure(PathProblem(reason: "it is a FIFO, socket or device another user (uid \(status.st_uid)) owns"))
        }
        return .success(.inPlace(current))
      }
    }
    return .failure(PathProblem(reason: "too many levels of symbolic links"))
  }

  /// The text of a symbolic link; nil (with errno set) when it cannot be read.
  static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Writes every byte to a special file where it is (a FIFO, a terminal, a device): no
  /// temporary file, no rename, and nothing to flush. The reason on failure.
  static func writeInPlace(_ bytes: [UInt8], to path: String, followingLink: Bool) -> String? {
    // Not through a link put there since it was looked at, and never into a regular file (a FIFO
    // swapped for one meanwhile): that would be written over without being replaced.
    let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW))
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG || followingLink else {
      return "it changed into a regular file while todo wrote it"
    }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      written += count
    }
    return nil
  }

  /// The problem with using `path` as a database, or nil: links are followed only when
  /// trusted (`writeTarget`); the file and the journal files SQLite keeps beside it must belong
  /// to the user or root; and a folder others may write must be sticky (`/tmp`), so that nobody
  /// else can put a file or a journal in the database's place. Returns the file the path leads to.
  public static func databaseTarget(_ path: String) -> Result<String, PathProblem> {
    let target: String
    switch writeTarget(path) {
    case .failure(let problem): return .failure(problem)
    case .success(.inPlace), .success(.throughDescriptorLink): return .failure(PathProblem(reason: "it is not a regular file"))
    case .success(.replace(let file)): target = file
    }
    let user = geteuid()
    for (file, role) in [
      (target, "it is"), (target + "-wal", "its -wal file is"), (target + "-shm", "its -shm file is"), (target + "-journal", "its -journal file is"),
    ] {
      var status = stat()
      guard lstat(file, &status) == 0 else { continue }
      if status.st_uid != user && status.st_uid != 0 {
        if file != target {
          return .failure(
            PathProblem(reason: "\(role) owned by another user (uid \(status.st_uid)), who could read or change the tasks through it; remove it"))
        }
        let reason = path != target ? "it is a symbolic link to a file another user owns" : "\(role) owned by another user (uid \(status.st_uid))"
        return .failure(PathProblem(reason: reason + "; give the path of your own file"))
      }
      if file != target, status.st_mode & S_IFMT != S_IFREG {
        return .failure(PathProblem(reason: "\(role) not a regular file; remove it"))
      }
    }
    var folderStatus = stat()
    let folder = folder(of: target)
    if stat(folder, &folderStatus) == 0, othersMayWrite(folderStatus), folderStatus.st_mode & mode_t(S_ISVTX) == 0 {
      return .failure(
        PathProblem(
          reason: "its folder \(folder) may be written by other users, who could replace the database or its journal; "
            + "keep it in a folder only you can write (chmod go-w \(folder)), or a sticky one such as /tmp"))
    }
    return .success(target)
  }
}

/// Whether anyone but the user (and root) could change a program todo runs, or the folder it is
/// found in: what OpenSSH's StrictModes checks of `~/.ssh`. When every folder from `/` down and
/// the file itself can be changed only by the user or root, a file checked and then run by its
/// path is the file that was checked: no other user has a moment to swap it.
extension FileSystem {
  /// The first reason someone else could change the file or folder at `path` (followed through
  /// links to what they name, which may be root's: a hook linked to a packaged script; every link
  /// on the way must be the user's or root's) or a folder above it; nil when only the user or root
  /// can. `kind` names it in the reason ("hook", "hooks folder").
  public static func changeableByOthers(_ path: String, kind: String) -> String? {
    if let problem = untrustedLink(on: path) { return problem.reason }
    guard let resolved = realPath(path) else { return "the \(kind) \(path) cannot be read: \(String(cString: strerror(errno)))" }
    var status = stat()
    guard stat(resolved, &status) == 0 else { return "the \(kind) \(path) cannot be read: \(String(cString: strerror(errno)))" }
    if status.st_uid != geteuid() && status.st_uid != 0 {
      return "the \(kind) \(path) is owned by another user (uid \(status.st_uid)), not by you or root"
    }
    if othersMayWrite(status) {
      return "the \(kind) \(path) can be changed by other users (chmod go-w \(path) makes it safe)"
    }
    var current = folder(of: resolved)
    while true {
      var status = stat()
      guard stat(current, &status) == 0 else { return "the folder \(current) cannot be read: \(String(cString: strerror(errno)))" }
      if status.st_uid != geteuid() && status.st_uid != 0 {
        return "the folder \(current) is owned by another user (uid \(status.st_uid)), who could replace what it holds"
      }
      // Sticky (`/tmp`): there nobody may rename or remove what another user made.
      if othersMayWrite(status) && status.st_mode & mode_t(S_ISVTX) == 0 {
        return "the folder \(current) can be changed by other users (chmod go-w \(current) makes it safe)"
      }
      if current == "/" { return nil }
      current = folder(of: current)
    }
  }

  /// Whether users other than the owner may write a file or folder: anyone when it is writable by
  /// all; its group's members when writable by its group, unless that group is the owner's own
  /// private one (Debian's user groups with umask 002, where it has no other member), the
  /// exception Debian's OpenSSH makes too.
  static func othersMayWrite(_ status: stat) -> Bool {
    if status.st_mode & 0o002 != 0 { return true }
    return status.st_mode & 0o020 != 0 && !isPrivateGroup(status.st_gid, of: status.st_uid)
  }

  /// Whether `group` is the primary group of user `owner` and has no other member.
  private static func isPrivateGroup(_ group: gid_t, of owner: uid_t) -> Bool {
    guard let user = getpwuid(owner), user.pointee.pw_gid == group, let entry = getgrgid(group) else { return false }
    let name = String(cString: user.pointee.pw_name)
    var members = entry.pointee.gr_mem
    while let member = members?.pointee {
      if String(cString: member) != name { return false }
      members = members?.advanced(by: 1)
    }
    return true
  }

  /// `realpath(3)`: the absolute path with every link and `.`/`..` resolved; nil (errno set) when
  /// something on the way does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
