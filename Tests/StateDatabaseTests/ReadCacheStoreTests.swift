import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import StateDatabase

private let issues = ItemKind(rawValue: "issues")
private let mergeRequests = ItemKind(rawValue: "merge_requests")

private func detail(
    _ item: String, _ kind: ItemKind = issues, version: String = "v1", payload: String = "{}", storedAt: Date? = nil
)
    -> CachedDetail
{
    CachedDetail(item: item, kind: kind, format: 1, version: version, payload: payload, storedAt: storedAt)
}

/// The read cache in the database keeps what it is given by item, answers by kind, and forgets an
/// item when a write to it is about to go out, as the in-memory twin does.
@Suite struct ReadCacheStoreTests {
    /// Both stores, fresh.
    private func stores() throws -> [any StateStore] {
        [try SQLiteStateStore(path: scratchDatabase(), mode: .applying), InMemoryStateStore()]
    }

    @Test func detailsAreKeptByItemAndReadBackByKind() async throws {
        for store in try stores() {
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            try await store.storeDetails(
                [detail("krz/app#1"), detail("krz/app#2", payload: "{\"n\":2}"), detail("krz/app!1", mergeRequests)],
                at: date)
            let later = date.addingTimeInterval(900)
            try await store.storeDetails([detail("krz/app#1", version: "v2")], at: later)
            let kept = try await store.cachedDetails(of: issues).sorted { $0.item < $1.item }
            // Each with the date of its own store: what the sweep judges a repository's copy by.
            #expect(
                kept == [
                    detail("krz/app#1", version: "v2", storedAt: later),
                    detail("krz/app#2", payload: "{\"n\":2}", storedAt: date),
                ], "\(store)")
            #expect(try await store.cachedDetails(of: mergeRequests).map(\.item) == ["krz/app!1"])
        }
    }

    /// The bot's own write may move what the detail says without moving its version (a label,
    /// an assignee), so the intent drops the item's entry before the write is sent; a planned
    /// entry or a result leaves it alone.
    @Test func anIntentDropsItsItemsDetailAndNothingElse() async throws {
        for store in try stores() {
            try await store.storeDetails([detail("krz/app#34"), detail("krz/app#35")], at: Date())
            try await store.record(entry("r1", .planned, "close", at: 1))
            #expect(try await store.cachedDetails(of: issues).count == 2)
            try await store.record(entry("r1", .intent, "close", at: 2))
            #expect(try await store.cachedDetails(of: issues).map(\.item) == ["krz/app#35"], "\(store)")
        }
    }

    /// Retention lets go of details kept before its date (items not seen since), keeping newer ones.
    @Test func pruningDropsDetailsKeptBeforeItsDate() async throws {
        for store in try stores() {
            let old = Date(timeIntervalSince1970: 1_790_000_000)
            try await store.storeDetails([detail("krz/app#1")], at: old)
            try await store.storeDetails([detail("krz/app#2")], at: old.addingTimeInterval(86_400))
            try await store.prune(resultsBefore: old.addingTimeInterval(3_600))
            #expect(try await store.cachedDetails(of: issues).map(\.item) == ["krz/app#2"], "\(store)")
        }
    }

    /// `watch` goes on from the feed position a stopped watcher recorded, in the file as in memory.
    @Test func theFeedPositionIsKeptAcrossOpenings() async throws {
        let path = scratchDatabase()
        do {
            let store = try SQLiteStateStore(path: path, mode: .applying)
            #expect(try await store.feedPosition() == nil)
            try await store.setFeedPosition(41)
            try await store.setFeedPosition(97)
            await store.close()
        }
        #expect(try await SQLiteStateStore(path: path, mode: .applying).feedPosition() == 97)
        let memory = InMemoryStateStore()
        memory.setFeedPosition(5)
        #expect(memory.feedPosition() == 5)
    }

    /// A plan keeps the cache of a database a run made, without the run's lock (so a plan never
    /// makes a run wait); the caching mode never makes a database itself (the command line makes
    /// one in the applying mode first, `ReadCacheCommandTests`).
    @Test func aPlanUsesARunsDatabaseWithoutItsLockAndMakesNone() async throws {
        let missing = scratchDatabase()
        #expect(throws: StateStoreError.self) { _ = try SQLiteStateStore(path: missing, mode: .caching) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let path = scratchDatabase()
        let run = try SQLiteStateStore(path: path, mode: .applying)
        let plan = try SQLiteStateStore(path: path, mode: .caching)
        try await plan.storeDetails([detail("krz/app#1")], at: Date())
        #expect(try await run.cachedDetails(of: issues).map(\.item) == ["krz/app#1"])
    }
}
