import CSQLite
import Foundation

/// One SQLite connection, closed when the object goes away.
///
/// Statements run through ``withStatement(_:_:)`` are prepared once and kept for reuse.
/// Not thread-safe: the connection is opened without SQLite's own mutex, and its owner
/// (``Catalog``) is used from one thread at a time.
final class Connection {
  let handle: OpaquePointer
  let path: String
  private var cache: [String: Statement] = [:]
  private var statementsInUse: Set<String> = []

  /// Opens `path` for reading and writing, creating it when missing; or, `immutable`,
  /// for reading only, with SQLite told that nothing changes the file (so that it writes
  /// nothing beside it, not even the shared-memory file of a WAL database).
  init(path: String, immutable: Bool = false) throws {
    var db: OpaquePointer?
    let code: Int32
    if immutable {
      let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
      code = sqlite3_open_v2(Self.immutableURI(path), &db, flags, nil)
    } else {
      let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
      code = sqlite3_open_v2(path, &db, flags, nil)
    }
    guard code == SQLITE_OK, let db else {
      let error = SQLiteError(code: code, db: db, sql: nil)
      sqlite3_close_v2(db)
      throw error
    }
    self.handle = db
    self.path = path
    sqlite3_extended_result_codes(db, 1)
  }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// `file:` URI of `path` with `immutable=1`; `?`, `#` and `%` in the path are escaped.
  private static func immutableURI(_ path: String) -> String {
    var escaped = ""
    for character in path {
      switch character {
      case "?": escaped += "%3f"
      case "#": escaped += "%23"
      case "%": escaped += "%25"
      default: escaped.append(character)
      }
    }
    return "file:\(escaped)?immutable=1"
  }

  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Runs SQL text that may hold several statements and takes no parameters.
  func executeScript(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Runs `body` with the prepared statement for `sql`, reset afterwards for its next use.
  func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
    let statement: Statement
    let cached: Bool
    if statementsInUse.contains(sql) {
      // Re-entered while the cached one is running: a fresh statement keeps them apart.
      statement = try Statement(db: handle, sql: sql)
      cached = false
    } else if let existing = cache[sql] {
      statement = existing
      cached = true
    } else {
      statement = try Statement(db: handle, sql: sql, persistent: true)
      cache[sql] = statement
      cached = true
    }
    if cached { statementsInUse.insert(sql) }
    defer {
      statement.reset()
      if cached { statementsInUse.remove(sql) }
    }
    return try body(statement)
  }

  /// Runs a statement that returns no rows (or whose rows are not needed).
  func execute(_ sql: String, _ arguments: any SQLBindable...) throws {
    try withStatement(sql) { statement in
      try statement.bind(arguments)
      while try statement.step() {}
    }
  }

  /// Every row of a query, each turned into a value by `row`.
  func query<T>(
    _ sql: String, _ arguments: any SQLBindable..., row: (Statement) throws -> T
  ) throws -> [T] {
    try withStatement(sql) { statement in
      try statement.bind(arguments)
      var rows: [T] = []
      while try statement.step() {
        rows.append(try row(statement))
      }
      return rows
    }
  }

  /// The first row of a query, if any.
  func queryFirst<T>(
    _ sql: String, _ arguments: any SQLBindable..., row: (Statement) throws -> T
  ) throws -> T? {
    try withStatement(sql) { statement in
      try statement.bind(arguments)
      return try statement.step() ? try row(statement) : nil
    }
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE (not counting triggers and cascades).
  var changes: Int {
    Int(sqlite3_changes64(handle))
  }

  /// The row id of the last row inserted into a rowid table.
  var lastInsertRowID: Int64 {
    sqlite3_last_insert_rowid(handle)
  }

  /// Whether SQLite opened the file for reading only, as it does when the file cannot be
  /// opened for writing.
  var isReadOnly: Bool {
    sqlite3_db_readonly(handle, "main") == 1
  }

  var isInTransaction: Bool {
    sqlite3_get_autocommit(handle) == 0
  }

  /// Runs `body` in a write transaction taken at once (BEGIN IMMEDIATE), so two processes
  /// queue on the busy timeout instead of deadlocking when one upgrades a read. Commits when
  /// `body` returns, rolls back when it throws or the commit fails.
  ///
  /// - Throws: ``CatalogError/readOnly(path:)`` when SQLite could open the file for reading
  ///   only, before anything is tried.
  func writeTransaction<T>(_ body: () throws -> T) throws -> T {
    if isReadOnly { throw CatalogError.readOnly(path: path) }
    try executeScript("BEGIN IMMEDIATE")
    let result: T
    do {
      result = try body()
      try executeScript("COMMIT")
    } catch {
      if isInTransaction {
        try? executeScript("ROLLBACK")
      }
      throw error
    }
    return result
  }
}
