/// How the client retries what failed for a passing reason.
///
/// Reads are retried with capped exponential backoff and jitter; a write is retried only when the
/// server's answer proves it was not applied (a 429, a "too many writes" refusal, a busy 503, or a
/// connection that was never made), never after an ambiguous failure.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all for one request, the first included.
    public var maxAttempts: Int
    /// The first backoff; each further one doubles, up to ``maxDelay``.
    public var baseDelay: Duration
    /// The cap on one backoff.
    public var maxDelay: Duration
    /// The longest `Retry-After` the client will wait out; a longer one fails the request as rate-limited.
    public var maxRetryAfter: Duration

    public init(
        maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        maxRetryAfter: Duration = .seconds(120)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// The backoff before attempt `attempt + 1` (attempt counts from 1), scaled by `jitter` in 0...1.
    ///
    /// The jitter keeps the delay within its upper half, so a crowd of clients spreads out without
    /// any one of them retrying almost at once.
    public func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let uncapped = baseDelay * (1 << exponent)
        let capped = min(uncapped, maxDelay)
        let factor = 0.5 + 0.5 * min(max(jitter, 0), 1)
        return capped * factor
    }
}
