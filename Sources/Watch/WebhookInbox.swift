import GitbayKit
import RuleEngine
import Synchronization

/// The webhook deliveries `watch --listen` accepted that the watcher has not taken yet.
///
/// The status server's threads offer each delivery whose signature holds and answer gitbay at
/// once; the watcher takes them at its next step, which a delivery starts at once when it idles.
/// Bounded: a full inbox refuses (the endpoint answers 503, and gitbay tries again later). A spell
/// of refused deliveries (``RefusedDeliveries``) rings it too: gitbay sent an event the watcher
/// could not take, so its idle spell shortens to the normal pace.
public final class WebhookInbox: Sendable {
    /// One accepted delivery: gitbay's delivery id, the digest of its signed body and the event it
    /// carries, as the feed would show it (without the feed's id, which a delivery does not carry).
    public struct Delivery: Sendable, Hashable {
        public let id: Int
        public let bodyDigest: [UInt8]
        public let event: FeedEvent
    }

    /// How many deliveries wait at most: far more than a pass takes to come round.
    public static let capacity = 1_000

    private struct State {
        var waiting: [Delivery] = []
        /// Whether a spell of refused deliveries began that the watcher has not taken yet.
        var refused = false
        var waiter: CheckedContinuation<Void, Never>?
        /// The repositories the rules look after, which decides what is ignored.
        var scope = RuleScope(terms: [])
    }

    private let state = Mutex(State())

    /// An empty inbox, whose scope holds no repository until the rules give it one.
    public init() {}

    /// The rules' scope changed (the start, a reload).
    public func scope(_ scope: RuleScope) {
        state.withLock { $0.scope = scope }
    }

    /// Whether the rules look after `repository`: a delivery for another is acknowledged and
    /// ignored.
    public func covers(_ repository: RepositoryPath) -> Bool {
        state.withLock { $0.scope.contains(repository) }
    }

    /// Queues `delivery`, waking the watcher; `false` when the inbox is full.
    public func offer(_ delivery: Delivery) -> Bool {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>?? in
            guard state.waiting.count < Self.capacity else { return nil }
            state.waiting.append(delivery)
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let woken else { return false }
        woken?.resume()
        return true
    }

    /// A spell of refused deliveries began: wakes the watcher.
    public func refusalsBegan() {
        state.withLock { state in
            state.refused = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Whether a spell of refused deliveries began since the last call.
    public func takeRefusals() -> Bool {
        state.withLock { state in
            defer { state.refused = false }
            return state.refused
        }
    }

    /// Every delivery waiting, oldest first, taken out.
    public func take() -> [Delivery] {
        state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
    }

    /// Returns once a delivery waits or a spell of refusals began, or the task is cancelled.
    public func arrival() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.waiting.isEmpty, !state.refused, !Task.isCancelled else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }
}
