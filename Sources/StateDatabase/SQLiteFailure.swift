import CSQLite
import Foundation

/// What SQLite said when a call failed: its extended result code, its message, and the system's
/// error number behind it when there was one.
///
/// Internal: the store turns it into a ``StateStoreError`` that names the file.
struct SQLiteFailure: Error, Sendable {
    var code: Int32
    var message: String
    var systemError: Int32

    /// The failure `code` left on `connection` (or, with no connection, SQLite's text for `code`).
    init(code: Int32, connection: OpaquePointer?) {
        self.code = code
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
            systemError = sqlite3_system_errno(connection)
        } else {
            message = String(cString: sqlite3_errstr(code))
            systemError = 0
        }
    }

    /// SQLite's primary result code (`SQLITE_FULL` for `SQLITE_IOERR_...` variants and the like).
    var primaryCode: Int32 { code & 0xff }
}
