/// What one client has spent: requests by kind, retries, refusals and time spent waiting.
///
/// Reports and benchmarks read it to state a run's cost in requests and waits, which is what the
/// server's rate limits are measured in.
public struct ClientMetrics: Sendable, Hashable {
    /// Read requests sent, retries included.
    public var reads = 0
    /// Write requests sent, retries included.
    public var writes = 0
    /// Requests sent again after a failure.
    public var retries = 0
    /// 429 answers received.
    public var rateLimitedResponses = 0
    /// 503 answers received.
    public var busyResponses = 0
    /// "too many writes" refusals received.
    public var tooManyWritesResponses = 0
    /// Writes refused locally because the client is read-only.
    public var refusedWrites = 0
    /// Time spent waiting for the client's own pacing.
    public var pacingWait = Duration.zero
    /// Time spent waiting because the server said so (`Retry-After`, "try again in").
    public var serverWait = Duration.zero
    /// Time spent in backoff before retries.
    public var backoffWait = Duration.zero

    public init() {}

    /// Requests sent in all.
    public var requests: Int { reads + writes }

    /// All time spent waiting, for whatever reason.
    public var totalWait: Duration { pacingWait + serverWait + backoffWait }
}
