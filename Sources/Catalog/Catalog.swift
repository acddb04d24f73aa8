import CSQLite
import Foundation

/// The SQLite store of podcasts, their episodes and the user's subscriptions.
///
/// One `Catalog` is one connection to one file. It is not `Sendable`: use it from one thread
/// (or task) at a time, and open one per thread when you need more. Any number of processes
/// may use the same file at once; writers queue for up to the busy timeout.
public final class Catalog {
  public let path: String
  private(set) var connection: Connection
  let plainText: (String) -> String

  /// Opens the catalog at `path`, creating the file (and its folder, user-only) when missing
  /// and bringing its schema up to date.
  ///
  /// - Parameters:
  ///   - plainText: turns the markup of titles and descriptions into the plain text that the
  ///     search index holds.
  ///   - busyTimeout: how long to wait for another process's write before failing.
  /// - Throws: ``CatalogError`` when the file is not a catalog this version can use (not
  ///   SQLite, damaged, another program's, a newer schema); such a file is left unchanged.
  public init(
    path: String, plainText: @escaping (String) -> String,
    busyTimeout: Duration = .seconds(10)
  ) throws {
    self.path = path
    self.plainText = plainText
    try CatalogLocation.createFolder(for: path)
    do {
      connection = try Connection(path: path)
    } catch let error as SQLiteError {
      throw CatalogError.cannotOpen(path: path, reason: error.message)
    }
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    connection.setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
    do {
      try checkFile()
      try configure(busyTimeout: busyTimeout)
      try Schema.migrate(connection, plainText: plainText)
      try FeedSave.prepareSession(connection)
    } catch let error as SQLiteError {
      let failure = Self.fileError(error, path: path)
      guard Self.canOnlyBeRead(path: path, after: error) else { throw failure }
      try openForReadingOnly()
    }
  }

  /// Whether `error` came from a catalog on a read-only file system that is complete in
  /// its main file. SQLite writes a shared-memory file beside a WAL database even to read
  /// it; a catalog whose last writer closed it cleanly has no log to read, so it can be
  /// opened as immutable. A log left with content holds writes the file does not have.
  private static func canOnlyBeRead(path: String, after error: SQLiteError) -> Bool {
    guard [SQLITE_CANTOPEN, SQLITE_READONLY].contains(error.primaryCode) else { return false }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard access(folder, W_OK) != 0, errno == EROFS else { return false }
    var log = stat()
    return stat(path + "-wal", &log) != 0 || log.st_size == 0
  }

  /// Reopens the file as immutable: reading works, writes throw `readOnly`.
  private func openForReadingOnly() throws {
    do {
      connection = try Connection(path: path, immutable: true)
      try checkFile()
    } catch let error as SQLiteError {
      throw Self.fileError(error, path: path)
    }
    let version = try Schema.userVersion(connection)
    guard version == Schema.latestVersion else {
      throw CatalogError.cannotOpen(
        path: path,
        reason:
          "it is on a read-only file system and needs upgrading from schema \(version) to \(Schema.latestVersion)"
      )
    }
  }

  /// Whether the file can be read but not written (an immutable file); writes then throw
  /// ``CatalogError/readOnly(path:)``.
  public var isReadOnly: Bool { connection.isReadOnly }

  /// Refuses, before anything is written, a file this version must not touch.
  private func checkFile() throws {
    // One statement, so one snapshot: another process may be creating the catalog right now.
    let state = try connection.queryFirst(
      """
      SELECT (SELECT application_id FROM pragma_application_id),
             (SELECT user_version FROM pragma_user_version),
             (SELECT count(*) FROM sqlite_schema)
      """
    ) { ($0.int64(0) ?? 0, $0.int(1) ?? 0, $0.int(2) ?? 0) }
    let (applicationID, version, objects) = state ?? (0, 0, 0)
    let isEmpty = applicationID == 0 && version == 0 && objects == 0
    if isEmpty { return }
    guard applicationID == Int64(Schema.applicationID) else {
      throw CatalogError.foreignDatabase(path: path)
    }
    guard version <= Schema.latestVersion else {
      throw CatalogError.newerSchema(path: path, version: version, supported: Schema.latestVersion)
    }
  }

  private func configure(busyTimeout: Duration) throws {
    // Takes effect only on a file not written yet. Episodes of a few kilobytes each fit one
    // to a 4 KiB page, leaving a third of it empty; 16 KiB pages hold them closely, so a
    // large feed writes far fewer bytes (once into the WAL, once into the file).
    try connection.executeScript("PRAGMA page_size = 16384")
    // Switching a new file to WAL fails at once, without the busy handler, while another
    // process is doing the same; it succeeds (or finds WAL set) once that one is done.
    let clock = ContinuousClock()
    let deadline = clock.now + busyTimeout
    while true {
      do {
        _ = try connection.queryFirst("PRAGMA journal_mode = WAL") { $0.string(0) }
        break
      } catch let error as SQLiteError where error.primaryCode == SQLITE_BUSY {
        guard clock.now < deadline else { throw error }
        usleep(5_000)
      }
    }
    try connection.executeScript(
      """
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      PRAGMA journal_size_limit = 67108864;
      -- 32 MiB of page cache each: a feed's staged episodes stay in memory longer before
      -- spilling to the temporary file, and memory stays bounded.
      PRAGMA cache_size = -32768;
      PRAGMA temp.cache_size = -32768;
      """)
  }

  /// The error to report when opening failed in SQLite: the file's state when SQLite found it
  /// unreadable, the SQLite error otherwise.
  private static func fileError(_ error: SQLiteError, path: String) -> Error {
    switch error.primaryCode {
    case SQLITE_NOTADB: return CatalogError.notADatabase(path: path)
    case SQLITE_CORRUPT: return CatalogError.corruptDatabase(path: path, reason: error.message)
    case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY:
      // SQLite's "unable to open database file" does not say why. The commonest reason is
      // a folder it cannot write to: it creates files beside a WAL catalog even to read it.
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
      guard access(folder, W_OK) != 0 else {
        return CatalogError.cannotOpen(path: path, reason: error.message)
      }
      let system = String(cString: strerror(errno))
      let why = system.prefix(1).lowercased() + system.dropFirst()
      return CatalogError.cannotOpen(
        path: path, reason: "\(error.message); its folder cannot be written (\(why))")
    default: return error
    }
  }

  /// The schema version of the file (`PRAGMA user_version`).
  public var schemaVersion: Int {
    get throws { try Schema.userVersion(connection) }
  }

  /// The schema version this code writes.
  public static var supportedSchemaVersion: Int { Schema.latestVersion }

  /// SQLite's full consistency check: `["ok"]` when the file is sound, else the problems found.
  /// Reads the whole file, so it takes time on a large catalog.
  public func integrityCheck() throws -> [String] {
    try connection.query("PRAGMA integrity_check") { $0.string(0) ?? "" }
  }
}
