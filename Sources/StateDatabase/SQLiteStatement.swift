import CSQLite

/// A value bound to one of a statement's `?` parameters.
enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// `text`, or `null` for `nil`.
    static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }
}

/// A prepared statement, kept by its connection and reused: bound, stepped through, reset.
final class SQLiteStatement {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    /// Frees the statement; its connection calls this before it closes.
    func finalize() {
        sqlite3_finalize(handle)
    }

    /// Calls `read` for each row the statement gives with `values` bound, then resets it.
    func rows<T>(_ values: [SQLiteValue], _ read: (SQLiteRow) throws -> T) throws -> [T] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(values)
        var rows: [T] = []
        while try step() {
            rows.append(try read(SQLiteRow(handle: handle)))
        }
        return rows
    }

    private func bind(_ values: [SQLiteValue]) throws(SQLiteFailure) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .null: code = sqlite3_bind_null(handle, index)
            case .text(let text):
                var text = text
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        csqlite_bind_text_copy(handle, index, $0.baseAddress, Int32($0.count))
                    }
                }
            }
            guard code == SQLITE_OK else { throw SQLiteFailure(code: code, connection: sqlite3_db_handle(handle)) }
        }
    }

    /// Moves to the next row: `true` when there is one, `false` when the statement is done.
    private func step() throws(SQLiteFailure) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteFailure(code: code, connection: sqlite3_db_handle(handle))
        }
    }
}

/// The current row of a statement being stepped through; valid only inside the `read` closure.
struct SQLiteRow {
    fileprivate let handle: OpaquePointer

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func real(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as text, or `nil` when it is NULL.
    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, column)
        else { return nil }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))),
            as: UTF8.self)
    }

    /// The column as a number, or `nil` when it is NULL.
    func optionalReal(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : real(column)
    }

    /// The column as an integer, or `nil` when it is NULL.
    func optionalInteger(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : integer(column)
    }
}
