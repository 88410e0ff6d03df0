import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import StateDatabase

/// The journal in the database answers as the definitions do over the whole journal, and as the
/// in-memory twin does.
@Suite struct JournalStoreTests {
    /// Every entry in the file, read with the store's own row reader.
    private func storedEntries(_ path: String) throws -> [JournalEntry] {
        try JournalRows.entries(where: "1", withReasons: true, in: SQLiteConnection(path: path, access: .readOnly))
    }

    @Test func entriesReadBackEqualWithEveryField() async throws {
        let path = scratchDatabase()
        let store = try SQLiteStateStore(path: path, mode: .applying)
        let reasons = [
            ConditionResult(
                condition: "idle > 60d", field: "idle", observed: "61d 3h", holds: true, location: "rules/a.yml:4:7"),
            ConditionResult(
                condition: "labels has bug", field: "labels", observed: "(not read)", holds: nil, location: "x:1:1"),
        ]
        let journal = [
            JournalEntry(
                at: Date(timeIntervalSince1970: 1_790_000_000.123), run: "r1", phase: .planned, rule: "close-stale",
                item: "krz/app#34", action: "comment", argv: ["issue", "comment", "krz/app", "34", "--file", "-"],
                stdin: "Closing: idle for 60 days.\n\u{2014} gitbay-bot", argument: .text("Closing")),
            JournalEntry(
                at: Date(timeIntervalSince1970: 1_790_000_001.5), run: "r1", phase: .intent, rule: "close-stale",
                item: "krz/app!7", action: "add-label", argv: ["mr", "label", "krz/app", "7", "--add", "a b"],
                argument: .names(["a b", "ü"]), reasons: reasons),
            JournalEntry(
                at: Date(timeIntervalSince1970: 1_790_000_002), run: "r1", phase: .result, rule: "close-stale",
                item: "krz/app/builds/4213", action: "set-milestone", argv: [], outcome: "failed",
                detail: "server said: 409 conflict", argument: .milestone(nil), reasons: []),
            JournalEntry(
                at: Date(timeIntervalSinceReferenceDate: 0.001), run: "", phase: .result, rule: "r", item: "i",
                action: "a", argv: ["x"], outcome: "applied", argument: ActionArgument.none),
        ]
        for entry in journal { try await store.record(entry) }
        #expect(try storedEntries(path) == journal)
    }

    /// On many random journals, what the database finds unfinished is what the definition finds
    /// over everything recorded so far, and what the in-memory twin finds; the same after
    /// pruning; and `history` answers as the twin does.
    @Test func unfinishedActionsAndHistoryMatchTheDefinitions() async throws {
        let path = scratchDatabase()
        let store = try SQLiteStateStore(path: path, mode: .applying)
        let twin = InMemoryStateStore()
        var journals = RandomJournals(random: SeededGenerator(seed: 0x7374_6174))
        var everything: [JournalEntry] = []
        var found = 0
        for index in 0..<300 {
            let items = ["krz/app#\(2 * index + 1)", "krz/app!\(2 * index + 2)"]
            let journal = journals.next(items: items, start: Double(index) * 100)
            if index.isMultiple(of: 2) {
                for entry in journal {
                    try await store.record(entry)
                    twin.record(entry)
                }
            } else {
                #expect(try await store.importJournal(journal, key: "journal \(index)"))
                #expect(twin.importJournal(journal, key: "journal \(index)"))
            }
            everything += journal
            let expected = UnfinishedAction.find(in: everything)
            #expect(try await store.unfinishedActions() == expected)
            #expect(twin.unfinishedActions() == expected)
            found += expected.count
        }
        #expect(found > 1_000)
        var random = SeededGenerator(seed: 0x6869_7374)
        for _ in 0..<300 {
            // Items and times of one journal, so `since` often falls between an intent and its result.
            let journal = Int.random(in: 0..<300, using: &random)
            let query = HistoryQuery(
                item: random.chance(0.7) ? "krz/app#\(2 * journal + 1)" : nil,
                rule: random.chance(0.5) ? "mark-stale" : nil,
                since: random.chance(0.5)
                    ? Date(
                        timeIntervalSince1970: 1_790_000_000 + Double(journal * 100)
                            + Double.random(in: 0..<14, using: &random))
                    : nil,
                limit: random.chance(0.3) ? Int.random(in: 0...5, using: &random) : nil)
            #expect(try await store.history(query) == twin.history(query), "\(query)")
        }
        let before = try await store.unfinishedActions()
        for cutoff in [5_000.0, 15_000, 40_000] {
            let date = Date(timeIntervalSince1970: 1_790_000_000 + cutoff)
            let dropped = try await store.prune(resultsBefore: date)
            #expect(dropped == twin.prune(resultsBefore: date))
            #expect(try await store.unfinishedActions() == before)
            #expect(try storedEntries(path) == twin.journal)
        }
        // Past every entry's time, all that is left is every entry of each rule and item with something unfinished.
        let open = Set(before.map { "\($0.rule) \($0.item)" })
        #expect(try storedEntries(path) == everything.filter { open.contains("\($0.rule) \($0.item)") })
    }

    @Test func historyListsAttemptsNewestFirstWithTheirOutcomes() async throws {
        let store = try SQLiteStateStore(path: scratchDatabase(), mode: .applying)
        let reasons = [
            ConditionResult(condition: "idle > 60d", field: "idle", observed: "61d", holds: true, location: "a:1:1")
        ]
        var intent = entry("r1", .intent, "comment", at: 2)
        intent.reasons = reasons
        let journal = [
            entry("r1", .planned, "comment", at: 1), entry("r1", .planned, "close", at: 1), intent,
            entry("r1", .result, "comment", outcome: "applied", at: 3),
            entry("r2", .intent, "close", rule: "other", at: 4),
            entry("r2", .result, "close", outcome: "failed", rule: "other", at: 5),
            entry("r3", .intent, "close", item: "krz/app#35", at: 6),
        ]
        for entry in journal { try await store.record(entry) }
        let item = try await store.history(HistoryQuery(item: "krz/app#34"))
        #expect(item.map(\.action) == ["close", "comment", "close"])
        #expect(item.map(\.outcome) == ["failed", "applied", nil])
        #expect(item.map(\.attempted) == [true, true, false])
        #expect(item.map(\.run) == ["r2", "r1", "r1"])
        #expect(item[1].reasons == reasons)
        #expect(item[1].resultAt == journal[3].at)
        #expect(item[0].detail == nil && item[0].resultAt == journal[5].at)
        #expect(try await store.history(HistoryQuery(item: "krz/app#35")).map(\.outcome) == [nil])
        #expect(try await store.history(HistoryQuery(rule: "other")).map(\.run) == ["r2"])
        #expect(
            try await store.history(HistoryQuery(item: "krz/app#34", rule: "close-stale")).map(\.action) == [
                "comment", "close",
            ])
        #expect(try await store.history(HistoryQuery(since: journal[2].at)).map(\.run) == ["r3", "r2", "r1"])
        // A result after `since` belongs to its intent before it, and is not listed on its own.
        #expect(try await store.history(HistoryQuery(since: journal[3].at)).map(\.run) == ["r3", "r2"])
        #expect(try await store.history(HistoryQuery(limit: 2)).map(\.run) == ["r3", "r2"])
        #expect(try await store.history(HistoryQuery(item: "krz/app")).isEmpty)
    }

    /// Retention forgets old finished work but never what a later run would still finish.
    @Test func pruneDropsOldSettledWorkAndKeepsWhatIsUnfinished() async throws {
        let path = scratchDatabase()
        let store = try SQLiteStateStore(path: path, mode: .applying)
        let settled = (0..<500).flatMap { index in
            [
                entry("s\(index)", .intent, "close", item: "krz/app#\(1000 + index)", at: Double(index)),
                entry(
                    "s\(index)", .result, "close", outcome: "applied", item: "krz/app#\(1000 + index)",
                    at: Double(index)),
            ]
        }
        // Run u1 also finished work on another item: that goes, the run's record stays.
        let unfinished = [
            entry("u1", .intent, "close", item: "krz/app#98", at: 0),
            entry("u1", .result, "close", outcome: "applied", item: "krz/app#98", at: 0),
            entry("u1", .intent, "comment", at: 1), entry("u1", .result, "comment", outcome: "applied", at: 1),
            entry("u1", .intent, "close", at: 2), entry("u1", .result, "close", outcome: "failed", at: 2),
        ]
        // A later run finished what an earlier one left; its entries are older (a clock set back,
        // say), but dropping them alone would bring the earlier run's leftover back.
        let finishedLater = [
            entry("f1", .intent, "comment", item: "krz/app#99", at: 300),
            entry("f1", .result, "comment", outcome: "applied", item: "krz/app#99", at: 300),
            entry("f1", .intent, "close", item: "krz/app#99", at: 301),
            entry("f2", .intent, "close", item: "krz/app#99", at: 20),
            entry("f2", .result, "close", outcome: "already-done", item: "krz/app#99", at: 20),
        ]
        try await store.importJournal(settled + unfinished + finishedLater, key: "old")
        try await store.beginRun(
            RunRecord(id: "s1", command: "run", startedAt: Date(timeIntervalSince1970: 1_790_000_000)))
        try await store.finishRun(id: "s1", at: Date(timeIntervalSince1970: 1_790_000_001), exitCode: 0)
        try await store.beginRun(
            RunRecord(id: "u1", command: "apply", startedAt: Date(timeIntervalSince1970: 1_790_000_000)))
        try await store.finishRun(id: "u1", at: Date(timeIntervalSince1970: 1_790_000_003), exitCode: 1)
        let before = try await store.unfinishedActions()
        #expect(before.map(\.action) == ["close"])
        let pages = try SQLiteConnection(path: path, access: .readOnly).integer("PRAGMA page_count")

        #expect(try await store.prune(resultsBefore: Date(timeIntervalSince1970: 1_790_000_250)) == 502)
        #expect(try await store.unfinishedActions() == before)
        let kept = Array(unfinished.dropFirst(2))
        #expect(try storedEntries(path) == Array(settled.suffix(500)) + kept + finishedLater)
        #expect(try await store.run(id: "s1") == nil)
        #expect(try await store.run(id: "u1")?.exitCode == 1)

        #expect(
            try await store.prune(resultsBefore: Date(timeIntervalSince1970: 1_790_001_000)) == 500
                + finishedLater.count)
        #expect(try await store.unfinishedActions() == before)
        #expect(try storedEntries(path) == kept)
        #expect(try await store.prune(resultsBefore: .distantFuture) == 0)
        #expect(try await store.run(id: "u1")?.exitCode == 1)
        #expect(try await store.unfinishedActions() == before)
        // The freed pages went back to the file system.
        let connection = try SQLiteConnection(path: path, access: .readOnly)
        #expect(try connection.integer("PRAGMA page_count") < pages / 2)
        #expect(try connection.integer("PRAGMA freelist_count") * 4 <= connection.integer("PRAGMA page_count"))
    }

    @Test func anImportIsAllOrNothingAndHappensOnce() async throws {
        let path = scratchDatabase()
        let store = try SQLiteStateStore(path: path, mode: .applying)
        let journal = (0..<1_000).map { entry("r\($0)", .intent, "close", item: "krz/app#\($0 + 1)", at: Double($0)) }
        var refused = journal
        refused[700].action = "refused"
        let connection = try SQLiteConnection(path: path, access: .readWrite)
        try connection.execute(
            """
            CREATE TRIGGER refuse BEFORE INSERT ON journal WHEN NEW.action = 'refused'
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """)
        await #expect(throws: StateStoreError.self) { try await store.importJournal(refused, key: "journal.jsonl") }
        #expect(try storedEntries(path).isEmpty)
        try connection.execute("DROP TRIGGER refuse")
        connection.close()
        #expect(try await store.importJournal(journal, key: "journal.jsonl"))
        #expect(try await !store.importJournal(journal, key: "journal.jsonl"))
        #expect(try storedEntries(path) == journal)
        #expect(try await store.importJournal(Array(journal.prefix(1)), key: "another.jsonl"))
        #expect(try storedEntries(path).count == journal.count + 1)
    }

    @Test func runsAreRecordedAndFinished() async throws {
        let store = try SQLiteStateStore(path: scratchDatabase(), mode: .applying)
        let started = Date(timeIntervalSince1970: 1_790_000_000.25)
        try await store.beginRun(RunRecord(id: "r1", command: "watch", startedAt: started))
        #expect(try await store.run(id: "r1") == RunRecord(id: "r1", command: "watch", startedAt: started))
        try await store.finishRun(id: "r1", at: started + 60, exitCode: 75)
        try await store.finishRun(id: "never-begun", at: started, exitCode: 0)
        #expect(
            try await store.run(id: "r1")
                == RunRecord(id: "r1", command: "watch", startedAt: started, finishedAt: started + 60, exitCode: 75))
        #expect(try await store.run(id: "never-begun") == nil)
    }

    /// `history --limit N` reads a window of the newest entries; it must give what the whole
    /// journal gives, also when an import added older entries after newer ones, and at ties.
    @Test func theNewestRecordsAreTheSameWhateverTheOrderEntriesCameIn() async throws {
        let path = scratchDatabase()
        let store = try SQLiteStateStore(path: path, mode: .applying)
        let twin = InMemoryStateStore()
        var journals = RandomJournals(random: SeededGenerator(seed: 0x7769_6e64))
        let items = (1...40).map { "krz/app#\($0)" }
        for index in 0..<60 {
            let journal = journals.next(items: items, start: Double(1_000 + index * 7))
            for entry in journal {
                try await store.record(entry)
                twin.record(entry)
            }
        }
        // Older entries, written after the newer ones, with times that tie theirs.
        let old = (0..<30).flatMap { index in journals.next(items: items, start: Double(index * 20)) }
        #expect(try await store.importJournal(old, key: "old"))
        #expect(twin.importJournal(old, key: "old"))
        for limit in [1, 2, 3, 5, 8, 13, 40, 100, 1_000] {
            for rule in [nil, "mark-stale"] {
                let query = HistoryQuery(rule: rule, limit: limit)
                #expect(try await store.history(query) == twin.history(query), "\(query)")
            }
        }
    }

    /// Results recorded long after their intents crowd the newest entries: the newest record is
    /// an intent older than all of them, and the window must grow to find it.
    @Test func theNewestRecordIsFoundBehindLaterResultsOfOlderIntents() async throws {
        let store = try SQLiteStateStore(path: scratchDatabase(), mode: .applying)
        let twin = InMemoryStateStore()
        var journal = (1...10).map { entry("r\($0)", .intent, "close", item: "krz/app#\($0)", at: Double($0)) }
        journal.append(entry("r0", .intent, "close", item: "krz/app#99", at: 50))
        journal += (1...10).map {
            entry("r\($0)", .result, "close", outcome: "applied", item: "krz/app#\($0)", at: Double(100 + $0))
        }
        for entry in journal {
            try await store.record(entry)
            twin.record(entry)
        }
        let newest = try await store.history(HistoryQuery(limit: 1))
        #expect(newest.map(\.item) == ["krz/app#99"])
        #expect(newest == twin.history(HistoryQuery(limit: 1)))
    }
}
