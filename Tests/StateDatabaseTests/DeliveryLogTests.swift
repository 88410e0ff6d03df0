import Foundation
import RuleEngine
import StateDatabase
import Testing

/// A stand-in for the SHA-256 of delivery body `n`: the stores keep it as opaque bytes.
private func body(_ n: Int) -> [UInt8] {
    Array("body \(n)".utf8)
}

/// The webhook deliveries a watcher took, in the file as in memory: a delivery gitbay sends again
/// acts once, across a restart; a signed body replayed under another id acts not at all; and
/// neither an id nor a replay decides what is kept.
@Suite struct DeliveryLogTests {
    private let at = Date(timeIntervalSince1970: 1_790_000_000)

    private func stores() throws -> [any StateStore] {
        [try SQLiteStateStore(path: scratchDatabase(), mode: .applying), InMemoryStateStore()]
    }

    @Test func aDeliveryIsTakenOnceAndStillKnownAfterTheStoreIsOpenedAgain() async throws {
        let path = scratchDatabase()
        do {
            let store = try SQLiteStateStore(path: path, mode: .applying)
            #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at))
            #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at) == false)
            #expect(try await store.takeDelivery(40, bodyDigest: body(40), at: at), "out of order")
            await store.close()
        }
        let store = try SQLiteStateStore(path: path, mode: .applying)
        #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at) == false)
        #expect(try await store.takeDelivery(42, bodyDigest: body(42), at: at))
    }

    /// gitbay retries a delivery, and `webhook redeliver` queues it again, under its id with the
    /// body built afresh from the same event (`internal/webhook/webhook.go` `deliver`).
    @Test func aRedeliveryOfTheSameIdAndBodyIsStillADuplicate() async throws {
        for store in try stores() {
            #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at))
            #expect(try await store.takeDelivery(42, bodyDigest: body(42), at: at))
            for _ in 1...3 {
                #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at) == false, "\(store)")
            }
        }
    }

    /// `X-Gitbay-Delivery` is not signed: a captured body sent again under an id far beyond any
    /// gitbay gave is a replay, and it moves nothing, so the deliveries after it are taken.
    @Test func aCapturedBodyReplayedUnderAHugeIdLeavesLaterDeliveriesTaken() async throws {
        for store in try stores() {
            #expect(try await store.takeDelivery(41, bodyDigest: body(41), at: at))
            #expect(try await store.takeDelivery(Int.max, bodyDigest: body(41), at: at) == false, "\(store)")
            #expect(try await store.takeDelivery(42, bodyDigest: body(42), at: at), "the next genuine one: \(store)")
            #expect(try await store.takeDelivery(40, bodyDigest: body(40), at: at), "a late genuine one: \(store)")
        }
    }

    /// An id says nothing a signature vouches for: a body never taken, sent first under the id
    /// gitbay is about to use, does not make gitbay's own delivery of that id a duplicate.
    @Test func theSameIdWithAnotherBodyIsAnotherDelivery() async throws {
        for store in try stores() {
            #expect(try await store.takeDelivery(42, bodyDigest: body(7), at: at))
            #expect(try await store.takeDelivery(42, bodyDigest: body(42), at: at), "\(store)")
            #expect(try await store.takeDelivery(42, bodyDigest: body(42), at: at) == false, "\(store)")
        }
    }

    /// The newest ``DeliveryLog/deliveriesKept`` bodies taken are kept, in the order they came,
    /// whatever ids they came under: the first of one more than that is forgotten and taken again.
    @Test func theBodiesKeptAreTheNewestTakenWhateverTheirIds() async throws {
        let kept = InMemoryStateStore.deliveriesKept
        for store in try stores() {
            for n in 0...kept {
                #expect(try await store.takeDelivery(Int.max - n, bodyDigest: body(n), at: at), "\(n) \(store)")
            }
            #expect(try await store.takeDelivery(1, bodyDigest: body(kept), at: at) == false, "\(store)")
            #expect(try await store.takeDelivery(1, bodyDigest: body(1), at: at) == false, "\(store)")
            #expect(try await store.takeDelivery(1, bodyDigest: body(0), at: at), "forgotten: \(store)")
        }
    }
}
