#if canImport(Glibc)
import Glibc
#endif

/// One `todo sync` at a time per collection: an exclusive `flock` on a lock file, released when
/// the process ends (even by kill -9).
public enum SyncLock {
  /// The lock's descriptor; `.failure` with the reason when another sync holds it (`busy`) or
  /// the file cannot be made. The descriptor is inherited by the programs the sync runs, so a
  /// vdirsyncer left running by a killed sync still holds the lock until it ends.
  public static func acquire(_ path: String) -> Result<Int32, LockProblem> {
    if let problem = FileSystem.createParentFolders(of: path) { return .failure(.other(problem)) }
    let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
    guard descriptor >= 0 else { return .failure(.other("cannot open \(path): \(String(cString: strerror(errno)))")) }
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let reason = errno
      close(descriptor)
      return .failure(reason == EWOULDBLOCK ? .busy : .other("cannot lock \(path): \(String(cString: strerror(reason)))"))
    }
    return .success(descriptor)
  }

  public enum LockProblem: Error {
    case busy
    case other(String)
  }

  public static func release(_ descriptor: Int32) {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
