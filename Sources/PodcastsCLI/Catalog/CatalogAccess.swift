import Catalog
import FeedViews

extension CommandContext {
  /// Opens the catalog named by `--db` / `PODCASTS_DB`, else the default one. The full-text
  /// index gets clean text from the view layer's HTML stripper.
  func openCatalog() throws -> Catalog {
    let path =
      try globals.databasePath ?? CatalogLocation.defaultPath(environment: console.environment)
    return try Catalog(path: path, plainText: HTMLText.plainText)
  }
}
