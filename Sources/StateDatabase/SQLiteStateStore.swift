import CSQLite
import Foundation
import GitbayKit
import RuleEngine
import Synchronization

/// The bot's state in one SQLite file per server and account: runs and the journal of writes.
///
/// The file is in WAL mode with `synchronous=FULL`, so every ``record(_:)`` is on disk before it
/// returns (the applier sends a write only after its intent is), and people can read `history`
/// while a run writes. A run that applies holds a lock file beside it for the store's lifetime,
/// so two runs never apply with one journal at once: each re-reads an item just before writing,
/// but two runs between one's read and its write could both comment.
public final class SQLiteStateStore: StateStore {
    /// What the store is opened for.
    public enum Mode: Sendable, Hashable {
        /// Recording runs and writes: takes the lock, creates and upgrades the file as needed.
        case applying
        /// Answering questions (`history`): no lock, and the file is opened read-only.
        case reading
        /// Keeping the read cache for a run that only plans: no lock (a plan never stops a run that
        /// applies), and only a file made before, at this version: this mode never makes or
        /// upgrades one (a preview that finds none has ``applying`` make it first).
        case caching
    }

    /// Seconds a statement waits for a lock another process holds (a reader checkpointing, say)
    /// before it fails with an I/O error.
    static let busyTimeout = 5

    /// Prune compacts the file when more than this share of its pages is free.
    static let compactionShare = 0.25

    /// The database's path, for messages.
    public let path: String
    private let connection: Mutex<SQLiteConnection>
    /// The serial queue every statement runs on (see ``access(_:_:)``).
    private let queue = DispatchQueue(label: "gitbay-bot.state-database")
    /// The lock file's handle when applying: the lock goes when it closes, or with the process.
    private let lock: FileHandle?

    /// Opens the database at `path`.
    ///
    /// For ``Mode/applying``, creates the folder and the file (readable by its owner only) when
    /// missing, takes the lock (another holder: ``StateStoreError/busy(path:)``, at once) and
    /// brings the tables up to this version. For ``Mode/reading``, a missing file is
    /// ``StateStoreError/missing(path:)``. Either way the file is checked at once: not a SQLite
    /// file, cut short, another application's, written by a newer gitbay-bot, or belonging to
    /// another server or account (when `identity` is given) is ``StateStoreError/unusable(path:reason:)``.
    ///
    /// - Parameter identity: the server and account this run works for; stored on first use and
    ///   compared after. `nil` skips the check.
    public init(path: String, identity: StoreIdentity? = nil, mode: Mode) throws(StateStoreError) {
        do {
            switch mode {
            case .applying: lock = try Self.lockAndCreate(path)
            case .reading, .caching:
                guard FileManager.default.fileExists(atPath: path) else { throw StateStoreError.missing(path: path) }
                lock = nil
            }
            self.connection = Mutex(try Self.connect(path, mode: mode, identity: identity))
            self.path = path
        } catch {
            throw StateStoreError(error, path: path, doing: "open it")
        }
    }

    /// Opens the database at `path` as ``init(path:identity:mode:)`` does, on one of Dispatch's
    /// threads: opening waits for the lock, and SQLite's first read may wait out ``busyTimeout``.
    public static func opened(
        at path: String, identity: StoreIdentity? = nil, mode: Mode
    ) async throws(StateStoreError) -> SQLiteStateStore {
        let result: Result<SQLiteStateStore, StateStoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(StateStoreError) {
                    continuation.resume(
                        returning: .success(try SQLiteStateStore(path: path, identity: identity, mode: mode)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    deinit {
        // Closed before the lock goes, so the next run never meets this one's connection.
        connection.withLock { $0.close() }
    }

    /// Closes the connection and lets go of the lock, once the statements already asked of the
    /// store have run; every file it held is closed when this returns.
    ///
    /// Dropping the store closes them too, but not at a known moment: a statement's block on the
    /// queue keeps the store until the block ends, after its caller has resumed, so the last
    /// reference (and `deinit`) can be the queue's, a moment later. Code that goes on to use the
    /// files (take the lock again, remount their file system) closes first. Anything asked of the
    /// store afterwards is ``StateStoreError/io(path:reason:)``.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.connection.withLock { $0.close() }
                try? self.lock?.close()
                continuation.resume()
            }
        }
    }

    /// Adds `entry` in a transaction of its own, durable before this returns, which also brings
    /// its group's `open_groups` row up to date and, for an intent, drops the item's cached detail.
    public func record(_ entry: JournalEntry) async throws {
        try await access("record a journal entry") { connection in
            try connection.transaction {
                try JournalRows.insert(entry, into: connection)
                try JournalRows.refreshGroup(run: entry.run, rule: entry.rule, item: entry.item, in: connection)
                if entry.phase == .intent {
                    try connection.run("DELETE FROM read_cache WHERE item = ?", [.text(entry.item)])
                }
            }
        }
    }

    /// Kept in `meta` under `feed_position`.
    public func feedPosition() async throws -> Int? {
        try await access("read the feed position") { connection in
            try connection.text("SELECT value FROM meta WHERE key = 'feed_position'").flatMap { Int($0) }
        }
    }

    public func setFeedPosition(_ id: Int) async throws {
        try await access("record the feed position") { connection in
            try connection.run(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('feed_position', ?)", [.text(String(id))])
        }
    }

    /// Kept in `webhook_bodies` (``DeliveryRows``); the check, the insert and the trim are one
    /// transaction.
    public func takeDelivery(_ id: Int, bodyDigest: [UInt8], at date: Date) async throws -> Bool {
        try await access("record a webhook delivery") { connection in
            try connection.transaction {
                try DeliveryRows.take(id, bodyDigest: bodyDigest, at: date, kept: Self.deliveriesKept, in: connection)
            }
        }
    }

    public func activityPosition() async throws -> Int? {
        try await access("read the activity position") { connection in
            try connection.text("SELECT value FROM meta WHERE key = 'activity_position'").flatMap { Int($0) }
        }
    }

    public func keepActivity(_ events: [FeedEvent], position: Int) async throws {
        try await access("keep the feed's activity") { connection in
            try connection.transaction {
                for event in events {
                    guard let number = event.number else { continue }
                    let labels = try event.labels.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                    try connection.run(
                        "INSERT OR REPLACE INTO activity (id, repo, number, kind, actor, at, labels) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [
                            .integer(Int64(event.id)), .text(event.repo.description), .integer(Int64(number)),
                            .text(event.kind), event.actor.map { .text($0) } ?? .null,
                            .real(event.createdAt.timeIntervalSinceReferenceDate), labels.map { .text($0) } ?? .null,
                        ])
                }
                try connection.run(
                    "INSERT INTO meta (key, value) VALUES ('activity_position', ?) ON CONFLICT (key) DO UPDATE SET "
                        + "value = MAX(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
                    [.text(String(position))])
            }
        }
    }

    public func appliedWrites() async throws -> [JournalEntry] {
        try await access("read the journal") { connection in
            try JournalRows.entries(
                where: "phase = 'result' AND outcome = 'applied'", withReasons: false, in: connection)
        }
    }

    public func refusedWrites() async throws -> [JournalEntry] {
        try await access("read the journal") { connection in
            try JournalRows.entries(
                where: "phase = 'result' AND outcome = ?", [.text(JournalEntry.refusedOutcome)], withReasons: false,
                in: connection)
        }
    }

    public func keptActivity() async throws -> [FeedEvent] {
        try await access("read the feed's activity") { connection in
            try connection.rows("SELECT id, repo, number, kind, actor, at, labels FROM activity ORDER BY id") { row in
                guard let repo = try? RepositoryPath(row.text(1) ?? "") else { return nil }
                return FeedEvent(
                    id: Int(row.integer(0)), repo: repo, actor: row.text(4), kind: row.text(3) ?? "",
                    number: Int(row.integer(2)), createdAt: Date(timeIntervalSinceReferenceDate: row.real(5)),
                    labels: row.text(6).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) })
            }.compactMap(\.self)
        }
    }

    public func cachedDetails(of kind: ItemKind) async throws -> [CachedDetail] {
        try await access("read the read cache") { connection in
            try connection.rows(
                "SELECT item, format, version, payload, stored_at FROM read_cache WHERE kind = ?",
                [.text(kind.rawValue)]
            ) { row in
                CachedDetail(
                    item: row.text(0) ?? "", kind: kind, format: Int(row.integer(1)), version: row.text(2) ?? "",
                    payload: row.text(3) ?? "", storedAt: Date(timeIntervalSinceReferenceDate: row.real(4)))
            }
        }
    }

    public func storeDetails(_ details: [CachedDetail], at date: Date) async throws {
        guard !details.isEmpty else { return }
        try await access("keep details in the read cache") { connection in
            try connection.transaction {
                for detail in details {
                    try connection.run(
                        "INSERT OR REPLACE INTO read_cache (item, kind, format, version, payload, stored_at) "
                            + "VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            .text(detail.item), .text(detail.kind.rawValue), .integer(Int64(detail.format)),
                            .text(detail.version), .text(detail.payload), .real(date.timeIntervalSinceReferenceDate),
                        ])
                }
            }
        }
    }

    /// ``UnfinishedAction/find(in:)`` over the entries of the rules and items that have a group in
    /// `open_groups`: the only ones that can have anything unfinished, read through the item index.
    public func unfinishedActions() async throws -> [UnfinishedAction] {
        try await access("read the journal") { connection in
            UnfinishedAction.find(
                in: try JournalRows.entries(
                    where: "(item, rule) IN (SELECT item, rule FROM open_groups)", withReasons: false, in: connection))
        }
    }
}

extension SQLiteStateStore {
    /// Runs `body` on the connection, on the store's own queue, turning whatever it throws into a
    /// ``StateStoreError`` that says it happened while `doing` something.
    ///
    /// Statements block: every commit waits for the disk (`synchronous=FULL`), and a lock another
    /// process holds is waited for up to ``busyTimeout``. On the queue they block one of
    /// Dispatch's threads, never one of the few (as many as cores) that run every task of the
    /// process. A statement once started runs to its end, cancelled or not: a journal entry is
    /// either on record or not.
    func access<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (SQLiteConnection) throws -> T
    ) async throws(StateStoreError) -> T {
        let result: Result<T, StateStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do {
                    let value = try self.connection.withLock { connection in
                        guard connection.isOpen else {
                            throw StateStoreError.io(path: self.path, reason: "cannot \(doing): it is closed")
                        }
                        return try body(connection)
                    }
                    continuation.resume(returning: .success(value))
                } catch {
                    continuation.resume(returning: .failure(StateStoreError(error, path: self.path, doing: doing)))
                }
            }
        }
        return try result.get()
    }
}
