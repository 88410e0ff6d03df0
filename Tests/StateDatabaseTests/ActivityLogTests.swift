import Foundation
import GitbayKit
import RuleEngine
import StateDatabase
import Testing

/// The feed's events a run keeps for the next, in the file as in memory: what `quiet` and
/// `label_age` weigh when a person removed a label or edited an item.
@Suite struct ActivityLogTests {
    private func event(
        _ id: Int, _ kind: String, actor: String? = "alice", number: Int? = 3, labels: [String]? = nil
    ) throws -> FeedEvent {
        FeedEvent(
            id: id, repo: try RepositoryPath("krz/app"), actor: actor, kind: kind, number: number,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(id)), labels: labels)
    }

    private func stores() throws -> [any StateStore] {
        [try SQLiteStateStore(path: scratchDatabase(), mode: .applying), InMemoryStateStore()]
    }

    @Test func eventsAndThePositionAreKeptAcrossOpenings() async throws {
        let path = scratchDatabase()
        do {
            let store = try SQLiteStateStore(path: path, mode: .applying)
            #expect(try await store.activityPosition() == nil)
            try await store.keepActivity(
                [try event(7, "issue.labeled", labels: []), try event(9, "issue.closed", actor: nil)], position: 12)
            await store.close()
        }
        let store = try SQLiteStateStore(path: path, mode: .applying)
        #expect(try await store.activityPosition() == 12)
        let kept = try await store.keptActivity()
        #expect(kept.map(\.id) == [7, 9])
        #expect(kept.map(\.labels) == [[], nil])
        #expect(kept.map(\.actor) == ["alice", nil])
        let first = try event(7, "issue.labeled", labels: [])
        #expect(kept.first == first)
    }

    @Test func theSameEventTwiceIsKeptOnceAndThePositionNeverGoesBack() async throws {
        for store in try stores() {
            try await store.keepActivity([try event(5, "issue.edited")], position: 20)
            try await store.keepActivity([try event(5, "issue.edited"), try event(6, "issue.edited")], position: 8)
            #expect(try await store.keptActivity().map(\.id) == [5, 6], "\(store)")
            #expect(try await store.activityPosition() == 20, "\(store)")
        }
    }

    @Test func anEventAboutNoItemIsNotKept() async throws {
        for store in try stores() {
            try await store.keepActivity([try event(5, "repo.archived", number: nil)], position: 5)
            #expect(try await store.keptActivity().isEmpty, "\(store)")
            #expect(try await store.activityPosition() == 5, "\(store)")
        }
    }

    /// Old events go, but for each item's newest label event before the date: without it the
    /// label `stale` added after it could not be dated, and a close waiting on its age would wait
    /// for ever.
    @Test func retentionDropsOldEventsButAnItemsLastLabelEventBeforeThem() async throws {
        for store in try stores() {
            try await store.keepActivity(
                [
                    try event(1, "issue.labeled", labels: []), try event(2, "issue.labeled", labels: ["bug"]),
                    try event(3, "issue.edited"), try event(4, "issue.labeled", number: 9, labels: []),
                    try event(100, "issue.labeled", labels: ["bug", "stale"]),
                ], position: 100)
            try await store.prune(resultsBefore: Date(timeIntervalSince1970: 1_790_000_050))
            #expect(try await store.keptActivity().map(\.id) == [2, 4, 100], "\(store)")
        }
    }

    /// What the bot itself did, read every run: only the writes that landed.
    @Test func appliedWritesAreTheResultsThatLanded() async throws {
        for store in try stores() {
            for recorded in [
                entry("r1", .intent, "add-label", at: 1), entry("r1", .result, "add-label", outcome: "applied", at: 2),
                entry("r1", .intent, "comment", at: 3), entry("r1", .result, "comment", outcome: "failed", at: 4),
                entry("r2", .planned, "close", at: 5),
            ] {
                try await store.record(recorded)
            }
            let writes = try await store.appliedWrites()
            #expect(writes.map(\.action) == ["add-label"], "\(store)")
            #expect(writes.map(\.at) == [Date(timeIntervalSince1970: 1_790_000_002)], "\(store)")
        }
    }
}
