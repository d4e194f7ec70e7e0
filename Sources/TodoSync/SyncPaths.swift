import TodoSystem

#if canImport(Glibc)
import Glibc
#endif

/// Where `todo sync` keeps its files, from the XDG base directories:
/// - the vdirsyncer configuration it writes: `${XDG_CONFIG_HOME:-~/.config}/todo/vdirsyncer/config`;
/// - vdirsyncer's status: `${XDG_DATA_HOME:-~/.local/share}/todo/vdirsyncer/status/`;
/// - the vdir mirror: `${XDG_DATA_HOME:-~/.local/share}/todo/vdir/<collection>/`, and its lock
///   file `.<collection>.lock` next to it.
public struct SyncPaths: Sendable {
  public var config: String
  public var status: String
  public var vdirRoot: String

  public init?(environment: [String: String]) {
    guard let configHome = FileSystem.xdgDirectory("XDG_CONFIG_HOME", fallback: ".config", environment: environment),
      let dataHome = FileSystem.xdgDirectory("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
    else { return nil }
    config = configHome + "/todo/vdirsyncer/config"
    status = dataHome + "/todo/vdirsyncer/status/"
    vdirRoot = dataHome + "/todo/vdir"
  }

  public func vdir(_ collection: String) -> String { vdirRoot + "/" + collection }
  public func lock(_ collection: String) -> String { vdirRoot + "/." + collection + ".lock" }
}
