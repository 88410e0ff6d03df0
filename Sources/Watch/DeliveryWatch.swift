import Foundation
import GitbayKit

/// Whether gitbay's webhook deliveries reach the watcher, judged from the feed it still polls.
///
/// Every event gitbay records is delivered to a repository's hooks (pushes too, which the feed
/// never shows), so each event a poll reads should have come as a delivery first, or shortly
/// after: gitbay sends due deliveries on a 2 s tick and retries failures with backoff
/// (`internal/webhook/webhook.go`, `Run`, `fail`). An event a poll read that no delivery announced
/// within ``grace`` of the poll means deliveries are failing: the watcher says so, polls at its
/// normal pace again and runs a full pass for what the feed cannot show. Pure: the watcher tells
/// it what arrived and what it polled, on its monotonic clock, and asks how it stands.
public struct DeliveryWatch: Sendable, Equatable {
    /// How deliveries stand.
    enum Health: String, Sendable {
        /// None has arrived since the watcher started (or webhooks are not set up).
        case unproven
        /// They arrive, and every event polled came as one too.
        case working
        /// An event polled did not come as a delivery within the grace.
        case failing
    }

    /// One event as both a delivery and the feed name it: its kind, repository, actor and second.
    public struct Key: Hashable, Sendable {
        let kind: String
        let repo: String
        let actor: String?
        /// `created_at` to the second: the feed and a delivery print the same column, but a
        /// difference in how finely would make every event look missed.
        let second: Int64

        init(kind: String, repo: String, actor: String?, createdAt: Date) {
            self.kind = kind
            self.repo = repo
            self.actor = actor
            second = Int64(createdAt.timeIntervalSince1970.rounded(.down))
        }

        public init(_ event: FeedEvent) {
            self.init(kind: event.kind, repo: event.repo.description, actor: event.actor, createdAt: event.createdAt)
        }
    }

    /// How long after a poll an event it read may still come as a delivery.
    let grace: Duration
    /// The repositories a delivery came from: gitbay's hooks are per repository, so only these
    /// are expected to deliver.
    private(set) var hooked: Set<String> = []
    /// The repositories whose events a poll read that never came as a delivery: events there are
    /// heard only by polling.
    private(set) var unhooked: Set<String> = []
    /// Whether an event of a hooked repository failed to come as a delivery since the last one
    /// arrived with nothing else awaited.
    private var failing = false
    /// The events polled that no delivery has announced yet, with when the poll read each.
    ///
    /// A key stands for as many events as it has times: several events of one kind, repository,
    /// actor and second are common (the builds one push queues, a bot's cancels of one push's
    /// builds), and each is delivered and polled once. Counting them as one made the second look
    /// missed and deliveries failing.
    private var awaited: [Key: [Duration]] = [:]
    /// The events delivered that no poll has read yet, with when each arrived; as many as a key
    /// has times.
    private var announced: [Key: [Duration]] = [:]
    /// Events polled that never came as deliveries, since the watcher started.
    private(set) var missed = 0

    init(grace: Duration) {
        self.grace = grace
    }

    /// How deliveries stand: failing after a miss, working while every repository the polls
    /// hear from delivers, unproven before the first delivery or while some repository does not.
    var health: Health {
        if failing { return .failing }
        return !hooked.isEmpty && unhooked.isEmpty ? .working : .unproven
    }

    /// A delivery of the event `key` arrived at `now`.
    mutating func arrived(_ key: Key, at now: Duration) {
        hooked.insert(key.repo)
        unhooked.remove(key.repo)
        if !Self.takeOne(key, from: &awaited) { announced[key, default: []].append(now) }
        if awaited.isEmpty { failing = false }
        forget(before: now)
    }

    /// The start's check found `repository`'s hook to the watcher in order: it is expected to
    /// deliver, before any delivery has come (a quiet repository may send none for hours).
    mutating func vouch(for repository: String) {
        hooked.insert(repository)
    }

    /// A poll at `now` read `events`: each of a hooked repository that no delivery announced is
    /// awaited for ``grace``; one of another repository marks it as heard by polling only.
    mutating func polled(_ events: [FeedEvent], at now: Duration) {
        for event in events {
            let key = Key(event)
            guard !Self.takeOne(key, from: &announced) else { continue }
            if hooked.contains(key.repo) {
                awaited[key, default: []].append(now)
            } else {
                unhooked.insert(key.repo)
            }
        }
        forget(before: now)
    }

    /// When the grace of the event awaited longest ends, which is when ``check(at:)`` may next
    /// find deliveries failing; `nil` while nothing is awaited.
    var nextDeadline: Duration? {
        awaited.values.compactMap(\.first).min().map { $0 + grace + .milliseconds(1) }
    }

    /// Looks, at `now`, for awaited events whose grace is over: answers whether deliveries have
    /// just turned out to be failing (the watcher then runs a full pass).
    mutating func check(at now: Duration) -> Bool {
        var overdue = 0
        for (key, times) in awaited {
            let waiting = times.filter { now - $0 <= grace }
            overdue += times.count - waiting.count
            awaited[key] = waiting.isEmpty ? nil : waiting
        }
        guard overdue > 0 else { return false }
        missed += overdue
        defer { failing = true }
        return !failing
    }

    /// Takes the oldest of `key`'s times from `times`: answers whether there was one.
    private static func takeOne(_ key: Key, from times: inout [Key: [Duration]]) -> Bool {
        guard var left = times[key], !left.isEmpty else { return false }
        left.removeFirst()
        times[key] = left.isEmpty ? nil : left
        return true
    }

    /// Drops announcements no poll read within a long while (an event outside the feed's reach).
    private mutating func forget(before now: Duration) {
        let horizon = grace * 30
        announced = announced.compactMapValues { times in
            let kept = times.filter { now - $0 <= horizon }
            return kept.isEmpty ? nil : kept
        }
    }
}
