import CSQLite
import Foundation
import GitbayKit
import RuleEngine

/// Opening the file: the lock, the connection, the schema and compaction.
extension SQLiteStateStore {
    /// Opens and prepares the connection; a database on a read-only file system, where SQLite
    /// cannot make the WAL index it reads through, is read as immutable.
    static func connect(_ path: String, mode: Mode, identity: StoreIdentity?) throws -> SQLiteConnection {
        do {
            let connection = try SQLiteConnection(path: path, access: mode == .reading ? .readOnly : .readWrite)
            try prepare(connection, mode: mode, identity: identity, path: path)
            return connection
        } catch let failure as SQLiteFailure where failure.primaryCode == SQLITE_CANTOPEN && mode == .reading {
            var system = statvfs()
            guard statvfs(path, &system) == 0, system.f_flag & UInt(ST_RDONLY) != 0 else { throw failure }
            let connection = try SQLiteConnection(path: path, access: .immutable)
            try prepare(connection, mode: mode, identity: identity, path: path)
            return connection
        }
    }

    /// How many times, 10 ms apart, the lock is tried before the store is busy.
    static let lockAttempts = 10

    /// Creates the folder when missing, takes the lock beside `path` (busy when another process
    /// holds it), and creates the database file readable by its owner only when missing.
    static func lockAndCreate(_ path: String) throws(StateStoreError) -> FileHandle {
        func failure(_ doing: String) -> StateStoreError {
            .io(path: path, reason: "cannot \(doing): \(String(cString: strerror(errno)))")
        }
        var folder = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            folder += "/\(part)"
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw failure("create its folder \(folder)") }
        }
        // A lock file of its own, so nothing SQLite does to the database can move or drop the lock.
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create its lock file \(path).lock") }
        let lock = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // A lock held for a moment only is waited for: a process that starts a child keeps the
        // lock's file open in the child from its fork until its exec closes it (close-on-exec
        // acts at the exec), so a lock just let go can still look held for that instant. A run
        // holds it for its whole length, so another run still finds it busy.
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("lock \(path).lock") }
            attempts += 1
            guard attempts < lockAttempts else { throw .busy(path: path) }
            usleep(10_000)
        }
        let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("create it") }
        // Through a handle: `close` alone names the store's own ``close()`` here.
        try? FileHandle(fileDescriptor: file, closeOnDealloc: false).close()
        return lock
    }

    /// Sets the connection up and checks the file: whose it is, which version, which identity;
    /// for applying, switches to WAL and runs the migrations it lacks.
    static func prepare(
        _ connection: SQLiteConnection, mode: Mode, identity: StoreIdentity?, path: String
    ) throws {
        func unusable(_ reason: String) -> StateStoreError { .unusable(path: path, reason: reason) }
        connection.setBusyTimeout(milliseconds: Int32(busyTimeout * 1000))
        // The first read of the file: SQLite opens lazily, so a file that is not a database, or is
        // shorter than its header says, fails here.
        let application = try connection.integer("PRAGMA application_id")
        let version = try connection.integer("PRAGMA user_version")
        let tables = try connection.integer("SELECT count(*) FROM sqlite_schema")
        if application == StateSchema.applicationID {
            guard version <= StateSchema.version else {
                throw unusable(
                    "it was written by a newer gitbay-bot (schema version \(version), this one knows up to "
                        + "\(StateSchema.version))")
            }
        } else if application != 0 {
            throw unusable(
                "it is another application's SQLite database (application_id \(String(format: "0x%08X", application)))")
        } else if tables > 0 {
            throw unusable("it is another application's SQLite database (it has tables gitbay-bot did not make)")
        }
        switch mode {
        case .reading, .caching:
            guard version > 0 else { throw StateStoreError.missing(path: path) }
            guard version == StateSchema.version else {
                throw unusable(
                    "it was written by an older gitbay-bot (schema version \(version)); a run that applies upgrades it")
            }
            if mode == .reading { try connection.execute("PRAGMA query_only = 1") }
        case .applying:
            // Only an empty file can take it: free pages can then be given back by prune.
            if tables == 0 { try connection.execute("PRAGMA auto_vacuum = INCREMENTAL") }
            try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
            for (index, migration) in StateSchema.migrations.enumerated() where Int64(index) >= version {
                try connection.transaction {
                    try connection.execute(migration)
                    try connection.execute(
                        "PRAGMA user_version = \(index + 1); PRAGMA application_id = \(StateSchema.applicationID)")
                }
            }
        }
        guard let identity else { return }
        let stored = try connection.rows("SELECT key, value FROM meta WHERE key IN ('server', 'account')") {
            (key: $0.text(0) ?? "", value: $0.text(1) ?? "")
        }
        let server = stored.first { $0.key == "server" }?.value
        let account = stored.first { $0.key == "account" }?.value
        if let server, let account {
            let owner = StoreIdentity(server: server, account: account)
            guard owner == identity else { throw unusable("it belongs to \(owner), not \(identity)") }
        } else if mode == .applying {
            try connection.transaction {
                try connection.run(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('server', ?), ('account', ?)",
                    [.text(identity.server), .text(identity.account)])
            }
        }
    }

    /// Gives free pages back to the file system once they are more than ``compactionShare`` of the file.
    static func compact(_ connection: SQLiteConnection) throws {
        let free = try connection.integer("PRAGMA freelist_count")
        let pages = try connection.integer("PRAGMA page_count")
        guard Double(free) > Double(pages) * compactionShare else { return }
        try connection.execute("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
