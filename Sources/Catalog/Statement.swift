import CSQLite
import Foundation

/// SQLite's `SQLITE_TRANSIENT`: the value is copied before the bind call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement, finalized when the object goes away.
///
/// Parameters are bound by 1-based index, columns read by 0-based index, as in the C API.
final class Statement {
  let handle: OpaquePointer
  let sql: String

  /// `persistent` tells SQLite the statement will be reused many times.
  init(db: OpaquePointer, sql: String, persistent: Bool = false) throws {
    var statement: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(db, sql, -1, flags, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw SQLiteError(code: code, db: db, sql: sql)
    }
    self.handle = statement
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK else {
      throw SQLiteError(code: code, db: sqlite3_db_handle(handle), sql: sql)
    }
  }

  // MARK: Binding

  func bindNull(at index: Int32) throws {
    try check(sqlite3_bind_null(handle, index))
  }

  func bind(_ value: String?, at index: Int32) throws {
    guard let value else { return try bindNull(at: index) }
    var text = value
    let code = text.withUTF8 { bytes -> Int32 in
      // A nil base address would bind NULL, not the empty string.
      guard let base = bytes.baseAddress else {
        return sqlite3_bind_text(handle, index, "", 0, transient)
      }
      return sqlite3_bind_text64(
        handle, index, base, UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
    }
    try check(code)
  }

  func bind(_ value: Int64?, at index: Int32) throws {
    guard let value else { return try bindNull(at: index) }
    try check(sqlite3_bind_int64(handle, index, value))
  }

  func bind(_ value: Int?, at index: Int32) throws {
    try bind(value.map(Int64.init), at: index)
  }

  func bind(_ value: Bool?, at index: Int32) throws {
    try bind(value.map { $0 ? Int64(1) : 0 }, at: index)
  }

  /// Dates are stored as whole Unix seconds (UTC).
  func bind(_ value: Date?, at index: Int32) throws {
    try bind(value.flatMap(UnixTime.seconds), at: index)
  }

  /// Binds `values` to parameters 1, 2, 3...
  func bind(_ values: [any SQLBindable]) throws {
    for (offset, value) in values.enumerated() {
      try value.bind(to: self, at: Int32(offset + 1))
    }
  }

  // MARK: Running

  /// Runs the statement to its next row: true when a row is ready to read, false when done.
  @discardableResult
  func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let error = SQLiteError(code: code, db: sqlite3_db_handle(handle), sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Makes the statement ready to run again with new parameters.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  // MARK: Reading columns

  func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  func string(_ column: Int32) -> String? {
    guard !isNull(column), let text = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  func int64(_ column: Int32) -> Int64? {
    isNull(column) ? nil : sqlite3_column_int64(handle, column)
  }

  func int(_ column: Int32) -> Int? {
    int64(column).flatMap { Int(exactly: $0) }
  }

  func bool(_ column: Int32) -> Bool? {
    int64(column).map { $0 != 0 }
  }

  func double(_ column: Int32) -> Double? {
    isNull(column) ? nil : sqlite3_column_double(handle, column)
  }

  func date(_ column: Int32) -> Date? {
    int64(column).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }
}

/// A Swift value that can be bound to a statement parameter.
protocol SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws
}

extension String: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Int: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Int64: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Bool: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Date: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
  func bind(to statement: Statement, at index: Int32) throws {
    switch self {
    case .some(let value): try value.bind(to: statement, at: index)
    case .none: try statement.bindNull(at: index)
    }
  }
}

/// Conversion between `Date` and the whole Unix seconds stored in the catalog.
enum UnixTime {
  /// Nil for a date too far out to be a count of seconds in 64 bits.
  static func seconds(_ date: Date) -> Int64? {
    let value = date.timeIntervalSince1970.rounded(.down)
    guard value.isFinite, value > -9.2e18, value < 9.2e18 else { return nil }
    return Int64(value)
  }
}
