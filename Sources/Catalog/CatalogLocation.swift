import Foundation

/// Where the catalog file lives.
public enum CatalogLocation {
  public static let fileName = "catalog.sqlite3"

  /// The catalog path for an environment: `PODCASTS_DB` when set, else
  /// `$XDG_DATA_HOME/podcasts/catalog.sqlite3`, else `$HOME/.local/share/podcasts/catalog.sqlite3`.
  /// A relative `XDG_DATA_HOME` is ignored, as the XDG Base Directory specification asks.
  public static func defaultPath(environment: [String: String]) throws -> String {
    if let path = environment["PODCASTS_DB"], !path.isEmpty {
      return path
    }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return join(data, "podcasts", fileName)
    }
    if let home = environment["HOME"], !home.isEmpty {
      return join(home, ".local/share/podcasts", fileName)
    }
    throw CatalogError.noDataDirectory
  }

  private static func join(_ parts: String...) -> String {
    var path = ""
    for part in parts {
      if path.isEmpty || path.hasSuffix("/") {
        path += part
      } else {
        path += "/" + part
      }
    }
    return path
  }

  /// Creates the folder that will hold `path` (and its missing parents) when it is missing,
  /// readable by the user only.
  static func createFolder(for path: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
    var partial = folder.hasPrefix("/") ? "" : "."
    for component in folder.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o700) != 0 && errno != EEXIST {
        let reason = String(cString: strerror(errno))
        throw CatalogError.cannotCreateDirectory(path: partial, reason: reason)
      }
    }
  }
}
