import Foundation
import GitbayKit
import RuleEngine
import Testing

@testable import BotCLI
@testable import Watch

/// A delivery of `kind` in `krz/app`, gitbay's delivery `id`.
private func delivery(_ id: Int, _ kind: String = "push") throws -> WebhookInbox.Delivery {
    WebhookInbox.Delivery(
        id: id, bodyDigest: [UInt8(truncatingIfNeeded: id)],
        event: FeedEvent(
            id: 0, repo: try RepositoryPath("krz/app"), actor: "alice", kind: kind, number: nil,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000)))
}

/// The inbox between the status server's threads and the watcher: bounded, oldest first, and a
/// waiter woken by the first delivery (or its task's cancellation) and never lost.
@Suite(.timeLimit(.minutes(1))) struct WebhookInboxTests {
    @Test func deliveriesAreTakenOldestFirstAndAFullInboxRefuses() throws {
        let inbox = WebhookInbox()
        for id in 1...WebhookInbox.capacity { #expect(inbox.offer(try delivery(id))) }
        #expect(inbox.offer(try delivery(0)) == false, "full: the endpoint answers 503 and gitbay retries")
        let taken = inbox.take()
        #expect(taken.map(\.id) == Array(1...WebhookInbox.capacity))
        #expect(inbox.take().isEmpty)
        #expect(inbox.offer(try delivery(7)))
    }

    @Test func aWaiterIsWokenByADeliveryOrByCancellation() async throws {
        let inbox = WebhookInbox()
        let waiter = Task { await inbox.arrival() }
        // Whether the offer comes before the wait begins or after, the waiter returns.
        #expect(inbox.offer(try delivery(1)))
        await waiter.value
        #expect(inbox.take().map(\.id) == [1])

        let cancelled = Task { await inbox.arrival() }
        cancelled.cancel()
        await cancelled.value
        #expect(inbox.take().isEmpty)
    }

    @Test func aSpellOfRefusalsWakesTheWaiterAndIsTakenOnce() async {
        let inbox = WebhookInbox()
        let waiter = Task { await inbox.arrival() }
        inbox.refusalsBegan()
        await waiter.value
        #expect(inbox.take().isEmpty, "no delivery came")
        #expect(inbox.takeRefusals())
        #expect(!inbox.takeRefusals())
    }

    @Test func theScopeDecidesWhatIsLookedAfter() throws {
        let inbox = WebhookInbox()
        #expect(inbox.covers(try RepositoryPath("krz/app")) == false, "no rules yet")
        inbox.scope(RuleScope(terms: [.repository("krz/app")]))
        #expect(inbox.covers(try RepositoryPath("krz/app")))
        #expect(inbox.covers(try RepositoryPath("krz/site")) == false)
    }
}
