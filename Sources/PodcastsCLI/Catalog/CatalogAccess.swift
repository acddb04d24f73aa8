import Catalog
import FeedViews

extension CommandContext {
  /// Opens the catalog named by `--db` / `PODCASTS_DB`, else the default one. The full-text
  /// index gets clean text from the view layer's HTML stripper.
  ///
  /// - Parameter forWriting: refuse a catalog that can only be read, so that a command that
  ///   writes fails before it fetches anything.
  func openCatalog(forWriting: Bool = false) throws -> Catalog {
    let path =
      try globals.databasePath ?? CatalogLocation.defaultPath(environment: console.environment)
    let catalog = try Catalog(path: path, plainText: HTMLText.plainText)
    if forWriting && catalog.isReadOnly { throw CatalogError.readOnly(path: path) }
    return catalog
  }
}
