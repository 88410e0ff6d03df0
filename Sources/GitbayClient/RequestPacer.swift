import GitbayKit
import Synchronization

/// Paces requests to the server's budgets: one bucket for all requests, one for HTTP writes and one
/// for the account-wide write limit, where a write spends from all three.
///
/// Shared by every concurrent request of one client, so its buckets live behind a lock; the waiting
/// itself happens outside it.
final class RequestPacer: Sendable {
    private struct Buckets {
        var requests: TokenBucket
        var writes: TokenBucket
        var accountWrites: TokenBucket?
    }

    private let buckets: Mutex<Buckets>

    init(limits: RateLimits, now: Duration) {
        let scale = max(limits.timeScale, 0.000_001)
        let allowance = limits.latencyAllowance
        let requests = TokenBucket(
            capacity: limits.requestsPerMinute, perMinute: limits.requestsPerMinute * scale, now: now,
            latencyAllowance: allowance)
        let writes = TokenBucket(
            capacity: limits.writesPerMinute, perMinute: limits.writesPerMinute * scale, now: now,
            latencyAllowance: allowance)
        let accountWrites = limits.accountWritesPerMinute.map {
            TokenBucket(capacity: $0, perMinute: $0 * scale, now: now, latencyAllowance: allowance)
        }
        buckets = Mutex(Buckets(requests: requests, writes: writes, accountWrites: accountWrites))
    }

    /// Reserves a slot for one request and returns how long to wait before sending it, and the
    /// budget that makes it wait longest (what a person watching is told it waits for).
    func reserve(_ effect: CommandEffect, now: Duration) -> (wait: Duration, budget: ClientEvent.PacingBudget) {
        buckets.withLock { buckets in
            var longest = (wait: buckets.requests.reserve(now: now), budget: ClientEvent.PacingBudget.requests)
            func consider(_ wait: Duration, _ budget: ClientEvent.PacingBudget) {
                if wait > longest.wait { longest = (wait, budget) }
            }
            if effect == .write {
                consider(buckets.writes.reserve(now: now), .writes)
                if var account = buckets.accountWrites {
                    consider(account.reserve(now: now), .accountWrites)
                    buckets.accountWrites = account
                }
            }
            return longest
        }
    }

    /// Holds back the buckets an answer named: the server's own limiter is ahead of ours.
    func hold(_ scope: HoldScope, for wait: Duration, now: Duration) {
        buckets.withLock { buckets in
            switch scope {
            case .requests:
                buckets.requests.hold(for: wait, now: now)
            case .writes:
                buckets.writes.hold(for: wait, now: now)
            case .accountWrites:
                buckets.accountWrites?.hold(for: wait, now: now)
            }
        }
    }

    /// Which budget a server refusal spoke of.
    enum HoldScope {
        /// A 429 on a read: the request bucket is empty.
        case requests
        /// A 429 on a write: the HTTP write bucket is empty.
        case writes
        /// "too many writes": the account-wide limiter refused.
        case accountWrites
    }
}
