import CSQLite
import Foundation

/// Why the state database could not be opened, read or written, as one line that names the file.
///
/// The cases are what the command line tells apart: ``busy`` (another run has it: try again
/// later, exit 75), ``missing`` (nothing recorded yet), ``unusable`` (the file is not a state
/// database this version can use, exit 74) and ``io`` (the system refused a read or a write, exit 74).
public enum StateStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process holds the database for applying.
    case busy(path: String)
    /// There is no database to read.
    case missing(path: String)
    /// The file is not a gitbay-bot state database, is damaged, was written by a newer version or
    /// belongs to another server or account.
    case unusable(path: String, reason: String)
    /// A read or write failed: a full disk, a read-only file system, an I/O error, or a lock that
    /// another process held past the deadline.
    case io(path: String, reason: String)

    /// The database's path.
    public var path: String {
        switch self {
        case .busy(let path), .missing(let path), .unusable(let path, _), .io(let path, _): path
        }
    }

    /// One line: what could not be done, the file, and why.
    public var description: String {
        switch self {
        case .busy(let path): "another gitbay-bot run is applying with the state database \(path)"
        case .missing(let path): "no state database at \(path): nothing has been recorded yet"
        case .unusable(let path, let reason): "cannot use the state database \(path): \(Self.oneLine(reason))"
        case .io(let path, let reason): "cannot use the state database \(path): \(Self.oneLine(reason))"
        }
    }

    /// The error for `failure`, met while `doing` something ("record a journal entry").
    init(_ failure: SQLiteFailure, path: String, doing: String) {
        let system = failure.systemError == 0 ? "" : " (\(String(cString: strerror(failure.systemError))))"
        switch failure.primaryCode {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            self = .unusable(
                path: path, reason: "it is not a gitbay-bot state database or it is damaged: \(failure.message)")
        case SQLITE_ERROR, SQLITE_MISMATCH, SQLITE_CONSTRAINT, SQLITE_SCHEMA:
            self = .unusable(path: path, reason: "it does not read as a gitbay-bot state database: \(failure.message)")
        case SQLITE_FULL: self = .io(path: path, reason: "cannot \(doing): the disk is full")
        case SQLITE_READONLY:
            self = .io(path: path, reason: "cannot \(doing): the file or its file system is read-only\(system)")
        case SQLITE_BUSY, SQLITE_LOCKED:
            self = .io(
                path: path,
                reason:
                    "cannot \(doing): another process kept it locked for more than \(SQLiteStateStore.busyTimeout) s")
        default: self = .io(path: path, reason: "cannot \(doing): \(failure.message)\(system)")
        }
    }

    /// `error` (from the store's code: SQLite, JSON, or already one of these) as a store error.
    init(_ error: any Error, path: String, doing: String) {
        switch error {
        case let error as StateStoreError: self = error
        case let failure as SQLiteFailure: self.init(failure, path: path, doing: doing)
        case let error as DecodingError:
            self = .unusable(path: path, reason: "a stored value does not read: \(Self.decodingReason(error))")
        default: self = .io(path: path, reason: "cannot \(doing): \(error)")
        }
    }

    /// A decoding error in a few words.
    private static func decodingReason(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            context.debugDescription
        @unknown default: "\(error)"
        }
    }

    /// `text` on one line, whatever SQLite or the system put in it.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
