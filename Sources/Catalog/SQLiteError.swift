import CSQLite

/// A failure reported by SQLite: the result code, SQLite's message, and the statement that failed.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The extended result code, e.g. 2067 (`SQLITE_CONSTRAINT_UNIQUE`).
  public var code: Int32
  public var message: String
  /// The SQL being prepared or run, when there was one.
  public var sql: String?

  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code, e.g. 19 (`SQLITE_CONSTRAINT`).
  public var primaryCode: Int32 { code & 0xff }

  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql {
      text += " (in: \(Self.oneLine(sql)))"
    }
    return text
  }

  /// The statement on one line and cut short, so the description stays one readable line.
  private static func oneLine(_ sql: String) -> String {
    let words = sql.split(whereSeparator: { $0.isWhitespace })
    let line = words.joined(separator: " ")
    let limit = 160
    return line.count > limit ? line.prefix(limit) + "…" : line
  }
}

extension SQLiteError {
  /// The error SQLite recorded on `db` for a call that returned `code`.
  init(code: Int32, db: OpaquePointer?, sql: String?) {
    let message: String
    if let db, let text = sqlite3_errmsg(db) {
      message = String(cString: text)
    } else if let text = sqlite3_errstr(code) {
      message = String(cString: text)
    } else {
      message = "unknown error"
    }
    self.init(code: code, message: message, sql: sql)
  }
}
