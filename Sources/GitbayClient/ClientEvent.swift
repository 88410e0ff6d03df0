import GitbayKit

/// Something the client did that a person watching a long run wants to know about.
///
/// The command line turns the longer waits into notes on stderr ("note: waiting 35 s for gitbay's
/// write budget (12 a minute)"); tests use them to see each wait and retry.
public enum ClientEvent: Sendable, Hashable {
    /// A request is about to be sent.
    case sending(argv: [String], effect: CommandEffect, attempt: Int)
    /// The client is about to wait before sending.
    case waiting(Duration, reason: WaitReason)
    /// A request failed for a passing reason (`failure`) and will be sent again.
    case retrying(argv: [String], attempt: Int, failure: GitbayError)

    /// Why the client waits.
    public enum WaitReason: Sendable, Hashable {
        /// Its own pacing to a budget: the one that makes it wait longest.
        case pacing(PacingBudget)
        /// The server answered 429 with `Retry-After`.
        case rateLimited
        /// The server answered 503 with `Retry-After`.
        case busy
        /// The server refused a write: "too many writes".
        case tooManyWrites
        /// Backoff before retrying a failure.
        case backoff
    }

    /// The budgets of ``RateLimits`` the client paces itself to.
    public enum PacingBudget: Sendable, Hashable {
        /// Every request: ``RateLimits/requestsPerMinute``.
        case requests
        /// Writes over HTTP: ``RateLimits/writesPerMinute``.
        case writes
        /// The account's writes across all of gitbay: ``RateLimits/accountWritesPerMinute``.
        case accountWrites
    }
}
