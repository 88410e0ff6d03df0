/// The request budgets the client paces itself to, mirroring gitbay's server-side limiters.
///
/// gitbay's defaults are 120 requests a minute per account (burst 120), of which writes over HTTP
/// may be a tenth (12 a minute, burst 12), and a write spends from both; separately, 60 writes a
/// minute per account across SSH, web and API. Pacing to these means a run draws no 429 in the
/// first place. An operator whose server is configured differently sets the matching numbers.
public struct RateLimits: Sendable, Hashable {
    /// The API request rate per minute (`[limits] api_rate`); also the read burst.
    public var requestsPerMinute: Double
    /// The account-wide write rate per minute across all surfaces (`[limits] write_rate`); `nil` when off.
    public var accountWritesPerMinute: Double?
    /// Divides real time for every bucket, as the simulator's `--time-scale` does for benchmarks.
    public var timeScale: Double

    /// How much later than it is sent a request may reach the server's limiter (connecting, TLS,
    /// queueing); pacing keeps that much in hand so the server's bucket is never behind ours.
    public var latencyAllowance: Duration

    public init(
        requestsPerMinute: Double = 120, accountWritesPerMinute: Double? = 60, timeScale: Double = 1,
        latencyAllowance: Duration = .milliseconds(250)
    ) {
        self.requestsPerMinute = requestsPerMinute
        self.accountWritesPerMinute = accountWritesPerMinute
        self.timeScale = timeScale
        self.latencyAllowance = latencyAllowance
    }

    /// gitbay's defaults.
    public static let gitbayDefault = RateLimits()

    /// HTTP writes per minute: a tenth of the request rate, as `internal/httpd/apilimit.go` sets it.
    public var writesPerMinute: Double { requestsPerMinute / 10 }
}
