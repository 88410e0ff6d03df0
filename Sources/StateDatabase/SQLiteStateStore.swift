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

    /// Keeps `run`, in place of any run with its id.
    public func beginRun(_ run: RunRecord) async throws {
        try await access("record a run") { connection in
            try connection.run(
                "INSERT OR REPLACE INTO runs (id, command, started_at, finished_at, exit_code) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(run.id), .text(run.command), .real(run.startedAt.timeIntervalSinceReferenceDate),
                    run.finishedAt.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null,
                    run.exitCode.map { .integer(Int64($0)) } ?? .null,
                ])
        }
    }

    /// Sets the end of the run with `id`, if there is one.
    public func finishRun(id: String, at date: Date, exitCode: Int32) async throws {
        try await access("record a run") { connection in
            try connection.run(
                "UPDATE runs SET finished_at = ?, exit_code = ? WHERE id = ?",
                [.real(date.timeIntervalSinceReferenceDate), .integer(Int64(exitCode)), .text(id)])
        }
    }

    /// The run with `id`, if kept.
    public func run(id: String) async throws -> RunRecord? {
        try await access("read the runs") { connection in
            try connection.rows(
                "SELECT command, started_at, finished_at, exit_code FROM runs WHERE id = ?", [.text(id)]
            ) { row in
                RunRecord(
                    id: id, command: row.text(0) ?? "", startedAt: Date(timeIntervalSinceReferenceDate: row.real(1)),
                    finishedAt: row.optionalReal(2).map(Date.init(timeIntervalSinceReferenceDate:)),
                    exitCode: row.optionalInteger(3).map { Int32(clamping: $0) })
            }.first
        }
    }

    /// ``HistoryRecord/records(in:matching:)`` over the whole groups (a run's entries about one
    /// rule and item) that hold anything the query asks for, found through the item or rule index.
    ///
    /// With a limit, only the groups of the newest entries are read, a window that grows until
    /// the records it holds are certainly the newest: every record outside it has all its entries
    /// at or before the window's oldest, so records newer than that rank first. `history --limit 20`
    /// then decodes a few dozen rows, not the whole journal.
    public func history(_ query: HistoryQuery) async throws -> [HistoryRecord] {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let item = query.item {
            conditions.append("item = ?")
            values.append(.text(item))
        }
        if let rule = query.rule {
            conditions.append("rule = ?")
            values.append(.text(rule))
        }
        if let since = query.since {
            // Whole groups: a result after `since` may answer an intent before it.
            let recent = (conditions + ["at >= ?"]).joined(separator: " AND ")
            conditions.append("(run, rule, item) IN (SELECT run, rule, item FROM journal WHERE \(recent))")
            values += values + [.real(since.timeIntervalSinceReferenceDate)]
        }
        let condition = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        let bound = values
        return try await access("read the journal") { connection in
            guard let limit = query.limit, limit > 0 else {
                return HistoryRecord.records(
                    in: try JournalRows.entries(where: condition, bound, withReasons: true, in: connection),
                    matching: query)
            }
            var unlimited = query
            unlimited.limit = nil
            var window = limit * 4
            while true {
                let times = try connection.rows(
                    "SELECT at FROM journal WHERE \(condition) ORDER BY at DESC LIMIT ?",
                    bound + [.integer(Int64(window))]
                ) { $0.real(0) }
                guard times.count == window, let oldest = times.last else {
                    return HistoryRecord.records(
                        in: try JournalRows.entries(where: condition, bound, withReasons: true, in: connection),
                        matching: query)
                }
                let windowed =
                    "\(condition) AND (run, rule, item) IN "
                    + "(SELECT run, rule, item FROM journal WHERE \(condition) ORDER BY at DESC LIMIT ?)"
                let records = HistoryRecord.records(
                    in: try JournalRows.entries(
                        where: windowed, bound + bound + [.integer(Int64(window))], withReasons: true,
                        in: connection),
                    matching: unlimited)
                if records.prefix(limit).count == limit,
                    records[limit - 1].at.timeIntervalSinceReferenceDate > oldest
                {
                    return Array(records.prefix(limit))
                }
                window *= 4
            }
        }
    }

    /// Adds `entries` and their groups' `open_groups` rows and remembers `key`, all in one
    /// transaction, unless `key` was imported before.
    @discardableResult
    public func importJournal(_ entries: [JournalEntry], key: String) async throws -> Bool {
        try await access("import a journal") { connection in
            try connection.transaction {
                guard try connection.text("SELECT key FROM journal_imports WHERE key = ?", [.text(key)]) == nil else {
                    return false
                }
                struct Group: Hashable {
                    var run: String
                    var rule: String
                    var item: String
                }
                var groups: [Group] = []
                var seen: Set<Group> = []
                for entry in entries {
                    try JournalRows.insert(entry, into: connection)
                    let group = Group(run: entry.run, rule: entry.rule, item: entry.item)
                    if seen.insert(group).inserted { groups.append(group) }
                }
                for group in groups {
                    try JournalRows.refreshGroup(run: group.run, rule: group.rule, item: group.item, in: connection)
                }
                try connection.run(
                    "INSERT INTO journal_imports (key, entries) VALUES (?, ?)",
                    [.text(key), .integer(Int64(entries.count))])
                return true
            }
        }
    }

    /// Drops what ``JournalRetention/droppable(_:before:unfinished:)`` names, the runs that ended
    /// before `date` with no entries left, and details cached before it, in one transaction; then gives free pages back to
    /// the file system when they are more than ``compactionShare`` of the file.
    @discardableResult
    public func prune(resultsBefore date: Date) async throws -> Int {
        try await access("prune the journal") { connection in
            let dropped = try connection.transaction {
                let unfinished = UnfinishedAction.find(
                    in: try JournalRows.entries(
                        where: "(item, rule) IN (SELECT item, rule FROM open_groups)", withReasons: false,
                        in: connection))
                let rows = try connection.rows("SELECT id, run, rule, item, at FROM journal ORDER BY id") { row in
                    (
                        id: row.integer(0),
                        stamp: JournalRetention.Stamp(
                            run: row.text(1) ?? "", rule: row.text(2) ?? "", item: row.text(3) ?? "",
                            at: Date(timeIntervalSinceReferenceDate: row.real(4)))
                    )
                }
                let dropped = JournalRetention.droppable(rows.map(\.stamp), before: date, unfinished: unfinished)
                for position in dropped {
                    try connection.run("DELETE FROM journal WHERE id = ?", [.integer(rows[position].id)])
                }
                try connection.run(
                    """
                    DELETE FROM open_groups WHERE NOT EXISTS (
                        SELECT 1 FROM journal AS j
                        WHERE j.item = open_groups.item AND j.rule = open_groups.rule AND j.run = open_groups.run)
                    """)
                let droppedPositions = Set(dropped)
                let remaining = Set(
                    rows.indices.filter { !droppedPositions.contains($0) }.map { rows[$0].stamp.run })
                let ended = try connection.rows(
                    "SELECT id FROM runs WHERE finished_at < ?", [.real(date.timeIntervalSinceReferenceDate)]
                ) { $0.text(0) ?? "" }
                for run in ended where !remaining.contains(run) {
                    try connection.run("DELETE FROM runs WHERE id = ?", [.text(run)])
                }
                try connection.run(
                    "DELETE FROM read_cache WHERE stored_at < ?", [.real(date.timeIntervalSinceReferenceDate)])
                // Each item's newest label event before the date stays: it says which labels the
                // item had then, without which an addition after it could not be dated.
                try connection.run(
                    """
                    DELETE FROM activity WHERE at < ?1 AND id NOT IN (
                        SELECT MAX(id) FROM activity WHERE at < ?1 AND kind LIKE '%.labeled' GROUP BY repo, number)
                    """, [.real(date.timeIntervalSinceReferenceDate)])
                return dropped.count
            }
            try Self.compact(connection)
            return dropped
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
    private func access<T: Sendable>(
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

    /// Opens and prepares the connection; a database on a read-only file system, where SQLite
    /// cannot make the WAL index it reads through, is read as immutable.
    private static func connect(_ path: String, mode: Mode, identity: StoreIdentity?) throws -> SQLiteConnection {
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
    private static func lockAndCreate(_ path: String) throws(StateStoreError) -> FileHandle {
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
    private static func prepare(
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
    private static func compact(_ connection: SQLiteConnection) throws {
        let free = try connection.integer("PRAGMA freelist_count")
        let pages = try connection.integer("PRAGMA page_count")
        guard Double(free) > Double(pages) * compactionShare else { return }
        try connection.execute("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
