import CSQLite
import Foundation

/// One connection to a SQLite file, with its prepared statements cached by their text.
///
/// Not thread-safe: the store keeps it behind a lock. Every failure is a ``SQLiteFailure``.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Whether the file is open: ``close()`` has not been called.
    private(set) var isOpen = true

    /// How a connection may use its file.
    enum Access {
        /// Read and write, creating the file when missing.
        case readWrite
        case readOnly
        /// Read a file nobody can change (on a read-only file system): no locks, no WAL index,
        /// which a read-only file system could not hold.
        case immutable
    }

    /// Opens `path`.
    init(path: String, access: Access) throws(SQLiteFailure) {
        var handle: OpaquePointer?
        let flags =
            switch access {
            case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readOnly: SQLITE_OPEN_READONLY
            case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            }
        let name = access == .immutable ? URL(fileURLWithPath: path).absoluteString + "?immutable=1" : path
        let code = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let handle else {
            let failure = SQLiteFailure(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw failure
        }
        self.handle = handle
    }

    deinit {
        close()
    }

    /// Frees the statements and closes the file (checkpointing the WAL when this is its last
    /// connection); nothing may be asked of the connection afterwards.
    func close() {
        guard isOpen else { return }
        isOpen = false
        for statement in statements.values { statement.finalize() }
        statements = [:]
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another process's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs `sql`, which may hold several statements and gives no rows.
    func execute(_ sql: String) throws(SQLiteFailure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteFailure(code: code, connection: handle) }
    }

    /// Runs one statement with `values` bound and reads its rows with `read`.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ read: (SQLiteRow) throws -> T) throws -> [T] {
        try statement(sql).rows(values, read)
    }

    /// Runs one statement with `values` bound, ignoring any rows.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
        _ = try rows(sql, values) { _ in () }
    }

    /// The first column of the first row of `sql` as an integer (0 when there is no row).
    func integer(_ sql: String) throws -> Int64 {
        try rows(sql) { $0.integer(0) }.first ?? 0
    }

    /// The first column of the first row of `sql` as text, or `nil`.
    func text(_ sql: String, _ values: [SQLiteValue] = []) throws -> String? {
        try rows(sql, values) { $0.text(0) }.first ?? nil
    }

    /// Runs `body` in a write transaction, committed when it returns and rolled back when it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at once, so a transaction that reads before it writes
    /// cannot fail half-way for want of it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The statement for `sql`, prepared on first use and kept.
    private func statement(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw SQLiteFailure(code: code, connection: handle) }
        let statement = SQLiteStatement(prepared)
        statements[sql] = statement
        return statement
    }
}
