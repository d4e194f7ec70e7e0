import TodoSystem

/// A vdir: a folder of `.ics` files, one item each (the layout vdirsyncer and todoman use). The
/// only code of a sync that touches the item files.
public struct Vdir: Sendable {
  public let folder: String

  public init(folder: String) {
    self.folder = folder
  }

  /// Every `.ics` file (hidden ones and temporary files left out), with its stamp.
  public func list() -> Result<[String: String], FileSystem.ReadProblem> {
    switch FileSystem.files(in: folder, endingIn: ".ics") {
    case .failure(let problem): return .failure(problem)
    case .success(let names):
      var listing: [String: String] = [:]
      for name in names {
        // A file removed between listing and stating it is simply not there.
        if let stamp = FileSystem.stamp(folder + "/" + name) { listing[name] = stamp }
      }
      return .success(listing)
    }
  }

  public func read(_ name: String) -> Result<[UInt8], FileSystem.ReadProblem> {
    FileSystem.readAll(folder + "/" + name)
  }

  /// Writes a file atomically (a temporary file in the folder, renamed), not yet flushed to disk.
  public func write(_ bytes: [UInt8], to name: String) -> String? {
    FileSystem.writeAtomically(bytes, to: folder + "/" + name, durable: false)
  }

  public func remove(_ name: String) -> String? {
    FileSystem.remove(folder + "/" + name)
  }

  public func stamp(_ name: String) -> String? {
    FileSystem.stamp(folder + "/" + name)
  }

  /// Makes every write so far durable.
  public func flush() {
    FileSystem.flushFileSystem(of: folder)
  }
}
