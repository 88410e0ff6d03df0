import CSQLite
import Foundation
import GitbayKit
import RuleEngine

/// The runs, the history people read and pruning: what the store answers and drops over time.
extension SQLiteStateStore {
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
