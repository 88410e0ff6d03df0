/// A token bucket that hands out reservations, so concurrent callers queue fairly instead of racing.
///
/// Reserving always succeeds: the token count may go negative, and the caller is told how long to
/// wait before its token exists. That keeps the bucket a plain value, driven by the clock readings
/// it is given, so its arithmetic is tested without sleeping.
public struct TokenBucket: Sendable, Hashable {
    /// The burst: the most tokens the bucket holds.
    public let capacity: Double
    /// Tokens added per second of clock time.
    public let refillPerSecond: Double
    /// Tokens available now; negative when reservations are queued.
    public private(set) var tokens: Double
    private var updatedAt: Duration

    /// How much later than our reservation the server may count a request: its bucket starts
    /// refilling only when the request arrives, so ours must not start sooner.
    public let latencyAllowance: Duration

    /// A full bucket of `capacity` tokens refilling at `perMinute`, its clock reading `now`.
    public init(capacity: Double, perMinute: Double, now: Duration, latencyAllowance: Duration = .zero) {
        self.capacity = max(capacity, 1)
        self.refillPerSecond = max(perMinute, 0.000_001) / 60
        self.tokens = self.capacity
        self.updatedAt = now
        self.latencyAllowance = latencyAllowance
    }

    /// A sliver of a token kept in hand, so that a request sent the instant our bucket refills
    /// does not meet a server bucket a rounding error short of full.
    static let slack = 0.02

    /// Takes one token and returns how long to wait until it is really there (zero when it is).
    public mutating func reserve(now: Duration) -> Duration {
        refill(now: now)
        if tokens >= capacity {
            // A full bucket loses refill at the cap; the server's stays full until our request
            // arrives, so ours resumes refilling no sooner than that.
            updatedAt = max(updatedAt, now + latencyAllowance)
        }
        tokens -= 1
        guard tokens < Self.slack else { return .zero }
        let pending = max(updatedAt - now, .zero)
        return pending + Self.duration(seconds: (Self.slack - tokens) / refillPerSecond)
    }

    /// Empties the bucket so that the next token appears no sooner than `wait` from `now`.
    ///
    /// Used when the server says `Retry-After`: its bucket, not ours, is the truth.
    public mutating func hold(for wait: Duration, now: Duration) {
        refill(now: now)
        let ceiling = 1 + Self.slack - wait.seconds * refillPerSecond
        tokens = min(tokens, ceiling)
    }

    private mutating func refill(now: Duration) {
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + (now - updatedAt).seconds * refillPerSecond)
        updatedAt = now
    }

    private static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
    }
}
