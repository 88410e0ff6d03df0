import Foundation
import RuleEngine
import StateDatabase
import Testing

/// The webhook deliveries a watcher took, in the file as in memory: a delivery gitbay sends again
/// acts once, across a restart, and the ids kept stay bounded.
@Suite struct DeliveryLogTests {
    private let at = Date(timeIntervalSince1970: 1_790_000_000)

    private func stores() throws -> [any StateStore] {
        [try SQLiteStateStore(path: scratchDatabase(), mode: .applying), InMemoryStateStore()]
    }

    @Test func aDeliveryIsTakenOnceAndStillKnownAfterTheStoreIsOpenedAgain() async throws {
        let path = scratchDatabase()
        do {
            let store = try SQLiteStateStore(path: path, mode: .applying)
            #expect(try await store.takeDelivery(41, at: at))
            #expect(try await store.takeDelivery(41, at: at) == false)
            #expect(try await store.takeDelivery(40, at: at), "deliveries may arrive out of order")
            await store.close()
        }
        let store = try SQLiteStateStore(path: path, mode: .applying)
        #expect(try await store.takeDelivery(41, at: at) == false)
        #expect(try await store.takeDelivery(42, at: at))
    }

    @Test func onlyIdsWithinTheWindowOfTheNewestAreKeptAndOlderOnesAreNotTakenAgain() async throws {
        let kept = InMemoryStateStore.deliveriesKept
        for store in try stores() {
            #expect(try await store.takeDelivery(1, at: at))
            #expect(try await store.takeDelivery(2, at: at))
            #expect(try await store.takeDelivery(kept + 2, at: at), "\(store)")
            // 1 fell out of the window and 2 is at its edge: neither is taken again.
            #expect(try await store.takeDelivery(1, at: at) == false, "\(store)")
            #expect(try await store.takeDelivery(2, at: at) == false, "\(store)")
            #expect(try await store.takeDelivery(3, at: at), "within the window, never seen: \(store)")
            #expect(try await store.takeDelivery(3, at: at) == false, "\(store)")
        }
    }
}
